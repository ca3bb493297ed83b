"""What each generator needs of the tables it reads, declared once, beside the generator.

A table file can be perfectly well formed and still be useless to the generator that reads it:
an obstacle whose `key` the site generator does not know, a treasure table without `worth_cp`.
So each generator declares, at import, what it relies on in each table id::

    OBSTACLES = needs.declare(
        "site/obstacles", by="the site generator", fields={"key": "str"},
        values={"key": ("locked_door", "hidden_door", "long_corridor", "none")},
    )

and reads the table through :func:`require`, which checks the table against the declaration once
per TableSet. ``delve tables check`` checks every table against every declaration (see
:func:`check_all`), so a user table that would break a generator is reported before any
generator runs, with the same words, from the same declaration: there is no second copy of the
rules. A declaration may name a family of tables (``region/encounters/*``) and add a `check` for
what fields and values cannot say (a monster named in a roster must be in the bestiary).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.errors import TableError

Check = Callable[[TableSet, Table], list[str]]


def by_reading(read: Callable[[TableSet], object]) -> Check:
    """A check that reads the tables as their generator does and reports what that reading
    refuses: an edited copy fails `tables check`, not the first command that reads it."""

    def check(tables: TableSet, table: Table) -> list[str]:
        try:
            read(tables)
        except TableError as err:
            return list(err.problems)
        return []

    return check


@dataclass(frozen=True)
class Need:
    """What one generator needs of one table (or of every table of a family, `group/*`)."""

    table: str
    by: str
    fields: Mapping[str, str] = field(default_factory=dict)  # name -> type, on every entry
    values: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # name -> allowed
    check: Check | None = None

    def matches(self, table_id: str) -> bool:
        if self.table.endswith("/*"):
            return table_id.startswith(self.table[:-1])
        return table_id == self.table


_DECLARED: list[Need] = []


def declare(
    table: str,
    by: str,
    fields: Mapping[str, str] | None = None,
    values: Mapping[str, Iterable[Any]] | None = None,
    check: Check | None = None,
) -> Need:
    """Declare (once, at import) what the generator `by` needs of `table`; returns the Need."""
    need = Need(
        table,
        by,
        dict(fields or {}),
        {k: tuple(v) for k, v in (values or {}).items()},
        check,
    )
    _DECLARED.append(need)
    return need


def declared() -> list[Need]:
    return list(_DECLARED)


def where(table: Table, line: int | None = None) -> str:
    return f"{table.path}:{line or table.line}: table '{table.id}'"


def problems(tables: TableSet, need: Need, table: Table) -> list[str]:
    """Every way `table` falls short of `need`, as FILE:LINE lines."""
    out: list[str] = []
    wrong: set[str] = set()
    for name, type_name in need.fields.items():
        declared_as = table.fields.get(name)
        if declared_as is None or declared_as[0] != type_name or not declared_as[1]:
            wrong.add(name)
            out.append(
                f"{where(table)}: {need.by} needs a required field '{name}: {type_name}' "
                "on every entry"
            )
    for name, allowed in need.values.items():
        if name in wrong:
            continue  # the field itself is wrong; its values would only repeat that
        shown = ", ".join(str(v) for v in allowed)
        for e in table.entries:
            if name in e.data and e.data[name] not in allowed:
                out.append(
                    f"{where(table, e.line)}: {name} {e.data[name]!r} must be one of {shown} "
                    f"({need.by} knows no other)"
                )
    if need.check is not None and not out:
        # A table with problems of its own (TableSet.check) keeps its faulty entries, some
        # without a declared field: the check sees only entries that have them all.
        whole = [e for e in table.entries if all(name in e.data for name in need.fields)]
        out += need.check(tables, replace(table, entries=whole))
    return out


def require(tables: TableSet, need: Need, table_id: str | None = None) -> Table:
    """The table, checked against what `need` declares (once per TableSet); TableError if not."""
    table_id = table_id or need.table
    key = f"needs/{need.by}/{table_id}"
    table = tables.get(table_id)
    if key not in tables.derived:
        found = problems(tables, need, table)
        if found:
            raise TableError(found)
        tables.derived[key] = True
    return table


def check_all(tables: TableSet) -> list[str]:
    """Every table checked against every declaration (the generators must be imported),
    including what parsed of tables with problems of their own (TableSet.check)."""
    every = {**tables.tables, **tables.partial}
    out: list[str] = []
    for need in _DECLARED:
        for table_id in sorted(every):
            if need.matches(table_id):
                out += problems(tables, need, every[table_id])
    return list(dict.fromkeys(out))
