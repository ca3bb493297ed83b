"""Room types for every room of a site, dealt before anything is stocked (docs/rooms.md).

Types fix the rooms' sizes and shapes, so they are the plan's business: they are drawn from the
site's plan stream (<seed>/layout), with the level layouts, the obstacles and the ends of the
ways between levels, and nothing a room's contents roll ever touches that stream. A change to a
feature, a monster or a trap never moves a room (issue 10).

What a type is weighed by:

- its world: a type whose first tag is an exclusive place (ice, ship, dock, hive, bath, library)
  goes only to a theme naming that place;
- its places: types sharing the theme's places (the more of its own tags they are, the more so),
  most of all its first, and made the way the theme's rooms are made (its builds), so a dragon's
  lair gets caves and not a boathouse;
- the room it goes to: hoard types (a treasury, a strongroom, a hoard chamber: `hoard: true`, or
  a name that says so) only to the lair and the hidden treasure; rooms holding monsters prefer
  types whose `for` suits the kinds on the theme's roster (the roster, not the monsters rolled,
  which are contents);
- the history: each level's first rooms are drawn from types with the tags of the history's
  "what", so the history's crypt is made of crypt rooms.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.build.site.deck import Pool, foreign
from generator.build.site.rules import ARMS, BY, HOARD_WORDS, LAIR_POS, LOOP
from generator.build.site.themes import Detail, Theme, details_of
from generator.engine import needs
from generator.engine.rng import Rng
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.errors import TableError

TYPES_TABLE = "site/room-types"
ROOM_TYPES = needs.declare(
    TYPES_TABLE,
    BY,
    fields={"name": "str", "size": "str"},
    check=lambda tables, table: _type_problems(table),
)
# The fields alone, which a site checks at once; a type's details and lists are checked (with
# the same words) when a site first uses the type, so one site pays for six types, not all.
TYPE_FIELDS = needs.Need(TYPES_TABLE, BY, {"name": "str", "size": "str"})
HOARD_ROLES = ("monsters_with_treasure", "hidden_treasure")
MONSTER_ROLES = ("monsters_with_treasure", "monsters")
ROLES = ("feature", "monsters_with_treasure", "monsters", "hidden_treasure")
WHAT_FIRST = 2  # rooms of each level drawn from the history's place first


@dataclass(frozen=True)
class RoomType:
    """What composition reads of a room type (docs/rooms.md, site/room-types)."""

    entry: Entry
    name: str
    noun: str
    form: str
    was: str
    builds: tuple[str, ...]
    details: tuple[Detail, ...]
    places: frozenset[str]
    hoard: bool
    ruled: frozenset[str] = frozenset()  # conditions one of its details cannot stand beside


def _entry_problems(table: Table, e: Entry, problems: list[str]) -> tuple[Detail, ...]:
    where = f"{needs.where(table, e.line)}: room type {e.get('name')!r}"
    details = details_of(e.get("details"), where, problems)
    for name in ("builds", "for"):
        value = e.get(name)
        if value is not None and not all(isinstance(v, str) for v in value):
            problems.append(f"{where}: {name} must be a list of words")
    return details


def _type_problems(table: Table) -> list[str]:
    problems: list[str] = []
    for e in table.entries:
        _entry_problems(table, e, problems)
    return problems


def _is_hoard(e: Entry) -> bool:
    return bool(e.get("hoard")) or bool(HOARD_WORDS.search(str(e.get("name") or "")))


def room_type(tables: TableSet, entry: Entry) -> RoomType:
    """The entry read for composition, checked (once per TableSet)."""
    cache = tables.derived.setdefault("room-type", {})
    found = cache.get(id(entry))
    if found is None:
        problems: list[str] = []
        details = _entry_problems(tables.get(TYPES_TABLE), entry, problems)
        if problems:
            raise TableError(problems)
        found = cache[id(entry)] = RoomType(
            entry=entry,
            name=str(entry.get("name") or "Room"),
            noun=str(entry.get("noun") or ""),
            form=str(entry.get("form") or ""),
            was=str(entry.get("was") or ""),
            builds=tuple(entry.get("builds") or ()),
            details=details,
            places=frozenset(entry.tags),
            hoard=_is_hoard(entry),
            ruled=frozenset(k for d in details for k in d.not_),
        )
    return found


def layout(rng: Rng) -> list[str]:
    """Contents by loop position (see rules.py for why)."""
    contents = ["feature"] * LOOP
    contents[LAIR_POS] = "monsters_with_treasure"
    guard_arm, hidden_arm = ARMS if rng.chance(0.5) else ARMS[::-1]
    contents[rng.choice(guard_arm)] = "monsters"
    contents[rng.choice(hidden_arm)] = "hidden_treasure"
    return contents


def _place_weight(e: Entry, theme: Theme) -> float:
    """How well a type fits the theme's places and builds (0: not at all)."""
    places = theme.places
    tags = e.tags
    if foreign(e, frozenset(places)):  # a net loft is a dock's: not in a dragon's lair
        return 0.0
    if not tags or "any" in tags:
        w = 0.5
    else:
        shared = sum(1 for t in tags if t in places)
        if not shared:
            return 0.0
        # Squared, so a type half of another place (a boathouse is a cave, but a dock's
        # cave) comes a quarter as often as one wholly of the theme's.
        w = (shared / len(tags)) ** 2 * (3.0 if places and places[0] in tags else 1.0)
    builds = e.get("builds") or ()
    if theme.builds and builds:
        if theme.builds[0] in builds:
            w *= 2.0
        elif not set(builds) & set(theme.builds):
            w *= 0.25
    return w * e.weight


def _role_weight(e: Entry, role: str, kinds: frozenset[str]) -> float:
    if _is_hoard(e):
        return 1.5 if role in HOARD_ROLES else 0.0
    suits = e.get("for") or ()
    if role in MONSTER_ROLES and suits:
        return 3.0 if kinds & set(suits) else 0.3
    return 0.7 if suits else 1.0


@dataclass(frozen=True)
class TypePools:
    what: dict[str, Pool]  # by role: types of the history's place
    theme: dict[str, Pool]  # by role: types of the theme's places
    every: dict[str, Pool]  # by role: any type the role may have


def _theme_pools(tables: TableSet, theme: Theme) -> tuple[dict[str, Pool], dict[str, Pool]]:
    """The theme's types and every type, by role (once per theme and TableSet)."""
    kinds = theme.kinds
    key = f"type-pools/{theme.key}/{','.join(theme.places)}/{','.join(sorted(kinds))}"
    found = tables.derived.get(key)
    if found is not None:
        return found
    if "needs/room-type fields" not in tables.derived:
        found_problems = needs.problems(tables, TYPE_FIELDS, tables.get(TYPES_TABLE))
        if found_problems:
            raise TableError(found_problems)
        tables.derived["needs/room-type fields"] = True
    entries = tables.entries(TYPES_TABLE)
    place_w = [_place_weight(e, theme) for e in entries]
    # A theme of places no type knows (a referee's "market") takes types from every place.
    if sum(1 for w in place_w if w > 0) < LOOP * 6:
        wanted = frozenset(theme.places)
        place_w = [0.0 if foreign(e, wanted) else e.weight for e in entries]
    by_place = {id(e): w for e, w in zip(entries, place_w, strict=True)}
    role_w = {(role, id(e)): _role_weight(e, role, kinds) for role in ROLES for e in entries}
    theme_pools = {
        role: Pool.of(TYPES_TABLE, entries, lambda e, r=role: by_place[id(e)] * role_w[r, id(e)])
        for role in ROLES
    }
    # Every type the theme's worlds allow (a ship's galley only where there is a ship).
    home = frozenset(theme.places)
    every = {
        role: Pool.of(
            TYPES_TABLE,
            entries,
            lambda e, r=role: 0.0 if foreign(e, home) else e.weight * role_w[r, id(e)],
        )
        for role in ROLES
    }
    found = tables.derived[key] = (theme_pools, every)
    return found


def _tagged(tables: TableSet, tags: tuple[str, ...]) -> set[int]:
    """Ids of the types with any of the tags, from an index of the types by tag (once per
    TableSet): a theme's first site with a new history looks up its tags, not every type."""
    index = tables.derived.get("type-tags")
    if index is None:
        index = tables.derived["type-tags"] = {}
        for e in tables.entries(TYPES_TABLE):
            for tag in e.tags:
                index.setdefault(tag, set()).add(id(e))
    return set().union(*(index.get(tag, ()) for tag in tags))


def pools(tables: TableSet, theme: Theme, what_tags: tuple[str, ...]) -> TypePools:
    theme_pools, every = _theme_pools(tables, theme)
    key = f"type-pools/{theme.key}/{','.join(theme.places)}/what/{','.join(what_tags)}"
    found = tables.derived.get(key)
    if found is None:
        ours = _tagged(tables, what_tags)
        found = tables.derived[key] = TypePools(
            {r: p.only(lambda e: id(e) in ours) for r, p in theme_pools.items()},
            theme_pools,
            every,
        )
    return found


def deal_types(
    tables: TableSet,
    rng: Rng,
    theme: Theme,
    layouts: list[list[str]],
    what_tags: tuple[str, ...],
) -> list[list[RoomType]]:
    """A type for every room, level by level, none twice in the site while types last."""
    found = pools(tables, theme, what_tags)
    used: set[int] = set()
    out: list[list[RoomType]] = []
    for contents in layouts:
        level: list[RoomType | None] = [None] * LOOP
        here: set[int] = set()  # this level's types
        history_here = False  # a room of the history's place on this level yet
        for k, pos in enumerate(rng.shuffle(list(range(LOOP)))):
            role = contents[pos]
            entry = None
            if k < WHAT_FIRST:
                entry = found.what[role].pick(rng, used)
                if entry is None and not history_here:
                    # Spent in a big site: a type of the history's place comes round again,
                    # so every level keeps some of it.
                    entry = found.what[role].pick(rng, here)
                history_here = history_here or entry is not None
            for p in (found.theme[role], found.every[role]):
                if entry is None:
                    entry = p.pick(rng, used)
            if entry is None:  # every fitting type is spent: one comes round again
                entry = (found.theme[role] or found.every[role]).pick(rng, here)
            if entry is None:  # a referee's table with no type this room may have
                entry = rng.choice(tables.entries(TYPES_TABLE))
            used.add(id(entry))
            here.add(id(entry))
            level[pos] = room_type(tables, entry)
        out.append(level)  # type: ignore[arg-type]
    return out
