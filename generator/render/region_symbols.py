"""The region map's drawing vocabulary: ink colours, terrain symbols, stocking icons and the
small path helpers the map and its legend share (render/region_svg.py, region_legend.py)."""

from __future__ import annotations

import math

from generator.engine import words
from generator.errors import DelveError
from generator.model.region import biome_key_problem, colour_problem

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
MARGIN = 24
TITLE_H = 54
INK = "#1e1e1e"
RIVER = "#2f6db5"
ROAD = "#5b3a1c"

# Terrain symbols, drawn for a hex of circumradius 32 and scaled; few strokes each.
SYMBOLS = {
    "grass": '<path d="M-8,4 l1.5,-5 l1.5,5 M-1.5,4 l1.5,-6 l1.5,6 M5,4 l1.5,-5 l1.5,5"/>',
    "field": '<path d="M-8,-3 h16 M-8,1 h16 M-8,5 h16" stroke-dasharray="3 1.5"/>',
    "tree": '<circle cx="0" cy="-2" r="4.5"/><path d="M0,2.5 v5"/>',
    "trees": '<path d="M-9,5 l3.5,-10 l3.5,10 z M-2,5 l3.5,-11 l3.5,11 z M5,5 l2.5,-8 l2.5,8 z" '
    'class="solid"/>',
    "hill": '<path d="M-9,5 q4.5,-9 9,0 M-1,5 q4.5,-8 9,0"/>',
    "mountain": '<path d="M-10,6 L-3,-7 L4,6 Z M1,6 L6,-2 L11,6" class="solid"/>',
    "marsh": '<path d="M-8,5 h16 M-5,1.5 h10 M-2,5 v-7 M1,5 v-8 M4,5 v-6"/>',
    "dune": '<path d="M-9,3 q4,-6 9,-1 q4,4 9,-1 M-6,7 q3,-3 7,0"/>',
    "wave": '<path d="M-9,-2 q2.25,-3 4.5,0 t4.5,0 t4.5,0 t4.5,0 M-9,4 q2.25,-3 4.5,0 t4.5,0 '
    't4.5,0 t4.5,0"/>',
    "heath": '<path d="M-7,-2 l3,3 m0,-3 l-3,3 M1,-4 l3,3 m0,-3 l-3,3 M-2,3 l3,3 m0,-3 l-3,3 '
    'M5,2 l3,3 m0,-3 l-3,3"/>',
}

# Stocking icons on a white disc (radius 8 at size 32).
ICONS = {
    "start": '<circle r="9" class="disc"/><circle r="7.5" class="ring"/>'
    '<path d="M-5,0.5 L0,-4.5 L5,0.5 V5 H-5 Z" class="open"/>'
    '<path d="M-1.3,5 v-3 h2.6 v3" class="open"/>',
    "haven": '<circle r="8" class="disc"/><path d="M-5.5,0.5 L0,-5 L5.5,0.5 V5.5 H-5.5 Z" '
    'class="open"/><path d="M-1.5,5.5 v-3.5 h3 v3.5" class="open"/>',
    "site": '<circle r="8" class="disc"/><path d="M-4.5,6 V-3.5 H-2.5 V-6 H-0.8 V-3.5 H0.8 '
    'V-6 H2.5 V-3.5 H4.5 V6 Z" class="ink"/><path d="M-1.3,6 v-3 a1.3,1.3 0 0 1 2.6,0 v3" '
    'fill="#fff"/>',
    "lair": '<circle r="8" class="disc"/><path d="M-6.5,5 A6.5,7 0 0 1 6.5,5 Z" class="ink"/>'
    '<path d="M-3.5,-1 l1.5,3 l1.5,-3 M0.5,-1 l1.5,3 l1.5,-3" fill="#fff"/>',
    "landmark": '<circle r="8" class="disc"/><path d="M0,-6.5 L1.9,-2 L6.5,-2 L2.8,1.2 '
    'L4.2,6 L0,3.2 L-4.2,6 L-2.8,1.2 L-6.5,-2 L-1.9,-2 Z" class="open"/>',
    "faction": '<path d="M0,6 V-6" class="pole"/><path d="M0.5,-6 L8,-3.5 L0.5,-1 Z" class="ink"/>',
}
ICON_NAMES = {
    "start": "starting haven",
    "haven": "safe haven",
    "site": "adventure site",
    "lair": "monster lair",
    "landmark": "landmark",
    "faction": "faction base",
}


def fmt(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def hex_path(s: float) -> str:
    pts = [
        (s * math.cos(math.radians(60 * i)), s * math.sin(math.radians(60 * i))) for i in range(6)
    ]
    return "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts) + " Z"


def wavy(points: list[tuple[float, float]], amp: float) -> str:
    """A path through the points that wiggles across each leg (two waves per hex)."""
    if len(points) < 2:
        return ""
    out = [f"M{fmt(points[0][0])},{fmt(points[0][1])}"]
    for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        quarter = [(x1 + dx * t, y1 + dy * t) for t in (0.25, 0.5, 0.75, 1.0)]
        # Two quadratic curves per leg, bending to alternate sides.
        c1 = (x1 + dx * 0.125 + nx * amp, y1 + dy * 0.125 + ny * amp)
        c2 = (x1 + dx * 0.375 - nx * amp, y1 + dy * 0.375 - ny * amp)
        c3 = (x1 + dx * 0.625 + nx * amp, y1 + dy * 0.625 + ny * amp)
        c4 = (x1 + dx * 0.875 - nx * amp, y1 + dy * 0.875 - ny * amp)
        for c, p in zip((c1, c2, c3, c4), quarter, strict=True):
            out.append(f"Q{fmt(c[0])},{fmt(c[1])} {fmt(p[0])},{fmt(p[1])}")
    return " ".join(out)


def days_text(days: float) -> str:
    if days == int(days):
        n = int(days)
        return words.count(n, "day")
    thirds = round(days * 3)
    return f"{thirds}/3 day"


def biome_fill(biome: object, mono: bool) -> str:
    """A biome's colour; in mono, white land and light grey water (the symbols tell them
    apart), so a photocopy of the map reads like the original."""
    if not mono:
        colour = biome.color  # type: ignore[attr-defined]
        wrong = colour_problem(colour)
        if wrong:  # the tables and documents are checked; this guards any other way in
            raise DelveError(f"biome {biome.key!r}: colour {wrong}")  # type: ignore[attr-defined]
        return str(colour)
    return "#fff" if biome.passable else "#dcdcdc"  # type: ignore[attr-defined]


def css_key(key: str) -> str:
    """A biome's key as the map writes it into CSS class names and ids: checked, never
    escaped into something else (the tables and documents are checked already)."""
    wrong = biome_key_problem(key)
    if wrong:
        raise DelveError(f"biome key {wrong}")
    return key
