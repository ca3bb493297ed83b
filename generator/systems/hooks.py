"""The few rules that cannot be data, one hook per converter named in systems/index.

A hook may check the system's tables (`check`), add values to every monster (`monster_vars`) and
add values to each resistance note (`resist_vars`). Only f4c needs one: its ARGBY profiles are
five numbers to be checked and compared coin by coin.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.model.monster import Monster

if TYPE_CHECKING:
    from generator.systems.core import System

ARGBY = re.compile(r"^\s*\d+\s*(-\s*\d+\s*){4}$")


class Hook:
    """A converter's rules that tables cannot hold. The base hook adds nothing."""

    provides: frozenset[str] = frozenset()  # value names it adds (for the placeholder check)

    def check(self, system: System) -> list[str]:
        return []

    def monster_vars(self, system: System, monster: Monster, values: dict[str, Any]) -> None:
        return None

    def resist_vars(
        self, system: System, values: Mapping[str, Any], row: Mapping[str, Any]
    ) -> dict[str, Any]:
        return {}


def argby(text: str) -> list[int]:
    """'0-3-4-2-0' -> [0, 3, 4, 2, 0]: A (always) and the R, G, B, Y coins' numbers."""
    return [int(n) for n in text.split("-")]


def argby_text(numbers: list[int]) -> str:
    return "-".join(str(n) for n in numbers)


class F4c(Hook):
    """f4c: damage and armour are ARGBY profiles (A-R-G-B-Y). A resisted type is blocked by the
    resistance's armour or the monster's own, whichever is better on each coin (the text's ghoul:
    4-2-2-2-2 against pierce)."""

    provides = frozenset({"armour_vs"})
    PROFILE_FIELDS = ("argby", "armour")

    def check(self, system: System) -> list[str]:
        problems = []
        for name in ("dice", "defense", "armour", "resist"):
            table = system.table(name)
            if table is None:
                continue
            for e in table.entries:
                for fname in self.PROFILE_FIELDS:
                    value = e.get(fname)
                    if isinstance(value, str) and not ARGBY.match(value):
                        problems.append(
                            f"{table.path}:{e.line}: table '{table.id}': {fname} {value!r} must "
                            "be an ARGBY profile of five numbers, such as 0-3-4-2-0"
                        )
        return problems

    def resist_vars(
        self, system: System, values: Mapping[str, Any], row: Mapping[str, Any]
    ) -> dict[str, Any]:
        own = values.get("armour")
        against = row.get("armour")
        if not isinstance(against, str):
            return {}
        if not isinstance(own, str):
            return {"armour_vs": against}
        best = [max(a, b) for a, b in zip(argby(own), argby(against), strict=True)]
        return {"armour_vs": argby_text(best)}


HOOKS: dict[str, Hook] = {"f4c": F4c()}
