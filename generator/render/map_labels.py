"""Where a map's words and small symbols go: room numbers, the marks for what a room holds,
the "to level 2" beside a way between levels, and the entrance's arrow and word.

Everything placed is a box (x0, y0, x1, y1) in squares on the level's picture, kept in a
`Placed` list so nothing lands on anything placed before it: door symbols and stair symbols
first, then each room's number and marks, then the stair labels, then the entrance. The list is
kept on the drawing (`Drawing.placed`), so a test can check that nothing collides.
"""

from __future__ import annotations

import math

from generator.model.site import Room
from generator.plan.geometry import LevelGeometry, RoomOutline, Stair
from generator.render.map_primitives import (
    BLACK,
    FONT_W,
    WALL,
    Point,
    Poly,
    Primitive,
    Sizes,
    Text,
    text_width,
)
from generator.render.map_symbols import mark

Box = tuple[float, float, float, float]

MARK_R = 0.3  # a mark's half size, squares, at scale 1
STAIR_PAD = 0.08  # clear floor kept round a stair label (its halo included) inside its room
ROCK_PAD = 0.2  # ... and clear of any floor (and so of its walls) when it stands on the rock
ROCK_COST = 0.7  # squares of distance a label on the rock is worth less than one in its room
REACH = 3.0  # squares from its symbol a stair label may stand
HALO = 0.12  # the white outline round a stair label's letters, squares
NUDGES = (0.0, 0.12, -0.12, 0.22, -0.22)  # squares a number may stand off a square's middle
STACKED_COST = 1.0  # squares of distance a label on one line is worth more than on two


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Placed(list):  # type: ignore[type-arg]
    """What is already on the plan: (what, box) pairs."""

    def free(self, box: Box) -> bool:
        return not any(overlap(box, b) for _, b in self)

    def put(self, what: str, box: Box) -> None:
        self.append((what, box))


def cells_under(box: Box) -> list[tuple[int, int]]:
    return [
        (cx, cy)
        for cx in range(math.floor(box[0]), math.ceil(box[2]))
        for cy in range(math.floor(box[1]), math.ceil(box[3]))
    ]


def grow(box: Box, pad: float) -> Box:
    return (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)


def _apart(box: Box, square_box: tuple[int, int, int, int]) -> float:
    """How far a box lies from a room's box (x, y, w, h), in squares (0 where they meet)."""
    x, y, w, h = square_box
    dx = max(x - box[2], box[0] - x - w, 0.0)
    dy = max(y - box[3], box[1] - y - h, 0.0)
    return math.hypot(dx, dy)


class SquareCount:
    """How many of a set of squares lie under a box, in constant time (prefix sums over a
    window of the plan; squares outside the window count as none)."""

    def __init__(self, cells: set[tuple[int, int]], window: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = window
        self.x0, self.y0, self.w, self.h = x0, y0, x1 - x0, y1 - y0
        rows = [[0] * (self.w + 1) for _ in range(self.h + 1)]
        for cx, cy in cells:
            if x0 <= cx < x1 and y0 <= cy < y1:
                rows[cy - y0 + 1][cx - x0 + 1] = 1
        for j in range(1, self.h + 1):
            row, above = rows[j], rows[j - 1]
            run = 0
            for i in range(1, self.w + 1):
                run += row[i]
                row[i] = above[i] + run
        self.sums = rows

    def under(self, box: Box) -> tuple[int, int]:
        """(squares of the set, squares in all) under the box."""
        w, h = self.w, self.h
        i0, j0 = math.floor(box[0]) - self.x0, math.floor(box[1]) - self.y0
        i1, j1 = math.ceil(box[2]) - self.x0, math.ceil(box[3]) - self.y0
        area = (i1 - i0) * (j1 - j0)
        # Clamped into the window (written out: a label's search asks this thousands of times).
        i0 = 0 if i0 < 0 else w if i0 > w else i0
        i1 = 0 if i1 < 0 else w if i1 > w else i1
        j0 = 0 if j0 < 0 else h if j0 > h else j0
        j1 = 0 if j1 < 0 else h if j1 > h else j1
        s = self.sums
        return s[j1][i1] - s[j0][i1] - s[j1][i0] + s[j0][i0], area


# --------------------------------------------------------------------------- room numbers


def number_box(at: Point, text: str, size: float) -> Box:
    """The number's digits (0.73 of an em tall) centred on `at`, with a little to spare."""
    tw = text_width(text, size, True)
    return (at[0] - tw / 2, at[1] - size * 0.4, at[0] + tw / 2, at[1] + size * 0.4)


def number_size(room: RoomOutline, text: str, sizes: Sizes, text_min: float) -> float:
    """A room's number, smaller in a room too narrow for it (never below the text floor)."""
    fit = (room.box[2] - WALL - 0.1) / (len(text) * (FONT_W + 0.12))
    return max(text_min, min(sizes.number, fit))


def marks_of(room: Room) -> list[str]:
    out = []
    if room.monsters:
        out.append("monsters")
    if room.hoard:
        out.append("treasure")
    if room.trap:
        out.append("trap")
    if room.feature:
        out.append("feature")
    return out


def _fits_floor(box: Box, floor: set[tuple[int, int]]) -> bool:
    return all(c in floor for c in cells_under(box))


def _within(room: RoomOutline, box: Box) -> bool:
    """Whether a box lies inside a room's drawn outline (a round room's arcs, a cave's
    softened corners)."""
    if room.shape in ("rect", "cross"):
        return True
    return all(_in_ring(room.floor, (x, y)) for x in (box[0], box[2]) for y in (box[1], box[3]))


def _in_ring(ring: tuple[Point, ...], p: Point) -> bool:
    """Even-odd: whether a point lies inside a closed outline."""
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _spots(
    room: RoomOutline, label: Point, others: Placed, count: int, size: float
) -> tuple[list[Point], float, Point]:
    """Places for a room's marks, nearest its number: (points, scale, where the number goes).

    The number stays where the plan put it if nothing is there, else it moves to the middle of
    the nearest floor square that is clear. Whole squares free of everything take the marks
    first; a room too small for them moves its number to a square of its own to free the rest
    (a 1 x 2 room holds its number in one square and its marks in the other); then two marks to
    a square, smaller; at the last one square holds the number with the marks in a row under
    it."""
    text = str(room.id)
    cells = list(room.inner)

    def square(c: tuple[int, int]) -> Box:
        return (c[0] + 0.2, c[1] + 0.2, c[0] + 0.8, c[1] + 0.8)

    if sum(1 for c in cells if others.free(square(c))) <= count:
        # Stairs take the inner floor of a small cave or round room: the squares its outline
        # cuts at a corner still hold a mark or the number in their middle.
        cells += [c for c in sorted(room.cells) if c not in room.inner and _within(room, square(c))]
    cells = cells or sorted(room.cells)

    def clear(at: Point) -> bool:
        box = number_box(at, text, size)
        big = grow(box, 0.05)
        return _fits_floor(big, set(room.cells)) and _within(room, big) and others.free(box)

    def near(p: Point) -> tuple[float, Point]:
        return ((p[0] - label[0]) ** 2 + (p[1] - label[1]) ** 2, p)

    middles = sorted(((cx + 0.5, cy + 0.5) for cx, cy in cells), key=near)
    if clear(label):
        if not count:
            return [], 1.0, label
        homes = [label]
    else:
        # The middle of a clear square; in a crowded closet, a little off it (between a door's
        # symbol standing into the room and a stair's).
        nudged = sorted(
            ((mx + dx, my + dy) for mx, my in middles for dx in NUDGES for dy in NUDGES),
            key=near,
        )
        homes = [at for at in middles if clear(at)] or [at for at in nudged if clear(at)]
        homes = homes or [label]
        if not count:
            return [], 1.0, homes[0]

    def spots(at: Point, boxes: list[tuple[Point, Box]]) -> list[Point]:
        taken = number_box(at, text, size)
        out = [p for p, box in boxes if not overlap(box, taken)]
        return sorted(out, key=lambda p: ((p[0] - at[0]) ** 2 + (p[1] - at[1]) ** 2, p))

    whole = [((cx + 0.5, cy + 0.5), (cx + 0.2, cy + 0.2, cx + 0.8, cy + 0.8)) for cx, cy in cells]
    halves = [
        ((cx + hx, cy + 0.5), (cx + hx - 0.2, cy + 0.3, cx + hx + 0.2, cy + 0.7))
        for cx, cy in cells
        for hx in (0.27, 0.73)
    ]
    for boxes, scale in ((whole, 1.0), (halves, 0.65)):
        boxes = [(p, box) for p, box in boxes if others.free(box)]  # what is placed stays put
        for at in homes:
            found = spots(at, boxes)
            if len(found) >= count:
                return found[:count], scale, at
            if at is homes[-1] and homes[0] is label and len(homes) == 1:
                # The number where the plan put it leaves too little: try the other squares.
                homes += [m for m in middles if m != label and clear(m)]
    # One square for all: the number in its upper part, the marks side by side below it.
    free = [m for m in middles if others.free((m[0] - 0.4, m[1] - 0.4, m[0] + 0.4, m[1] + 0.4))]
    cx, cy = (free or middles or [label])[0]
    step = min(0.3, 0.78 / count)
    row = [(cx + step * (i - (count - 1) / 2), cy + 0.27) for i in range(count)]
    return row, min(0.45, step / (2 * MARK_R)), (cx, cy - 0.14)


def room_contents(
    out: list[Primitive],
    geo: LevelGeometry,
    rooms: dict[int, Room],
    sizes: Sizes,
    text_min: float,
    placed: Placed,
    used: list[str],
) -> None:
    """Every room's number and the marks for its monsters, treasure, trap and feature."""
    labels = dict(geo.labels)
    size = {r.id: number_size(r, str(r.id), sizes, text_min) for r in geo.rooms}
    for room in geo.rooms:
        if room.id in labels:
            placed.put(
                f"number/{room.id}", number_box(labels[room.id], str(room.id), size[room.id])
            )
    for room in geo.rooms:
        if room.id not in labels:
            continue
        marks = marks_of(rooms[room.id])
        mine = (f"number/{room.id}", number_box(labels[room.id], str(room.id), size[room.id]))
        placed.remove(mine)
        spots, scale, labels[room.id] = _spots(
            room, labels[room.id], placed, len(marks), size[room.id]
        )
        placed.put(mine[0], number_box(labels[room.id], str(room.id), size[room.id]))
        for name, (mx, my) in zip(marks, spots, strict=False):
            out += mark(name, mx, my, scale)
            if name not in used:
                used.append(name)
            r = MARK_R * scale
            placed.put(f"mark/{room.id}/{name}", (mx - r, my - r, mx + r, my + r))
    for room in geo.rooms:
        if room.id in labels:
            lx, ly = labels[room.id]
            n = size[room.id]
            # A thin halo: it clears the grid under the number, never a wall.
            out.append(Text((lx, ly + n * 0.36), str(room.id), n, True, halo=0.05))


# --------------------------------------------------------------------------- ways between levels


def stair_label(
    stair: Stair,
    geo: LevelGeometry,
    sizes: Sizes,
    placed: Placed,
    floor: set[tuple[int, int]],
) -> list[Primitive]:
    """'to level 2' beside a way down, 'from level 1' beside its foot: as near its symbol as
    it fits, on its room's floor or, a little further off, on the rock outside; never on a
    wall, another room or a corridor, never on anything placed before it."""
    text = f"{'to' if stair.leaves else 'from'} level {stair.other_level}"
    size = sizes.label
    # One line, or stacked on two ("from" over "level 2", which fits a room three squares
    # wide) where that stands much nearer its symbol: a label across the room from its stair
    # reads as another's. Else, never seen, over whatever is there.
    best: tuple[float, Box, list[str]] | None = None
    for lines, worse in (([text], 0.0), (text.split(" ", 1), STACKED_COST)):
        # The stacked label need only be looked for where it could still win.
        limit = math.inf if best is None else best[0] - worse
        if limit <= 0:
            break
        found = _stair_label_box(stair, geo, size, lines, placed, floor, limit)
        if found is not None and (best is None or found[0] + worse < best[0]):
            best = (found[0] + worse, found[1], lines)
    if best is None:
        lines = [text]
        x, y = stair.cell
        box = _label_box(x + 1.1, y + 0.5, text_width(text, size), size, 1)
    else:
        _, box, lines = best
    placed.put(f"stair-label/{stair.connection}", box)
    left, centre = box[0] + HALO, (box[1] + box[3]) / 2
    first = centre + size * 0.35 - (len(lines) - 1) * size * LINE / 2
    return [
        Text((left, first + j * size * LINE), line, size, False, "start", halo=HALO, italic=True)
        for j, line in enumerate(lines)
    ]


LINE = 1.0  # a stacked stair label's line spacing, in text sizes


def _label_box(left: float, mid: float, tw: float, size: float, lines: int) -> Box:
    """The letters of a label and the white halo round them, which would erase what it
    covers; `mid` is the middle of a one-line label, and extra lines grow it both ways."""
    extra = (lines - 1) * size * LINE / 2
    return (
        left - HALO,
        mid - size * 0.5 - HALO - extra,
        left + tw + HALO,
        mid + size * 0.4 + HALO + extra,
    )


def _stair_label_box(
    stair: Stair,
    geo: LevelGeometry,
    size: float,
    lines: list[str],
    placed: Placed,
    floor: set[tuple[int, int]],
    limit: float = math.inf,
) -> tuple[float, Box] | None:
    """The best clear place for a stair label of these lines and its score (its distance from
    the symbol, more on the rock), or None; only a place scoring under `limit` counts."""
    tw = max(text_width(line, size) for line in lines)
    x, y = stair.cell
    room = next((r for r in geo.rooms if r.id == stair.room), None)
    inner = set(room.inner) if room is not None else set()
    others = [r for r in geo.rooms if r is not room]
    cell = (float(x), float(y), x + 1.0, y + 1.0)

    def box_at(left: float, mid: float) -> Box:
        return _label_box(left, mid, tw, size, len(lines))

    w, h = geo.size
    best: tuple[float, Box] | None = None
    # Near first: most labels find their place within a square and a half; the search goes
    # further only while something further off could still do better.
    prev = -1.0
    counts: tuple[SquareCount, SquareCount] | None = None
    for reach in (REACH / 2, REACH, 2 * REACH):
        if (best is not None and best[0] <= prev) or limit <= prev:
            break
        rows = round(2 * reach) + 1
        area = (
            x - reach - tw - 0.2,
            y - reach - size,
            x + 1 + reach + tw + 0.2,
            y + 1 + reach + size,
        )
        near = Placed(p for p in placed if overlap(p[1], area))
        if counts is None:
            # Counted once, over the widest reach's window: a nearer reach's boxes lie inside it.
            wide = 2 * REACH
            window = (
                math.floor(x - wide - tw - 0.2) - 1,
                math.floor(y - wide - size) - 1,
                math.ceil(x + 1 + wide + tw + 0.2) + 1,
                math.ceil(y + 1 + wide + size) + 1,
            )
            counts = SquareCount(floor, window), SquareCount(inner, window)
        on_floor, in_room = counts
        candidates = []
        lefts = [x + 1.1 + j * 0.5 for j in range(rows)]  # to the right of the symbol
        lefts += [x - 0.1 - tw - j * 0.5 for j in range(rows)]  # to its left
        lefts += [x + 0.5 - tw / 2 + j * 0.5 for j in range(-rows, rows + 1)]  # over, under
        # How far each left edge lies from the symbol's square, sideways (the gap of a box).
        across = [(left, max(x - left - tw - HALO, left - HALO - x - 1, 0.0)) for left in lefts]
        for k in range(-rows, rows + 1):
            mid = y + 0.5 + k * 0.5
            down = max(y - mid - size * 0.4 - HALO, mid - size * 0.5 - HALO - y - 1, 0.0)
            if down > reach:
                continue
            ak, hypot = abs(k), math.hypot
            candidates += [
                (d, ak, left, mid)
                for left, side in across
                if side <= reach and prev < (d := hypot(side, down)) <= reach
            ]
        # (Boxes are made as the search reaches them: it mostly stops after a few.)
        candidates.sort(key=lambda c: c[:3])
        for d, _k, left, mid in candidates:
            if (best is not None and d >= best[0]) or d >= limit:
                break  # sorted by distance: nothing further on can do better
            box = box_at(left, mid)
            if overlap(box, cell):
                continue
            if box[0] < 0.1 or box[1] < 0.1 or box[2] > w - 0.1 or box[3] > h - 0.1:
                continue
            mine, squares = in_room.under(grow(box, STAIR_PAD))
            if mine == squares:
                score = d
            elif d + ROCK_COST >= min(limit, best[0] if best is not None else limit):
                continue  # on the rock it could not do better than what is found
            elif on_floor.under(grow(box, ROCK_PAD))[0] == 0:
                # On the rock, and nearer its own room than any other, so it reads as its own.
                score = d + ROCK_COST
                if room is not None and any(
                    _apart(box, other.box) < _apart(box, room.box) for other in others
                ):
                    score += ROCK_COST
            else:
                continue
            if (best is None or score < best[0]) and score < limit and near.free(box):
                best = (score, box)
        prev = reach
    return best


# --------------------------------------------------------------------------- the way in


def entrance(geo: LevelGeometry, sizes: Sizes, placed: Placed) -> list[Primitive]:
    """An arrow from outside the plan pointing down the way in, and the word."""
    from generator.plan.boxes import STEP

    last = geo.entry[-1]
    sx, sy = STEP[geo.entry_out or geo.entry_side]
    # The arrow runs towards the room: from beyond the passage's open end to just inside it.
    ex, ey = last[0] + 0.5 + sx * 0.5, last[1] + 0.5 + sy * 0.5  # the open end
    tail = (ex + sx * 2.6, ey + sy * 2.6)
    tip = (ex - sx * 0.15, ey - sy * 0.15)
    head = 0.38
    px, py = -sy, sx
    wing1 = (tip[0] + sx * head + px * head * 0.7, tip[1] + sy * head + py * head * 0.7)
    wing2 = (tip[0] + sx * head - px * head * 0.7, tip[1] + sy * head - py * head * 0.7)
    out: list[Primitive] = [
        Poly((tail, (tip[0] + sx * 0.2, tip[1] + sy * 0.2)), width=0.09),
        Poly((wing1, tip, wing2), closed=True, fill=BLACK, stroke=BLACK, width=0.04),
    ]
    size = sizes.label * 1.05
    word = "Entrance"
    tw = text_width(word, size, True)
    # The word beside the arrow's shaft (right or left of a vertical one, above or below a
    # level one), on whichever side is clear of everything placed and of the plan's floor.
    mx, my = (tail[0] + ex) / 2, (tail[1] + ey) / 2
    spots = []
    # Beside the middle of the shaft first; then further out along it, where a label of the
    # plan (a stair's "to level 2") is less likely to stand.
    for along in (0.0, 1.3):
        cx, cy = mx + sx * along, my + sy * along
        if sx == 0:
            spots += [(cx + 0.35, cy), (cx - 0.35 - tw, cy)]
        else:
            spots += [
                (cx - tw / 2, cy - 0.25 - size * 0.45),
                (cx - tw / 2, cy + 0.25 + size * 0.45),
            ]
    boxes = [(left, mid - size * 0.5, left + tw, mid + size * 0.45) for left, mid in spots]
    floor = {c for r in geo.rooms for c in r.cells} | {c for p in geo.corridors for c in p}
    clear = [
        b
        for b in boxes
        if placed.free(b) and not any(c in floor for c in cells_under(grow(b, 0.1)))
    ]
    box = (clear or boxes)[0]
    mid = (box[1] + box[3]) / 2
    out.append(Text((box[0], mid + size * 0.35), word, size, True, "start", halo=0.12))
    placed.put("entrance", box)
    return out
