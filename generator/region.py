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
- **Factions**: two to four distinct archetypes from ``region/factions``. Each has a base in a
  haven, site or lair hex (landmarks only when there are too few), a leader, and an attitude to
  every other faction rolled on ``region/faction-relations``. Its members replace one line of
  the encounter table of its base's biome.
- **Rumours** at a haven are about a place within three hexes of it (never the starting haven).
- **Seeds**: hex XXYY uses ``<seed>/hex/XXYY`` (its site ``<seed>/hex/XXYY/site``); re-rolled
  for the n-th time it uses ``<seed>/hex/XXYY/reroll/n``. Everything that other hexes depend on
  (roads, faction bases) follows each hex's first stocking roll, and rumours name their place by
  label, so re-rolling a hex changes that hex alone.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from generator import __version__
from generator.dice import parse
from generator.errors import DelveError, DiceError, TableError
from generator.hexes import (
    MAX_SPAN,
    Grid,
    distance,
    hexagon_count,
    hexagon_grid,
    rectangle_grid,
    spiral,
)
from generator.model.monster import Monster
from generator.model.region import (
    ATTITUDES,
    HEX_MILES,
    MOODS,
    NPC,
    REACTIONS,
    Biome,
    EncounterEntry,
    Faction,
    Haven,
    Hex,
    Lair,
    Landmark,
    Leader,
    Region,
    RegionEncounter,
    River,
    Road,
    Rumour,
)
from generator.model.site import MonsterGroup
from generator.monsters import bestiary
from generator.rng import Rng
from generator.site import MAX_LEVEL, generate_site, themes
from generator.tables import Entry, Rolled, TableSet
from generator.treasure import roll_hoard

Progress = Callable[[int, int], None]

BIOMES = "region/biomes"
STOCKING_TABLE = "region/hex-stocking"
STOCKING_KEYS = ("haven", "site", "lair", "landmark")
SYMBOLS = ("grass", "tree", "trees", "hill", "mountain", "marsh", "dune", "wave", "field", "heath")

DAY_MILES = 18  # FMC Basic, Overworld Exploration: an 18-mile hex is a day on good ground
LEVEL_MILES = 36  # danger: one level per 36 miles (two days) from the starting haven
SITE_ROOMS = 6
LAIR_UNIT = 500  # FMC Basic, Hex Stocking: a one-room lair is worth 500 x d6 XP
LAIR_SITE_ROLLS = (1, 2)  # our rule: on a d6, 1-2 the lair is a multi-room site
XP_TOLERANCE = 0.10  # monsters within 10% of the budget, as in sites
MAX_GROUP = 16
SINGLE_KIND = 0.6  # share of one-room lairs kept by a single kind of monster (when one fits)
MISFIT = 0.1  # how much less likely a biome is beside one that does not list it
WATER_SHARE = 0.15  # impassable biomes (lakes) cover at most this share of the map
FACTIONS = (2, 4)  # "local factions": two to four
RUMOUR_REACH = 3  # rumours are about places within three hexes
MAX_RADIUS = (MAX_SPAN - 1) // 2  # 49: a hexagon 99 columns wide
MEMBER_COUNTS = {1: "2d6", 2: "1d6+1", 3: "1d4+1", 4: "1d3", 5: "1"}  # faction patrols by bracket


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class BiomeInfo:
    key: str
    name: str
    difficult: bool
    passable: bool
    color: str
    symbol: str
    neighbours: frozenset[str]
    weight: float
    description: str


@dataclass
class _Tables:
    """What the region generator reads from the tables, checked once per TableSet."""

    biomes: dict[str, BiomeInfo]
    keepers: dict[str, list[Monster]]  # biome -> monsters that may keep a one-room lair
    lair_fallback: list[list[Monster]]  # each site theme's inhabitants
    haven_pools: dict[str, list[Entry]]  # biome -> haven kinds that suit it
    encounter_monsters: dict[str, list[Monster]]  # biome -> monster of each d6 line
    lair_options: dict[tuple[str, int], tuple[tuple[tuple[Monster, int], ...], ...]] = field(
        default_factory=dict
    )


def _where(tables: TableSet, table_id: str, entry: Entry | None = None) -> str:
    t = tables.get(table_id)
    return f"{t.path}:{entry.line if entry else t.line}: table '{table_id}'"


def _check_keys(tables: TableSet, table_id: str, allowed: Iterable[str]) -> list[str]:
    allowed = tuple(allowed)
    tables.require_fields(table_id, {"key": "str"})
    return [
        f"{_where(tables, table_id, e)}: key {e['key']!r} must be one of {', '.join(allowed)}"
        for e in tables.entries(table_id)
        if e["key"] not in allowed
    ]


def region_tables(tables: TableSet) -> _Tables:
    """Check every table the region generator relies on; raise TableError naming FILE:LINE."""
    cached = tables.derived.get("region")
    if cached is not None:
        return cached
    table = tables.require_fields(
        BIOMES,
        {
            "key": "str",
            "name": "str",
            "difficult": "bool",
            "passable": "bool",
            "color": "str",
            "symbol": "str",
            "neighbours": "list",
        },
    )
    beasts = bestiary(tables)
    problems: list[str] = []
    biomes: dict[str, BiomeInfo] = {}
    keys = [e["key"] for e in table.entries]
    for e in table.entries:
        where = f"{_where(tables, BIOMES, e)}: biome '{e['key']}'"
        if e["key"] in biomes:
            problems.append(f"{where}: key is used twice")
            continue
        for other in e["neighbours"]:
            if other not in keys:
                problems.append(f"{where}: neighbours name an unknown biome {other!r}")
        if e["symbol"] not in SYMBOLS:
            problems.append(
                f"{where}: symbol {e['symbol']!r} is not one the map draws ({', '.join(SYMBOLS)})"
            )
        for kind in ("landmarks", "encounters"):
            if not tables.has(f"region/{kind}/{e['key']}"):
                problems.append(f"{where}: has no table 'region/{kind}/{e['key']}'")
        biomes[e["key"]] = BiomeInfo(
            key=e["key"],
            name=e["name"],
            difficult=e["difficult"],
            passable=e["passable"],
            color=e["color"],
            symbol=e["symbol"],
            neighbours=frozenset(str(n) for n in e["neighbours"]),
            weight=e.weight,
            description=e.result,
        )
    if biomes and not any(b.passable for b in biomes.values()):
        problems.append(f"{_where(tables, BIOMES)}: no biome is passable; a haven needs land")
    if problems:
        raise TableError(problems)
    problems += _check_keys(tables, STOCKING_TABLE, STOCKING_KEYS)
    problems += _check_keys(tables, "npc/mood", MOODS)
    problems += _check_keys(tables, "npc/reaction", REACTIONS)
    problems += _check_keys(tables, "region/faction-relations", ATTITUDES)
    tables.require_fields("region/road-kinds", {"kind": "str"})
    for e in tables.entries("region/road-kinds"):
        if e["kind"] not in ("road", "trail"):
            problems.append(
                f"{_where(tables, 'region/road-kinds', e)}: kind {e['kind']!r} must be "
                "road or trail"
            )
    tables.require_fields(
        "region/factions",
        {"key": "str", "name": "str", "goal": "str", "leader": "str", "members": "str"},
    )
    for e in tables.entries("region/factions"):
        if beasts.find(e["members"]) is None:
            problems.append(
                f"{_where(tables, 'region/factions', e)}: members name unknown monster "
                f"{e['members']!r}"
            )
    tables.require_fields("region/haven-kinds", {"kind": "str", "offers": "str", "runner": "str"})
    encounter_monsters: dict[str, list[Monster]] = {}
    for key in biomes:
        tid = f"region/encounters/{key}"
        t = tables.require_fields(tid, {"monster": "str", "count": "str", "doing": "str"})
        if t.die is None or t.die.text.strip().lower() not in ("d6", "1d6"):
            problems.append(f"{_where(tables, tid)}: must roll a d6 (one line per face)")
            continue
        found: list[Monster] = []
        for e in t.lookup:
            m = beasts.find(e["monster"])
            if m is None:
                problems.append(f"{_where(tables, tid, e)}: unknown monster {e['monster']!r}")
            else:
                found.append(m)
            try:
                parse(e["count"])
            except DiceError as err:
                problems.append(f"{_where(tables, tid, e)}: count: {err}")
        encounter_monsters[key] = found
        tables.require_fields(f"region/landmarks/{key}", {"name": "str"})
    if problems:
        raise TableError(problems)
    roster = {m.monster.name: m.monster for th in themes(tables).values() for m in th.roster}
    keepers = {
        key: sorted(
            {m.name: m for m in found if "humanoid" not in m.tags or m.name in roster}.values(),
            key=lambda m: m.name,
        )
        for key, found in encounter_monsters.items()
    }
    havens = tables.entries("region/haven-kinds")
    pools = {}
    for key in biomes:
        fitting = [
            e for e in havens if key in (e.get("biomes") or ["any"]) or "any" in e.get("biomes", [])
        ]
        pools[key] = fitting or list(havens)
    result = _Tables(
        biomes=biomes,
        keepers=keepers,
        lair_fallback=[
            sorted({m.monster.name: m.monster for m in th.roster}.values(), key=lambda m: m.name)
            for _, th in sorted(themes(tables).items())
        ],
        haven_pools=pools,
        encounter_monsters=encounter_monsters,
    )
    tables.derived["region"] = result
    return result


# --------------------------------------------------------------------------- shape


def parse_size(text: str) -> tuple[int, int]:
    """'12x8' -> (12, 8)."""
    t = text.strip().lower().replace("×", "x")
    parts = t.split("x")
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise DelveError(f"--size {text}: must be WIDTHxHEIGHT in hexes, e.g. 12x8")
    return int(parts[0]), int(parts[1])


def _limits() -> str:
    return (
        f"at most {MAX_SPAN}x{MAX_SPAN} hexes ({MAX_SPAN * MAX_SPAN:,}) or radius {MAX_RADIUS} "
        f"({hexagon_count(MAX_RADIUS):,} hexes): XXYY labels number columns and rows 01-99"
    )


def make_grid(radius: int | None = None, size: tuple[int, int] | None = None) -> Grid:
    """The map's hexes; refuses sizes beyond the limit before building anything."""
    if radius is not None and size is not None:
        raise DelveError("give --radius or --size, not both")
    if size is not None:
        w, h = size
        if w < 1 or h < 1:
            raise DelveError(f"--size {w}x{h}: a map needs at least 1 column and 1 row")
        if w > MAX_SPAN or h > MAX_SPAN:
            raise DelveError(f"--size {w}x{h}: too big; {_limits()}")
        return rectangle_grid(w, h)
    r = 1 if radius is None else radius
    if isinstance(r, bool) or not isinstance(r, int) or r < 0:
        raise DelveError(f"--radius {r}: must be 0 or more (1 is the seven-hex starting region)")
    if r > MAX_RADIUS:
        raise DelveError(f"--radius {r}: too big; {_limits()}")
    return hexagon_grid(r)


# --------------------------------------------------------------------------- terrain


def _compatible(bio: Mapping[str, BiomeInfo], a: str, b: str) -> bool:
    return a == b or b in bio[a].neighbours or a in bio[b].neighbours


def _ridges(grid: Grid, bio: dict[str, BiomeInfo], rng: Rng, terrain: list[str | None]) -> list:
    mountain = next((k for k, b in bio.items() if b.symbol == "mountain"), None)
    if mountain is None:
        return []
    hill = next((k for k, b in bio.items() if b.symbol == "hill"), None)
    n = len(grid)
    count = n // 300 + (1 if n >= 19 and rng.random() < 0.5 else 0)
    near = grid.near
    ridges = []
    for _ in range(count):
        i = int(rng.random() * n)
        heading = int(rng.random() * 6)
        length = 3 + int(rng.random() * (2 + int(n**0.5) // 2))
        path: list[int] = []
        for _step in range(length):
            if i in path:
                break
            path.append(i)
            # Passes: now and then the chain dips to hills.
            terrain[i] = hill if hill and path and rng.random() < 0.12 else mountain
            turn = heading + (-1, 0, 0, 1)[int(rng.random() * 4)]
            nxt = near[i][turn % 6]
            if nxt is None:
                break
            i = nxt
        if hill:
            for j in path:
                for k in near[j]:
                    if k is not None and terrain[k] is None and rng.random() < 0.4:
                        terrain[k] = hill
        ridges.append(path)
    return ridges


def _grow(grid: Grid, rng: Rng, terrain: list[str | None]) -> tuple[list[int], int]:
    """Regions grown from scattered seeds over the hexes not yet given a biome."""
    n = len(grid)
    near = grid.near
    region = [-1] * n
    next_id = 0
    fixed_ids: dict[str, int] = {}
    for i, t in enumerate(terrain):
        if t is not None:
            if t not in fixed_ids:
                fixed_ids[t] = next_id
                next_id += 1
            region[i] = fixed_ids[t]
    free = [i for i in range(n) if terrain[i] is None]
    if not free:
        return region, next_id
    k = max(3, round(len(free) / 8))
    seeds = rng.sample(free, min(k, len(free)))
    random = rng.random
    while True:
        # Regions take turns to claim one more hex, each from a random point of its edge, so
        # they come out of similar size with ragged borders.
        fronts: list[list[int]] = []
        for i in seeds:
            region[i] = next_id
            next_id += 1
            fronts.append([i])
        active = list(range(len(fronts)))
        while active:
            still = []
            for f in active:
                front = fronts[f]
                while front:
                    j = int(random() * len(front))
                    i = front[j]
                    open_ = [m for m in near[i] if m is not None and region[m] == -1]
                    if open_:
                        m = open_[int(random() * len(open_))]
                        region[m] = region[i]
                        front.append(m)
                        break
                    front[j] = front[-1]
                    front.pop()
                if front:
                    still.append(f)
            active = still
        # Pockets that no seed reached (walled in by ridges) get a seed of their own.
        seeds = [i for i in free if region[i] == -1][:1]
        if not seeds:
            return region, next_id


def _terrain(grid: Grid, bio: dict[str, BiomeInfo], rng: Rng) -> tuple[list[str], list]:
    n = len(grid)
    near = grid.near
    keys = list(bio)
    rank = {k: i for i, k in enumerate(keys)}
    terrain: list[str | None] = [None] * n
    ridges = _ridges(grid, bio, rng.child("ridges"), terrain)
    fixed = [t is not None for t in terrain]
    region, count = _grow(grid, rng.child("regions"), terrain)
    biome_of: list[str | None] = [None] * count
    for i, t in enumerate(terrain):
        if t is not None:
            biome_of[region[i]] = t
    adjacent: list[set[int]] = [set() for _ in range(count)]
    for i in range(n):
        a = region[i]
        for j in near[i]:
            if j is not None and region[j] != a:
                adjacent[a].add(region[j])
    # Assign biomes breadth-first from the start's region, so each choice sees its neighbours'.
    order: list[int] = []
    seen = [False] * count
    for root in [region[grid.center], *range(count)]:
        if seen[root]:
            continue
        seen[root] = True
        queue = [root]
        while queue:
            a = queue.pop(0)
            order.append(a)
            for b in sorted(adjacent[a]):
                if not seen[b]:
                    seen[b] = True
                    queue.append(b)
    pick = rng.child("biomes")
    sizes = [0] * count
    for a in region:
        sizes[a] += 1
    water = 0  # hexes given to impassable biomes so far
    for a in order:
        if biome_of[a] is not None:
            continue
        # Water stays a feature, not the region: at most WATER_SHARE of the hexes.
        wet_ok = water + sizes[a] <= n * WATER_SHARE
        around = {biome_of[b] for b in adjacent[a] if biome_of[b] is not None}
        # Soft rule: a biome its neighbours do not list is ten times less likely, not banned.
        pool = keys
        scores = []
        for key in keys:
            score = bio[key].weight
            for other in around:
                if not _compatible(bio, key, other):
                    score *= MISFIT
            if not bio[key].passable and not wet_ok:
                score = 0.0
            scores.append(score)
        if not any(scores):
            scores = [bio[k].weight if bio[k].passable else 0.0 for k in keys]
        biome_of[a] = pick.weighted(pool, scores)
        if not bio[biome_of[a]].passable:
            water += sizes[a]
    out = [biome_of[region[i]] or keys[0] for i in range(n)]
    # Smoothing: fold in lone hexes and hexes mostly surrounded by one other biome.
    for _ in range(2):
        new = out[:]
        for i in range(n):
            if fixed[i]:
                continue
            counts: dict[str, int] = {}
            for j in near[i]:
                if j is not None:
                    counts[out[j]] = counts.get(out[j], 0) + 1
            if not counts:
                continue
            best_key = max(counts, key=lambda k: (counts[k], -rank[k]))
            own = counts.get(out[i], 0)
            if best_key != out[i] and (
                (own == 0 and counts[best_key] >= 2) or counts[best_key] >= 4
            ):
                new[i] = best_key
        out = new
    start = grid.center
    if not bio[out[start]].passable:
        around = [out[j] for j in near[start] if j is not None and bio[out[j]].passable]
        land = [k for k in keys if bio[k].passable]
        near_land = [k for k in land if k in bio[out[start]].neighbours]
        out[start] = (around or near_land or land)[0]
    return out, [[grid.labels[i] for i in path] for path in ridges]


def _rivers(
    tables: TableSet, grid: Grid, terrain: list[str], bio: dict[str, BiomeInfo], rng: Rng
) -> list[River]:
    n = len(grid)
    if n < 3:
        return []
    coords, near = grid.coords, grid.near
    rim = [i for i in range(n) if grid.edge(i)]
    high = [
        i for i in range(n) if bio[terrain[i]].symbol in ("mountain", "hill") and not grid.edge(i)
    ]
    land = [i for i in range(n) if bio[terrain[i]].passable]
    count = 1 + (rng.random() < 0.5) + n // 600
    names = tables.draw(
        "region/river-names",
        rng.child("names"),
        min(count, len(tables.entries("region/river-names"))),
    )
    on_river: set[int] = set()
    rivers: list[River] = []
    for k in range(count):
        rrng = rng.child(f"{k + 1}")
        pool = [i for i in (high or land) if i not in on_river] or land
        if not pool:
            break
        source = rrng.choice(pool)
        far = max(distance(coords[source], coords[i]) for i in rim)
        ends = [i for i in rim if distance(coords[source], coords[i]) >= far * 0.8 and i != source]
        if not ends:
            continue
        target = rrng.choice(ends)
        path = [source]
        visited = {source}
        cur = source
        lateral = False
        while cur != target:
            d = distance(coords[cur], coords[target])
            ahead, aside = [], []
            for j in near[cur]:
                if j is None or j in visited:
                    continue
                dj = distance(coords[j], coords[target])
                if dj < d:
                    ahead.append(j)
                elif dj == d and not lateral:
                    aside.append(j)
            # Meander: now and then a step across the slope, never two in a row; avoid peaks.
            steps = ahead + aside if aside and rrng.random() < 0.3 else ahead
            if not steps:
                break
            low = [j for j in steps if bio[terrain[j]].symbol != "mountain"] or steps
            cur = rrng.choice(low)
            lateral = cur in aside
            path.append(cur)
            visited.add(cur)
            if cur in on_river or not bio[terrain[cur]].passable:
                break  # joins another river, or flows into a lake
        if len(path) < 2:
            continue
        on_river.update(path)
        name = names[k % len(names)].text if names else f"River {k + 1}"
        rivers.append(River(name, [grid.labels[i] for i in path]))
    return rivers


def _roads(
    tables: TableSet,
    grid: Grid,
    terrain: list[str],
    bio: dict[str, BiomeInfo],
    havens: list[int],
    rng: Rng,
) -> list[Road]:
    """Grow a network from the start: each haven joins by the quickest way to the network."""
    cost = [2 if bio[t].difficult else 1 for t in terrain]
    passable = [bio[t].passable for t in terrain]
    near = grid.near
    wanted = set(havens)
    network = {grid.center}
    far = 1 << 30
    best = [far] * len(grid)
    best[grid.center] = 0
    parent = [-1] * len(grid)
    heap = [(0, grid.center)]
    roads: list[Road] = []
    pop, push = heapq.heappop, heapq.heappush
    while heap and wanted:
        d, i = pop(heap)
        if d > best[i]:
            continue
        if i in wanted:
            wanted.discard(i)
            if i not in network:
                path = [i]
                while path[-1] not in network:
                    path.append(parent[path[-1]])
                path.reverse()
                look = tables.roll("region/road-kinds", rng)
                roads.append(Road(look["kind"], look.text, [grid.labels[j] for j in path]))
                for j in path:
                    network.add(j)
                    best[j] = 0
                    push(heap, (0, j))
                continue
        for j in near[i]:
            if j is None or not passable[j]:
                continue
            nd = d + cost[j]
            if nd < best[j]:
                best[j] = nd
                parent[j] = i
                push(heap, (nd, j))
    return roads


# --------------------------------------------------------------------------- stocking


@dataclass
class _Ctx:
    tables: TableSet
    look: _Tables
    grid: Grid
    terrain: list[str]
    levels: list[int]
    targets: Callable[[int], list[int]]


def _person(tables: TableSet, rng: Rng) -> str:
    name = tables.roll("npc/names", rng).text
    if rng.random() < 0.5:
        name = f"{name} {tables.roll('npc/epithets', rng).text}"
    return name


def _haven(ctx: _Ctx, i: int, rng: Rng) -> Haven:
    tables = ctx.tables
    pool = ctx.look.haven_pools[ctx.terrain[i]]
    chosen = rng.weighted(pool, [e.weight for e in pool])
    static = chosen.template.static
    kind = (
        Rolled("region/haven-kinds", chosen, None, static)
        if static is not None
        else tables.pick("region/haven-kinds", rng, where={"kind": chosen["kind"]})
    )
    name = tables.roll("region/haven-names", rng).text
    npcs = []
    nrng = rng
    for _ in range(1 + (nrng.random() < 0.5)):
        mood = tables.roll("npc/mood", nrng)
        npcs.append(
            NPC(
                name=_person(tables, nrng),
                role=tables.roll("npc/roles", nrng).text,
                trait=tables.roll("npc/traits", nrng).text,
                mood=mood["key"],
                mood_roll=mood.value or 0,
            )
        )
    rumour = None
    about = ctx.targets(i)
    if about:
        target = rng.choice(about)
        said = tables.roll("region/rumours", rng, {"place": "{place}", "hex": "{hex}"})
        rumour = Rumour(said.text, ctx.grid.labels[target], bool(said.get("true", True)))
    return Haven(
        name=name,
        kind=kind["kind"],
        description=kind.text,
        offers=tables.render_field(kind, "offers", rng),
        runner=tables.render_field(kind, "runner", rng),
        npcs=npcs,
        rumour=rumour,
        seed=rng.address,
    )


def _landmark(ctx: _Ctx, i: int, rng: Rng) -> Landmark:
    tables = ctx.tables
    rolled = tables.roll(f"region/landmarks/{ctx.terrain[i]}", rng)
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


def _lair_group(ctx: _Ctx, biome: str, budget: int, rng: Rng) -> Group:
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


def _lair(ctx: _Ctx, i: int, rng: Rng) -> tuple[Lair, bool]:
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
    doing = tables.roll("site/activities", rng).text
    monsters = [MonsterGroup(m.name, n, m.xp, doing) for m, n in group]
    holder = max((m for m, _ in group), key=lambda m: (m.bracket, m.xp))
    # FMC Basic, Treasure Hoards: a magic weapon's power die is its holders' damage die.
    hoard = roll_hoard(tables, rng.child("hoard"), budget, ctx.levels[i], holder.damage)
    den = tables.roll(f"region/landmarks/{ctx.terrain[i]}", rng)
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


def _hex_rng(rng: Rng, label: str, times: int) -> Rng:
    base = rng.child(f"hex/{label}")
    return base.child(f"reroll/{times}") if times else base


def _stock(ctx: _Ctx, i: int, hrng: Rng, start: bool) -> tuple[str, int, dict]:
    """What hex i holds: (stocking, d6, {haven|site|lair|landmark: model})."""
    tables = ctx.tables
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
        site = generate_site(tables, hrng.child("site"), level=level, rooms=SITE_ROOMS)
        return key, roll, {"site": site}
    lair, as_site = _lair(ctx, i, hrng.child("lair"))
    out: dict = {"lair": lair}
    if as_site:
        site = generate_site(tables, hrng.child("site"), level=level, rooms=SITE_ROOMS)
        lair.name = site.name
        out["site"] = site
    return key, roll, out


# --------------------------------------------------------------------------- factions


def _factions(
    tables: TableSet,
    grid: Grid,
    first: list[str],
    rng: Rng,
) -> list[Faction]:
    archetypes = len(tables.entries("region/factions"))
    count = min(FACTIONS[0] + int(rng.random() * (FACTIONS[1] - FACTIONS[0] + 1)), archetypes)
    drawn = tables.draw("region/factions", rng.child("archetypes"), count)
    n = len(grid)
    strong = [i for i in range(n) if first[i] in ("haven", "site", "lair")]
    weak = [i for i in range(n) if first[i] == "landmark"]
    brng = rng.child("bases")
    bases = brng.sample(strong, min(count, len(strong)))
    if len(bases) < count:
        bases += brng.sample(weak, min(count - len(bases), len(weak)))
    while len(bases) < count:
        bases.append(grid.center)
    out: list[Faction] = []
    for rolled, base in zip(drawn, bases, strict=True):
        key = rolled["key"]
        frng = rng.child(key)
        out.append(
            Faction(
                key=key,
                name=tables.render_field(rolled, "name", frng),
                description=rolled.text,
                goal=tables.render_field(rolled, "goal", frng),
                leader=Leader(_person(tables, frng.child("leader")), rolled["leader"]),
                base=grid.labels[base],
                members=bestiary(tables).find(rolled["members"]).name,  # type: ignore[union-attr]
                relations={},
                seed=frng.address,
            )
        )
    for a_i, a in enumerate(out):
        for b in out[a_i + 1 :]:
            rel = tables.roll("region/faction-relations", rng.child(f"relations/{a.key}/{b.key}"))
            a.relations[b.key] = rel["key"]
            b.relations[a.key] = rel["key"]
    for fa in out:
        fa.relations = {k: fa.relations[k] for k in sorted(fa.relations)}
    return out


def _encounters(
    tables: TableSet,
    look: _Tables,
    present: list[str],
    factions: list[Faction],
    base_biome: dict[str, str],
    rng: Rng,
) -> tuple[list[RegionEncounter], dict[str, Monster]]:
    beasts = bestiary(tables)
    used: dict[str, Monster] = {}
    out: list[RegionEncounter] = []
    for biome in present:
        tid = f"region/encounters/{biome}"
        table = tables.get(tid)
        erng = rng.child(biome)
        entries = []
        for roll, (e, m) in enumerate(
            zip(table.lookup, look.encounter_monsters[biome], strict=True), start=1
        ):
            reaction = tables.roll("npc/reaction", erng.child(f"{roll}/reaction"))
            text = (
                e.template.static
                if e.template.static is not None
                else tables.roll(tid, erng.child(f"{roll}/text")).text
            )
            entries.append(
                EncounterEntry(
                    roll=roll,
                    monster=m.name,
                    count=e["count"],
                    doing=e["doing"],
                    description=text,
                    xp_each=m.xp,
                    reaction=reaction["key"],
                    reaction_roll=reaction.value or 0,
                )
            )
            used[m.name] = m
        out.append(RegionEncounter(biome, table.title, entries))
    by_biome = {t.terrain: t for t in out}
    for fa in factions:
        table = by_biome.get(base_biome[fa.key])
        if table is None:
            continue
        free = [e for e in table.entries if not e.faction]
        if not free:
            continue
        frng = rng.child(f"faction/{fa.key}")
        slot = frng.choice(free)
        m = beasts.find(fa.members)
        assert m is not None  # checked with the tables
        reaction = tables.roll("npc/reaction", frng)
        slot.monster = m.name
        slot.count = MEMBER_COUNTS.get(m.bracket, "1d6")
        slot.doing = f"are out on the business of {fa.name}, who mean {fa.goal}"
        slot.description = fa.description
        slot.xp_each = m.xp
        slot.reaction = reaction["key"]
        slot.reaction_roll = reaction.value or 0
        slot.faction = fa.key
        used[m.name] = m
    for fa in factions:
        m = beasts.find(fa.members)
        if m is not None:
            used[m.name] = m
    return out, {k: used[k] for k in sorted(used)}


# --------------------------------------------------------------------------- the region


def travel_days(difficult: bool, hex_miles: int) -> float:
    """Days to cross a hex: 1 per 18 miles, doubled on difficult ground (FMC Basic)."""
    days = (2 if difficult else 1) * hex_miles / DAY_MILES
    return int(days) if days == int(days) else round(days, 4)


def encounter_odds(difficult: bool, hex_miles: int) -> str:
    """1-in-6 per day in the hex: '2-in-6' for a 2-day hex, '1-in-18' for a third of a day."""
    units = 2 if difficult else 1
    return f"{units}-in-{6 * DAY_MILES // hex_miles}"


def hex_level(base: int, dist: int, hex_miles: int) -> int:
    """The level a hex's site or lair is stocked for: +1 per 36 miles from the start."""
    return min(MAX_LEVEL, base + dist * hex_miles // LEVEL_MILES)


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
    return {k: counts[k] for k in sorted(counts)}


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
    terrain, ridges = _terrain(grid, bio, rng.child("terrain"))
    origin = coords[grid.center]
    dist = [distance(origin, c) for c in coords]
    levels = [hex_level(level, d, hex_miles) for d in dist]
    index = grid.index

    reach = spiral((0, 0), RUMOUR_REACH)

    def targets(i: int) -> list[int]:
        q, r = coords[i]
        around = (index.get((q + dq, r + dr)) for dq, dr in reach)
        return [j for j in around if j is not None and j != i and j != grid.center]

    ctx = _Ctx(tables, look, grid, terrain, levels, targets)
    hexes: list[Hex] = []
    first: list[str] = []
    for i in range(n):
        lab = labels[i]
        times = rerolls.get(lab, 0)
        hrng = _hex_rng(rng, lab, times)
        stocking, roll, things = _stock(ctx, i, hrng, i == grid.center)
        b = bio[terrain[i]]
        q, r = coords[i]
        hexes.append(
            Hex(
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
        )
        # Roads and faction bases follow each hex's first roll, so a re-roll moves nothing else.
        if times and i != grid.center:
            first.append(tables.roll(STOCKING_TABLE, _hex_rng(rng, lab, 0))["key"])
        else:
            first.append(stocking)
        if progress is not None:
            progress(i + 1, n)
    havens = [i for i in range(n) if first[i] == "haven"]
    roads = _roads(tables, grid, terrain, bio, havens, rng.child("roads"))
    rivers = _rivers(tables, grid, terrain, bio, rng.child("rivers"))
    factions = _factions(tables, grid, first, rng.child("factions"))
    present = [k for k in bio if k in set(terrain)]
    base_biome = {fa.key: terrain[grid.by_label()[fa.base]] for fa in factions}
    encounters, beasts = _encounters(
        tables, look, present, factions, base_biome, rng.child("encounters")
    )
    return Region(
        seed=rng.address,
        name=tables.roll("region/names", rng.child("name")).text,
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
