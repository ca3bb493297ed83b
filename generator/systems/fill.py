"""Filling a system's text: `{$name}` placeholders, numbers in words, and the small checks
stat-block lines use.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from generator.engine.table import Entry, Table
from generator.engine.texts import Template, as_written, compile_template
from generator.errors import DelveError

if TYPE_CHECKING:
    pass


def round_half_up(value: float, step: float = 1.0) -> float:
    """Round to the nearest multiple of step, halves upward (Python's round() goes to even)."""
    return math.floor(value / step + 0.5) * step


def number_text(value: float) -> str:
    """12.0 -> '12', 2.5 -> '2.5', 1200 -> '1,200'."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:g}"


def hit_dice_text(hd: float) -> str:
    return "1/2" if hd == 0.5 else number_text(hd)


def truthy(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, Template):
        return True
    return bool(value)


def when(condition: str, values: Mapping[str, Any]) -> bool:
    """'armor !evasive': every name set (or, with !, unset) for a stat-block line to show."""
    for word in condition.split():
        wanted = not word.startswith("!")
        if truthy(values.get(word.lstrip("!"))) != wanted:
            return False
    return True


def where(table: Table, line: int | None = None) -> str:
    return f"{table.path}:{table.line if line is None else line}: table '{table.id}'"


def speeds(text: str) -> list[float]:
    """'8/24"' -> [8.0, 24.0]: walking speed, then flying (FMC Basic, Example Monsters)."""
    return [float(n) for n in re.findall(r"\d+(?:\.\d+)?", text)]


class Missing(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def fill(template: Template | str, values: Mapping[str, Any], depth: int = 0) -> str:
    """Fill `{$name}` placeholders from values; `{2d6}` stays as the text 2d6 (never rolled).

    A value that is itself a Template (a lookup field with placeholders) is filled in turn.
    `{$x_signed}` is the number x with its sign (+2). Raises Missing for an unknown name.
    """
    tpl = compile_template(template) if isinstance(template, str) else template
    if tpl.static is not None:
        return tpl.static
    out: list[str] = []
    for part in tpl.parts:
        if isinstance(part, str):
            out.append(part)
        elif part[0] == "dice":
            out.append(as_written(part))
        elif part[0] == "ref":
            out.append(f"@{part[1]}")
        else:
            out.append(_value_text(part[1], values, depth))
    return "".join(out)


def _value_text(name: str, values: Mapping[str, Any], depth: int) -> str:
    if name in values:
        value = values[name]
    elif name.endswith("_signed") and isinstance(values.get(name[:-7]), (int, float)):
        number = values[name[:-7]]
        return f"{int(number):+d}" if float(number).is_integer() else f"{number:+g}"
    else:
        raise Missing(name)
    if isinstance(value, Template):
        if depth > 4:
            raise DelveError(f"placeholder {{${name}}} refers to itself")
        return fill(value, values, depth + 1)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return number_text(value)
    if value is None:
        return ""
    return str(value)


def placeholders(template: Template | str) -> list[str]:
    tpl = compile_template(template) if isinstance(template, str) else template
    return [p[1] for p in tpl.parts if isinstance(p, tuple) and p[0] == "var"]


def row_values(entry: Entry, skip: Iterable[str] = ()) -> dict[str, Any]:
    """An entry's fields as values; text with placeholders stays a Template, filled at use."""
    out: dict[str, Any] = {}
    skipped = set(skip) | {"note", "result"}
    for name, value in entry.data.items():
        if name in skipped or name == "tags":
            continue
        out[name] = entry.templates.get(name, value)
    return out
