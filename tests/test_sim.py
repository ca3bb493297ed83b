"""Simulated combat tells the truth: hand-worked odds, exact duels, sanity, morale, seeds.

The heavy checks use a few thousand trials at fixed seeds, so they are deterministic; the
figures they compare with are worked out here by hand or by dynamic programming. The bestiary's
specials are in test_sim_specials.py, parties and tables in test_sim_party.py, the commands
and booklets in test_sim_cli.py, (Fortmayn)'s own fight in test_sim_fortmayn*.py.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build.monsters import bestiary
from generator.model.danger import Danger
from generator.sim import engine
from generator.sim.danger import estimate, foes
from generator.sim.foes import FoeGroup, foe_kind
from generator.sim.party import Character, default_party
from generator.sim.rules import Tactics, tactics, verdicts
from generator.sim.stats import wilson

KEYS = {"win", "flee", "wiped", "drop", "rounds", "hp_lost", "trials", "verdict"}


def monster(tables, name):
    m = bestiary(tables).find(name)
    assert m is not None, name
    return m


def odds(tables, party, name, count, address="test", trials=2000):
    return estimate(
        tables, party, foes(tables, [(monster(tables, name), str(count))]), address, trials
    )


# --------------------------------------------------------------------------- by hand


def _probe(tables, character, foe_name, trials=40_000):
    """A Fight of one character against one foe, ready for single attacks."""
    kind = foe_kind(tables, monster(tables, foe_name))
    kind = replace(kind, hp=10_000)
    return engine.Fight([character], [FoeGroup(kind, "1")], tactics(tables), trials, 7)


def fighter(level=1, **changes):
    base = Character(
        name="test",
        cls="fighter",
        level=level,
        hp=5 * level,
        max_hp=5 * level,
        defense=12,
        shield=False,
        prowess=level,
        weapon="one-handed",
        weapon_bonus=0,
        damage_type="slash",
        energy=0,
        spells=(),
        skills=(),
    )
    return replace(base, **changes)


@pytest.mark.parametrize("bonus,dc", [(0, 12), (1, 14), (1, 16), (4, 12), (8, 16), (0, 21)])
def test_one_attack_hits_as_d20_plus_bonus_against_defense(builtin_tables, bonus, dc):
    f = _probe(builtin_tables, fighter(), "Ogre")
    f.f_dc[:] = dc
    everyone = np.ones(f.n, dtype=bool)
    f._hit_foe(0, bonus, everyone, f.f_up.copy())
    hits = np.count_nonzero(f.f_hp[:, 0] < 10_000)
    # d20 + bonus >= dc: the faces dc - bonus .. 20 hit.
    expected = max(0, min(20, 21 - (dc - bonus))) / 20
    se = max(np.sqrt(expected * (1 - expected) / f.n), 1e-9)
    assert abs(hits / f.n - expected) <= 4 * se, (hits / f.n, expected)


@pytest.mark.parametrize(
    "weapon,resist,expected",
    [
        ("one-handed", False, Fraction(7, 2)),  # d6
        ("two-handed", False, Fraction(161, 36)),  # best of 2d6 (FMC Basic, Combat)
        ("one-handed", True, Fraction(3, 2)),  # half of d6, rounded down: (0+1+1+2+2+3)/6
    ],
)
def test_damage_of_a_die(builtin_tables, weapon, resist, expected):
    # A lycanthrope resists slash (ineffective weapons deal half); a giant does not.
    foe = "Lycanthrope" if resist else "Giant"
    f = _probe(builtin_tables, fighter(weapon=weapon), foe)
    f.f_dc[:] = 1  # every attack hits
    f._hit_foe(0, 0, np.ones(f.n, dtype=bool), f.f_up.copy())
    dealt = 10_000 - f.f_hp[:, 0]
    mean = dealt.mean()
    sd = dealt.std() / np.sqrt(f.n)
    assert abs(mean - float(expected)) < 4 * sd


def test_the_engine_splits_every_bonus_above_one_into_plus_one_attacks(builtin_tables):
    # FMC Basic, Fighters and Monster Types: a bonus above +1 may be split between attacks.
    assert engine._slots(fighter(level=1)) == (1,)
    assert engine._slots(fighter(level=5)) == (1,) * 5
    assert engine._slots(fighter(level=1, prowess=0)) == (0,)
    assert foe_kind(builtin_tables, monster(builtin_tables, "Giant")).attacks == (1,) * 8
    assert foe_kind(builtin_tables, monster(builtin_tables, "Porc")).attacks == (1,)
    assert foe_kind(builtin_tables, monster(builtin_tables, "Skeleton")).attacks == (0,)


@pytest.mark.parametrize("level,dc", [(2, 12), (4, 14), (6, 16), (8, 17)])
def test_split_attacks_land_the_hits_the_arithmetic_says(builtin_tables, level, dc):
    # FMC Basic (lines 57, 211): a bonus above +1 may be split. The engine splits +k into k
    # attacks at +1, which land k(22-DC)/20 hits on average; one attack at +k would land
    # (21-DC+k)/20, fewer for any defense below 21 (docs/danger.md, Splitting).
    f = _probe(builtin_tables, fighter(level=level), "Ogre", trials=20_000)
    f.f_dc[:] = dc
    hits = np.zeros(f.n)
    wound = f._wound_foes

    def counted(t, hit, dmg):
        hits[:] += hit
        wound(t, hit, dmg)

    f._wound_foes = counted
    f.party_melee(np.ones((f.n, 1), dtype=bool))
    split = level * (22 - dc) / 20
    single = (21 - dc + level) / 20
    se = hits.std() / np.sqrt(f.n)
    assert abs(hits.mean() - split) < 4 * se, (hits.mean(), split)
    assert hits.mean() - single > 4 * se


# --------------------------------------------------------------------------- an exact duel


def _duel_win(char_hp, foe_hp, p_char, p_foe, char_dmg, foe_dmg, rounds):
    """P(the character wins) by dynamic programming over hit points, following the engine's
    reading of FMC Basic: a surprise round (each side tempts fate; both surprised is neither),
    then rounds in which initiative is a toss and the winner strikes first. `char_dmg` and
    `foe_dmg` list the damage of a hit, each value equally likely (a d6 is 1..6)."""

    @cache
    def after_char(c, f, left, foe_next):
        # the character swings; if the foe stands and strikes next, it does
        total = (1 - p_char) * (
            after_foe(c, f, left, False) if foe_next else round_(c, f, left - 1)
        )
        for d in char_dmg:
            g = f - d
            p = p_char / len(char_dmg)
            if g <= 0:
                total += p
            else:
                total += p * (after_foe(c, g, left, False) if foe_next else round_(c, g, left - 1))
        return total

    @cache
    def after_foe(c, f, left, char_next):
        total = (1 - p_foe) * (
            after_char(c, f, left, False) if char_next else round_(c, f, left - 1)
        )
        for d in foe_dmg:
            h = c - d
            if h > 0:
                nxt = after_char(h, f, left, False) if char_next else round_(h, f, left - 1)
                total += p_foe / len(foe_dmg) * nxt
        return total

    @cache
    def round_(c, f, left):
        if left == 0:
            return 0.0  # the party walks away after max_rounds: not a win
        return 0.5 * after_char(c, f, left, True) + 0.5 * after_foe(c, f, left, True)

    # surprise: 1/4 the foe strikes alone, 1/4 the character does, 1/2 neither
    free_foe = after_foe(char_hp, foe_hp, rounds + 1, False)
    free_char = after_char(char_hp, foe_hp, rounds + 1, False)
    return 0.25 * free_foe + 0.25 * free_char + 0.5 * round_(char_hp, foe_hp, rounds)


D4, D6 = range(1, 5), range(1, 7)
BEST_OF_2D6 = [k for k in D6 for _ in range(2 * k - 1)]  # P(k) = (2k-1)/36
HALF_D6 = [d // 2 for d in D6]  # an ineffective weapon: half, rounded down (line 137)


@pytest.mark.parametrize(
    "changes,foe,char_dmg",
    [
        # the same numbers on both sides: +1 against defense 12, d6, 5 HP against 4
        ({}, "Zombie", D6),
        # a weaker foe with a smaller die: a skeleton, +0, d4, 2 HP
        ({}, "Skeleton", D6),
        # the foe harder to hit than the fighter: a porc behind defense 14
        ({}, "Porc", D6),
        # the fighter harder to hit, and frailer: defense 16, 3 HP, against a zombie
        ({"defense": 16, "hp": 3, "max_hp": 3}, "Zombie", D6),
        # a two-handed maul (best of 2d6) against a porc
        ({"weapon": "two-handed"}, "Porc", BEST_OF_2D6),
        # a spear into a skeleton, which shrugs off piercing: half damage, rounded down
        ({"damage_type": "pierce"}, "Skeleton", HALF_D6),
    ],
)
def test_a_duel_agrees_with_dynamic_programming(builtin_tables, changes, foe, char_dmg):
    # A level-1 fighter (one attack at +1) against one foe that makes one attack and never
    # checks morale (alone and not big: FMC Basic line 165) is a game small enough to solve
    # exactly; the engine must agree within its 95% interval.
    hero = fighter(level=1, **changes)
    kind = foe_kind(builtin_tables, monster(builtin_tables, foe))
    assert len(kind.attacks) == 1 and not kind.shield and not kind.big
    rounds = 30
    t = Tactics(
        front_holds=2, fall_back_at=0.5, party_breaks_at=0.5, max_rounds=rounds, lullaby_average=3.5
    )
    p_char = max(0, min(20, 21 - (kind.dc - hero.prowess))) / 20
    p_foe = max(0, min(20, 21 - (hero.defense - kind.attack))) / 20
    foe_dmg = range(1, kind.damage + 1)
    exact = _duel_win(hero.hp, kind.hp, p_char, p_foe, tuple(char_dmg), tuple(foe_dmg), rounds)
    trials = 40_000
    out = engine.fight([hero], [FoeGroup(kind, "1")], t, trials, 11)
    wins = int(np.count_nonzero(out.outcome == engine.WIN))
    low, high = wilson(wins, trials)
    assert low <= exact <= high, (wins / trials, exact)


# --------------------------------------------------------------------------- sanity


def test_one_mook_against_level_5_is_won(builtin_tables):
    for name in ("Skeleton", "Hoblin", "Giant Rat"):
        d = odds(builtin_tables, default_party(builtin_tables, 5), name, 1)
        assert d.win > 0.99, (name, d.win)
        assert d.verdict == "trivial"


def test_three_adult_dragons_against_level_1_are_lost(builtin_tables):
    d = odds(builtin_tables, default_party(builtin_tables, 1), "Adult dragon", 3)
    assert d.win < 0.05
    assert d.verdict == "deadly"


@pytest.mark.parametrize("name,count", [("Ogre", 2), ("Hoblin", 8), ("Troll", 1), ("Ghoul", 3)])
def test_win_chance_never_falls_as_the_party_levels(builtin_tables, name, count):
    previous = None
    for level in range(1, 8):
        d = odds(builtin_tables, default_party(builtin_tables, level), name, count, f"lv/{level}")
        if previous is not None:
            # beyond noise: the two 95% intervals must overlap at least
            assert d.ci95["win"][1] >= previous.ci95["win"][0], (level, d.win, previous.win)
        previous = d


@pytest.mark.parametrize("name", ["Porc", "Zombie", "Hoblin"])
def test_win_chance_never_falls_as_the_foes_thin(builtin_tables, name):
    party = default_party(builtin_tables, 2)
    previous = None
    for count in range(10, 0, -1):
        d = odds(builtin_tables, party, name, count, f"n/{count}")
        if previous is not None:
            assert d.ci95["win"][1] >= previous.ci95["win"][0], (count, d.win, previous.win)
        previous = d


@pytest.mark.parametrize(
    "boss,follower",
    [
        ("Vampire", "Zombie"),  # a boss whose followers cannot think
        ("Giant", "Porc"),
        ("Ogre", "Hoblin"),
        ("Troll", "Porc"),
        ("Medusa", "Hoblin"),
        ("Young dragon", "Ashling"),  # an elite leader, not a big monster
    ],
)
def test_win_chance_never_falls_as_a_leaders_followers_thin(builtin_tables, boss, follower):
    # FMC Basic, Skirmishes (line 165): losing its last follower must not rout a boss, or a
    # boss with one hoblin would be easier to beat than the boss alone (docs/danger.md, Morale).
    for level in (1, 3, 5):
        party = default_party(builtin_tables, level)
        previous = None
        for n in range(6, -1, -1):
            pairs = [(monster(builtin_tables, boss), "1")]
            if n:
                pairs.append((monster(builtin_tables, follower), str(n)))
            d = estimate(builtin_tables, party, foes(builtin_tables, pairs), f"b/{level}/{n}")
            if previous is not None:
                assert d.ci95["win"][1] >= previous.ci95["win"][0], (level, n, d.win, previous.win)
            previous = d


def test_morale_routs_the_rank_and_file_not_the_leader_or_a_big_monster(builtin_tables):
    # FMC Basic, Skirmishes (line 165), as docs/danger.md reads it.
    def side(*pairs):
        groups = [
            FoeGroup(foe_kind(builtin_tables, monster(builtin_tables, n)), c) for n, c in pairs
        ]
        party = default_party(builtin_tables, 1)
        return engine.Fight(party, groups, tactics(builtin_tables), 4000, 3)

    # A ghoul leads four hoblins; three fall (half the side): hoblins break half the time, the
    # ghoul never does.
    f = side(("Ghoul", "1"), ("Hoblin", "4"))
    f.f_up[:, 1:4] = False
    f._morale()
    assert f.f_up[:, 0].all()
    assert 0.45 < f.f_up[:, 4].mean() < 0.55
    # The leader falls: the rest tempt fate (half break).
    f = side(("Ghoul", "1"), ("Hoblin", "4"))
    f.f_up[:, 0] = False
    f._morale()
    assert 0.45 < f.f_up[:, 1:].all(1).mean() < 0.55
    assert (f.f_up[:, 1:].all(1) | ~f.f_up[:, 1:].any(1)).all()  # the side breaks as one
    # Two ogres: one falls, the other fights on until hurt to half its hit points.
    f = side(("Ogre", "2"))
    f.f_up[:, 0] = False
    f._morale()
    assert f.f_up[:, 1].all()
    f.f_hp[:, 1] = f.f_hp0[1] // 2
    f._morale()
    assert 0.45 < f.f_up[:, 1].mean() < 0.55


def test_same_seed_same_figures_and_another_seed_others(builtin_tables):
    party = default_party(builtin_tables, 2)
    a = odds(builtin_tables, party, "Ogre", 2, "seed/a").to_dict()
    b = odds(builtin_tables, party, "Ogre", 2, "seed/a").to_dict()
    c = odds(builtin_tables, party, "Ogre", 2, "seed/c").to_dict()
    assert a == b
    assert a != c


def test_many_trials_are_fought_a_chunk_at_a_time(builtin_tables, monkeypatch):
    # A million trials against 60 foes would need gigabytes at once; the engine fights them
    # CHUNK at a time, the first chunk on the fight's own seed (so small runs are unchanged).
    party = default_party(builtin_tables, 2)
    groups = list(foes(builtin_tables, [(monster(builtin_tables, "Porc"), "5")]).groups)
    t = tactics(builtin_tables)
    alone = engine.fight(party, groups, t, 1000, 9)
    monkeypatch.setattr(engine, "CHUNK", 1000)
    many = engine.fight(party, groups, t, 2500, 9)
    assert many.outcome.shape == (2500,) and many.hp.shape == (2500, 4)
    assert (many.outcome[:1000] == alone.outcome).all() and (many.hp[:1000] == alone.hp).all()
    assert not (many.outcome[1000:2000] == alone.outcome).all()  # a stream of its own
    # a route's later fights start from the earlier ones' state, chunk by chunk
    start = engine.Start(many.hp, many.max_hp, many.energy, many.shield, many.up)
    after = engine.fight(party, groups, t, 2500, 10, start)
    assert after.outcome.shape == (2500,)
    assert (after.max_hp <= many.max_hp).all() and not (after.up & ~many.up).any()


def test_shares_add_up_and_intervals_hold_the_figures(builtin_tables):
    d = odds(builtin_tables, default_party(builtin_tables, 1), "Porc", 4)
    assert d.win + d.flee + d.wiped == pytest.approx(1.0)
    assert d.wiped <= d.drop
    for key, (low, high) in d.ci95.items():
        assert low <= getattr(d, key) <= high, key
    assert Danger.from_dict(json.loads(json.dumps(d.to_dict())), "d").to_dict() == d.to_dict()


def test_dice_counts_vary_by_trial(builtin_tables):
    party = default_party(builtin_tables, 1)
    few = odds(builtin_tables, party, "Hoblin", "2", "var")
    varied = odds(builtin_tables, party, "Hoblin", "1d4+1", "var")
    many = odds(builtin_tables, party, "Hoblin", "5", "var")
    assert many.win < varied.win < few.win


def test_specials_count(builtin_tables):
    party = default_party(builtin_tables, 3)
    # Trolls regenerate: one is harder to beat than an ogre with the same numbers.
    troll = odds(builtin_tables, party, "Troll", 1)
    ogre = odds(builtin_tables, party, "Ogre", 1)
    assert troll.hp_lost > ogre.hp_lost
    # A medusa's gaze petrifies half of those who face it, whatever their level.
    medusa = odds(builtin_tables, default_party(builtin_tables, 5), "Medusa", 1)
    assert medusa.drop > 0.9
    # A wraith drains: more hit points lost than a bear of the same bracket and defense.
    wraith = odds(builtin_tables, party, "Wraith", 1)
    bear = odds(builtin_tables, party, "Bear", 1)
    assert wraith.hp_lost > bear.hp_lost
    # Poison has no numbers in FMC Basic: the estimate says what it leaves out.
    spider = odds(builtin_tables, party, "Giant Spider", 1)
    assert any("poison" in n for n in spider.notes)


# --------------------------------------------------------------------------- properties

NAMES = ["Hoblin", "Porc", "Ogre", "Troll", "Ghoul", "Wraith", "Medusa", "Young dragon", "Rat King"]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.sampled_from(NAMES),
    count=st.integers(1, 8),
    level=st.integers(1, 10),
    seed=st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=8).filter(
        lambda s: s == s.strip() and s.strip()
    ),
)
def test_any_fight_gives_coherent_figures(builtin_tables, name, count, level, seed):
    d = odds(builtin_tables, default_party(builtin_tables, level), name, count, seed, trials=300)
    assert d.win + d.flee + d.wiped == pytest.approx(1.0)
    assert d.wiped <= d.drop and 0 <= d.hp_lost <= 1 and d.rounds >= 0
    assert d.verdict in [v.key for v in verdicts(builtin_tables)]
    for key, (low, high) in d.ci95.items():
        assert low - 1e-9 <= getattr(d, key) <= high + 1e-9, key


def test_intervals_at_none_and_all_reach_zero_and_one():
    assert wilson(0, 2000)[0] == 0.0 and wilson(2000, 2000)[1] == 1.0
    low, high = wilson(1000, 2000)
    assert 0.47 < low < 0.5 < high < 0.53
