"""The tables every system shares: kinds of special ability (systems/specials) and which
traps are deadly (systems/deadly-traps)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from generator.engine import needs
from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.errors import TableError
from generator.model.monster import Monster
from generator.systems.fill import where
from generator.systems.spec import DEADLY, SPECIALS

if TYPE_CHECKING:
    from generator.model.site import Trap

DICE = re.compile(r"(\d*)d(\d+)")


def _max_damage_at_least_one(tables: TableSet, table: Table) -> list[str]:
    return [
        f"{needs.where(table, e.line)}: max_damage must be at least 1, not {e['max_damage']}"
        for e in table.entries
        if isinstance(e["max_damage"], int) and e["max_damage"] < 1
    ]


DEADLY_TRAPS = needs.declare(
    DEADLY,
    "the rules systems",
    fields={"match": "list", "max_damage": "int"},
    check=_max_damage_at_least_one,
)


def special_kinds(tables: TableSet) -> list[str]:
    """The kinds of special ability, in systems/specials order."""
    return [e["key"] for e in specials_table(tables).entries]


def specials_table(tables: TableSet) -> Table:
    cached = tables.derived.get("systems/specials")
    if cached is None:
        cached = tables.require_fields(SPECIALS, {"key": "str"})
        for name, type_name in (("group", "str"), ("match", "list"), ("damage_type", "str")):
            declared = cached.fields.get(name)
            if declared is not None and declared[0] != type_name:
                raise TableError(
                    [f"{where(cached)}: field '{name}' must be declared as {type_name}"]
                )
        tables.derived["systems/specials"] = cached
    return cached


def classify(tables: TableSet, monster: Monster) -> tuple[list[str], bool]:
    """The kinds of the monster's special ability, and whether its text matched any of them."""
    text = monster.special.lower()
    kinds: list[str] = []
    groups: set[str] = set()
    by_text = False
    for e in specials_table(tables).entries:
        group = e.get("group")
        if group and group in groups:
            continue
        hit_text = bool(text) and any(str(p).lower() in text for p in e.get("match") or [])
        hit_type = bool(e.get("damage_type")) and e.get("damage_type") == monster.damage_type
        if hit_text or hit_type:
            kinds.append(e["key"])
            by_text = by_text or hit_text
            if group:
                groups.add(group)
    return kinds, by_text


def is_deadly(tables: TableSet, trap: Trap) -> bool:
    """Whether a trap is deadly: its effect names a lethal outcome, or all its damage dice
    together can reach the table's max_damage (systems/deadly-traps)."""
    table = needs.require(tables, DEADLY_TRAPS)
    text = trap.effect.lower()
    most = sum(int(count or 1) * int(sides) for count, sides in DICE.findall(text))
    for e in table.entries:
        if any(str(p).lower() in text for p in e["match"]) or most >= e["max_damage"]:
            return True
    return False


# --------------------------------------------------------------------------- the registry
