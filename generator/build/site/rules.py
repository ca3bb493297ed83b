"""FMC Basic, Site Design, in numbers: loops of six rooms, the budgets, and where things sit.

Per six rooms (one loop, one level of the site): one room of monsters with treasure (the lair),
one of monsters without treasure (the guards), one unoccupied with trapped or hidden treasure,
and three rooms with features. Occupants are worth 1,000 XP x the level (within 10%); the two
hoards are worth exactly 1,000 c.p. x the level between them.

Placement, so the loop plays well (our rule; the text leaves it open):

- Position 0 on each loop is where the party arrives (the entrance on level 1, the foot of the
  way down on deeper levels). It is always a feature room: a stage, never a fight at the door.
- The lair sits opposite, at position 3, so either way round the loop passes two rooms first.
- The guards and the hidden treasure take opposite arms (positions 1-2 and 4-5), so each way
  round meets one of them before the lair.
- Deeper level k is stocked for party level L + k - 1. A way down leaves from a room on the far
  arm of level k and arrives at position 0 of level k+1; sites of 18 rooms or more get a second
  way between each pair of levels, from another room to a room on an arm below, so loops cross
  levels.
"""

from __future__ import annotations

import re

from generator.model.limits import MAX_LEVEL
from generator.model.monster import KINDS

LOOP = 6
LAIR_POS = 3
ARMS = ((1, 2), (5, 4))  # each read outwards from the arrival room
XP_PER_LEVEL = 1000  # FMC Basic, Site Design: occupants worth 1,000 XP x level
TREASURE_PER_LEVEL = 1000  # ... and treasure worth the same in c.p., split between two hoards
XP_TOLERANCE = 0.10  # "~1,000": we hold the total within 10%
SECOND_WAY_MIN_ROOMS = 18
MAX_HEADS = 20  # more monsters than this in one room stops being a room key
ENCOUNTER_SHARE = 0.15  # a wandering group is worth about a sixth of the level's budget

# Words by which a room's name promises treasure (docs/rooms.md: only a room with a hoard may).
HOARD_WORDS = re.compile(
    r"\b(hoards?|treasur\w*|vaults?|strongrooms?|reliquar\w*|coffers?|caches?)\b", re.I
)

# Place words (docs/rooms.md, Vocabulary): what a room type, a theme, a feature, a trap, a hiding
# or hoard place is made of. Other tags on those tables (water, grim, social...) are not places.
PLACES = frozenset(
    "cave mine tomb temple fort vault sewer hall tower manor lair grove cistern shrine warren "
    "barrow dock ship library forge ice prison cloister hospice hive bath cellar".split()
)
# Places that are a world of their own: an entry whose FIRST tag is one of these (a net loft is
# [dock], a caged shelf [library, tower, vault]) fits only a theme that names that place, however
# many other places it shares (a dragon's lair is a `vault`, but no library).
EXCLUSIVE = frozenset({"ice", "ship", "dock", "hive", "bath", "library"})
# Builds that belong to an exclusive place: a room is built so only in a theme naming it.
EXCLUSIVE_BUILDS = {"ice": "ice", "wreck": "ship"}
# Occupant kinds (docs/rooms.md): tags of a hoard place that name who keeps a hoard so.
KIND_WORDS = frozenset(KINDS)

# What this package's generators call themselves in `delve tables check`.
BY = "the site generator"

__all__ = [
    "ARMS",
    "BY",
    "ENCOUNTER_SHARE",
    "EXCLUSIVE",
    "EXCLUSIVE_BUILDS",
    "HOARD_WORDS",
    "KIND_WORDS",
    "LAIR_POS",
    "LOOP",
    "MAX_HEADS",
    "MAX_LEVEL",
    "PLACES",
    "SECOND_WAY_MIN_ROOMS",
    "TREASURE_PER_LEVEL",
    "XP_PER_LEVEL",
    "XP_TOLERANCE",
]
