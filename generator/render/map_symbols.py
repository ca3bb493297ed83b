"""The map's symbols, drawn from primitives round a point: doors, the ends of ways between
levels, and the small marks for what the key describes. The legend draws the same ones."""

from __future__ import annotations

import math

from generator.render.map_primitives import (
    BLACK,
    WALL,
    WHITE,
    Circle,
    Point,
    Poly,
    Primitive,
    Segments,
    Text,
)

STAIR_HALF = 0.35  # an icon's half size, squares: clear of the walls round its square
STAIR_WORDS = {  # what each kind of way between levels is drawn as
    "stairs": "stairs",
    "ramp": "stairs",
    "trapdoor": "stairs",
    "shaft": "shaft",
    "well": "shaft",
    "lift": "shaft",
    "sinkhole": "shaft",
    "chain": "shaft",
    "ladder": "ladder",
    "roots": "ladder",
    "chute": "chute",
    "waterfall": "chute",
    "collapse": "chute",
    "flooded tunnel": "chute",
}
LEGEND_NAMES = {
    "door": "door",
    "secret": "hidden door",
    "stairs": "stairs",
    "shaft": "shaft or pit",
    "ladder": "ladder",
    "chute": "chute",
    "water": "water",
    "steps": "steps",
    "rubble": "rubble",
    "monsters": "monsters",
    "treasure": "treasure",
    "trap": "trap",
    "feature": "feature",
    "entrance": "entrance",
}


def door_symbol(a: Point, b: Point) -> list[Primitive]:
    """A door in its wall: a small white slab with a black edge, across the doorway."""
    (ax, ay), (bx, by) = a, b
    horizontal = ay == by
    cx, cy = (ax + bx) / 2, (ay + by) / 2
    half_l, half_t = 0.36, 0.13
    if horizontal:
        box = (
            (cx - half_l, cy - half_t),
            (cx + half_l, cy - half_t),
            (cx + half_l, cy + half_t),
            (cx - half_l, cy + half_t),
        )
    else:
        box = (
            (cx - half_t, cy - half_l),
            (cx + half_t, cy - half_l),
            (cx + half_t, cy + half_l),
            (cx - half_t, cy + half_l),
        )
    return [Poly(box, closed=True, fill=WHITE, stroke=BLACK, width=0.07, round=False)]


def stair_icon(
    kind: str, cx: float, cy: float, down: bool = True, s: float = 1.0
) -> list[Primitive]:
    h = STAIR_HALF * s
    box = ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h))
    out: list[Primitive] = [
        Poly(box, closed=True, fill=WHITE, stroke=BLACK, width=0.06, round=False)
    ]
    if kind == "shaft":
        out.append(Circle((cx, cy), h * 0.78, fill=None, stroke=BLACK, width=0.06))
        k = h * 0.55
        out.append(
            Segments(
                (((cx - k, cy - k), (cx + k, cy + k)), ((cx - k, cy + k), (cx + k, cy - k))),
                BLACK,
                0.05,
            )
        )
    elif kind == "ladder":
        out.append(
            Segments(
                (
                    ((cx - h * 0.45, cy - h), (cx - h * 0.45, cy + h)),
                    ((cx + h * 0.45, cy - h), (cx + h * 0.45, cy + h)),
                )
                + tuple(
                    ((cx - h * 0.45, cy + t * h), (cx + h * 0.45, cy + t * h))
                    for t in (-0.6, -0.2, 0.2, 0.6)
                ),
                BLACK,
                0.05,
            )
        )
    elif kind == "chute":
        out.append(
            Segments(
                tuple(((cx - h + t * h, cy - h), (cx - h, cy - h + t * h)) for t in (0.7, 1.4))
                + tuple(((cx + h, cy + h - t * h), (cx + h - t * h, cy + h)) for t in (0.7,)),
                BLACK,
                0.05,
            )
        )
        out.append(Poly(((cx - h * 0.3, cy - h * 0.3), (cx + h * 0.45, cy + h * 0.45)), width=0.07))
        out.append(
            Poly(
                ((cx + h * 0.45, cy), (cx + h * 0.45, cy + h * 0.45), (cx, cy + h * 0.45)),
                width=0.07,
            )
        )
    else:  # stairs: treads narrowing towards the bottom
        lines = []
        for i in range(5):
            t = -h + (i + 0.5) * (2 * h / 5)
            half = h * (1 - 0.55 * (i / 4)) if down else h * (0.45 + 0.55 * (i / 4))
            lines.append(((cx - half, cy + t), (cx + half, cy + t)))
        out.append(Segments(tuple(lines), BLACK, 0.06))
    return out


def mark(mark: str, x: float, y: float, s: float = 1.0) -> list[Primitive]:
    r = 0.17 * s
    if mark == "monsters":
        return [Circle((x, y), r, fill=BLACK, stroke=None)]
    if mark == "treasure":  # a chest
        w, h = r * 1.3, r * 0.95
        body = ((x - w, y - h * 0.2), (x + w, y - h * 0.2), (x + w, y + h), (x - w, y + h))
        lid = (
            (x - w, y - h * 0.2),
            (x - w, y - h * 0.7),
            (x - w * 0.6, y - h),
            (x + w * 0.6, y - h),
            (x + w, y - h * 0.7),
            (x + w, y - h * 0.2),
        )
        return [
            Poly(body, closed=True, fill=BLACK, stroke=BLACK, width=0.04, round=False),
            Poly(lid, closed=True, fill=WHITE, stroke=BLACK, width=0.05, round=False),
        ]
    if mark == "trap":  # a warning triangle
        t = ((x, y - r * 1.25), (x + r * 1.2, y + r * 0.9), (x - r * 1.2, y + r * 0.9))
        return [
            Poly(t, closed=True, fill=WHITE, stroke=BLACK, width=0.06, round=False),
            Poly(((x, y - r * 0.45), (x, y + r * 0.25)), width=0.06),
            Circle((x, y + r * 0.58), 0.03 * s, fill=BLACK, stroke=None),
        ]
    # feature: a five-pointed star
    pts = []
    for i in range(10):
        ang = -math.pi / 2 + i * math.pi / 5
        rr = r * 1.25 if i % 2 == 0 else r * 0.5
        pts.append((round(x + rr * math.cos(ang), 3), round(y + rr * math.sin(ang), 3)))
    return [Poly(tuple(pts), closed=True, fill=WHITE, stroke=BLACK, width=0.05, round=False)]


def legend_icon(name: str, letter: float = 0.55) -> list[Primitive]:
    """The legend's picture of a symbol; `letter` is the hidden door's S (never under the
    drawing's text floor)."""
    if name == "entrance":
        return [
            Poly(((-0.5, 0), (0.25, 0)), width=0.09),
            Poly(((0.2, -0.25), (0.5, 0), (0.2, 0.25)), closed=True, fill=BLACK, width=0.04),
        ]
    if name == "door":
        return [
            Poly(((-0.5, 0), (-0.36, 0)), width=WALL),
            Poly(((0.36, 0), (0.5, 0)), width=WALL),
        ] + door_symbol((-0.5, 0), (0.5, 0))
    if name == "secret":
        return [
            Poly(((-0.5, 0), (0.5, 0)), width=WALL),
            Text((0, letter * 0.4), "S", letter, True, halo=0.12),
        ]
    if name in ("stairs", "shaft", "ladder", "chute"):
        return stair_icon(name, 0, 0, True)
    if name in ("water", "steps", "rubble"):
        from generator.render import map_texture

        return map_texture.legend_icon(name)
    return mark(name, 0, 0, 1.3)
