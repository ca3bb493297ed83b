"""The region map's key: the legend of terrain and icons, the scale bar in miles and the d6
hex-side compass used for wandering (FMC Basic, Wandering)."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from generator.engine.hexes import SIDES
from generator.model.region import Region
from generator.render.region_symbols import (
    ICON_NAMES,
    INK,
    SYMBOLS,
    biome_fill,
    days_text,
    fmt,
    hex_path,
    wavy,
)


def draw_legend(
    region: Region, x0: float, y0: float, width: float, s: float, mono: bool = False, g: float = 1
) -> tuple[list[str], float]:
    """Legend, scale bar and compass for hexes of circumradius `s`, to be drawn `g` times its
    size (the scale bar is divided by `g`, so it still measures the map); the SVG and its
    height."""
    out = [f'<g transform="translate({fmt(x0)},{fmt(y0)})">']
    out.append(
        f'<rect x="0" y="0" width="{fmt(width)}" height="@H@" fill="#fff" stroke="{INK}" '
        'stroke-width="1"/>'
    )
    col_w = 200.0
    cols = max(1, int((width - 190) // col_w))
    items = legend_lines(region, s, mono)
    out.append('<text x="12" y="20" font-size="12" font-weight="bold">Legend</text>')
    for n, (icon, text) in enumerate(items):
        col, row = n % cols, n // cols
        x, y = 26 + col * col_w, 42 + row * 26
        out.append(f'<g transform="translate({fmt(x)},{fmt(y)})">{icon}</g>')
        out.append(f'<text x="{fmt(x + 20)}" y="{fmt(y + 4)}" font-size="11">{escape(text)}</text>')
    rows = (len(items) + cols - 1) // cols
    body_h = 42 + rows * 26
    bar, _ = scale_bar(region, s, g)
    out.append(f'<g transform="translate(26,{fmt(body_h + 10)})">')
    out += bar
    out.append("</g>")
    height = max(body_h + 40, 170.0)
    out += compass(width - 95, 85)
    out.append("</g>")
    out[1] = out[1].replace("@H@", fmt(height))
    return out, height


def legend_lines(region: Region, s: float, mono: bool) -> list[tuple[str, str]]:
    """The legend's lines: (drawing around (0, 0), about 24 units wide; what it means). Icons
    are <use> of the map's own definitions."""
    items: list[tuple[str, str]] = []
    terrain_days = {}
    for h in region.hexes:
        terrain_days.setdefault(h.terrain, h.travel_days)
    hs = 11.0
    hexpath = hex_path(hs)
    for key, b in region.biomes.items():
        days = days_text(terrain_days.get(key, 1))
        note = "" if b.passable else ", by boat"
        swatch = (
            f'<path d="{hexpath}" fill="{biome_fill(b, mono)}" stroke="#555" stroke-width=".6"/>'
            f'<g class="sym" transform="scale(0.6)">{SYMBOLS.get(b.symbol, "")}</g>'
        )
        items.append((swatch, f"{b.name} ({days}{note})"))
    used = {h.stocking for h in region.hexes}
    # Map icons are drawn to the hex size; the legend shows them at the campaign-map size.
    icon = f"scale({fmt(34.0 / s)})"
    for key in ("start", "haven", "site", "lair", "landmark"):
        if key in used:
            items.append((f'<use href="#i-{key}" transform="{icon}"/>', ICON_NAMES[key]))
    if region.factions:
        items.append((f'<use href="#i-faction" transform="{icon}"/>', ICON_NAMES["faction"]))
    river_d = wavy([(-12.0, 0.0), (12.0, 0.0)], 2.0)
    items.append((f'<path class="river" d="{river_d}" style="stroke-width:4"/>', "river"))
    items.append(
        ('<polyline class="road" points="-12,0 12,0" style="stroke-dasharray:6 3"/>', "road")
    )
    items.append(
        ('<polyline class="trail" points="-12,0 12,0" style="stroke-dasharray:0.1 4.5"/>', "trail")
    )
    return items


def scale_bar(
    region: Region, s: float, g: float, room: float = 1e9, below: bool = False
) -> tuple[list[str], float]:
    """Up to three hexes' width (at most `room` long), ticked at every hex (centre to centre
    across a side), with its miles beside it (or `below`); drawn `g` times its text size, its
    length divided by `g` so it measures the map."""
    out: list[str] = []
    px_per_hex = math.sqrt(3) * s / g
    spans = 3 if px_per_hex < 80 else 2  # big hexes: two spans keep the bar in the box
    spans = max(1, min(spans, int(room // px_per_hex)))
    miles = region.hex_miles
    day = "a day" if miles == 18 else "a third of a day"
    if below:
        # Small hexes: a tick every few hexes, so the figures under it never run together.
        every = max(1, math.ceil(34 / px_per_hex))
        step = every * px_per_hex
        spans = max(1, min(3, int(room // step)))
        for i in range(spans):
            fill = INK if i % 2 == 0 else "#fff"
            out.append(
                f'<rect x="{fmt(i * step)}" y="0" width="{fmt(step)}" height="6" '
                f'fill="{fill}" stroke="{INK}" stroke-width="1"/>'
            )
        for i in range(spans + 1):
            out.append(
                f'<text x="{fmt(i * step)}" y="20" font-size="10" text-anchor="middle">'
                f"{i * every * miles}{' miles' if i == spans else ''}</text>"
            )
        out.append(
            f'<text x="0" y="40" font-size="11">One hex is {miles} miles,</text>'
            f'<text x="0" y="54" font-size="11">{day} on good ground.</text>'
        )
        return out, 60.0
    for i in range(spans):
        fill = INK if i % 2 == 0 else "#fff"
        out.append(
            f'<rect x="{fmt(i * px_per_hex)}" y="0" width="{fmt(px_per_hex)}" height="6" '
            f'fill="{fill}" stroke="{INK}" stroke-width="1"/>'
        )
    for i in range(spans + 1):
        out.append(
            f'<text x="{fmt(i * px_per_hex)}" y="20" font-size="10" text-anchor="middle">'
            f"{i * miles}</text>"
        )
    out.append(
        f'<text x="{fmt(spans * px_per_hex + 14)}" y="7" font-size="11">miles (one hex = {miles} '
        f"miles, {'a day' if miles == 18 else 'a third of a day'} on good ground)</text>"
    )
    return out, 24.0


def compass(cx: float, cy: float) -> list[str]:
    """The d6 hex-side compass: 1 N, then clockwise (FMC Basic, Wandering)."""
    r = 30.0
    out = [f'<g transform="translate({fmt(cx)},{fmt(cy)})">']
    out.append(f'<path d="{hex_path(r)}" fill="#fff" stroke="{INK}" stroke-width="1.5"/>')
    apothem = r * math.sqrt(3) / 2
    for i, side in enumerate(SIDES):
        angle = math.radians(-90 + 60 * i)
        tx, ty = math.cos(angle) * (apothem - 9), math.sin(angle) * (apothem - 9)
        lx, ly = math.cos(angle) * (apothem + 10), math.sin(angle) * (apothem + 10)
        out.append(
            f'<text x="{fmt(tx)}" y="{fmt(ty + 4)}" font-size="12" font-weight="bold" '
            f'text-anchor="middle">{i + 1}</text>'
            f'<text x="{fmt(lx)}" y="{fmt(ly + 3.5)}" font-size="9" text-anchor="middle">'
            f"{side}</text>"
        )
    out.append(
        '<text x="0" y="68" font-size="10" text-anchor="middle">d6: the side to wander</text>'
    )
    out.append("</g>")
    return out
