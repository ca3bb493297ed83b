"""Universal VTT (.dd2vtt): one level of a site for a virtual tabletop.

The format Dungeondraft writes and Foundry VTT (Universal Battlemap Importer), Fantasy Grounds,
Owlbear Rodeo and Arkenforge read: the players' picture of the level, its walls as polylines
(line of sight), a portal for every door, and the lights the rooms' descriptions name.

Every point is in grid squares from the picture's top-left corner (importers place a point at
x * pixels_per_grid pixels), so `map_origin` is 0, 0. Walls, doors and lights come from
`generator.plan.geometry.level_geometry`, the same function the pictures are drawn from. Hidden
doors are portals on the referee's file (the picture shows plain wall) and plain wall with
`--players`.
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any

from generator.model.site import Site
from generator.plan.geometry import level_geometry

FORMAT = 0.3
AMBIENT = "ff333333"  # the dark of a place underground, for tabletops that use it


def _pt(p: tuple[float, float]) -> dict[str, float]:
    return {"x": _num(p[0]), "y": _num(p[1])}


def _num(v: float) -> float:
    r = round(float(v), 4)
    return 0.0 if r == 0 else r


def level_uvtt(site: Site, level: int, ppg: int, players: bool = False) -> str:
    """The .dd2vtt document of one level, as JSON text."""
    from generator.render.map_draw import level_drawing
    from generator.render.map_png import drawing_png

    geo = level_geometry(site, level, players=players)
    seen = geo if players else level_geometry(site, level, players=True)
    picture = drawing_png(level_drawing(site, level, True, frame=False, geometry=seen), ppg)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "resolution": {
            "map_origin": {"x": 0, "y": 0},
            "map_size": {"x": geo.size[0], "y": geo.size[1]},
            "pixels_per_grid": ppg,
        },
        "line_of_sight": [[_pt(p) for p in line] for line in geo.walls],
        "objects_line_of_sight": [],
        "portals": [
            {
                "position": _pt(d.centre),
                "bounds": [_pt(d.a), _pt(d.b)],
                "rotation": _num(math.atan2(d.b[1] - d.a[1], d.b[0] - d.a[0])),
                "closed": True,
                "freestanding": False,
            }
            for d in geo.doors
            if d.kind in ("locked", "secret")
        ],
        "environment": {"baked_lighting": False, "ambient_light": AMBIENT},
        "lights": [
            {
                "position": _pt(light.position),
                "range": _num(light.radius),
                "intensity": _num(light.intensity),
                "color": light.color,
                "shadows": True,
            }
            for light in geo.lights
        ],
        "image": base64.b64encode(picture).decode("ascii"),
    }
    return json.dumps(doc, indent=1) + "\n"
