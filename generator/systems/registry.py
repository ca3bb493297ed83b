"""Which systems the tables hold (systems/index), loading one, and the tables every system
shares (special abilities, deadly traps).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from generator.engine.tables import TableSet
from generator.errors import DelveError, TableError
from generator.systems.core import System
from generator.systems.fill import where
from generator.systems.spec import INDEX

if TYPE_CHECKING:
    pass

DICE = re.compile(r"(\d*)d(\d+)")


@dataclass
class _Index:
    keys: list[str]
    names: dict[str, str]
    converters: dict[str, str]
    default: str
    lines: dict[str, int] = field(default_factory=dict)


def _index(tables: TableSet) -> _Index:
    cached = tables.derived.get("systems/index")
    if cached is not None:
        return cached
    keys: list[str] = []
    names: dict[str, str] = {}
    converters: dict[str, str] = {}
    lines: dict[str, int] = {}
    default = ""
    problems: list[str] = []
    if tables.has(INDEX):
        table = tables.require_fields(INDEX, {"key": "str", "name": "str"})
        for e in table.entries:
            key = e["key"]
            if key in names:
                problems.append(f"{where(table, e.line)}: system '{key}' is listed twice")
                continue
            if not tables.has(f"systems/{key}/terms"):
                problems.append(
                    f"{where(table, e.line)}: system '{key}' has no table systems/{key}/terms"
                )
                continue
            keys.append(key)
            names[key] = e["name"]
            lines[key] = e.line
            if e.get("converter"):
                converters[key] = str(e["converter"])
            if e.get("default") is True and not default:
                default = key
    found = sorted(
        {
            tid.split("/")[1]
            for tid in tables.ids()
            if tid.startswith("systems/") and tid.count("/") == 2 and tid.endswith("/terms")
        }
    )
    keys += [k for k in found if k not in names]
    if problems:
        raise TableError(problems)
    if not keys:
        raise DelveError("no rules systems: the tables hold no systems/KEY/terms table")
    index = _Index(keys, names, converters, default or ("fmc" if "fmc" in keys else keys[0]), lines)
    tables.derived["systems/index"] = index
    return index


def system_keys(tables: TableSet) -> list[str]:
    """Every system's key, listed ones first (systems/index order), then any others found."""
    return list(_index(tables).keys)


def default_system(tables: TableSet) -> str:
    return _index(tables).default


def unknown_system_message(tables: TableSet, key: str) -> str:
    return f"unknown system '{key}'; systems: {', '.join(system_keys(tables))}"


def get_system(tables: TableSet, key: str | None = None) -> System:
    """The rules system `key` (default: the index's default), loaded and checked once per set.

    Raises DelveError naming the systems for an unknown key, and TableError (FILE:LINE lines)
    for a system whose tables are incomplete.
    """
    from generator.systems.hooks import HOOKS

    index = _index(tables)
    chosen = index.default if key is None else key.strip().lower()
    if chosen not in index.keys:
        raise DelveError(unknown_system_message(tables, key or ""))
    cache: dict[str, System] = tables.derived.setdefault("systems", {})
    if chosen in cache:
        return cache[chosen]
    hook = None
    converter = index.converters.get(chosen)
    if converter is not None:
        hook = HOOKS.get(converter)
        if hook is None:
            table = tables.get(INDEX)
            raise TableError(
                [
                    f"{where(table, index.lines.get(chosen))}: unknown converter "
                    f"'{converter}' (converters: {', '.join(sorted(HOOKS))})"
                ]
            )
    system = System(
        tables,
        chosen,
        index.names.get(chosen, ""),
        default=chosen == index.default,
        hook=hook,
    )
    if not system.name:
        system.name = chosen
    cache[chosen] = system
    return system


def all_systems(tables: TableSet) -> list[System]:
    return [get_system(tables, k) for k in system_keys(tables)]
