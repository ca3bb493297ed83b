"""Laying one loop of six rooms out on the grid.

A loop is drawn as a ring round a core of solid rock, so it reads as a loop: two rows of three,
a hexagon, a diamond or a barrel, turned and mirrored and laid along either axis (templates.py).
Each room of the ring takes one slot; rows are bands that never overlap, rooms within a row keep
their order, so no two rooms can collide. The template also says how each way round the ring
is drawn: a straight corridor between rooms side by side ('h') or one above the other ('v'), or
an L round the outside of the ring between rooms on a diagonal ('L').

Positions come from two systems of difference constraints (one per axis; see solver.py), tried
strict first (every corridor straight and of its rolled length), then with the lengths left
free, then with the corridors left to the router. A level below the first is pinned: the rooms
where the ways down arrive must lie under the rooms they leave from, so the squares of a stair
line up.
"""

from __future__ import annotations

import statistics

from generator.engine.rng import Rng
from generator.plan import shapes
from generator.plan.boxes import TRANSPOSED, Box, Cell
from generator.plan.solver import System
from generator.plan.templates import RING, Template, ring_link, rolled_variants, slot

SHORT_GAPS = (1, 2, 2, 3, 3, 3, 4)  # squares of corridor between neighbours (a few feet to 40)
# FMC Basic's very long corridor, drawn so it reads as one (our measure): at least LONG_MIN
# squares, and at least LONG_FACTOR times the median of the level's ordinary corridors.
LONG_MIN = 8
LONG_FACTOR = 2
LONG_GAPS = (10, 11, 12, 13)
SHARED_CHANCE = {"none": 0.08, "locked_door": 0.2, "hidden_door": 0.3, "long_corridor": 0.0}
CORE = (3, 4, 4, 5, 6)  # rock across the middle of the ring, so the loop shows
SEP = 2  # the least rock between rooms that are not joined

STRICT, ALIGNED, LOOSE = "strict", "aligned", "loose"


def long_floor(others: list[int]) -> float:
    """The least length of a very long corridor, given the lengths of its level's ordinary
    corridors (doors in shared walls, of length 0, are not corridors)."""
    others = [n for n in others if n > 0]
    return max(LONG_MIN, LONG_FACTOR * statistics.median(others)) if others else LONG_MIN


PAIRS = tuple((a, b) for a in range(RING) for b in range(a + 1, RING))
MAX_LAZY = 12  # separations added one by one before an attempt gives up
FREE_TRIES = 6  # templates tried with straight corridors before letting the router draw them
PINNED_TRIES = 24  # ... for a level whose rooms must lie under the level above


class Link:
    """One way round the ring, in template space (a -> b is the template's direction). (A
    plain class: a level makes a dozen or more, and a dataclass's __init__ costs twice this.)"""

    __slots__ = (
        "a",
        "b",
        "index",
        "kind",
        "form",
        "exit",
        "entry",
        "da",
        "db",
        "leg1",
        "leg2",
        "outer",
    )

    def __init__(
        self,
        a: int,
        b: int,
        index: int,  # which of the level's ring connections
        kind: str,
        form: str,
        exit: str,
        entry: str,
        da: int = 0,  # door offset along a's exit side
        db: int = 0,  # ... and along b's entry side
        leg1: int = 0,  # straight: squares of corridor (0: a door in a shared wall); L: first leg
        leg2: int = 0,  # L: second leg; a loop: the corridor's length
        outer: str = "",  # a very long way between neighbours: a loop out of this side of both
    ) -> None:
        self.a, self.b, self.index, self.kind, self.form = a, b, index, kind, form
        self.exit, self.entry, self.da, self.db = exit, entry, da, db
        self.leg1, self.leg2, self.outer = leg1, leg2, outer

    @property
    def long(self) -> bool:
        return self.kind == "long_corridor"

    def straightened(self) -> Link:
        """The same link, its very long corridor stretching the ring instead of looping out."""
        k = self
        return Link(
            k.a, k.b, k.index, k.kind, k.form, k.exit, k.entry, k.da, k.db, k.leg1, k.leg2, ""
        )


class Pin:
    """A room of this level (`room`) that must hold a square of a room of the level above
    (`above`): `cell` when the square is chosen, else any square of both."""

    __slots__ = ("room", "above", "cell")

    def __init__(self, room: int, above: Box, cell: Cell | None = None) -> None:
        self.room, self.above, self.cell = room, above, cell


class Design:
    """A laid-out level: boxes in real coordinates (room id -> box) and each link's intended
    corridor (in real space: a, b are room ids, sides real)."""

    __slots__ = ("boxes", "links", "template", "mode")

    def __init__(self, boxes: dict[int, Box], links: list[Link], template: str, mode: str) -> None:
        self.boxes, self.links, self.template, self.mode = boxes, links, template, mode


def _pick(offsets: tuple[int, ...], rng: Rng) -> int:
    """A door offset, away from the corners where the side allows it."""
    inner = _inner(offsets)
    return inner[int(rng.random() * len(inner))]


def _links(
    template: Template, start: int, mirror: bool, kinds: list[str], boxes: list[Box], rng: Rng
) -> list[Link]:
    """The template's links with their rolled sides and lengths (template space). Straight
    links get their doors once the rooms are placed; an L's doors are rolled now."""
    slots = template.slots
    last_row = template.last_row
    first_col, last_col = template.cols_span
    choice, chance = rng.choice, rng.chance
    out = []
    for t, (form, _, _) in enumerate(template.links):
        a, b = t, (t + 1) % RING
        index = ring_link(start, mirror, t)
        kind = kinds[index]
        exit_, entry = template.sides[t]
        link = Link(a, b, index, kind, form, exit_, entry)
        long = kind == "long_corridor"
        if form == "L":
            link.da = _pick(boxes[a].doors(exit_), rng)
            link.db = _pick(boxes[b].doors(entry), rng)
            if long:
                link.leg1, link.leg2 = choice((6, 7, 8)), choice((4, 5, 6))
            else:
                link.leg1, link.leg2 = choice((2, 2, 3, 4)), choice((1, 2, 2, 3))
        elif long:
            # A very long corridor between neighbours loops out beyond the ring and back, so
            # the far side of the ring need not stretch to match it.
            row, col = slots[a]
            if form == "h":
                link.outer = "n" if row == 0 else "s" if row == last_row else ""
            else:
                link.outer = "w" if col == first_col else "e" if col == last_col else ""
            link.leg1 = choice(SHORT_GAPS[3:])
            link.leg2 = choice(LONG_GAPS)
            if not link.outer:
                link.leg1 = choice(LONG_GAPS)
        elif chance(SHARED_CHANCE.get(kind, 0.0)):
            link.leg1 = 0
        else:
            link.leg1 = choice(SHORT_GAPS)
        out.append(link)
    return out


def _inner(offsets: tuple[int, ...]) -> tuple[int, ...]:
    return offsets[1:-1] if len(offsets) >= 3 else offsets


def _gap_bounds(link: Link, mode: str) -> tuple[int, int | None]:
    """The corridor length a straight link may take in this attempt."""
    stretched = link.long and not link.outer
    if mode == LOOSE:
        return (LONG_MIN if stretched else 1, None)
    t = link.leg1
    least = LONG_MIN if stretched else (0 if t == 0 else 1)
    lo = least if least > t - 1 else t - 1
    if mode == ALIGNED:
        return (lo, None)
    return (lo, t + (3 if stretched else 2) if t else 0)


def _constraints(
    template: Template,
    links: list[Link],
    boxes: list[Box],
    pins: list[tuple[int, Box, Cell | None]],
    mode: str,
    core: int,
) -> tuple[System, System]:
    """The two axes' systems for one attempt (template space; variable 6 is the origin).

    Rooms side by side in a row keep their order, rooms one above the other in a column keep
    theirs, with rock between (the core, across the middle of the ring); links add their
    corridors. Other pairs are kept apart lazily (see `_separate`).
    """
    X, Y = System(RING + 1), System(RING + 1)
    w = [b.w for b in boxes]
    h = [b.h for b in boxes]
    aligned = mode != LOOSE
    rock = core if mode == STRICT else SEP
    by_pair = {}
    for link in links:
        by_pair[(link.a, link.b)] = by_pair[(link.b, link.a)] = link

    def straight(first: int, second: int, link: Link, along: System, across: System) -> None:
        """`second` lies beyond `first` along `along`, joined by a straight corridor: some
        door of each faces the other (their offsets across overlap)."""
        size = w[first] if along is X else h[first]
        lo, hi = _gap_bounds(link, mode)
        along.between(first, second, lo=size + lo, hi=None if hi is None else size + hi)
        if aligned and not link.outer:
            side1, side2 = (link.exit, link.entry) if link.a == first else (link.entry, link.exit)
            o1 = _inner(boxes[first].doors(side1))
            o2 = _inner(boxes[second].doors(side2))
            if not o1 or not o2:
                return
            # first + o1 == second + o2  =>  second - first = o1 - o2
            across.between(first, second, lo=o1[0] - o2[-1], hi=o1[-1] - o2[0])

    # Neighbours in a row or a column keep their order, through a straight corridor when a
    # link of that form joins them, else with rock between.
    for a, b in template.rows:
        link = by_pair.get((a, b))
        if link is not None and link.form == "h":
            straight(a, b, link, X, Y)
        else:
            X.between(a, b, lo=w[a] + rock)
    for a, b in template.cols:
        link = by_pair.get((a, b))
        if link is not None and link.form == "v":
            straight(a, b, link, Y, X)
        else:
            Y.between(a, b, lo=h[a] + rock)
    if not aligned:
        # Loose: an L's rooms keep their rows apart by at least its corridor.
        slots = template.slots
        for link in links:
            if link.form == "L":
                a, b = (link.a, link.b) if slots[link.a][0] < slots[link.b][0] else (link.b, link.a)
                Y.between(a, b, lo=h[a] + (LONG_MIN if link.long else 1))
    for link in links:
        if link.form == "L" and aligned:
            _l_constraints(X, Y, link, w, h, mode == STRICT)
    for t, _above, cell in pins:
        if cell is None:
            continue
        # A rectangle of the room's inner floor must cover the square.
        x0, y0, x1, y1 = inner_rect(boxes[t])
        X.between(RING, t, lo=cell[0] - x1, hi=cell[0] - x0)
        Y.between(RING, t, lo=cell[1] - y1, hi=cell[1] - y0)
    for t, above, cell in pins:
        if cell is not None:
            continue
        # The rectangles of inner floor of the two rooms overlap (by two squares each way
        # where they can, so the stair need not stand in a corner).
        x0, y0, x1, y1 = inner_rect(boxes[t])
        a0, b0, a1, b1 = inner_rect(above)
        mx = 1 if mode == LOOSE else min(2, x1 - x0 + 1, a1 - a0 + 1)
        my = 1 if mode == LOOSE else min(2, y1 - y0 + 1, b1 - b0 + 1)
        X.between(RING, t, lo=above.x + a0 - x1 + mx - 1, hi=above.x + a1 - x0 - mx + 1)
        Y.between(RING, t, lo=above.y + b0 - y1 + my - 1, hi=above.y + b1 - y0 - my + 1)
    return X, Y


def _separate(
    template: Template, links: list[Link], boxes: list[Box], X: System, Y: System
) -> tuple[list[int], list[int]] | None:
    """Solve, then keep every pair of rooms apart that the template left free: each time two
    overlap or crowd each other, push them apart along the axis that needs the smaller move
    (in the template's order of rows or columns), and solve again."""
    joined = {(k.a, k.b) for k in links} | {(k.b, k.a) for k in links}
    shared = {(min(k.a, k.b), max(k.a, k.b)) for k in links if k.form in ("h", "v") and k.leg1 == 0}
    slots = template.slots
    pairs = [
        (a, b, 1 if (a, b) in joined else SEP, (a, b) in shared, boxes[a], boxes[b])
        for a, b in PAIRS
    ]
    xs = X.solve()
    ys = Y.solve() if xs is not None else None  # (one axis that cannot be met is enough)
    for _ in range(MAX_LAZY):
        if xs is None or ys is None:
            return None
        worst = None
        for a, b, need, touching, ba, bb in pairs:
            # The gap between the two along each axis (negative: they overlap along it).
            dx, dy = xs[b] - xs[a], ys[b] - ys[a]
            gx = dx - ba.w if dx - ba.w > -dx - bb.w else -dx - bb.w
            gy = dy - ba.h if dy - ba.h > -dy - bb.h else -dy - bb.h
            g = gx if gx > gy else gy
            if g >= need or (touching and (gx if gx < gy else gy) < 0 <= g):
                continue
            (ra, ca), (rb, cb) = slots[a], slots[b]
            moves = []
            if ca != cb:
                moves.append((need - gx, "x", a, b) if ca < cb else (need - gx, "x", b, a))
            if ra != rb:
                moves.append((need - gy, "y", a, b) if ra < rb else (need - gy, "y", b, a))
            if not moves:
                return None
            move = min(moves)
            if worst is None or move[0] > worst[0]:
                worst = move
        if worst is None:
            return xs, ys
        # Only the axis pushed apart changes, and its old solution starts the new one's.
        _, axis, first, second = worst
        if axis == "x":
            X.between(first, second, lo=boxes[first].w + SEP)
            xs = X.solve(xs)
        else:
            Y.between(first, second, lo=boxes[first].h + SEP)
            ys = Y.solve(ys)
    return None


def _l_constraints(X: System, Y: System, k: Link, w: list[int], h: list[int], exact: bool) -> None:
    """An L round the outside: leg1 squares out of a (counting the corner), leg2 into b."""
    f, t, df, dt = k.a, k.b, k.da, k.db
    extra1, extra2 = (4, 3) if k.long else (0, 0)  # a long L is long even when not exact
    first, second = (X, Y) if k.exit in ("e", "w") else (Y, X)
    size_f = w[f] if k.exit in ("e", "w") else h[f]
    size_t = h[t] if k.exit in ("e", "w") else w[t]
    slack = 2 if exact else None

    def span(sys: System, p: int, q: int, lo: int, target: int) -> None:
        """lo <= v[q] - v[p], and within [target - 1, target + slack] when exact."""
        if slack is None:
            sys.between(p, q, lo=lo)
        else:  # (compared, not max(): every layout tried asks it of every link)
            sys.between(
                p,
                q,
                lo=lo if lo > target - 1 else target - 1,
                hi=(lo if lo > target else target) + slack,
            )

    # First leg, along the exit direction: from the wall of f to the column (or row) of b's door.
    if k.exit in ("e", "s"):
        span(first, f, t, size_f + 1 - dt + extra1, size_f - 1 - dt + k.leg1)
    else:
        span(first, t, f, 2 + dt + extra1, k.leg1 + dt)
    # Second leg, into b's wall.
    if k.entry in ("n", "w"):
        span(second, f, t, 2 + df + extra2, k.leg2 + 1 + df)
    else:
        span(second, t, f, 1 + size_t - df + extra2, k.leg2 + size_t - df)


def layout_ring(
    boxes: list[Box],
    kinds: list[str],
    rng: Rng,
    pins: list[Pin],
    accept: object,
    tries: int = 0,
) -> Design | None:
    """Lay a ring of six out (boxes in ring order, kinds[i] joins i and i+1).

    `accept(design)` routes and checks a candidate and returns True to keep it; the first
    template variant it accepts wins. Returns None when none is accepted.
    """
    variants = rolled_variants(rng, kinds)
    if tries:
        variants = variants[:tries]
    # Straight corridors of their rolled lengths first, over a few templates; then lengths
    # left free; only then corridors left to the router, over every template.
    first = PINNED_TRIES if pins else FREE_TRIES
    rolled: dict[int, tuple[list[Box], list[Box], list[Link], int, list]] = {}
    for mode, count in ((STRICT, first), (ALIGNED, first), (LOOSE, len(variants))):
        for k, (template, transposed, start, mirror) in enumerate(variants[:count]):
            if k not in rolled:
                slots = [boxes[slot(start, mirror, t)] for t in range(RING)]
                tboxes = [b.transposed() if transposed else b for b in slots]
                links = _links(template, start, mirror, kinds, tboxes, rng)
                tpins = []
                for pin in pins:
                    t = next(i for i, b in enumerate(slots) if b.id == pin.room)
                    above = pin.above.transposed() if transposed else pin.above
                    cell = pin.cell[::-1] if transposed and pin.cell else pin.cell
                    tpins.append((t, above, cell))
                rolled[k] = (slots, tboxes, links, rng.choice(CORE), tpins)
            slots, tboxes, links, core, tpins = rolled[k]
            if mode == LOOSE:
                # Last resort: very long corridors stretch the ring instead of looping out.
                links = [k2.straightened() for k2 in links]
            X, Y = _constraints(template, links, tboxes, tpins, mode, core)
            solved = _separate(template, links, tboxes, X, Y)
            if solved is None:
                continue
            xs, ys = solved
            if tpins:
                ox, oy = xs[RING], ys[RING]
            else:
                ox, oy = min(xs[:RING]), min(ys[:RING])
            placed: dict[int, Box] = {}
            for t in range(RING):
                tb = tboxes[t]
                tb.x, tb.y = xs[t] - ox, ys[t] - oy
                real = slots[t]
                real.x, real.y = (tb.y, tb.x) if transposed else (tb.x, tb.y)
                placed[real.id] = real
            real_links = [_real_link(k2, slots, tboxes, transposed, mode) for k2 in links]
            real_links.sort(key=lambda k2: k2.index)
            design = Design(placed, real_links, template.name, mode)
            if accept(design):  # type: ignore[operator]
                return design
    return None


def _real_link(k: Link, slots: list[Box], tboxes: list[Box], transposed: bool, mode: str) -> Link:
    """A template link in real space (room ids for a and b, real sides), its doors chosen
    where the placed rooms face each other; 'free' when its corridor is left to the router."""
    form, da, db, outer = k.form, k.da, k.db, k.outer
    if outer:
        da, db = (
            _towards(tboxes[k.a], tboxes[k.b], outer),
            _towards(tboxes[k.b], tboxes[k.a], outer),
        )
        outer = TRANSPOSED[outer] if transposed else outer
    elif mode == LOOSE:
        form = "free"
    elif form in ("h", "v"):
        got = _facing(tboxes[k.a], k.exit, tboxes[k.b], k.entry)
        if got is None:
            form = "free"
        else:
            da, db = got
    exit_ = TRANSPOSED[k.exit] if transposed else k.exit
    entry = TRANSPOSED[k.entry] if transposed else k.entry
    return Link(
        slots[k.a].id,
        slots[k.b].id,
        k.index,
        k.kind,
        form,
        exit_,
        entry,
        da,
        db,
        k.leg1,
        k.leg2,
        outer,
    )


def _towards(a: Box, b: Box, side: str) -> int:
    """The door offset on a's `side` nearest room b (for a loop between neighbours)."""
    offs = _inner(a.doors(side))
    if side in ("n", "s"):
        return offs[-1] if b.x > a.x else offs[0]
    return offs[-1] if b.y > a.y else offs[0]


def _facing(a: Box, exit_: str, b: Box, entry: str) -> tuple[int, int] | None:
    """Door offsets on a's exit side and b's entry side that face each other, nearest the
    middle of their overlap (corner squares only when nothing else faces)."""
    base_a = a.x if exit_ in ("n", "s") else a.y
    base_b = b.x if entry in ("n", "s") else b.y
    for pick in (_inner, lambda o: o):
        oa, ob = pick(a.doors(exit_)), pick(b.doors(entry))
        if oa and ob and oa[-1] - oa[0] == len(oa) - 1 and ob[-1] - ob[0] == len(ob) - 1:
            # Both runs unbroken (every room but a cave or a cross): their overlap is a run too.
            lo, hi = max(base_a + oa[0], base_b + ob[0]), min(base_a + oa[-1], base_b + ob[-1])
            if lo <= hi:
                c = lo + (hi - lo) // 2
                return c - base_a, c - base_b
            continue
        common = sorted({base_a + o for o in oa} & {base_b + o for o in ob})
        if common:
            c = common[(len(common) - 1) // 2]
            return c - base_a, c - base_b
    return None


def stair_cells(upper: Box, lower: Box, taken: set[Cell]) -> list[Cell]:
    """Squares on the inner floor of both rooms (for a way down), not yet used by another."""
    up = {(upper.x + x, upper.y + y) for x, y in inner_cells(upper)}
    down = {(lower.x + x, lower.y + y) for x, y in inner_cells(lower)}
    return sorted((up & down) - taken)


def inner_rect(box: Box) -> tuple[int, int, int, int]:
    """The largest rectangle of a room's inner floor, relative: (x0, y0, x1, y1) inclusive."""
    cells = set(inner_cells(box)) or {(0, 0)}
    if len(cells) == box.w * box.h:
        return (0, 0, box.w - 1, box.h - 1)
    best, area = (0, 0, 0, 0), 0
    for x0 in range(box.w):
        for x1 in range(x0, box.w):
            run = 0
            for y in range(box.h):
                if all((x, y) in cells for x in range(x0, x1 + 1)):
                    run += 1
                    a = run * (x1 - x0 + 1)
                    if a > area:
                        best, area = (x0, y - run + 1, x1, y), a
                else:
                    run = 0
    if area == 0:
        x, y = min(cells)
        return (x, y, x, y)
    return best


def inner_cells(box: Box) -> tuple[Cell, ...]:
    return shapes.inner_cells(box.shape, box.w, box.h, box.cells)
