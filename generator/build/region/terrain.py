"""The map: its shape, biomes grown in clusters with ridges, rivers, roads and trails."""

from __future__ import annotations

import heapq
from collections.abc import Mapping

from generator.build.region.names import NameBook
from generator.build.region.rules import MAX_RADIUS, MISFIT, WATER_SHARE
from generator.build.region.tables import BiomeInfo
from generator.engine.hexes import (
    MAX_SPAN,
    Grid,
    distance,
    hexagon_count,
    hexagon_grid,
    rectangle_grid,
)
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.region import River, Road


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
    random = rng.draw()
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


def grow_terrain(grid: Grid, bio: dict[str, BiomeInfo], rng: Rng) -> tuple[list[str], list]:
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


def lay_rivers(
    tables: TableSet,
    grid: Grid,
    terrain: list[str],
    bio: dict[str, BiomeInfo],
    rng: Rng,
    book: NameBook | None = None,
) -> list[River]:
    """Rivers from high ground to the far edge; each named from ``region/river-names``, dealt
    without repeats, passing over a name whose parts the region has used enough (names.py)."""
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
    names = [
        r.text
        for r in tables.draw(
            "region/river-names", rng.child("names"), len(tables.entries("region/river-names"))
        )
    ]
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
        fresh = [t for t in names if book is None or book.fits(t)] or names
        name = fresh[0] if fresh else f"River {k + 1}"
        if name in names:
            names.remove(name)
        if book is not None:
            book.add(name)
        rivers.append(River(name, [grid.labels[i] for i in path]))
    return rivers


def lay_roads(
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
