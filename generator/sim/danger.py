"""Danger estimates for fights, rooms, wandering groups, lairs and whole sites.

Each estimate fights the encounter `trials` times (default 2,000) with a stream seeded from its
address (a room's `<site>/level/1/room/4` + `/danger`), so the same site prints the same odds.
The figures are FMC Basic's: other systems print them with a note saying so, and (Fortmayn),
whose Difficulty Dice change the odds most, gets an estimate of its own (sim/fortmayn.py).

A document may already carry estimates (`delve sim DOC --party mine.yaml -f json`). Rendering
it keeps each one that still fits its fight (the `against` fingerprint of the monsters and
their numbers) unless a new party or number of trials is asked for; see `Plan`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.danger import MAX_TRIALS, Danger, Route, RouteStep
from generator.model.monster import Monster
from generator.model.site import MonsterGroup, Room, Site
from generator.sim.foes import FoeError, FoeGroup, check_groups, foe_kind
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


def against_key(pairs: Iterable[tuple[Monster, str]]) -> str:
    """A fingerprint of what a fight is against: every stat block and count. An estimate kept
    in a document is used again only while its room still holds the same fight."""
    data = json.dumps([[m.to_dict(), str(c)] for m, c in pairs], sort_keys=True, default=str)
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class Foes:
    """What a fight is against: groups of FMC monsters (fixed counts or dice formulas)."""

    groups: tuple[FoeGroup, ...]
    notes: tuple[str, ...]
    against: str = ""


def foes(
    tables: TableSet,
    pairs: Iterable[tuple[Monster, str]],
    where: str = "",
    stat_paths: dict[str, str] | None = None,
) -> Foes:
    """The groups of a fight. In a document, `where` is the JSON path of the room, lair or
    encounter and `stat_paths` maps a monster's name to its stat block's path, so an error names
    the place to fix ("site.bestiary.Ogre.hp: ...")."""
    pairs = list(pairs)
    try:
        groups = tuple(FoeGroup(foe_kind(tables, m), count) for m, count in pairs)
    except FoeError as err:
        path = (stat_paths or {}).get(err.monster)
        if path is None:
            raise
        raise DelveError(f"{path}.{err.field}: {err.reason}") from None
    try:
        check_groups(list(groups))
    except DelveError as err:
        if not where:
            raise
        raise DelveError(
            f"{where}: {err} (--no-danger prints it without danger estimates)"
        ) from None
    notes = tuple(dict.fromkeys(n for g in groups for n in g.kind.notes))
    return Foes(groups, notes, against_key(pairs))


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
        party=describe(party, tables),
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
    memo: dict | None = None,
) -> Danger:
    """One fight, `trials` times, under FMC Basic's rules (and each system named that has a
    simulation of its own). With `memo`, the outcome arrays are kept there for `route`, whose
    first fight is this very one."""
    check_trials(trials)
    out = _fresh_fight(tables, party, against, seed_for(address), trials, memo)
    danger = summarise(tables, out, party, "fmc", against.notes)
    danger.against = against.against
    for key in systems:
        other = other_system(key)
        if other is not None:
            danger.others[key] = other(tables, party, against, address, trials)
    return danger


def _fresh_fight(
    tables: TableSet,
    party: list[Character],
    against: Foes,
    seed: int,
    trials: int,
    memo: dict | None,
) -> object:
    """A fight by a fresh party, fought once: a room's line and its route's first step are the
    same fight (same party, seed and trials), so the second is read from `memo`."""
    from generator.sim.engine import fight

    key = (seed, trials, tuple(party), against.groups)
    if memo is not None and key in memo:
        return memo[key]
    out = fight(party, list(against.groups), tactics(tables), trials, seed)
    if memo is not None:
        memo[key] = out
    return out


def other_system(key: str) -> object | None:
    """The estimate function of a system with a combat simulation of its own, or None."""
    if key == "fortmayn":
        from generator.sim.fortmayn import estimate as fortmayn_estimate

        return fortmayn_estimate
    return None


# Why a rules system has no simulation of its own (docs/danger.md, Other rules systems).
NOT_SIMULATED = {
    "f4c": "its text builds no characters to fight with (hit points rest on Might with no "
    "scale, attacks on skill trees it does not list)",
    "fantasy-core": "its text has a combat chapter but no classes, hit dice or attack bonuses "
    "by level to build a party from",
}


def not_simulated(key: str, name: str) -> str:
    """The line `delve sim --system KEY` prints when KEY has no simulation of its own."""
    why = NOT_SIMULATED.get(key, "Delve has no simulation of its rules")
    return f"{name} is not simulated: {why}. These figures are FMC Basic's."


# --------------------------------------------------------------------------- documents


@dataclass
class Plan:
    """How a document's fights are estimated: by whom, how many trials, which systems' own
    rules besides FMC Basic's, and whether estimates the document carries are kept.

    With `keep` (rendering with no new --party or --trials), an estimate is kept while it still
    fits its fight; one that does not (a room edited since, or never estimated) is made afresh
    for the default party. `kept`, `fresh` and `lacking` tell the CLI what happened."""

    party: list[Character] | None = None
    trials: int = DEFAULT_TRIALS
    systems: tuple[str, ...] = ()
    keep: bool = False
    kept: dict[str, int] = field(default_factory=dict)  # party described -> estimates kept
    fresh: dict[str, int] = field(default_factory=dict)  # party described -> made afresh
    lacking: set[str] = field(default_factory=set)  # systems a kept estimate has no figures of
    outcomes: dict = field(default_factory=dict, repr=False)  # fresh fights, for the routes

    def who(self, tables: TableSet, level: int) -> list[Character]:
        return self.party if self.party is not None else default_party(tables, level)

    def settle(
        self,
        tables: TableSet,
        old: Danger | None,
        level: int,
        make: object,
        against: Foes,
    ) -> Danger:
        """The stored estimate if it may be kept, else a fresh one from `make(party)`."""
        if self.keep and old is not None and old.against and old.against == against.against:
            missing = [k for k in self.systems if other_system(k) and k not in old.others]
            default = describe(default_party(tables, level), tables)
            if not missing or old.party != default:
                self.lacking.update(missing)
                self.kept[old.party] = self.kept.get(old.party, 0) + 1
                return old
        party = self.who(tables, level)
        danger: Danger = make(party)  # type: ignore[operator]
        self.fresh[danger.party] = self.fresh.get(danger.party, 0) + 1
        return danger


def _pairs(bestiary: dict[str, Monster], groups: list[MonsterGroup]) -> list[tuple[Monster, str]]:
    return [(bestiary[g.name], str(g.count)) for g in groups]


def _stat_paths(bestiary: dict[str, Monster], path: str) -> dict[str, str]:
    """Monster name -> the JSON path of its stat block (a document's bestiary is keyed by name)."""
    return {m.name: f"{path}.bestiary.{key}" for key, m in bestiary.items()}


def estimate_site(
    tables: TableSet,
    site: Site,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
    plan: Plan | None = None,
    path: str = "site",
) -> Plan:
    """Put a Danger on every room with monsters and every wandering group, and a Route for
    each level of the site.

    Each room is fought by a fresh party of the level its loop is stocked for (or by the
    referee's party); wandering groups by a party of the site's level."""
    plan = plan or Plan(party, trials, tuple(systems))
    stats = _stat_paths(site.bestiary, path)
    changed: set[int] = set()  # levels with a room estimated afresh
    for i, room in enumerate(site.rooms):
        before = room.danger
        estimate_room(tables, site, room, plan=plan, path=f"{path}.rooms[{i}]", stats=stats)
        if room.danger is not before:
            changed.add(room.level)
    for i, e in enumerate(site.encounters):
        pairs = [(site.bestiary[e.name], e.count)]
        against = foes(tables, pairs, f"{path}.encounters[{i}]", stats)
        address = f"{site.seed}/encounters/{e.roll}"
        e.danger = plan.settle(
            tables,
            e.danger,
            site.level,
            lambda who, a=against, ad=address: estimate(
                tables, who, a, ad, plan.trials, plan.systems
            ),
            against,
        )
    kept = {r.level: r for r in site.routes} if plan.keep else {}
    routes = []
    for depth in range(1, site.levels + 1):
        old = kept.get(depth)
        occupied = [r.id for r in _route_rooms(site, depth)]
        if old is not None and depth not in changed and [s.room for s in old.steps] == occupied:
            routes.append(old)
            continue
        who = plan.who(tables, site.level_of(depth))
        routes.append(route(tables, site, depth, who, plan.trials, plan.outcomes))
    site.routes = routes
    plan.outcomes.clear()  # the next site's rooms are other fights
    return plan


def estimate_room(
    tables: TableSet,
    site: Site,
    room: Room,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
    plan: Plan | None = None,
    path: str = "",
    stats: dict[str, str] | None = None,
) -> None:
    """Put a Danger on one room with monsters: a fresh party of the level its loop is stocked
    for (or the referee's), seeded from the room's address, as the whole site's key has it."""
    plan = plan or Plan(party, trials, tuple(systems))
    if not room.monsters:
        room.danger = None
        return
    level = site.level_of(room.level)
    against = foes(tables, _pairs(site.bestiary, room.monsters), path, stats)
    address = room_address(site, room)
    room.danger = plan.settle(
        tables,
        room.danger,
        level,
        lambda who: estimate(
            tables, who, against, address, plan.trials, plan.systems, plan.outcomes
        ),
        against,
    )


def room_address(site: Site, room: Room) -> str:
    """The address a room's fight is seeded from: its own, as its key line prints it."""
    return room.seed or f"{site.seed}/room/{room.id}"


def _route_rooms(site: Site, depth: int) -> list[Room]:
    """A level's occupied rooms in key order (the order the referee summary lists them)."""
    return sorted((r for r in site.rooms if r.level == depth and r.monsters), key=lambda r: r.id)


def route(
    tables: TableSet,
    site: Site,
    depth: int,
    party: list[Character],
    trials: int = DEFAULT_TRIALS,
    memo: dict | None = None,
) -> Route:
    """One level's occupied rooms, in key order, fought one after another without a rest:
    after each, the share of trials that have won every fight so far.

    The first fight is the room's own (its own seed, a fresh party), so its "through so far"
    is the room line's win; later fights use a stream of their own (`<room>/route`)."""
    import numpy as np

    from generator.sim.engine import WIN, Start, fight

    steps: list[RouteStep] = []
    start: Start | None = None
    alive = trials
    for room in _route_rooms(site, depth):
        if alive:
            against = foes(tables, _pairs(site.bestiary, room.monsters))
            address = room_address(site, room)
            if start is None:
                out = _fresh_fight(tables, party, against, seed_for(address), alive, memo)
            else:
                seed = seed_for(f"{address}/route")
                out = fight(party, list(against.groups), tactics(tables), alive, seed, start)
            won = out.outcome == WIN
            alive = int(np.count_nonzero(won))
            start = Start(
                out.hp[won], out.max_hp[won], out.energy[won], out.shield[won], out.up[won]
            )
        low, high = wilson(alive, trials)
        steps.append(RouteStep(room.id, alive / trials, low, high))
    return Route(depth, steps, trials, describe(party, tables))


def estimate_region(
    tables: TableSet,
    region: object,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
    plan: Plan | None = None,
) -> Plan:
    """Danger for every site (as estimate_site), every one-room lair (by a party of its hex's
    level) and every line of the region's encounter tables (a party of the region's level)."""
    plan = plan or Plan(party, trials, tuple(systems))
    for i, h in enumerate(region.hexes):  # type: ignore[attr-defined]
        if h.site:
            estimate_site(tables, h.site, plan=plan, path=f"region.hexes[{i}].site")
        estimate_lair(tables, h, plan=plan, path=f"region.hexes[{i}].lair")
    beasts, stats = _region_bestiary(region)
    level = region.level  # type: ignore[attr-defined]
    for t, table in enumerate(region.encounters):  # type: ignore[attr-defined]
        for j, e in enumerate(table.entries):
            m = beasts.get(e.monster)
            if m is None:
                continue
            against = foes(tables, [(m, e.count)], f"region.encounters[{t}].entries[{j}]", stats)
            address = f"{region.seed}/encounters/{table.terrain}/{e.roll}"  # type: ignore[attr-defined]
            e.danger = plan.settle(
                tables,
                e.danger,
                level,
                lambda who, a=against, ad=address: estimate(
                    tables, who, a, ad, plan.trials, plan.systems
                ),
                against,
            )
    return plan


def estimate_lair(
    tables: TableSet,
    h: object,
    party: list[Character] | None = None,
    trials: int = DEFAULT_TRIALS,
    systems: Iterable[str] = (),
    plan: Plan | None = None,
    path: str = "lair",
) -> None:
    """Put a Danger on a hex's one-room lair: a party of the hex's level, seeded from the
    lair's address."""
    plan = plan or Plan(party, trials, tuple(systems))
    lair = h.lair  # type: ignore[attr-defined]
    if lair and lair.form == "room" and lair.monsters:
        pairs = _pairs(lair.bestiary, lair.monsters)
        against = foes(tables, pairs, path, _stat_paths(lair.bestiary, path))
        lair.danger = plan.settle(
            tables,
            lair.danger,
            h.level,  # type: ignore[attr-defined]
            lambda who: estimate(tables, who, against, lair.seed, plan.trials, plan.systems),
            against,
        )


def _region_bestiary(region: object) -> tuple[dict[str, Monster], dict[str, str]]:
    """Every stat block the region's encounter tables may name, and where each is kept."""
    out = dict(region.bestiary)  # type: ignore[attr-defined]
    paths = _stat_paths(out, "region")
    for i, h in enumerate(region.hexes):  # type: ignore[attr-defined]
        for part, where in ((h.lair, "lair"), (h.site, "site")):
            if part is None or (where == "lair" and part.form != "room"):
                continue
            for k, m in part.bestiary.items():
                if k not in out:
                    out[k] = m
                    paths[m.name] = f"region.hexes[{i}].{where}.bestiary.{k}"
    return out, paths
