"""A room as the plan sees it while laying a level out: its box on the grid and its shape."""

from __future__ import annotations

from functools import lru_cache

from generator.plan import shapes

Cell = tuple[int, int]
STEP = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}
TRANSPOSED = {"n": "w", "w": "n", "e": "s", "s": "e"}
# The obstacles drawn as a symbol in their doorway (the rest are open gaps).
DOOR_KINDS = {"locked_door": "locked", "hidden_door": "secret"}


class Box:
    """A room as the plan lays it out: its size and shape, where it stands, and (worked out
    as asked) where on each side a door may go. (A plain class: a level makes dozens while it
    tries layouts, and a dataclass's __init__ costs twice as much.)"""

    __slots__ = ("id", "w", "h", "shape", "cells", "x", "y", "_doors")

    def __init__(
        self,
        id: int,
        w: int,
        h: int,
        shape: str = "rect",
        cells: frozenset[Cell] | None = None,  # a cave's floor, relative to the box
        x: int = 0,
        y: int = 0,
    ) -> None:
        self.id, self.w, self.h, self.shape, self.cells, self.x, self.y = (
            id,
            w,
            h,
            shape,
            cells,
            x,
            y,
        )
        self._doors: dict[str, tuple[int, ...]] = {}

    def __repr__(self) -> str:
        return f"Box({self.id}, {self.w}x{self.h} {self.shape} at {self.x},{self.y})"

    def doors(self, side: str) -> tuple[int, ...]:
        got = self._doors.get(side)
        if got is None:
            got = self._doors[side] = shapes.door_offsets(
                self.shape, self.w, self.h, side, self.cells
            )
        return got

    def transposed(self) -> Box:
        cells = _flipped(self.cells) if self.cells else None
        return Box(self.id, self.h, self.w, self.shape, cells, self.y, self.x)

    def floor(self) -> frozenset[Cell]:
        return shapes.mask(self.shape, self.w, self.h, self.cells)

    def contains(self, cell: Cell) -> bool:
        return self.x <= cell[0] < self.x + self.w and self.y <= cell[1] < self.y + self.h

    def door_cell(self, side: str, offset: int) -> Cell:
        """The square just inside the wall at `offset` along `side`."""
        dx, dy = shapes.edge_cell(side, offset, self.w, self.h)
        return (self.x + dx, self.y + dy)

    def outside(self, side: str, offset: int) -> Cell:
        """The square just outside the wall at `offset` along `side` (door_cell, a step out:
        written out, as the routing asks it thousands of times a site)."""
        if side == "n":
            return (self.x + offset, self.y - 1)
        if side == "s":
            return (self.x + offset, self.y + self.h)
        if side == "w":
            return (self.x - 1, self.y + offset)
        return (self.x + self.w, self.y + offset)

    def cells_abs(self) -> list[Cell]:
        return [(self.x + x, self.y + y) for x in range(self.w) for y in range(self.h)]


@lru_cache(maxsize=256)
def _flipped(cells: frozenset[Cell]) -> frozenset[Cell]:
    """A cave's floor turned over its diagonal (each layout that lays the ring on its side
    turns the same cave again)."""
    return frozenset((y, x) for x, y in cells)


def side_towards(box: Box, cell: Cell) -> tuple[str, int] | None:
    """(side, offset) of box's wall a square just outside it touches, or None."""
    x, y = cell
    if box.x <= x < box.x + box.w:
        if y == box.y - 1:
            return ("n", x - box.x)
        if y == box.y + box.h:
            return ("s", x - box.x)
    if box.y <= y < box.y + box.h:
        if x == box.x - 1:
            return ("w", y - box.y)
        if x == box.x + box.w:
            return ("e", y - box.y)
    return None
