"""Light sources read from a room's `light` text, for virtual tabletops.

The key says what lights a room ("the red glow of banked coals in a hearth", "pitch darkness");
a tabletop wants a position, a radius, a colour and a strength. The words below are ours and
deliberately broad, so a referee's own light table still lights its rooms. What burns or shines
sets the light's reach, strength and flicker, and its usual colour; a colour the text names
("the blue flicker of a ghostly lamp", "daylight filtering green") wins over the usual one. A
room whose light names no source and speaks of darkness stays dark; "near darkness" with a
light named after it is lit, dimly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache


@dataclass(frozen=True)
class Source:
    color: str  # ARGB hex, as Universal VTT writes it
    radius: float  # squares of bright-to-dim light
    intensity: float
    flicker: bool = False


WARM_WHITE = "fffff0d0"
# First match wins: the strongest source named in the text.
SOURCES: tuple[tuple[str, Source], ...] = (
    (r"\b(?:roaring|fire ?pit|bonfire|blaze|forge|furnace)", Source("ffff8a2b", 6, 1.0, True)),
    (r"\b(?:hearth|coals|embers|brazier)", Source("ffff6a2b", 4, 0.8, True)),
    (r"torch", Source("ffffb35c", 4, 0.8, True)),
    (r"\b(?:witch ?light|will-o|flames?\b)", Source("ffffb35c", 3, 0.6, True)),
    (r"\b(?:globe|everburning|bright)", Source("fffff2d0", 6, 1.0)),
    (r"\b(?:lantern|lamp)", Source("ffffc870", 4, 0.8)),
    (r"\b(?:candle|rushlight|taper)", Source("ffffd27f", 2, 0.6, True)),
    (r"daylight|\b(?:sun(?:light|shine|beams?)?|dawn|dusk)\b", Source("fffffbe8", 5, 0.9)),
    (r"\b(?:moon|star)light|\bmoon\b", Source("ffb8c8ff", 4, 0.5)),
    (r"\bcrystal", Source("ffb07cff", 4, 0.6)),
    (r"\b(?:fung|mushroom|lichen|moss|slime|foxfire|rotting wood)", Source("ff7cff9a", 3, 0.5)),
    (r"\b(?:glowworm|firefl)", Source("ff9adfff", 3, 0.3)),
    (r"\bcold light|\bghost", Source("ff8ab8ff", 4, 0.6)),
    (r"\b(?:spark|lava|magma)", Source("ffff5a1f", 3, 0.7, True)),
    (r"\b(?:pool|water|shimmer|reflect)", Source("ff9fe3ff", 3, 0.4)),
    (r"glow|light|\blit\b|gleam|shine|flash", Source(WARM_WHITE, 3, 0.5)),
)
# Colours a text may name, the first named winning ("red and gold patches" is red); at one
# place the longer name ("blue-green" before "blue").
COLOURS: tuple[tuple[str, str], ...] = (
    (r"blue-green|green-blue|sea-green|teal", "ff7fe0d0"),
    (r"blue|bluish|azure|sapphire", "ff8ab8ff"),
    (r"green|greenish|emerald", "ff8cf08c"),
    (r"violet|purple|lilac|mauve", "ffb07cff"),
    (r"red|reddish|crimson|scarlet|ruddy|blood-red", "ffff5a3c"),
    (r"orange|copper", "ffff9a3c"),
    (r"amber|gold|golden|honey", "ffffc050"),
    (r"yellow|yellowish|sulphur|sulphurous", "fffff07a"),
    (r"white|silver|silvery", "fff4f4ff"),
)
# A text that opens with darkness is dark, unless something breaks it ("darkness, broken by
# pinpricks of light from glowworms"): "darkness so thick that torchlight seems to shrink"
# names a torch but lights nothing. "Near darkness" is dim, not dark: a light it names after
# a comma ("near darkness, with dusty light leaking under a door") lights the room faintly.
DARK_START = re.compile(r"^\W*(?:utter |pitch |total |thick )?(?:dark|black)", re.I)
NEAR_DARK = re.compile(r"^\W*(?:near|almost|nearly)[ -](?:dark|black)\w*", re.I)
BROKEN = re.compile(r"broken by|lit by|save for|but for|except for|relieved by", re.I)
DARK = re.compile(r"\bdark|\bpitch\b|\bblack|unlit|no light", re.I)
# The party's own light ("grey shapes at the edge of your light") lights nothing of the room's.
YOURS = re.compile(r"\byour (?:own )?(?:light|lamp|lantern|torch|candle)\w*", re.I)
DIM = 0.35  # a near-dark room's light: this much of its source's strength, a little reach
_SOURCES = tuple((re.compile(p, re.I), s) for p, s in SOURCES)
_COLOURS = re.compile("|".join(rf"(?P<c{i}>\b(?:{p})\b)" for i, (p, _) in enumerate(COLOURS)), re.I)


@lru_cache(maxsize=512)
def source(text: str) -> Source | None:
    """The light a room's light text describes, or None for a dark room."""
    text = YOURS.sub("", text[:400])
    dim = NEAR_DARK.search(text)
    if dim is not None:
        text = text[dim.end() :]
    elif DARK_START.search(text):
        broken = BROKEN.search(text)
        if broken is None:
            return None
        text = text[broken.end() :]
    found = next((s for pattern, s in _SOURCES if pattern.search(text)), None)
    if found is None:
        if dim is not None or not text.strip() or DARK.search(text):
            return None
        found = Source(WARM_WHITE, 3, 0.5)
    named = _COLOURS.search(text)
    if named is not None:
        index = int(next(k for k, v in named.groupdict().items() if v)[1:])
        found = replace(found, color=COLOURS[index][1])
    if dim is not None:
        found = replace(found, radius=2, intensity=round(found.intensity * DIM, 2))
    return found
