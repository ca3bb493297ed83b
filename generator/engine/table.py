"""A loaded table: its entries and how a roll finds one (tables.py loads and rolls them)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.engine.dice import Formula
from generator.engine.rng import Rng
from generator.engine.spans import MAX_LOOKUP, Span, SpanLookup, runs
from generator.engine.texts import Template, entry_templates


@dataclass
class Entry:
    """One line of a table: its result text, tags and structured fields.

    Its compiled texts may be given (a table just parsed and checked) or left None (a table
    from the cache, already checked): they are compiled the first time they are read, so a
    command pays only for the entries it rolls."""

    data: dict[str, Any]
    line: int
    _template: Template | None
    _templates: dict[str, Template] | None  # other text fields that hold placeholders
    weight: float = 1.0
    rolls: tuple[int, ...] = ()  # every roll it covers (tables whose die lists its odds)
    spans: tuple[Span, ...] = ()  # the same as runs (every die table)

    def _compile(self) -> None:
        self._template, self._templates = entry_templates(self.data)

    @property
    def template(self) -> Template:
        if self._template is None:
            self._compile()
        return self._template  # type: ignore[return-value]

    @property
    def templates(self) -> dict[str, Template]:
        if self._templates is None:
            self._compile()
        return self._templates  # type: ignore[return-value]

    @property
    def result(self) -> str:
        return self.data.get("result", "")

    @property
    def tags(self) -> list[str]:
        return self.data.get("tags", [])

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass
class Table:
    id: str
    title: str
    path: Path
    folder: str
    die: Formula | None
    entries: list[Entry]
    fields: dict[str, tuple[str, bool]]  # name -> (type name, required)
    source: str = ""
    description: str = ""
    line: int = 1
    # Rolling aids, filled by _prepare():
    lookup: list[Entry] = field(default_factory=list)
    low: int = 0
    cumulative: list[float] = field(default_factory=list)

    def _prepare(self) -> None:
        if self.die is not None:
            self.low, high = self.die.min, self.die.max
            for e in self.entries:
                if not e.spans:
                    e.spans = tuple(runs(e.rolls))
            if self.die.exact and high - self.low < MAX_LOOKUP:
                counts = self.die._counts()
                by_roll: dict[int, Entry] = {}
                for e in self.entries:
                    e.rolls = tuple(
                        v for lo, hi in e.spans for v in range(max(lo, self.low), min(hi, high) + 1)
                    )
                    by_roll.update((r, e) for r in e.rolls)
                    e.weight = float(sum(counts.get(r, 0) for r in e.rolls))
                self.lookup = [by_roll.get(v) for v in range(self.low, high + 1)]  # type: ignore[misc]
            else:  # one big die (checked at load): every value as likely, found by its run
                for e in self.entries:
                    e.weight = float(sum(hi - lo + 1 for lo, hi in e.spans))
                self.lookup = SpanLookup(self.low, high, self.entries)  # type: ignore[assignment]
        total = 0.0
        self.cumulative = []
        for e in self.entries:
            total += e.weight
            self.cumulative.append(total)

    def pick(self, rng: Rng) -> tuple[Entry, int | None]:
        """One roll on the table: the entry and the number rolled (None when weighted)."""
        if self.die is not None:
            value = self.die.roll(rng)
            return self.lookup[value - self.low], value
        return self.entries[bisect_right(self.cumulative, rng.random() * self.cumulative[-1])], None

    @property
    def label(self) -> str:
        return f"{self.path}"


class Rolled:
    """What one roll on a table gave: the entry, the number rolled (die tables) and its text."""

    __slots__ = ("table", "entry", "value", "text")

    def __init__(self, table: str, entry: Entry, value: int | None, text: str) -> None:
        self.table, self.entry, self.value, self.text = table, entry, value, text

    def __getitem__(self, key: str) -> Any:
        return self.entry.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.entry.data.get(key, default)

    def __repr__(self) -> str:
        return f"Rolled({self.table!r}, {self.value!r}, {self.text!r})"
