"""The primitives a map is drawn with, in squares (10 feet): polylines and polygons, bundles of
lines, circles, text and groups. map_draw.py builds them; map_svg.py and map_png.py paint them."""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]
BLACK, WHITE, GRID, HATCH = "#000000", "#ffffff", "#9a9a9a", "#3a3a3a"
WALL = 0.16  # wall line width, squares
FONT_W = 0.58  # a DejaVu Sans character's mean width, in ems (bold a little wider)
# --------------------------------------------------------------------------- primitives


@dataclass(frozen=True)
class Poly:
    points: tuple[Point, ...]
    closed: bool = False
    fill: str | None = None
    stroke: str | None = BLACK
    width: float = 0.05
    round: bool = True  # round joins and caps


@dataclass(frozen=True)
class Segments:
    """Many separate straight lines of one style (hatching, grid)."""

    lines: tuple[tuple[Point, Point], ...]
    stroke: str = BLACK
    width: float = 0.03


@dataclass(frozen=True)
class Circle:
    centre: Point
    r: float
    fill: str | None = None
    stroke: str | None = BLACK
    width: float = 0.05


@dataclass(frozen=True)
class Text:
    pos: Point  # baseline point; anchor says which end
    text: str
    size: float  # em height, squares
    bold: bool = False
    anchor: str = "middle"  # start, middle, end
    fill: str = BLACK
    halo: float = 0.0  # width of a white outline behind the letters, squares
    italic: bool = False


@dataclass(frozen=True)
class Group:
    """Primitives drawn shifted by (dx, dy): the plan inside its frame, a legend icon."""

    dx: float
    dy: float
    items: tuple[Poly | Segments | Circle | Text, ...]


Primitive = Poly | Segments | Circle | Text | Group


@dataclass
class Drawing:
    width: float  # squares
    height: float
    title: str
    items: list[Primitive] = field(default_factory=list)
    map_box: tuple[float, float, float, float] = (0, 0, 0, 0)  # where the plan sits (x, y, w, h)
    # What the plan's numbers, marks, symbols and labels hold: (what, box) in the plan's own
    # squares (map_labels.py), for checking that nothing lands on anything else.
    placed: list[tuple[str, tuple[float, float, float, float]]] = field(default_factory=list)

    def add(self, *items: Primitive) -> None:
        self.items.extend(items)


@dataclass(frozen=True)
class Sizes:
    """Text sizes (squares) for one drawing, none below the floor it was given."""

    number: float
    label: float
    legend: float
    title: float
    subtitle: float
    floor: float  # the least any text may be

    @classmethod
    def at_least(cls, floor: float) -> Sizes:
        return cls(
            floor=max(0.3, floor),
            number=max(0.62, floor * 1.15),
            label=max(0.4, floor),
            legend=max(0.45, floor),
            title=max(1.0, floor * 1.6),
            subtitle=max(0.45, floor),
        )


def text_width(text: str, size: float, bold: bool = False) -> float:
    return len(text) * size * (FONT_W + (0.12 if bold else 0))
