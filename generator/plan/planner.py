"""The plan of a whole site: every level laid out, every way drawn, the levels stacked.

Levels are planned top down. A level's ring of six is laid out by a template (layout.py), its
ways routed (route.py); the ways down from it pin the rooms they reach on the next level, so a
staircase arrives on the square under the one it leaves; a ring its pins leave no room for
sends the planner back up to lay the level above out again. Anything that is not a ring of six
(a hand-edited document) is laid out in rows (rows.py), every way found by search. The top
level's way in comes from outside the plan (entrance.py).

The plan depends only on the rooms' sizes and shapes, the graph and the connections' kinds,
drawn from the site's own stream (``<seed>/plan``): a change to a room's contents never moves
it.
"""

from __future__ import annotations

from generator.engine.rng import Rng
from generator.model.site import Connection, Room, Site
from generator.plan import shapes
from generator.plan.boxes import Box, Cell
from generator.plan.edits import doors_off_stairs
from generator.plan.entrance import store_entrance, way_in
from generator.plan.layout import (
    RING,
    Design,
    Link,
    Pin,
    layout_ring,
    long_floor,
    stair_cells,
)
from generator.plan.level import LevelPlan, doorways_of, middle, routed, stair_square
from generator.plan.occupancy import Occupancy
from generator.plan.route import designed, loop, search
from generator.plan.rows import plan_rows

MAX_EXTENT = 38  # squares a level may span (40 with the way in): an A5 page still holds it
RETRIES = 3  # fresh rolls of a ring's layout before placing it room by room
ENTRY_TRIES = 8  # layouts of the top level tried for one that leaves the entrance a way out
FREE_TRIES = 24  # room-by-room placements tried before falling back to rows
RESTACKS = 6  # fresh layouts of the level above tried for a ring its pins leave no room


def compact(occ: Occupancy) -> bool:
    """Whether a level's rooms and corridors fit within MAX_EXTENT squares each way."""
    x0, y0, x1, y1 = occ.extent()
    return x1 - x0 < MAX_EXTENT and y1 - y0 < MAX_EXTENT


def long_ok(lengths: list[int], long_lengths: list[int]) -> bool:
    """Whether a level's very long corridors are long enough (layout.long_floor) against its
    ordinary corridors' lengths."""
    return not long_lengths or min(long_lengths) >= long_floor(lengths)


def plan_site(site: Site, rng: Rng) -> None:
    """Lay out every level of a site afresh and store the plan in its rooms and connections."""
    levels = sorted({r.level for r in site.rooms})
    placed: dict[int, Box] = {}  # every room planned so far, by id
    taken: dict[int, set[Cell]] = {}  # level -> squares holding a way between levels
    doorways: dict[int, set[Cell]] = {}  # level -> room squares just inside a doorway
    rooms_by_id = {r.id: r for r in site.rooms}

    def snapshot() -> tuple:  # type: ignore[type-arg]
        return (
            dict(placed),
            {k: set(v) for k, v in taken.items()},
            {k: set(v) for k, v in doorways.items()},
            [(c.path, c.door, c.at, c.to_at) for c in site.connections],
            [r.entry for r in site.rooms],
        )

    def restore(state: tuple) -> None:  # type: ignore[type-arg]
        placed.clear()
        placed.update(state[0])
        taken.clear()
        taken.update(state[1])
        doorways.clear()
        doorways.update(state[2])
        for c, (path, door, at, to_at) in zip(site.connections, state[3], strict=True):
            c.path, c.door, c.at, c.to_at = path, door, at, to_at
        for r, entry in zip(site.rooms, state[4], strict=True):
            r.entry = entry

    # A ring of six whose pinned rooms no layout can put under theirs (about one site in
    # 5,000), or only with a way down in a doorway (about one in 2,000), sends the
    # planner back up a level: the level above is laid out again from a stream of its own,
    # which moves the rooms the ring must lie under.
    snaps: dict[int, tuple] = {}  # type: ignore[type-arg]
    restacks: dict[int, int] = {}
    index = 0
    while index < len(levels):
        depth = levels[index]
        last = index == len(levels) - 1
        if not last:  # (kept for a level below that sends the planner back up)
            snaps[index] = snapshot()
        lrng = rng.child(f"level/{depth}")
        if restacks.get(index):
            lrng = lrng.child(f"restack/{restacks[index]}")
        rooms = [r for r in site.rooms if r.level == depth]
        ids = {r.id for r in rooms}
        conns = [
            (i, c)
            for i, c in enumerate(site.connections)
            if not c.levels
            and rooms_by_id[c.from_room].level == depth
            and rooms_by_id[c.to_room].level == depth
        ]
        # Ways from a level already planned: each picks its square in the room it leaves
        # (clear of doorways and other ways), and the room it reaches here must hold it.
        links = []
        for i, c in enumerate(site.connections):
            if not c.levels or (c.from_room in ids) == (c.to_room in ids):
                continue
            here, there = (c.to_room, c.from_room) if c.to_room in ids else (c.from_room, c.to_room)
            if there in placed:
                links.append((i, c, here, there))
        pins = [Pin(here, placed[there]) for _, _, here, there in links]
        taken_above = [taken.get(rooms_by_id[there].level, set()) for _, _, _, there in links]
        doorways_above = [doorways.get(rooms_by_id[there].level, set()) for *_, there in links]
        # The top level must leave its entrance a way out to beyond the plan, so the way in
        # comes from outside: a layout that walls it in is rolled again from a stream of its
        # own (a few in a hundred), and the first is kept if none does better.
        top = depth == levels[0]
        tries = ENTRY_TRIES if top else 1
        first: LevelPlan | None = None
        for attempt in range(tries):
            stream = lrng if attempt == 0 else lrng.child(f"entry/{attempt}")
            boxes = {r.id: _box(r, stream) for r in rooms}
            plan = _plan_level(boxes, conns, pins, stream, taken_above, doorways_above)
            # (A way over a corridor is sought only in the layout kept: see below.)
            way = way_in(rooms, plan, cross=False) if top else None
            first = first or plan
            if way is None or way[1]:
                break
        else:
            # Nothing better: the first layout, with its winding way in.
            assert first is not None
            plan = first
            way = way_in(rooms, plan)
        placed.update(plan.boxes)
        for i, route in plan.routes.items():
            c = site.connections[i]
            c.path, c.door, c.at, c.to_at = route.path, route.door, None, None
        if way is not None:  # (only the top level, which no way from above reaches)
            store_entrance(rooms, plan, way[0])
        if links or not last:  # (read by the ways between levels, here and below)
            doorways[depth] = doorways_of(plan)
        for _, c, here, there in links:
            lower, upper = plan.boxes[here], placed[there]
            level = rooms_by_id[there].level
            used = taken.setdefault(depth, set()) | taken.setdefault(level, set())
            square = stair_square(upper, lower, used, doorways[depth] | doorways[level])
            c.path, c.door = [], None
            if square is None:  # no square of both (never seen): each end mid-room
                square, other = middle(upper), middle(lower)
                c.at, c.to_at = (square, other) if c.from_room == there else (other, square)
                taken[level].add(square)
                taken[depth].add(other)
                continue
            taken[depth].add(square)
            taken[level].add(square)
            c.at = c.to_at = square
        if (plan.fallback or plan.crowded) and index > 0 and restacks.get(index - 1, 0) < RESTACKS:
            restore(snaps[index - 1])
            restacks[index - 1] = restacks.get(index - 1, 0) + 1
            index -= 1
            continue
        index += 1
    for r in site.rooms:
        box = placed[r.id]
        r.x, r.y, r.w, r.h, r.shape = box.x, box.y, box.w, box.h, box.shape
        r.cells = sorted(box.cells) if box.shape == "cave" and box.cells else None
    # Ways between levels whose ends were never both planned (a broken graph) stand mid-room.
    for c in site.connections:
        if c.levels and c.at is None:
            a, b = placed[c.from_room], placed[c.to_room]
            c.path, c.door = [], None
            c.at, c.to_at = middle(a), middle(b)
    doors_off_stairs(site)


def _box(room: Room, rng: Rng) -> Box:
    w, h = shapes.squares(room.size) if room.size else (room.w, room.h)
    shape = shapes.fitting(room.shape, w, h)
    if w != h and rng.chance(0.5):
        w, h = h, w
    cells = shapes.cave_cells(w, h, rng.child(f"cave/{room.id}")) if shape == "cave" else None
    return Box(room.id, w, h, shape, cells)


def _ring(boxes: dict[int, Box], conns: list[tuple[int, Connection]]) -> list[int] | None:
    """Room ids in loop order when a level's ways make one ring of six, else None."""
    if len(boxes) != RING or len(conns) != RING:
        return None
    nbrs: dict[int, list[int]] = {k: [] for k in boxes}
    for _, c in conns:
        if c.from_room == c.to_room:
            return None
        nbrs[c.from_room].append(c.to_room)
        nbrs[c.to_room].append(c.from_room)
    if any(len(v) != 2 for v in nbrs.values()):
        return None
    start = min(boxes)
    first = (
        next(c.to_room for _, c in conns if c.from_room == start)
        if any(c.from_room == start for _, c in conns)
        else nbrs[start][0]
    )
    order, prev, cur = [start], start, first
    while cur != start:
        order.append(cur)
        nxt = nbrs[cur][0] if nbrs[cur][0] != prev else nbrs[cur][1]
        prev, cur = cur, nxt
        if len(order) > RING:
            return None
    return order if len(order) == RING else None


def _plan_level(
    boxes: dict[int, Box],
    conns: list[tuple[int, Connection]],
    pins: list[Pin],
    rng: Rng,
    taken_above: list[set[Cell]] | None = None,
    doorways_above: list[set[Cell]] | None = None,
) -> LevelPlan:
    ring = _ring(boxes, conns)
    if ring is not None:
        joins = {frozenset((c.from_room, c.to_room)): (i, c) for i, c in conns}
        ring_conns = [joins[frozenset((ring[k], ring[(k + 1) % RING]))] for k in range(RING)]
        kinds = [c.obstacle for _, c in ring_conns]
        ordered = [boxes[k] for k in ring]
        # A way down wants a square clear of every doorway on both its levels, so no door
        # symbol stands on its icon and no corridor runs into it. Layouts that give every
        # way down one come first; a level that has none takes a doorway square (never seen
        # in thousands of sites, but a hand-edited graph may force it).
        for clear in (True, False) if pins else (False,):
            blocked = [
                (taken_above[k] if taken_above else set())
                | (doorways_above[k] if clear and doorways_above else set())
                for k in range(len(pins))
            ]
            stream = rng.child("crowded") if pins and not clear else rng
            found = _plan_ring(ordered, kinds, ring_conns, pins, stream, blocked, clear)
            if found is not None:
                found.crowded = bool(pins) and not clear
                return found
    plan = plan_rows(boxes, conns, pins, rng)
    plan.pins = pins
    plan.fallback = ring is not None
    plan.stacked = all(stair_cells(p.above, boxes[p.room], set()) for p in pins)
    return plan


def _plan_ring(
    ordered: list[Box],
    kinds: list[str],
    ring_conns: list[tuple[int, Connection]],
    pins: list[Pin],
    rng: Rng,
    blocked: list[set[Cell]],
    clear: bool,
) -> LevelPlan | None:
    """A ring of six by template, else room by room; None when neither fits. `blocked`: the
    squares of each pin's room above its way down may not take; with `clear`, the way must
    also find a square clear of this level's doorways."""
    result: list[LevelPlan] = []

    def stairs_clear(plan: LevelPlan) -> bool:
        if not clear:
            return True
        here = doorways_of(plan)
        return all(
            set(stair_cells(pin.above, plan.boxes[pin.room], blocked[k])) - here
            for k, pin in enumerate(pins)
        )

    def accept(design: Design) -> bool:
        for k, pin in enumerate(pins):
            if not stair_cells(pin.above, design.boxes[pin.room], blocked[k]):
                return False
        plan = _route_design(design, ring_conns, rng)
        if plan is None or not stairs_clear(plan):
            return False
        result.append(plan)
        return True

    # Rarely no template fits (four very long corridors and two ways down to line up):
    # roll the templates' order and lengths again from streams of their own.
    for attempt in range(RETRIES + 1):
        stream = rng if attempt == 0 else rng.child(f"retry/{attempt}")
        if layout_ring(ordered, kinds, stream, pins, accept) is not None:
            result[0].pins = pins
            return result[0]
    return _plan_free(ordered, kinds, ring_conns, pins, rng.child("free"), blocked, stairs_clear)


def _plan_free(
    ordered: list[Box],
    kinds: list[str],
    ring_conns: list[tuple[int, Connection]],
    pins: list[Pin],
    rng: Rng,
    blocked: list[set[Cell]],
    stairs_clear: object,
) -> LevelPlan | None:
    """A ring no template fits, room by room (free.py)."""
    from generator.plan import free

    boxes = {b.id: b for b in ordered}
    for attempt in range(FREE_TRIES):
        if not free.place(ordered, kinds, pins, rng, blocked, wander=attempt > 0):
            continue
        paths = free.route_ring(ordered, kinds)
        if paths is None:
            continue
        boxes = {b.id: b for b in ordered}
        occ = Occupancy(ordered)
        plan = LevelPlan(boxes, occupancy=occ, pins=pins)
        lengths, longs = [], []
        for k, path in paths.items():
            a, b = ordered[k].id, ordered[(k + 1) % len(ordered)].id
            index, conn = ring_conns[k]
            plan.routes[index] = routed(path, a, b, boxes, conn, rng)
            occ.add_path(path)
            (longs if conn.obstacle == "long_corridor" else lengths).append(len(path))
        ok = long_ok(lengths, longs) and compact(occ)
        if ok and stairs_clear(plan):  # type: ignore[operator]
            return plan
    return None


def _route_design(
    design: Design, ring_conns: list[tuple[int, Connection]], rng: Rng
) -> LevelPlan | None:
    boxes = design.boxes
    occ = Occupancy(boxes.values())
    plan = LevelPlan(boxes, occupancy=occ)
    pending: list[Link] = []
    loops: list[Link] = []
    for link in design.links:
        if link.outer:
            loops.append(link)
            continue
        got = designed(link, boxes) if link.form != "free" else None
        if got is not None and (not got[0] or occ.clear(got[0], link.a, link.b, got[1])):
            path = got[0]
            hint = (*boxes[link.a].door_cell(link.exit, link.da), link.exit)
            conn = ring_conns[link.index][1]
            plan.routes[link.index] = routed(path, link.a, link.b, boxes, conn, rng, hint)
            occ.add_path(path, got[1])
        else:
            pending.append(link)
    for link in pending:
        path = search(boxes[link.a], boxes[link.b], occ)
        if path is None:
            return None
        conn = ring_conns[link.index][1]
        plan.routes[link.index] = routed(path, link.a, link.b, boxes, conn, rng)
        occ.add_path(path)
    ordinary = [k for k, (_, c) in enumerate(ring_conns) if c.obstacle != "long_corridor"]
    floor = long_floor([len(plan.routes[k].path) for k in ordinary if k in plan.routes])
    for link in loops:
        path = loop(link, boxes, max(floor, link.leg2), occ)
        if path is None:
            return None
        conn = ring_conns[link.index][1]
        plan.routes[link.index] = routed(path, link.a, link.b, boxes, conn, rng)
        occ.add_path(path)
    lengths, longs = [], []
    for k, r in plan.routes.items():
        (longs if ring_conns[k][1].obstacle == "long_corridor" else lengths).append(len(r.path))
    if not long_ok(lengths, longs) or not compact(occ):
        return None
    # Re-key by the site's connection index.
    plan.routes = {ring_conns[k][0]: r for k, r in plan.routes.items()}
    return plan
