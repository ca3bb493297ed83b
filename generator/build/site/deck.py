"""Dealing table entries without repeats within one site."""

from __future__ import annotations

from generator.engine.rng import Rng
from generator.engine.table import Rolled
from generator.engine.tables import TableSet


class Deck:
    """Deals table entries without repeats within one site (rerolling duplicates), so no two
    rooms or doors of a site read alike while the tables have entries to spare."""

    TRIES = 24

    def __init__(self, tables: TableSet) -> None:
        self.tables = tables
        self.used: dict[str, set[int]] = {}

    def deal(self, table_id: str, rng: Rng, vars: dict[str, str] | None = None) -> Rolled:
        used = self.used.setdefault(table_id, set())
        return self.tables.roll_avoiding(table_id, rng, used, vars, self.TRIES)


def draw(tables: TableSet, table_id: str, rng: Rng, count: int) -> list[Rolled]:
    """`count` entries, distinct while the table has enough (small user tables still work)."""
    deck = Deck(tables)
    return [deck.deal(table_id, rng) for _ in range(count)]
