"""A site's map in the formats a referee prints or loads: SVG, PNG and Universal VTT.

Each level is a map of its own, so a site of several levels makes several files: the first is
named as asked (`-o dungeon.svg`, or output/site-SEED.svg), the others take the level before the
extension (dungeon-level2.svg, dungeon-level3.svg...), the naming Universal VTT files use too.
`--players` draws the players' map: no room numbers, no hidden doors (plain wall), no marks
for monsters, treasure, traps or features. PNG and Universal VTT pictures are `--dpi` pixels a
square (100 by default).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from generator.model.site import Site

DEFAULT_PPG = 100
MAP_FORMATS = ("svg", "png", "uvtt")
EXTENSIONS = {"svg": "svg", "png": "png", "uvtt": "dd2vtt"}


@dataclass(frozen=True)
class MapOptions:
    players: bool = False
    ppg: int = DEFAULT_PPG  # pixels a square, for PNG and Universal VTT


_current: ContextVar[MapOptions | None] = ContextVar("map_options", default=None)


def current() -> MapOptions:
    return _current.get() or MapOptions()


@contextlib.contextmanager
def using(options: MapOptions) -> Iterator[MapOptions]:
    """Map options for every svg/png/uvtt render inside the block."""
    token = _current.set(options)
    try:
        yield options
    finally:
        _current.reset(token)


class MapFiles(list):  # type: ignore[type-arg]
    """One file's content per level of a site, in level order (level 1 first)."""


def level_name(path: Path, level: int) -> Path:
    """The file for a level: the path itself for the first, NAME-levelN.EXT for the rest."""
    if level == 1:
        return path
    return path.with_name(f"{path.stem}-level{level}{path.suffix}")


def site_svg(site: Site) -> MapFiles:
    from generator.render.map_draw import level_drawing
    from generator.render.map_svg import drawing_svg

    players = current().players
    return MapFiles(
        drawing_svg(level_drawing(site, depth, players=players))
        for depth in range(1, site.levels + 1)
    )


def site_png(site: Site) -> MapFiles:
    from concurrent.futures import ThreadPoolExecutor

    from generator.render.map_draw import level_drawing
    from generator.render.map_png import check_ppg, encode_png, paint

    options = current()
    check_ppg(options.ppg)
    # Each level is compressed on other threads while the next is drawn (zlib runs without the
    # interpreter lock): the same bytes, in about two thirds of the time on two cores. Two
    # of them, so the last levels' compressing, which outlasts the drawing, is shared out.
    with ThreadPoolExecutor(max_workers=2) as encoder:
        pending = [
            encoder.submit(
                encode_png, paint(level_drawing(site, depth, players=options.players), options.ppg)
            )
            for depth in range(1, site.levels + 1)
        ]
        return MapFiles(done.result() for done in pending)


def site_uvtt(site: Site) -> MapFiles:
    from generator.render.map_png import check_ppg
    from generator.render.uvtt import level_uvtt

    options = current()
    check_ppg(options.ppg)
    return MapFiles(
        level_uvtt(site, depth, options.ppg, players=options.players)
        for depth in range(1, site.levels + 1)
    )


# --------------------------------------------------------------------------- booklet pages

MIN_PT = 6.5  # the smallest text a map prints, in points (the booklet's floor is 6)
PT_MM = 25.4 / 72
CHAPTER_HEAD_MM = 22  # a region chapter's heading and lead above its first map
PAGE_HEAD_MM = 12  # the map page's own heading above the figure


def booklet_maps(site: Site, paper: object, chapter: bool = False) -> list[dict[str, object]]:
    """Each level's map as SVG markup sized for a page of `paper`: as large as the page
    allows, one level a page, its text never under MIN_PT points at that size."""
    from markupsafe import Markup

    from generator.plan.geometry import level_geometry
    from generator.render.map_draw import level_drawing
    from generator.render.map_svg import drawing_svg

    out = []
    for depth in range(1, site.levels + 1):
        geo = level_geometry(site, depth, players=False)
        width = float(paper.content_width)  # type: ignore[attr-defined]
        height = float(paper.map_height) - PAGE_HEAD_MM  # type: ignore[attr-defined]
        if chapter and depth == 1:
            height -= CHAPTER_HEAD_MM
        text_min = 0.0
        for _ in range(4):
            d = level_drawing(site, depth, players=False, text_min=text_min, geometry=geo)
            scale = min(width / d.width, height / d.height)  # mm a square
            floor = MIN_PT * PT_MM / scale  # squares
            if text_min >= floor - 1e-6:
                break
            text_min = floor * 1.02
        svg = drawing_svg(d, f"{d.width * scale:.1f}mm", f"{d.height * scale:.1f}mm")
        svg = svg.replace("<svg ", '<svg class="plan" ', 1)
        out.append({"depth": depth, "svg": Markup(svg), "scale": scale})
    return out
