"""Table texts: a result's `{2d6}`, `{1d3 lock|locks}`, `{@table/id}` and `{$name}`
placeholders, compiled once.

A text is split into literal parts and placeholders when its table loads, so rolling it is a
join (docs/tables.md, "Text"). A die before a noun carries the noun's two forms, so the count
and the noun agree however the die falls: `{1d3 lock|locks}` prints "1 lock" or "3 locks".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.engine import words
from generator.engine.dice import Formula, parse
from generator.errors import DelveError, DiceError

ID_RE = re.compile(r"^[a-z0-9][a-z0-9_\-]*(/[a-z0-9][a-z0-9_\-]*)*$")
_PLACE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
REF_SCAN = re.compile(r"\{@([^{}]*)\}")  # the references of a text that did not compile


@dataclass(frozen=True)
class Template:
    """Result text split into literal text and placeholders."""

    # str | ("dice", Formula, one, many) | ("ref", id) | ("var", name); a die's `one` and
    # `many` are the noun it counts (both "" for a bare number)
    parts: tuple[Any, ...]
    static: str | None  # the whole text when it has no placeholders

    @property
    def refs(self) -> list[str]:
        return [p[1] for p in self.parts if isinstance(p, tuple) and p[0] == "ref"]


def compile_template(text: str) -> Template:
    """Parse `{2d6}`, `{@table/id}`, `{$name}`; `{{`/`}}` are literal braces."""
    if "{" not in text and "}" not in text:  # most texts: no placeholders (and the cache's
        return Template((), text)  # rebuild of a table compiles every one of them again)
    parts: list[Any] = []
    buf: list[str] = []
    pos = 0
    for m in _PLACE.finditer(text):
        buf.append(text[pos : m.start()])
        pos = m.end()
        tok = m.group(0)
        if tok == "{{":
            buf.append("{")
        elif tok == "}}":
            buf.append("}")
        elif tok in ("{", "}"):
            raise DelveError(f"unbalanced {tok!r} in text (write {tok * 2} for a literal brace)")
        else:
            inner = m.group(1).strip()
            if buf:
                parts.append("".join(buf))
                buf = []
            if inner.startswith("@"):
                ref = inner[1:].strip()
                if not ID_RE.match(ref):
                    raise DelveError(f"bad table reference {{@{ref}}}")
                parts.append(("ref", ref))
            elif inner.startswith("$"):
                name = inner[1:].strip()
                if not name.isidentifier():
                    raise DelveError(f"bad placeholder {{${name}}}")
                parts.append(("var", name))
            elif "|" in inner:
                parts.append(_counted(inner))
            else:
                try:
                    parts.append(("dice", parse(inner), "", ""))
                except DiceError as err:
                    raise DelveError(f"bad inline dice {{{_cut(inner)}}}: {err}") from None
    buf.append(text[pos:])
    if buf and "".join(buf):
        parts.append("".join(buf))
    if all(isinstance(p, str) for p in parts):
        return Template((), "".join(parts))
    return Template(tuple(parts), None)


def _cut(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def _counted(inner: str) -> tuple[str, Formula, str, str]:
    """`1d3 lock|locks` (or `2d6+1 bolt of silk|bolts of silk`): a die, the noun for one, `|`,
    the noun for more. The die is the longest run of words at the front that reads as dice."""
    left, _, many = inner.partition("|")
    front = left.split()
    for cut in range(len(front) - 1, 0, -1):
        try:
            formula = parse(" ".join(front[:cut]))
        except DiceError:
            continue
        one = " ".join(front[cut:])
        if one and many.strip() and "|" not in many:
            return ("dice", formula, one, " ".join(many.split()))
        break
    raise DelveError(
        f"bad counted noun {{{_cut(inner)}}}: write a die, the noun for one, '|' and the noun "
        "for more, as {1d3 lock|locks}"
    )


def counted(n: int, one: str, many: str) -> str:
    """A rolled count with its noun agreeing: '1 lock', '3 locks'; the bare number without one."""
    return words.count(n, one, many) if one else str(n)


def as_written(part: tuple[str, Formula, str, str]) -> str:
    """A die part as a referee reads it unrolled: '2d6', '1d3 locks' (the noun for more)."""
    return f"{part[1]} {part[3]}" if part[2] else str(part[1])


def entry_templates(
    data: Mapping[str, Any], errors: list[tuple[str, DelveError]] | None = None
) -> tuple[Template, dict[str, Template]]:
    """An entry's compiled texts: its `result`, and each other text field with placeholders.
    A text that does not compile is added to `errors` (or raised when none is given)."""
    template = Template((), "")
    templates: dict[str, Template] = {}
    for key, value in data.items():
        if not isinstance(value, str):
            continue
        try:
            tpl = compile_template(value)
        except DelveError as err:
            if errors is None:
                raise
            errors.append((key, err))
            continue
        if key == "result":
            template = tpl
        elif tpl.static is None:
            templates[key] = tpl
    return template, templates
