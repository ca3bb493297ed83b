"""Levels laid out in rows: any level that is not a ring of six (a hand-edited graph), and the
last resort for a ring no layout fits. Every way is found by search; rooms that must lie under
a room of the level above are placed first, each under its room."""

from __future__ import annotations

import math

from generator.engine.rng import Rng
from generator.model.site import Connection
from generator.plan.boxes import Box, Cell
from generator.plan.free import long_path
from generator.plan.layout import Pin, inner_cells, long_floor
from generator.plan.level import LevelPlan, routed
from generator.plan.occupancy import Occupancy
from generator.plan.route import search

GRID_GAP = 4  # rock between rooms laid out in rows
PIN_BUDGET = 20_000  # places tried for the pinned rooms of a level laid out in rows


def plan_rows(
    boxes: dict[int, Box], conns: list[tuple[int, Connection]], pins: list[Pin], rng: Rng
) -> LevelPlan:
    """Any level that is not a ring of six, or a ring no layout fits: rooms in rows, every way
    found by search. Rooms that must lie under a room of the level above are placed first,
    each so a square of its floor lies under a square of that room's, and the rest in rows
    below them."""
    fixed = _place_pinned(boxes, pins)
    order = [k for k in sorted(boxes) if k not in fixed]
    per_row = max(1, math.ceil(math.sqrt(len(order)))) if order else 1
    x0 = min((b.x for b in fixed.values()), default=0)
    y = max((b.y + b.h + GRID_GAP for b in fixed.values()), default=0)
    for start in range(0, len(order), per_row):
        row = [boxes[k] for k in order[start : start + per_row]]
        x = x0
        for box in row:
            box.x, box.y = x, y
            x += box.w + GRID_GAP
        y += max(b.h for b in row) + GRID_GAP
    occ = Occupancy(boxes.values())
    plan = LevelPlan(boxes, occupancy=occ)
    # Very long corridors last, so they can be made long enough against the others.
    for i, c in sorted(conns, key=lambda ic: (ic[1].obstacle == "long_corridor", ic[0])):
        a, b = boxes[c.from_room], boxes[c.to_room]
        path = search(a, b, occ)
        if c.obstacle == "long_corridor":
            ordinary = [k for k, o in conns if o.obstacle != "long_corridor" and k in plan.routes]
            floor = long_floor([len(plan.routes[k].path) for k in ordinary])
            if path is None or len(path) < floor:
                path = long_path(a, b, i, boxes, occ, floor, path) or path
        path = path or search(a, b, occ, allow_cross=True) or []
        if not path:
            continue  # walled in by its neighbours: left for the referee to draw
        plan.routes[i] = routed(path, a.id, b.id, boxes, c, rng)
        occ.add_path(path)
    return plan


def _place_pinned(boxes: dict[int, Box], pins: list[Pin]) -> dict[int, Box]:
    """Place each pinned room so one of its inner squares lies under one of the inner squares
    of the room above (nearest the middles first), with rock between the pinned rooms: the
    first combination of places that keeps them all apart (as much as it can of GRID_GAP, at
    least one square). If none does, the first rooms that can be are placed and the rest left
    to the rows (their ways then stand mid-room at each end)."""
    wanted: list[tuple[Box, list[Cell]]] = []
    for pin in pins:
        box = boxes[pin.room]
        if any(box is w for w, _ in wanted):
            continue
        above = pin.above
        ups = sorted(
            ((above.x + x, above.y + y) for x, y in inner_cells(above) or ((0, 0),)),
            key=lambda c: (
                abs(c[0] + 0.5 - above.x - above.w / 2),
                abs(c[1] + 0.5 - above.y - above.h / 2),
                c,
            ),
        )
        downs = sorted(
            inner_cells(box) or ((0, 0),),
            key=lambda c: (abs(c[0] + 0.5 - box.w / 2), abs(c[1] + 0.5 - box.h / 2), c),
        )
        wanted.append((box, [(ux - dx, uy - dy) for ux, uy in ups for dx, dy in downs]))
    budget = [PIN_BUDGET]

    def combine(k: int, gap: int, chosen: list[tuple[Box, Cell]]) -> list[tuple[Box, Cell]] | None:
        if k == len(wanted):
            return chosen
        box, spots = wanted[k]
        for spot in spots:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if all(_apart(box, spot, other, at) >= gap for other, at in chosen):
                found = combine(k + 1, gap, [*chosen, (box, spot)])
                if found is not None:
                    return found
        return None

    found = None
    for gap in range(GRID_GAP, 0, -1):
        found = combine(0, gap, [])
        if found is not None:
            break
    if found is None:  # no way to place them all: one by one, as many as will go
        found = []
        for box, spots in wanted:
            spot = next(
                (s for s in spots if all(_apart(box, s, o, at) >= 1 for o, at in found)), None
            )
            if spot is not None:
                found.append((box, spot))
    for box, (x, y) in found:
        box.x, box.y = x, y
    return {box.id: box for box, _ in found}


def _apart(box: Box, at: Cell, other: Box, other_at: Cell) -> int:
    """Squares of rock between `box` placed at `at` and `other` at `other_at` (negative: they
    overlap)."""
    (x, y), (ox, oy) = at, other_at
    return max(ox - x - box.w, x - ox - other.w, oy - y - box.h, y - oy - other.h)
