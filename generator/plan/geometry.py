"""One level of a plan as geometry: walls, doorways, stairs, lights and label places.

`level_geometry(site, level, players=True)` is the one place that turns a level's plan into
lines. The map renderers (SVG, PNG), the Universal VTT writer and the Foundry VTT exporter all
read it, so a wall on the picture is a wall on the tabletop.

Coordinates are in squares (10 feet) with (0, 0) the top-left corner of the level's picture,
x to the east and y to the south: a point (x, y) is pixel (x * ppg, y * ppg) of a picture drawn
at ppg pixels a square. `origin` is the plan square at that corner, so plan square (sx, sy) is
the picture's square (sx - origin.x, sy - origin.y). Square (i, j) covers x in [i, i + 1].

Walls run along every room's and corridor's outline, as polylines; a doorway is a gap in them
(an open one narrowed by a short jamb of wall at each side), listed in `doors` (its two end
points, the connection it belongs to, its kind and the rooms it opens into). On the players'
geometry a hidden door is wall and not listed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from generator.model.site import Connection, Room, Site
from generator.plan import lights, shapes
from generator.plan.boxes import DOOR_KINDS, STEP

Point = tuple[float, float]
Cell = tuple[int, int]
Edge = tuple[tuple[int, int], tuple[int, int]]  # a unit wall segment between grid points

MARGIN = 2  # squares of rock drawn round a level
ENTRY_MARGIN = 4  # ... and beyond the way in, for its arrow
JAMB = 0.18  # of a square: the wall left each side of an open doorway


@dataclass(frozen=True)
class Door:
    """A doorway: a gap in the walls between two points, one square wide."""

    a: Point
    b: Point
    kind: str  # open, locked or secret
    connection: int  # index into site.connections; -1 for the way in from outside
    rooms: tuple[int, ...]  # the rooms it opens into (two for a door in a shared wall)
    side: str  # the wall (n, e, s, w) of rooms[0] it stands in

    @property
    def centre(self) -> Point:
        return ((self.a[0] + self.b[0]) / 2, (self.a[1] + self.b[1]) / 2)


@dataclass(frozen=True)
class Light:
    position: Point
    radius: float  # squares
    color: str  # ARGB hex, e.g. "ffff8a2b"
    intensity: float  # 0 to 1
    room: int
    flicker: bool = False


@dataclass(frozen=True)
class Stair:
    """One end of a way between levels."""

    cell: Cell  # picture square
    kind: str  # stairs, shaft, chute, ladder...
    leaves: bool  # True where it leaves this level ("to level 2"), False where it arrives
    other_level: int
    connection: int
    room: int
    down: bool  # whether the other end is deeper


@dataclass(frozen=True)
class RoomOutline:
    id: int
    box: tuple[int, int, int, int]  # picture x, y, w, h in squares
    shape: str
    floor: tuple[Point, ...]  # the outline as a closed ring (first point not repeated)
    cells: frozenset[Cell]  # floor squares (picture)
    inner: tuple[Cell, ...]  # squares wholly inside the drawn floor


@dataclass
class LevelGeometry:
    level: int
    origin: tuple[int, int]
    size: tuple[int, int]
    players: bool
    walls: list[list[Point]] = field(default_factory=list)
    doors: list[Door] = field(default_factory=list)
    lights: list[Light] = field(default_factory=list)
    labels: dict[int, Point] = field(default_factory=dict)  # room id -> where its number goes
    rooms: list[RoomOutline] = field(default_factory=list)
    corridors: list[list[Cell]] = field(default_factory=list)  # picture squares, path order
    ways: list[int] = field(default_factory=list)  # each corridor's index in site.connections
    stairs: list[Stair] = field(default_factory=list)
    entry: list[Cell] = field(default_factory=list)  # the way in from outside
    entry_side: str = ""  # the side of the entrance room it leaves from
    entry_out: str = ""  # the way its outer end opens to the outside (n, e, s, w)


def level_geometry(site: Site, level: int, players: bool = True) -> LevelGeometry:
    """Walls, doorways, stairs, lights and label places of one level of a planned site."""
    rooms = [r for r in site.rooms if r.level == level]
    ids = {r.id for r in rooms}
    conns = [
        (i, c)
        for i, c in enumerate(site.connections)
        if not c.levels and c.from_room in ids and c.path is not None
    ]
    levels = {r.id: r.level for r in site.rooms}
    ox, oy, width, height = _extent(rooms, conns)
    geo = LevelGeometry(level, (ox, oy), (width, height), players)

    def pic(c: Cell) -> Cell:
        return (c[0] - ox, c[1] - oy)

    space: dict[Cell, int] = {}  # picture square -> room id
    masks: dict[int, frozenset[Cell]] = {}
    for r in rooms:
        cells = frozenset(r.cells) if r.cells else None
        shape = r.shape or "rect"
        m = frozenset((r.x - ox + x, r.y - oy + y) for x, y in shapes.mask(shape, r.w, r.h, cells))
        masks[r.id] = m
        for c in m:
            space[c] = r.id
    # Doorways, as unit edges between a square inside and the square beyond.
    openings: dict[Edge, Door] = {}
    walled: set[Edge] = set()  # hidden doors on the players' map
    links: set[tuple[Cell, Cell]] = set()  # corridor squares that run into each other
    for i, c in conns:
        path = [pic(p) for p in c.path or []]
        if path:
            geo.corridors.append(path)
            geo.ways.append(i)
        for p, q in zip(path, path[1:], strict=False):
            links.add((p, q))
            links.add((q, p))
        kind_at = _door_place(c, ox, oy)
        ends = []
        if path:
            ends = [(_room_cell_at(space, path[0], c.from_room), path[0], c.from_room)]
            ends.append((_room_cell_at(space, path[-1], c.to_room), path[-1], c.to_room))
        elif kind_at is not None:
            x, y, side = kind_at
            sx, sy = STEP[side]
            here = space.get((x, y))
            ends = [((x, y), (x + sx, y + sy), here if here is not None else c.from_room)]
        for inside, outside, room in ends:
            if inside is None:
                continue
            kind = "open"
            if kind_at is not None and (kind_at[0], kind_at[1]) == inside:
                kind = DOOR_KINDS.get(c.obstacle, "open")
            edge = _edge(inside, outside)
            if kind == "secret" and players:
                walled.add(edge)
                continue
            a, b = _edge_points(inside, outside)
            other = space.get(outside)
            opens = (room,) if other is None else (room, other)
            openings[edge] = Door(a, b, kind, i, opens, _side(inside, outside))
    entrance = next((r for r in rooms if r.entrance and r.entry), None)
    if entrance is not None:
        geo.entry = [pic(p) for p in entrance.entry]
        first = geo.entry[0]
        inside = _room_cell_at(space, first, entrance.id)
        if inside is not None:
            geo.entry_side = _side(inside, first)
            a, b = _edge_points(inside, first)
            openings[_edge(inside, first)] = Door(a, b, "open", -1, (entrance.id,), geo.entry_side)
        for p, q in zip(geo.entry, geo.entry[1:], strict=False):
            links.add((p, q))
            links.add((q, p))
    geo.doors = sorted(openings.values(), key=lambda d: (d.connection, d.a, d.b))
    corridor_cells = {p for path in geo.corridors for p in path} | set(geo.entry)
    outward: set[Edge] = set()  # the way in is open to the outside
    if geo.entry and geo.entry_side:
        last = geo.entry[-1]
        geo.entry_out = _entry_out(geo.entry, geo.entry_side)
        sx, sy = STEP[geo.entry_out]
        outward.add(_edge(last, (last[0] + sx, last[1] + sy)))
    # Room walls: each room's own outline, its corners drawn to its shape.
    for r in rooms:
        m = masks[r.id]
        edges = _boundary(m)
        open_here = {e for e in edges if e in openings}
        corners = {p for e in open_here for p in e}
        geo.walls += _treated(_chain(edges - open_here), r, corners)
        ring = _chain(edges)
        floor = _treated(ring, r, corners)[0] if ring else []
        box = (r.x - ox, r.y - oy, r.w, r.h)
        inner = tuple(
            (box[0] + x, box[1] + y)
            for x, y in shapes.inner_cells(r.shape or "rect", r.w, r.h, _cells(r))
        )
        geo.rooms.append(RoomOutline(r.id, box, r.shape or "rect", tuple(floor[:-1]), m, inner))
    # Corridor walls: wherever a corridor square meets anything but its own run or a doorway.
    treated = {r.id for r in rooms if (r.shape or "rect") in ("round", "octagon", "cave")}
    cedges: set[Edge] = set()
    for p in corridor_cells:
        for dx, dy in STEP.values():
            q = (p[0] + dx, p[1] + dy)
            if (p, q) in links:
                continue
            e = _edge(p, q)
            if e in openings or e in outward:
                continue
            owner = space.get(q)
            if owner is not None and owner not in treated and e not in walled:
                continue  # the room draws this wall
            cedges.add(e)
    geo.walls += [[(float(x), float(y)) for x, y in line] for line in _chain(cedges)]
    # An open doorway keeps short jambs of wall on each side, so a room reads as a room where
    # a corridor as wide as the doorway runs into it.
    for door in geo.doors:
        if door.kind == "open":
            (ax, ay), (bx, by) = door.a, door.b
            dx, dy = (bx - ax) * JAMB, (by - ay) * JAMB
            geo.walls.append([(ax, ay), (round(ax + dx, 4), round(ay + dy, 4))])
            geo.walls.append([(bx, by), (round(bx - dx, 4), round(by - dy, 4))])
    geo.walls.sort()
    _stairs(geo, site, level, levels, pic)
    _labels(geo)
    _lights(geo, rooms)
    return geo


# --------------------------------------------------------------------------- extent


def _extent(rooms: list[Room], conns: list[tuple[int, Connection]]) -> tuple[int, int, int, int]:
    xs, ys = [], []
    for r in rooms:
        xs += [r.x, r.x + r.w]
        ys += [r.y, r.y + r.h]
        for x, y in r.entry:
            xs += [x, x + 1]
            ys += [y, y + 1]
    for _, c in conns:
        for x, y in c.path or []:
            xs += [x, x + 1]
            ys += [y, y + 1]
    if not xs:
        return (0, 0, 1, 1)
    x0, y0, x1, y1 = min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN
    entrance = next((r for r in rooms if r.entrance and r.entry), None)
    if entrance is not None:
        (ex, ey) = entrance.entry[-1]
        first = entrance.entry[0]
        inside = (
            min(max(first[0], entrance.x), entrance.x + entrance.w - 1),
            min(max(first[1], entrance.y), entrance.y + entrance.h - 1),
        )
        # Room for the arrow beyond the way in, on the side its outer end opens to.
        out = _entry_out(entrance.entry, _side(inside, first))
        if out == "w":
            x0 = min(x0, ex - ENTRY_MARGIN)
        elif out == "e":
            x1 = max(x1, ex + 1 + ENTRY_MARGIN)
        elif out == "n":
            y0 = min(y0, ey - ENTRY_MARGIN)
        else:
            y1 = max(y1, ey + 1 + ENTRY_MARGIN)
    return (x0, y0, x1 - x0, y1 - y0)


def _entry_out(entry: list[Cell], first_side: str) -> str:
    """The direction the way in runs at its outer end."""
    if len(entry) < 2:
        return first_side
    return _side(entry[-2], entry[-1])


# --------------------------------------------------------------------------- edges


def _edge(p: Cell, q: Cell) -> Edge:
    """The unit wall segment between two neighbouring squares, as two grid points."""
    a, b = _edge_points(p, q)
    pa = (int(a[0]), int(a[1]))
    pb = (int(b[0]), int(b[1]))
    return (pa, pb) if pa <= pb else (pb, pa)


def _edge_points(p: Cell, q: Cell) -> tuple[Point, Point]:
    (x, y), (x2, y2) = p, q
    if x2 == x + 1:
        return (x + 1.0, y + 0.0), (x + 1.0, y + 1.0)
    if x2 == x - 1:
        return (x + 0.0, y + 0.0), (x + 0.0, y + 1.0)
    if y2 == y + 1:
        return (x + 0.0, y + 1.0), (x + 1.0, y + 1.0)
    return (x + 0.0, y + 0.0), (x + 1.0, y + 0.0)


def _side(inside: Cell, outside: Cell) -> str:
    dx, dy = outside[0] - inside[0], outside[1] - inside[1]
    return {(0, -1): "n", (1, 0): "e", (0, 1): "s", (-1, 0): "w"}.get((dx, dy), "n")


def _boundary(cells: frozenset[Cell]) -> set[Edge]:
    out = set()
    for p in cells:
        for dx, dy in STEP.values():
            q = (p[0] + dx, p[1] + dy)
            if q not in cells:
                out.add(_edge(p, q))
    return out


def _room_cell_at(space: dict[Cell, int], outside: Cell, room: int) -> Cell | None:
    """The square of `room` beside a corridor's end square."""
    for dx, dy in STEP.values():
        q = (outside[0] + dx, outside[1] + dy)
        if space.get(q) == room:
            return q
    return None


def _door_place(c: Connection, ox: int, oy: int) -> tuple[int, int, str] | None:
    if c.door is None:
        return None
    return (c.door[0] - ox, c.door[1] - oy, c.door[2])


def _cells(r: Room) -> frozenset[Cell] | None:
    return frozenset(r.cells) if r.cells else None


def _chain(edges: set[Edge]) -> list[list[tuple[int, int]]]:
    """Unit edges joined into maximal polylines (closed loops repeat their first point),
    straight runs merged; in a fixed order, so the same plan gives the same lines."""
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for v in adj.values():
        v.sort()
    used: set[Edge] = set()
    lines: list[list[tuple[int, int]]] = []

    def walk(start: tuple[int, int], nxt: tuple[int, int]) -> list[tuple[int, int]]:
        line = [start]
        prev, cur = start, nxt
        used.add((min(prev, cur), max(prev, cur)))
        while True:
            line.append(cur)
            options = [n for n in adj[cur] if (min(cur, n), max(cur, n)) not in used]
            if len(adj[cur]) != 2 or not options:
                return line
            prev, cur = cur, options[0]
            used.add((min(prev, cur), max(prev, cur)))

    for point in sorted(adj):
        if len(adj[point]) != 2:
            for n in adj[point]:
                if (min(point, n), max(point, n)) not in used:
                    lines.append(walk(point, n))
    for point in sorted(adj):
        for n in adj[point]:
            if (min(point, n), max(point, n)) not in used:
                lines.append(walk(point, n))
    return [_straighten(line) for line in lines]


def _straighten(line: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop the points in the middle of straight runs (a closed loop keeps its first point)."""
    if len(line) < 3:
        return line
    out = [line[0]]
    for i in range(1, len(line) - 1):
        a, b, c = out[-1], line[i], line[i + 1]
        if (b[0] - a[0]) * (c[1] - b[1]) != (b[1] - a[1]) * (c[0] - b[0]):
            out.append(b)
    out.append(line[-1])
    closed = out[0] == out[-1] and len(out) > 3
    if closed:
        a, b, c = out[-2], out[0], out[1]
        if (b[0] - a[0]) * (c[1] - b[1]) == (b[1] - a[1]) * (c[0] - b[0]):
            out = out[1:-1] + [out[1]]
    return out


# --------------------------------------------------------------------------- shapes


def _treated(
    lines: list[list[tuple[int, int]]], room: Room, keep: set[tuple[int, int]]
) -> list[list[Point]]:
    """A room's outline with its corners drawn to its shape: rounded, cut or softened (never
    at a doorway's edge, where the wall must meet the door square)."""
    shape = room.shape or "rect"
    out: list[list[Point]] = []
    for line in lines:
        pts = [(float(x), float(y)) for x, y in line]
        if shape not in ("round", "octagon", "cave") or len(pts) < 3:
            out.append(pts)
            continue
        closed = line[0] == line[-1]
        core = pts[:-1] if closed else pts
        n = len(core)
        result: list[Point] = []
        for i in range(n):
            v = core[i]
            end = not closed and (i == 0 or i == n - 1)
            if end or (int(v[0]), int(v[1])) in keep:
                result.append(v)
                continue
            before, after = core[i - 1], core[(i + 1) % n]
            result += shapes.corner(before, v, after, shape, room.w, room.h)
        if closed:
            result.append(result[0])
        out.append(result)
    return out


# --------------------------------------------------------------------------- contents


def _stairs(
    geo: LevelGeometry, site: Site, level: int, levels: dict[int, int], pic: object
) -> None:
    for i, c in enumerate(site.connections):
        if not c.levels:
            continue
        for room, square, leaves, other in (
            (c.from_room, c.at, True, c.to_room),
            (c.to_room, c.to_at, False, c.from_room),
        ):
            if levels.get(room) == level and square is not None:
                cell = pic(square)  # type: ignore[operator]
                down = levels[other] > level
                geo.stairs.append(Stair(cell, c.kind, leaves, levels[other], i, room, down))


LABEL_DIGIT = 0.45  # a room number's width a digit, and its height, in squares (at 0.62)
LABEL_HEIGHT = 0.7
LABEL_CLEAR = 0.14


def _labels(geo: LevelGeometry) -> None:
    """Where each room's number goes: the point nearest the middle of its floor, on a
    half-square lattice, whose number fits on clear floor (off the walls and any stair)."""
    busy = {s.cell for s in geo.stairs}
    for room in geo.rooms:
        x, y, w, h = room.box
        floor = {c for c in room.inner if c not in busy}
        ccells = floor or {c for c in room.cells if c not in busy} or set(room.cells)
        mx = sum(c[0] + 0.5 for c in ccells) / len(ccells)
        my = sum(c[1] + 0.5 for c in ccells) / len(ccells)
        # A little clear of the walls too, where door symbols stand a little into the room.
        half_w = (LABEL_DIGIT * len(str(room.id)) + 0.1) / 2 + LABEL_CLEAR
        half_h = LABEL_HEIGHT / 2 + LABEL_CLEAR
        best = None
        for i in range(2 * w + 1):
            for j in range(2 * h + 1):
                px, py = x + i / 2, y + j / 2
                d = (px - mx) ** 2 + (py - my) ** 2
                if best is not None and d >= best[0]:
                    continue
                if _fits(px - half_w, py - half_h, px + half_w, py + half_h, floor):
                    best = (d, px, py)
        if best is None:
            c = min(ccells, key=lambda c: ((c[0] + 0.5 - mx) ** 2 + (c[1] + 0.5 - my) ** 2, c))
            geo.labels[room.id] = (c[0] + 0.5, c[1] + 0.5)
        else:
            geo.labels[room.id] = (best[1], best[2])


def _fits(x0: float, y0: float, x1: float, y1: float, floor: set[Cell]) -> bool:
    """Whether a box lies on the given squares only."""
    for cx in range(math.floor(x0), math.ceil(x1)):
        for cy in range(math.floor(y0), math.ceil(y1)):
            if (cx, cy) not in floor:
                return False
    return True


def _lights(geo: LevelGeometry, rooms: list[Room]) -> None:
    for r in rooms:
        found = lights.source(r.light)
        if found is None:
            continue
        pos = geo.labels.get(r.id, (r.x + r.w / 2, r.y + r.h / 2))
        radius = max(found.radius, (max(r.w, r.h) + 1) / 2)
        geo.lights.append(
            Light(pos, float(radius), found.color, found.intensity, r.id, found.flicker)
        )
