"""The last resort for a ring no template fits: rooms placed one by one beside their neighbours.

A level whose rooms must lie under two rooms of the level above (two ways down to line up) can
ask more than any template gives. Here the pinned rooms go where the level above needs them,
then each other room goes next to a ring neighbour already placed, at its corridor's length and
clear of every room, and the corridors are found by search (a very long one loops out when the
straight way is too short).
"""

from __future__ import annotations

import math

from generator.engine.rng import Rng
from generator.plan.boxes import STEP, Box
from generator.plan.layout import LONG_MIN, Link, Pin, inner_rect, long_floor, stair_cells
from generator.plan.occupancy import Occupancy
from generator.plan.route import lengthen, loop, search

SEP = 2
DIRECTIONS = ("e", "s", "w", "n")


def _gap(a: Box, b: Box) -> int:
    gx = max(b.x - a.x - a.w, a.x - b.x - b.w)
    gy = max(b.y - a.y - a.h, a.y - b.y - b.h)
    return max(gx, gy)


def _clear(box: Box, placed: list[Box], neighbours: set[int], rock: int = SEP) -> bool:
    return all(_gap(box, q) >= (1 if q.id in neighbours else rock) for q in placed)


def _pin_range(box: Box, above: Box) -> tuple[range, range]:
    """Positions of box whose inner floor overlaps above's inner floor."""
    x0, y0, x1, y1 = inner_rect(box)
    a0, b0, a1, b1 = inner_rect(above)
    return (
        range(above.x + a0 - x1, above.x + a1 - x0 + 1),
        range(above.y + b0 - y1, above.y + b1 - y0 + 1),
    )


def place(
    ring: list[Box],
    kinds: list[str],
    pins: list[Pin],
    rng: Rng,
    taken: list[set[tuple[int, int]]] | None = None,
    wander: bool = False,
) -> bool:
    """Place a ring's boxes (in ring order; kinds[i] joins i and i+1). False if impossible."""
    n = len(ring)
    index = {b.id: i for i, b in enumerate(ring)}

    def neighbours(i: int) -> set[int]:
        return {ring[(i - 1) % n].id, ring[(i + 1) % n].id}

    placed: list[Box] = []
    # Every way the pinned rooms can lie under theirs (either way round), nearest the middle
    # first; the first combination that keeps them apart wins.
    choices = []
    for k, pin in enumerate(pins):
        i = index[pin.room]
        used = taken[k] if taken else set()
        options = []
        for box in (ring[i], ring[i].transposed()):
            xs, ys = _pin_range(box, pin.above)
            cx = pin.above.x + pin.above.w // 2 - box.w // 2
            cy = pin.above.y + pin.above.h // 2 - box.h // 2
            for x in xs:
                for y in ys:
                    box.x, box.y = x, y
                    if not stair_cells(pin.above, box, used):
                        continue
                    cost = abs(x - cx) + abs(y - cy) + (0 if box is ring[i] else 1)
                    options.append((cost, x, y, box))
            box.x, box.y = 0, 0
        options.sort(key=lambda o: o[:3])
        choices.append((i, options[:80]))
    for combo in _combinations([opts for _, opts in choices]):
        trial: list[Box] = []
        for (i, _), (_, x, y, box) in zip(choices, combo, strict=True):
            box.x, box.y = x, y
            # Rooms under two neighbouring rooms above may stand a single square apart.
            if not _clear(box, trial, neighbours(i), rock=1):
                break
            trial.append(box)
        else:
            for (i, _), option in zip(choices, combo, strict=True):
                ring[i] = option[3]
            placed = trial
            break
    else:
        if pins:
            return False
    if not placed:
        ring[0].x, ring[0].y = 0, 0
        placed.append(ring[0])
    done = {b.id for b in placed}
    while len(done) < n:
        progress = False
        for i, box in enumerate(ring):
            if box.id in done:
                continue
            for j, kind in ((i - 1, kinds[(i - 1) % n]), (i + 1, kinds[i])):
                other = ring[j % n]
                if other.id not in done:
                    continue
                if _beside(box, other, kind, placed, neighbours(i), rng, wander):
                    placed.append(box)
                    done.add(box.id)
                    progress = True
                    break
        if not progress:
            return False
    return True


def _combinations(lists: list[list]) -> list[tuple]:  # type: ignore[type-arg]
    """All picks of one item from each list, cheapest total first."""
    combos: list[tuple] = [()]  # type: ignore[type-arg]
    for items in lists:
        combos = [c + (item,) for c in combos for item in items]
    return sorted(combos, key=lambda c: sum(item[0] for item in c))


def _beside(
    box: Box, other: Box, kind: str, placed: list[Box], near: set[int], rng: Rng, wander: bool
) -> bool:
    """Put box next to other, `kind`'s corridor length away, clear of everything placed: away
    from the rooms placed so far, or (`wander`) in a rolled direction."""
    cx = sum(b.x + b.w / 2 for b in placed) / len(placed)
    cy = sum(b.y + b.h / 2 for b in placed) / len(placed)
    ox, oy = other.x + other.w / 2, other.y + other.h / 2
    if wander:
        dirs = rng.shuffle(list(DIRECTIONS))
    else:
        dirs = sorted(
            DIRECTIONS,
            key=lambda d: (-(STEP[d][0] * (ox - cx) + STEP[d][1] * (oy - cy)), rng.random()),
        )
    first = LONG_MIN + 2 if kind == "long_corridor" else 2
    for gap in range(first, first + 10):
        for d in dirs:
            sx, sy = STEP[d]
            for shift in (0, 1, -1, 2, -2, 3, -3):
                if sx:
                    box.x = other.x + other.w + gap if sx > 0 else other.x - gap - box.w
                    box.y = other.y + (other.h - box.h) // 2 + shift
                else:
                    box.y = other.y + other.h + gap if sy > 0 else other.y - gap - box.h
                    box.x = other.x + (other.w - box.w) // 2 + shift
                if _clear(box, placed, near):
                    return True
    return False


def long_path(
    a: Box,
    b: Box,
    index: int,
    boxes: dict[int, Box],
    occ: Occupancy,
    floor: float,
    short: list[tuple[int, int]] | None,
) -> list[tuple[int, int]] | None:
    """A very long corridor of at least `floor` squares between two placed rooms: a loop out
    of the same side of both (each side in turn), else the short way pushed out sideways. Its
    ends keep off the squares where no door may stand (occ.no_door)."""

    def ends_ok(path: list[tuple[int, int]] | None) -> bool:
        return path is not None and path[0] not in occ.no_door and path[-1] not in occ.no_door

    for side in DIRECTIONS:
        link = Link(a.id, b.id, index, "long_corridor", "h", side, side, outer=side)
        path = loop(link, boxes, math.ceil(floor), occ)
        if ends_ok(path):
            return path
    if short is not None:
        longer = lengthen(short, math.ceil(floor), occ, a.id, b.id)
        return longer if ends_ok(longer) else None
    return None


def route_ring(ring: list[Box], kinds: list[str]) -> dict[int, list[tuple[int, int]]] | None:
    """Corridors for a placed ring, by ring link index, or None (ordinary corridors first, so
    a very long one can be made long enough against them)."""
    n = len(ring)
    boxes = {b.id: b for b in ring}
    occ = Occupancy(ring)
    paths: dict[int, list[tuple[int, int]]] = {}
    order = sorted(range(n), key=lambda i: (kinds[i] == "long_corridor", i))
    for i in order:
        a, b = ring[i], ring[(i + 1) % n]
        path = search(a, b, occ)
        if kinds[i] == "long_corridor":
            others = [len(p) for k, p in paths.items() if p and kinds[k] != "long_corridor"]
            floor = long_floor(others)
            if path is None or len(path) < floor:
                path = long_path(a, b, i, boxes, occ, floor, path)
        if path is None:
            # No corridor over another here: the next placement is tried instead, and only the
            # rows at the very last (rows.py) may cross one.
            return None
        paths[i] = path
        occ.add_path(path)
    return paths
