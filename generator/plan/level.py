"""A planned level as the planner builds it: its boxes, its routes by connection index, and the
doorway each way's obstacle stands in; where its doorways are, and the square a way between
levels takes. Shared by the ring planner (planner.py), the rows (rows.py) and the routes a
hand-edited document lacks (edits.py)."""

from __future__ import annotations

from generator.engine.rng import Rng
from generator.model.site import Connection
from generator.plan.boxes import OPPOSITE, STEP, Box, Cell, side_towards
from generator.plan.layout import Pin, inner_cells, stair_cells
from generator.plan.occupancy import Occupancy


class Routed:
    """A corridor's squares and the doorway its obstacle stands in."""

    __slots__ = ("path", "door")

    def __init__(self, path: list[Cell], door: tuple[int, int, str]) -> None:
        self.path, self.door = path, door


class LevelPlan:
    """A planned level: its boxes, routes by connection index, what is drawn (occupancy), the
    pins it honoured, whether it stacks under the level above, the way in by room, and whether
    it is a last resort (rows for a ring; a way down in a doorway)."""

    __slots__ = ("boxes", "routes", "occupancy", "pins", "stacked", "entry", "fallback", "crowded")

    def __init__(
        self,
        boxes: dict[int, Box],
        occupancy: Occupancy | None = None,
        pins: list[Pin] | None = None,
    ) -> None:
        self.boxes = boxes
        self.routes: dict[int, Routed] = {}
        self.occupancy = occupancy
        self.pins = pins or []
        self.stacked = True
        self.entry: dict[int, list[Cell]] = {}
        self.fallback = False  # a ring of six that only rows would hold
        self.crowded = False  # a way down had to stand in a doorway


def routed(
    path: list[Cell],
    a: int,
    b: int,
    boxes: dict[int, Box],
    conn: Connection,
    rng: Rng,
    shared: tuple[int, int, str] | None = None,
) -> Routed:
    """A route from room a to room b, turned to run from the connection's `from` room, with
    the doorway its obstacle stands in (a door at one end, chosen by the plan's stream; for a
    door in a shared wall, `shared` when the layout chose it)."""
    if conn.from_room != a:
        a, b = b, a
        path = path[::-1]
    frm, to = boxes[a], boxes[b]
    if not path and shared is not None:
        return Routed([], shared)
    if not path:
        # A shared wall: the door is in `from`'s wall, facing the `to` room.
        for side in "nesw":
            for off in frm.doors(side):
                if to.contains(frm.outside(side, off)):
                    x, y = frm.door_cell(side, off)
                    if door_ok(to, frm.outside(side, off), OPPOSITE[side]):
                        return Routed([], (x, y, side))
        raise AssertionError("touching rooms without a doorway")  # the layout prevents it
    at_to = rng.chance(0.5)
    box, cell = (to, path[-1]) if at_to else (frm, path[0])
    side, off = side_towards(box, cell)  # type: ignore[misc]
    x, y = box.door_cell(side, off)
    return Routed(path, (x, y, side))


def door_ok(box: Box, cell: Cell, side: str) -> bool:
    got = side_towards(box, (cell[0] + STEP[side][0], cell[1] + STEP[side][1]))
    return got is not None and got[1] in box.doors(got[0])


def doorways_of(plan: LevelPlan) -> set[Cell]:
    """The room squares just inside a level's doorways (a stair there would block them)."""
    out: set[Cell] = set()
    rooms = plan.occupancy.room if plan.occupancy is not None else {}
    for route in plan.routes.values():
        x, y, side = route.door
        sx, sy = STEP[side]
        out.add((x, y))
        out.add((x + sx, y + sy))
        path = route.path
        if path:
            # The squares of a room round each end of the corridor.
            for ex, ey in (path[0], path[-1]):
                out.update(
                    q
                    for q in ((ex + 1, ey), (ex - 1, ey), (ex, ey + 1), (ex, ey - 1))
                    if q in rooms
                )
    for box in plan.boxes.values():
        entry = plan.entry.get(box.id)
        if entry:
            ex, ey = entry[0]
            out.update(
                q
                for q in ((ex + 1, ey), (ex - 1, ey), (ex, ey + 1), (ex, ey - 1))
                if box.contains(q)
            )
    return out


def stair_square(upper: Box, lower: Box, used: set[Cell], doorways: set[Cell]) -> Cell | None:
    """A square on the floor of both rooms for a way between levels: never just inside a
    doorway where another square will do, and away from one where it can be; clear of other
    ways where it can be (None when the rooms share no square)."""
    cells = stair_cells(upper, lower, used) or stair_cells(upper, lower, set())
    if not cells:
        return None
    cx, cy = lower.x + lower.w / 2, lower.y + lower.h / 2

    def score(cell: Cell) -> tuple[int, int, float, Cell]:
        # Far from the room's middle, which its number takes.
        far = -abs(cell[0] + 0.5 - cx) - abs(cell[1] + 0.5 - cy)
        return (cell in doorways, _beside_any(cell, doorways), far, cell)

    return min(cells, key=score)


def _beside_any(cell: Cell, cells: set[Cell]) -> bool:
    x, y = cell
    return any((x + dx, y + dy) in cells for dx, dy in STEP.values())


def middle(box: Box) -> Cell:
    cells = inner_cells(box) or tuple(box.floor())
    cx, cy = box.w / 2, box.h / 2
    x, y = min(cells, key=lambda c: (abs(c[0] + 0.5 - cx) + abs(c[1] + 0.5 - cy), c))
    return (box.x + x, box.y + y)
