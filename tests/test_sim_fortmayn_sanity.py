"""(Fortmayn)'s own estimates are sane, as test_sim.py asks of FMC Basic's: a mook is nothing to
a level-5 party, three adult dragons are deadly to level-1 characters (one is no walkover
either), stronger foes and more of them are never easier, a stronger party never does worse,
the same seed gives the same figures; and `delve sim --system fortmayn` says so.

The figures need not be FMC Basic's: (Fortmayn) caps what a foe does in one exchange by the
character's own dice under 3 and lets armour soak wounds, so a lone big foe is weaker there and
a crowd is not (docs/danger.md, Other rules systems).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build.monsters import bestiary, brackets
from generator.sim import fortmayn
from generator.sim.danger import Foes, estimate, foes
from generator.sim.foes import FoeGroup, FoeKind, foe_kind
from generator.sim.party import default_party
from generator.sim.rules import tactics, verdicts


def monster(tables, name):
    m = bestiary(tables).find(name)
    assert m is not None, name
    return m


def odds(tables, party, pairs, address="test", trials=2000):
    """(Fortmayn)'s estimate of a fight against [(monster name or FoeKind, count)]."""
    groups = []
    for who, count in pairs:
        kind = who if isinstance(who, FoeKind) else foe_kind(tables, monster(tables, who))
        groups.append(FoeGroup(kind, str(count)))
    notes = tuple(n for g in groups for n in g.kind.notes)
    return fortmayn.estimate(tables, party, Foes(tuple(groups), notes), address, trials)


def level(tables, n):
    return default_party(tables, n)


def no_worse(d, previous):
    """Beyond noise: d's 95% interval for the win reaches previous's."""
    return d.ci95["win"][1] >= previous.ci95["win"][0]


def typical(tables, bracket):
    """A plain foe of the bracket's own numbers (FMC Basic, Monster Types): no powers."""
    b = brackets(tables)[bracket]
    return FoeKind(
        name=f"typical {b.name}",
        hp=b.hp,
        dc=12,
        attack=b.attack,
        damage=int(b.damage.lstrip("d")),
        hit_dice=b.hit_dice,
        bracket=bracket,
        xp=b.xp,
        shield=False,
        resist=frozenset(),
    )


# --------------------------------------------------------------------------- the sanity rules


def test_one_mook_against_level_5_is_trivial(builtin_tables):
    for name in ("Skeleton", "Hoblin", "Giant Rat", "Kobold"):
        d = odds(builtin_tables, level(builtin_tables, 5), [(name, 1)])
        assert d.win > 0.99 and d.verdict == "trivial", (name, d.win, d.verdict)


def test_three_adult_dragons_against_level_1_are_deadly(builtin_tables):
    for name in ("Adult dragon", "Elder dragon"):
        d = odds(builtin_tables, level(builtin_tables, 1), [(name, 3)])
        assert d.verdict == "deadly", (name, d.win, d.drop)


def test_one_adult_dragon_against_level_1_is_no_walkover(builtin_tables):
    # The reported symptom: trivial, win 100%, hit points lost under 1%. Its breath strikes
    # every character (special.breath), and the party wears what its coins bought.
    party = level(builtin_tables, 1)
    d = odds(builtin_tables, party, [("Adult dragon", 1)])
    assert d.verdict != "trivial" and d.drop > 0.02 and d.hp_lost > 0.05, d.to_dict()
    assert not any("breath" in n for n in d.notes)
    dragon = foe_kind(builtin_tables, monster(builtin_tables, "Adult dragon"))
    calm = odds(builtin_tables, party, [(replace(dragon, area=""), 1)])
    assert calm.hp_lost < d.hp_lost and calm.drop < d.drop


@pytest.mark.parametrize(
    "name,count",
    [("Ogre", 2), ("Hoblin", 8), ("Troll", 1), ("Ghoul", 3), ("Adult dragon", 3), ("Giant", 4)],
)
def test_win_chance_never_falls_as_the_party_levels(builtin_tables, name, count):
    previous = None
    for n in range(1, 11):
        d = odds(builtin_tables, level(builtin_tables, n), [(name, count)], f"lv/{n}")
        if previous is not None:
            assert no_worse(d, previous), (n, d.win, previous.win)
        previous = d


@pytest.mark.parametrize("name,most", [("Porc", 10), ("Zombie", 10), ("Hoblin", 10), ("Ogre", 6)])
def test_win_chance_never_falls_as_the_foes_thin(builtin_tables, name, most):
    party = level(builtin_tables, 2)
    previous = None
    for count in range(most, 0, -1):
        d = odds(builtin_tables, party, [(name, count)], f"n/{count}")
        if previous is not None:
            assert no_worse(d, previous), (count, d.win, previous.win)
        previous = d


@pytest.mark.parametrize("count", [1, 2, 3, 5])
@pytest.mark.parametrize("lvl", [1, 3, 6])
def test_stronger_foes_are_never_easier(builtin_tables, count, lvl):
    # Up the brackets (a plain foe of each bracket's numbers), and young, adult, elder dragons.
    party = level(builtin_tables, lvl)
    for ladder in (
        [typical(builtin_tables, b) for b in sorted(brackets(builtin_tables))],
        ["Young dragon", "Adult dragon", "Elder dragon"],
    ):
        previous = None
        for who in ladder:
            d = odds(builtin_tables, party, [(who, count)], f"s/{count}/{lvl}")
            if previous is not None:
                assert no_worse(previous, d), (who, d.win, previous.win)
            previous = d


@pytest.mark.parametrize(
    "boss,follower",
    [("Vampire", "Zombie"), ("Giant", "Porc"), ("Ogre", "Hoblin"), ("Medusa", "Hoblin")],
)
def test_win_chance_never_falls_as_a_leaders_followers_thin(builtin_tables, boss, follower):
    # Cowing the rank and file never routs their leader (docs/danger.md, Morale), so a boss
    # with one hoblin is never easier than the boss alone.
    for lvl in (1, 3, 5):
        party = level(builtin_tables, lvl)
        previous = None
        for n in range(6, -1, -1):
            pairs = [(boss, 1)] + ([(follower, n)] if n else [])
            d = odds(builtin_tables, party, pairs, f"b/{lvl}/{n}")
            if previous is not None:
                assert no_worse(d, previous), (lvl, n, d.win, previous.win)
            previous = d


# --------------------------------------------------------------------------- seeds and shape


def test_same_seed_same_figures_and_another_seed_others(builtin_tables):
    party = level(builtin_tables, 2)
    a = odds(builtin_tables, party, [("Ogre", 3)], "seed/a").to_dict()
    assert a == odds(builtin_tables, party, [("Ogre", 3)], "seed/a").to_dict()
    assert a != odds(builtin_tables, party, [("Ogre", 3)], "seed/c").to_dict()
    assert a["rules"] == "fortmayn"


def test_estimates_sit_beside_fmc_basics(builtin_tables):
    party = level(builtin_tables, 1)
    against = foes(builtin_tables, [(monster(builtin_tables, "Giant Spider"), "2")])
    d = estimate(builtin_tables, party, against, "fm", 1000, systems=("fortmayn",))
    other = d.others["fortmayn"]
    assert d.rules == "fmc" and other.rules == "fortmayn"
    # FMC Basic gives venom no numbers; the (Fortmayn) booklet does (its wounds stay lost).
    assert any(n.startswith("poison") for n in d.notes) and other.notes == []


def test_many_trials_are_fought_a_chunk_at_a_time(builtin_tables, monkeypatch):
    party = level(builtin_tables, 2)
    groups = list(foes(builtin_tables, [(monster(builtin_tables, "Porc"), "1d4+2")]).groups)
    t = tactics(builtin_tables)
    alone = fortmayn.fight(builtin_tables, party, groups, t, 1000, 9)
    monkeypatch.setattr(fortmayn, "CHUNK", 1000)
    many = fortmayn.fight(builtin_tables, party, groups, t, 2500, 9)
    assert many.outcome.shape == (2500,) and many.hp.shape == (2500, 4)
    assert (many.outcome[:1000] == alone.outcome).all() and (many.hp[:1000] == alone.hp).all()
    assert not (many.hp[1000:2000] == alone.hp).all()  # a stream of its own


NAMES = [
    "Hoblin",
    "Porc",
    "Ogre",
    "Troll",
    "Ghoul",
    "Medusa",
    "Adult dragon",
    "Rat King",
    "Web Mother",
    "Glass Ooze",
    "Spore Elder",
    "Gallows Hag",
]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.sampled_from(NAMES),
    count=st.integers(1, 8),
    lvl=st.integers(1, 10),
    seed=st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=8),
)
def test_any_fight_gives_coherent_figures(builtin_tables, name, count, lvl, seed):
    d = odds(builtin_tables, level(builtin_tables, lvl), [(name, count)], seed, trials=300)
    assert d.win + d.flee + d.wiped == pytest.approx(1.0)
    assert d.wiped <= d.drop and 0 <= d.hp_lost <= 1 and d.rounds >= 0
    assert d.verdict in [v.key for v in verdicts(builtin_tables)]
    for key, (low, high) in d.ci95.items():
        assert low - 1e-9 <= getattr(d, key) <= high + 1e-9, key


# --------------------------------------------------------------------------- the command


def test_delve_sim_fights_an_adult_dragon_by_fortmayns_rules(run_cli):
    res = run_cli(
        "sim", "--monster", "adult dragon", "--level", "1", "--system", "fortmayn", "--seed", "x"
    )
    assert res.code == 0, res.err
    own = res.out.split("By (Fortmayn)'s own rules", 1)[1]
    assert "Verdict: trivial" not in own and "breath" not in own
    three = run_cli(
        "sim",
        "--monster",
        "adult dragon",
        "--count",
        "3",
        "--level",
        "1",
        "--system",
        "fortmayn",
        "--seed",
        "x",
    )
    assert three.out.count("Verdict: deadly") == 2, three.out
