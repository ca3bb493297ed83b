"""The site map as SVG: numbered rooms, distinct symbols for each kind of way, a legend.

Drawn in black on white with shapes and dash patterns (no colour needed), so it prints clearly
in black and white. Room positions come from the model (the generator lays them out).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from generator.model.site import Connection, Room, Site

SQ = 13  # pixels per 10-foot square
PANEL_W, PANEL_H = 44 * SQ, 34 * SQ
MARGIN = 20
TITLE_H = 56
LEGEND_H = 92
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _panel_origin(level: int, columns: int) -> tuple[float, float]:
    col, row = (level - 1) % columns, (level - 1) // columns
    return MARGIN + col * PANEL_W + PANEL_W / 2, TITLE_H + row * PANEL_H + PANEL_H / 2


def _centre(room: Room, columns: int) -> tuple[float, float]:
    ox, oy = _panel_origin(room.level, columns)
    return ox + room.x * SQ, oy + room.y * SQ


def _edge_point(room: Room, centre: tuple[float, float], toward: tuple[float, float]) -> tuple:
    """Where the line from the room's centre toward a point leaves its rectangle."""
    cx, cy = centre
    dx, dy = toward[0] - cx, toward[1] - cy
    if dx == 0 and dy == 0:
        return centre
    hw, hh = room.w * SQ / 2, room.h * SQ / 2
    scale = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    return cx + dx * scale, cy + dy * scale


def _way(c: Connection, a: tuple, b: tuple) -> list[str]:
    (x1, y1), (x2, y2) = a, b
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    line = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
    if c.obstacle == "hidden_door":
        return [
            f'<line {line} stroke="#000" stroke-width="2" stroke-dasharray="7 4"/>',
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="7" fill="#fff" stroke="#000"/>',
            f'<text x="{mx:.1f}" y="{my + 3.5:.1f}" font-size="10" font-weight="bold" '
            f'text-anchor="middle" font-family="{FONT}">S</text>',
        ]
    if c.obstacle == "long_corridor":
        length = math.hypot(x2 - x1, y2 - y1)
        steps = max(4, int(length / 8))
        nx_, ny_ = -(y2 - y1) / (length or 1), (x2 - x1) / (length or 1)
        pts = []
        for i in range(steps + 1):
            t = i / steps
            off = 0 if i in (0, steps) else (4 if i % 2 else -4)
            pts.append(f"{x1 + (x2 - x1) * t + nx_ * off:.1f},{y1 + (y2 - y1) * t + ny_ * off:.1f}")
        return [
            f'<polyline points="{" ".join(pts)}" fill="none" stroke="#000" stroke-width="1.6"/>'
        ]
    out = [f'<line {line} stroke="#000" stroke-width="2.4"/>']
    if c.obstacle == "locked_door":
        out.append(
            f'<g transform="translate({mx:.1f},{my:.1f}) rotate({angle:.1f})">'
            '<rect x="-4" y="-8" width="8" height="16" fill="#000"/></g>'
        )
    return out


def _stair_stub(room: Room, centre: tuple, other: Room, kind: str, nth: int) -> list[str]:
    """A stairs symbol beside the room with the number of the room it leads to."""
    cx, cy = centre
    left = room.x > 0  # on the right of its panel: label on the left, so it stays on the page
    x = cx - room.w * SQ / 2 - 20 if left else cx + room.w * SQ / 2 + 4
    y = cy - room.h * SQ / 2 + 2 + nth * 16
    arrow = "down" if other.level > room.level else "up"
    anchor, tx = ("end", -3) if left else ("start", 19)
    return [
        f'<g transform="translate({x:.1f},{y:.1f})">'
        '<rect x="0" y="0" width="16" height="12" fill="#fff" stroke="#000"/>'
        + "".join(f'<line x1="{v}" y1="0" x2="{v}" y2="12" stroke="#000"/>' for v in (4, 8, 12))
        + f'<text x="{tx}" y="10" font-size="10" text-anchor="{anchor}" font-family="{FONT}">'
        f"{arrow} to {other.id} ({escape(kind)})</text></g>"
    ]


def _room(room: Room, centre: tuple[float, float]) -> list[str]:
    cx, cy = centre
    w, h = room.w * SQ, room.h * SQ
    out = [
        f'<rect x="{cx - w / 2:.1f}" y="{cy - h / 2:.1f}" width="{w}" height="{h}" '
        f'fill="#fff" stroke="#000" stroke-width="2"/>',
        f'<text x="{cx:.1f}" y="{cy + 2:.1f}" font-size="15" font-weight="bold" '
        f'text-anchor="middle" font-family="{FONT}">{room.id}</text>',
    ]
    # Markers sit in a row along the bottom edge, clear of the number.
    marks = []
    if room.monsters:
        marks.append('<circle cx="0" cy="0" r="3.5" fill="#000"/>')
    if room.hoard:
        marks.append('<path d="M0,-5 l5,5 l-5,5 l-5,-5 z" fill="#000"/>')
    if room.trap:
        marks.append('<path d="M0,-5 l5,9 l-10,0 z" fill="none" stroke="#000"/>')
    for i, mark in enumerate(marks):
        mx = cx + (i - (len(marks) - 1) / 2) * 12
        out.append(f'<g transform="translate({mx:.1f},{cy + h / 2 - 8:.1f})">{mark}</g>')
    if room.entrance:
        out.append(
            f'<line x1="{cx:.1f}" y1="{cy - h / 2 - 30:.1f}" '
            f'x2="{cx:.1f}" y2="{cy - h / 2 - 3:.1f}" '
            'stroke="#000" stroke-width="2.5" marker-end="url(#arrow)"/>'
            f'<text x="{cx + 6:.1f}" y="{cy - h / 2 - 20:.1f}" font-size="10" '
            f'font-family="{FONT}" font-weight="bold">ENTRANCE</text>'
        )
    return out


def _legend(y: float, width: float, height: float) -> list[str]:
    items = [
        ("open", '<line x1="0" y1="0" x2="30" y2="0" stroke="#000" stroke-width="2.4"/>'),
        (
            "stuck or locked door",
            '<line x1="0" y1="0" x2="30" y2="0" stroke="#000" stroke-width="2.4"/>'
            '<rect x="11" y="-8" width="8" height="16" fill="#000"/>',
        ),
        (
            "hidden door",
            '<line x1="0" y1="0" x2="30" y2="0" stroke="#000" stroke-width="2" '
            'stroke-dasharray="7 4"/>'
            '<circle cx="15" cy="0" r="7" fill="#fff" stroke="#000"/>'
            f'<text x="15" y="3.5" font-size="10" font-weight="bold" text-anchor="middle" '
            f'font-family="{FONT}">S</text>',
        ),
        (
            "very long corridor",
            '<polyline points="0,0 5,4 10,-4 15,4 20,-4 25,4 30,0" fill="none" stroke="#000" '
            'stroke-width="1.6"/>',
        ),
        (
            "way between levels",
            '<line x1="0" y1="0" x2="30" y2="0" stroke="#000" stroke-width="1.6" '
            'stroke-dasharray="2 4"/><rect x="6" y="-6" width="18" height="12" fill="#fff" '
            'stroke="#000"/><line x1="11" y1="-6" x2="11" y2="6" stroke="#000"/>'
            '<line x1="15" y1="-6" x2="15" y2="6" stroke="#000"/>'
            '<line x1="19" y1="-6" x2="19" y2="6" stroke="#000"/>',
        ),
        ("monsters", '<circle cx="15" cy="0" r="4" fill="#000"/>'),
        ("treasure", '<path d="M15,-6 l6,6 l-6,6 l-6,-6 z" fill="#000"/>'),
        ("trap", '<path d="M15,-6 l6,10 l-12,0 z" fill="none" stroke="#000"/>'),
    ]
    out = [
        f'<g transform="translate({MARGIN},{y})">',
        f'<rect x="0" y="0" width="{width - 2 * MARGIN}" height="{height - 14}" fill="#fff" '
        'stroke="#000" stroke-width="1"/>',
    ]
    per_row = 4 if width > 800 else 3
    col_w = (width - 2 * MARGIN) / per_row
    for i, (label, symbol) in enumerate(items):
        x, yy = 12 + (i % per_row) * col_w, 22 + (i // per_row) * 32
        out.append(f'<g transform="translate({x:.1f},{yy})">{symbol}</g>')
        out.append(
            f'<text x="{x + 40:.1f}" y="{yy + 4}" font-size="11" '
            f'font-family="{FONT}">{escape(label)}</text>'
        )
    out.append("</g>")
    return out


def site_svg(site: Site) -> str:
    levels = site.levels
    columns = 1 if levels == 1 else 2
    rows = math.ceil(levels / columns)
    width = 2 * MARGIN + columns * PANEL_W
    legend_h = LEGEND_H if columns > 1 else LEGEND_H + 32  # three legend rows when narrow
    height = TITLE_H + rows * PANEL_H + legend_h
    centres = {r.id: _centre(r, columns) for r in site.rooms}
    rooms = {r.id: r for r in site.rooms}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img">',
        f"<title>{escape(site.name)}: map</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#000"/>'
        "</marker></defs>",
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="{MARGIN}" y="28" font-size="20" font-weight="bold" '
        f'font-family="{FONT}">{escape(site.name)}</text>',
        f'<text x="{MARGIN}" y="46" font-size="11" font-family="{FONT}">'
        f"{escape(site.theme_name)}, party level {site.level}; one square = 10 feet; seed "
        f"{escape(site.seed)}</text>",
    ]
    if levels > 1:
        for depth in range(1, levels + 1):
            ox, oy = _panel_origin(depth, columns)
            out.append(
                f'<rect x="{ox - PANEL_W / 2 + 4:.1f}" y="{oy - PANEL_H / 2 + 4:.1f}" '
                f'width="{PANEL_W - 8}" height="{PANEL_H - 8}" fill="none" stroke="#777" '
                'stroke-dasharray="4 3"/>'
                f'<text x="{ox - PANEL_W / 2 + 12:.1f}" y="{oy - PANEL_H / 2 + 20:.1f}" '
                f'font-size="12" font-weight="bold" font-family="{FONT}">Level {depth}</text>'
            )
    stubs: dict[int, int] = {}
    for c in site.connections:
        a, b = rooms[c.from_room], rooms[c.to_room]
        if c.levels:
            # Ways between levels are marked at both ends ("to 13"), not drawn across panels.
            for here, there in ((a, b), (b, a)):
                out += _stair_stub(here, centres[here.id], there, c.kind, stubs.get(here.id, 0))
                stubs[here.id] = stubs.get(here.id, 0) + 1
            continue
        ca, cb = centres[a.id], centres[b.id]
        out += _way(c, _edge_point(a, ca, cb), _edge_point(b, cb, ca))
    for r in site.rooms:
        out += _room(r, centres[r.id])
    out += _legend(TITLE_H + rows * PANEL_H, width, legend_h)
    out.append("</svg>")
    return "\n".join(out) + "\n"
