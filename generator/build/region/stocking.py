"""What each hex holds: havens, landmarks, lairs, sites, by FMC Basic, Hex Stocking."""

from __future__ import annotations

from dataclasses import dataclass

from generator.build.monsters import bestiary
from generator.build.region.holds import Hold, stock_hold
from generator.build.region.names import NameBook, person
from generator.build.region.rules import (
    LAIR_SITE_ROLLS,
    LAIR_UNIT,
    MAX_GROUP,
    SINGLE_KIND,
    SITE_ROOMS,
    STOCKING_TABLE,
    XP_TOLERANCE,
)
from generator.build.region.tables import RegionTables
from generator.build.site import generate_site
from generator.build.site.activities import group_doings
from generator.build.treasure import roll_hoard
from generator.engine.hexes import (
    Grid,
)
from generator.engine.rng import Rng
from generator.engine.table import Rolled
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.faction import Faction
from generator.model.haven import NPC, Haven
from generator.model.hex import Lair, Landmark
from generator.model.monster import Monster
from generator.model.site import MonsterGroup, Site


@dataclass
class HexContext:
    tables: TableSet
    look: RegionTables
    grid: Grid
    terrain: list[str]
    levels: list[int]
    book: NameBook  # the names and landmarks already given in the region


def _haven(ctx: HexContext, i: int, rng: Rng) -> Haven:
    tables = ctx.tables
    pool = ctx.look.haven_pools[ctx.terrain[i]]
    chosen = rng.weighted(pool, [e.weight for e in pool])
    static = chosen.template.static
    kind = (
        Rolled("region/haven-kinds", chosen, None, static)
        if static is not None
        else tables.pick("region/haven-kinds", rng, where={"kind": chosen["kind"]})
    )
    # Its name in a stream of its own: a name rolled again (names.py) moves nothing else.
    named = rng.child("name")
    name = ctx.book.choose(lambda: tables.roll("region/haven-names", named).text)
    npcs = []
    nrng = rng
    for _ in range(1 + (nrng.random() < 0.5)):
        mood = tables.roll("npc/mood", nrng)
        npcs.append(
            NPC(
                name=person(tables, nrng),
                role=tables.roll("npc/roles", nrng).text,
                trait=tables.roll("npc/traits", nrng).text,
                mood=mood["key"],
                mood_roll=mood.value or 0,
            )
        )
    # Its rumour is heard once every hex is stocked (rumours.py).
    return Haven(
        name=name,
        kind=kind["kind"],
        description=kind.text,
        offers=tables.render_field(kind, "offers", rng),
        runner=tables.render_field(kind, "runner", rng),
        npcs=npcs,
        rumour=None,
        seed=rng.address,
    )


def _landmark(ctx: HexContext, i: int, rng: Rng) -> Landmark:
    tables = ctx.tables
    rolled = ctx.book.landmark(tables, f"region/landmarks/{ctx.terrain[i]}", rng)
    return Landmark(
        name=rolled["name"],
        description=rolled.text,
        stage=tables.render_field(rolled, "stage", rng) if "stage" in rolled.entry.data else "",
        seed=rng.address,
    )


Group = tuple[tuple[Monster, int], ...]


def _group_options(cands: list[Monster], budget: int, kin: bool) -> tuple[Group, ...]:
    """One kind, or 1-2 leaders with followers of a weaker kind, worth the budget within 10%.

    With `kin`, leader and followers must share a tag (beasts with beasts, humanoids with
    humanoids): a bear does not lead hoblins.
    """
    out: list[Group] = []
    slack = budget * XP_TOLERANCE
    for m in cands:
        n = round(budget / m.xp)
        for c in (n - 1, n, n + 1):
            if 1 <= c <= MAX_GROUP and abs(c * m.xp - budget) <= slack:
                out.append(((m, c),))
    for lead in cands:
        for follower in cands:
            if follower.xp >= lead.xp or (kin and not set(lead.tags) & set(follower.tags)):
                continue
            for n_lead in (1, 2):
                rest = budget - n_lead * lead.xp
                if rest <= 0:
                    break
                n = round(rest / follower.xp)
                for c in (n - 1, n, n + 1):
                    total = n_lead * lead.xp + c * follower.xp
                    if 2 <= c <= MAX_GROUP and abs(total - budget) <= slack:
                        out.append(((lead, n_lead), (follower, c)))
    unique = {tuple((m.name, c) for m, c in g): g for g in out}
    return tuple(unique.values())


def _lair_group(ctx: HexContext, biome: str, budget: int, rng: Rng) -> Group:
    """Who keeps a one-room lair: the biome's own monsters if they fit the budget, else the
    inhabitants of one site theme, else any single kind from the bestiary."""
    key = (biome, budget)
    options = ctx.look.lair_options.get(key)
    if options is None:
        options = _group_options(ctx.look.keepers[biome], budget, kin=True)
        if not options:
            options = tuple(
                g
                for roster in ctx.look.lair_fallback
                for g in _group_options(roster, budget, False)
            )
        if not options:
            beasts = sorted(bestiary(ctx.tables).monsters, key=lambda m: m.name)
            options = tuple(g for g in _group_options(beasts, budget, True) if len(g) == 1)
        if not options:
            raise DelveError(f"no monsters in the bestiary add up to {budget:,} XP within 10%")
        ctx.look.lair_options[key] = options
    singles = [g for g in options if len(g) == 1]
    # A lair is most often one kind of monster; mixed bands now and then.
    if singles and rng.random() < SINGLE_KIND:
        return rng.choice(singles)
    return rng.choice(options)


def _lair(ctx: HexContext, i: int, rng: Rng) -> tuple[Lair, bool]:
    """A lair; the flag says it is a multi-room site (built by the caller)."""
    tables = ctx.tables
    form_roll = rng.die(6)
    if form_roll in LAIR_SITE_ROLLS:
        return Lair("site", form_roll, rng.address), True
    # FMC Basic, Hex Stocking: "roll 500 x d6 to find the experience budget of the lair for
    # monsters and treasure": one d6, and both the monsters and the hoard are worth it.
    budget_roll = rng.die(6)
    budget = LAIR_UNIT * budget_roll
    group = _lair_group(ctx, ctx.terrain[i], budget, rng)
    doings = group_doings(tables, rng, group)  # by each group's kind and head count
    monsters = [MonsterGroup(m.name, n, m.xp, d) for (m, n), d in zip(group, doings, strict=True)]
    holder = max((m for m, _ in group), key=lambda m: (m.bracket, m.xp))
    # FMC Basic, Treasure Hoards: a magic weapon's power die is its holders' damage die.
    hoard = roll_hoard(tables, rng.child("hoard"), budget, ctx.levels[i], holder.damage)
    den = ctx.book.landmark(tables, f"region/landmarks/{ctx.terrain[i]}", rng)
    lead = group[0][0]
    return (
        Lair(
            form="room",
            form_roll=form_roll,
            seed=rng.address,
            name=f"{den['name']}, lair of the {lead.plural if group[0][1] > 1 else lead.name}",
            description=den.text,
            xp_budget=budget,
            budget_roll=budget_roll,
            monsters=monsters,
            hoard=hoard,
            hoard_place=tables.roll("site/hoard-places", rng).text,
            bestiary={m.name: m for m, _ in sorted(group, key=lambda g: g[0].name)},
        ),
        False,
    )


def hex_rng(rng: Rng, label: str, times: int) -> Rng:
    base = rng.child(f"hex/{label}")
    return base.child(f"reroll/{times}") if times else base


def stock_hex(
    ctx: HexContext,
    i: int,
    hrng: Rng,
    start: bool,
    base: tuple[Hold, Faction, Rolled] | None = None,
) -> tuple[str, int, dict]:
    """What hex i holds: (stocking, d6, {haven|site|lair|landmark: model}).

    `base` is the hold of the faction based here and the hex's first stocking roll, which it
    keeps when re-rolled (holds.py)."""
    tables = ctx.tables
    if base is not None:
        return _stock_base(ctx, i, hrng, *base)
    if start:
        return "start", 0, {"haven": _haven(ctx, i, hrng.child("haven"))}
    rolled = tables.roll(STOCKING_TABLE, hrng)
    key = rolled["key"]
    roll = rolled.value or 0
    if key == "haven":
        return key, roll, {"haven": _haven(ctx, i, hrng.child("haven"))}
    if key == "landmark":
        # A landmark is a roll or two: it uses the hex's own stream and address.
        return key, roll, {"landmark": _landmark(ctx, i, hrng)}
    level = ctx.levels[i]
    if key == "site":
        site = _site(ctx, hrng, level)
        return key, roll, {"site": site}
    lair, as_site = _lair(ctx, i, hrng.child("lair"))
    out: dict = {"lair": lair}
    if as_site:
        site = _site(ctx, hrng, level)
        lair.name = site.name
        out["site"] = site
    return key, roll, out


def _site(ctx: HexContext, hrng: Rng, level: int) -> Site:
    """The hex's site, named clear of the words the region has used enough (names.py)."""
    return generate_site(
        ctx.tables, hrng.child("site"), level=level, rooms=SITE_ROOMS, choose_name=ctx.book.choose
    )


def _stock_base(
    ctx: HexContext, i: int, hrng: Rng, hold: Hold, faction: Faction, first: Rolled
) -> tuple[str, int, dict]:
    """A faction's hold: in a lair hex, a den of the biome's landmarks; at a landmark, a camp."""
    key, roll = first["key"], first.value or 0
    lrng = hrng.child("lair")
    if hold.camp:
        landmark = _landmark(ctx, i, hrng)
        den = (landmark.name, landmark.description)
        things: dict = {"landmark": landmark}
    else:
        rolled = ctx.book.landmark(ctx.tables, f"region/landmarks/{ctx.terrain[i]}", lrng)
        den = (rolled["name"], rolled.text)
        things = {}
    things["lair"] = stock_hold(ctx.tables, hold, faction, ctx.levels[i], lrng, den)
    return key, roll, things
