"""Room sizes and shapes on the 10-foot grid.

A room's size in the key ("30 by 40 feet") is its bounding box in 10-foot squares (3 x 4; a
room may lie either way round on the plan). Its shape says which squares of that box are floor
and how the corners of its outline are drawn:

- ``rect``: every square, square corners.
- ``round``: every square, the four corners rounded so the outline is a circle (or an ellipse)
  with a flat doorway in the middle of each side. Needs at least 3 x 3.
- ``octagon``: every square, the four corners cut off diagonally. Needs at least 3 x 3.
- ``cross``: a plus of two arms through the middle. Needs at least 3 x 3.
- ``cave``: an irregular blob that touches all four sides of its box, its corners softened.
  Needs at least 3 x 3; its squares are stored with the plan (they are rolled).

Doors stand only where the floor meets the side of the box on a straight stretch of wall, so a
corridor always ends against a wall and never has to reach into a room's box.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from generator.engine.rng import Rng

SHAPES = ("rect", "round", "octagon", "cross", "cave")
SIDES = ("n", "e", "s", "w")
MAX_SIDE = 12  # squares: 120 feet, more than any room a key should describe
MIN_SHAPED = 3  # a shape other than rect needs at least 3 x 3 squares
CAVE_SOFTEN = 0.3  # squares cut off each corner of a cave's outline
ARC_STEPS = 6  # segments in a quarter of a round room's outline

Cell = tuple[int, int]
Point = tuple[float, float]


@lru_cache(maxsize=1024)
def squares(size: str) -> tuple[int, int]:
    """'30 by 40 feet' -> (3, 4) ten-foot squares; '20 feet across' -> (2, 2).

    Feet round to the nearest square (half up), at least 1 and at most MAX_SIDE; text with no
    number is a 30-foot room.
    """
    numbers = [int(n) for n in re.findall(r"\d{1,6}", size)][:2]
    if not numbers:
        return (3, 3)
    if len(numbers) == 1:
        numbers *= 2
    w, h = (max(1, min(MAX_SIDE, (n + 5) // 10)) for n in numbers)
    return (w, h)


def fitting(shape: str, w: int, h: int) -> str:
    """The shape a room of w x h squares can take: a shaped room too small is drawn square."""
    shape = shape if shape in SHAPES else "rect"
    if shape != "rect" and min(w, h) < MIN_SHAPED:
        return "rect"
    return shape


def octagon_cut(w: int, h: int) -> int:
    """How many squares an octagon's diagonal cuts off each corner, along each side."""
    return max(1, min(w, h) // 3)


def round_radii(w: int, h: int) -> tuple[float, float]:
    """The corner radii of a round room: the whole side but its middle doorway square(s)."""
    return ((w - 1) / 2 if w % 2 else (w - 2) / 2, (h - 1) / 2 if h % 2 else (h - 2) / 2)


def _arm(n: int) -> tuple[int, int]:
    """The first square and width of a cross's arm across a side of n squares."""
    width = n - 2 * (n // 3)
    return (n - width) // 2, width


@lru_cache(maxsize=256)
def cross_cells(w: int, h: int) -> frozenset[Cell]:
    ax, aw = _arm(w)
    ay, ah = _arm(h)
    return frozenset(
        (x, y) for x in range(w) for y in range(h) if ax <= x < ax + aw or ay <= y < ay + ah
    )


def cave_cells(w: int, h: int, rng: Rng) -> frozenset[Cell]:
    """An irregular blob filling most of its box and touching all four sides.

    Each side is eaten into by a wandering inset of at most a third of the box, so the middle
    third of every row and column stays floor (the blob is connected) and the inset is zero
    somewhere in the middle of each side (it reaches the box there).
    """

    random = rng.draw()  # (Rng.randint by hand: every cave rolls a few dozen times)

    def insets(length: int, depth: int) -> list[int]:
        out, cur = [], int(random() * (depth + 1))
        for _ in range(length):
            cur += int(random() * 3) - 1
            cur = 0 if cur < 0 else depth if cur > depth else cur
            out.append(cur)
        # Zero somewhere in the middle third, where the other sides' insets cannot reach.
        lo, hi = length // 3, length - 1 - length // 3
        at = rng.randint(lo, hi)
        for i in (at, at + 1 if at < hi else at - 1):
            out[i if i > lo else lo] = 0
        return out

    # Sides of three squares or fewer stay straight: a notch there leaves a doorway on a spur.
    dx, dy = (w - 1) // 3, (h - 1) // 3
    left, right = insets(h, dx), insets(h, dx)
    top, bottom = insets(w, dy), insets(w, dy)
    return frozenset(
        (x, y)
        for x in range(w)
        for y in range(h)
        if left[y] <= x < w - right[y] and top[x] <= y < h - bottom[x]
    )


def mask(shape: str, w: int, h: int, cells: frozenset[Cell] | None = None) -> frozenset[Cell]:
    """The floor squares of a room, relative to its box's top-left square."""
    if shape == "cross":
        return cross_cells(w, h)
    if shape == "cave" and cells:
        return cells
    return _full(w, h)


@lru_cache(maxsize=256)
def _full(w: int, h: int) -> frozenset[Cell]:
    return frozenset((x, y) for x in range(w) for y in range(h))


def side_length(side: str, w: int, h: int) -> int:
    return w if side in ("n", "s") else h


def edge_cell(side: str, offset: int, w: int, h: int) -> Cell:
    """The square of the box (relative) on `side` at `offset` along it (left to right, top to
    bottom)."""
    if side == "n":
        return (offset, 0)
    if side == "s":
        return (offset, h - 1)
    if side == "w":
        return (0, offset)
    return (w - 1, offset)


@lru_cache(maxsize=4096)  # a pure function of hashable values, asked for each box and attempt
def door_offsets(
    shape: str, w: int, h: int, side: str, cells: frozenset[Cell] | None = None
) -> tuple[int, ...]:
    """Where along `side` a door may stand: squares of floor on a straight stretch of wall."""
    n = side_length(side, w, h)
    if shape == "round":
        return (n // 2,) if n % 2 else (n // 2 - 1, n // 2)
    if shape == "octagon":
        k = octagon_cut(w, h)
        return tuple(range(k, n - k))
    if shape in ("cross", "cave"):
        floor = mask(shape, w, h, cells)
        out = tuple(i for i in range(n) if edge_cell(side, i, w, h) in floor)
        if shape == "cave":
            # Keep clear of the softened corners: a door needs floor on both sides of it.
            inner = tuple(
                i for i in out if i - 1 in out and i + 1 in out or len(out) <= 2 or n <= 2
            )
            out = inner or out
        return out
    return tuple(range(n))


def corner(before: Point, v: Point, after: Point, shape: str, w: int, h: int) -> list[Point]:
    """The points that stand for the outline's corner v (between `before` and `after`) of a
    round, octagonal or cave room of w x h squares: an arc, a cut or a softened corner. The
    drawing (geometry.py) and the squares a stair may take (`inner_cells`) both use it."""
    d1 = (_sign(v[0] - before[0]), _sign(v[1] - before[1]))
    d2 = (_sign(after[0] - v[0]), _sign(after[1] - v[1]))
    len_in = abs(v[0] - before[0]) + abs(v[1] - before[1])
    len_out = abs(after[0] - v[0]) + abs(after[1] - v[1])
    if shape == "cave":
        t1, t2 = min(CAVE_SOFTEN, len_in / 2), min(CAVE_SOFTEN, len_out / 2)
        return [(v[0] - d1[0] * t1, v[1] - d1[1] * t1), (v[0] + d2[0] * t2, v[1] + d2[1] * t2)]
    # Round and octagon rooms have only their box's four (convex) corners.
    if shape == "octagon":
        k = float(octagon_cut(w, h))
        t1, t2 = min(k, len_in), min(k, len_out)
        return [(v[0] - d1[0] * t1, v[1] - d1[1] * t1), (v[0] + d2[0] * t2, v[1] + d2[1] * t2)]
    rx, ry = round_radii(w, h)
    r1 = min(rx if d1[0] else ry, len_in)
    r2 = min(rx if d2[0] else ry, len_out)
    cx, cy = v[0] - d1[0] * r1 + d2[0] * r2, v[1] - d1[1] * r1 + d2[1] * r2
    out = []
    for k in range(ARC_STEPS + 1):
        t = (math.pi / 2) * k / ARC_STEPS
        out.append(
            (
                round(cx - d2[0] * r2 * math.cos(t) + d1[0] * r1 * math.sin(t), 4),
                round(cy - d2[1] * r2 * math.cos(t) + d1[1] * r1 * math.sin(t), 4),
            )
        )
    return out


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


@lru_cache(maxsize=256)
def _convex_outline(shape: str, w: int, h: int) -> tuple[Point, ...]:
    """A round or octagonal room's drawn outline (doorways only straighten it, never cut it)."""
    box = ((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h)))
    out: list[Point] = []
    for i in range(4):
        out += corner(box[i - 1], box[i], box[(i + 1) % 4], shape, w, h)
    return tuple(out)


def _in_convex(ring: tuple[Point, ...], px: float, py: float) -> bool:
    """Whether a point lies in a convex outline (clockwise on screen), its edge included."""
    n = len(ring)
    for i in range(n):
        (ax, ay), (bx, by) = ring[i], ring[(i + 1) % n]
        if (bx - ax) * (py - ay) - (by - ay) * (px - ax) < -1e-9:
            return False
    return True


@lru_cache(maxsize=2048)
def inner_cells(
    shape: str, w: int, h: int, cells: frozenset[Cell] | None = None
) -> tuple[Cell, ...]:
    """Floor squares wholly inside the room's drawn outline, for stairs and symbols: an icon
    on one never crosses a wall. A round room's arcs and an octagon's cuts take the squares
    they pass through; a cave's softened corners take the square at each outer corner (the
    one square of floor round that point of the outline)."""
    floor = mask(shape, w, h, cells)
    ordered = sorted(floor, key=lambda c: (c[1], c[0]))
    if shape in ("round", "octagon"):
        ring = _convex_outline(shape, w, h)
        return tuple(
            (x, y)
            for x, y in ordered
            if all(_in_convex(ring, x + fx, y + fy) for fx in (0, 1) for fy in (0, 1))
        )
    if shape == "cave":

        def outer_corner(x: int, y: int) -> bool:
            for sx in (-1, 1):
                for sy in (-1, 1):
                    if not {(x + sx, y), (x, y + sy), (x + sx, y + sy)} & floor:
                        return True
            return False

        return tuple(c for c in ordered if not outer_corner(*c))
    return tuple(ordered)
