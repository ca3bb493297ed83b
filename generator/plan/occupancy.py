"""What is drawn on a level so far: its rooms and corridors, and the squares right beside them.

A corridor keeps a square of rock between itself and every room but its own two and every
other corridor. Most corridors a layout designs are one or two straight runs, and a level holds
six rooms, so the checks work on rectangles: a run against each room's box grown by a square
(its ring) and each earlier run grown by a square. The square-by-square maps the search needs
(route.py) are built only when it first asks, once a level at most.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from generator.plan.boxes import Box, Cell

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1, both corners inclusive
MAX_RECTS = 48  # rooms and runs a check walks before the square maps are cheaper (an edited level)


def run_rect(first: Cell, last: Cell) -> Rect:
    """The rectangle of a straight run from one square to another."""
    (x0, y0), (x1, y1) = first, last
    # (Compared, not min() and max(): dozens of runs a layout.)
    if x1 < x0:
        x0, x1 = x1, x0
    if y1 < y0:
        y0, y1 = y1, y0
    return (x0, y0, x1, y1)


def runs(cells: list[Cell]) -> list[Rect]:
    """The straight runs of a path as rectangles covering every square (consecutive runs share
    their turn square; a hand-drawn path that jumps makes a run of a square)."""
    out, n, i = [], len(cells), 0
    while i < n:
        (x0, y0), j = cells[i], i
        if i + 1 < n:
            dx, dy = cells[i + 1][0] - x0, cells[i + 1][1] - y0
            if abs(dx) + abs(dy) == 1:
                j += 1
                while j + 1 < n and (
                    cells[j + 1][0] - cells[j][0],
                    cells[j + 1][1] - cells[j][1],
                ) == (dx, dy):
                    j += 1
        x1, y1 = cells[j]
        if x1 < x0:
            x0, x1 = x1, x0
        if y1 < y0:
            y0, y1 = y1, y0
        out.append((x0, y0, x1, y1))
        i = j if j > i and j < n - 1 else j + 1  # the next run starts at the turn
    return out


class Occupancy:
    """The rooms and corridors of a level: as rectangles, and (built when first asked for) as
    squares: `room` (square -> room id), `near` (square of a room's ring -> the ids whose ring
    it is), `corridor` and `beside` (squares within one of a corridor, 8 ways)."""

    __slots__ = (
        "boxes", "grown", "sides", "corridor", "no_door", "bounds", "_room", "_near", "_beside",
    )  # fmt: skip

    def __init__(self, boxes: Iterable[Box]) -> None:
        # (x0, y0, x1, y1, id): the box, its far corner exclusive.
        self.boxes = [(b.x, b.y, b.x + b.w, b.y + b.h, b.id) for b in boxes]
        self.sides: list[Rect] = []  # each corridor run grown by a square all round
        self.corridor: set[Cell] = set()
        # Squares outside a wall where no corridor may begin or end: the room square inside
        # holds a way between levels (a stair in a doorway would block it).
        self.no_door: set[Cell] = set()
        self._room: dict[Cell, int] | None = None
        self._near: dict[Cell, set[int]] | None = None
        self._beside: set[Cell] | None = None
        # Each room's box with its ring (inclusive): what a ray from a wall must not meet.
        self.grown: list[Rect] = [(x0 - 1, y0 - 1, x1, y1) for x0, y0, x1, y1, _ in self.boxes]
        corners = list(zip(*self.boxes, strict=True)) or [(0,)] * 4
        self.bounds = [min(corners[0]), min(corners[1]), max(corners[2]), max(corners[3])]

    # ------------------------------------------------------------------ squares, when asked

    @property
    def room(self) -> dict[Cell, int]:
        if self._room is None:
            self._room = {}
            for x0, y0, x1, y1, i in self.boxes:
                self._room.update(dict.fromkeys(product(range(x0, x1), range(y0, y1)), i))
        return self._room

    @property
    def near(self) -> dict[Cell, set[int]]:
        if self._near is None:
            near: dict[Cell, set[int]] = {}
            for x0, y0, x1, y1, i in self.boxes:
                ring = [
                    *product(range(x0 - 1, x1 + 1), (y0 - 1, y1)),
                    *product((x0 - 1, x1), range(y0, y1)),
                ]
                # One set for the room's whole ring; a square beside two rooms gets its own.
                mine = {i}
                shared = {cell: near[cell] | mine for cell in near.keys() & ring}
                near.update(dict.fromkeys(ring, mine))
                near.update(shared)
            self._near = near
        return self._near

    @property
    def beside(self) -> set[Cell]:
        if self._beside is None:
            self._beside = set()
            for x0, y0, x1, y1 in self.sides:
                self._beside.update(product(range(x0, x1 + 1), range(y0, y1 + 1)))
        return self._beside

    def extent(self) -> Rect:
        """The squares everything drawn spans, rooms and corridors (both corners inclusive)."""
        x0, y0, x1, y1 = self.bounds
        x1, y1 = x1 - 1, y1 - 1
        for sx0, sy0, sx1, sy1 in self.sides:  # (each a run grown by a square)
            if sx0 < x0 - 1:
                x0 = sx0 + 1
            if sy0 < y0 - 1:
                y0 = sy0 + 1
            if sx1 > x1 + 1:
                x1 = sx1 - 1
            if sy1 > y1 + 1:
                y1 = sy1 - 1
        return x0, y0, x1, y1

    # ------------------------------------------------------------------ drawing and checking

    def add_path(self, path: Iterable[Cell], straight: list[Rect] | None = None) -> None:
        """Draw a corridor; `straight`: its runs, when the caller already knows them."""
        cells = list(path)
        self.corridor.update(cells)
        for x0, y0, x1, y1 in runs(cells) if straight is None else straight:
            grown = (x0 - 1, y0 - 1, x1 + 1, y1 + 1)
            self.sides.append(grown)
            if self._beside is not None:
                self._beside.update(product(range(x0 - 1, x1 + 2), range(y0 - 1, y1 + 2)))

    def blocked(self, x0: int, y0: int, x1: int, y1: int, a: int | None, b: int | None) -> bool:
        """Whether any square of the rectangle lies in a room, in a room's ring (rooms a and b
        excepted: a corridor may run along their walls), or within one of a corridor."""
        for bx0, by0, bx1, by1, i in self.boxes:
            if x0 <= bx1 and x1 >= bx0 - 1 and y0 <= by1 and y1 >= by0 - 1:  # box and ring
                if i != a and i != b:
                    return True
                if x0 < bx1 and x1 >= bx0 and y0 < by1 and y1 >= by0:  # the box itself
                    return True
        for sx0, sy0, sx1, sy1 in self.sides:
            if x0 <= sx1 and x1 >= sx0 and y0 <= sy1 and y1 >= sy0:
                return True
        return False

    def _squares(self) -> bool:
        """Whether to check square by square: the maps are built, or the level is so full of
        runs (an edited document) that building them is cheaper than walking its rectangles."""
        if self._room is not None:
            return True
        if len(self.boxes) + len(self.sides) > MAX_RECTS:
            self.room, self.near, self.beside  # noqa: B018  (built once, kept)
            return True
        return False

    def clear(self, path: list[Cell], a: int, b: int, straight: list[Rect] | None = None) -> bool:
        """Whether a path keeps off rooms and corridors with a square of rock between (rooms
        a and b, where it starts and ends, excepted). `straight`: its runs, if known."""
        if self._squares():
            room, near, corridor, beside = self.room, self.near, self.corridor, self.beside
            ends = {a, b}
            for cell in path:
                if cell in room or cell in corridor or cell in beside:
                    return False
                others = near.get(cell)
                if others and not others <= ends:
                    return False
            return True
        blocked = self.blocked
        return not any(blocked(*r, a, b) for r in (runs(path) if straight is None else straight))

    def clear_run(self, first: Cell, last: Cell, a: int, b: int) -> bool:
        """Whether the straight run of squares from `first` to `last` is clear (see `clear`)."""
        x0, y0, x1, y1 = run_rect(first, last)
        if self._squares():
            cells = list(product(range(x0, x1 + 1), range(y0, y1 + 1)))
            return self.clear(cells, a, b)
        return not self.blocked(x0, y0, x1, y1, a, b)

    def open(self, cell: Cell) -> bool:
        """Whether a square is rock with nothing drawn within one of it (no room, ring or
        corridor)."""
        if self._squares():
            drawn = self.room, self.corridor, self.beside, self.near
            return not any(cell in squares for squares in drawn)
        x, y = cell
        return not self.blocked(x, y, x, y, None, None)

    def ray(self, cell: Cell, step: Cell, extent: Rect) -> tuple[int, bool]:
        """From `cell` straight along `step`: how many open squares (see `open`) come before
        the first that is not, and whether the run leaves `extent` first (a square outside it
        counts as leaving even when it is not open)."""
        (x, y), (sx, sy) = cell, step
        ex0, ey0, ex1, ey1 = extent
        if self._squares():
            k = 0
            while True:
                x, y = x + sx, y + sy
                if not (ex0 <= x <= ex1 and ey0 <= y <= ey1):
                    return k, True
                if not self.open((x, y)):
                    return k, False
                k += 1
        # The steps (1, 2...) that lie in a span of squares along the way: [lo, hi].
        if sx:
            along, across, d = x, y, sx
            lo_out, hi_out, a0, a1 = ex0, ex1, ey0, ey1
        else:
            along, across, d = y, x, sy
            lo_out, hi_out, a0, a1 = ey0, ey1, ex0, ex1

        def steps(p0: int, p1: int) -> tuple[int, int]:
            return (p0 - along, p1 - along) if d > 0 else (along - p1, along - p0)

        # The first step outside the extent (at once, when the way runs beside it).
        first_in, last_in = steps(lo_out, hi_out)
        out = 1 if not (a0 <= across <= a1) or first_in > 1 else max(1, last_in + 1)
        hit = out
        for rx0, ry0, rx1, ry1 in [*self.grown, *self.sides]:
            if sx:
                if not ry0 <= y <= ry1:
                    continue
                lo, hi = steps(rx0, rx1)
            else:
                if not rx0 <= x <= rx1:
                    continue
                lo, hi = steps(ry0, ry1)
            k = lo if lo > 1 else 1
            if k <= hi and k < hit:
                hit = k
        return hit - 1, hit == out

    def free(self, cell: Cell) -> bool:
        """Whether a square holds neither room nor corridor."""
        if cell in self.corridor:
            return False
        if self._room is not None:
            return cell not in self._room
        x, y = cell
        return not any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1, _ in self.boxes)
