"""What a haven's folk say: a rumour about a real place near the haven that fits what is there.

Our rules (FMC Basic leaves rumours to the referee):

- A rumour names a hex within three hexes of its haven (anywhere in the region when none near
  fits), never the starting haven nor the haven itself.
- It names a site, a lair or a landmark, unless the rumour's ``about`` lists the kinds of place
  it is about (``haven`` among them for a rumour about a haven).
- Its ``tags`` say what the place must hold for the rumour to be true: each tag is something
  the place has (see :func:`traits`: a monster's name, the last word of its name or one of
  its tags; the terrain; ``faction`` and the faction's key at a faction's base; ``river``,
  ``road`` or ``trail`` when one runs through). A true rumour names a place that has every
  tag; a false one a place that lacks at least one, so "a dragon sleeps under it" is never
  said, falsely, of a dragon's lair. A rumour whose text names ``{$faction}`` is about a
  faction's base, true or false. A rumour that fits no place near is rolled again.
- Rumours are heard once every hex has its first stocking, so re-rolling a hex changes no other
  hex's rumour (a rumour about a re-rolled hex may then no longer fit it: re-roll its haven too).
"""

from __future__ import annotations

from collections.abc import Callable

from generator.build.region.rules import PLACES, RUMOURS
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.model.faction import Faction
from generator.model.haven import Rumour
from generator.model.hex import Hex

ABOUT = ("site", "lair", "landmark")  # what a rumour names unless its `about` says otherwise
RUMOUR_TRIES = 12  # rumours rolled before the haven says nothing
# Filled in when the rumour is printed (Region.rumour_text), from the hex it names as it is then.
SAID = {"place": "{place}", "hex": "{hex}", "faction": "{faction}"}


def kinds(h: Hex) -> set[str]:
    """What kinds of place a hex is: a faction's camp is a landmark and a lair at once."""
    return {k for k in PLACES if getattr(h, k) is not None}


def traits(h: Hex, bases: dict[str, Faction], on_paths: dict[str, set[str]]) -> set[str]:
    """Everything a rumour's tags may ask of a place."""
    out = kinds(h) | {h.terrain} | on_paths.get(h.label, set())
    beasts: dict = {}
    if h.site:
        beasts.update(h.site.bestiary)
    if h.lair and h.lair.form == "room":
        beasts.update(h.lair.bestiary)
    for m in beasts.values():
        name = m.name.lower()
        out |= {name, name.split()[-1], *m.tags}
    fa = bases.get(h.label)
    if fa is not None:
        out |= {"faction", fa.key}
    return out


def _fits(tags: set[str], true: bool, has: set[str]) -> bool:
    """A true rumour's place has every tag; a false one's lacks one (untagged: any place)."""
    return tags <= has if true else not tags or not tags <= has


def _told(
    h: Hex,
    about: set[str],
    based: set[str],
    tags: set[str],
    true: bool,
    trait: Callable[[Hex], set[str]],
) -> bool:
    """Whether this rumour may be told of hex h."""
    return bool(kinds(h) & about) and based <= trait(h) and _fits(tags, true, trait(h))


def hear(
    tables: TableSet,
    rng: Rng,
    near: list[Hex],
    anywhere: list[Hex],
    trait: Callable[[Hex], set[str]],
) -> Rumour | None:
    """A rumour and the place it names: a rumour that fits a hex near the haven if one of
    RUMOUR_TRIES rolls does; else the first that fits a place anywhere (folk talk most of
    what is close)."""
    farther: tuple[str, list[Hex], bool] | None = None
    for _ in range(RUMOUR_TRIES):
        said = tables.roll(RUMOURS, rng, SAID)
        about = set(said.get("about") or ABOUT)
        tags = set(said.entry.tags)
        true = bool(said.get("true", True))
        based = {"faction"} if SAID["faction"] in said.text else set()
        fit = [h for h in near if _told(h, about, based, tags, true, trait)]
        if fit:
            return Rumour(said.text, rng.choice(fit).label, true)
        if farther is None:
            far = [h for h in anywhere if _told(h, about, based, tags, true, trait)]
            if far:
                farther = (said.text, far, true)
    if farther is not None:
        text, far, true = farther
        return Rumour(text, rng.choice(far).label, true)
    return None
