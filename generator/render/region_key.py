"""The region's key as text or markdown: what a referee reads to run the hexcrawl.

In order: how to travel (days, encounter checks, reactions, wandering with the d6 compass), the
terrain, the major features, the factions and how they stand, the encounter tables, then every
hex in label order, then each site in full and the stat blocks. Renderers never roll dice; the
pre-rolled reactions are in the document.
"""

from __future__ import annotations

from fractions import Fraction

from generator.engine import words
from generator.engine.hexes import SIDES
from generator.model.faction import Faction, Leader
from generator.model.haven import Haven
from generator.model.hex import Hex, Lair
from generator.model.monster import Monster
from generator.model.region import Region
from generator.model.site import MonsterGroup
from generator.render import blocks as b
from generator.render.context import system_for
from generator.render.danger_text import cell, cell_head, danger_blocks
from generator.render.recipe import rebuild_command, root_address
from generator.render.rules_used import procedures
from generator.render.site_key import doings
from generator.systems import System

STOCKING_NAMES = {
    "start": "starting haven",
    "haven": "safe haven",
    "site": "adventure site",
    "lair": "monster lair",
    "landmark": "landmark",
}
ATTITUDE_NAMES = {
    "at_war": "at war with",
    "rival": "rivals of",
    "neutral": "neutral towards",
    "allied": "allied with",
}
MOOD_NOTES = {
    "hostile": "wants nothing to do with strangers",
    "neutral": "helps if it costs them no risk",
    "friendly": "helps freely, and may be talked into risks",
}
REACTION_NAMES = {"negative": "negative", "uncertain": "uncertain", "affirmative": "affirmative"}
SIDE_WORDS = {
    "N": "north",
    "NE": "north-east",
    "SE": "south-east",
    "S": "south",
    "SW": "south-west",
    "NW": "north-west",
}

WANDER_RULE = (
    "Off roads, trails and rivers, a party crossing lands it does not know cannot simply choose "
    "its way. Each time it leaves a hex, roll a d6 on the compass: the side it names is the way "
    "that opens. The party may bend that by one side either way (a 2, north-east, lets it go "
    "north, north-east or south-east). A guide or an expert at finding the way adds a die: roll "
    "two and choose. In lands it already knows, still off the paths, the party can only leave "
    "by ways it has tried before, unless it chooses to wander again. On a road, a trail or a "
    "river it goes where it likes. The map is drawn as hexes, but the party lives it as a web "
    "of ways found."
)
REACTION_RULE = (
    "When the party asks something of the people or creatures it meets and they need "
    "persuading, roll a d6: 1-2 negative (no, and the talking is over; if it went badly it may "
    "come to blows), 3-4 uncertain (they want a better reason or something in return), 5-6 "
    "affirmative. Roll two dice and keep the better or the worse to reflect how the players "
    "go about it."
)
PRE_ROLLED = "A reaction is pre-rolled on each line below for when there is no time to roll."


def days_text(days: float) -> str:
    """1 -> '1 day', 2 -> '2 days', 0.3333 -> '1/3 day'."""
    frac = Fraction(days).limit_denominator(12)
    if frac.denominator == 1:
        return words.count(frac.numerator, "day")
    return f"{frac.numerator}/{frac.denominator} day"


def _check_rule(region: Region) -> str:
    if region.hex_miles == 18:
        return (
            "Each hex is 18 miles across: a day's travel on good ground, two days where the "
            "terrain is difficult. Check for an encounter once for each hex the party enters: "
            "1-in-6 for each day the crossing takes, so 2-in-6 for a two-day hex (the odds are "
            "given for every hex). On a hit, roll on the d6 table of that hex's terrain, and "
            "see the reaction rule with the tables."
        )
    return (
        "Each hex is 6 miles across: a party crosses three a day on good ground, and a difficult "
        "hex costs two thirds of a day instead of one third (the same doubling as at the 18-mile "
        "scale). Check for an encounter once per day of travel, 1-in-6; each hex lists its "
        "share of that day's chance (1-in-18 for a third of a day, 2-in-18 for two thirds), so "
        "three easy hexes make one day's 3-in-18. On a hit, roll on the d6 table of the hex "
        "where the party is."
    )


def _monsters_by_name(region: Region) -> dict[str, Monster]:
    out = dict(region.bestiary)
    for h in region.hexes:
        if h.lair and h.lair.form == "room":
            for k, m in h.lair.bestiary.items():
                out.setdefault(k, m)
    return {k: out[k] for k in sorted(out)}


def plural(monsters: dict[str, Monster], name: str, count: int) -> str:
    """The monster's name agreeing with count, by the bestiary's own plural when it has one."""
    m = monsters.get(name)
    return words.noun(count, name, m.plural if m else None)


def _group(
    monsters: dict[str, Monster], g: MonsterGroup, xp: bool = True, leader: Leader | None = None
) -> str:
    """'a giant (XP 1,200)', '11 hoblins (XP 75 each)'; a proper name stays as it is; a
    faction's leader goes by name: 'Quilla, the Warden of the Scales (XP 600)'."""
    each = f" (XP {g.xp_each:,}" + (" each)" if g.count > 1 else ")") if xp else ""
    if leader is not None and g.count == 1 and g.name == leader.monster:
        m = monsters.get(g.name)
        kind = "" if m is None or m.plural[:1].isupper() else f"{g.name.lower()}, "
        stats = f" ({kind}XP {g.xp_each:,})" if xp else (f" ({kind[:-2]})" if kind else "")
        return f"{leader.name}, {leader.title}{stats}"
    if g.count == 1:
        m = monsters.get(g.name)
        proper = m is not None and m.plural[:1].isupper()
        return f"{g.name if proper else words.with_article(g.name.lower())}{each}"
    return f"{g.count} {plural(monsters, g.name, g.count)}{each}"


def _faction_line(region: Region, fa: Faction) -> str:
    ties = []
    for other, attitude in fa.relations.items():
        try:
            name = region.faction(other).name
        except KeyError:
            name = other
        ties.append(f"{ATTITUDE_NAMES.get(attitude, attitude)} {name}")
    return "; ".join(ties) if ties else "no other faction to deal with"


def _paths_through(region: Region) -> dict[str, list[str]]:
    """label -> notes such as 'river: the Ashburn' for every river and road crossing it."""
    notes: dict[str, list[str]] = {}
    for river in region.rivers:
        for lab in river.path:
            notes.setdefault(lab, []).append(f"river: {river.name}")
    for road in region.roads:
        for lab in road.path:
            item = f"{road.kind}: {road.description}"
            if item not in notes.setdefault(lab, []):
                notes[lab].append(item)
    return notes


def _hex_blocks(
    region: Region,
    h: Hex,
    monsters: dict[str, Monster],
    paths: dict[str, list[str]],
    bases: dict[str, list[Faction]],
    system: System | None = None,
) -> list[b.Block]:
    biome = region.biomes.get(h.terrain)
    terrain = biome.name if biome else h.terrain
    what = STOCKING_NAMES.get(h.stocking, h.stocking)
    if h.lair and h.lair.faction:
        what = "faction hold" if h.stocking == "lair" else f"{what}, faction camp"
    out = [b.h3(f"{h.label} {terrain}: {h.place} ({what})")]
    cost = f"{days_text(h.travel_days)} to cross"
    if biome and not biome.passable:
        cost += " by boat (no crossing on foot)"
    where = (
        "the starting hex"
        if h.distance == 0
        else f"{words.count(h.distance, 'hex')} from the start"
    )
    out.append(
        b.li(
            f"Terrain: {terrain}, {cost}; encounter {h.encounter_odds}. {words.capital(where)}; "
            f"danger level {h.level}."
        )
    )
    for note in paths.get(h.label, []):
        out.append(b.li(words.sentence(note)))
    if h.haven:
        out += _haven_blocks(region, h.haven)
    if h.site:
        st = h.site
        kind = "A multi-room monster lair" if h.stocking == "lair" else "An adventure site"
        out.append(
            b.li(
                f"{kind}: {st.name}, {st.theme_name.lower()}, {len(st.rooms)} rooms stocked for "
                f"party level {st.level} (in full below). Address: {st.seed}"
            )
        )
    if h.lair and h.lair.form == "room":
        out += _lair_blocks(h.lair, monsters, system, _leader(region, h.lair))
    if h.landmark:
        lm = h.landmark
        out.append(b.p(f"{lm.name}. {lm.description}"))
        if lm.stage:
            out.append(b.li(f"Encounter stage: {lm.stage}"))
    for fa in bases.get(h.label, []):
        out.append(
            b.li(
                f"Base of {fa.name}: {fa.leader.name}, {fa.leader.title}, and their "
                f"{plural(monsters, fa.members, 2)} are here; they want {fa.goal}."
            )
        )
    again = f" (re-rolled {words.count(h.rerolled, 'time')})" if h.rerolled else ""
    out.append(b.li(f"Address: {h.seed}{again}"))
    return out


def _haven_blocks(region: Region, hv: Haven) -> list[b.Block]:
    out = [b.p(f"{hv.name}, {words.with_article(hv.kind)}. {hv.description}")]
    out.append(b.li(f"Offers: {hv.offers}"))
    out.append(b.li(f"Run by {hv.runner}."))
    for npc in hv.npcs:
        out.append(
            b.li(
                f"{npc.name}, {npc.role}: {npc.trait}. Mood towards strangers: {npc.mood} "
                f"({MOOD_NOTES.get(npc.mood, '')}; d6 {npc.mood_roll})."
            )
        )
    if hv.rumour:
        truth = "true" if hv.rumour.true else "false"
        out.append(b.li(f'Rumour ({truth}): "{region.rumour_text(hv.rumour)}"'))
    if hv.seed:
        out.append(b.li(f"Haven address: {hv.seed}"))
    return out


def _leader(region: Region, lair: Lair) -> Leader | None:
    """The leader of the faction whose hold this lair is, if it is one."""
    try:
        return region.faction(lair.faction).leader if lair.faction else None
    except KeyError:
        return None


def _lair_blocks(
    lair: Lair, monsters: dict[str, Monster], system: System | None, leader: Leader | None = None
) -> list[b.Block]:
    from generator.render.treasure_text import hoard_points, xp_in_play

    xp = xp_in_play(system)
    what = "A faction's hold, one room" if lair.faction else "A one-room lair"
    out = [
        b.p(
            f"{what} on a budget of {lair.xp_budget:,}"
            + (" XP" if xp else "")
            + f" (500 x d6, the d6 rolled {lair.budget_roll}) in monsters, and as much in "
            f"treasure (c.p.). {lair.description}"
        )
    ]
    who = words.join([_group(monsters, g, xp, leader) for g in lair.monsters])
    total = f"; {lair.monster_xp:,} XP in all" if xp else ""
    out.append(b.li(f"Monsters: {who}{total}. {doings(monsters, lair.monsters)}".strip()))
    out += danger_blocks(lair.danger, system)
    if lair.hoard:
        out.append(b.li(f"Treasure ({lair.hoard.value_cp:,} c.p.): {lair.hoard_place}"))
        out += [b.sub(point) for point in hoard_points(lair.hoard, system)]
    out.append(b.li(f"Lair address: {lair.seed}"))
    return out


def part_blocks(region: Region, thing: Hex | Haven | Lair, system: System) -> list[b.Block]:
    """One hex, haven or lair of the region on its own, as the hex key prints it."""
    monsters = _monsters_by_name(region)
    if isinstance(thing, Hex):
        bases: dict[str, list[Faction]] = {}
        for fa in region.factions:
            bases.setdefault(fa.base, []).append(fa)
        return _hex_blocks(region, thing, monsters, _paths_through(region), bases, system)
    home = next(h for h in region.hexes if thing in (h.haven, h.lair))
    title = b.h3(f"{home.label}: {thing.name}")
    if isinstance(thing, Haven):
        return [title, *_haven_blocks(region, thing)]
    return [title, *_lair_blocks(thing, monsters, system, _leader(region, thing))]


def region_blocks(region: Region, system: System | None = None, fmt: str = "text") -> list[b.Block]:
    from generator.render.site_key import in_system, site_blocks, stat_paragraph

    system = system or system_for(region)

    n = len(region.hexes)
    start = region.hex(region.start)
    monsters = _monsters_by_name(region)
    out = [b.h1(region.name)]
    size = (
        f"radius {region.shape['radius']}"
        if "radius" in region.shape
        else f"{region.shape.get('width')} by {region.shape.get('height')} hexes"
    )
    step = "two hexes" if region.hex_miles == 18 else "six hexes"
    out.append(
        b.p(
            f"{words.count(n, 'hex')} of {region.hex_miles} miles ({size}) around "
            f"{start.place}, the starting haven in hex {region.start}. Sites and lairs are stocked "
            f"for party level {region.level} nearby, one level more for every {step} (36 miles) "
            f"from the start. Address: {root_address(region)}"
        )
    )
    if region.reroll:
        again = words.join([f"{k} ({words.count(v, 'time')})" for k, v in region.reroll.items()])
        out.append(b.p(f"Re-rolled hexes: {again}."))
    out.append(b.command(f"Rebuild: {rebuild_command(region, fmt, system)}"))
    out += [b.h2("Travel and encounters"), b.p(_check_rule(region))]
    out += [b.h2("Wandering"), b.p(WANDER_RULE)]
    out.append(
        b.table(
            [["d6", "Side", "Direction"]]
            + [[str(i + 1), s, SIDE_WORDS[s]] for i, s in enumerate(SIDES)]
        )
    )
    out.append(b.h2("Terrain"))
    rows = [["Terrain", "Days to cross", "Encounter", "Hexes", "What it is like"]]
    counts: dict[str, int] = {}
    sample: dict[str, Hex] = {}
    for h in region.hexes:
        counts[h.terrain] = counts.get(h.terrain, 0) + 1
        sample.setdefault(h.terrain, h)
    for key, biome in region.biomes.items():
        if key not in sample:
            continue
        days = days_text(sample[key].travel_days)
        if not biome.passable:
            days += " (by boat)"
        rows.append(
            [biome.name, days, sample[key].encounter_odds, str(counts[key]), biome.description]
        )
    out.append(b.table(rows))
    out.append(b.h2("Major features"))
    for river in region.rivers:
        out.append(
            b.li(
                f"{words.capital(river.name)}, a river, rises in {river.path[0]} "
                f"and runs {words.count(len(river.path), 'hex')} to {river.path[-1]}."
            )
        )
    for ridge in region.ridges:
        if ridge:
            out.append(b.li(f"A mountain ridge runs from {ridge[0]} to {ridge[-1]}."))
    roads = sum(1 for r in region.roads if r.kind == "road")
    trails = len(region.roads) - roads
    for road in region.roads:
        out.append(
            b.li(f"{road.kind.title()} from {road.path[0]} to {road.path[-1]}: {road.description}.")
        )
    if not region.rivers and not region.ridges and not region.roads:
        out.append(b.p("No rivers, ridges or roads cross this small region."))
    elif region.roads:
        ways = [words.count(n, kind) for n, kind in ((roads, "road"), (trails, "trail")) if n]
        linked = words.verb(roads + trails, "links", "link")
        out.append(b.p(f"{words.capital(words.join(ways))} {linked} the havens."))
    out.append(b.h2("Factions"))
    bases: dict[str, list[Faction]] = {}
    for fa in region.factions:
        bases.setdefault(fa.base, []).append(fa)
        base = region.hex(fa.base)
        out.append(b.h3(fa.name))
        out.append(b.p(fa.description))
        out.append(b.li(f"Goal: {fa.goal}."))
        stats = f" (stat block: {fa.leader.monster})" if fa.leader.monster else ""
        out.append(b.li(f"Leader: {fa.leader.name}, {fa.leader.title}{stats}."))
        out.append(b.li(f"Base: hex {fa.base}, {base.place}."))
        out.append(b.li(f"Members: {plural(monsters, fa.members, 2)}."))
        out.append(b.li(f"Stands: {_faction_line(region, fa)}."))
    out.append(b.h2("Region encounters"))
    reaction = system.term("reaction") if system.has_term("reaction") else REACTION_RULE
    out.append(b.p(reaction + " " + PRE_ROLLED))
    for table in region.encounters:
        out.append(b.h3(f"{table.name} ({table.die})"))
        danger = any(e.danger for e in table.entries)
        rows = [
            ["d6", "Who", "How many", "Reaction", "Doing what"]
            + ([cell_head(system)] if danger else [])
        ]
        for e in table.entries:
            n = 1 if e.count == "1" else 2
            who = words.capital(plural(monsters, e.monster, n))
            if e.faction:
                try:
                    who += f" ({region.faction(e.faction).name})"
                except KeyError:
                    pass
            reaction = REACTION_NAMES.get(e.reaction, e.reaction)
            if system.key == "fmc":  # the pre-rolled die is FMC Basic's negotiation d6
                reaction += f" ({e.reaction_roll})"
            rows.append(
                [str(e.roll), who, e.count, reaction, words.agree(e.doing, n)]
                + ([cell(e.danger, system)] if danger else [])
            )
        out.append(b.table(rows))
    out.append(b.h2("Hex key"))
    paths = _paths_through(region)
    for h in region.hexes:
        out += _hex_blocks(region, h, monsters, paths, bases, system)
    sited = [h for h in region.hexes if h.site]
    if sited:
        out.append(b.h1("Sites in full"))
        for h in sited:
            for block in site_blocks(h.site, system, appendix=False):  # type: ignore[arg-type]
                if block.kind == "h1":
                    out.append(b.h2(f"Hex {h.label}: {block.text}"))
                elif block.kind == "h2":
                    out.append(b.h3(block.text))
                else:
                    out.append(block)
    out.append(b.h1(in_system("Monsters of the region", system)))
    if system.has_term("reading"):
        out.append(b.p(system.term("reading")))
    out += [b.li(stat_paragraph(system, m)) for m in monsters.values()]
    out.append(b.h1(in_system("Rules at the table", system)))
    out += [b.li(text) for _key, text in procedures(region, system)]
    return out


def region_markdown(region: Region, system: System | None = None) -> str:
    return b.to_markdown(region_blocks(region, system, "md"))


def region_text(region: Region, system: System | None = None) -> str:
    return b.to_text(region_blocks(region, system))
