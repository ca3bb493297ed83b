"""The grammar helper: articles by sound, plurals by the head word, counts that agree."""

from __future__ import annotations

import pytest

from generator.engine.words import article, count, join, noun, plural, sentence, verb


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("ossuary crypt", "an"),
        ("iron door", "an"),
        ("unicorn horn", "a"),
        ("one-eyed giant", "a"),
        ("hour glass", "an"),
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
