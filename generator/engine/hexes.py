"""Hex-grid geometry: axial coordinates inside, XXYY labels outside.

Hexes are **flat-topped**, addressed by axial coordinates (q, r) (the third cube coordinate is
s = -q - r). Distances and rings use cube math. A flat-topped hex has a side facing due north,
so the six sides read clockwise from north, and a d6 picks one (FMC Basic, Wandering):

    1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW

Labels are OSR-style XXYY: column then row, each numbered from 01, from "odd-q" offset
coordinates (counting from 0, odd columns sit half a hex lower; so, counting from 01, the even
columns 02, 04... sit lower, as on most printed hex maps). A rectangular map (``--size WxH``) is
W columns by H rows, labelled 0101 to WWHH. A hexagonal map (``--radius R``) is labelled by its
bounding box: the westmost column is 01 and the northmost hex is row 01, so labels stay four
digits and unique. Labels have two digits each, so a map is at most 99 columns by 99 rows.

Everything here is a pure function over small tuples, fast enough for tens of thousands of hexes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from generator.errors import DelveError

Axial = tuple[int, int]

# d6 order, clockwise from north (flat-topped hexes): index 0 is side 1.
DIRECTIONS: tuple[Axial, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
SIDES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
MAX_SPAN = 99  # columns and rows: XXYY labels have two digits each

SQRT3 = math.sqrt(3.0)


def distance(a: Axial, b: Axial) -> int:
    """Hexes between a and b (cube distance)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(h: Axial, side: int) -> Axial:
    """The hex across side 1-6 (1 = N, clockwise)."""
    dq, dr = DIRECTIONS[side - 1]
    return h[0] + dq, h[1] + dr


def neighbours(h: Axial) -> list[Axial]:
    """The six neighbours in d6 order (N, NE, SE, S, SW, NW)."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def side_towards(a: Axial, b: Axial) -> int | None:
    """The side (1-6) of a that b lies across, if they are neighbours."""
    d = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(d) + 1 if d in DIRECTIONS else None


def ring(center: Axial, radius: int) -> list[Axial]:
    """The hexes exactly `radius` away, clockwise starting from the north."""
    if radius < 0:
        raise DelveError(f"ring radius must be at least 0, not {radius}")
    if radius == 0:
        return [center]
    out: list[Axial] = []
    q, r = center[0], center[1] - radius  # due north
    # Walking clockwise from the north corner: first south-east, then south, ...
    for dq, dr in DIRECTIONS[2:] + DIRECTIONS[:2]:
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def spiral(center: Axial, radius: int) -> list[Axial]:
    """The centre, then each ring outwards: 1 + 3R(R+1) hexes."""
    out: list[Axial] = []
    for k in range(radius + 1):
        out += ring(center, k)
    return out


def hexagon_count(radius: int) -> int:
    return 1 + 3 * radius * (radius + 1)


def to_offset(q: int, r: int) -> tuple[int, int]:
    """Axial -> odd-q offset (col, row), both counted from 0."""
    return q, r + (q - (q & 1)) // 2


def from_offset(col: int, row: int) -> Axial:
    """Odd-q offset (col, row) -> axial."""
    return col, row - (col - (col & 1)) // 2


def label(col: int, row: int) -> str:
    """0-based (col, row) -> 'XXYY' numbered from 01."""
    return f"{col + 1:02d}{row + 1:02d}"


def parse_label(text: str) -> tuple[int, int]:
    """'0302' -> 0-based (col, row); raises DelveError for anything else."""
    t = text.strip()
    if len(t) != 4 or not t.isdigit() or t[:2] == "00" or t[2:] == "00":
        raise DelveError(f"hex label {text!r}: must be four digits XXYY, e.g. 0302")
    return int(t[:2]) - 1, int(t[2:]) - 1


def center(q: int, r: int, size: float) -> tuple[float, float]:
    """Pixel centre of a flat-topped hex of circumradius `size` (y grows downwards)."""
    return size * 1.5 * q, size * SQRT3 * (r + q / 2)


def corners(size: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex around (0, 0), east corner first."""
    return [
        (size * math.cos(math.radians(60 * i)), size * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


@dataclass
class Grid:
    """A map's hexes in label order, with fast lookups by index.

    ``coords[i]`` is axial, ``cells[i]`` the 0-based (col, row) of its label, ``near[i]`` the
    indices of its neighbours on the map in d6 order (None off the map).
    """

    coords: list[Axial]
    cells: list[tuple[int, int]]
    labels: list[str]
    index: dict[Axial, int]
    near: list[list[int | None]]
    center: int  # the starting hex
    columns: int
    rows: int

    def __len__(self) -> int:
        return len(self.coords)

    def by_label(self) -> dict[str, int]:
        return {lab: i for i, lab in enumerate(self.labels)}

    def edge(self, i: int) -> bool:
        """True when the hex lies on the map's rim (a neighbour is off the map)."""
        return any(n is None for n in self.near[i])

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.coords)))


def _build(axials: list[Axial], start: Axial) -> Grid:
    # Labels count columns from the westmost one, so the offset is taken from q shifted to
    # start at 0; the axial coordinates themselves are kept (the start stays where it is).
    min_q = min(q for q, _ in axials)
    offsets = [to_offset(q - min_q, r) for q, r in axials]
    min_row = min(row for _, row in offsets)
    cells = [(c, row - min_row) for c, row in offsets]
    order = sorted(range(len(axials)), key=lambda i: cells[i])
    coords = [axials[i] for i in order]
    cells = [cells[i] for i in order]
    columns = max(c for c, _ in cells) + 1
    rows = max(r for _, r in cells) + 1
    if columns > MAX_SPAN or rows > MAX_SPAN:
        raise DelveError(
            f"a map can be at most {MAX_SPAN} columns by {MAX_SPAN} rows (XXYY labels), "
            f"not {columns} by {rows}"
        )
    index = {h: i for i, h in enumerate(coords)}
    get = index.get
    near = [[get((q + dq, r + dr)) for dq, dr in DIRECTIONS] for q, r in coords]
    return Grid(
        coords=coords,
        cells=cells,
        labels=[label(c, r) for c, r in cells],
        index=index,
        near=near,
        center=index[start],
        columns=columns,
        rows=rows,
    )


def hexagon_grid(radius: int) -> Grid:
    """A hexagonal map of `radius` rings around (0, 0): 1 + 3R(R+1) hexes."""
    if radius < 0:
        raise DelveError(f"radius must be at least 0, not {radius}")
    return _build(spiral((0, 0), radius), (0, 0))


def rectangle_grid(width: int, height: int) -> Grid:
    """A `width` columns by `height` rows map; the start is its middle hex."""
    if width < 1 or height < 1:
        raise DelveError(f"a map needs at least 1 column and 1 row, not {width}x{height}")
    axials = [from_offset(c, r) for c in range(width) for r in range(height)]
    start = from_offset((width - 1) // 2, (height - 1) // 2)
    return _build(axials, start)
