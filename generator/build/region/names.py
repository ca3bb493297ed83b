"""What a region has named so far: no landmark twice, no name part in more than a few names.

A region reads as one place when its names do not echo one another. Our rules (FMC Basic leaves
naming to the referee):

- **Landmarks** are dealt, not rolled: a landmark (or a one-room lair's den, which is one of the
  biome's landmarks) already in the region is not dealt again, in any biome, until every
  landmark of the biome's table is out. Two tables that share a landmark share it once.
- **Name parts**: the words of every name (the region's, its havens', sites', landmarks',
  rivers' and factions'), and the halves of compound names built from ``region/name-parts``
  ("Ash" and "ford" in Ashford), are counted. A new name is rolled again (a few times, in its
  own stream) while one of its parts is already in as many names as the cap allows: two in a
  region of 37 hexes (radius 3), two more for every 37 hexes after that. Words that every name
  needs ("the", "of", "old") are not parts. When no roll fits, the name that overshoots least
  is kept.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable

from generator.engine.rng import Rng
from generator.engine.table import Entry, Rolled
from generator.engine.tables import TableSet

NAME_SHARE = 2  # at most two names share a part...
SHARE_HEXES = 37  # ... in a region of radius 3 (37 hexes), and two more per 37 hexes
NAME_TRIES = 16  # rolls of a name before the least overshooting one is kept
NAME_PARTS = ("region/name-parts/first", "region/name-parts/second")
# Words too common in names to make two names sound alike.
COMMON = frozenset(
    "a an and at by for from in of on the to under over beneath below above upon "
    "old little great new lair hold camp".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def person(tables: TableSet, rng: Rng) -> str:
    """Someone's name, now and then with an epithet (people's names are not place names: the
    book does not count them)."""
    name = tables.roll("npc/names", rng).text
    if rng.random() < 0.5:
        name = f"{name} {tables.roll('npc/epithets', rng).text}"
    return name


def part_cap(hexes: int) -> int:
    """How many names of a region of `hexes` hexes may share one part."""
    return max(NAME_SHARE, math.ceil(NAME_SHARE * hexes / SHARE_HEXES))


def _landmark_key(name: str) -> str:
    return " ".join(_WORD.findall(name.lower()))


class NameBook:
    """Every name given in one region so far, by the hex (or the region part) that gave it."""

    def __init__(self, tables: TableSet, hexes: int) -> None:
        self.cap = part_cap(hexes)
        firsts, seconds = (
            sorted(
                {e.result.strip().lower() for e in tables.entries(t)} if tables.has(t) else set(),
                key=len,
                reverse=True,
            )
            for t in NAME_PARTS
        )
        self._firsts = [p for p in firsts if p.isalpha()]
        self._second_set = frozenset(p for p in seconds if p.isalpha())
        self._parts: dict[str, frozenset[str]] = {}  # name -> its parts, worked out once
        self.parts: Counter[str] = Counter()
        self.landmarks: Counter[str] = Counter()
        self._given: dict[object, list[tuple[str, bool]]] = {}  # owner -> (name, landmark?)
        self.owner: object = "region"

    # ---- name parts

    def parts_of(self, name: str) -> frozenset[str]:
        """'The Old Ashford Mill' -> {'ashford', 'ash', 'ford', 'mill'}."""
        known = self._parts.get(name)
        if known is None:
            known = self._parts[name] = frozenset(self._split(name))
        return known

    def _split(self, name: str) -> set[str]:
        out: set[str] = set()
        for word in _WORD.findall(name.lower()):
            word = word.replace("’", "'").removesuffix("'s")
            if word in COMMON or len(word) < 3:
                continue
            out.add(word)
            # A compound built on a first part ("Ash" in Ashmarch), and its second part when
            # the rest is one ("ford" in Ashford); "Hollow" is not "Hol" + "low".
            for first in self._firsts:
                if word.startswith(first) and len(word) > len(first):
                    out.add(first)
                    if word[len(first) :] in self._second_set:
                        out.add(word[len(first) :])
                    break
        return out

    def overshoot(self, name: str) -> int:
        """How far past the cap this name would take its parts (0: it fits)."""
        return sum(max(0, self.parts[p] + 1 - self.cap) for p in self.parts_of(name))

    def fits(self, name: str) -> bool:
        return self.overshoot(name) == 0

    def add(self, name: str, landmark: bool = False) -> None:
        """Count a name given by the current owner (a landmark also joins the dealt ones)."""
        self.parts.update(self.parts_of(name))
        if landmark:
            self.landmarks[_landmark_key(name)] += 1
        self._given.setdefault(self.owner, []).append((name, landmark))

    def forget(self, owner: object) -> None:
        """Take back every name `owner` gave (a hex about to be re-rolled)."""
        for name, landmark in self._given.pop(owner, []):
            self.parts.subtract(self.parts_of(name))
            if landmark:
                self.landmarks[_landmark_key(name)] -= 1
        self.parts = +self.parts
        self.landmarks = +self.landmarks

    def choose(self, roll: Callable[[], str], tries: int = NAME_TRIES) -> str:
        """The first of up to `tries` rolled names whose parts are all under the cap, else the
        one that overshoots least; the name is counted."""
        best, least = "", -1
        for _ in range(tries):
            name = roll()
            over = self.overshoot(name)
            if over == 0:
                best = name
                break
            if least < 0 or over < least:
                best, least = name, over
        self.add(best)
        return best

    # ---- landmarks

    def landmark(self, tables: TableSet, table_id: str, rng: Rng) -> Rolled:
        """A landmark of `table_id` not yet in the region, whose name shares parts with as few
        others as can be helped, counted as given."""
        table = tables.get(table_id)
        # The least dealt (none, until every landmark of the table is out), then those whose
        # names overshoot the part cap least.
        used = {id(e): self.landmarks[_landmark_key(e["name"])] for e in table.entries}
        low = min(used.values())
        pool: list[Entry] = [e for e in table.entries if used[id(e)] == low]
        over = {id(e): self.overshoot(e["name"]) for e in pool}
        least = min(over.values())
        pool = [e for e in pool if over[id(e)] == least]
        entry = rng.weighted(pool, [e.weight for e in pool])
        rolled = tables._rolled(table, entry, rng, None)
        self.add(rolled["name"], landmark=True)
        return rolled
