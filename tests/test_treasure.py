"""Treasure: hoards add up exactly, weapons follow FMC Basic, Magic Weapons, odds are right."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
import typer.rich_utils  # noqa: F401  (see below)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build.treasure import (
    FOCUS_CP_PER_ENERGY,
    POWER_DICE,
    SCROLL_CP,
    roll_hoard,
    roll_weapon,
)
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.errors import DelveError, DocumentError, TableError
from generator.model.treasure import Coins, Hoard, Item, MagicWeapon
from generator.render.treasure_text import hoard_text, weapon_text

# typer.rich_utils is imported up front because rich draws once from the global random when
# first imported (rich.style calls getrandbits): the global-random guard in conftest would
# otherwise blame whichever test first prints --help.

SIDES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12}
# Upper 0.1 % points of the chi-square distribution, by degrees of freedom.
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32}


@pytest.fixture(scope="module")
def ts(builtin_tables: TableSet) -> TableSet:
    return builtin_tables


def check_hoard(h: Hoard) -> None:
    """Everything a hoard promises, whatever its seed."""
    assert h.coins.cp >= 0 and h.coins.sp >= 0 and h.coins.gp >= 0
    assert all(i.value_cp >= 0 and i.quantity >= 1 for i in h.items)
    assert h.coins.value_cp + sum(i.value_cp for i in h.items) == h.value_cp
    magic = [i for i in h.items if i.magic]
    assert len(magic) <= 1
    goods = [i for i in h.items if i.kind == "valuable"]
    assert len({i.name for i in goods}) == len(goods), "valuables must be distinct"
    assert all(i.value_cp % i.quantity == 0 for i in goods)
    assert h.xp_if_sold == h.value_cp
    assert h.xp_coins_and_valuables == h.value_cp - sum(i.value_cp for i in magic)
    assert h.coins.slots == sum(-(-n // 100) for n in (h.coins.cp, h.coins.sp, h.coins.gp))
    if magic:
        item = magic[0]
        if item.kind == "scroll":
            assert item.spell
            if h.value_cp >= SCROLL_CP:
                assert item.value_cp == SCROLL_CP and item.name.startswith("Scroll of")
            else:  # a lesser scroll is the whole hoard
                assert item.value_cp == h.value_cp and item.name.startswith("Lesser scroll")
                assert h.items == [item] and h.coins == Coins()
        elif item.kind == "focus":
            assert 0 <= item.energy <= h.level
            if item.energy:
                assert item.value_cp == FOCUS_CP_PER_ENERGY * item.energy
            else:  # drained dry: the whole hoard
                assert h.value_cp < FOCUS_CP_PER_ENERGY and item.value_cp == h.value_cp
                assert h.items == [item] and "drained dry" in item.description
        else:
            w = item.weapon
            assert w is not None and item.value_cp == w.value_cp
            assert POWER_DICE.index(w.power_die) <= POWER_DICE.index(h.holder_die)
    if h.note:
        assert h.note.startswith("Rolled")


def check_weapon(w: MagicWeapon, power_names: list[str]) -> None:
    n = SIDES[w.power_die]
    assert w.level == POWER_DICE.index(w.power_die) + 1
    assert w.value_cp == 100 * n
    assert len(set(w.powers)) == len(w.powers)
    assert set(w.powers) <= set(power_names[:n])
    assert w.bonus == w.level - len(w.powers) >= 0
    assert len(w.power_effects) == len(w.powers)
    assert w.hands in (1, 2) and w.form in ("smashing", "slashing", "stabbing")
    assert w.name and w.description


def power_names(ts: TableSet) -> list[str]:
    t = ts.get("treasure/weapon-powers")
    return [t.lookup[r - t.low]["name"] for r in range(1, 13)]


def chi_square(observed: Counter, probs: dict, n: int) -> tuple[float, int]:
    """Pearson's statistic, with bins of small expectation pooled into one."""
    assert set(observed) <= set(probs), f"impossible outcomes {set(observed) - set(probs)}"
    stat, pool_o, pool_e, bins = 0.0, 0, 0.0, 0
    for key, p in probs.items():
        e = float(p) * n
        if e < 5:
            pool_o, pool_e = pool_o + observed.get(key, 0), pool_e + e
            continue
        stat += (observed.get(key, 0) - e) ** 2 / e
        bins += 1
    if pool_e > 0:
        stat += (pool_o - pool_e) ** 2 / pool_e
        bins += 1
    return stat, bins - 1


def assert_fits(observed: Counter, probs: dict, n: int) -> None:
    stat, df = chi_square(observed, probs, n)
    if df == 0:
        assert sum(observed.values()) == n
        return
    assert stat < CHI2_999[df], f"chi-square {stat:.1f} on {df} df: {observed} vs {probs}"


# --------------------------------------------------------------------------- hoards


@pytest.mark.parametrize("level", range(1, 11))
def test_hoards_add_up_exactly_at_every_level(ts: TableSet, level: int) -> None:
    # A whole site's treasure, one of its two hoards, and a lair's 500 x d6.
    values = (1000 * level, 500 * level, 1000 * level // 3, 500 * (1 + level % 6))
    for i in range(300):
        for value in values:
            die = POWER_DICE[i % 5]
            h = roll_hoard(ts, Rng(f"add/{level}/{i}/{value}"), value, level, die)
            assert h.value_cp == value and h.level == level and h.holder_die == die
            check_hoard(h)


def test_small_and_odd_values(ts: TableSet) -> None:
    for value in (0, 1, 4, 5, 7, 99, 399, 401, 999, 1001, 12_345, 250_000):
        for i in range(60):
            check_hoard(roll_hoard(ts, Rng(f"odd/{value}/{i}"), value, 3, "d12"))
    empty = roll_hoard(ts, Rng("empty"), 0)
    assert empty.items == [] and empty.coins == Coins()


def test_level_five_hoard_is_several_distinct_pieces(ts: TableSet) -> None:
    for i in range(200):
        h = roll_hoard(ts, Rng(f"five/{i}"), 5000, 5)
        goods = [it for it in h.items if it.kind == "valuable"]
        assert len(goods) >= 2
        assert len({g.name for g in goods}) == len(goods)
        # No single line of goods swallows the hoard.
        assert max(g.value_cp for g in goods) < 5000 // 2


def test_coins_small_pile_copper_large_pile_gold(ts: TableSet) -> None:
    small = large = 0
    for i in range(400):
        for value in (60, 90_000):
            c = roll_hoard(ts, Rng(f"coins/{value}/{i}"), value).coins
            if 0 < c.value_cp < 100:
                small += 1
                assert c.gp == 0 and c.cp >= c.sp
            if c.value_cp >= 20_000:
                large += 1
                assert 100 * c.gp >= c.value_cp // 2
    assert small > 50 and large > 50


def find(ts: TableSet, want: str, value: int, level: int = 1, die: str = "d6") -> Hoard:
    """The first hoard (over a fixed seed list) whose magic-item roll gave `want`."""
    table = ts.get("treasure/magic-item")
    for i in range(500):
        h = roll_hoard(ts, Rng(f"find/{want}/{value}/{i}"), value, level, die)
        if table.lookup[h.magic_roll - table.low]["key"] == want:
            return h
    raise AssertionError(f"no {want} in 500 seeds")


def test_rules_example_thousand_cp_with_a_grunt_weapon(ts: TableSet) -> None:
    # FMC Basic, Treasure Hoards: 1,000 c.p. = a 600 c.p. weapon + 400 c.p. of valuables.
    h = find(ts, "magic_weapon", 1000, 1, "d6")
    (weapon,) = [i for i in h.items if i.kind == "magic_weapon"]
    assert weapon.value_cp == 600 and weapon.weapon.power_die == "d6"
    assert h.xp_coins_and_valuables == 400 and h.note == ""
    check_hoard(h)


def test_scroll_too_dear_for_the_hoard_is_a_lesser_scroll(ts: TableSet) -> None:
    """Our reading of a 2 in a hoard under 1,000 c.p.: a lesser scroll, one casting, that is
    the whole hoard (so a level-1 site finds scrolls as often as the d6 says)."""
    h = find(ts, "scroll", 500)
    (scroll,) = h.items
    assert scroll.kind == "scroll" and scroll.value_cp == 500 and scroll.spell
    assert scroll.name == f"Lesser scroll of {scroll.spell}"
    assert "one casting" in scroll.description and h.coins == Coins()
    assert "lesser scroll" in h.note and "500 c.p." in h.note
    assert h.xp_coins_and_valuables == 0 and h.xp_if_sold == 500
    check_hoard(h)
    # The same roll in a hoard that can pay is the whole scroll, of the same spell.
    fits = find(ts, "scroll", 1000)
    assert [i.kind for i in fits.items] == ["scroll"] and fits.coins == Coins()
    assert fits.items[0].value_cp == SCROLL_CP and fits.note == ""
    address = h.seed
    again = roll_hoard(ts, Rng(address), 2500)
    assert again.items[0].spell == scroll.spell and again.items[0].value_cp == SCROLL_CP
    nothing = find(ts, "scroll", 0)
    assert nothing.items == [] and "worth nothing" in nothing.note


def test_weapon_too_dear_steps_its_die_down(ts: TableSet) -> None:
    h = find(ts, "magic_weapon", 700, 1, "d12")
    (item,) = [i for i in h.items if i.magic]
    assert item.weapon.power_die == "d6" and item.value_cp == 600
    assert "d12" in h.note and "d6" in h.note
    check_hoard(h)
    none = find(ts, "magic_weapon", 399, 1, "d4")
    assert not any(i.magic for i in none.items) and "no magic item" in none.note
    check_hoard(none)


def test_focus_too_dear_is_partly_drained(ts: TableSet) -> None:
    h = find(ts, "focus", 1200, 3)
    (item,) = [i for i in h.items if i.magic]
    assert item.energy == 2 and item.value_cp == 2 * FOCUS_CP_PER_ENERGY
    assert "drained" in h.note
    check_hoard(h)
    full = find(ts, "focus", 3000, 3)
    assert [i.energy for i in full.items if i.magic] == [3] and full.note == ""
    dry = find(ts, "focus", 499, 1)
    (item,) = dry.items
    assert (item.energy, item.value_cp, item.name) == (0, 499, "Arcane focus (empty)")
    assert "drained dry" in dry.note
    check_hoard(dry)


def test_magic_item_d6_odds(ts: TableSet) -> None:
    table = ts.get("treasure/magic-item")
    # Exact odds from the table itself: its die's distribution mapped onto the entries' keys.
    probs: dict[str, Fraction] = {}
    for roll, p in table.die.distribution().items():
        key = table.lookup[roll - table.low]["key"]
        probs[key] = probs.get(key, Fraction(0)) + p
    assert probs == {
        "magic_weapon": Fraction(1, 6),
        "scroll": Fraction(1, 6),
        "focus": Fraction(1, 6),
        "valuable": Fraction(1, 2),
    }
    n = 6000
    kinds: Counter = Counter()
    rolls: Counter = Counter()
    for i in range(n):
        # Large enough that every magic item fits, so the item is the one rolled.
        h = roll_hoard(ts, Rng(f"magic-odds/{i}"), 20_000, 4, "d12")
        magic = [it.kind for it in h.items if it.magic]
        kinds[magic[0] if magic else "valuable"] += 1
        rolls[h.magic_roll] += 1
        assert h.note == ""
    assert_fits(kinds, probs, n)
    assert_fits(rolls, table.die.distribution(), n)


D6_ODDS = {
    "magic_weapon": Fraction(1, 6),
    "scroll": Fraction(1, 6),
    "focus": Fraction(1, 6),
    "valuable": Fraction(1, 2),
}
LOW_LEVELS = (1, 2, 3)


def found(h: Hoard) -> str:
    magic = [i.kind for i in h.items if i.magic]
    return magic[0] if magic else "valuable"


def face(ts: TableSet, h: Hoard) -> str:
    table = ts.get("treasure/magic-item")
    return table.lookup[h.magic_roll - table.low]["key"]


@pytest.fixture(scope="module")
def low_level_hoards(ts: TableSet) -> dict[int, list[Hoard]]:
    """Every hoard of 400 six-room sites and 400 one-room lairs (500 x d6) at levels 1-3:
    the hoard values play really meets, a level-1 site's 300-700 c.p. among them."""
    from generator.build.site import generate_site

    out: dict[int, list[Hoard]] = {}
    for level in LOW_LEVELS:
        hoards = []
        for i in range(400):
            site = generate_site(ts, Rng(f"low/{level}/{i}"), level=level)
            hoards += [r.hoard for r in site.rooms if r.hoard]
            lair = Rng(f"low-lair/{level}/{i}")
            hoards.append(roll_hoard(ts, lair, 500 * lair.die(6), level, POWER_DICE[i % 5]))
        out[level] = hoards
    return out


@pytest.mark.parametrize("level", LOW_LEVELS)
def test_what_is_found_keeps_the_d6_odds_at_low_levels(
    ts: TableSet, low_level_hoards: dict, level: int
) -> None:
    """FMC Basic, Treasure Hoards: d6, 1 weapon, 2 scroll, 3 focus, 4-6 valuables, in every
    hoard. A level-1 site's hoards are worth less than a scroll: each still finds what the d6
    said (a lesser scroll, a drained focus), save a weapon in a hoard under the d4's 400 c.p."""
    hoards = low_level_hoards[level]
    assert len(hoards) == 1200
    values = {h.value_cp for h in hoards}
    if level == 1:
        assert min(values) == 300 and any(v < SCROLL_CP for v in values)
    for h in hoards:
        check_hoard(h)
        want = face(ts, h)
        if want == "magic_weapon" and h.value_cp < 400:
            assert found(h) == "valuable" and "d4" in h.note
        else:
            assert found(h) == want, (h.seed, h.value_cp, want, h.note)
    # The d6 itself, and what is found where even the least weapon fits, against the d6.
    assert_fits(
        Counter(h.magic_roll for h in hoards), {n: Fraction(1, 6) for n in range(1, 7)}, 1200
    )
    payable = [h for h in hoards if h.value_cp >= 400]
    assert_fits(Counter(found(h) for h in payable), D6_ODDS, len(payable))
    # Scrolls and foci over every hoard, the 300 c.p. ones included: 1 in 6 each.
    for kind in ("scroll", "focus"):
        counts = Counter(kind if found(h) == kind else "other" for h in hoards)
        assert_fits(counts, {kind: Fraction(1, 6), "other": Fraction(5, 6)}, len(hoards))


@pytest.mark.xfail(
    strict=True,
    reason="a level-1 site may split its 1,000 c.p. 700/300 (build/site.py), and 300 c.p. "
    "cannot hold the least magic weapon (d4, 400 c.p.); passes once every level-1 hoard is 400+",
)
def test_a_one_on_the_d6_is_a_weapon_in_every_level_one_hoard(
    ts: TableSet, low_level_hoards: dict
) -> None:
    weapons = [h for h in low_level_hoards[1] if face(ts, h) == "magic_weapon"]
    assert all(found(h) == "magic_weapon" for h in weapons)


# --------------------------------------------------------------------------- weapons


@pytest.fixture(scope="module")
def weapons(ts: TableSet) -> dict[str, list[MagicWeapon]]:
    return {d: [roll_weapon(ts, Rng(f"odds/{d}/{i}"), d) for i in range(3000)] for d in POWER_DICE}


def test_every_weapon_follows_the_rules(ts: TableSet, weapons: dict) -> None:
    names = power_names(ts)
    for die, ws in weapons.items():
        for w in ws:
            assert w.power_die == die
            check_weapon(w, names)


def test_number_of_powers_matches_enumerated_odds(ts: TableSet, weapons: dict) -> None:
    names = power_names(ts)
    for die, ws in weapons.items():
        dice = [SIDES[d] for d in POWER_DICE[: POWER_DICE.index(die) + 1]]
        # Every combination of faces of d4..dN, equally likely; duplicates are null.
        counts: Counter = Counter()
        for faces in product(*(range(1, s + 1) for s in dice)):
            counts[len({names[f - 1] for f in faces})] += 1
        total = sum(counts.values())
        probs = {k: Fraction(c, total) for k, c in sorted(counts.items())}
        observed = Counter(len(w.powers) for w in ws)
        assert_fits(observed, probs, len(ws))
        mean = sum(k * p for k, p in probs.items())
        assert abs(sum(len(w.powers) for w in ws) / len(ws) - float(mean)) < 0.06


def test_which_powers_match_enumerated_odds(ts: TableSet, weapons: dict) -> None:
    names = power_names(ts)
    ws = weapons["d8"]
    counts: Counter = Counter()
    for faces in product(range(1, 5), range(1, 7), range(1, 9)):
        for name in {names[f - 1] for f in faces}:
            counts[name] += 1
    total = 4 * 6 * 8
    observed = Counter(p for w in ws for p in w.powers)
    for name, c in counts.items():
        p = c / total  # chance that a weapon has this power
        expected = p * len(ws)
        sd = (len(ws) * p * (1 - p)) ** 0.5
        assert abs(observed[name] - expected) < 4.5 * sd, name
    assert set(observed) <= set(names[:8])


def test_weapon_form_odds(ts: TableSet, weapons: dict) -> None:
    table = ts.get("treasure/weapon-form")
    probs: dict[tuple[str, int], Fraction] = {}
    for roll, p in table.die.distribution().items():
        e = table.lookup[roll - table.low]
        probs[(e["form"], e["hands"])] = probs.get((e["form"], e["hands"]), Fraction(0)) + p
    # FMC Basic, Magic Weapons: smashing [1,4], slashing [2,5], stabbing [3,6]; hands 1-3 / 4-6.
    assert set(probs) == {(f, h) for f in ("smashing", "slashing", "stabbing") for h in (1, 2)}
    ws = [w for d in POWER_DICE for w in weapons[d]]
    assert_fits(Counter((w.form, w.hands) for w in ws), probs, len(ws))


def test_weapon_noun_fits_its_form(ts: TableSet, weapons: dict) -> None:
    nouns = {(e["form"], e["hands"], e["noun"]) for e in ts.entries("treasure/weapon-kinds")}
    for w in weapons["d6"][:300]:
        assert any(f == w.form and h == w.hands and f" {n} " in w.name for f, h, n in nouns)


def test_repeated_power_names_are_null(tmp_path: Path) -> None:
    # Duplicates are null: a user table whose twelve entries are all one power.
    text = SHORT_POWERS.replace("die: d6", "die: d12") + "".join(
        f"  - roll: {n}\n    name: P1\n    effect: Does 1.\n    flavor: glows 1\n"
        for n in range(7, 13)
    )
    for n in range(2, 7):
        text = text.replace(f"name: P{n}\n", "name: P1\n")
    write(tmp_path, "treasure/weapon-powers", text)
    ts = TableSet.load([tmp_path], use_env=False)
    for i in range(50):
        w = roll_weapon(ts, Rng(f"dull/{i}"), "d12")
        assert w.powers == ["P1"] and w.bonus == 4
        # The bonus is the number alone: each rules system words it (weapon_bonus).
        assert "that glows" in w.description and "+4" not in w.description


def test_bad_power_die(ts: TableSet) -> None:
    for bad in ("d7", "d20", "", "8", None, 8):
        with pytest.raises(DelveError, match="power die"):
            roll_weapon(ts, Rng("x"), bad)
    assert roll_weapon(ts, Rng("x"), " D8 ").power_die == "d8"


def test_bad_hoard_arguments(ts: TableSet) -> None:
    with pytest.raises(DelveError, match="value"):
        roll_hoard(ts, Rng("x"), -5)
    with pytest.raises(DelveError, match="value"):
        roll_hoard(ts, Rng("x"), 10.5)
    with pytest.raises(DelveError, match="level"):
        roll_hoard(ts, Rng("x"), 100, 0)
    with pytest.raises(DelveError, match="holder die"):
        roll_hoard(ts, Rng("x"), 100, 1, "d7")


def test_hoard_weapon_reproduces_from_its_address(ts: TableSet) -> None:
    h = find(ts, "magic_weapon", 5000, 5, "d10")
    w = next(i.weapon for i in h.items if i.weapon)
    assert w.seed == f"{h.seed}/weapon"
    assert roll_weapon(ts, Rng(w.seed), w.power_die) == w


# --------------------------------------------------------------------------- text and JSON


def test_hoard_text_says_what_worth_and_slots(ts: TableSet) -> None:
    h = find(ts, "magic_weapon", 3000, 3, "d8")
    text = hoard_text(h)
    w = next(i.weapon for i in h.items if i.weapon)
    assert "Hoard worth 3,000 c.p. (30 g.p.)" in text
    assert w.name.split(",")[0] in text and "power die d8" in text
    assert "slot" in text and "Coins:" in text
    assert "XP: 3,000 if everything is sold; 2,200 for the coins and valuables" in text
    for item in h.items:
        assert item.name[1:] in text
    assert h.seed in text
    assert all(len(line) <= 88 for line in text.splitlines())


def test_weapon_text(ts: TableSet) -> None:
    w = roll_weapon(ts, Rng("text"), "d10")
    text = weapon_text(w)
    assert w.name in text and "power die d10, level 4" in text
    assert "1,000 c.p. (10 g.p.)" in text and "slot" in text
    for p in w.powers:
        assert p in text
    if w.bonus:
        assert f"+{w.bonus} to attack and damage" in text


def test_json_round_trip(ts: TableSet) -> None:
    for i in range(300):
        h = roll_hoard(ts, Rng(f"json/{i}"), 500 * (1 + i % 12), 1 + i % 10, POWER_DICE[i % 5])
        d = h.to_dict()
        again = Hoard.from_dict(json.loads(json.dumps(d)))
        assert again == h and again.to_dict() == d
    w = roll_weapon(ts, Rng("json/w"), "d12")
    assert MagicWeapon.from_dict(w.to_dict()).to_dict() == w.to_dict()


def test_json_contract(ts: TableSet) -> None:
    h = find(ts, "magic_weapon", 2000, 2, "d8")
    d = h.to_dict()
    assert isinstance(d["value_cp"], int) and d["seed"] == h.seed
    assert d["coins"] == {"cp": h.coins.cp, "sp": h.coins.sp, "gp": h.coins.gp}
    assert d["coin_slots"] == h.coins.slots
    assert all({"kind", "name", "value_cp"} <= set(i) for i in d["items"])
    assert {"slots", "xp_if_sold", "xp_coins_and_valuables"} <= set(d)
    assert d["xp_if_sold"] == 2000 and d["xp_coins_and_valuables"] == 2000 - 800
    wd = next(i["weapon"] for i in d["items"] if i["weapon"])
    assert {"power_die", "level", "form", "hands", "powers", "bonus", "value_cp"} <= set(wd)
    assert wd["hands"] in (1, 2) and all(isinstance(p, str) for p in wd["powers"])


def test_bad_documents_name_the_json_path(ts: TableSet) -> None:
    h = roll_hoard(ts, Rng("doc"), 5000, 5)
    assert len(h.items) >= 3
    d = h.to_dict()
    d["items"][2]["value_cp"] = "lots"
    with pytest.raises(DocumentError, match=r"^hoard\.items\[2\]\.value_cp: must be an integer"):
        Hoard.from_dict(d)
    d = h.to_dict()
    d["items"][0]["value_cp"] += 1
    with pytest.raises(DocumentError, match=r"^hoard\.value_cp: .*add up to"):
        Hoard.from_dict(d)
    d = h.to_dict()
    d["coins"]["gp"] = -1
    with pytest.raises(DocumentError, match=r"^hoard\.coins\.gp: must not be negative"):
        Hoard.from_dict(d)
    d = h.to_dict()
    d["items"][0]["kind"] = "wand"
    with pytest.raises(DocumentError, match=r"^hoard\.items\[0\]\.kind: must be one of"):
        Hoard.from_dict(d)
    with pytest.raises(DocumentError, match=r"^site\.hoard: must be an object"):
        Hoard.from_dict([], "site.hoard")
    w = roll_weapon(ts, Rng("doc"), "d8").to_dict()
    w["hands"] = 3
    with pytest.raises(DocumentError, match=r"^weapon\.hands: must be 1 or 2"):
        MagicWeapon.from_dict(w)
    with pytest.raises(DocumentError, match=r"^item\.weapon: a magic_weapon item needs"):
        Item.from_dict({"kind": "magic_weapon", "name": "x", "value_cp": 1})


def test_same_seed_same_bytes(ts: TableSet) -> None:
    fresh = TableSet.load(use_env=False)
    for i in range(50):
        a = roll_hoard(ts, Rng(f"bytes/{i}"), 4000, 4, "d10")
        b = roll_hoard(fresh, Rng(f"bytes/{i}"), 4000, 4, "d10")
        assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
        assert hoard_text(a) == hoard_text(b)
    assert roll_hoard(ts, Rng("a"), 4000) != roll_hoard(ts, Rng("b"), 4000)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=24)
    .map(str.strip)
    .filter(bool),
    value=st.integers(0, 300_000),
    level=st.integers(1, 12),
    die=st.sampled_from(POWER_DICE),
)
def test_any_hoard_adds_up_and_round_trips(
    builtin_tables: TableSet, seed: str, value: int, level: int, die: str
) -> None:
    h = roll_hoard(builtin_tables, Rng(seed), value, level, die)
    check_hoard(h)
    assert h.seed == seed
    assert Hoard.from_dict(json.loads(json.dumps(h.to_dict()))) == h
    assert roll_hoard(builtin_tables, Rng(seed), value, level, die) == h


@settings(max_examples=100, deadline=None)
@given(
    seed=st.from_regex(r"[a-z0-9][a-z0-9/\-]{0,20}", fullmatch=True),
    die=st.sampled_from(POWER_DICE),
)
def test_any_weapon_follows_the_rules(builtin_tables: TableSet, seed: str, die: str) -> None:
    w = roll_weapon(builtin_tables, Rng(seed), die)
    check_weapon(w, power_names(builtin_tables))
    assert MagicWeapon.from_dict(w.to_dict()) == w


# --------------------------------------------------------------------------- user tables


def write(folder: Path, table_id: str, text: str) -> Path:
    path = folder / f"{table_id}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


VALUABLES_WITHOUT_WORTH = """\
title: Our valuables
fields:
  name: str
entries:
  - name: a tin cup
    result: A dented tin cup.
"""

SHORT_POWERS = """\
title: Six powers only
die: d6
fields:
  name: str
  effect: str
  flavor: str
entries:
""" + "".join(
    f"  - roll: {n}\n    name: P{n}\n    effect: Does {n}.\n    flavor: glows {n}\n"
    for n in range(1, 7)
)


def test_user_valuables_without_worth_is_a_clear_error(tmp_path: Path) -> None:
    path = write(tmp_path, "treasure/valuables", VALUABLES_WITHOUT_WORTH)
    ts = TableSet.load([tmp_path], use_env=False)
    with pytest.raises(TableError) as err:
        roll_hoard(ts, Rng("x"), 1000)
    (line,) = err.value.problems
    assert str(path) in line and "treasure/valuables" in line and "worth_cp" in line
    # A weapon needs no valuables.
    roll_weapon(ts, Rng("x"), "d8")


def test_user_powers_table_too_short_is_a_clear_error(tmp_path: Path) -> None:
    path = write(tmp_path, "treasure/weapon-powers", SHORT_POWERS)
    ts = TableSet.load([tmp_path], use_env=False)
    with pytest.raises(TableError) as err:
        roll_weapon(ts, Rng("x"), "d4")
    (line,) = err.value.problems
    assert str(path) in line and "treasure/weapon-powers" in line and "12" in line


def test_user_valuables_table_is_used(tmp_path: Path) -> None:
    write(
        tmp_path,
        "treasure/valuables",
        """\
title: Three things
fields:
  name: str
  worth_cp: int
  kind: str?
entries:
  - {name: button, worth_cp: 7, result: A horn button.}
  - {name: lamp, worth_cp: 50, kind: trade, result: A brass lamp.}
  - {name: idol, worth_cp: 300, result: A jade idol.}
""",
    )
    ts = TableSet.load([tmp_path], use_env=False)
    for i in range(300):
        h = roll_hoard(ts, Rng(f"user/{i}"), 100 * (1 + i % 40), 2)
        check_hoard(h)
        assert {it.name for it in h.items if it.kind == "valuable"} <= {"button", "lamp", "idol"}


# --------------------------------------------------------------------------- the CLI


@pytest.fixture(autouse=True)
def _no_env_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DELVE_TABLES", raising=False)


def test_cli_hoard_text(run_cli) -> None:
    r = run_cli("hoard", "--level", "2", "--holder-die", "d8", "--seed", "harrowdeep")
    assert r.code == 0, r.err
    assert "Hoard worth 2,000 c.p. (20 g.p.)" in r.out and "XP:" in r.out and "slot" in r.out
    assert "harrowdeep" in r.out


def test_cli_hoard_json_and_count_children(run_cli) -> None:
    one = run_cli("hoard", "--level", "3", "--seed", "s", "-f", "json")
    assert one.code == 0, one.err
    single = json.loads(one.out)
    assert single["value_cp"] == 3000 and single["seed"] == "s@level=3"
    many = run_cli("hoard", "--level", "3", "--count", "3", "--seed", "s", "--format", "json")
    hoards = json.loads(many.out)
    assert [h["seed"] for h in hoards] == [f"s@level=3/hoard/{i}" for i in range(1, 4)]
    for i, h in enumerate(hoards, 1):
        # The address alone rebuilds each: it carries the level.
        again = run_cli("hoard", "--seed", f"s@level=3/hoard/{i}", "-f", "json")
        assert json.loads(again.out) == h
        Hoard.from_dict(h)
    same = run_cli("hoard", "--level", "3", "--count", "3", "--seed", "s", "--format", "json")
    assert same.out == many.out


def test_cli_hoard_value(run_cli) -> None:
    r = run_cli("hoard", "--value", "777", "--seed", "v", "-f", "json")
    assert r.code == 0, r.err
    h = Hoard.from_dict(json.loads(r.out))
    assert h.value_cp == 777 and h.level == 1


def test_cli_weapon(run_cli) -> None:
    r = run_cli("weapon", "--die", "d10", "--count", "3", "--seed", "w", "-f", "json")
    assert r.code == 0, r.err
    ws = json.loads(r.out)
    assert [w["seed"] for w in ws] == [f"w@die=d10/weapon/{i}" for i in (1, 2, 3)]
    assert all(w["power_die"] == "d10" and w["value_cp"] == 1000 for w in ws)
    again = run_cli("weapon", "--seed", "w@die=d10/weapon/2", "-f", "json")
    assert json.loads(again.out) == ws[1]
    text = run_cli("weapon", "--seed", "w@die=d10/weapon/2")
    assert ws[1]["name"] in text.out and "power die d10" in text.out


def test_cli_weapon_from_hoard_address(run_cli) -> None:
    # `delve weapon --seed <hoard>/weapon` shows the hoard's weapon again, from that alone:
    # a hoard of `delve hoard` and a hoard in a site's room.
    for seed in (f"w{i}" for i in range(40)):
        r = run_cli("hoard", "--seed", seed, "--level", "5", "--holder-die", "d8", "-f", "json")
        items = json.loads(r.out)["items"]
        if any(it["weapon"] for it in items):
            break
    weapon = next(it["weapon"] for it in items if it["weapon"])
    assert weapon["seed"] == f"{seed}@level=5+holder=d8/weapon"
    again = run_cli("weapon", "--seed", weapon["seed"], "-f", "json")
    assert json.loads(again.out) == weapon
    for seed in ("harrowdeep", *(f"w{i}" for i in range(40))):
        site = json.loads(run_cli("site", "--seed", seed, "--level", "3", "-f", "json").out)
        found = [
            it["weapon"]
            for r in site["rooms"]
            if r["hoard"]
            for it in r["hoard"]["items"]
            if it["weapon"]
        ]
        if found:
            break
    assert found, "no site of 40 holds a magic weapon in its hoards"
    assert json.loads(run_cli("weapon", "--seed", found[0]["seed"], "-f", "json").out) == found[0]


@pytest.mark.parametrize(
    "args, words",
    [
        (["hoard", "--level", "0"], "--level"),
        (["hoard", "--value", "-5"], "--value"),
        (["hoard", "--level", "2", "--value", "50"], "not both"),
        (["hoard", "--holder-die", "d3"], "--holder-die"),
        (["hoard", "--count", "0"], "--count"),
        (["hoard", "--format", "pdf"], "--format"),
        (["weapon", "--die", "d7"], "--die"),
        (["weapon", "--count", "0"], "--count"),
        (["weapon", "--format", "xml"], "--format"),
    ],
)
def test_cli_bad_input_is_one_line(run_cli, args: list[str], words: str) -> None:
    r = run_cli(*args, "--seed", "bad")
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.err
    assert r.out == ""


def test_cli_user_valuables_without_worth(run_cli, tmp_path: Path) -> None:
    write(tmp_path, "treasure/valuables", VALUABLES_WITHOUT_WORTH)
    r = run_cli("--tables", str(tmp_path), "hoard", "--seed", "u")
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 1
    assert "treasure/valuables" in lines[0] and "worth_cp" in lines[0]
    assert str(tmp_path) in lines[0]


@pytest.mark.parametrize("command", ["hoard", "weapon"])
def test_cli_help_has_an_example(run_cli, command: str) -> None:
    r = run_cli(command, "--help")
    assert r.code == 0 and "Example: delve " + command in r.out
