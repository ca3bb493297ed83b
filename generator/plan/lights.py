"""Light sources read from a room's `light` text, for virtual tabletops.

The key says what lights a room ("the red glow of banked coals in a hearth", "pitch darkness");
a tabletop wants a position, a radius, a colour and a strength. The words below are ours and
deliberately broad, so a referee's own light table still lights its rooms. A room whose light
names no source and speaks of darkness stays dark.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Source:
    color: str  # ARGB hex, as Universal VTT writes it
    radius: float  # squares of bright-to-dim light
    intensity: float
    flicker: bool = False


# First match wins: the strongest source named in the text.
SOURCES: tuple[tuple[str, Source], ...] = (
    (r"roaring|fire ?pit|bonfire|blaze|forge|furnace", Source("ffff8a2b", 6, 1.0, True)),
    (r"hearth|coals|embers|brazier", Source("ffff6a2b", 4, 0.8, True)),
    (r"torch", Source("ffffb35c", 4, 0.8, True)),
    (r"globe|everburning|bright", Source("fffff2d0", 6, 1.0)),
    (r"lantern|lamp", Source("ffffc870", 4, 0.8)),
    (r"candle", Source("ffffd27f", 2, 0.6, True)),
    (r"daylight|sunlight|sun", Source("fffffbe8", 5, 0.9)),
    (r"moonlight|moon|starlight", Source("ffb8c8ff", 4, 0.5)),
    (r"crystal", Source("ffb07cff", 4, 0.6)),
    (r"fungus|fungi|mushroom|lichen|moss", Source("ff7cff9a", 3, 0.5)),
    (r"glowworm|firefl", Source("ff9adfff", 3, 0.3)),
    (r"blue|cold light|witch ?light|ghost", Source("ff8ab8ff", 4, 0.6)),
    (r"spark|lava|magma", Source("ffff5a1f", 3, 0.7, True)),
    (r"pool|water|shimmer|reflect", Source("ff9fe3ff", 3, 0.4)),
    (r"glow|light|lit|gleam|shine", Source("fffff0d0", 3, 0.5)),
)
# A text that opens with darkness is dark, unless something breaks it ("darkness, broken by
# pinpricks of light from glowworms"): "darkness so thick that torchlight seems to shrink"
# names a torch but lights nothing.
DARK_START = re.compile(r"^\W*(?:near |almost |utter |pitch |total |thick )?(?:dark|black)", re.I)
BROKEN = re.compile(r"broken by|lit by|save for|but for|except for|relieved by", re.I)
DARK = re.compile(r"\bdark|\bpitch\b|\bblack|unlit|no light", re.I)
_COMPILED = tuple((re.compile(p, re.I), s) for p, s in SOURCES)


@lru_cache(maxsize=512)
def source(text: str) -> Source | None:
    """The light a room's light text describes, or None for a dark room."""
    text = text[:400]
    if DARK_START.search(text):
        broken = BROKEN.search(text)
        if broken is None:
            return None
        text = text[broken.end() :]
    for pattern, found in _COMPILED:
        if pattern.search(text):
            return found
    if not text.strip() or DARK.search(text):
        return None
    return Source("fffff0d0", 3, 0.5)
