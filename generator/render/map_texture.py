"""Corridors drawn as their description says: a stream down the middle of a wet way, a flight
of steps across a stair, rubble strewn over a fallen one.

The texture is read from the connection's description (how the way looks) with words of our
own, broad enough for a referee's own passage tables; it is ink on the floor only, so the
walls, the doorways and the Universal VTT line of sight are the same with it or without it.
Widths stay one square: a crawlway or a wide opening keeps the grid's corridor (see
docs/maps.md for why).
"""

from __future__ import annotations

import math
import re

from generator.render.map_primitives import BLACK, HATCH, Circle, Point, Poly, Primitive, Segments

Cell = tuple[int, int]

# First match wins: what a referee would draw first on the way.
TEXTURES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "water",
        re.compile(
            r"\b(?:streams?|flooded|water|culvert|channel|aqueduct|pools?|drowned"
            r"|brook|awash|wade|wading)\b",
            re.I,
        ),
    ),
    ("steps", re.compile(r"\b(?:steps|stairs?|stairway|staircase|flight|stepped)\b", re.I)),
    (
        "rubble",
        re.compile(r"\b(?:rubble|scree|fallen|toppled|collapsed?|boulders?|debris)\b", re.I),
    ),
)
LINE = 0.045  # a texture's line width, squares
WAVE = 0.11  # a stream's half swing, squares
STEPS_MAX = 3  # squares of steps at most: a flight, not a whole corridor of them


# A way that crosses over or beside something (a bridge over a gully, a ledge over a chasm)
# does not run through it.
OVER = re.compile(r"\b(?:bridge|ledge)\b", re.I)


def texture(description: str, obstacle: str = "none") -> str | None:
    """The texture a way's description asks for, or None for a plain floor. A locked or hidden
    door's description is the door's ("a wall mosaic of a bather pouring water"), not the
    corridor's: those stay plain."""
    text = description[:400]
    if obstacle not in ("none", "long_corridor") or OVER.search(text):
        return None
    return next((name for name, pattern in TEXTURES if pattern.search(text)), None)


def corridor_texture(name: str, path: list[Cell], ends: list[Point]) -> list[Primitive]:
    """A corridor's texture, drawn on its squares (picture squares, in path order). `ends`:
    the middles of its doorways, first the one by its first square (a way may lack one)."""
    if name == "water":
        return [Poly(tuple(_stream(path, ends)), width=LINE)]
    if name == "steps":
        return [Segments(tuple(_treads(path, ends)), BLACK, LINE)]
    return _rubble(path)


def _centres(path: list[Cell], ends: list[Point]) -> list[Point]:
    """The corridor's centre line, from doorway to doorway through the middle of each square."""
    pts = [(x + 0.5, y + 0.5) for x, y in path]
    first, last = path[0], path[-1]
    start = [p for p in ends if _on(first, p)][:1]
    stop = [p for p in ends if _on(last, p) and p not in start][:1]
    return start + pts + stop


def _on(cell: Cell, p: Point) -> bool:
    return cell[0] <= p[0] <= cell[0] + 1 and cell[1] <= p[1] <= cell[1] + 1


def _stream(path: list[Cell], ends: list[Point]) -> list[Point]:
    """A wavy line down the corridor's middle: whole half-waves on each straight stretch, so it
    crosses the centre line at every turn and runs on unbroken."""
    pts = _corners(_centres(path, ends))
    if len(pts) < 2:  # one square and no doorway beside it: a short line across
        x, y = pts[0]
        pts = [(x - 0.4, y), (x + 0.4, y)]
    out: list[Point] = [pts[0]]
    for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
        length = abs(bx - ax) + abs(by - ay)
        halves = max(1, round(length / 0.4))
        nx, ny = -(by - ay) / length, (bx - ax) / length  # the normal to this stretch
        steps = halves * 6
        for k in range(1, steps + 1):
            t = k / steps
            swing = WAVE * math.sin(math.pi * halves * t)
            px, py = ax + (bx - ax) * t + nx * swing, ay + (by - ay) * t + ny * swing
            out.append((round(px, 3), round(py, 3)))
    return out


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def _corners(pts: list[Point]) -> list[Point]:
    """A polyline's points with those in the middle of straight runs dropped."""
    out = [pts[0]]
    for a, b, c in zip(pts, pts[1:], pts[2:], strict=False):
        if (b[0] - a[0]) * (c[1] - b[1]) != (b[1] - a[1]) * (c[0] - b[0]):
            out.append(b)
    out.append(pts[-1])
    return out


def _treads(path: list[Cell], ends: list[Point]) -> list[tuple[Point, Point]]:
    """Treads across the squares of a straight stretch in the middle of the corridor."""
    line = _centres(path, ends)
    straight = []
    for x, y in path:
        # The way in and out of this square along the centre line (doorways included).
        at = line.index((x + 0.5, y + 0.5))
        around = line[max(0, at - 1) : at + 2]
        moves = {
            (_sign(q[0] - p[0]), _sign(q[1] - p[1]))
            for p, q in zip(around, around[1:], strict=False)
        }
        if len(moves) == 1:  # in and out the same way
            straight.append(((x, y), next(iter(moves))[0] == 0))
    if not straight:
        return []
    middle = len(straight) // 2
    first = max(0, middle - STEPS_MAX // 2)
    out = []
    for (x, y), vertical in straight[first : first + STEPS_MAX]:
        for t in (0.2, 0.4, 0.6, 0.8):
            if vertical:  # the corridor runs north and south: treads east to west
                out.append(((x + 0.14, y + t), (x + 0.86, y + t)))
            else:
                out.append(((x + t, y + 0.14), (x + t, y + 0.86)))
    return out


# Where the stones lie in a square, by a fixed pattern (the same map, the same stones).
STONES = ((0.27, 0.3, 0.07), (0.62, 0.24, 0.05), (0.45, 0.55, 0.08), (0.74, 0.7, 0.06),
          (0.3, 0.76, 0.05))  # fmt: skip


def _rubble(path: list[Cell]) -> list[Primitive]:
    out: list[Primitive] = []
    for x, y in path:
        turn = (x * 3 + y * 5) % 4  # turn the pattern square by square
        for sx, sy, r in STONES:
            for _ in range(turn):
                sx, sy = 1 - sy, sx
            out.append(Circle((x + sx, y + sy), r, fill=HATCH, stroke=None))
    return out


def legend_icon(name: str) -> list[Primitive]:
    """The legend's picture of a texture: a short piece of corridor with it on the floor."""
    walls: list[Primitive] = [
        Poly(((-0.5, -0.42), (0.5, -0.42)), width=0.08),
        Poly(((-0.5, 0.42), (0.5, 0.42)), width=0.08),
    ]
    if name == "water":
        wave = [(-0.5 + k / 12, WAVE * math.sin(math.pi * 2 * k / 12)) for k in range(13)]
        return walls + [Poly(tuple((round(x, 3), round(y, 3)) for x, y in wave), width=LINE)]
    if name == "steps":
        treads = tuple(((t, -0.34), (t, 0.34)) for t in (-0.3, -0.1, 0.1, 0.3))
        return walls + [Segments(treads, BLACK, LINE)]
    return walls + [
        Circle((sx - 0.5, sy - 0.5), r, fill=HATCH, stroke=None) for sx, sy, r in STONES
    ]
