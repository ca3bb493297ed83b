"""Dealing table entries without repeats within one site, from the entries that fit it.

A pool is the entries of a table that fit something (the theme's places, an occupant's kind),
built once per TableSet and kept with it. A deck deals from pools and remembers what it dealt,
so no two rooms of a site get the same feature, trap or sentence while the fitting entries
last; then it deals from the rest of the table, and only when everything is spent does an entry
come round again (a referee's small table still works).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable

from generator.engine.rng import Rng
from generator.engine.table import Entry, Rolled
from generator.engine.tables import TableSet

TRIES = 4  # rerolls of an entry already dealt before the deck looks through what is left


class Pool:
    """Entries of one table with their weights, for dealing by weight."""

    __slots__ = ("table", "entries", "cumulative", "total")

    def __init__(
        self, table: str, entries: tuple[Entry, ...], cumulative: tuple[float, ...]
    ) -> None:
        self.table, self.entries, self.cumulative = table, entries, cumulative
        self.total = cumulative[-1] if cumulative else 0.0

    @classmethod
    def of(cls, table: str, entries: Iterable[Entry], weight: Callable[[Entry], float]) -> Pool:
        kept: list[Entry] = []
        cumulative: list[float] = []
        total = 0.0
        for e in entries:
            w = weight(e)
            if w > 0:
                total += w
                kept.append(e)
                cumulative.append(total)
        return cls(table, tuple(kept), tuple(cumulative))

    def __bool__(self) -> bool:
        return bool(self.entries)

    def only(self, fits: Callable[[Entry], bool]) -> Pool:
        """The entries of this pool that fit, with the weights they have here."""
        weights = {
            id(e): c - p
            for e, c, p in zip(
                self.entries, self.cumulative, (0.0, *self.cumulative[:-1]), strict=True
            )
        }
        return Pool.of(self.table, (e for e in self.entries if fits(e)), lambda e: weights[id(e)])

    def pick(self, rng: Rng, used: set[int] | frozenset[int]) -> Entry | None:
        """An entry not in `used` (ids), by weight; None when every one is used."""
        entries = self.entries
        if not entries:
            return None
        cumulative, total, random = self.cumulative, self.total, rng.random
        e = entries[bisect_right(cumulative, random() * total)]
        if id(e) not in used:  # (nearly always, the first time)
            return e
        for _ in range(TRIES - 1):
            e = entries[bisect_right(cumulative, random() * total)]
            if id(e) not in used:
                return e
        left: list[Entry] = []
        weights: list[float] = []
        prev = 0.0
        for e, c in zip(entries, cumulative, strict=True):
            if id(e) not in used:
                left.append(e)
                weights.append(c - prev)
            prev = c
        return rng.weighted(left, weights) if left else None


def pool(
    tables: TableSet, table_id: str, key: Hashable, fits: Callable[[Entry], float | bool]
) -> Pool:
    """The entries of `table_id` that fit (a weight factor or True/False), made once per
    TableSet and kept under `key` (which must name what `fits` tests)."""
    cache = tables.derived.get("pools")
    if cache is None:
        cache = tables.derived["pools"] = {}
    found = cache.get((table_id, key))
    if found is None:
        found = cache[table_id, key] = Pool.of(
            table_id, tables.entries(table_id), lambda e: e.weight * float(fits(e))
        )
    return found


def fits_places(places: Iterable[str]) -> Callable[[Entry], bool]:
    """An entry fits a site when it is untagged, tagged `any`, or shares one of its places."""
    wanted = frozenset(places)
    return lambda e: not e.tags or "any" in e.tags or not wanted.isdisjoint(e.tags)


_NONE: frozenset[int] = frozenset()


def _every(_: Entry) -> bool:
    return True


class Deck:
    """What one site has dealt, by table, and the places its entries should fit."""

    def __init__(self, tables: TableSet, places: Iterable[str] = ()) -> None:
        self.tables = tables
        self.places = tuple(places)
        self.used: dict[str, set[int]] = {}
        self._fitting: dict[str, Pool] = {}

    def fitting(self, table_id: str) -> Pool:
        """The table's entries that fit the site's places."""
        found = self._fitting.get(table_id)
        if found is None:
            found = self._fitting[table_id] = pool(
                self.tables, table_id, ("places", self.places), fits_places(self.places)
            )
        return found

    def entry(
        self,
        table_id: str,
        rng: Rng,
        fitting: Pool | None = None,
        strict: bool = False,
        near: set[int] | None = None,
    ) -> Entry:
        """An entry of the table, from `fitting` (by default: those fitting the site's places)
        while any is left, then (unless `strict`) from the whole table; when everything that
        may be dealt has been, one comes round again, but none of `near` (ids of the entries
        dealt close by: a room's other groups) while there is another."""
        used = self.used.get(table_id)
        if used is None:
            used = self.used[table_id] = set()
        if fitting is None:
            fitting = self._fitting.get(table_id) or self.fitting(table_id)
        e = fitting.pick(rng, used)
        if e is None:
            every = pool(self.tables, table_id, "all", _every)
            if not strict:
                e = every.pick(rng, used)
            if e is None:  # the table is small for the site: an entry comes round again
                again = fitting or every
                e = again.pick(rng, near or _NONE) or again.pick(rng, _NONE)
        assert e is not None  # a table has at least one entry (checked at load)
        used.add(id(e))
        if near is not None:
            near.add(id(e))
        return e

    def deal(
        self,
        table_id: str,
        rng: Rng,
        vars: dict[str, str] | None = None,
        fitting: Pool | None = None,
        strict: bool = False,
    ) -> Rolled:
        """An entry (see `entry`) with its text resolved from the same stream."""
        entry = self.entry(table_id, rng, fitting, strict)
        return self.tables.resolve(table_id, entry, rng, vars)

    def text(
        self,
        table_id: str,
        rng: Rng,
        vars: dict[str, str] | None = None,
        fitting: Pool | None = None,
        strict: bool = False,
    ) -> str:
        """Only the text of a dealt entry (a plain text costs no more than the dealing)."""
        entry = self.entry(table_id, rng, fitting, strict)
        static = entry.template.static
        if static is not None:
            return static
        return self.tables.resolve(table_id, entry, rng, vars).text
