"""Runs of rolls: what a die table's entries cover, worked as (low, high) pairs.

A range as written (`1-1000000000`) stays two numbers, so a table of one huge die is checked
and rolled without listing its values (see TableSet and docs/tables.md).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import Any

Span = tuple[int, int]  # a run of rolls, both ends included


def parse_rolls(raw: Any) -> list[Span]:
    """`3`, `"4-6"`, `"11-16"`, `"1, 4"`: the runs of outcomes an entry covers (as written:
    `1-1000000000` is one pair of numbers, never a billion of them)."""
    text = str(raw).strip()
    out: list[Span] = []
    for piece in text.split(","):
        piece = piece.strip()
        m = re.fullmatch(r"(-?\d{1,16})\s*(?:-|–|to)\s*(-?\d{1,16})", piece)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise ValueError(f"range {piece!r} runs backwards")
            out.append((lo, hi))
        elif re.fullmatch(r"-?\d{1,16}", piece):
            out.append((int(piece), int(piece)))
        else:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise ValueError(f"roll {shown!r} is not a number or a range such as 4-6")
    return out


def merge(spans: Iterable[Span]) -> list[Span]:
    """Sorted runs with neighbours and overlaps joined."""
    out: list[Span] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def minus(spans: list[Span], cut: list[Span]) -> list[Span]:
    """The parts of merged runs `spans` outside merged runs `cut`."""
    out: list[Span] = []
    i = 0
    for lo, hi in spans:
        while i < len(cut) and cut[i][1] < lo:
            i += 1
        j, start = i, lo
        while j < len(cut) and cut[j][0] <= hi:
            if cut[j][0] > start:
                out.append((start, cut[j][0] - 1))
            start = max(start, cut[j][1] + 1)
            j += 1
        if start <= hi:
            out.append((start, hi))
    return out


def runs(values: Iterable[int]) -> list[Span]:
    return merge((v, v) for v in values)


def ranges(runs: list[Span]) -> str:
    """[(1, 3), (5, 5)] -> '1-3, 5' (shown in error messages)."""
    out = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in runs]
    if len(out) > 12:
        count = sum(hi - lo + 1 for lo, hi in runs)
        out = out[:12] + [f"... ({count:,} in all)"]
    return ", ".join(out)


MAX_LOOKUP = 100_000  # a die with a wider range of values is looked up by its runs


class SpanLookup(Sequence):
    """table.lookup for a die too big to list: the entry for `value - low`, found by bisection
    over the entries' runs (as a list would answer, without a billion slots)."""

    def __init__(self, low: int, high: int, entries: Sequence[Any]) -> None:
        self.low, self.high = low, high
        runs = sorted((lo, hi, i) for i, e in enumerate(entries) for lo, hi in e.spans)
        self.starts = [lo for lo, _, _ in runs]
        self.runs = [(hi, entries[i]) for _, hi, i in runs]

    def __len__(self) -> int:
        return self.high - self.low + 1

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, int):
            raise TypeError("a table's lookup takes one index")
        if index < 0:
            index += len(self)
        value = self.low + index
        at = bisect_right(self.starts, value) - 1
        if not 0 <= index < len(self) or at < 0 or self.runs[at][0] < value:
            raise IndexError(f"no entry for a roll of {value}")
        return self.runs[at][1]
