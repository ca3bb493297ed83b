"""What the generators can make, in one place: the generators refuse options past these, and
a saved document (perhaps edited by hand, perhaps hostile) is checked against them when read,
so no renderer is ever handed a level of a million or a room 10**400 squares away."""

from __future__ import annotations

MAX_LEVEL = 30  # party levels: FMC Basic's tables and our conversions stop here
MAX_ROOMS = 36  # rooms of a site: six loops of six
MAX_DEPTH = MAX_ROOMS // 6  # levels of a site, one loop each
MAX_GROUP = 100  # monsters in one group of a room (the generator puts at most 20 in a room)
MAX_HOARD_CP = 100_000_000  # c.p. in one hoard (a level-30 hoard is 30,000)
MAX_REROLLS = 999  # times one hex may be re-rolled
MAX_NUMBER = 10**12  # any other number in a document (XP, hit points, counts, worths)
MAX_TEXT = 100_000  # characters in one text of a document
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024  # a 99x99 region's document is a few MB
MAX_NESTING = 64  # objects and lists inside each other in a document (the model uses ~10)
# Characters of a seed or address: the CLI takes seeds of at most 1,000 (engine/rng.py) and an
# address adds a few dozen. A booklet prints it on every page, where a 7,000-character one took
# WeasyPrint minutes to lay out.
MAX_SEED_TEXT = 1_100
