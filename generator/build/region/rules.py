"""The region rules' numbers (FMC Basic, Overworld Exploration, Hex Stocking) and the
sums made from them: travel days, encounter odds, the level of a hex.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.build.site import MAX_LEVEL
from generator.engine.hexes import (
    MAX_SPAN,
)

Progress = Callable[[int, int], None]

BIOMES = "region/biomes"
STOCKING_TABLE = "region/hex-stocking"
STOCKING_KEYS = ("haven", "site", "lair", "landmark")
RUMOURS = "region/rumours"
PLACES = ("haven", "site", "lair", "landmark")  # the kinds of place a rumour may be about
SYMBOLS = ("grass", "tree", "trees", "hill", "mountain", "marsh", "dune", "wave", "field", "heath")

DAY_MILES = 18  # FMC Basic, Overworld Exploration: an 18-mile hex is a day on good ground
LEVEL_MILES = 36  # danger: one level per 36 miles (two days) from the starting haven
SITE_ROOMS = 6
LAIR_UNIT = 500  # FMC Basic, Hex Stocking: a one-room lair is worth 500 x d6 XP
LAIR_SITE_ROLLS = (1, 2)  # our rule: on a d6, 1-2 the lair is a multi-room site
XP_TOLERANCE = 0.10  # monsters within 10% of the budget, as in sites
MAX_GROUP = 16
SINGLE_KIND = 0.6  # share of one-room lairs kept by a single kind of monster (when one fits)
MISFIT = 0.1  # how much less likely a biome is beside one that does not list it
WATER_SHARE = 0.15  # impassable biomes (lakes) cover at most this share of the map
FACTIONS = (2, 4)  # "local factions": two to four
RUMOUR_REACH = 3  # rumours are about places within three hexes
MAX_RADIUS = (MAX_SPAN - 1) // 2  # 49: a hexagon 99 columns wide
MEMBER_COUNTS = {1: "2d6", 2: "1d6+1", 3: "1d4+1", 4: "1d3", 5: "1"}  # faction patrols by bracket


def travel_days(difficult: bool, hex_miles: int) -> float:
    """Days to cross a hex: 1 per 18 miles, doubled on difficult ground (FMC Basic)."""
    days = (2 if difficult else 1) * hex_miles / DAY_MILES
    return int(days) if days == int(days) else round(days, 4)


def encounter_odds(difficult: bool, hex_miles: int) -> str:
    """1-in-6 per day in the hex: '2-in-6' for a 2-day hex, '1-in-18' for a third of a day."""
    units = 2 if difficult else 1
    return f"{units}-in-{6 * DAY_MILES // hex_miles}"


def hex_level(base: int, dist: int, hex_miles: int) -> int:
    """The level a hex's site or lair is stocked for: +1 per 36 miles from the start."""
    return min(MAX_LEVEL, base + dist * hex_miles // LEVEL_MILES)
