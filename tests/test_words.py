"""The grammar helper: articles by sound, plurals by the head word, counts that agree."""

from __future__ import annotations

import re

import pytest

from generator.engine.words import (
    agree,
    article,
    count,
    join,
    noun,
    plural,
    sentence,
    verb,
    with_article,
)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("ossuary crypt", "an"),
        ("iron door", "an"),
        ("unicorn horn", "a"),
        ("one-eyed giant", "a"),
        ("hour glass", "an"),
        ("herb-wife", "a"),  # British English, as the tables write it
        ("8-foot pole", "an"),
        ("18-inch blade", "an"),
        ("3-foot pit", "a"),
        ("S", "an"),
        ("yellow mold", "a"),
        ("", "a"),
    ],
)
def test_article_follows_the_sound(phrase: str, expected: str) -> None:
    assert article(phrase) == expected


@pytest.mark.parametrize(
    ("singular", "expected"),
    [
        ("giant", "giants"),
        ("wolf", "wolves"),
        ("bolt of silk", "bolts of silk"),
        ("giant rat", "giant rats"),
        ("ooze", "oozes"),
        ("torch", "torches"),
        ("ruby", "rubies"),
        ("swordsman", "swordsmen"),
        ("human", "humans"),
        ("hit die", "hit dice"),
        ("sheep", "sheep"),
        ("Dwarf", "Dwarves"),
    ],
)
def test_plural_changes_the_head_word(singular: str, expected: str) -> None:
    assert plural(singular) == expected


def test_counts_and_verbs_agree() -> None:
    assert count(1, "giant") == "1 giant"
    assert count(3, "giant") == "3 giants"
    assert count(1, "hit die") == "1 hit die"
    assert count(2, "hit die") == "2 hit dice"
    assert count(2, "cyclops", "cyclopes") == "2 cyclopes"
    assert count(1200, "coin") == "1,200 coins"
    assert noun(1, "giant") == "giant" and noun(0, "giant") == "giants"
    assert verb(1, "is", "are") == "is" and verb(2, "is", "are") == "are"


def test_sentences_and_lists() -> None:
    assert sentence("the lamp gutters") == "The lamp gutters."
    assert sentence("Who goes there?") == "Who goes there?"
    assert sentence("  ") == ""
    assert join(["a", "b", "c"]) == "a, b and c"
    assert join(["a"]) == "a"
    assert join(["a", "b"], "or") == "a or b"


# --------------------------------------------------------------------------- every counted entry
# Issue 12: "1 Giant are bathing", "1 hit dice". Every table entry that is printed after a count
# (a monster's name, an activity that follows its monsters, a region encounter's doing) is
# rendered with one and with several, and must agree both ways.

_SINGULAR_VERB = re.compile(r"^(is|has|was|does|goes|[a-z]+[^s]s|[a-z]+ss?es)\b")
ACTIVITY_TABLES = ("site/activities", "site/encounter-activities")


def _activities(tables) -> list[tuple[str, int, str]]:
    out = [(tid, e.line, e.result) for tid in ACTIVITY_TABLES for e in tables.entries(tid)]
    for tid in tables.ids():
        if tid.startswith("region/encounters/"):
            out += [(tid, e.line, e["doing"]) for e in tables.entries(tid)]
    return out


def test_every_activity_agrees_with_one_and_with_several(builtin_tables) -> None:
    checked = 0
    for tid, line, text in _activities(builtin_tables):
        one, several = agree(text, 1), agree(text, 3)
        first_one, first_several = one.split()[0], several.split()[0]
        assert _SINGULAR_VERB.match(first_one), (tid, line, one)
        # Written for a group: several keep the table's own verb.
        assert first_several == text.split()[0], (tid, line, several)
        assert first_one != first_several, (tid, line, text)
        checked += 1
    assert checked > 100


def test_every_monster_counts_in_its_own_words(builtin_tables) -> None:
    from generator.build.monsters import bestiary

    for m in bestiary(builtin_tables).monsters:
        assert count(1, m.name, m.plural) == f"1 {m.name}"
        assert count(2, m.name, m.plural) == f"2 {m.plural}"
        # The table's plural is the plural: a regular one is what the helper would make.
        if m.plural.lower() != plural(m.name).lower():
            assert m.plural != m.name or m.name.lower() in ("sheep", "deer"), m.name


def test_a_rendered_monster_line_agrees(builtin_tables) -> None:
    """The phrase a booklet prints: '1 giant is bathing', '3 giants are bathing'."""
    from generator.build.monsters import bestiary

    doing = "are bathing in a pool, their gear heaped on the bank"
    giant = bestiary(builtin_tables).find("Giant")
    assert giant is not None
    assert f"{count(1, giant.name, giant.plural)} {agree(doing, 1)}".startswith("1 Giant is")
    assert f"{count(3, giant.name, giant.plural)} {agree(doing, 3)}".startswith("3 giants are")


@pytest.mark.parametrize(
    ("phrase", "one", "several"),
    [
        ("are sleeping", "is sleeping", "are sleeping"),
        ("sleep in a heap", "sleeps in a heap", "sleep in a heap"),
        ("watch the door", "watches the door", "watch the door"),
        ("carry sacks", "carries sacks", "carry sacks"),
        ("have a map", "has a map", "have a map"),
        ("is alone", "is alone", "are alone"),
    ],
)
def test_agree(phrase: str, one: str, several: str) -> None:
    assert agree(phrase, 1) == one and agree(phrase, 2) == several


def test_articles_for_the_words_the_issue_found() -> None:
    assert with_article("ossuary crypt") == "an ossuary crypt"
    assert with_article("usage die") == "a usage die"
    assert count(1, "hit die") == "1 hit die"


# --------------------------------------------------------------------------- sentence ends


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("A painted saint, 25 c.p.", True),  # the abbreviation's full stop serves
        ("A scroll, 700 c.p. (7 g.p.)", False),  # a bracket closing an abbreviation does not
        ("A ring (It is cursed.)", True),
        ("A mark (half-erased)", False),
        ('She says "Go."', True),
        ("Run!", True),
        ("a lamp", False),
        ("", True),
    ],
)
def test_a_sentence_ends_once(text: str, ends: bool) -> None:
    from generator.engine.words import ends_sentence, stop

    assert ends_sentence(text) is ends
    assert stop(text) == (text if ends else text + ".")
    assert ".." not in stop(text)


# --------------------------------------------------------------------------- counted nouns


def _every_roll(template) -> dict[int, str]:
    """Each value each counted die of a compiled text can roll, with the words it prints."""
    from generator.engine.texts import counted

    out = {}
    for part in template.parts:
        if isinstance(part, tuple) and part[0] == "dice" and part[2]:
            for n in part[1].distribution():
                out[n] = counted(n, part[2], part[3])
    return out


def test_a_die_before_a_noun_names_both_forms_and_agrees() -> None:
    """Issue 12: `{1d3} locks` printed "1 locks" one time in three."""
    from generator.engine.texts import compile_template

    assert _every_roll(compile_template("with {1d3 lock|locks} and one key missing")) == {
        1: "1 lock",
        2: "2 locks",
        3: "3 locks",
    }
    silk = compile_template("{d2 + 1 bolt of silk|bolts of silk}")
    assert set(_every_roll(silk).values()) == {"2 bolts of silk", "3 bolts of silk"}
    geese = _every_roll(compile_template("{1d2 goose|geese} hiss"))
    assert geese == {1: "1 goose", 2: "2 geese"}


@pytest.mark.parametrize("bad", ["{1d3 lock|}", "{lock|locks}", "{1d3 |locks}", "{1d3 a|b|c}"])
def test_a_counted_noun_written_wrong_is_one_line(bad: str) -> None:
    from generator.engine.texts import compile_template
    from generator.errors import DelveError

    with pytest.raises(DelveError, match="bad counted noun .*write a die, the noun for one"):
        compile_template(bad)


def test_every_count_of_a_noun_in_the_tables_agrees(builtin_tables) -> None:
    """Every built-in table entry that holds a die: a die followed by a word counts that word,
    so it must name the word's two forms; and over every roll of its die the count and the noun
    agree ('1 camel', '7 camels')."""
    counted_dice = 0
    for table_id in builtin_tables.ids():
        for entry in builtin_tables.get(table_id).entries:
            for name, tpl in [("result", entry.template), *entry.templates.items()]:
                parts = list(tpl.parts)
                for i, part in enumerate(parts):
                    if not (isinstance(part, tuple) and part[0] == "dice"):
                        continue
                    after = parts[i + 1] if i + 1 < len(parts) else ""
                    where = f"{table_id}:{entry.line} ({name})"
                    if not part[2]:
                        assert not (isinstance(after, str) and re.match(r"\s+[A-Za-z]", after)), (
                            f"{where}: a die before a noun names both forms, {{1d3 lock|locks}}"
                        )
                        continue
                    counted_dice += 1
                    assert part[2] != part[3], where
                    for n, said in _every_roll(tpl).items():
                        assert said == f"{n} {part[2] if n == 1 else part[3]}", (where, said)
    assert counted_dice >= 2  # the desert's camels and the plains' ox-wagons


def test_the_readme_custom_table_never_prints_one_locks(run_cli, tmp_path) -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = re.search(r"```yaml\n(# my-tables/site/passages/locked-door.yaml.*?)```", readme, re.S)
    assert block and "{1d3 lock|locks}" in block.group(1)
    folder = tmp_path / "site" / "passages"
    folder.mkdir(parents=True)
    (folder / "locked-door.yaml").write_text(block.group(1))
    said = run_cli(
        "--tables",
        tmp_path,
        "tables",
        "roll",
        "site/passages/locked-door",
        "--times",
        "60",
        "--seed",
        "locks",
    ).out
    counts = set(re.findall(r"with (\d+ locks?)", said))
    assert counts == {"1 lock", "2 locks", "3 locks"}, counts
