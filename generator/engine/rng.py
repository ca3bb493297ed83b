"""Seeded randomness with addressable parts.

A seed is any non-empty string and is also an *address*. A part's Rng is derived by name:
``rng.child("hex/0302")`` has the address ``<parent>/hex/0302`` and is seeded from the sha256
of that address, so adding a roll in one place never reshuffles another, and handing an address
back to the generator of that kind of thing reproduces it exactly.

Every draw goes through ``random.Random.random()``, the one sequence CPython promises to keep
across versions and platforms; integers, choices and shuffles are built on it here rather than
on ``randrange``/``choice``, whose algorithms have changed between releases.
"""

from __future__ import annotations

import _random
import hashlib
import random
import secrets
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import TypeVar

from generator.errors import DelveError

T = TypeVar("T")
_MT = _random.Random  # the Mersenne Twister itself, under random.Random's Python layer

_WORDS = (
    "amber ash barrow bell bone briar cairn candle cinder crow dusk ember fen flint frost "
    "gloam grave hollow iron ivy lantern marrow mire moss moth oak owl pike raven reed rook "
    "rust salt shale slate smoke thorn umber vale wax willow wolf wren yew"
).split()


def random_seed() -> str:
    """A fresh, readable seed for when the referee gives none (printed so it can be reused)."""
    return f"{secrets.choice(_WORDS)}-{secrets.choice(_WORDS)}-{secrets.randbelow(1000):03d}"


MAX_SEED = 1000  # characters: an address of a part deep in a region is a few dozen


def check_seed(seed: str) -> str:
    """A seed is printable text: it is printed, written into SVG and GraphML, and named in
    file names, so control characters (NUL, ESC...) and undecodable bytes are refused."""
    if not isinstance(seed, str) or not seed.strip():
        raise DelveError("seed: must be a non-empty string (e.g. --seed harrowdeep)")
    if len(seed) > MAX_SEED:
        raise DelveError(f"seed {seed[:20]!r}...: longer than {MAX_SEED:,} characters")
    for i, c in enumerate(seed):
        if 0xD800 <= ord(c) <= 0xDFFF:
            raise DelveError(
                f"seed: holds a byte that is not UTF-8 text at character {i + 1}; use plain text"
            )
        if unicodedata.category(c) == "Cc":
            raise DelveError(
                f"seed '{seed[:40].encode('unicode_escape').decode('ascii')}': holds a control "
                f"character (U+{ord(c):04X}) at character {i + 1}; use plain text"
            )
    if seed != seed.strip():
        raise DelveError(f"seed {seed!r}: must not start or end with spaces")
    return seed


def _seed_int(address: str) -> int:
    # surrogatepass: a seed from undecodable command-line bytes still hashes, stably.
    digest = hashlib.sha256(address.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest, "big")


class Rng:
    """A random stream identified by its address. Pass it down; never use global random."""

    __slots__ = ("address", "_random", "random")

    def __init__(self, address: str) -> None:
        self._start(check_seed(address))

    def _start(self, address: str) -> None:
        self.address = address
        # Seeded at its first draw: a stream that only names parts (<seed>/plan) seeds none.
        self._random: random.Random | None = None
        self.random = self._first

    def _first(self) -> float:
        """A draw that seeds the stream first (kept by callers that bound `random` early)."""
        return self.draw()()

    def draw(self) -> Callable[[], float]:
        """The stream's `random`, seeded: for a loop of many draws to bind once."""
        if self._random is None:
            # Seeded in C alone: random.Random(n) runs its Python __init__ and seed() first,
            # a sixth of the cost, a dozen times a site. The state is the same.
            self._random = random.Random.__new__(random.Random)
            _MT.seed(self._random, _seed_int(self.address))
            # Bound once: the hot path of every dice and table roll.
            self.random = self._random.random
        return self.random

    def child(self, label: str) -> Rng:
        """The independent stream for a named part (``label`` may hold '/')."""
        rng = Rng.__new__(Rng)  # the parent's address is already checked
        rng._start(f"{self.address}/{label}")
        return rng

    def randint(self, low: int, high: int) -> int:
        """An integer in [low, high], both inclusive."""
        return low + int(self.random() * (high - low + 1))

    def die(self, sides: int) -> int:
        return 1 + int(self.random() * sides)

    def chance(self, p: float) -> bool:
        return self.random() < p

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise DelveError("cannot choose from an empty list")
        return items[int(self.random() * len(items))]

    def weighted_index(self, cumulative: Sequence[float]) -> int:
        """Index drawn from a list of cumulative weights (last item is the total)."""
        return bisect_right(cumulative, self.random() * cumulative[-1])

    def weighted(self, items: Sequence[T], weights: Sequence[float]) -> T:
        total = 0.0
        cumulative = []
        for w in weights:
            total += w
            cumulative.append(total)
        return items[self.weighted_index(cumulative)]

    def shuffle(self, items: list[T]) -> list[T]:
        """Fisher-Yates in place on our own draws; returns the list for convenience."""
        if len(items) > 1:
            random = self.draw()
            for i in range(len(items) - 1, 0, -1):
                j = int(random() * (i + 1))
                items[i], items[j] = items[j], items[i]
        return items

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        if k > len(pool):
            raise DelveError(f"cannot draw {k} distinct items from {len(pool)}")
        for i in range(k):
            j = i + int(self.random() * (len(pool) - i))
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def __repr__(self) -> str:
        return f"Rng({self.address!r})"
