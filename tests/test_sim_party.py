"""Parties for simulated fights (the class tables, --party specs, party files) and the tables
under sim/ that a referee may change."""

from __future__ import annotations

import pytest

from generator.errors import DelveError, TableError
from generator.sim.party import default_party, load_party_file, parse_spec
from generator.sim.rules import tactics, verdicts

# --------------------------------------------------------------------------- parties


def test_party_from_the_class_tables(builtin_tables):
    party = default_party(builtin_tables, 3)
    assert [c.cls for c in party] == ["fighter", "fighter", "expert", "mage"]
    assert [c.max_hp for c in party] == [15, 15, 12, 9]
    assert party[0].defense == 13 and party[0].shield  # leather 12 + shield
    assert party[1].weapon == "two-handed" and party[1].defense == 12
    assert party[0].prowess == 3 and party[2].prowess == 0
    assert party[3].energy == 3 and "lullaby" in party[3].spells
    # Past the text's level 5, each class keeps its step: +5 HP and +1 prowess for fighters.
    eight = default_party(builtin_tables, 8)
    assert eight[0].max_hp == 40 and eight[0].prowess == 8 and eight[3].energy == 8


def test_party_spec(builtin_tables):
    party = parse_spec(builtin_tables, "fighter:3, fighter:3,expert:2,mage:4")
    assert [c.label() for c in party] == ["fighter 3", "fighter 3", "expert 2", "mage 4"]
    assert party[0].shield and party[1].weapon == "two-handed"
    for bad in ("fighter:x", "fighter", "paladin:3", "fighter:0", "fighter:31", "", "fighter:3,,"):
        with pytest.raises(DelveError, match="--party"):
            parse_spec(builtin_tables, bad)


def test_party_file(builtin_tables, tmp_path):
    good = tmp_path / "party.yaml"
    good.write_text(
        "party:\n"
        "  - {name: Brannoc, class: fighter, level: 3, armor: plate, shield: true,\n"
        "     weapon_bonus: 1}\n"
        "  - {class: mage, level: 2, spells: [captivate], hp: 4}\n"
    )
    brannoc, mage = load_party_file(builtin_tables, good)
    assert brannoc.defense == 17 and brannoc.weapon_bonus == 1 and brannoc.name == "Brannoc"
    assert mage.hp == 4 and mage.max_hp == 6 and mage.spells == ("captivate",)
    cases = {
        "- {class: fighter, level: 3, armour: plate}\n": ":1: character 1: armour: unknown field",
        "- {class: fighter}\n": "needs a class and a level",
        "- {class: fighter, level: 2, hp: 99}\n": "hp: 99 is more than",
        "- {class: fighter, level: 2, armor: mithril}\n": "armor must be one of",
        "- {class: fighter, level: true}\n": "level: must be a whole number",
        "just: text\n": "a party file is a list",
        "- [1, 2\n": "YAML syntax error",
    }
    for text, message in cases.items():
        bad = tmp_path / "bad.yaml"
        bad.write_text(text)
        with pytest.raises(DelveError, match=message) as err:
            load_party_file(builtin_tables, bad)
        assert str(bad) in str(err.value)


# --------------------------------------------------------------------------- tables


def _tables_with(tmp_path, rel, text):
    from generator.engine.tables import TableSet

    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return TableSet.load([tmp_path], use_env=False)


def test_verdict_table_is_checked(tmp_path):
    head = "title: V\nfields:\n  key: str\n  win_at_least: float?\nentries:\n"
    ts = _tables_with(tmp_path, "sim/verdicts.yaml", head + "  - key: ok\n    win_at_least: 0.5\n")
    with pytest.raises(TableError, match="must have no bounds"):
        verdicts(ts)
    ts = _tables_with(
        tmp_path, "sim/verdicts.yaml", head + "  - key: a\n    win_at_least: 1.5\n  - key: b\n"
    )
    with pytest.raises(TableError, match="from 0 to 1"):
        verdicts(ts)


def test_tactics_table_is_checked(tmp_path):
    text = (
        "title: T\nfields:\n  key: str\n  value: float\n"
        "entries:\n  - key: front_holds\n    value: -1\n"
    )
    ts = _tables_with(tmp_path, "sim/tactics.yaml", text)
    with pytest.raises(TableError, match="front_holds must be 0 to 20"):
        tactics(ts)


def test_a_shield_and_a_two_handed_weapon_do_not_go_together(builtin_tables, tmp_path):
    # FMC Basic, Fighters (line 58): a one-handed weapon and a shield, or a two-handed weapon.
    bad = tmp_path / "party.yaml"
    bad.write_text(
        "party:\n  - {class: mage, level: 1}\n"
        "  - class: fighter\n    level: 2\n    shield: true\n    weapon: two-handed\n"
    )
    with pytest.raises(DelveError, match=r"party.yaml:6: character 2: weapon: a shield and a two"):
        load_party_file(builtin_tables, bad)
    # Said once, the file's word wins over the kit it fills in from.
    good = tmp_path / "good.yaml"
    good.write_text(
        "- {class: fighter, level: 2, weapon: two-handed}\n"
        "- {class: fighter, level: 2, shield: true}\n"
    )
    maul, shield = load_party_file(builtin_tables, good)
    assert maul.weapon == "two-handed" and not maul.shield and maul.defense == 12
    assert shield.shield and shield.weapon == "one-handed" and shield.defense == 13
    # The default party's table is held to the same rule.
    from generator.engine.tables import TableSet

    rows = tmp_path / "tables" / "sim" / "party.yaml"
    rows.parent.mkdir(parents=True)
    rows.write_text(
        "title: P\nfields:\n  name: str\n  class: str\n  armor: str\n  shield: bool?\n"
        "  weapon: str\n  damage_type: str\nentries:\n"
        "  - {name: X, class: fighter, armor: Leather, shield: true, weapon: two-handed,\n"
        "     damage_type: crush, result: x}\n"
    )
    ts = TableSet.load([tmp_path / "tables"], use_env=False)
    with pytest.raises(TableError, match="shield and a two-handed weapon"):
        default_party(ts, 1)


def test_the_danger_lines_say_which_party(builtin_tables, tmp_path):
    from generator.sim.party import describe

    def said(party):
        return describe(party, builtin_tables)

    assert said(default_party(builtin_tables, 3)) == "four level-3 characters"
    assert said(parse_spec(builtin_tables, "fighter:3,fighter:3,expert:3,mage:3")) == (
        "four level-3 characters"
    )
    assert said(parse_spec(builtin_tables, "fighter:2,fighter:2,mage:2")) == (
        "three level-2 characters (fighter, fighter and mage)"
    )
    assert said(parse_spec(builtin_tables, "fighter:3,expert:2,mage:4")) == (
        "fighter 3, expert 2 and mage 4"
    )
    named = tmp_path / "party.yaml"
    named.write_text("- {name: Brakka, class: fighter, level: 4}\n- {class: mage, level: 4}\n")
    assert said(load_party_file(builtin_tables, named)) == "Brakka and mage 4"
