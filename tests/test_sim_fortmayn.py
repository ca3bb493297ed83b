"""(Fortmayn)'s own fight, rule by rule: dice, the melee exchange and its flurry, armour as usage
dice, spells and shots, the foes' powers as the booklet words them, morale, and the figures
(the party built as (Fortmayn) builds characters, the foes as their stat blocks print them).

Each rule is checked against odds worked out here exactly (by enumerating the dice), on a few
thousand trials at fixed seeds. The sanity of whole fights is in test_sim_fortmayn_sanity.py.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from generator.build.monsters import bestiary
from generator.errors import TableError
from generator.sim import fortmayn
from generator.sim.foes import FoeGroup, foe_kind
from generator.sim.fortmayn_figures import (
    D4,
    D6,
    D8,
    D12,
    NONE,
    builds,
    difficulty,
    evasive,
    figure,
)
from generator.sim.party import default_party, load_party_file, parse_spec
from generator.sim.rules import tactics
from generator.systems.registry import get_system

SIDES = {D4: 4, D6: 6, D8: 8, D12: 12}


def monster(tables, name):
    m = bestiary(tables).find(name)
    assert m is not None, name
    return m


def fight(tables, name, count="1", level=1, trials=20_000, seed=5, party=None, **kind):
    """A (Fortmayn) Fight against `count` of a monster (its FoeKind changed by `kind`)."""
    k = replace(foe_kind(tables, monster(tables, name)), **kind)
    party = party if party is not None else default_party(tables, level)
    return fortmayn.Fight(tables, party, [FoeGroup(k, count)], tactics(tables), trials, seed)


def bare(f, i, size, dice, head=0):
    """Character i with `dice` BODY dice of `size`, no armour, shield or advantage, and a foe
    that is neither evasive nor resistant: the rules alone."""
    f.body[:, i] = dice
    f.body0[:, i] = dice
    f.size[i] = size
    f.head[:, i] = head
    f.head_size[i] = size
    f.armour[:, i] = f.shield[:, i] = NONE
    f.armour0[i] = NONE
    f.adv[i] = False
    f.evasive[:] = False
    f.averted[:] = False
    f.resisted[:] = False


def p_die(size):
    """(P over 4, P under 3) of one die: on a d4 a 4 counts as over 4."""
    sides = SIDES[size]
    good = Fraction(1, 4) if sides == 4 else Fraction(sides - 4, sides)
    return good, Fraction(2, sides)


def exact(size, dice, dd):
    """E[DD stripped], E[dice wounded] of one melee exchange against a foe that had `dd` DD as
    the round began, by enumerating every way the dice fall (good, bad or neither)."""
    g, b = p_die(size)
    faces = {"good": g, "bad": b, "mid": 1 - g - b}
    stripped = wounded = Fraction(0)
    for roll in itertools.product(faces, repeat=dice):
        p = Fraction(1)
        for face in roll:
            p *= faces[face]
        good, bad = roll.count("good"), roll.count("bad")
        stripped += p * min(good, dd)
        wounded += p * min(bad, max(dd - good, 0))
    return float(stripped), float(wounded)


def close(values, expected, k=4.0):
    se = max(float(np.std(values)) / np.sqrt(len(values)), 1e-9)
    return abs(float(np.mean(values)) - expected) <= k * se


# --------------------------------------------------------------------------- dice


@pytest.mark.parametrize("size", [D4, D6, D8, D12])
def test_dice_over_4_and_under_3(builtin_tables, size):
    # (Fortmayn): a die over 4 removes a Difficulty Die, one under 3 is lost; on a d4, a 4 counts.
    f = fight(builtin_tables, "Ogre")
    good, bad = f.roll(np.full(f.n, 3), np.full(f.n, size))
    g, b = p_die(size)
    assert close(good, 3 * float(g)) and close(bad, 3 * float(b))


# --------------------------------------------------------------------------- melee


@pytest.mark.parametrize(
    "size,dice,dd", [(D8, 3, 4), (D6, 2, 1), (D4, 5, 2), (D12, 4, 8), (D6, 3, 2)]
)
@pytest.mark.parametrize("stripped_by_others", [False, True])
def test_an_exchange_strips_and_wounds_as_the_text_says(
    builtin_tables, size, dice, dd, stripped_by_others
):
    # Combat, Melee: dice over 4 strip DD; for each DD, a die under 3 is wounded. The example of
    # hitting and getting hit: the DD this very roll strips wound no one. The long example: a
    # ghoul Brawny strips in the same flurry still wounds Brainy with the DD it had.
    f = fight(builtin_tables, "Ogre")
    bare(f, 0, size, dice)
    f.dd[:, 0] = dd
    start = f.dd.copy()
    if stripped_by_others:
        f.dd[:, 0] = 0
    everyone = np.ones(f.n, dtype=bool)
    f.exchange(0, np.zeros(f.n, dtype=int), everyone, start, np.zeros(f.n, dtype=np.int32))
    want_stripped, want_wounded = exact(size, dice, dd)
    assert close(dice - f.body[:, 0], want_wounded)
    if stripped_by_others:
        assert (f.dd[:, 0] == 0).all()
    else:
        assert close(dd - f.dd[:, 0], want_stripped)


def test_advantage_and_disadvantage_move_one_size_and_cancel(builtin_tables):
    # Advantage & disadvantage: the next bigger or smaller die; our reading: any reason counts
    # once, and the two cancel. A Brawny's two-handed weapon gives advantage; an evasive foe,
    # or being surprised, disadvantage: with both a d8 stays a d8, without the weapon a d6.
    f = fight(builtin_tables, "Ogre")
    yes, no = np.ones(f.n, dtype=bool), np.zeros(f.n, dtype=bool)
    assert (f._size(D8, yes, yes) == D8).all() and (f._size(D8, no, yes) == D6).all()
    assert (f._size(D4, no, yes) == D4).all() and (f._size(D12, yes, no) == D12).all()
    surprised = np.full(f.n, -1, dtype=np.int32)
    for weapon, size in ((True, D8), (False, D6)):
        bare(f, 0, D8, 3)
        f.adv[0] = weapon
        f.evasive[:] = True
        f.dd[:, 0] = 8
        f.exchange(0, np.zeros(f.n, dtype=int), yes, f.dd.copy(), surprised)
        assert close(8 - f.dd[:, 0], exact(size, 3, 8)[0]), weapon
    # A weapon the foe resists is at disadvantage (systems/fortmayn/terms, resist), and so is
    # fighting a petrifying foe with eyes averted (special.petrify).
    for flag in ("resisted", "averted"):
        bare(f, 0, D8, 3)
        getattr(f, flag)[...] = True
        f.dd[:, 0] = 8
        f.exchange(0, np.zeros(f.n, dtype=int), yes, f.dd.copy(), np.zeros(f.n, dtype=np.int32))
        assert close(8 - f.dd[:, 0], exact(D6, 3, 8)[0]), flag


# --------------------------------------------------------------------------- armour


@pytest.mark.parametrize("size", [D4, D6, D8, D12])
def test_armour_saves_until_its_usage_die_runs_out(builtin_tables, size):
    # Usage die and Armor: each save rolls the die, which steps down d12 > d8 > d6 > d4 > gone
    # on a roll under 3; a die of s sides lasts s/2 rolls on average, so a d6 saves 3 + 2.
    f = fight(builtin_tables, "Ogre")
    bare(f, 0, D8, 500)
    f.armour[:, 0] = size
    f.armour0[0] = size
    f.wound(0, np.full(f.n, 300, dtype=np.int32))  # enough to wear out any usage die
    saves = 300 - (500 - f.body[:, 0])
    assert close(saves, sum(SIDES[s] / 2 for s in range(size, -1, -1)))
    assert (f.armour[:, 0] == NONE).all()
    # Armour below its own die is damaged: disadvantage to all tests.
    f.armour[:, 0] = max(size - 1, 0)
    assert f.damaged(0).all() == (size > D4)


def test_the_shield_saves_first_and_a_cloud_gets_past_armour(builtin_tables):
    f = fight(builtin_tables, "Ogre")
    bare(f, 0, D8, 3)
    f.shield[:, 0] = D4
    f.armour[:, 0] = D6
    f.armour0[0] = D6
    f.wound(0, np.ones(f.n, dtype=np.int32))
    assert (f.armour[:, 0] == D6).all() and (f.body[:, 0] == 3).all()
    assert close(f.shield[:, 0] == NONE, 0.5)  # a d4 rolls under 3 half the time
    # A cloud: armour cannot save. A Brawny about to be put out of action sunders its shield,
    # then its armour (Making a character); a Brainy cannot.
    f.shield[:, 0] = D4
    f.body[:, 0] = 1
    f.wound(0, np.full(f.n, 3, dtype=np.int32), armour=False)
    brawny = f.brawny[0]
    assert brawny and (f.body[:, 0] == 0).all()
    assert (f.shield[:, 0] == NONE).all() and (f.armour[:, 0] == NONE).all()
    mage = 3
    bare(f, mage, D6, 1)
    f.wound(mage, np.ones(f.n, dtype=np.int32), armour=False)
    assert not f.brawny[mage] and (f.body[:, mage] == 0).all()


# --------------------------------------------------------------------------- spells and shots


def test_a_spell_strips_with_head_dice_and_loses_those_under_3(builtin_tables):
    # Ranged combat: HEAD dice over 4 strip DD, no blow comes back. The long example's torch:
    # a spell's HEAD dice under 3 are lost ("None lost!").
    f = fight(builtin_tables, "Giant")
    mage = 3
    bare(f, mage, D8, 1, head=3)
    f.evasive[:] = True  # evasion hampers blows, not spells
    f.dd[:, 0] = 8
    everyone = np.ones(f.n, dtype=bool)
    cast = f._head_roll(mage, everyone, np.zeros(f.n, dtype=np.int32), spell=True)
    assert cast.all() and (f.body[:, mage] == 1).all()
    assert close(8 - f.dd[:, 0], 3 * 0.5) and close(3 - f.head[:, mage], 3 * 0.25)
    # An arrow is risk-free and keeps its dice, but an evasive foe is shot at disadvantage.
    f.dd[:, 0] = 8
    f.head[:, mage] = 3
    f._head_roll(mage, everyone, np.zeros(f.n, dtype=np.int32), spell=False)
    assert (f.head[:, mage] == 3).all() and close(8 - f.dd[:, 0], 3 * 2 / 6)


# --------------------------------------------------------------------------- foes' powers


def test_a_breath_makes_everyone_roll_as_if_shot_at(builtin_tables):
    # special.breath: everyone rolls BODY dice as if it attacked them alone; read as being shot
    # at (Combat, Ranged combat): each DD wounds a die under 3 unless armour saves, nothing is
    # stripped. It is the dragon's action that round.
    f = fight(builtin_tables, "Adult dragon")
    for i, size in enumerate((D8, D8, D6, D6)):
        bare(f, i, size, 3)
    busy = f.powers(f.act[:, None] & f.up_f)
    assert busy[:, 0].all() and (f.dd[:, 0] == 4).all()
    for i, size in enumerate((D8, D8, D6, D6)):
        assert close(3 - f.body[:, i], 3 * float(p_die(size)[1]))
    again = f.powers(f.act[:, None] & f.up_f)  # once an hour: once a fight
    assert not again.any()


def test_a_net_holds_until_a_die_shows_over_4(builtin_tables):
    # special.hold: anyone it catches (our reading: no die over 4 against the burst) can do
    # nothing but roll BODY dice to break free; a die over 4 frees them.
    f = fight(builtin_tables, "Web Mother")
    bare(f, 0, D6, 2)
    f.powers(f.act[:, None] & f.up_f)
    held = f.held[:, 0].copy()
    # no die over 4, and not every die under 3 (that one is out of action, not held)
    assert close(held, 16 / 36 - 4 / 36)
    before = f.dd.copy()
    caught = held & (f.body[:, 0] > 0)
    f.exchange(0, np.zeros(f.n, dtype=int), caught, before, np.zeros(f.n, dtype=np.int32))
    assert (f.dd[caught, 0] == before[caught, 0]).all()  # a held character strips nothing


def test_petrifying_gaze_and_averted_eyes(builtin_tables):
    # special.petrify: whoever meets its eyes rolls BODY dice and turns to stone if no die
    # shows over 4; Linda (3 d8) 1 in 8, Vincent (2 d6) 4 in 9, Jasper (1 d6) 2 in 3.
    f = fight(builtin_tables, "Medusa")
    f.petrify()
    stone = f.body == 0
    for i, p in ((0, 1 / 8), (1, 1 / 8), (2, 4 / 9), (3, 2 / 3)):
        assert close(stone[:, i], p), (i, stone[:, i].mean())
    assert f.averted.all()  # and it is fought with eyes averted, at disadvantage


def test_regrowth_comes_every_four_ounces_but_not_from_fire(builtin_tables):
    # special.regeneration: one DD every four Ounces, never those taken by fire.
    f = fight(builtin_tables, "Troll", trials=100)
    assert f.regen.all()
    f.dd[:, 0] = 1
    for number in range(3):
        f.regrow(number)
    assert (f.dd[:, 0] == 1).all()
    f.regrow(3)
    assert (f.dd[:, 0] == 2).all()
    f.burned[:, 0] = 2  # two burned away: it grows back to 2 at most
    f.regrow(7)
    assert (f.dd[:, 0] == 2).all()


def test_the_party_cows_foes_with_a_head_roll(builtin_tables):
    # systems/fortmayn/terms, morale: when foes lose half their number (or their leader, or a
    # big foe half its DD), a character tries to cow them with a HEAD roll; any die over 4 and
    # they run. The one with most HEAD dice tries: Jasper, 3 d8, so 1 - (1/2)^3 of the time.
    f = fight(builtin_tables, "Porc", "4")
    f.up_f[:, :2] = False
    f.morale()
    assert close(~f.up_f[:, 2], 7 / 8)
    assert (f.up_f[:, 2] == f.up_f[:, 3]).all()  # the side breaks as one
    # A boss is not routed by its followers' losses; a big foe tests its own hurt.
    f = fight(builtin_tables, "Giant")
    f.morale()
    assert f.up_f.all()
    f.dd[:, 0] = 4
    f.morale()
    assert close(~f.up_f[:, 0], 7 / 8)


# --------------------------------------------------------------------------- figures


def test_the_party_is_built_as_fortmayn_builds_characters(builtin_tables):
    # Making a character and the sample characters: Linda (3 BODY, 1 HEAD, small shield),
    # Vincent (2 and 2, leather), Jasper (1 and 3, gambeson); a die a level above the first.
    at = {1: [(3, 1), (3, 1), (2, 2), (1, 3)], 3: [(5, 1), (5, 1), (3, 3), (1, 5)]}
    for level, dice in at.items():
        figs = [figure(builtin_tables, c) for c in default_party(builtin_tables, level)]
        assert [(f.body, f.head) for f in figs] == dice
        assert [(f.armour, f.shield) for f in figs] == [
            (NONE, D4),
            (NONE, D4),
            (D6, NONE),
            (D4, NONE),
        ]
        assert [f.size for f in figs] == [D8, D8, D6, D6]
        assert not any(f.advantage for f in figs)  # arming swords all round
        assert [f.back for f in figs] == [False, False, False, True]
    spec = [figure(builtin_tables, c) for c in parse_spec(builtin_tables, "fighter:2,mage:2")]
    assert (spec[0].body, spec[0].shield, spec[1].head) == (4, D4, 4)


def test_a_referees_own_kit_is_kept(builtin_tables, tmp_path):
    path = tmp_path / "party.yaml"
    path.write_text(
        "- {name: Brannoc, class: fighter, level: 3, armor: plate, shield: true, weapon_bonus: 1}\n"
        "- {class: fighter, level: 1, weapon: two-handed, armor: chainmail}\n"
        "- {class: mage, level: 2, hp: 3}\n"
    )
    brannoc, maul, mage = (figure(builtin_tables, c) for c in load_party_file(builtin_tables, path))
    assert (brannoc.armour, brannoc.shield, brannoc.advantage) == (D12, D4, True)
    assert (maul.armour, maul.shield, maul.advantage) == (D8, NONE, True)
    # a mage at half its hit points starts with half its BODY dice, rounded up; kit its own
    assert (mage.body, mage.head, mage.armour) == (1, 4, D4)


def test_foes_have_the_dice_their_stat_blocks_print(builtin_tables):
    # The fight is against the numbers the booklet prints: DD and the evasive note.
    fm = get_system(builtin_tables, "fortmayn")
    rows = builtin_tables.entries("systems/fortmayn/defense")
    notes = {str(e.get("evasive")).strip() for e in rows if str(e.get("evasive") or "").strip()}
    beasts = bestiary(builtin_tables)
    for name in beasts.names():
        m = beasts.find(name)
        block = fm.stat_block(m)
        kind = foe_kind(builtin_tables, m)
        assert dict(block.fields)["Difficulty Dice"] == str(difficulty(builtin_tables, kind))
        assert evasive(builtin_tables, kind) == any(n in block.notes for n in notes), name
    ogre = foe_kind(builtin_tables, monster(builtin_tables, "Ogre"))
    assert difficulty(builtin_tables, replace(ogre, hp=24)) == 6  # 4 DD, scaled by 24/16


def _tables_with(tmp_path, text):
    from generator.engine.tables import TableSet

    path = tmp_path / "sim" / "fortmayn.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return TableSet.load([tmp_path], use_env=False), path


ROW = (
    "  - class: {cls}\n    type: {type}\n    body: {body}\n    head: {head}\n    grows: body\n"
    "    per_level: 1\n    armour: {armour}\n    shield: false\n    weapon: one-handed\n"
    "    damage_type: slash\n"
)
HEAD = (
    "title: F\nfields:\n  class: str\n  type: str\n  body: int\n  head: int\n  grows: str\n"
    "  per_level: int\n  armour: str\n  shield: bool\n  weapon: str\n  damage_type: str\nentries:\n"
)


@pytest.mark.parametrize(
    "row,message",
    [
        ({"type": "brutish"}, "type must be brawny or brainy"),
        ({"body": 3, "head": 2}, "four together|4 together"),
        ({"body": 4, "head": 0}, "at least 1 each"),
        ({"armour": "mithril"}, "armour must be a row of systems/fortmayn/armour"),
    ],
)
def test_the_party_table_is_checked(tmp_path, row, message):
    values = {"type": "brawny", "body": 3, "head": 1, "armour": "none"} | row
    text = HEAD + ROW.format(cls="fighter", **values)
    text += ROW.format(cls="expert", type="brainy", body=2, head=2, armour="leather")
    text += ROW.format(cls="mage", type="brainy", body=1, head=3, armour="gambeson")
    ts, path = _tables_with(tmp_path, text)
    with pytest.raises(TableError, match=message) as err:
        builds(ts)
    assert f"{path}:" in str(err.value) and "table 'sim/fortmayn'" in str(err.value)


def test_the_party_table_needs_every_class(tmp_path):
    ts, path = _tables_with(
        tmp_path, HEAD + ROW.format(cls="fighter", type="brawny", body=3, head=1, armour="none")
    )
    with pytest.raises(TableError, match="no row for mage, expert"):
        builds(ts)


@pytest.mark.parametrize(
    "table, old, new, said",
    [
        ("sim/fortmayn", "armour: leather", "armour: leathr", "armour must be a row of"),
        ("systems/fortmayn/brackets", "bracket: 5", "bracket: 6", "bracket"),
    ],
)
def test_tables_check_finds_a_fortmayn_table_that_would_break_the_fight(
    run_cli, tmp_path, table, old, new, said
):
    """The (Fortmayn) fight's tables are checked by `delve tables check`, as every other
    table a command reads (issue 11: a table that breaks a command is caught by the check)."""
    from generator.engine.tables import builtin_tables_dir

    text = (builtin_tables_dir() / f"{table}.yaml").read_text(encoding="utf-8")
    assert old in text
    target = tmp_path / f"{table}.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    res = run_cli("--tables", str(tmp_path), "tables", "check")
    assert res.code == 1
    assert f"table '{table}'" in res.err and said in res.err
