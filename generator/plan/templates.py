"""The shapes a ring of six can take on the grid: two rows of three, a hexagon, a diamond or a
barrel (layout.py lays rooms out by them). Each template is turned and mirrored and laid along
either axis (a variant); a level rolls the order it tries them in.
"""

from __future__ import annotations

from functools import lru_cache

from generator.engine.rng import Rng
from generator.plan.boxes import OPPOSITE

RING = 6


class Template:
    """A ring's shape: the (row, column) of each slot in ring order, and per link t -> t+1
    (form, exit side of t, entry side of t+1); for 'h' and 'v' the sides follow from the
    slots. (Plain classes here: a dataclass costs an import on every run.)

    What follows from the slots alone is worked out once: `rows` and `cols`, the pairs of
    slots next to each other in a row (left, right) or a column (top, bottom) with no slot
    between, and `sides`, each link's exit and entry sides."""

    __slots__ = ("name", "slots", "links", "rows", "cols", "sides", "last_row", "cols_span")

    def __init__(
        self,
        name: str,
        slots: tuple[tuple[int, int], ...],
        links: tuple[tuple[str, str, str], ...],
    ) -> None:
        self.name, self.slots, self.links = name, slots, links
        self.rows = _neighbours(slots, 0)
        self.cols = _neighbours(slots, 1)
        n = len(slots)
        sides = []
        for t, (form, exit_, entry) in enumerate(links):
            (ra, ca), (rb, cb) = slots[t], slots[(t + 1) % n]
            if form == "h":
                exit_ = "e" if cb > ca else "w"
                entry = OPPOSITE[exit_]
            elif form == "v":
                exit_ = "s" if rb > ra else "n"
                entry = OPPOSITE[exit_]
            sides.append((exit_, entry))
        self.sides = tuple(sides)
        self.last_row = max(r for r, _ in slots)
        self.cols_span = (min(c for _, c in slots), max(c for _, c in slots))


def _neighbours(slots: tuple[tuple[int, int], ...], line: int) -> tuple[tuple[int, int], ...]:
    """Pairs (a, b) of slots on one row (`line` 0) or one column (1), a before b along it, with
    no slot between them."""
    along = 1 - line
    n = len(slots)
    return tuple(
        (a, b)
        for a in range(n)
        for b in range(n)
        if slots[a][line] == slots[b][line]
        and slots[a][along] < slots[b][along]
        and not any(
            slots[t][line] == slots[a][line] and slots[a][along] < slots[t][along] < slots[b][along]
            for t in range(n)
        )
    )


H, V = ("h", "", ""), ("v", "", "")
TEMPLATES = (
    Template("two rows", ((0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)), (H, H, V, H, H, V)),
    Template(
        "hexagon",
        ((0, 1), (0, 2), (1, 3), (2, 2), (2, 1), (1, 0)),
        (H, ("L", "e", "n"), ("L", "s", "e"), H, ("L", "w", "s"), ("L", "n", "w")),
    ),
    Template(
        "diamond",
        ((0, 1), (1, 2), (2, 2), (3, 1), (2, 0), (1, 0)),
        (("L", "e", "n"), V, ("L", "s", "e"), ("L", "w", "s"), V, ("L", "n", "w")),
    ),
    Template(
        "barrel",
        ((0, 1), (0, 2), (0, 3), (1, 4), (1, 2), (1, 0)),
        (H, H, ("L", "e", "n"), H, H, ("L", "n", "w")),
    ),
)
VARIANTS = tuple(
    (t, transposed, start, mirror)
    for t in TEMPLATES
    for transposed in (False, True)
    for start in range(RING)
    for mirror in (False, True)
)
# For each variant, the ring links its template draws as an L (bit i: ring link i).
L_LINKS = tuple(
    sum(
        1 << (((start - i - 1) % RING) if mirror else ((start + i) % RING))
        for i, (form, _, _) in enumerate(t.links)
        if form == "L"
    )
    for t, _, start, mirror in VARIANTS
)


def rolled_variants(rng: Rng, ring_kinds: list[str]) -> list[tuple[Template, bool, int, bool]]:
    """Every template, turned and mirrored, in a rolled order; those that put a very long
    corridor on an L last (an L must stretch the ring, where a loop between neighbours need
    not)."""
    order = rng.shuffle(list(range(len(VARIANTS))))
    longs = sum(1 << i for i, k in enumerate(ring_kinds) if k == "long_corridor")
    if longs:
        order.sort(key=_long_ls(longs).__getitem__)
    return [VARIANTS[v] for v in order]


@lru_cache(maxsize=1 << RING)
def _long_ls(longs: int) -> tuple[int, ...]:
    """For each variant, how many of the very long corridors (bits of `longs`) it draws as Ls."""
    return tuple((ls & longs).bit_count() for ls in L_LINKS)


def slot(start: int, mirror: bool, t: int) -> int:
    """The ring position placed in template slot t."""
    return (start - t) % RING if mirror else (start + t) % RING


def ring_link(start: int, mirror: bool, t: int) -> int:
    """The ring link (i joins positions i and i+1) drawn as template link t -> t+1."""
    return slot(start, mirror, t + 1) if mirror else slot(start, mirror, t)
