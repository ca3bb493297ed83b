"""Six-room looping sites, stocked by FMC Basic, Site Design (the numbers are in rules.py).

The package's parts, in the order a site is made: themes.py (who holds it), story.py (its
history and wandering groups), stock.py (each level's rooms, monsters and hoards),
occupants.py (the monsters a budget buys), connections.py (the ways between rooms), deck.py
(dealing without repeats), and generate.py, which puts them together.
"""

from __future__ import annotations

from generator.build.site.generate import generate_site
from generator.build.site.occupants import compose_occupants
from generator.build.site.rules import (
    LOOP,
    MAX_LEVEL,
    TREASURE_PER_LEVEL,
    XP_PER_LEVEL,
    XP_TOLERANCE,
)
from generator.build.site.themes import RosterMember, Theme, find_theme, themes

__all__ = [
    "LOOP",
    "MAX_LEVEL",
    "TREASURE_PER_LEVEL",
    "XP_PER_LEVEL",
    "XP_TOLERANCE",
    "RosterMember",
    "Theme",
    "compose_occupants",
    "find_theme",
    "generate_site",
    "themes",
]
