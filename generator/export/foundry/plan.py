"""The floor plan and the players' PNG of each site level, from the maps work.

This is the one module that knows the plan's API (generator/plan/geometry.py:
``level_geometry(site, level, players=True)``) and the PNG renderer's. Until they are in the
package, :func:`level_images` returns None and a Foundry export of a site carries its journal
and tables without scenes, saying so on stderr.
"""

from __future__ import annotations

import io
from typing import Any

from generator.export.foundry.scene import LevelImage

DPI = 100  # the PNG's resolution: at the maps renderer's scale this sets grid.size


def plan_available() -> bool:
    try:
        import generator.plan.geometry  # noqa: F401
        import generator.render.site_png  # noqa: F401  (the name to switch to: see level_png)
    except ImportError:
        return False
    return True


def level_images(site: Any, dpi: int = DPI) -> list[tuple[int, Any, LevelImage]] | None:
    """(level, geometry, picture) for every level of the site, or None without a plan."""
    if not plan_available():
        return None
    from PIL import Image

    from generator.plan.geometry import level_geometry
    from generator.render.site_png import level_png

    out = []
    for level in range(1, site.levels + 1):
        # The referee's geometry: a hidden door is a doorway there (a secret door in Foundry,
        # which only the referee sees); on the players' it is wall. Its points are in squares
        # from the picture's top-left corner, as the players' picture is drawn.
        geometry = level_geometry(site, level, players=False)
        png = level_png(site, level, players=True, dpi=dpi)
        with Image.open(io.BytesIO(png)) as img:
            width, height = img.size
        squares = geometry.size[0]
        pixels = round(width / squares) if squares else 100
        out.append((level, geometry, LevelImage(png, width, height, pixels)))
    return out
