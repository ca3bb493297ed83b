"""What monsters are doing: dealt by what they are (docs/rooms.md, site/activities).

An entry is tagged with the occupant kinds that can do it (`any` for what every creature can);
`result` is written to follow a plural name and `one` a singular one, so the grammar stays in
the table. An entry with `group: true` needs several actors and is never dealt to a lone monster.
A referee's old table of untagged entries fits every kind; its entries without `one` only ever
go to groups.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.build.site.deck import Deck, Pool, pool
from generator.build.site.rules import BY
from generator.engine import needs, words
from generator.engine.rng import Rng
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.model.monster import KINDS, Monster

ROOM_ACTIVITIES = "site/activities"
WANDERING = "site/encounter-activities"


def _fits(kind: str, single: bool) -> Callable[[Entry], bool]:
    def fits(e: Entry) -> bool:
        tags = e.tags
        if tags and "any" not in tags and kind not in tags:
            return False
        return not single or (bool(e.get("one")) and not e.get("group"))

    return fits


def _problems(table: Table) -> list[str]:
    """Every kind needs something to do, alone and in a group (so no site is left without)."""
    out = []
    for kind in KINDS:
        for single, what in ((True, "a lone creature (an entry with 'one')"), (False, "a group")):
            if not any(_fits(kind, single)(e) for e in table.entries):
                out.append(
                    f"{needs.where(table)}: no entry {words.with_article(kind)} can do as "
                    f"{what}; tag one [{kind}] or [any]"
                )
    return out


NEEDS = {
    table_id: needs.declare(table_id, BY, check=lambda tables, table: _problems(table))
    for table_id in (ROOM_ACTIVITIES, WANDERING)
}


def _pool(tables: TableSet, table_id: str, kind: str, single: bool) -> Pool:
    cache = tables.derived.get("pools")
    found = cache.get((table_id, ("kind", kind, single))) if cache else None
    if found is None:
        needs.require(tables, NEEDS[table_id])  # every kind has something to do
        found = pool(tables, table_id, ("kind", kind, single), _fits(kind, single))
    return found


def doing(
    deck: Deck,
    table_id: str,
    rng: Rng,
    monster: Monster,
    count: int,
    near: set[int] | None = None,
) -> str:
    """What a group of `count` of the monster is doing, in the grammar its count needs; none
    of `near` (what the room's other groups do) while it has anything else to do."""
    single = count == 1
    fitting = _pool(deck.tables, table_id, monster.kind, single)
    entry = deck.entry(table_id, rng, fitting, strict=True, near=near)
    if single:
        tpl = entry.templates.get("one")
        if tpl is None:
            return str(entry.get("one", ""))
        return deck.tables.fill(table_id, tpl, rng)
    static = entry.template.static
    return static if static is not None else deck.tables.resolve(table_id, entry, rng).text


def group_doings(
    tables: TableSet, rng: Rng, groups: list[tuple[Monster, int]], deck: Deck | None = None
) -> list[str]:
    """Each group of a room (or a one-room lair) its own activity, none twice."""
    deck = deck or Deck(tables)
    room: set[int] = set()
    return [doing(deck, ROOM_ACTIVITIES, rng, m, n, room) for m, n in groups]
