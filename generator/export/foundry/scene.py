"""Scenes: the embedded documents (walls, lights, map notes) and a site's levels.

A site level becomes a Scene over the players' PNG of its floor plan (generator/plan and the
PNG renderer, from the maps work): a square grid of `grid.size` pixels a 10-foot square, walls
from the plan's wall lines, its doorways as doors (a stuck or locked door is shut and locked, a
hidden door a secret door), its lights, and a map note on every room that opens the room's page
in the site's journal. Coordinates come from the plan in squares and are turned into the PNG's
pixels here, so the walls sit on the picture's walls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from generator.export.foundry.docs import (
    DOOR_CLOSED,
    DOOR_DOOR,
    DOOR_LOCKED,
    DOOR_NONE,
    DOOR_SECRET,
    GRID_SQUARE,
    TEXT_ANCHOR_BOTTOM,
    doc_id,
    flags,
)

SENSE_NORMAL = 20  # CONST.WALL_SENSE_TYPES.NORMAL and WALL_MOVEMENT_TYPES.NORMAL
FEET_PER_SQUARE = 10  # FMC Basic maps are drawn in 10-foot squares

# The plan's doorway kinds -> Foundry's (door type, door state); an open way is a gap in the
# walls and gets no wall at all.
DOOR_STATES: dict[str, tuple[int, int] | None] = {
    "open": None,
    "door": (DOOR_DOOR, DOOR_CLOSED),
    "locked": (DOOR_DOOR, DOOR_LOCKED),  # FMC Basic's stuck or locked door: shut and locked
    "stuck": (DOOR_DOOR, DOOR_LOCKED),
    "secret": (DOOR_SECRET, DOOR_CLOSED),  # a hidden door: only the referee sees it
    "hidden": (DOOR_SECRET, DOOR_CLOSED),
}


def wall(
    key: str, c: Sequence[float], door: int = DOOR_NONE, state: int = DOOR_CLOSED
) -> dict[str, Any]:
    return {
        "_id": doc_id("Wall", key),
        "c": [round(v) for v in c],
        "light": SENSE_NORMAL,
        "move": SENSE_NORMAL,
        "sight": SENSE_NORMAL,
        "sound": SENSE_NORMAL,
        "dir": 0,
        "door": door,
        "ds": state,
        "flags": {},
    }


def rgb(colour: Any) -> str | None:
    """'#rrggbb' from '#rrggbb', 'rrggbb' or the plan's ARGB 'aarrggbb'; None if unreadable."""
    if not isinstance(colour, str):
        return None
    c = colour.strip().lstrip("#").lower()
    if len(c) == 8:
        c = c[2:]
    if len(c) != 6 or any(ch not in "0123456789abcdef" for ch in c):
        return None
    return f"#{c}"


def light(
    key: str,
    x: float,
    y: float,
    radius_feet: float,
    colour: str | None,
    intensity: float,
    flicker: bool = False,
) -> dict[str, Any]:
    """An ambient light: dim to its radius, bright to half of it (Foundry measures in the
    scene's distance units: feet here)."""
    alpha = max(0.0, min(1.0, intensity))
    config: dict[str, Any] = {
        "dim": round(radius_feet, 2),
        "bright": round(radius_feet / 2, 2),
        "alpha": round(0.25 + 0.5 * alpha, 3),
        "luminosity": 0.5,
    }
    if flicker:  # a flame: Foundry's torch animation
        config["animation"] = {"type": "torch", "speed": 2, "intensity": 3, "reverse": False}
    if colour:
        config["color"] = colour
    return {
        "_id": doc_id("AmbientLight", key),
        "x": round(x),
        "y": round(y),
        "elevation": 0,
        "rotation": 0,
        "walls": True,
        "vision": False,
        "config": config,
        "hidden": False,
        "flags": {},
    }


def note(
    key: str,
    entry_id: str,
    page_id: str,
    x: int,
    y: int,
    text: str,
    icon: str = "icons/svg/book.svg",
    icon_size: int = 40,
    font: int = 32,
) -> dict[str, Any]:
    """A map note that opens a journal page."""
    return {
        "_id": doc_id("Note", key),
        "entryId": entry_id,
        "pageId": page_id,
        "x": x,
        "y": y,
        "elevation": 0,
        "sort": 0,
        "texture": {"src": icon},
        "iconSize": max(32, icon_size),  # Foundry's least
        "text": text,
        "fontSize": max(8, min(128, font)),
        "textAnchor": TEXT_ANCHOR_BOTTOM,
        "textColor": "#FFFFFF",
        "global": False,
        "flags": {},
    }


def scene(
    scene_id: str,
    name: str,
    image_src: str,
    width: int,
    height: int,
    grid: dict[str, Any],
    notes: Iterable[dict[str, Any]] = (),
    walls: Iterable[dict[str, Any]] = (),
    lights: Iterable[dict[str, Any]] = (),
    journal: tuple[str, str] | None = None,
    vision: bool = True,
    flags: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A Scene whose canvas is exactly its picture (no padding), so pixels are scene units."""
    out: dict[str, Any] = {
        "_id": scene_id,
        "name": name.strip() or "Untitled",
        "active": False,
        "navigation": True,
        "navOrder": 0,
        "background": {"src": image_src},
        "width": width,
        "height": height,
        "padding": 0,
        "backgroundColor": "#000000" if vision else "#999999",
        "grid": grid,
        "tokenVision": vision,
        "fog": {"exploration": vision},
        "environment": {"darknessLevel": 1 if vision else 0, "globalLight": {"enabled": False}},
        "drawings": [],
        "tokens": [],
        "lights": list(lights),
        "notes": list(notes),
        "sounds": [],
        "regions": [],
        "templates": [],
        "tiles": [],
        "walls": list(walls),
        "journal": journal[0] if journal else None,
        "journalEntryPage": journal[1] if journal else None,
        "folder": None,
        "sort": 0,
        "ownership": {"default": 0},
        "flags": flags or {},
    }
    return out


# --------------------------------------------------------------------------- site levels


@dataclass
class LevelImage:
    """A level's players' picture and how it sits on the plan's grid."""

    png: bytes
    width: int  # pixels
    height: int
    pixels: int  # per 10-foot square: the scene's grid.size


def _pair(value: Any) -> tuple[float, float]:
    x, y = value
    return float(x), float(y)


def level_scene(
    site: Any,
    level: int,
    geometry: Any,
    image: LevelImage,
    image_src: str,
    journal_id: str,
    room_pages: dict[int, str],
    overview: str | None = None,
) -> dict[str, Any]:
    """One level of a site as a Scene: walls, doors, lights and room notes in pixels. The
    geometry's points are squares from the picture's top-left corner (generator/plan/geometry).
    The scene opens the journal at the level's first room, or at `overview` (a page id) if the
    level has no room with a page."""
    px = image.pixels

    def at(point: Any) -> tuple[float, float]:
        x, y = _pair(point)
        return x * px, y * px

    key = f"site/{site.seed}/level/{level}"
    walls = []
    n = 0
    for line in geometry.walls:
        points = [at(p) for p in line]
        for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
            if (round(x1), round(y1)) != (round(x2), round(y2)):
                walls.append(wall(f"{key}/wall/{n}", (x1, y1, x2, y2)))
                n += 1
    for i, door in enumerate(geometry.doors):
        how = DOOR_STATES.get(door.kind, (DOOR_DOOR, DOOR_CLOSED))
        if how is not None:
            walls.append(wall(f"{key}/door/{i}", (*at(door.a), *at(door.b)), *how))
    lights = []
    for i, lamp in enumerate(geometry.lights):
        x, y = at(lamp.position)
        radius = float(lamp.radius) * FEET_PER_SQUARE
        colour = rgb(lamp.color)
        lights.append(
            light(f"{key}/light/{i}", x, y, radius, colour, float(lamp.intensity), lamp.flicker)
        )
    labels = geometry.labels
    notes = []
    for room in sorted(site.rooms, key=lambda r: r.id):
        if room.level != level or room.id not in room_pages:
            continue
        spot = labels.get(room.id)
        if spot is None:  # a room the plan gives no label place: the middle of its box
            ox, oy = _pair(geometry.origin)
            spot = (room.x - ox + room.w / 2, room.y - oy + room.h / 2)
        x, y = at(spot)
        notes.append(
            note(
                f"{key}/room/{room.id}",
                journal_id,
                room_pages[room.id],
                round(x),
                round(y),
                f"{room.id}. {room.name}",
                icon_size=max(32, px // 2),
                font=max(12, px // 3),
            )
        )
    here = sorted(r.id for r in site.rooms if r.level == level and r.id in room_pages)
    first = room_pages[here[0]] if here else overview
    name = site.name if site.levels == 1 else f"{site.name}, level {level}"
    grid = {
        "type": GRID_SQUARE,
        "size": px,
        "style": "solidLines",
        "thickness": 1,
        "color": "#000000",
        "alpha": 0.2,
        "distance": FEET_PER_SQUARE,
        "units": "ft",
    }
    return scene(
        doc_id("Scene", key),
        name,
        image_src,
        image.width,
        image.height,
        grid,
        notes=notes,
        walls=walls,
        lights=lights,
        journal=(journal_id, first) if first else None,
        flags=flags(kind="site-level", seed=site.seed, level=level),
    )
