"""Stocked hex regions, by FMC Basic, Overworld Exploration, Wandering, Region Design and
Hex Stocking.

The rules as the text gives them:

- A hex is 18 miles across, a day's travel on good ground; disadvantageous terrain adds a day.
  With 6-mile hexes a party crosses three a day. Each day spent in a hex is a 1-in-6 chance of
  an encounter, so a hex that takes 2 days is 2-in-6.
- A starting region is about six hexes round a haven: the default is radius 1 (seven hexes),
  the starting haven in the middle.
- Every hex but the starting haven rolls ``region/hex-stocking`` (d6): 1 haven, 2 adventure
  site, 3 monster lair, 4-6 landmark. A one-room lair's monsters and its treasure are each worth
  500 x d6 XP (one d6, rolled once, for both).

Our readings and choices, where the text leaves room:

- **6-mile hexes** cost a third of a day, two thirds if the terrain is difficult ("adjusting the
  cost of a hex using the same guidelines": difficult terrain doubles the cost at either scale).
  The referee still checks once per day; a hex's odds are its share of that day, in eighteenths
  (1-in-18, 2-in-18).
- **Lakes** (biomes that are not passable) cannot be walked; their cost is that of a boat.
- **Danger rises with distance**: a hex's level is ``--level`` plus one for every 36 miles (two
  days on good ground) between it and the starting haven, i.e. ``level + distance // 2`` with
  18-mile hexes and ``level + distance // 6`` with 6-mile hexes, at most the site generator's
  highest level. Sites and multi-room lairs are stocked for that level; a one-room lair's budget
  follows the 500 x d6 rule alone, and the level sets its hoard's level.
- **Lairs**: a d6 picks the form: 1-2 a multi-room site (six rooms, from the site generator),
  3-6 a one-room lair. Its monsters (within 10% of the budget, at most 16 of a kind) are one
  kind, or one or two leaders with followers of a weaker kind that shares a tag with them. They
  come from the biome's encounter table, leaving out ordinary folk (humanoids that no site
  theme keeps, such as pilgrims and drovers); when none of those fit the budget, from the
  inhabitants of one site theme, then any single kind in the bestiary. The den itself is one of
  the biome's landmarks.
- **Terrain** clusters: a few ridges are laid first as chains of mountains with hilly flanks
  (biomes drawn as ``mountain`` and ``hill``), then regions of similar size grow from scattered
  seeds over the rest (about one per eight hexes, at least three), taking turns to claim a hex
  each. Each region takes a biome by the table's weights, breadth-first from the start; a biome
  that a neighbouring region's biome does not list as a neighbour (nor lists it) is ten times
  less likely, and impassable biomes (lakes) stop at 15% of the map. Two smoothing passes then
  fold in lone hexes (no neighbour of their own biome, three of one other) and hexes with four
  or more neighbours of one other biome. The starting haven always stands on passable land.
- **Rivers** rise in high ground (mountains or hills when there are any) and run across the map
  to its far edge, stopping early at a lake or where they meet another river.
- **Roads and trails** link every haven to the nearest haven already on the network (shortest
  travel time, around lakes), growing from the starting haven; each link rolls its look on
  ``region/road-kinds``.
- **Factions**: two to four distinct archetypes from ``region/factions``, placed before the
  hexes are stocked. Each is based in its hold, a one-room lair (in a lair hex, or camped at a
  landmark when lair hexes run short) holding its leader and its members; see holds.py. Each
  has an attitude to every other faction rolled on ``region/faction-relations``, and its
  members replace one line of the encounter table of its base's biome.
- **Rumours** at a haven are about a site, lair or landmark within three hexes of it (never
  the starting haven), one that fits what the rumour says; see rumours.py.
- **Names**: no landmark twice in a region, and no name part in more than a few of its names;
  see names.py.
- **Seeds**: hex XXYY uses ``<seed>/hex/XXYY`` (its site ``<seed>/hex/XXYY/site``); re-rolled
  for the n-th time it uses ``<seed>/hex/XXYY/reroll/n``. Everything that other hexes depend on
  (roads, faction bases, rumours, the names and landmarks dealt) follows each hex's first
  stocking; a re-rolled hex is stocked last, clear of every other hex's names and landmarks,
  and a re-rolled faction base stays the faction's hold. Rumours name their place by label, so
  re-rolling a hex changes that hex alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from generator import __version__
from generator.build.region.factions import biome_encounters
from generator.build.region.holds import place_factions
from generator.build.region.names import NameBook
from generator.build.region.rules import (
    RUMOUR_REACH,
    STOCKING_TABLE,
    Progress,
    encounter_odds,
    hex_level,
    travel_days,
)
from generator.build.region.rumours import hear as hear_rumour
from generator.build.region.rumours import traits
from generator.build.region.stocking import HexContext, hex_rng, stock_hex
from generator.build.region.tables import region_tables
from generator.build.region.terrain import grow_terrain, lay_rivers, lay_roads, make_grid
from generator.build.site import MAX_LEVEL
from generator.engine.hexes import (
    Grid,
    distance,
    spiral,
)
from generator.engine.rng import Rng
from generator.engine.table import Rolled
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.faction import Faction
from generator.model.hex import Hex
from generator.model.limits import MAX_REROLLS
from generator.model.region import HEX_MILES, Biome, Region, River, Road


def _check_reroll(grid: Grid, reroll: Iterable[str] | Mapping[str, int] | None) -> dict[str, int]:
    counts: dict[str, int] = {}
    if reroll is None:
        return counts
    items = reroll.items() if isinstance(reroll, Mapping) else ((r, 1) for r in reroll)
    labels = set(grid.labels)
    for lab, times in items:
        text = str(lab).strip()
        if text not in labels:
            raise DelveError(
                f"--reroll {lab}: no hex {text!r} on this map (labels run {grid.labels[0]} to "
                f"{grid.labels[-1]}, column then row)"
            )
        counts[text] = counts.get(text, 0) + int(times)
        if counts[text] > MAX_REROLLS:
            raise DelveError(f"--reroll {lab}: at most {MAX_REROLLS} re-rolls of one hex")
    return {k: counts[k] for k in sorted(counts)}


def _rumours(
    tables: TableSet,
    grid: Grid,
    hexes: list[Hex],
    factions: list[Faction],
    rivers: list[River],
    roads: list[Road],
) -> Callable[[int, Rng], None]:
    """hear(i, hex stream): give hex i's haven, if any, its rumour about a place that fits."""
    coords, index = grid.coords, grid.index
    reach = spiral((0, 0), RUMOUR_REACH)
    bases = {fa.base: fa for fa in factions}
    on_paths: dict[str, set[str]] = {}
    for river in rivers:
        for lab in river.path:
            on_paths.setdefault(lab, set()).add("river")
    for road in roads:
        for lab in road.path:
            on_paths.setdefault(lab, set()).add(road.kind)

    def trait(h: Hex) -> set[str]:
        return traits(h, bases, on_paths)

    def hear(i: int, hrng: Rng) -> None:
        haven = hexes[i].haven
        if haven is None:
            return
        q, r = coords[i]
        around = (index.get((q + dq, r + dr)) for dq, dr in reach)
        near = [hexes[j] for j in around if j is not None and j not in (i, grid.center)]
        anywhere = [h for j, h in enumerate(hexes) if j not in (i, grid.center)]
        haven.rumour = hear_rumour(
            tables, hrng.child("haven").child("rumour"), near, anywhere, trait
        )

    return hear


def generate_region(
    tables: TableSet,
    rng: Rng,
    radius: int | None = None,
    size: tuple[int, int] | None = None,
    hex_miles: int = 18,
    level: int = 1,
    reroll: Iterable[str] | Mapping[str, int] | None = None,
    progress: Progress | None = None,
) -> Region:
    """A stocked region: radius 1 (seven hexes round a haven) unless a radius or size is given.

    `reroll` lists hex labels to re-roll (a label given twice is re-rolled twice); `progress`
    is called as progress(done, total) while hexes are stocked.
    """
    if hex_miles not in HEX_MILES:
        raise DelveError(
            f"--hex-miles {hex_miles}: must be 18 or 6 (FMC Basic: 18-mile hexes, a day's "
            "travel, or 6-mile hexes crossed three a day)"
        )
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise DelveError(f"--level must be 1 to {MAX_LEVEL}, not {level}")
    grid = make_grid(radius, size)
    look = region_tables(tables)
    bio = look.biomes
    rerolls = _check_reroll(grid, reroll)
    n = len(grid)
    labels, coords = grid.labels, grid.coords
    terrain, ridges = grow_terrain(grid, bio, rng.child("terrain"))
    origin = coords[grid.center]
    dist = [distance(origin, c) for c in coords]
    levels = [hex_level(level, d, hex_miles) for d in dist]
    book = NameBook(tables, n)
    named = rng.child("name")
    name = book.choose(lambda: tables.roll("region/names", named).text)
    # Roads and faction bases follow each hex's first stocking roll, so a re-roll moves
    # nothing else.
    firsts: list[Rolled | None] = [
        None if i == grid.center else tables.roll(STOCKING_TABLE, hex_rng(rng, labels[i], 0))
        for i in range(n)
    ]
    first = [r["key"] if r is not None else "start" for r in firsts]
    factions, holds = place_factions(tables, grid, first, rng.child("factions"), book)
    by_key = {fa.key: fa for fa in factions}
    ctx = HexContext(tables, look, grid, terrain, levels, book)

    def stocked(i: int, times: int) -> Hex:
        lab = labels[i]
        hrng = hex_rng(rng, lab, times)
        book.owner = i
        hold = holds.get(i)
        base = (hold, by_key[hold.faction], firsts[i]) if hold is not None else None
        stocking, roll, things = stock_hex(ctx, i, hrng, i == grid.center, base)  # type: ignore[arg-type]
        b = bio[terrain[i]]
        q, r = coords[i]
        return Hex(
            q=q,
            r=r,
            label=lab,
            terrain=terrain[i],
            travel_days=travel_days(b.difficult, hex_miles),
            encounter_odds=encounter_odds(b.difficult, hex_miles),
            distance=dist[i],
            level=levels[i],
            stocking=stocking,
            seed=hrng.address,
            stocking_roll=roll,
            rerolled=times,
            **things,
        )

    # Every hex as first rolled, in label order: the names and landmarks each one is dealt
    # avoid those of the hexes before it.
    hexes: list[Hex] = []
    for i in range(n):
        hexes.append(stocked(i, 0))
        if progress is not None:
            progress(i + 1, n)
    havens = [i for i in range(n) if first[i] == "haven"]
    roads = lay_roads(tables, grid, terrain, bio, havens, rng.child("roads"))
    book.owner = "rivers"
    rivers = lay_rivers(tables, grid, terrain, bio, rng.child("rivers"), book)
    hear_rumours = _rumours(tables, grid, hexes, factions, rivers, roads)
    for i in range(n):
        hear_rumours(i, hex_rng(rng, labels[i], 0))
    # Then each re-rolled hex, clear of what every other hex holds: a re-roll changes that
    # hex alone.
    for i in (grid.by_label()[lab] for lab in rerolls):
        book.forget(i)
        hexes[i] = stocked(i, rerolls[labels[i]])
        hear_rumours(i, hex_rng(rng, labels[i], rerolls[labels[i]]))
    present = [k for k in bio if k in set(terrain)]
    base_biome = {fa.key: terrain[grid.by_label()[fa.base]] for fa in factions}
    encounters, beasts = biome_encounters(
        tables, look, present, factions, base_biome, rng.child("encounters")
    )
    return Region(
        seed=rng.address,
        name=name,
        hex_miles=hex_miles,
        level=level,
        shape={"radius": 1 if radius is None else radius}
        if size is None
        else {"width": size[0], "height": size[1]},
        start=labels[grid.center],
        hexes=hexes,
        biomes={
            k: Biome(k, b.name, b.difficult, b.passable, b.color, b.symbol, b.description)
            for k, b in bio.items()
            if k in present
        },
        rivers=rivers,
        roads=roads,
        ridges=ridges,
        factions=factions,
        encounters=encounters,
        bestiary=beasts,
        reroll=rerolls,
        version=__version__,
    )
