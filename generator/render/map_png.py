"""Painting a map drawing (map_draw.py) as a PNG with Pillow: the same picture as the SVG.

Fonts are DejaVu from the system (the booklet's own faces); where they are missing, Pillow's
built-in font stands in. Pixels are grey (one byte each, written as a palette of greys) and the
file carries no timestamps, so the same plan at the same size is the same bytes.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator.render.map_primitives import Circle, Drawing, Group, Poly, Primitive, Segments, Text

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),
    Path("C:/Windows/Fonts"),
)
FACES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSans-Oblique.ttf",
    (True, True): "DejaVuSans-BoldOblique.ttf",
}
MIN_PPG, MAX_PPG = 20, 400  # pixels a square that --dpi accepts
MAX_PIXELS = 64_000_000  # a level's picture (8,000 x 8,000): beyond this no tabletop loads it
GREYS = [v for v in range(256) for _ in range(3)]


def _grey(colour: str | None) -> int | None:
    if colour is None:
        return None
    r, g, b = int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    return round(0.299 * r + 0.587 * g + 0.114 * b)


@lru_cache(maxsize=64)
def _font(px: int, bold: bool, italic: bool):  # type: ignore[no-untyped-def]  # noqa: ANN202
    from PIL import ImageFont

    name = FACES[(bold, italic)]
    for folder in FONT_DIRS:
        path = folder / name
        if path.is_file():
            return ImageFont.truetype(str(path), px)
    try:
        return ImageFont.load_default(px)
    except TypeError:  # pragma: no cover - Pillow older than 10.1
        return ImageFont.load_default()


def check_ppg(ppg: int, d: Drawing | None = None) -> None:
    from generator.errors import DelveError

    if not MIN_PPG <= ppg <= MAX_PPG:
        raise DelveError(f"--dpi {ppg}: must be {MIN_PPG} to {MAX_PPG} pixels a square")
    if d is not None and d.width * d.height * ppg * ppg > MAX_PIXELS:
        raise DelveError(
            f"--dpi {ppg}: the map would be {round(d.width * ppg):,} x {round(d.height * ppg):,} "
            "pixels; ask for fewer pixels a square"
        )


def drawing_png(d: Drawing, ppg: int) -> bytes:
    """The drawing at `ppg` pixels a square, as PNG bytes."""
    return encode_png(paint(d, ppg))


def paint(d: Drawing, ppg: int) -> Any:
    """The drawing at `ppg` pixels a square, as a PIL image of 256 greys."""
    from PIL import Image, ImageDraw

    check_ppg(ppg, d)
    size = (max(1, math.ceil(d.width * ppg)), max(1, math.ceil(d.height * ppg)))
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    for item in d.items:
        _paint(draw, item, ppg, 0.0, 0.0)
    # Stored as 256 greys in a palette: the same pixels, but PNG leaves palette rows unfiltered,
    # which writes a level of a site in a third of the time (a little larger).
    image.putpalette(GREYS)
    return image


def encode_png(image: Any) -> bytes:
    """An image as PNG bytes. zlib lets go of the interpreter while it compresses, so a site's
    levels encode on a thread while the next one is drawn (site_map.site_png)."""
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


def _xy(p: tuple[float, float], s: int, ox: float = 0.0, oy: float = 0.0) -> tuple[float, float]:
    return ((p[0] + ox) * s, (p[1] + oy) * s)


def _w(width: float, s: int) -> int:
    return max(1, round(width * s))


def _paint(draw, p: Primitive, s: int, ox: float, oy: float) -> None:  # type: ignore[no-untyped-def]  # noqa: ANN001
    if isinstance(p, Group):
        for q in p.items:
            _paint(draw, q, s, ox + p.dx, oy + p.dy)
        return
    if isinstance(p, Poly):
        pts = [((qx + ox) * s, (qy + oy) * s) for qx, qy in p.points]  # (_xy, written out)
        fill, stroke = _grey(p.fill), _grey(p.stroke)
        if p.closed and fill is not None:
            draw.polygon(pts, fill=fill)
        if stroke is not None and len(pts) > 1:
            w = _w(p.width, s)
            line = pts + [pts[0]] if p.closed else pts
            draw.line(line, fill=stroke, width=w, joint="curve" if p.round else None)
            if p.round and w > 2:
                r = w / 2
                for x, y in (line[0], line[-1]):
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=stroke)
        return
    if isinstance(p, Segments):
        stroke, w = _grey(p.stroke), _w(p.width, s)
        if stroke is None:
            return
        # Straight to the core drawer, as ImageDraw.line would go (the hatching is thousands
        # of strokes a level, and its Python layer cost more than the drawing).
        core = draw.draw
        ink = core.draw_ink(stroke)
        for (ax, ay), (bx, by) in p.lines:
            core.draw_lines(
                (((ax + ox) * s, (ay + oy) * s), ((bx + ox) * s, (by + oy) * s)), ink, w
            )
        return
    if isinstance(p, Circle):
        x, y = _xy(p.centre, s, ox, oy)
        r = p.r * s
        fill, stroke = _grey(p.fill), _grey(p.stroke)
        draw.ellipse(
            (x - r, y - r, x + r, y + r),
            fill=fill,
            outline=stroke,
            width=_w(p.width, s) if stroke is not None else 0,
        )
        return
    if isinstance(p, Text):
        font = _font(max(1, round(p.size * s)), p.bold, p.italic)
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[p.anchor]
        x, y = _xy(p.pos, s, ox, oy)
        if p.halo:
            draw.text(
                (x, y),
                p.text,
                font=font,
                fill=255,
                anchor=anchor,
                stroke_width=_w(p.halo, s),
                stroke_fill=255,
            )
        draw.text((x, y), p.text, font=font, fill=_grey(p.fill), anchor=anchor)
