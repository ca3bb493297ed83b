"""The region as a Foundry scene: a players' hex map in PNG under Foundry's own hex grid.

Foundry lays a hex grid of its own over the picture, so the picture is drawn to that grid: hexes
flat-topped with odd columns half a hex lower (Foundry's HEXODDQ, which is also how our XXYY
labels count), each ``grid.size`` pixels from flat side to flat side (Foundry 13 measures a hex
grid so). On a scene without padding Foundry starts that grid at the picture's top-left corner
with the even columns' first row cut in half (their centres at y = row x size, the odd columns'
half a hex lower), so our first row is Foundry's second: the picture keeps half a hex of margin
above it (and below), and no hex of ours is cut. Our columns are shifted by an even number so
that odd stays odd.

What the players see: terrain by colour, rivers, roads and trails, the havens they can find on
any road, and every hex's label. Sites, lairs and landmarks stay off the picture: each hex has a
map note (seen by the referee) that opens its journal page.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from generator.engine.hexes import to_offset
from generator.model.hex import Hex
from generator.model.region import Region

SQRT3 = math.sqrt(3)
RIVER = (47, 109, 181)
ROAD = (91, 58, 28)
INK = (30, 30, 30)
FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
    "DejaVuSans-Bold.ttf",
    "Arial Bold.ttf",
)


def grid_size(count: int) -> int:
    """Pixels from flat side to flat side: big hexes for a starting region, smaller as the map
    grows, so the picture stays under 8192 pixels a side (what every browser's WebGL takes)."""
    for most, size in ((37, 200), (127, 160), (400, 120), (2000, 80)):
        if count <= most:
            return size
    return 60


@dataclass
class HexLayout:
    """Where every hex sits on the picture, in Foundry's grid."""

    size: int  # grid.size
    cells: dict[str, tuple[int, int]]  # label -> Foundry's (column, row) of its HEXODDQ grid
    width: int
    height: int

    @property
    def radius(self) -> float:
        return self.size / SQRT3

    def centre(self, label: str) -> tuple[float, float]:
        col, row = self.cells[label]
        r = self.radius
        x = col * 1.5 * r + r
        y = row * self.size + (self.size / 2 if col % 2 else 0)
        return x, y

    def corners(self, label: str) -> list[tuple[float, float]]:
        x, y = self.centre(label)
        r = self.radius
        return [
            (x + r * math.cos(math.radians(60 * i)), y + r * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]


def layout(region: Region) -> HexLayout:
    size = grid_size(len(region.hexes))
    offsets = {h.label: to_offset(h.q, h.r) for h in region.hexes}
    min_col = min(c for c, _ in offsets.values())
    shift = min_col - (min_col & 1)  # even: an odd column stays odd, as HEXODDQ needs
    cols = {lab: c - shift for lab, (c, _) in offsets.items()}
    # Rows of odd-q offsets stay consistent under an even column shift; ours start at Foundry's
    # row 1, the first whole hex of an even column.
    min_row = min(r for _, r in offsets.values())
    cells = {lab: (cols[lab], offsets[lab][1] - min_row + 1) for lab in offsets}
    radius = size / SQRT3
    last_col = max(c for c, _ in cells.values())
    width = math.ceil(last_col * 1.5 * radius + 2 * radius)
    # Half a hex of margin below the last row as well as above the first.
    height = max(
        math.ceil(row * size + size + (size / 2 if col % 2 else 0)) for col, row in cells.values()
    )
    return HexLayout(size, cells, width, height)


@lru_cache(maxsize=8)
def _font(size: int) -> Any:
    from PIL import ImageFont

    for name in FONTS:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    except ValueError:
        return (200, 200, 200)  # a document's colour we cannot read: neutral grey


def _dashed(
    draw: Any, points: list[tuple[float, float]], fill: Any, width: int, dash: float
) -> None:
    for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
        length = math.hypot(x2 - x1, y2 - y1)
        steps = max(1, int(length // (2 * dash)))
        for i in range(steps):
            t0, t1 = (2 * i) / (2 * steps), (2 * i + 1) / (2 * steps)
            draw.line(
                [
                    (x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0),
                    (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1),
                ],
                fill=fill,
                width=width,
            )


def _haven_icon(draw: Any, x: float, y: float, s: float) -> None:
    """A little house on a white disc: the havens every traveller can find."""
    draw.ellipse([x - s, y - s, x + s, y + s], fill=(255, 255, 255), outline=INK, width=2)
    k = s * 0.6
    draw.polygon(
        [(x - k, y), (x, y - k), (x + k, y), (x + k, y + k), (x - k, y + k)],
        fill=(255, 255, 255),
        outline=INK,
        width=2,
    )


def hex_map_png(region: Region, lay: HexLayout) -> bytes:
    """The players' hex map, drawn to `lay` (see the module docstring)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (lay.width, lay.height), (235, 232, 224))
    draw = ImageDraw.Draw(img)
    size = lay.size
    for h in region.hexes:
        biome = region.biomes.get(h.terrain)
        fill = _rgb(biome.color) if biome else (200, 200, 200)
        draw.polygon(lay.corners(h.label), fill=fill, outline=(85, 85, 85), width=1)
    for river in region.rivers:
        pts = [lay.centre(lab) for lab in river.path if lab in lay.cells]
        if len(pts) > 1:
            draw.line(pts, fill=RIVER, width=max(3, size // 12), joint="curve")
    for road in region.roads:
        pts = [lay.centre(lab) for lab in road.path if lab in lay.cells]
        if len(pts) < 2:
            continue
        if road.kind == "road":
            draw.line(pts, fill=ROAD, width=max(2, size // 25), joint="curve")
        else:
            _dashed(draw, pts, ROAD, max(2, size // 30), max(4.0, size / 14))
    font = _font(max(10, size // 7))
    for h in region.hexes:
        x, y = lay.centre(h.label)
        if h.stocking in ("start", "haven"):
            _haven_icon(draw, x, y, size * 0.13)
        draw.text(
            (x, y - size * 0.3),
            h.label,
            fill=INK,
            font=font,
            anchor="mm",
            stroke_width=max(1, size // 60),
            stroke_fill=(255, 255, 255),
        )
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


NOTE_ICONS = {
    "start": "icons/svg/village.svg",
    "haven": "icons/svg/village.svg",
    "site": "icons/svg/castle.svg",
    "lair": "icons/svg/skull.svg",
    "landmark": "icons/svg/ruins.svg",
}


def region_scene(
    region: Region,
    lay: HexLayout,
    image_src: str,
    journal_id: str,
    hex_pages: dict[str, str],
    overview_page: str,
) -> dict[str, Any]:
    from generator.export.foundry.docs import GRID_HEXODDQ, doc_id, flags
    from generator.export.foundry.scene import note, scene

    notes = []
    for h in region.hexes:
        x, y = lay.centre(h.label)
        notes.append(
            note(
                f"region/{region.seed}/{h.label}",
                journal_id,
                hex_pages[h.label],
                round(x),
                round(y + lay.size * 0.25),
                _note_text(h),
                NOTE_ICONS.get(h.stocking, "icons/svg/book.svg"),
                icon_size=max(32, lay.size // 4),
                font=max(12, lay.size // 9),
            )
        )
    doc = scene(
        doc_id("Scene", f"region/{region.seed}"),
        region.name,
        image_src,
        lay.width,
        lay.height,
        {
            "type": GRID_HEXODDQ,
            "size": lay.size,
            "style": "solidLines",
            "thickness": 1,
            "color": "#000000",
            "alpha": 0.25,
            "distance": region.hex_miles,
            "units": "mi",
        },
        notes=notes,
        journal=(journal_id, overview_page),
        vision=False,
        flags=flags(kind="region", seed=region.seed),
    )
    return doc


def _note_text(h: Hex) -> str:
    return f"{h.label} {h.place}"
