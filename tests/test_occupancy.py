"""The plan's record of what a level has drawn (generator/plan/occupancy.py) answers every check
from rectangles until a search builds its square-by-square maps. Both ways must give the same
answer for any rooms and corridors: here one Occupancy is asked by rectangles and its twin,
holding the same drawing, by squares."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.plan.boxes import STEP, Box
from generator.plan.occupancy import Occupancy, runs

coord = st.integers(-6, 14)


@st.composite
def drawings(draw):  # noqa: ANN001, ANN201
    boxes = []
    for i in range(draw(st.integers(1, 6))):
        box = Box(i + 1, draw(st.integers(1, 5)), draw(st.integers(1, 5)))
        box.x, box.y = draw(coord), draw(coord)
        boxes.append(box)
    paths = []
    for _ in range(draw(st.integers(0, 4))):
        x, y = draw(coord), draw(coord)
        path = [(x, y)]
        for _ in range(draw(st.integers(0, 3))):  # straight legs, each turning or not
            dx, dy = draw(st.sampled_from(list(STEP.values())))
            for _ in range(draw(st.integers(1, 5))):
                x, y = x + dx, y + dy
                path.append((x, y))
        if draw(st.booleans()):  # a hand-drawn path may jump
            path.append((draw(coord), draw(coord)))
        paths.append(path)
    return boxes, paths


def twins(boxes: list[Box], paths: list[list[tuple[int, int]]]) -> tuple[Occupancy, Occupancy]:
    by_rects, by_squares = Occupancy(boxes), Occupancy(boxes)
    by_squares.room, by_squares.near, by_squares.beside  # noqa: B018  (built: squares from now)
    for path in paths:
        by_rects.add_path(path)
        by_squares.add_path(path)
    assert by_rects._room is None and by_squares._room is not None
    return by_rects, by_squares


@settings(max_examples=300, deadline=None)
@given(drawings(), st.lists(st.tuples(coord, coord), min_size=1, max_size=8), st.data())
def test_rectangles_and_squares_agree(drawing, cells, data):  # noqa: ANN001
    boxes, paths = drawing
    rects, squares = twins(boxes, paths)
    ids = [b.id for b in boxes] + [None]
    a, b = data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids))
    probe = data.draw(st.sampled_from(paths)) if paths and data.draw(st.booleans()) else cells
    assert rects.clear(probe, a, b) == squares.clear(probe, a, b)
    for cell in cells:
        assert rects.open(cell) == squares.open(cell)
        assert rects.free(cell) == squares.free(cell)
        first, last = cell, (cell[0] + 3, cell[1])
        assert rects.clear_run(first, last, a, b) == squares.clear_run(first, last, a, b)
        extent = rects.extent()
        for step in STEP.values():
            assert rects.ray(cell, step, extent) == squares.ray(cell, step, extent)
    assert rects.extent() == squares.extent()
    # The runs cover exactly the path's squares.
    for path in paths:
        covered = {
            (x, y)
            for x0, y0, x1, y1 in runs(path)
            for x in range(x0, x1 + 1)
            for y in range(y0, y1 + 1)
        }
        assert covered == set(path)
