"""Checks a rules system's tables when it loads: every lookup covers what a monster can be
(each bracket, each defense class), bands rise, and every {$name} a stat block, note or term
names is a value the system's tables or hook provide. Each returns FILE:LINE problems.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from generator.build.monsters import ARMOUR_CLASSES, DEFENSE_CLASSES, SHIELD_BONUS, brackets
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.engine.texts import Template
from generator.systems.fill import placeholders, where
from generator.systems.spec import BASE_VARS

if TYPE_CHECKING:
    from generator.systems.core import System
    from generator.systems.hooks import Hook


def lookup_problems(tables: TableSet, lookups: Mapping[str, Table]) -> list[str]:
    """Lookup tables that miss a bracket, a defense class or a class, or are out of order."""
    problems: list[str] = []
    table = lookups.get("brackets")
    if table is not None:
        have = {e["bracket"] for e in table.entries}
        for number in sorted(set(brackets(tables)) - have):
            problems.append(f"{where(table)}: no entry for bracket {number}")
    table = lookups.get("defense")
    if table is not None:
        have = {e["dc"] for e in table.entries}
        for dc in sorted(set(DEFENSE_CLASSES) - have):
            # FMC Basic, Armor & Speed: 13, 15 and 17 are 12, 14 and 16 with a shield's +1.
            shield = "" if dc in ARMOUR_CLASSES else f" ({dc - SHIELD_BONUS} and a shield)"
            problems.append(f"{where(table)}: no entry for defense class {dc}{shield}")
    table = lookups.get("classes")
    if table is not None:
        have = {(e["class"], e["bracket"]) for e in table.entries}
        for cls in dict.fromkeys(e["class"] for e in table.entries):
            for number in sorted(brackets(tables)):
                if (cls, number) not in have:
                    problems.append(
                        f"{where(table)}: no entry for class '{cls}' at bracket {number}"
                    )
    table = lookups.get("units")
    if table is not None:
        e = table.entries[0]
        if len(table.entries) != 1:
            problems.append(f"{where(table)}: needs exactly one entry")
        elif e["per_inch"] <= 0 or e["round"] <= 0:
            problems.append(f"{where(table, e.line)}: per_inch and round must be above 0")
        elif not e.result:
            problems.append(f"{where(table, e.line)}: needs a result such as '{{$value}} m'")
    table = lookups.get("events")
    if table is not None:
        dice = [e["die"] for e in table.entries]
        if sorted(dice) != list(range(1, len(dice) + 1)):
            problems.append(f"{where(table)}: the event dice must be numbered 1, 2, 3...")
    for name in ("speeds", "ranges"):
        table = lookups.get(name)
        if table is not None:
            bands = [e["up_to"] for e in table.entries]
            if bands != sorted(set(bands)):
                problems.append(f"{where(table)}: up_to must rise from entry to entry")
    return problems


def known_names(lookups: Mapping[str, Table], hook: Hook | None) -> set[str]:
    """Every value a template of the system may name."""
    known = set(BASE_VARS)
    for name, table in lookups.items():
        declared = set(table.fields) - {"note"}
        known |= declared
        if name == "armour":
            known |= {f"shield_{f}" for f in declared}
    if hook is not None:
        known |= hook.provides
    return known


def placeholder_problems(
    key: str,
    stat: Table,
    terms_table: Table | None,
    terms: Mapping[str, Entry],
    lookups: Mapping[str, Table],
    hook: Hook | None,
) -> list[str]:
    """Placeholders and when: names in the stat block, terms and notes that nothing provides."""
    known = known_names(lookups, hook)
    problems: list[str] = []

    def check(text: Template | str, table: Table, line: int) -> None:
        for name in placeholders(text):
            base = name[:-7] if name.endswith("_signed") else name
            if name not in known and base not in known:
                problems.append(
                    f"{where(table, line)}: {{${name}}} is not a value of system "
                    f"'{key}' (no table of the system declares it)"
                )

    for e in stat.entries:
        check(e.templates.get("value", e["value"]), stat, e.line)
        for name in str(e.get("when") or "").split():
            if name.lstrip("!") not in known:
                problems.append(
                    f"{where(stat, e.line)}: when: '{name}' is not a value of system '{key}'"
                )
    for term, e in terms.items():
        if term.startswith(("special", "area.", "speed.", "frequency.")) or term == "resist":
            assert terms_table is not None
            check(e.template, terms_table, e.line)
    for table in lookups.values():
        for e in table.entries:
            if "note" in e.data:
                check(e.templates.get("note", e["note"]), table, e.line)
    resist = lookups.get("resist")
    if resist is not None:
        for e in resist.entries:
            check(e.template, resist, e.line)
    return problems


def bestiary_problems(system: System) -> list[str]:
    """Every monster of the bestiary set in this system's stat block, as a booklet would: a
    lookup with no row for a monster's armour, die or class is then found by `tables check`
    rather than by the booklet. Nothing when the bestiary itself has problems (those are
    reported as the bestiary's own)."""
    from generator.build.monsters import bestiary
    from generator.errors import DelveError

    try:
        beasts = bestiary(system.tables)
    except DelveError:
        return []
    problems: list[str] = []
    for m in beasts.monsters:
        try:
            system.stat_block(m)
        except DelveError as err:
            problems.append(f"{err}; {m.name} is at {beasts.sources[m.name]}")
    return problems
