"""Corridors: the squares of a way between two rooms, checked against what is already drawn.

A laid-out level says how each of its ways should run (straight between facing walls, or an L
round the outside of the ring); `designed` builds that path and `Occupancy.clear` checks it
keeps off every room and every other corridor, with a square of rock between. When a designed
path does not fit (a hand-edited document, a crowded level), `search` finds one: a shortest
path over the level's squares that pays for every turn and for squeezing past a wall or
another corridor, so it comes out straight where it can.
"""

from __future__ import annotations

import heapq

from generator.plan.boxes import OPPOSITE, STEP, Box, Cell
from generator.plan.layout import Link
from generator.plan.occupancy import Occupancy, Rect, run_rect

NEIGHBOURS8 = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
STEP_COST, TURN_COST, SQUEEZE_COST, CROSS_COST = 10, 14, 40, 400
MARGIN = 4  # squares the search may stray beyond the level's rooms
MAX_STATES = 400_000  # squares and headings one search may settle (a 250-square level's all)


WALK_LIMIT = 200  # squares a designed corridor may run before it counts as going nowhere


def _walk(start: Cell, step: tuple[int, int], target: Cell, level: bool = True) -> list[Cell]:
    """The squares from `start` straight along `step` until they reach `target`'s column (a
    step across) or row (a step down), which with `level` must be `target` itself; [] when
    they never get there."""
    (x, y), (dx, dy) = start, step
    if dy == 0:
        k, off = (target[0] - x) * dx, target[1] != y
    else:
        k, off = (target[1] - y) * dy, target[0] != x
    if (level and off) or not 0 <= k < WALK_LIMIT:
        return []
    return [(x + dx * i, y + dy * i) for i in range(k + 1)]


def designed(link: Link, boxes: dict[int, Box]) -> tuple[list[Cell], list[Rect]] | None:
    """The corridor a layout meant for a link, and its straight runs, or None when the rooms
    do not allow it. An empty path is a door in a shared wall."""
    a, b = boxes[link.a], boxes[link.b]
    start = a.outside(link.exit, link.da)
    end = b.outside(link.entry, link.db)
    if link.form in ("h", "v"):
        if b.contains(start):  # the rooms touch: a door in the shared wall
            return ([], []) if a.contains(end) else None
        path = _walk(start, STEP[link.exit], end)
        return (path, [run_rect(start, path[-1])]) if path else None
    if link.form == "L":
        step1 = STEP[link.exit]
        leg1 = _walk(start, step1, end, level=False)  # to the end's column (or row)
        if not leg1:
            return None
        leg2 = _walk(leg1[-1], STEP[OPPOSITE[link.entry]], end)
        if not leg2:
            return None
        return leg1 + leg2[1:], [run_rect(start, leg1[-1]), run_rect(leg2[0], leg2[-1])]
    return None


def loop(
    link: Link, boxes: dict[int, Box], length: int, occ: Occupancy | None = None
) -> list[Cell] | None:
    """A very long corridor between neighbours: out of the same side of both rooms, along, and
    back in, reaching far enough out to be at least `length` squares, and (given `occ`) clear
    of everything drawn so far. Doors nearest each other are tried first, then further ones,
    then a longer reach."""
    a, b = boxes[link.a], boxes[link.b]
    # Out of the ring's outer side first; into the core when that side is taken.
    for side in (link.outer, OPPOSITE[link.outer]):
        sx, sy = STEP[side]
        along_x = sx == 0

        def towards(box: Box, other: Box, side: str = side, along_x: bool = along_x) -> list[int]:
            offs = list(box.doors(side)[1:-1] or box.doors(side))
            mid = (other.x + other.w / 2) if along_x else (other.y + other.h / 2)
            base = box.x if along_x else box.y
            return sorted(offs, key=lambda o: (abs(base + o + 0.5 - mid), o))[:3]

        for da in towards(a, b):
            for db in towards(b, a):
                start, end = a.outside(side, da), b.outside(side, db)
                path = _loop_path(start, end, sx, sy, length, occ, a, b)
                if path is not None:
                    return path
    return None


def _loop_path(
    start: Cell,
    end: Cell,
    sx: int,
    sy: int,
    length: int,
    occ: Occupancy | None,
    a: Box,
    b: Box,
) -> list[Cell] | None:
    if start == end:
        return None
    ax, ay = (1 if end[0] > start[0] else -1, 0) if sx == 0 else (0, 1 if end[1] > start[1] else -1)
    reach_a = start[0] * sx + start[1] * sy
    reach_b = end[0] * sx + end[1] * sy
    base = max(reach_a, reach_b)
    # The far leg's length along the wall (squares from one leg to the other).
    span = abs((end[0] - start[0]) * ax + (end[1] - start[1]) * ay)
    a_id, b_id = a.id, b.id
    out_ok = back_ok = 0  # squares of each leg out from its room already found clear
    for depth in range(1, 14):
        far = base + depth
        n1, n2 = far - reach_a, far - reach_b  # squares out from each end to the far leg
        if n1 + n2 + span + 1 < length:
            continue
        cx, cy = start[0] + sx * n1, start[1] + sy * n1
        tx, ty = cx + ax * span, cy + ay * span
        if (tx - sx * n2, ty - sy * n2) != end:
            return None
        if occ is not None:
            # The legs only grow as the far leg moves out: a leg square in the way blocks
            # every deeper loop too, so only the new squares need looking at.
            if out_ok <= n1:
                first = (start[0] + sx * out_ok, start[1] + sy * out_ok)
                if not occ.clear_run(first, (cx, cy), a_id, b_id):
                    return None
                out_ok = n1 + 1
            if back_ok < n2:
                first = (end[0] + sx * back_ok, end[1] + sy * back_ok)
                last = (end[0] + sx * (n2 - 1), end[1] + sy * (n2 - 1))
                if not occ.clear_run(first, last, a_id, b_id):
                    return None
                back_ok = n2
            if span and not occ.clear_run((cx + ax, cy + ay), (tx, ty), a_id, b_id):
                continue
        out1 = [(start[0] + sx * k, start[1] + sy * k) for k in range(n1 + 1)]
        along = [(cx + ax * k, cy + ay * k) for k in range(1, span + 1)]
        back = [(tx - sx * k, ty - sy * k) for k in range(1, n2 + 1)]
        return out1 + along + back
    return None


def search(a: Box, b: Box, occ: Occupancy, allow_cross: bool = False) -> list[Cell] | None:
    """A path from a wall of a to a wall of b: fewest squares and turns, clear of everything.

    Every square that touches a doorway of a may start it and every one that touches a doorway
    of b may end it. Squeezing past a wall or a corridor costs extra; crossing another corridor
    is allowed only with `allow_cross` (a junction), at a high price.
    """
    goals = set()
    for side in "nesw":
        for off in b.doors(side):
            cell = b.outside(side, off)
            if occ.free(cell) and cell not in occ.no_door:
                goals.add(cell)
    bx0, by0, bx1, by1 = occ.bounds
    area = (bx0 - MARGIN, by0 - MARGIN, bx1 + MARGIN, by1 + MARGIN)
    return _cheapest(a, goals.__contains__, occ, {a.id, b.id}, allow_cross, area)


def search_out(
    a: Box, occ: Occupancy, extent: tuple[int, int, int, int], cross: bool = False
) -> list[Cell] | None:
    """A path from a wall of a to beyond `extent` (x0, y0, x1, y1 inclusive: everything drawn),
    clear of everything: the way in from outside when no wall of the room faces out. With
    `cross`, it may cross corridors, each straight over, as a crossroads (None if the cheapest
    way runs along one instead)."""
    x0, y0, x1, y1 = extent

    def beyond(cell: Cell) -> bool:
        return not (x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1)

    def to_edge(cell: Cell) -> int:
        # Squares still to go before leaving the extent: never more than it costs (A*).
        x, y = cell
        # (Compared, not min() and max(): the search asks it of every square it reaches.)
        d = x - x0 if x - x0 < x1 - x else x1 - x
        if y - y0 < d:
            d = y - y0
        if y1 - y < d:
            d = y1 - y
        return STEP_COST * (d + 1) if d >= 0 else 0

    area = (x0 - 2, y0 - 2, x1 + 2, y1 + 2)
    path = _cheapest(a, beyond, occ, {a.id}, cross, area, to_edge, start_clear=True)
    if path is None or not cross:
        return path
    for k, (x, y) in enumerate(path):
        if (x, y) not in occ.corridor:
            continue
        if k == 0 or k == len(path) - 1:
            return None
        (px, py), (nx, ny) = path[k - 1], path[k + 1]
        across = [
            (x + (ny - py) // 2, y - (nx - px) // 2),
            (x - (ny - py) // 2, y + (nx - px) // 2),
        ]
        straight = px + nx == 2 * x and py + ny == 2 * y
        if not straight or (px, py) in occ.corridor or (nx, ny) in occ.corridor:
            return None
        if not all(c in occ.corridor for c in across):
            return None  # the corridor turns or ends here: no clean crossing
    return path


def reaches_out(a: Box, occ: Occupancy, extent: tuple[int, int, int, int]) -> bool:
    """Whether `search_out` (without crossing) finds a way: a flood over the free squares from
    a's doorways, far cheaper than the search when the room is walled in (it then fails only
    after trying every square in every heading)."""
    x0, y0, x1, y1 = extent
    lo_x, lo_y, hi_x, hi_y = x0 - 2, y0 - 2, x1 + 2, y1 + 2
    room, corridor = occ.room, occ.corridor
    stack = []
    for side in "nesw":
        for off in a.doors(side):
            cell = a.outside(side, off)
            if cell not in room and cell not in corridor and cell not in occ.no_door:
                stack.append(cell)
    seen = set(stack)
    while stack:
        x, y = stack.pop()
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return True
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if (
                nxt not in seen
                and lo_x <= nxt[0] <= hi_x
                and lo_y <= nxt[1] <= hi_y
                and nxt not in room
                and nxt not in corridor
            ):
                seen.add(nxt)
                stack.append(nxt)
    return False


def _cheapest(
    a: Box,
    is_goal: object,
    occ: Occupancy,
    ends: set[int],
    allow_cross: bool,
    area: tuple[int, int, int, int],
    guess: object = None,
    start_clear: bool = False,
) -> list[Cell] | None:
    """Dijkstra over (square, heading) from a's doorways to the first square `is_goal`
    accepts, within `area` (inclusive); A* when `guess(cell)` underestimates what is left.
    `start_clear`: never start on a corridor's square, even where crossing is allowed."""
    h = guess or (lambda cell: 0)
    lo_x, lo_y, hi_x, hi_y = area
    room, near, corridor, beside = occ.room, occ.near, occ.corridor, occ.beside

    def cost(cell: Cell) -> int | None:
        if cell in room:
            return None
        c = STEP_COST
        if cell in corridor:
            if not allow_cross:
                return None
            c += CROSS_COST
        elif cell in beside:
            c += SQUEEZE_COST
        others = near.get(cell)
        if others and not others <= ends:
            c += SQUEEZE_COST
        return c

    heap: list[tuple[int, int, int, Cell, str]] = []  # (estimate, order, cost so far, ...)
    best: dict[tuple[Cell, str], int] = {}
    parent: dict[tuple[Cell, str], tuple[Cell, str] | None] = {}
    order = 0
    for side in "nesw":
        for off in a.doors(side):
            cell = a.outside(side, off)
            c = cost(cell)
            if c is None or (start_clear and cell in corridor) or cell in occ.no_door:
                continue
            key = (cell, side)
            if c < best.get(key, 1 << 30):
                best[key] = c
                parent[key] = None
                heapq.heappush(heap, (c + h(cell), order, c, cell, side))  # type: ignore[operator]
                order += 1
    budget = MAX_STATES
    # The hot loop of every winding corridor: the moves out of each heading, the cost of a
    # square (as `cost` above) and the heuristic inlined, each square's cost reckoned once.
    moves = {
        heading: [(s, d) for s, d in STEP.items() if s != OPPOSITE[heading]] for heading in STEP
    }
    costs: dict[Cell, int | None] = {}
    push, pop = heapq.heappush, heapq.heappop
    far = 1 << 30
    while heap:
        _, _, d, cell, heading = pop(heap)
        key = (cell, heading)
        if d > best[key]:
            continue  # a stale entry: this state was reached more cheaply since
        budget -= 1
        if budget < 0:
            return None  # a level far bigger than any plan: the caller reports no way
        if is_goal(cell):  # type: ignore[operator]
            path = []
            k: tuple[Cell, str] | None = key
            while k is not None:
                path.append(k[0])
                k = parent[k]
            return path[::-1]
        x, y = cell
        for side, (dx, dy) in moves[heading]:
            nx_, ny_ = x + dx, y + dy
            if not (lo_x <= nx_ <= hi_x and lo_y <= ny_ <= hi_y):
                continue
            nxt = (nx_, ny_)
            if nxt in costs:
                c = costs[nxt]
            else:
                c = costs[nxt] = cost(nxt)
            if c is None:
                continue
            nd = d + c + (TURN_COST if side != heading else 0)
            nkey = (nxt, side)
            if nd < best.get(nkey, far):
                best[nkey] = nd
                parent[nkey] = key
                push(heap, (nd + h(nxt), order, nd, nxt, side))  # type: ignore[operator]
                order += 1
    return None


def lengthen(path: list[Cell], length: int, occ: Occupancy, a: int, b: int) -> list[Cell] | None:
    """A path made at least `length` squares long by pushing one straight stretch of it out
    sideways (a bend out and back), clear of everything; None when no stretch can go."""
    if len(path) >= length:
        return path
    n = len(path)
    for depth in range(1, 12):
        for i in range(n - 1):
            for j in range(n - 1, i, -1):
                (x0, y0), (x1, y1) = path[i], path[j]
                if x0 != x1 and y0 != y1:
                    continue
                run = path[i : j + 1]
                if any(p[0] != x0 for p in run) and any(p[1] != y0 for p in run):
                    continue  # not straight
                if len(run) < 2:
                    continue
                for sign in (1, -1):
                    nx, ny = (0, sign) if y0 == y1 else (sign, 0)
                    out = [(x0 + nx * k, y0 + ny * k) for k in range(1, depth + 1)]
                    far = [(p[0] + nx * depth, p[1] + ny * depth) for p in run[1:-1]]
                    back = [(x1 + nx * k, y1 + ny * k) for k in range(depth, 0, -1)]
                    bump = out + far + back
                    new = path[: i + 1] + bump + path[j:]
                    if len(new) < length or len(set(new)) != len(new):
                        continue
                    if occ.clear(bump, a, b) and _keeps_clear(bump, path, i, j):
                        return new
    return None


def _keeps_clear(bump: list[Cell], path: list[Cell], i: int, j: int) -> bool:
    """The bump does not run beside the rest of its own path (which would read as a wide hall)."""
    rest = set(path[:i]) | set(path[j + 1 :])
    for x, y in bump:
        for dx, dy in NEIGHBOURS8:
            if (x + dx, y + dy) in rest:
                return False
    return True
