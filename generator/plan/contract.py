"""The plan's contract, checked on every document Delve reads, and filling in what it lacks.

A connection's `path` runs square by square from its `from` room to its `to` room: consecutive
squares are orthogonal neighbours, the first touches the `from` room's box on a side, the last
touches the `to` room's, and no square lies inside any room of that level. It is empty only for
a door in a shared wall or a way between levels. A way between levels leaves from `at` (a
square of the `from` room) and arrives at `to_at` (a square of the `to` room). A document that
breaks this gets one line naming the JSON path and what is wrong.
"""

from __future__ import annotations

from generator.errors import DocumentError, note
from generator.model import doc
from generator.model.site import Room, Site
from generator.plan import shapes
from generator.plan.boxes import STEP

MAX_BOX = 200  # squares on a side of a room's box: far beyond any key, small enough to draw
MAX_SPAN = 250  # squares across one level, rooms and corridors: generated plans span ~40


def _inside(room: Room, cell: tuple[int, int]) -> bool:
    return room.x <= cell[0] < room.x + room.w and room.y <= cell[1] < room.y + room.h


def _touches(room: Room, cell: tuple[int, int]) -> bool:
    """Whether a square outside the room's box shares a side with it."""
    x, y = cell
    if room.x <= x < room.x + room.w:
        return y in (room.y - 1, room.y + room.h)
    if room.y <= y < room.y + room.h:
        return x in (room.x - 1, room.x + room.w)
    return False


def planned(site: Site) -> bool:
    """Whether the document carries a plan: any corridor or way between levels placed. A
    document with none (written before plans, or stripped by hand) is planned afresh."""
    return any(c.path is not None or c.at is not None for c in site.connections)


def check_rooms(site: Site, path: str = "site") -> None:
    """Each room's box and shape are drawable."""
    for i, r in enumerate(site.rooms):
        at = f"{path}.rooms[{i}].map"
        if not (abs(r.x) <= doc.MAX_COORD and abs(r.y) <= doc.MAX_COORD):
            raise DocumentError(
                f"{at}: [{r.x}, {r.y}] is too far out (at most {doc.MAX_COORD:,} squares)"
            )
        if not (1 <= r.w <= MAX_BOX and 1 <= r.h <= MAX_BOX):
            raise DocumentError(f"{at}: w and h must be 1 to {MAX_BOX} squares, not {r.w} x {r.h}")
        if r.shape and r.shape not in shapes.SHAPES:
            raise DocumentError(f"{at}.shape: must be one of {', '.join(shapes.SHAPES)}")
        if r.cells is not None:
            for j, (x, y) in enumerate(r.cells):
                if not (0 <= x < r.w and 0 <= y < r.h):
                    raise DocumentError(
                        f"{at}.cells[{j}]: [{x}, {y}] is outside the room's {r.w} x {r.h} box"
                    )
            if not r.cells:
                raise DocumentError(f"{at}.cells: a cave needs at least one square of floor")


def check_plan(site: Site, path: str = "site") -> None:
    """Raise DocumentError (one line, with the JSON path) where the plan breaks its contract."""
    check_rooms(site, path)
    rooms = {r.id: r for r in site.rooms}
    by_level: dict[int, list[Room]] = {}
    for r in site.rooms:
        by_level.setdefault(r.level, []).append(r)
    for i, r in enumerate(site.rooms):
        if r.entry:
            _check_entry(r, by_level.get(r.level, []), f"{path}.rooms[{i}].map.entry")
    for i, c in enumerate(site.connections):
        at = f"{path}.connections[{i}]"
        frm, to = rooms[c.from_room], rooms[c.to_room]
        if c.levels:
            for key, room, square in (("at", frm, c.at), ("to_at", to, c.to_at)):
                if square is not None and not _inside(room, square):
                    raise DocumentError(
                        f"{at}.{key}: [{square[0]}, {square[1]}] is not inside room {room.id}"
                    )
            if c.path:
                raise DocumentError(f"{at}.path: a way between levels has no corridor (use [])")
            continue
        if c.path is None:
            continue
        _check_path(c.path, frm, to, by_level.get(frm.level, []), f"{at}.path")
        if c.door is not None:
            _check_door(c.door, c.path, frm, to, f"{at}.door")
        elif not c.path:
            raise DocumentError(f"{at}.door: a door in a shared wall needs its place")


def _check_path(
    squares: list[tuple[int, int]], frm: Room, to: Room, level: list[Room], at: str
) -> None:
    if frm.level != to.level:
        raise DocumentError(f"{at}: rooms {frm.id} and {to.id} are on different levels")
    if not squares:
        return
    for j, sq in enumerate(squares):
        for room in level:
            if _inside(room, sq):
                raise DocumentError(f"{at}[{j}]: [{sq[0]}, {sq[1]}] is inside room {room.id}")
        if j and abs(sq[0] - squares[j - 1][0]) + abs(sq[1] - squares[j - 1][1]) != 1:
            prev = squares[j - 1]
            raise DocumentError(
                f"{at}[{j}]: [{sq[0]}, {sq[1]}] does not follow [{prev[0]}, {prev[1]}] "
                "(squares must be orthogonal neighbours, with no gap)"
            )
    first, last = squares[0], squares[-1]
    if not _touches(frm, first):
        raise DocumentError(
            f"{at}[0]: [{first[0]}, {first[1]}] does not touch a side of room {frm.id} "
            "(the 'from' room)"
        )
    if not _touches(to, last):
        raise DocumentError(
            f"{at}[{len(squares) - 1}]: [{last[0]}, {last[1]}] does not touch a side of room "
            f"{to.id} (the 'to' room); the path ends nowhere"
        )


def _check_entry(room: Room, level: list[Room], at: str) -> None:
    """The way in from outside: squares in a row, outside every room, from a side of its room."""
    squares = room.entry
    for j, sq in enumerate(squares):
        for other in level:
            if _inside(other, sq):
                raise DocumentError(f"{at}[{j}]: [{sq[0]}, {sq[1]}] is inside room {other.id}")
        if j and abs(sq[0] - squares[j - 1][0]) + abs(sq[1] - squares[j - 1][1]) != 1:
            raise DocumentError(f"{at}[{j}]: [{sq[0]}, {sq[1]}] does not follow the square before")
    if not _touches(room, squares[0]):
        raise DocumentError(
            f"{at}[0]: [{squares[0][0]}, {squares[0][1]}] does not touch a side of room {room.id}"
        )


def _check_door(
    door: tuple[int, int, str], squares: list[tuple[int, int]], frm: Room, to: Room, at: str
) -> None:
    x, y, side = door
    sx, sy = STEP[side]
    beyond = (x + sx, y + sy)
    if squares:
        ok = (_inside(frm, (x, y)) and beyond == squares[0]) or (
            _inside(to, (x, y)) and beyond == squares[-1]
        )
        where = "at either end of its path"
    else:
        ok = (_inside(frm, (x, y)) and _inside(to, beyond)) or (
            _inside(to, (x, y)) and _inside(frm, beyond)
        )
        where = f"in a wall rooms {frm.id} and {to.id} share"
    if not ok:
        raise DocumentError(f"{at}: the {side} wall of square [{x}, {y}] is not {where}")


def check_overlaps(site: Site, path: str = "site") -> None:
    """Rooms of one level never share a square."""
    seen: dict[tuple[int, int, int], int] = {}
    for i, r in enumerate(site.rooms):
        for x in range(r.x, r.x + r.w):
            for y in range(r.y, r.y + r.h):
                other = seen.setdefault((r.level, x, y), r.id)
                if other != r.id:
                    raise DocumentError(
                        f"{path}.rooms[{i}].map: room {r.id} overlaps room {other} at [{x}, {y}]"
                    )


def check_extent(site: Site, path: str = "site") -> None:
    """Each level, its rooms and corridors, fits in MAX_SPAN squares each way: what a map can
    draw and a corridor search can cover in a moment."""
    spans: dict[int, list[int]] = {}

    def add(level: int, x0: int, y0: int, x1: int, y1: int) -> None:
        box = spans.setdefault(level, [x0, y0, x1, y1])
        box[:] = [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]

    rooms = {r.id: r for r in site.rooms}
    for r in site.rooms:
        add(r.level, r.x, r.y, r.x + r.w - 1, r.y + r.h - 1)
        for x, y in r.entry:
            add(r.level, x, y, x, y)
    for c in site.connections:
        for x, y in c.path or ():
            add(rooms[c.from_room].level, x, y, x, y)
    for level, (x0, y0, x1, y1) in sorted(spans.items()):
        if x1 - x0 >= MAX_SPAN or y1 - y0 >= MAX_SPAN:
            raise DocumentError(
                f"{path}.rooms: level {level} spans {x1 - x0 + 1} x {y1 - y0 + 1} squares "
                f"(at most {MAX_SPAN} x {MAX_SPAN}): a room or corridor is far from the rest"
            )


def complete_plan(site: Site, path: str = "site") -> None:
    """Give a loaded document the plan it lacks and check the plan it has.

    The rooms stay where the document puts them: a connection without a `path` is routed
    among them (edits.py), a way between levels without `at` and `to_at` stands on a square
    its rooms share (else mid-room), and everything is checked against the contract. Only a
    document with no corridor or way placed at all whose rooms' places cannot hold a plan
    (written before plans, or stripped of its places: rooms on top of each other, or no way
    between them) is planned afresh from its seed and its rooms' sizes and shapes, exactly as
    generated; the referee gets one line saying so (errors.note).
    """
    from generator.engine.rng import Rng
    from generator.plan.edits import fill_routes
    from generator.plan.planner import plan_site

    seed = site.seed.strip() or "site"
    if not planned(site):
        try:
            check_rooms(site, path)
            check_overlaps(site, path)
            check_extent(site, path)
            fill_routes(site, Rng(seed).child("plan/edits"), path)
            check_plan(site, path)
            return
        except DocumentError as err:
            why = str(err)
        for c in site.connections:
            c.path, c.door, c.at, c.to_at = None, None, None, None
        for r in site.rooms:
            r.entry = []
        plan_site(site, Rng(seed).child("plan"))
        note(
            f"{path}: no corridor has a path and the rooms' places cannot hold one ({why}); "
            "the plan is laid out afresh from the seed"
        )
        return
    check_rooms(site, path)
    check_overlaps(site, path)
    check_plan(site, path)
    check_extent(site, path)
    fill_routes(site, Rng(seed).child("plan/edits"), path)
