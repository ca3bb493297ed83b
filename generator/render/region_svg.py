"""The region as an SVG hex map.

Terrain shows twice: by the biome's colour and by its symbol, so the map also reads in black
and white. Rivers are thick wavy lines, roads dashed, trails dotted; haven, site, lair and
landmark each have an icon on a white disc; a pennant marks a faction's base. Every hex has its
XXYY label. Below the map: a legend, a scale bar in miles and the d6 hex-side compass used for
wandering (FMC Basic, Wandering).

Large maps stay small on disk: the hex outline, each terrain symbol and each icon is defined once
in <defs> and placed with <use>, and colours come from CSS classes.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from generator.engine import words
from generator.engine.hexes import DIRECTIONS, center, parse_label
from generator.model.region import Region
from generator.render.region_legend import compass, draw_legend, legend_lines, scale_bar
from generator.render.region_symbols import (
    FONT,
    ICONS,
    INK,
    MARGIN,
    RIVER,
    ROAD,
    SYMBOLS,
    TITLE_H,
    biome_fill,
    css_key,
    fmt,
    hex_path,
    wavy,
)


def _size(count: int) -> float:
    """Hex circumradius in pixels: big for a starting region, smaller for campaign maps."""
    if count <= 7:
        return 72.0  # a starting region fills the page beside its legend
    if count <= 19:
        return 52.0
    if count <= 61:
        return 34.0
    if count <= 400:
        return 26.0
    return 18.0


def _off_map(
    where: dict[tuple[int, int], object], last: object, pts: list, s: float
) -> list[tuple[float, float]]:
    """A river ending on the rim runs on off the map: half a hex past the edge it crosses."""
    q, r = last.q, last.r  # type: ignore[attr-defined]
    off = [(dq, dr) for dq, dr in DIRECTIONS if (q + dq, r + dr) not in where]
    if not off or len(pts) < 2:
        return []
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    flow = math.atan2(y1 - y0, x1 - x0)

    def turn(d: tuple[int, int]) -> float:
        dx, dy = center(d[0], d[1], 1.0)
        return abs(math.remainder(math.atan2(dy, dx) - flow, 2 * math.pi))

    dq, dr = min(off, key=turn)
    dx, dy = center(dq, dr, s)
    return [(x1 + dx * 0.55, y1 + dy * 0.55)]


def _line(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


Window = tuple[int, int, int, int]  # first and last column, first and last row (0-based)

MIN_PRINT_PT = 6.5  # nothing on a printed map is smaller (the booklet's floor is 6 pt)
LABEL_SHARE = 0.27  # a hex label's size, as a share of the hex's circumradius
LABEL_MOST = 0.42  # ... and the most it may take before it no longer fits in its hex
SMALLEST_TEXT = 9.0  # the legend's smallest text, in map units at scale 1
STRIP_H = 120.0  # under a booklet's map: the scale bar and the compass


def sheet_windows(
    region: Region, fit: tuple[float, float], sheet: tuple[float, float] | None = None
) -> list[Window]:
    """The sheets a printed map needs when the whole map, fitted to `fit` (width, height in
    points), would print its hex labels under MIN_PRINT_PT: windows of columns and rows whose
    hexes print big enough to label on a sheet of `sheet` (default `fit`). Empty when the one
    map will do."""
    if _layout(region, fit, None).labels:
        return []
    fit = sheet or fit
    cols, rows = _span(region)
    # A flat-topped hex prints LABEL_SHARE of its circumradius as its label: find the widest
    # window of columns, and the tallest of rows, that leave hexes that big.
    s_pt = MIN_PRINT_PT / LABEL_SHARE
    per_col = max(1, int((fit[0] / s_pt - 0.5) / 1.5))
    per_row = max(1, int((fit[1] - 50) / (math.sqrt(3) * s_pt) - 0.5))
    spots = {parse_label(h.label) for h in region.hexes}
    while True:
        windows = [
            (c, min(c + per_col, cols) - 1, r, min(r + per_row, rows) - 1)
            for r in range(0, rows, per_row)
            for c in range(0, cols, per_col)
        ]
        # A hexagonal map leaves its corner windows empty: no sheet for those.
        windows = [
            w for w in windows if any(w[0] <= c <= w[1] and w[2] <= r <= w[3] for c, r in spots)
        ]
        full = _layout(region, fit, windows[0])  # the first window is a whole one
        if full.labels or (per_col == 1 and per_row == 1):
            return windows
        per_col, per_row = max(1, per_col - 1), max(1, per_row - 1)


def _span(region: Region) -> tuple[int, int]:
    spots = [parse_label(h.label) for h in region.hexes]
    return max(c for c, _ in spots) + 1, max(r for _, r in spots) + 1


class _Layout:
    """Where everything goes for one map or sheet, and how big its text is."""

    def __init__(
        self,
        region: Region,
        fit: tuple[float, float] | None,
        window: Window | None,
        g: float,
        legend: bool,
    ) -> None:
        self.window = window
        everything = len(region.hexes)
        if window is None:
            self.hexes = list(region.hexes)
            self.s = _size(everything)
        else:
            c0, c1, r0, r1 = window
            self.hexes = [
                h
                for h in region.hexes
                if c0 <= parse_label(h.label)[0] <= c1 and r0 <= parse_label(h.label)[1] <= r1
            ]
            self.s = 40.0
        s = self.s
        self.centres = {h.label: center(h.q, h.r, s) for h in region.hexes}
        shown = [self.centres[h.label] for h in self.hexes] or list(self.centres.values())
        xs = [c[0] for c in shown]
        ys = [c[1] for c in shown]
        half_h = s * math.sqrt(3) / 2
        self.map_w = max(xs) - min(xs) + 2 * s
        self.map_h = max(ys) - min(ys) + 2 * half_h
        self.g = g  # the title's and legend's text scale
        # Printed in a booklet (`fit`), the page's heading and caption say what the title
        # would: the map starts at the top.
        self.titled = fit is None
        self.title_h = TITLE_H * g if self.titled else 12.0
        legend_w = 680.0 if legend and window is None else 320.0 * g
        self.title, self.sub = _titles(region, window)
        # DejaVu Sans runs about 0.58 em a letter: the title lines must fit the map's width.
        title_w = max(len(self.title) * 20 * 0.58, len(self.sub) * 11 * 0.58) * g
        title_w = title_w if self.titled else 0.0
        self.width = max(self.map_w + 2 * MARGIN, legend_w + 2 * MARGIN, title_w + 2 * MARGIN)
        self.ox = (self.width - self.map_w) / 2 + s - min(xs)
        self.oy = self.title_h + half_h - min(ys)
        self.legend_y = self.title_h + self.map_h + 16
        self.legend_h = 0.0
        self.scale = 1.0
        self.label_font = max(6.0, LABEL_SHARE * s)
        self.labels = True

    def fit(self, fit: tuple[float, float] | None, legend_h: float) -> None:
        """Size the text so the map fitted to `fit` prints none of it under MIN_PRINT_PT."""
        self.legend_h = legend_h
        self.height = self.legend_y + (legend_h + MARGIN if legend_h else MARGIN)
        if fit is None:
            return
        self.scale = min(fit[0] / self.width, fit[1] / self.height)
        least = MIN_PRINT_PT / self.scale
        self.label_font = max(self.label_font, least)
        self.labels = self.label_font <= LABEL_MOST * self.s

    def at(self, label: str) -> tuple[float, float]:
        x, y = self.centres[label]
        return x + self.ox, y + self.oy


def _layout(
    region: Region, fit: tuple[float, float] | None, window: Window | None, legend: bool = False
) -> _Layout:
    """The layout whose title and legend text print at least MIN_PRINT_PT when fitted (the
    text grows the legend, which shrinks the map, so a few rounds settle it). Without the
    legend (the booklet prints it beside the map), the whole map still has its scale bar and
    compass under it."""
    g = 1.0
    for _ in range(6):
        lay = _Layout(region, fit, window, g, legend)
        legend_h = 0.0
        if window is None and legend:
            _, legend_h = draw_legend(region, 0, 0, (lay.width - 2 * MARGIN) / g, lay.s, g=g)
            legend_h *= g
        elif window is None:
            legend_h = STRIP_H * g
        lay.fit(fit, legend_h)
        if fit is None:
            return lay
        wanted = max(1.0, MIN_PRINT_PT / lay.scale / SMALLEST_TEXT)
        if wanted <= g * 1.001:
            return lay
        g = wanted
    return lay


def region_svg(
    region: Region,
    fit: tuple[float, float] | None = None,
    window: Window | None = None,
    mono: bool | None = None,
) -> str:
    """The region's hex map, with its legend, scale bar and compass.

    With `fit` (width, height in points: the box a booklet prints it in) the legend is left to
    the booklet (legend_items()) and every text is sized never to print under MIN_PRINT_PT;
    hex labels that cannot be are left out, and sheet_windows() gives the sheets that carry
    them. `window` draws one such sheet. `mono` draws it black on white (default: the
    render's print setting)."""
    if mono is None:
        from generator.render.context import mono as mono_now

        mono = mono_now()
    legend = fit is None
    lay = _layout(region, fit, window, legend)
    s = lay.s
    k = s / 32.0  # symbol scale
    at = lay.at
    width, height, g = lay.width, lay.height, lay.g
    biomes = region.biomes
    font = fmt(lay.label_font)
    river = INK if mono else RIVER
    road = INK if mono else ROAD
    css = [
        f"text{{font-family:{FONT};fill:{INK}}}",
        # The white halo is its own text under the label: WeasyPrint ignores paint-order.
        ".lab,.halo{font-size:" + font + "px;text-anchor:middle}",
        ".halo{fill:#fff;stroke:#fff;stroke-width:2.2px;stroke-linejoin:round;stroke-opacity:.85}",
        f".sym{{fill:none;stroke:{INK};stroke-width:1.2;stroke-linecap:round;"
        "stroke-linejoin:round}",
        f".sym .solid{{fill:{INK};fill-opacity:.55}}",
        ".disc{fill:#fff;fill-opacity:.9;stroke:none}",
        f".ring{{fill:none;stroke:{INK};stroke-width:1.4}}",
        f".open{{fill:#fff;stroke:{INK};stroke-width:1.3;stroke-linejoin:round}}",
        f".ink{{fill:{INK};stroke:none}}",
        f".pole{{stroke:{INK};stroke-width:1.4}}",
        ".grid{fill:none;stroke:#555;stroke-width:.6;stroke-opacity:.7}",
        f".river{{fill:none;stroke:{river};stroke-width:{fmt(0.17 * s)};stroke-linecap:round;"
        "stroke-linejoin:round}",
        f".road{{fill:none;stroke:{road};stroke-width:{fmt(max(1.6, 0.085 * s))};"
        f"stroke-dasharray:{fmt(0.38 * s)} {fmt(0.2 * s)}}}",
        f".trail{{fill:none;stroke:{road};stroke-width:{fmt(max(1.8, 0.1 * s))};"
        f"stroke-linecap:round;stroke-dasharray:0.1 {fmt(0.2 * s)}}}",
    ]
    for key, b in biomes.items():
        css.append(f".b-{css_key(key)}{{fill:{biome_fill(b, mono)}}}")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}" height="{fmt(height)}" '
        f'viewBox="0 0 {fmt(width)} {fmt(height)}">',
        f"<title>{escape(region.name)}</title>",
        "<style>" + "".join(css) + "</style>",
        "<defs>",
        f'<path id="hx" d="{hex_path(s)}"/>',
    ]
    for key, b in biomes.items():
        out.append(
            f'<g id="s-{css_key(key)}" class="sym" transform="scale({k:.3g})">'
            f"{SYMBOLS.get(b.symbol, '')}</g>"
        )
    for key, body in ICONS.items():
        out.append(f'<g id="i-{key}" transform="scale({k:.3g})">{body}</g>')
    if window is not None:  # a sheet: rivers and roads stop at its edge
        out.append(
            f'<clipPath id="frame"><rect width="{fmt(width)}" height="{fmt(height)}"/></clipPath>'
        )
    out.append("</defs>")
    out.append(f'<rect width="{fmt(width)}" height="{fmt(height)}" fill="#fff"/>')
    if lay.titled:
        out.append(
            f'<g transform="scale({g:.4g})">'
            f'<text x="{fmt(MARGIN / g)}" y="30" font-size="20" font-weight="bold">'
            f'{escape(lay.title)}</text><text x="{fmt(MARGIN / g)}" y="46" font-size="11">'
            f"{escape(lay.sub)}</text></g>"
        )
    out.append('<g clip-path="url(#frame)">' if window is not None else "<g>")
    # Terrain by colour (or, in mono, white land and grey water).
    out.append('<g class="terrain">')
    for h in lay.hexes:
        x, y = at(h.label)
        out.append(f'<use href="#hx" x="{fmt(x)}" y="{fmt(y)}" class="b-{css_key(h.terrain)}"/>')
    out.append("</g>")
    # Terrain by symbol, low in the hex.
    out.append("<g>")
    for h in lay.hexes:
        x, y = at(h.label)
        sym = f"#s-{css_key(h.terrain)}"
        out.append(f'<use href="{sym}" x="{fmt(x - 0.38 * s)}" y="{fmt(y + 0.36 * s)}"/>')
    out.append("</g>")
    out.append('<g class="grid">')
    for h in lay.hexes:
        x, y = at(h.label)
        out.append(f'<use href="#hx" x="{fmt(x)}" y="{fmt(y)}"/>')
    out.append("</g>")
    where = {(h.q, h.r): h for h in region.hexes}
    by_label = {h.label: h for h in region.hexes}
    joined = {lab for river in region.rivers for lab in river.path[:-1]}
    for river in region.rivers:
        pts = [at(lab) for lab in river.path]
        last = by_label[river.path[-1]]
        biome = biomes.get(last.terrain)
        if river.path[-1] not in joined and (biome is None or biome.passable):
            pts += _off_map(where, last, pts, s)
        out.append(
            f'<path class="river" d="{wavy(pts, 0.09 * s)}"><title>{escape(river.name)}</title>'
            "</path>"
        )
    for road in region.roads:
        pts = [at(lab) for lab in road.path]
        kind = road.kind if road.kind in ("road", "trail") else "road"
        out.append(f'<polyline class="{kind}" points="{_line(pts)}"/>')
    bases = {fa.base for fa in region.factions}
    for h in lay.hexes:
        x, y = at(h.label)
        icon = h.stocking if h.stocking in ICONS else "landmark"
        out.append(f'<use href="#i-{icon}" x="{fmt(x + 0.3 * s)}" y="{fmt(y + 0.12 * s)}"/>')
        if h.label in bases:
            out.append(f'<use href="#i-faction" x="{fmt(x - 0.52 * s)}" y="{fmt(y - 0.3 * s)}"/>')
    if lay.labels:
        for h in lay.hexes:
            x, y = at(h.label)
            xy = f'x="{fmt(x)}" y="{fmt(y - 0.56 * s)}"'
            lab = escape(h.label)
            out.append(f'<text class="halo" {xy}>{lab}</text><text class="lab" {xy}>{lab}</text>')
    out.append("</g>")
    if window is None:
        inner = (width - 2 * MARGIN) / g
        if legend:
            parts, _ = draw_legend(region, 0, 0, inner, s, mono, g)
        else:
            bar, _ = scale_bar(region, s, g, room=inner - 150, below=True)
            parts = ['<g transform="translate(8,12)">', *bar, "</g>"]
            parts += compass(inner - 60, 52)
        out.append(f'<g transform="translate({fmt(MARGIN)},{fmt(lay.legend_y)}) scale({g:.4g})">')
        out += parts
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _titles(region: Region, window: Window | None) -> tuple[str, str]:
    """The map's title and the line under it."""
    from generator.render.recipe import root_address

    n = len(region.hexes)
    if window is None:
        title = f"{region.name}: {words.count(n, 'hex')} of {region.hex_miles} miles"
        sub = (
            f"Address {root_address(region)}; the starting haven is hex {region.start}; parties "
            f"stocked from level {region.level}."
        )
        return title, sub
    c0, c1, r0, r1 = window
    title = f"{region.name}: columns {c0 + 1:02d}-{c1 + 1:02d}, rows {r0 + 1:02d}-{r1 + 1:02d}"
    return title, f"Each hex is {region.hex_miles} miles across; the legend is on the whole map."


def legend_items(region: Region, mono: bool | None = None) -> list[tuple[str, str]]:
    """The legend as (a small SVG of its own, what it means), for a booklet to print beside the
    map in its own type: each SVG carries the map's styles and definitions it uses."""
    if mono is None:
        from generator.render.context import mono as mono_now

        mono = mono_now()
    full = region_svg(region, mono=mono)
    style = full[full.index("<style>") : full.index("</style>") + len("</style>")]
    defs = full[full.index("<defs>") : full.index("</defs>") + len("</defs>")]
    out = []
    for drawing, text in legend_lines(region, _size(len(region.hexes)), mono):
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-14 -12 28 24" width="28" '
            f'height="24">{style}{defs}{drawing}</svg>'
        )
        out.append((svg, text))
    return out
