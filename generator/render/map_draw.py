"""A site map as a list of drawing primitives, built once and painted by two small backends
(map_svg.py for SVG, map_png.py for Pillow), so the vector map and the raster map never differ.

The picture follows the old-school plan: white floor on a grid of 10-foot squares, heavy black
walls, the rock round the plan hatched in short strokes, doors in their walls (a gap, a door,
an "S" for a hidden one), stairs and shafts with the level they lead to, the entrance marked
from outside, small symbols for what the key describes, and a legend of the symbols used with a
scale bar and a compass. Everything is black, white and grey, so it photocopies.

All measures are in squares (10 feet); a backend scales them. Text sizes are squares too, never
smaller than `text_min`, so a booklet can keep every word at 6 points or more whatever the
scale it prints the map at.
"""

from __future__ import annotations

import math
from functools import lru_cache

from generator.model.site import Site
from generator.plan.geometry import Door, LevelGeometry, Stair, level_geometry
from generator.render.map_labels import Placed, entrance, room_contents, stair_label
from generator.render.map_primitives import (
    BLACK,
    GRID,
    HATCH,
    WALL,
    WHITE,
    Drawing,
    Group,
    Point,
    Poly,
    Primitive,
    Segments,
    Sizes,
    Text,
    text_width,
)
from generator.render.map_symbols import (
    LEGEND_NAMES,
    STAIR_HALF,
    STAIR_WORDS,
    door_symbol,
    legend_icon,
    stair_icon,
)
from generator.render.map_texture import corridor_texture, texture

# --------------------------------------------------------------------------- the map


def level_drawing(
    site: Site,
    level: int,
    players: bool = False,
    frame: bool = True,
    text_min: float = 0.0,
    geometry: LevelGeometry | None = None,
) -> Drawing:
    """One level's map: the plan alone (`frame=False`, for a tabletop) or with its title,
    legend, scale bar and compass."""
    geo = geometry or level_geometry(site, level, players)
    sizes = Sizes.at_least(text_min)
    used: list[str] = []
    plan: list[Primitive] = []
    placed = _plan(plan, geo, site, players, sizes, used, text_min)
    if not frame:
        d = Drawing(geo.size[0], geo.size[1], _title(site, level))
        d.items = plan
        d.map_box = (0, 0, geo.size[0], geo.size[1])
    else:
        d = _framed(site, level, geo, plan, used, sizes, players)
    d.placed = list(placed)
    return d


# Characters of a name, theme or seed a map's title lines print: a longer title would widen
# the drawing, and the booklet shrink the plan to fit it on its page.
MAX_TITLE_PART = 64


def _cut(text: str) -> str:
    """Text for the title lines, cut with '...': a drawing widens to fit them, and a booklet
    shrinks a wide map to its page, so its labels search ever more squares (an edited name or
    theme of 5,000 letters took the booklet's map over a minute)."""
    return text if len(text) <= MAX_TITLE_PART else text[: MAX_TITLE_PART - 3].rstrip() + "..."


def _title(site: Site, level: int) -> str:
    if site.levels > 1:
        return f"{_cut(site.name)}: level {level} of {site.levels}"
    return _cut(site.name)


def _plan(
    out: list[Primitive],
    geo: LevelGeometry,
    site: Site,
    players: bool,
    sizes: Sizes,
    used: list[str],
    text_min: float = 0.0,
) -> Placed:
    rooms = {r.id: r for r in site.rooms}
    floor_cells: set[tuple[int, int]] = set()
    rough: set[tuple[int, int]] = set()  # squares under a drawn curve, hatched then painted over
    for room in geo.rooms:
        floor_cells |= room.cells
        if room.shape in ("round", "octagon", "cave"):
            x, y, w, h = room.box
            rough |= {(x + i, y + j) for i in range(w) for j in range(h)}
    corridor = {c for path in geo.corridors for c in path} | set(geo.entry)
    floor_cells |= corridor
    out.append(Segments(tuple(_hatching(floor_cells, rough, geo.size)), HATCH, 0.035))
    # Floors, white over the hatching where a curved or ragged wall cuts through squares (the
    # hatching never enters any other floor square).
    for room in geo.rooms:
        if room.shape in ("round", "octagon", "cave"):
            out.append(Poly(room.floor, closed=True, fill=WHITE, stroke=None))
    out.append(Segments(tuple(_grid(geo)), GRID, 0.025))
    for path, index in zip(geo.corridors, geo.ways, strict=True):
        way = site.connections[index]
        name = texture(way.description, way.obstacle)
        if name is not None:
            ends = [d.centre for d in geo.doors if d.connection == index]
            out += corridor_texture(name, path, ends)
            _use(used, name)
    for line in geo.walls:
        out.append(Poly(tuple(line), stroke=BLACK, width=WALL))
    # An open doorway's threshold: a thin line across it closes the room's outline, so a room
    # reads as a room where a corridor runs flush with its wall, or a room is one square wide.
    sills = [(d.a, d.b) for d in geo.doors if d.kind == "open"]
    if sills:
        out.append(Segments(tuple(sills), BLACK, SILL))
    for door in geo.doors:
        if door.kind == "locked":
            out += door_symbol(door.a, door.b)
            _use(used, "door")
        elif door.kind == "secret" and not players:
            # The classic mark: the wall runs on, with an S across it.
            (cx, cy) = door.centre
            out.append(Poly((door.a, door.b), width=WALL))
            size = sizes.label * 1.15
            out.append(Text((cx, cy + size * 0.36), "S", size, True, halo=0.1))
            _use(used, "secret")
    placed = Placed()  # what is on the plan, so nothing lands on anything else
    for door in geo.doors:
        if door.kind == "locked" or (door.kind == "secret" and not players):
            # A door symbol or an S stands a little into the rooms either side.
            (cx, cy) = door.centre
            along, across = (0.4, 0.18) if door.kind == "locked" else (0.28, 0.2)
            if door.a[0] == door.b[0]:  # a doorway in a wall that runs north and south
                along, across = across, along
            placed.put(
                f"door/{door.connection}", (cx - along, cy - across, cx + along, cy + across)
            )
    symbols = [d for d in geo.doors if d.kind == "locked" or (d.kind == "secret" and not players)]
    for stair in geo.stairs:
        cx, cy, scale = _stair_spot(stair, symbols)
        r = STAIR_HALF * scale + 0.03  # the icon and its outline
        placed.put(f"stair/{stair.connection}", (cx - r, cy - r, cx + r, cy + r))
        kind = STAIR_WORDS.get(stair.kind, "stairs")
        out += stair_icon(kind, cx, cy, stair.down, scale)
        _use(used, kind)
    if not players:
        room_contents(out, geo, rooms, sizes, text_min, placed, used)
    for stair in geo.stairs:
        out += stair_label(stair, geo, sizes, placed, floor_cells)
    if geo.entry:
        out += entrance(geo, sizes, placed)
        _use(used, "entrance")
    return placed


def _stair_spot(stair: Stair, doors: list[Door]) -> tuple[float, float, float]:
    """Where a stair's icon goes and its size: the middle of its square, or (where a door
    symbol stands in the square's wall, as only a hand-edited plan has it) smaller and pushed
    away from that door, so the two never overlap."""
    x, y = stair.cell
    cx, cy = x + 0.5, y + 0.5
    dx = dy = 0.0
    for door in doors:
        px, py = door.centre
        if x <= px <= x + 1 and y <= py <= y + 1:
            dx += cx - px
            dy += cy - py
    if not dx and not dy:
        return cx, cy, 1.0
    length = math.hypot(dx, dy)
    return cx + 0.12 * dx / length, cy + 0.12 * dy / length, 0.7


def _use(used: list[str], name: str) -> None:
    if name not in used:
        used.append(name)


# --------------------------------------------------------------------------- rock and grid


SILL = 0.05  # an open doorway's threshold line, squares
HATCH_ANGLES = (0.45, 1.25, 2.05, 2.75)  # radians: four stroke directions, mixed by square


def _hatching(
    floor: set[tuple[int, int]], rough: set[tuple[int, int]], size: tuple[int, int]
) -> list[tuple[Point, Point]]:
    """Short strokes in the squares of rock that touch the plan (the old-school band): three
    to a square, their direction turning from square to square by a fixed pattern."""
    band = set(rough)
    for x, y in floor:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = (x + dx, y + dy)
                if c not in floor:
                    band.add(c)
    band -= floor - rough
    out = []
    for x, y in sorted(band):
        if not (0 <= x < size[0] and 0 <= y < size[1]):
            continue
        for (ax, ay), (bx, by) in _strokes((x * 7 + y * 11 + (x * y) % 3) % 4):
            out.append(((x + ax, y + ay), (x + bx, y + by)))
    return out


@lru_cache(maxsize=len(HATCH_ANGLES))
def _strokes(turn: int) -> tuple[tuple[Point, Point], ...]:
    """The strokes of a square of rock hatched at HATCH_ANGLES[turn], in the square's own
    coordinates (each square has one of four patterns: worked out once, then moved)."""
    angle = HATCH_ANGLES[turn]
    dx, dy = math.cos(angle), math.sin(angle)
    nx, ny = -dy, dx
    out = []
    for k in (-0.33, -0.11, 0.11, 0.33):
        seg = _clip_line((0.5 + nx * k, 0.5 + ny * k), (dx, dy), (0.06, 0.06, 0.94, 0.94))
        if seg:
            out.append(seg)
    return tuple(out)


def _clip_line(
    p: Point, d: Point, box: tuple[float, float, float, float]
) -> tuple[Point, Point] | None:
    """The part of the infinite line through p along d inside box (Liang-Barsky)."""
    x0, y0, x1, y1 = box
    t0, t1 = -10.0, 10.0
    for pv, dv, lo, hi in ((p[0], d[0], x0, x1), (p[1], d[1], y0, y1)):
        if abs(dv) < 1e-9:
            if not lo <= pv <= hi:
                return None
            continue
        a, b = (lo - pv) / dv, (hi - pv) / dv
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    if t1 - t0 < 0.15:
        return None
    return ((p[0] + d[0] * t0, p[1] + d[1] * t0), (p[0] + d[0] * t1, p[1] + d[1] * t1))


def _grid(geo: LevelGeometry) -> list[tuple[Point, Point]]:
    """The 10-foot grid, inside rooms and corridors only."""
    out: list[tuple[Point, Point]] = []
    for room in geo.rooms:
        cells = room.cells
        convex = room.shape in ("round", "octagon")
        for x, y in sorted(cells):
            for (dx, dy), seg in (
                ((1, 0), ((x + 1, y), (x + 1, y + 1))),
                ((0, 1), ((x, y + 1), (x + 1, y + 1))),
            ):
                if (x + dx, y + dy) not in cells:
                    continue
                if convex:
                    clipped = _clip_segment(seg, room.floor)
                    if clipped:
                        out.append(clipped)
                else:
                    out.append(
                        ((float(seg[0][0]), float(seg[0][1])), (float(seg[1][0]), float(seg[1][1])))
                    )
    for path in geo.corridors + ([geo.entry] if geo.entry else []):
        for (x, y), (x2, y2) in zip(path, path[1:], strict=False):
            if x2 != x:
                gx = max(x, x2)
                out.append(((float(gx), float(y)), (float(gx), y + 1.0)))
            else:
                gy = max(y, y2)
                out.append(((float(x), float(gy)), (x + 1.0, float(gy))))
    return out


def _clip_segment(
    seg: tuple[tuple[int, int], tuple[int, int]], ring: tuple[Point, ...]
) -> tuple[Point, Point] | None:
    """A grid segment cut to a convex floor outline (Cyrus-Beck)."""
    (ax, ay), (bx, by) = seg
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    n = len(ring)
    # Orientation of the ring, so each edge's inside normal points in.
    area = sum(
        ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1] for i in range(n)
    )
    sign = 1 if area > 0 else -1
    for i in range(n):
        (px, py), (qx, qy) = ring[i], ring[(i + 1) % n]
        ex, ey = qx - px, qy - py
        nx, ny = -ey * sign, ex * sign  # inward normal
        denom = nx * dx + ny * dy
        num = nx * (ax - px) + ny * (ay - py)
        if abs(denom) < 1e-12:
            if num < 0:
                return None
            continue
        t = -num / denom
        if denom > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    if t1 - t0 < 0.05:
        return None
    return (
        (round(ax + dx * t0, 3), round(ay + dy * t0, 3)),
        (round(ax + dx * t1, 3), round(ay + dy * t1, 3)),
    )


# --------------------------------------------------------------------------- the frame


def _framed(
    site: Site,
    level: int,
    geo: LevelGeometry,
    plan: list[Primitive],
    used: list[str],
    sizes: Sizes,
    players: bool,
) -> Drawing:
    """The plan with a title above, and the legend, scale bar and compass below."""
    pad = 0.6
    mw, mh = geo.size
    items = _legend_items(used)
    block = 5.0 + text_width("50 feet", sizes.legend) / 2 + 2.8  # scale bar and compass
    col_w = max([text_width(label, sizes.legend) for _, label in items] or [1.0]) + 2.0
    # As many columns as the plan's width allows beside the block, but at least two (the
    # drawing widens for them) so the legend never runs down the page.
    cols = max(1, min(len(items), int((mw - block - pad) // col_w)))
    cols = max(cols, min(2, len(items)))
    legend_rows = math.ceil(len(items) / cols) if items else 0
    row_h = max(1.0, sizes.legend * 1.9)
    width = max(mw, cols * col_w + block + 2 * pad)
    # The title and its line shrink to the drawing's width, down to the text floor; past that
    # the drawing widens for them.
    title = _title(site, level) or "Untitled"  # a blank name has no width to fit
    theme = _cut(site.theme_name)
    who = f"{theme}, party level {site.level_of(level)}" if not players else theme
    sub = f"{who}. One square is 10 feet." + ("" if players else f" Seed {_cut(site.seed)}.")
    room = width - 2 * pad
    title_size = max(sizes.floor * 1.3, min(sizes.title, room / text_width(title, 1.0, True)))
    sub_size = max(sizes.floor, min(sizes.subtitle, room / text_width(sub, 1.0)))
    width = max(width, text_width(title, title_size, True) + 2 * pad)
    width = max(width, text_width(sub, sub_size) + 2 * pad)
    title_h = title_size * 1.25 + sub_size * 1.5 + pad
    legend_h = legend_rows * row_h
    footer_h = max(legend_h, 3.0 + sizes.legend) + 2 * pad
    height = title_h + mh + footer_h
    d = Drawing(width, height, title)
    mx = (width - mw) / 2
    d.map_box = (mx, title_h, mw, mh)
    d.add(
        Poly(
            ((0, 0), (width, 0), (width, height), (0, height)), closed=True, fill=WHITE, stroke=None
        )
    )
    d.add(Text((pad, pad + title_size * 0.9), title, title_size, True, "start"))
    d.add(
        Text(
            (pad, pad + title_size * 1.25 + sub_size * 1.1),
            sub,
            sub_size,
            False,
            "start",
            italic=True,
        )
    )
    d.add(Group(mx, title_h, tuple(plan)))
    # A thin frame round the plan, so it sits on the page as a map.
    d.add(
        Poly(
            ((mx, title_h), (mx + mw, title_h), (mx + mw, title_h + mh), (mx, title_h + mh)),
            closed=True,
            stroke=BLACK,
            width=0.04,
            round=False,
        )
    )
    top = title_h + mh + pad
    for i, (name, label) in enumerate(items):
        r, c = divmod(i, cols)
        x, y = pad + c * col_w, top + r * row_h
        d.add(Group(x + 0.6, y + row_h / 2, tuple(legend_icon(name, max(0.55, sizes.floor)))))
        d.add(
            Text(
                (x + 1.4, y + row_h / 2 + sizes.legend * 0.35), label, sizes.legend, False, "start"
            )
        )
    # Scale bar and compass at the bottom right.
    sx0 = width - pad - 5.0 - 2.6
    sy0 = top + 0.6
    for k in range(5):
        box = ((sx0 + k, sy0), (sx0 + k + 1, sy0), (sx0 + k + 1, sy0 + 0.3), (sx0 + k, sy0 + 0.3))
        d.add(
            Poly(
                box,
                closed=True,
                fill=BLACK if k % 2 == 0 else WHITE,
                stroke=BLACK,
                width=0.04,
                round=False,
            )
        )
    d.add(Text((sx0, sy0 + 0.45 + sizes.legend), "0", sizes.legend, False, "middle"))
    d.add(Text((sx0 + 5, sy0 + 0.45 + sizes.legend), "50 feet", sizes.legend, False, "middle"))
    cx, cy = width - pad - 0.9, top + 1.6
    d.add(
        Poly(
            ((cx, cy - 1.2), (cx + 0.45, cy + 0.6), (cx, cy + 0.25)),
            closed=True,
            fill=BLACK,
            stroke=BLACK,
            width=0.04,
        )
    )
    d.add(
        Poly(
            ((cx, cy - 1.2), (cx - 0.45, cy + 0.6), (cx, cy + 0.25)),
            closed=True,
            fill=WHITE,
            stroke=BLACK,
            width=0.04,
        )
    )
    d.add(Text((cx, cy - 1.35), "N", sizes.legend * 1.2, True, "middle"))
    return d


def _legend_items(used: list[str]) -> list[tuple[str, str]]:
    order = [
        "entrance",
        "door",
        "secret",
        "stairs",
        "shaft",
        "ladder",
        "chute",
        "water",
        "steps",
        "rubble",
        "monsters",
        "treasure",
        "trap",
        "feature",
    ]
    return [(name, LEGEND_NAMES[name]) for name in order if name in used]
