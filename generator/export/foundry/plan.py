"""The floor plan and the players' PNG of each site level, for a Foundry scene.

This is the one module of the exporter that knows the plan's API (generator/plan/geometry.py:
``level_geometry(site, level, players=True)``) and the map renderer's (the plan alone, no frame,
as the Universal VTT picture is drawn).
"""

from __future__ import annotations

import io
from typing import Any

from generator.export.foundry.scene import LevelImage

DPI = 100  # the PNG's resolution: at the maps renderer's scale this sets grid.size


def level_images(site: Any, dpi: int = DPI) -> list[tuple[int, Any, LevelImage]]:
    """(level, geometry, picture) for every level of the site."""
    from PIL import Image

    from generator.plan.geometry import level_geometry
    from generator.render.map_draw import level_drawing
    from generator.render.map_png import drawing_png

    out = []
    for level in range(1, site.levels + 1):
        # The referee's geometry: a hidden door is a doorway there (a secret door in Foundry,
        # which only the referee sees); on the players' it is wall. Its points are in squares
        # from the picture's top-left corner, as the players' picture is drawn.
        geometry = level_geometry(site, level, players=False)
        picture = level_drawing(site, level, players=True, frame=False)
        png = drawing_png(picture, dpi)
        with Image.open(io.BytesIO(png)) as img:
            width, height = img.size
        squares = geometry.size[0]
        pixels = round(width / squares) if squares else 100
        out.append((level, geometry, LevelImage(png, width, height, pixels)))
    return out
