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

from generator.build.site.rules import EXCLUSIVE, KIND_WORDS, PLACES
from generator.engine.rng import Rng
from generator.engine.table import Entry, Rolled
from generator.engine.tables import TableSet

WHO = KIND_WORDS | {"occupied"}  # tags that say who is in a room, not what it is
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
        return cls.weighed(table, ((e, weight(e)) for e in entries))

    @classmethod
    def weighed(cls, table: str, pairs: Iterable[tuple[Entry, float]]) -> Pool:
        """A pool of (entry, weight) pairs; those of no weight are left out."""
        kept: list[Entry] = []
        cumulative: list[float] = []
        total = 0.0
        for e, w in pairs:
            if w > 0:
                total += w
                kept.append(e)
                cumulative.append(total)
        return cls(table, tuple(kept), tuple(cumulative))

    def __bool__(self) -> bool:
        return bool(self.entries)

    def only(self, fits: Callable[[Entry], bool]) -> Pool:
        """The entries of this pool that fit, with the weights they have here (what each adds
        to the running total)."""
        before = (0.0, *self.cumulative[:-1])
        return Pool.weighed(
            self.table,
            (
                (e, c - b)
                for e, c, b in zip(self.entries, self.cumulative, before, strict=True)
                if fits(e)
            ),
        )

    def pick(self, rng: Rng, used: set[int] | frozenset[int]) -> Entry | None:
        """An entry not in `used` (ids), by weight; None when every one is used."""
        entries = self.entries
        if not entries:
            return None
        e = entries[bisect_right(self.cumulative, rng.random() * self.total)]
        if id(e) not in used:  # (nearly always, the first time)
            return e
        return self._again(rng, used)

    def _again(self, rng: Rng, used: set[int] | frozenset[int]) -> Entry | None:
        """The rest of a pick whose first draw was used: a few draws more, then by weight
        among the entries left."""
        entries, cumulative, total, random = self.entries, self.cumulative, self.total, rng.draw()
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


def foreign(e: Entry, places: frozenset[str]) -> bool:
    """Whether the entry is of a world of its own (its first tag an exclusive place: a net loft
    is a dock's) that `places` (the theme's) do not name (docs/rooms.md, Vocabulary)."""
    tags = e.tags
    return bool(tags) and tags[0] in EXCLUSIVE and tags[0] not in places


def fits_places(
    places: Iterable[str], moods: frozenset[str] = frozenset()
) -> Callable[[Entry], bool]:
    """An entry fits a site when it is untagged, tagged `any`, or shares one of its places, is
    of no world (an exclusive place) the site does not name, and its `not` names none of the
    site's mood words."""
    wanted = frozenset(places)
    return lambda e: (
        (not e.tags or "any" in e.tags or not wanted.isdisjoint(e.tags))
        and not foreign(e, wanted)
        and not (moods and not moods.isdisjoint(_not(e)))
    )


def _not(e: Entry) -> frozenset[str]:
    value = e.get("not")
    return frozenset(str(w).lower() for w in value) if isinstance(value, list) else frozenset()


def mood_words(tables: TableSet, table_id: str, moods: frozenset[str]) -> frozenset[str]:
    """The theme's mood words that some entry of the table cannot stand beside (its `not`):
    all that tells two themes' pools apart, so most themes share theirs."""
    key = ("not-words", table_id, moods)
    found = tables.derived.get(key)
    if found is None:  # (kept, so a pool's key is the same object, its hash computed once)
        every = frozenset(w for e in tables.entries(table_id) for w in _not(e))
        found = tables.derived[key] = every & moods
    return found


def _room_tags(
    tables: TableSet, table_id: str
) -> list[tuple[Entry, float, bool, str, frozenset[str], frozenset[str], frozenset[str]]]:
    """Each entry of the table as a room fit reads it (once per TableSet): (entry, weight,
    fits every room, its world, its place tags, its tags of who is there, its `not`)."""
    key = ("room-tags", table_id)
    found = tables.derived.get(key)
    if found is None:
        found = tables.derived[key] = [
            (
                e,
                e.weight,
                not e.tags or "any" in e.tags,
                e.tags[0] if e.tags and e.tags[0] in EXCLUSIVE else "",
                PLACES.intersection(e.tags),
                WHO.intersection(e.tags),
                _not(e),
            )
            for e in tables.entries(table_id)
        ]
    return found


def room_pool(
    tables: TableSet,
    table_id: str,
    worlds: frozenset[str],
    room: frozenset[str],
    kinds: frozenset[str] | None = frozenset(),
    moods: frozenset[str] = frozenset(),
) -> Pool:
    """The entries fitting a ROOM: untagged or `any`; else of no world (exclusive place) the
    theme lacks (`worlds`: the exclusive places it names), with place tags meeting the room
    type's when it has any, and tags of who is there (social, beast... on hoard places;
    `occupied` on the senses) meeting its occupants' when it has any, and one or the other;
    and none whose `not` names one of the theme's mood words (`moods`: no magma glow in a
    watery temple).
    Other tags (water, grim) are not places and do not count. Made once per TableSet."""
    cache = tables.derived.setdefault("pools", {})
    key = (table_id, "room", worlds, room, kinds, moods)
    found = cache.get(key)
    if found is None:
        kept: list[Entry] = []
        cumulative: list[float] = []
        total = 0.0
        for e, w, every, world, places, who, not_ in _room_tags(tables, table_id):
            if w <= 0 or (moods and not moods.isdisjoint(not_)):
                continue
            if not every:
                if world and world not in worlds:
                    continue
                if places and room.isdisjoint(places):
                    continue
                if who and kinds is not None and kinds.isdisjoint(who):
                    continue
                if not places and not who:
                    continue
            total += w
            kept.append(e)
            cumulative.append(total)
        found = cache[key] = Pool(table_id, tuple(kept), tuple(cumulative))
    return found


_NONE: frozenset[int] = frozenset()
DEEP = frozenset({"deep"})  # the mood of every level below the first (Deck.below)


def _every(_: Entry) -> bool:
    return True


class Deck:
    """What one site has dealt, by table, and the places its entries should fit."""

    def __init__(
        self, tables: TableSet, places: Iterable[str] = (), moods: Iterable[str] = ()
    ) -> None:
        self.tables = tables
        self.places = tuple(places)
        self.moods = frozenset(moods)  # the theme's mood words, for entries' `not`
        self.place_set = frozenset(self.places)
        self.worlds = EXCLUSIVE.intersection(self.places)  # the exclusive places it names
        self.used: dict[str, set[int]] = {}
        # Its pools by table, which follow from the places and moods alone: shared by every
        # deck of those (once per TableSet, not once a site).
        self._fitting: dict[str, Pool] = tables.derived.setdefault(
            ("deck-pools", self.places, self.moods), {}
        )
        # ... and what `in_room` draws from and keeps, by table and room (a score a site).
        self._rooms: dict[tuple[str, frozenset[str], frozenset[str]], Pool]
        self._rooms = tables.derived.setdefault(("deck-rooms", self.places, self.moods), {})

    def below(self) -> Deck:
        """The deck for a level under the first: what the site has dealt, and the mood word
        `deep` beside the theme's, so an entry that needs the sky over it (daylight through a
        window, starlight through a hole in the dome) says `not: [deep]` and stays up top."""
        deck = Deck(self.tables, self.places, self.moods | DEEP)
        deck.used = self.used
        return deck

    def fitting(self, table_id: str) -> Pool:
        """The table's entries that fit the site's places."""
        found = self._fitting.get(table_id)
        if found is None:
            moods = mood_words(self.tables, table_id, self.moods)
            found = self._fitting[table_id] = pool(
                self.tables,
                table_id,
                ("places", self.places, moods),
                fits_places(self.places, moods),
            )
        return found

    def entry(
        self,
        table_id: str,
        rng: Rng,
        fitting: Pool | None = None,
        strict: bool = False,
        near: set[int] | None = None,
        more: tuple[Pool, ...] = (),
    ) -> Entry:
        """An entry of the table, from `fitting` (by default: those fitting the site's places)
        while any is left, then (unless `strict`) from the whole table; when everything that
        may be dealt has been, one comes round again, but none of `near` (ids of the entries
        dealt close by: a room's other groups) while there is another. `more` are pools to deal
        from, in order, when `fitting` is spent (a room's entries, then the theme's)."""
        used = self.used.get(table_id)
        if used is None:
            used = self.used[table_id] = set()
        if fitting is None:
            fitting = self._fitting.get(table_id) or self.fitting(table_id)
        e = fitting.pick(rng, used)
        for then in more:
            if e is None:
                e = then.pick(rng, used)
        if e is None:
            every = self._every(table_id)
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

    def _every(self, table_id: str) -> Pool:
        """The whole table but for entries of a world the site does not name."""
        found = self._fitting.get("every:" + table_id)
        if found is None:
            wanted = frozenset(self.places)
            moods = mood_words(self.tables, table_id, self.moods)
            found = pool(
                self.tables,
                table_id,
                ("every", self.places, moods),
                lambda e: not foreign(e, wanted) and moods.isdisjoint(_not(e)),
            )
            if not found:  # a referee's table all of other worlds: it still deals
                found = pool(self.tables, table_id, "all", _every)
            self._fitting["every:" + table_id] = found
        return found

    def for_room(
        self, table_id: str, room: frozenset[str], kinds: frozenset[str] = frozenset()
    ) -> Pool:
        """The table's entries that fit a room of these place tags (and occupant kinds)."""
        # Kept by what the fit reads of the theme (its worlds), not by theme: far fewer pools.
        moods = mood_words(self.tables, table_id, self.moods)
        return room_pool(self.tables, table_id, self.worlds, room, kinds, moods)

    def in_room(
        self,
        table_id: str,
        rng: Rng,
        room: frozenset[str],
        kinds: frozenset[str] = frozenset(),
    ) -> Entry:
        """An entry fitting the room (its type's places, its occupants); when those are spent,
        one fitting the site's places, whoever is there; then any of the site's worlds."""
        tables = self.tables
        # By weight from the room's own pool (once per TableSet, kind of room and theme's
        # worlds and moods).
        key = (table_id, room, kinds)
        found = self._rooms.get(key)
        if found is None:
            found = self._rooms[key] = self.for_room(table_id, room, kinds)
        used = self.used.get(table_id)
        if used is None:
            used = self.used[table_id] = set()
        e = found.pick(rng, used)
        if e is not None:
            used.add(id(e))
            return e
        moods = mood_words(tables, table_id, self.moods)
        site = room_pool(tables, table_id, self.worlds, self.place_set, None, moods)
        return self.entry(table_id, rng, found, more=(site, self.fitting(table_id)))

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
