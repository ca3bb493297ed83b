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
from generator.engine.hexes import DIRECTIONS, SIDES, center, parse_label
from generator.model.region import Region

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


def _f(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _hex_path(s: float) -> str:
    pts = [
        (s * math.cos(math.radians(60 * i)), s * math.sin(math.radians(60 * i))) for i in range(6)
    ]
    return "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in pts) + " Z"


def _wavy(points: list[tuple[float, float]], amp: float) -> str:
    """A path through the points that wiggles across each leg (two waves per hex)."""
    if len(points) < 2:
        return ""
    out = [f"M{_f(points[0][0])},{_f(points[0][1])}"]
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
            out.append(f"Q{_f(c[0])},{_f(c[1])} {_f(p[0])},{_f(p[1])}")
    return " ".join(out)


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
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _days(days: float) -> str:
    if days == int(days):
        n = int(days)
        return words.count(n, "day")
    thirds = round(days * 3)
    return f"{thirds}/3 day"


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
            _, legend_h = _legend(region, 0, 0, (lay.width - 2 * MARGIN) / g, lay.s, g=g)
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
    font = _f(lay.label_font)
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
        f".river{{fill:none;stroke:{river};stroke-width:{_f(0.17 * s)};stroke-linecap:round;"
        "stroke-linejoin:round}",
        f".road{{fill:none;stroke:{road};stroke-width:{_f(max(1.6, 0.085 * s))};"
        f"stroke-dasharray:{_f(0.38 * s)} {_f(0.2 * s)}}}",
        f".trail{{fill:none;stroke:{road};stroke-width:{_f(max(1.8, 0.1 * s))};"
        f"stroke-linecap:round;stroke-dasharray:0.1 {_f(0.2 * s)}}}",
    ]
    for key, b in biomes.items():
        css.append(f".b-{key}{{fill:{_fill(b, mono)}}}")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}">',
        f"<title>{escape(region.name)}</title>",
        "<style>" + "".join(css) + "</style>",
        "<defs>",
        f'<path id="hx" d="{_hex_path(s)}"/>',
    ]
    for key, b in biomes.items():
        out.append(
            f'<g id="s-{key}" class="sym" transform="scale({k:.3g})">'
            f"{SYMBOLS.get(b.symbol, '')}</g>"
        )
    for key, body in ICONS.items():
        out.append(f'<g id="i-{key}" transform="scale({k:.3g})">{body}</g>')
    if window is not None:  # a sheet: rivers and roads stop at its edge
        out.append(
            f'<clipPath id="frame"><rect width="{_f(width)}" height="{_f(height)}"/></clipPath>'
        )
    out.append("</defs>")
    out.append(f'<rect width="{_f(width)}" height="{_f(height)}" fill="#fff"/>')
    if lay.titled:
        out.append(
            f'<g transform="scale({g:.4g})">'
            f'<text x="{_f(MARGIN / g)}" y="30" font-size="20" font-weight="bold">'
            f'{escape(lay.title)}</text><text x="{_f(MARGIN / g)}" y="46" font-size="11">'
            f"{escape(lay.sub)}</text></g>"
        )
    out.append('<g clip-path="url(#frame)">' if window is not None else "<g>")
    # Terrain by colour (or, in mono, white land and grey water).
    out.append('<g class="terrain">')
    for h in lay.hexes:
        x, y = at(h.label)
        out.append(f'<use href="#hx" x="{_f(x)}" y="{_f(y)}" class="b-{h.terrain}"/>')
    out.append("</g>")
    # Terrain by symbol, low in the hex.
    out.append("<g>")
    for h in lay.hexes:
        x, y = at(h.label)
        out.append(f'<use href="#s-{h.terrain}" x="{_f(x - 0.38 * s)}" y="{_f(y + 0.36 * s)}"/>')
    out.append("</g>")
    out.append('<g class="grid">')
    for h in lay.hexes:
        x, y = at(h.label)
        out.append(f'<use href="#hx" x="{_f(x)}" y="{_f(y)}"/>')
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
            f'<path class="river" d="{_wavy(pts, 0.09 * s)}"><title>{escape(river.name)}</title>'
            "</path>"
        )
    for road in region.roads:
        pts = [at(lab) for lab in road.path]
        out.append(f'<polyline class="{road.kind}" points="{_line(pts)}"/>')
    bases = {fa.base for fa in region.factions}
    for h in lay.hexes:
        x, y = at(h.label)
        out.append(f'<use href="#i-{h.stocking}" x="{_f(x + 0.3 * s)}" y="{_f(y + 0.12 * s)}"/>')
        if h.label in bases:
            out.append(f'<use href="#i-faction" x="{_f(x - 0.52 * s)}" y="{_f(y - 0.3 * s)}"/>')
    if lay.labels:
        for h in lay.hexes:
            x, y = at(h.label)
            xy = f'x="{_f(x)}" y="{_f(y - 0.56 * s)}"'
            out.append(
                f'<text class="halo" {xy}>{h.label}</text><text class="lab" {xy}>{h.label}</text>'
            )
    out.append("</g>")
    if window is None:
        inner = (width - 2 * MARGIN) / g
        if legend:
            parts, _ = _legend(region, 0, 0, inner, s, mono, g)
        else:
            bar, _ = _scale_bar(region, s, g, room=inner - 150, below=True)
            parts = ['<g transform="translate(8,12)">', *bar, "</g>"]
            parts += _compass(inner - 60, 52)
        out.append(f'<g transform="translate({_f(MARGIN)},{_f(lay.legend_y)}) scale({g:.4g})">')
        out += parts
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _titles(region: Region, window: Window | None) -> tuple[str, str]:
    """The map's title and the line under it."""
    n = len(region.hexes)
    if window is None:
        title = f"{region.name}: {words.count(n, 'hex')} of {region.hex_miles} miles"
        sub = (
            f"Address {region.seed}; the starting haven is hex {region.start}; parties "
            f"stocked from level {region.level}."
        )
        return title, sub
    c0, c1, r0, r1 = window
    title = f"{region.name}: columns {c0 + 1:02d}-{c1 + 1:02d}, rows {r0 + 1:02d}-{r1 + 1:02d}"
    return title, f"Each hex is {region.hex_miles} miles across; the legend is on the whole map."


def _fill(biome: object, mono: bool) -> str:
    """A biome's colour; in mono, white land and light grey water (the symbols tell them
    apart), so a photocopy of the map reads like the original."""
    if not mono:
        return str(biome.color)  # type: ignore[attr-defined]
    return "#fff" if biome.passable else "#dcdcdc"  # type: ignore[attr-defined]


def _legend(
    region: Region, x0: float, y0: float, width: float, s: float, mono: bool = False, g: float = 1
) -> tuple[list[str], float]:
    """Legend, scale bar and compass for hexes of circumradius `s`, to be drawn `g` times its
    size (the scale bar is divided by `g`, so it still measures the map); the SVG and its
    height."""
    out = [f'<g transform="translate({_f(x0)},{_f(y0)})">']
    out.append(
        f'<rect x="0" y="0" width="{_f(width)}" height="@H@" fill="#fff" stroke="{INK}" '
        'stroke-width="1"/>'
    )
    col_w = 200.0
    cols = max(1, int((width - 190) // col_w))
    items = _items(region, s, mono)
    out.append('<text x="12" y="20" font-size="12" font-weight="bold">Legend</text>')
    for n, (icon, text) in enumerate(items):
        col, row = n % cols, n // cols
        x, y = 26 + col * col_w, 42 + row * 26
        out.append(f'<g transform="translate({_f(x)},{_f(y)})">{icon}</g>')
        out.append(f'<text x="{_f(x + 20)}" y="{_f(y + 4)}" font-size="11">{escape(text)}</text>')
    rows = (len(items) + cols - 1) // cols
    body_h = 42 + rows * 26
    bar, _ = _scale_bar(region, s, g)
    out.append(f'<g transform="translate(26,{_f(body_h + 10)})">')
    out += bar
    out.append("</g>")
    height = max(body_h + 40, 170.0)
    out += _compass(width - 95, 85)
    out.append("</g>")
    out[1] = out[1].replace("@H@", _f(height))
    return out, height


def _items(region: Region, s: float, mono: bool) -> list[tuple[str, str]]:
    """The legend's lines: (drawing around (0, 0), about 24 units wide; what it means). Icons
    are <use> of the map's own definitions."""
    items: list[tuple[str, str]] = []
    terrain_days = {}
    for h in region.hexes:
        terrain_days.setdefault(h.terrain, h.travel_days)
    hs = 11.0
    hexpath = _hex_path(hs)
    for key, b in region.biomes.items():
        days = _days(terrain_days.get(key, 1))
        note = "" if b.passable else ", by boat"
        swatch = (
            f'<path d="{hexpath}" fill="{_fill(b, mono)}" stroke="#555" stroke-width=".6"/>'
            f'<g class="sym" transform="scale(0.6)">{SYMBOLS.get(b.symbol, "")}</g>'
        )
        items.append((swatch, f"{b.name} ({days}{note})"))
    used = {h.stocking for h in region.hexes}
    # Map icons are drawn to the hex size; the legend shows them at the campaign-map size.
    icon = f"scale({_f(34.0 / s)})"
    for key in ("start", "haven", "site", "lair", "landmark"):
        if key in used:
            items.append((f'<use href="#i-{key}" transform="{icon}"/>', ICON_NAMES[key]))
    if region.factions:
        items.append((f'<use href="#i-faction" transform="{icon}"/>', ICON_NAMES["faction"]))
    river_d = _wavy([(-12.0, 0.0), (12.0, 0.0)], 2.0)
    items.append((f'<path class="river" d="{river_d}" style="stroke-width:4"/>', "river"))
    items.append(
        ('<polyline class="road" points="-12,0 12,0" style="stroke-dasharray:6 3"/>', "road")
    )
    items.append(
        ('<polyline class="trail" points="-12,0 12,0" style="stroke-dasharray:0.1 4.5"/>', "trail")
    )
    return items


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
    for drawing, text in _items(region, _size(len(region.hexes)), mono):
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-14 -12 28 24" width="28" '
            f'height="24">{style}{defs}{drawing}</svg>'
        )
        out.append((svg, text))
    return out


def _scale_bar(
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
                f'<rect x="{_f(i * step)}" y="0" width="{_f(step)}" height="6" '
                f'fill="{fill}" stroke="{INK}" stroke-width="1"/>'
            )
        for i in range(spans + 1):
            out.append(
                f'<text x="{_f(i * step)}" y="20" font-size="10" text-anchor="middle">'
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
            f'<rect x="{_f(i * px_per_hex)}" y="0" width="{_f(px_per_hex)}" height="6" '
            f'fill="{fill}" stroke="{INK}" stroke-width="1"/>'
        )
    for i in range(spans + 1):
        out.append(
            f'<text x="{_f(i * px_per_hex)}" y="20" font-size="10" text-anchor="middle">'
            f"{i * miles}</text>"
        )
    out.append(
        f'<text x="{_f(spans * px_per_hex + 14)}" y="7" font-size="11">miles (one hex = {miles} '
        f"miles, {'a day' if miles == 18 else 'a third of a day'} on good ground)</text>"
    )
    return out, 24.0


def _compass(cx: float, cy: float) -> list[str]:
    """The d6 hex-side compass: 1 N, then clockwise (FMC Basic, Wandering)."""
    r = 30.0
    out = [f'<g transform="translate({_f(cx)},{_f(cy)})">']
    out.append(f'<path d="{_hex_path(r)}" fill="#fff" stroke="{INK}" stroke-width="1.5"/>')
    apothem = r * math.sqrt(3) / 2
    for i, side in enumerate(SIDES):
        angle = math.radians(-90 + 60 * i)
        tx, ty = math.cos(angle) * (apothem - 9), math.sin(angle) * (apothem - 9)
        lx, ly = math.cos(angle) * (apothem + 10), math.sin(angle) * (apothem + 10)
        out.append(
            f'<text x="{_f(tx)}" y="{_f(ty + 4)}" font-size="12" font-weight="bold" '
            f'text-anchor="middle">{i + 1}</text>'
            f'<text x="{_f(lx)}" y="{_f(ly + 3.5)}" font-size="9" text-anchor="middle">'
            f"{side}</text>"
        )
    out.append(
        '<text x="0" y="68" font-size="10" text-anchor="middle">d6: the side to wander</text>'
    )
    out.append("</g>")
    return out
