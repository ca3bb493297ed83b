"""What a hand-edited document lacks, filled in among its rooms as they stand.

A referee may move rooms, add ways or delete corridors. Whatever has no plan is routed among
the rooms and corridors that stay: a corridor by search (fewest squares and turns, clear of
everything; a very long one made long, as the planner makes it), the way in from outside
(entrance.py), a way between levels on a square both its rooms share where they lie one over
the other (else in the middle of each). The contract (contract.py) decides when the rooms'
places cannot be kept at all.
"""

from __future__ import annotations

from generator.engine.rng import Rng
from generator.errors import DocumentError
from generator.model.site import Room, Site
from generator.plan.boxes import DOOR_KINDS, OPPOSITE, STEP, Box, side_towards
from generator.plan.entrance import store_entrance, way_in
from generator.plan.free import long_path
from generator.plan.layout import long_floor
from generator.plan.level import LevelPlan, Routed, doorways_of, middle, routed, stair_square
from generator.plan.occupancy import Occupancy
from generator.plan.route import search

LONG_AT_MOST = 40  # squares: the longest very long corridor an edited document is given


def fill_routes(site: Site, rng: Rng, path: str = "site") -> None:
    """Route every connection of a document that has no path yet, draw the way in if the
    entrance has none, and place the ways between levels that lack their squares."""
    rooms = {r.id: r for r in site.rooms}
    boxes = {r.id: room_box(r) for r in site.rooms}
    missing = [i for i, c in enumerate(site.connections) if c.path is None and not c.levels]
    # Very long corridors last, so they can be made long against the level's others.
    missing.sort(key=lambda i: (site.connections[i].obstacle == "long_corridor", i))
    entrance = next((r for r in site.rooms if r.entrance and not r.entry), None)
    ways = [c for c in site.connections if c.levels and (c.at is None or c.to_at is None)]
    if not missing and entrance is None and not ways:
        return
    plans: dict[int, LevelPlan] = {}
    for depth in sorted({r.level for r in site.rooms}):
        level = {k: b for k, b in boxes.items() if rooms[k].level == depth}
        plans[depth] = LevelPlan(level, occupancy=Occupancy(level.values()))
    for i, c in enumerate(site.connections):
        if c.path is not None and not c.levels and c.door is not None:
            plan = plans[rooms[c.from_room].level]
            plan.routes[i] = Routed(c.path, c.door)
            plan.occupancy.add_path(c.path)  # type: ignore[union-attr]
    for r in site.rooms:
        if r.entry:
            plans[r.level].entry[r.id] = r.entry
            plans[r.level].occupancy.add_path(r.entry)  # type: ignore[union-attr]
    taken = {(rooms[c.from_room].level, *c.at) for c in site.connections if c.levels and c.at}
    taken |= {(rooms[c.to_room].level, *c.to_at) for c in site.connections if c.levels and c.to_at}
    # Ways between levels take their squares before the corridors are routed, clear of the
    # doorways the document keeps; the corridors then keep their doors off those squares.
    for c in ways:
        frm, to = rooms[c.from_room], rooms[c.to_room]
        if c.at is None and c.to_at is None:
            # Rooms one over the other share a square: the way stands there, as planned.
            used = {(x, y) for lv, x, y in taken if lv in (frm.level, to.level)}
            near = doorways_of(plans[frm.level]) | doorways_of(plans[to.level])
            square = stair_square(boxes[frm.id], boxes[to.id], used, near)
            if square is not None:
                c.at = c.to_at = square
        c.at = c.at if c.at is not None else middle(boxes[frm.id])
        c.to_at = c.to_at if c.to_at is not None else middle(boxes[to.id])
        taken |= {(frm.level, *c.at), (to.level, *c.to_at)}
    for level, x, y in taken:
        occ = plans[level].occupancy
        assert occ is not None
        occ.no_door.update((x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    for i in missing:
        c = site.connections[i]
        a, b = boxes[c.from_room], boxes[c.to_room]
        plan = plans[rooms[c.from_room].level]
        occ = plan.occupancy
        assert occ is not None
        squares = search(a, b, occ)
        if c.obstacle == "long_corridor":
            ordinary = [
                len(r.path)
                for k, r in plan.routes.items()
                if site.connections[k].obstacle != "long_corridor"
            ]
            floor = long_floor(ordinary)
            # Made long as a planned level would be; a document whose corridors already run
            # far beyond any plan's keeps the way found (lengthening is slow on long paths).
            if (squares is None or len(squares) < floor) and floor <= LONG_AT_MOST:
                squares = long_path(a, b, i, boxes, occ, floor, squares) or squares
        squares = squares or search(a, b, occ, allow_cross=True)
        if squares is None and occ.no_door:
            # A room whose every wall square lies beside a way's square: a door there is
            # better than no way at all (doors_off_stairs below moves what it can).
            kept, occ.no_door = occ.no_door, set()
            squares = search(a, b, occ) or search(a, b, occ, allow_cross=True)
            occ.no_door = kept
        if squares is None:
            raise DocumentError(
                f"{path}.connections[{i}]: no way from room {a.id} to room {b.id} that keeps "
                "off the other rooms; give it a path"
            )
        route = routed(squares, a.id, b.id, boxes, c, rng)
        c.path, c.door = route.path, route.door
        plan.routes[i] = route
        occ.add_path(squares)
    if entrance is not None:
        plan = plans[entrance.level]
        way = way_in([r for r in site.rooms if r.level == entrance.level], plan)
        if way is not None:
            store_entrance([entrance], plan, way[0])
    for c in ways:
        c.path, c.door = [], None
    doors_off_stairs(site, set(missing))


def doors_off_stairs(site: Site, only: set[int] | None = None) -> None:
    """A door drawn as a symbol (locked or hidden) whose square holds the end of a way
    between levels moves to the other end of its corridor, or to the other side of its shared
    wall, so the two symbols never overlap. Layouts keep ways down off doorways; this is for
    the last resorts (rows) and for ways a hand-edited document routes (`only`: their
    indices)."""
    level = {r.id: r.level for r in site.rooms}
    stairs = set()
    for c in site.connections:
        if c.levels:
            for room, square in ((c.from_room, c.at), (c.to_room, c.to_at)):
                if square is not None:
                    stairs.add((level[room], square[0], square[1]))
    for i, c in enumerate(site.connections):
        if c.levels or c.door is None or c.obstacle not in DOOR_KINDS or c.path is None:
            continue
        if (only is not None and i not in only) or (level[c.from_room], *c.door[:2]) not in stairs:
            continue
        x, y, side = c.door
        other: tuple[int, int, str] | None = None
        if not c.path:  # a shared wall: the door's other face
            sx, sy = STEP[side]
            other = (x + sx, y + sy, OPPOSITE[side])
        else:
            for room_id, end in ((c.from_room, c.path[0]), (c.to_room, c.path[-1])):
                box = room_box(next(r for r in site.rooms if r.id == room_id))
                got = side_towards(box, end)
                cell = box.door_cell(*got) if got is not None else (x, y)
                if cell != (x, y) and (cell[0] - box.x, cell[1] - box.y) in box.floor():
                    other = (cell[0], cell[1], got[0])  # type: ignore[index]
        if other is not None and (level[c.from_room], other[0], other[1]) not in stairs:
            c.door = other


def room_box(room: Room) -> Box:
    """A room of a document as the plan sees it, where it stands."""
    cells = frozenset(room.cells) if room.cells else None
    return Box(room.id, room.w, room.h, room.shape or "rect", cells, room.x, room.y)
