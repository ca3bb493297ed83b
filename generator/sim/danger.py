"""Danger estimates for fights, rooms, wandering groups, lairs and whole sites.

Each estimate fights the encounter `trials` times (default 2,000) with a stream seeded from its
address (a room's `<site>/level/1/room/4` + `/danger`), so the same site prints the same odds.
The figures are FMC Basic's: other systems print them with a note saying so, and (Fortmayn),
whose Difficulty Dice change the odds most, gets an estimate of its own (sim/fortmayn.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.danger import MAX_TRIALS, Danger, Route, RouteStep
from generator.model.monster import Monster
from generator.model.site import MonsterGroup, Room, Site
from generator.sim.foes import FoeGroup, check_groups, foe_kind
from generator.sim.party import Character, default_party, describe
from generator.sim.rules import tactics, verdict
from generator.sim.stats import mean_interval, wilson

DEFAULT_TRIALS = 2000


def check_trials(trials: int) -> int:
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= MAX_TRIALS:
        raise DelveError(f"--trials: must be from 1 to {MAX_TRIALS:,}, not {trials}")
    return trials


def seed_for(address: str) -> int:
    """A 128-bit seed for numpy from the sha256 of an address (as Rng derives its streams)."""
    digest = hashlib.sha256(f"{address}/danger".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:16], "big")


@dataclass(frozen=True)
class Foes:
    """What a fight is against: groups of FMC monsters (fixed counts or dice formulas)."""

    groups: tuple[FoeGroup, ...]
    notes: tuple[str, ...]


def foes(tables: TableSet, pairs: Iterable[tuple[Monster, str]]) -> Foes:
    groups = tuple(FoeGroup(foe_kind(tables, m), count) for m, count in pairs)
    check_groups(list(groups))
    notes = tuple(dict.fromkeys(n for g in groups for n in g.kind.notes))
    return Foes(groups, notes)


def summarise(
    tables: TableSet, outcome: object, party: list[Character], rules: str, notes: Iterable[str]
) -> Danger:
    """Shares, means and intervals of one fight's outcome arrays, and its verdict."""
    import numpy as np

    from generator.sim.engine import FLEE, WIN, WIPED

    o = outcome
    n = int(o.outcome.size)  # type: ignore[attr-defined]
    figures: dict[str, float] = {}
    ci: dict[str, tuple[float, float]] = {}
    for key, hits in (
        ("win", o.outcome == WIN),  # type: ignore[attr-defined]
        ("flee", o.outcome == FLEE),  # type: ignore[attr-defined]
        ("wiped", o.outcome == WIPED),  # type: ignore[attr-defined]
        ("drop", o.dropped),  # type: ignore[attr-defined]
    ):
        count = int(np.count_nonzero(hits))
        figures[key] = count / n
        ci[key] = wilson(count, n)
    for key, values in (("rounds", o.rounds), ("hp_lost", o.hp_lost)):  # type: ignore[attr-defined]
        v = values.astype(float)
        mean, low, high = mean_interval(float(v.sum()), float((v * v).sum()), n)
        figures[key] = mean
        ci[key] = (max(low, 0.0), high)
    return Danger(
        **figures,
        trials=n,
        verdict=verdict(tables, figures),
        ci95=ci,
        party=describe(party),
        rules=rules,
        notes=list(notes),
    )


def estimate(
    tables: TableSet,
    party: list[Character],
    against: Foes,
    address: str,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
) -> Danger:
    """One fight, `trials` times, under FMC Basic's rules (and each system named that has a
    simulation of its own)."""
    from generator.sim.engine import fight

    check_trials(trials)
    out = fight(party, list(against.groups), tactics(tables), trials, seed_for(address))
    danger = summarise(tables, out, party, "fmc", against.notes)
    for key in systems:
        other = other_system(key)
        if other is not None:
            danger.others[key] = other(tables, party, against, address, trials)
    return danger


def other_system(key: str) -> object | None:
    """The estimate function of a system with a combat simulation of its own, or None."""
    if key == "fortmayn":
        from generator.sim.fortmayn import estimate as fortmayn_estimate

        return fortmayn_estimate
    return None


def _pairs(bestiary: dict[str, Monster], groups: list[MonsterGroup]) -> list[tuple[Monster, str]]:
    return [(bestiary[g.name], str(g.count)) for g in groups]


def party_for(tables: TableSet, level: int, party: list[Character] | None) -> list[Character]:
    return party if party is not None else default_party(tables, level)


def estimate_site(
    tables: TableSet,
    site: Site,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
) -> None:
    """Put a Danger on every room with monsters and every wandering group, and a Route for
    each level of the site.

    Each room is fought by a fresh party of the level its loop is stocked for (or by the
    referee's party); wandering groups by a party of the site's level."""
    systems = tuple(systems)
    for room in site.rooms:
        estimate_room(tables, site, room, party, trials, systems)
    who = party_for(tables, site.level, party)
    for e in site.encounters:
        against = foes(tables, [(site.bestiary[e.name], e.count)])
        address = f"{site.seed}/encounters/{e.roll}"
        e.danger = estimate(tables, who, against, address, trials, systems)
    site.routes = [
        route(
            tables,
            site,
            depth,
            party_for(tables, site.level_of(depth), party),
            trials,
        )
        for depth in range(1, site.levels + 1)
    ]


def estimate_room(
    tables: TableSet,
    site: Site,
    room: Room,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
) -> None:
    """Put a Danger on one room with monsters: a fresh party of the level its loop is stocked
    for (or the referee's), seeded from the room's address, as the whole site's key has it."""
    room.danger = None
    if room.monsters:
        who = party_for(tables, site.level_of(room.level), party)
        against = foes(tables, _pairs(site.bestiary, room.monsters))
        address = room.seed or f"{site.seed}/room/{room.id}"
        room.danger = estimate(tables, who, against, address, trials, tuple(systems))


def route(
    tables: TableSet,
    site: Site,
    depth: int,
    party: list[Character],
    trials: int = DEFAULT_TRIALS,
) -> Route:
    """One level's occupied rooms, in key order, fought one after another without a rest:
    after each, the share of trials that have won every fight so far."""
    import numpy as np

    from generator.sim.engine import WIN, Start, fight

    steps: list[RouteStep] = []
    start: Start | None = None
    alive = trials
    rooms = sorted((r for r in site.rooms if r.level == depth), key=lambda r: r.id)
    for room in rooms:
        if not room.monsters:
            continue
        if alive:
            against = foes(tables, _pairs(site.bestiary, room.monsters))
            seed = seed_for(f"{room.seed or site.seed}/route")
            out = fight(party, list(against.groups), tactics(tables), alive, seed, start)
            won = out.outcome == WIN
            alive = int(np.count_nonzero(won))
            start = Start(
                out.hp[won], out.max_hp[won], out.energy[won], out.shield[won], out.up[won]
            )
        low, high = wilson(alive, trials)
        steps.append(RouteStep(room.id, alive / trials, low, high))
    return Route(depth, steps, trials, describe(party))


def estimate_region(
    tables: TableSet,
    region: object,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
) -> None:
    """Danger for every site (as estimate_site), every one-room lair (by a party of its hex's
    level) and every line of the region's encounter tables (a party of the region's level)."""
    systems = tuple(systems)
    for h in region.hexes:  # type: ignore[attr-defined]
        if h.site:
            estimate_site(tables, h.site, party, trials, systems)
        estimate_lair(tables, h, party, trials, systems)
    beasts = _region_bestiary(region)
    who = party_for(tables, region.level, party)  # type: ignore[attr-defined]
    for table in region.encounters:  # type: ignore[attr-defined]
        for e in table.entries:
            m = beasts.get(e.monster)
            if m is None:
                continue
            address = f"{region.seed}/encounters/{table.terrain}/{e.roll}"  # type: ignore[attr-defined]
            e.danger = estimate(tables, who, foes(tables, [(m, e.count)]), address, trials, systems)


def estimate_lair(
    tables: TableSet,
    h: object,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
) -> None:
    """Put a Danger on a hex's one-room lair: a party of the hex's level, seeded from the
    lair's address."""
    lair = h.lair  # type: ignore[attr-defined]
    if lair and lair.form == "room" and lair.monsters:
        who = party_for(tables, h.level, party)  # type: ignore[attr-defined]
        against = foes(tables, _pairs(lair.bestiary, lair.monsters))
        lair.danger = estimate(tables, who, against, lair.seed, trials, tuple(systems))


def _region_bestiary(region: object) -> dict[str, Monster]:
    out = dict(region.bestiary)  # type: ignore[attr-defined]
    for h in region.hexes:  # type: ignore[attr-defined]
        if h.lair and h.lair.form == "room":
            for k, m in h.lair.bestiary.items():
                out.setdefault(k, m)
        if h.site:
            for k, m in h.site.bestiary.items():
                out.setdefault(k, m)
    return out
