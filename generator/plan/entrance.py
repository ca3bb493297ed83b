"""The way in from outside: a short passage from a wall of the entrance room to beyond
everything drawn on the top level, so the map's arrow comes from outside the plan."""

from __future__ import annotations

from generator.model.site import Room
from generator.plan.boxes import STEP, Cell
from generator.plan.level import LevelPlan
from generator.plan.occupancy import Occupancy
from generator.plan.route import reaches_out, search_out

ENTRY_LENGTH = 2  # squares of passage from the entrance to the outside


def way_in(
    rooms: list[Room], plan: LevelPlan, cross: bool = True
) -> tuple[list[Cell], bool] | None:
    """The way in from outside: a short passage from the entrance room's wall that faces away
    from the rest of the level, where nothing else is drawn, and whether it runs clear to
    beyond everything (None: no entrance, or no way out at all).

    Without `cross`, a level whose way in cannot run clear skips the search for one over a
    corridor and gives its short passage (still not clear): the planner tries other layouts
    first, and looks for a crossing only in the one it keeps."""
    room = next((r for r in rooms if r.entrance), None)
    if room is None:
        return None
    box = plan.boxes[room.id]
    occ = plan.occupancy or Occupancy(plan.boxes.values())
    others = [b for b in plan.boxes.values() if b.id != box.id]
    mx = sum(b.x + b.w / 2 for b in others) / len(others) if others else box.x
    my = sum(b.y + b.h / 2 for b in others) / len(others) if others else box.y - 1
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    best: tuple[tuple[bool, bool, int, float], list[Cell]] | None = None
    x0, y0, x1, y1 = occ.extent()

    def fits(passage: list[Cell], tier: int) -> bool:
        if tier == 0:
            return occ.clear_run(passage[0], passage[-1], box.id, box.id)
        # Crowded: free squares not side by side with a corridor (corner to corner will do),
        # or at the last just free squares.
        return all(
            occ.free(c)
            and (
                tier == 2
                or not any((c[0] + dx, c[1] + dy) in occ.corridor for dx, dy in STEP.values())
            )
            for c in passage
        )

    for strict in (0, 1, 2):
        for side in "nesw":
            sx, sy = STEP[side]
            outward = sx * (cx - mx) + sy * (cy - my)
            offs = box.doors(side)
            middle = (offs[0] + offs[-1]) / 2 if offs else 0
            for off in sorted(offs, key=lambda o: abs(o - middle)):
                first = box.outside(side, off)
                passage = [(first[0] + sx * k, first[1] + sy * k) for k in range(ENTRY_LENGTH)]
                if not fits(passage, strict):
                    continue
                # Best of all, the way out runs clear beyond everything drawn: then the
                # arrow comes from outside the plan, never from the core of the ring.
                ray, escapes = occ.ray(passage[-1], (sx, sy), (x0, y0, x1, y1))
                score = (escapes, outward > 0, min(ray, 8), outward)
                if best is None or score > best[0]:
                    best = (score, passage)
                break
        if best is not None:
            break
    if best is None or not best[0][0]:
        # No wall faces out: a passage winds out from the room to beyond the plan; where the
        # room's own corridors wall it in, at the last it crosses one at a crossroads.
        extent = (x0, y0, x1, y1)
        winding = search_out(box, occ, extent) if reaches_out(box, occ, extent) else None
        if winding is not None:
            return winding, True
        if cross or best is None:
            winding = search_out(box, occ, extent, True)
            if winding is not None:
                return winding, False
    if best is None:
        return None
    return best[1], best[0][0]


def store_entrance(rooms: list[Room], plan: LevelPlan, passage: list[Cell]) -> None:
    """Store the way in on the entrance room and the level's plan."""
    room = next(r for r in rooms if r.entrance)
    room.entry = passage
    plan.entry[room.id] = passage
    (plan.occupancy or Occupancy(plan.boxes.values())).add_path(passage)
