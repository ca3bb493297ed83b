"""The monster tables checked against FMC Basic's numbers: armour, shields and speed, the XP
rule, the twenty examples' special powers, and which monsters are deadly in which system."""

from __future__ import annotations

import re

import pytest

from generator.build.monsters import (
    ARMOUR_CLASSES,
    DEFENSE_BONUS,
    SHIELD_BONUS,
    bestiary,
    brackets,
    rule_xp,
)
from generator.engine.tables import TableSet
from generator.model.monster import Monster
from generator.systems import classify, get_system

# FMC Basic, Armor & Speed: defense and speed of each suit (gambeson: Fortmayn's, as leather).
ARMOUR = {"leather": (12, 10), "gambeson": (12, 10), "chainmail": (14, 8), "plate": (16, 6)}


def monsters(tables: TableSet) -> list[Monster]:
    return bestiary(tables).monsters


def find(tables: TableSet, name: str) -> Monster:
    m = bestiary(tables).find(name)
    assert m is not None, name
    return m


def test_the_models_defense_is_the_equipment_tables(builtin_tables: TableSet) -> None:
    """build/monsters.py's classes and shield are FMC Basic's armour list (equipment/armor)."""
    rows = {e["name"].lower(): e for e in builtin_tables.entries("equipment/armor")}
    suits = ("leather", "chainmail", "plate")
    assert tuple(rows[k]["defense"] for k in suits) == ARMOUR_CLASSES
    assert {k: (rows[k]["defense"], rows[k]["speed"]) for k in suits} == {
        k: ARMOUR[k] for k in suits
    }
    assert rows["shield"]["defense_bonus"] == SHIELD_BONUS == 1
    # Monster Types: +50% XP at 14, +100% at 16; a shield's point is a quarter more.
    assert (DEFENSE_BONUS[14], DEFENSE_BONUS[16], DEFENSE_BONUS[15]) == (0.5, 1.0, 0.75)


def test_armoured_monsters_have_their_armours_defense_and_speed(builtin_tables: TableSet) -> None:
    armoured = [m for m in monsters(builtin_tables) if m.armor]
    assert len(armoured) >= 15
    for m in armoured:
        dc, speed = ARMOUR[m.armor]
        assert m.dc == dc + (1 if m.shield else 0), m.name
        walk = float(re.findall(r"\d+", m.speed)[0])
        # A rider moves at its mount's speed; anyone else at their armour's.
        assert walk == speed or "rider" in m.description.lower(), (m.name, m.speed)


def test_xp_follows_the_bracket_rule(builtin_tables: TableSet) -> None:
    """FMC Basic, Monster Types: bracket XP, +25% a point of defense over 12 (+50% at 14,
    +100% at 16), +50% for formidable powers. The twenty examples give theirs and fit it."""
    by_bracket = brackets(builtin_tables)
    for m in monsters(builtin_tables):
        assert m.xp == rule_xp(by_bracket[m.bracket], m.dc, m.formidable), m.name


def test_formidable_exactly_when_the_monster_has_a_special_power(builtin_tables: TableSet) -> None:
    """Monster Types: formidable powers (draining, self-restoration, area attacks) add 50% XP;
    a monster with a special ability pays for it, and one without does not."""
    for m in monsters(builtin_tables):
        assert m.formidable == bool(m.special), m.name


def test_example_monsters_powers_are_the_texts(builtin_tables: TableSet) -> None:
    """Example Monsters' footnotes: * dragons breathe, † ghoul, vampire and wraith drain,
    ‡ trolls regenerate, § the medusa petrifies. The basilisk has no footnote, but its 800 XP
    (400, +50% at defense 14, +50% more) pays for a formidable power: its petrifying gaze."""
    kinds = {
        "Young dragon": ["breath"],
        "Adult dragon": ["breath"],
        "Elder dragon": ["breath"],
        "Ghoul": ["energy_drain"],
        "Vampire": ["energy_drain"],
        "Wraith": ["energy_drain"],
        "Troll": ["regeneration"],
        "Medusa": ["petrify"],
        "Basilisk": ["petrify"],
    }
    examples = [e["name"] for e in builtin_tables.entries("monsters/examples")]
    assert len(examples) == 20
    for name in examples:
        m = find(builtin_tables, name)
        assert classify(builtin_tables, m)[0] == kinds.get(name, []), name
    # Nothing in the text is venomous: the two gaze monsters bite, they do not poison.
    for name in ("Basilisk", "Medusa"):
        m = find(builtin_tables, name)
        assert m.damage_type == "pierce" and "poison" not in m.resist
        assert not re.search(r"venom|poison", m.description, re.I)


def test_poison_only_for_creatures_described_as_venomous(builtin_tables: TableSet) -> None:
    """A monster deals poison only if its own words say it is venomous (a sting, venom,
    spores, a spider); a slime that eats through leather is acid."""
    venomous = re.compile(r"venom|poison|sting|spore|spider|scorpion|marsh-rot", re.I)
    poisonous = [m for m in monsters(builtin_tables) if m.damage_type == "poison"]
    assert len(poisonous) >= 6
    for m in poisonous:
        assert venomous.search(f"{m.name} {m.description} {m.special}"), m.name
    for name in ("Cellar Slime", "Glass Ooze"):
        assert find(builtin_tables, name).damage_type == "acid"


@pytest.mark.parametrize("key", ["fmc", "fortmayn", "f4c", "fantasy-core"])
def test_a_deadly_save_only_where_the_text_makes_one(builtin_tables: TableSet, key: str) -> None:
    """Fantasy Core's lethal-poison rule (0 hp, death without an antidote) is for what is
    written as lethal: no venomous monster gets it, and in no system does a poison bite turn
    to stone or kill outright. Turning to stone is the petrifiers' alone."""
    system = get_system(builtin_tables, key)
    petrifiers = {"Medusa", "Basilisk"}
    for m in monsters(builtin_tables):
        notes = " ".join(system.stat_block(m).notes)
        assert "antidote within" not in notes, (key, m.name)
        assert ("stone" in notes.lower()) == (m.name in petrifiers or "stone" in m.special), m.name
    fc = get_system(builtin_tables, "fantasy-core")
    medusa = " ".join(fc.stat_block(find(builtin_tables, "Medusa")).notes)
    assert "Fort save" in medusa and "turns to stone" in medusa


def test_no_two_monsters_share_a_name_or_a_plural(builtin_tables: TableSet) -> None:
    """Encounter tables and room keys print a monster by its plural ("Adult dragons 1d2"): a
    young, an adult and an elder dragon must not all be "dragons"."""
    seen: dict[str, str] = {}
    for m in monsters(builtin_tables):
        for word in {m.name.lower(), m.plural.lower()}:
            assert seen.setdefault(word, m.name) == m.name, (word, m.name, seen[word])
    dragons = {find(builtin_tables, f"{age} dragon").plural for age in ("Young", "Adult", "Elder")}
    assert dragons == {"young dragons", "adult dragons", "elder dragons"}


@pytest.mark.parametrize(
    "entry, message",
    [
        ("  - name: Grey Wolf\n    bracket: 2\n    plural: wolves\n", "its plural 'wolves'"),
        ("  - name: Wolves\n    bracket: 2\n", "its name 'Wolves' is already the plural"),
        ("  - name: bear\n    bracket: 4\n", "monster 'bear' is already defined"),
    ],
)
def test_a_shared_name_or_plural_is_a_table_problem(run_cli, tmp_path, entry, message) -> None:
    folder = tmp_path / "monsters"
    folder.mkdir()
    (folder / "aaa.yaml").write_text(
        "title: More monsters\nfields:\n  name: str\n  bracket: int\n  plural: str?\nentries:\n"
        + entry
        + "    result: One more.\n"
    )
    res = run_cli("tables", "check", str(tmp_path))
    assert res.code == 1 and message in res.err and "aaa.yaml:" in res.err
    # A generator refuses the set too, in one clear line per problem.
    res = run_cli("--tables", str(tmp_path), "site", "--seed", "x")
    assert res.code == 1 and message in res.err and "Traceback" not in res.err
