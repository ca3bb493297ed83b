"""A whole site: the theme, its plan-side parts, each level stocked and joined, its story, and
its plan.

Streams (docs/rooms.md; issue 10): the theme is the site stream's first roll. The history's
"what" is the first roll of <seed>/history. The level layouts, the room types, the obstacles and
the ends of the ways down come from <seed>/layout, which nothing else touches, so the plan
(sizes, shapes, the graph, the obstacles) never moves when a room's contents change. Each level's
contents (and the look of its ways) roll from <seed>/level/N, the look of the ways between
levels from <seed>/links, the wandering table from <seed>/encounters, why an absent master is
absent from <seed>/master, and the plan itself from <seed>/plan.
"""

from __future__ import annotations

from collections.abc import Callable

from generator import __version__
from generator.build.site import connections as ways
from generator.build.site.compose import Composer
from generator.build.site.deck import Deck
from generator.build.site.master import Absence, MasterPlan, absence, plan_master
from generator.build.site.rules import LOOP, MAX_LEVEL, XP_PER_LEVEL
from generator.build.site.stock import Stocker
from generator.build.site.story import (
    ecosystem,
    encounters,
    heads,
    history,
    inhabitants,
    pick_what,
    site_name,
)
from generator.build.site.themes import Theme, find_theme, roll_theme
from generator.build.site.types import deal_types, layout
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.monster import Monster
from generator.model.site import ROOM_COUNTS, Connection, Room, Site, SiteMaster
from generator.plan import plan_site


def generate_site(
    tables: TableSet,
    rng: Rng,
    level: int = 1,
    rooms: int = 6,
    theme: str | None = None,
    choose_name: Callable[[Callable[[], str]], str] | None = None,
) -> Site:
    """A stocked site of `rooms` rooms (one loop of six per level) for party level `level`.

    `choose_name`, given a function that rolls a name (the site's own first, then others),
    picks the name: a region uses it so no word ends up in too many of its names."""
    if not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise DelveError(f"--level must be 1 to {MAX_LEVEL}, not {level}")
    if rooms not in ROOM_COUNTS:
        raise DelveError(f"--rooms must be one of {', '.join(map(str, ROOM_COUNTS))}, not {rooms}")
    th = find_theme(tables, theme) if theme else roll_theme(tables, rng)
    depths = rooms // LOOP
    hrng = rng.child("history")
    what = pick_what(tables, hrng, th)

    # The plan's parts, from a stream of their own.
    prng = rng.child("layout")
    layouts = [layout(prng) for _ in range(depths)]
    types = deal_types(tables, prng, th, layouts, tuple(what.entry.tags))
    obstacles = [ways.obstacles(tables, prng) for _ in range(depths)]
    ends = ways.link_ends(prng, depths, rooms)

    mrng = rng.child("master") if th.master is not None else rng
    master = plan_master(tables, mrng, th, level, depths)
    place = what.get("place") or (th.places[0] if th.places else "place")
    name = site_name(tables, rng, th, str(place))
    if choose_name is not None:
        # Names rolled again take a stream of their own: nothing else in the site moves.
        again, first = rng.child("name"), [name]
        name = choose_name(
            lambda: first.pop() if first else site_name(tables, again, th, str(place))
        )
    deck = Deck(tables, th.places, th.moods)
    stocker = Stocker(th, deck, Composer(tables, th, deck), master)
    all_rooms: list[Room] = []
    connections: list[Connection] = []
    for depth in range(1, depths + 1):
        lrng = rng.child(f"level/{depth}")
        level_rooms = stocker.level(
            lrng, depth, level + depth - 1, layouts[depth - 1], types[depth - 1]
        )
        all_rooms += level_rooms
        connections += ways.loop_connections(deck, lrng, level_rooms, obstacles[depth - 1])
    if ends:
        connections += ways.level_links(deck, rng.child("links"), all_rooms, ends)
    here = master is not None and master.present
    who, ranks, rank_kind = inhabitants(th, all_rooms, here)
    why = None
    if master is not None and not master.present:
        # Why the master is not here, told with the creatures that are; the lair of its own
        # level (the deepest) says so too.
        why = absence(tables, mrng, th, master, ranks, rank_kind)
        lair = _lair(all_rooms, master.depth)
        lair.description = f"{lair.description} {why.lair}".strip()
    wandering = encounters(tables, rng.child("encounters"), th, XP_PER_LEVEL * level, master, why)
    present = set(heads(all_rooms)) | {e.name for e in wandering}
    story, history_text = history(tables, hrng, th, what, who, why)
    known = {m.monster.name: m.monster for m in th.roster} | stocker.monsters
    used: dict[str, Monster] = {n: known[n] for n in sorted(present)}
    site = Site(
        seed=rng.address,
        level=level,
        name=name,
        theme=th.key,
        theme_name=th.name,
        ecosystem=ecosystem(th, present, master),
        history=story,
        history_text=history_text,
        rooms=all_rooms,
        connections=connections,
        encounters=wandering,
        bestiary=used,
        version=__version__,
        master=_site_master(th, master, all_rooms, why),
    )
    # The floor plan has a stream of its own, so it never moves when a room's contents change.
    plan_site(site, rng.child("plan"))
    return site


def _lair(rooms: list[Room], depth: int) -> Room:
    return next(r for r in rooms if r.level == depth and r.contents == "monsters_with_treasure")


def _site_master(
    theme: Theme, plan: MasterPlan | None, rooms: list[Room], why: Absence | None
) -> SiteMaster | None:
    """The master as the document keeps it: its lair's room, or none and why."""
    if theme.master is None or plan is None:
        return None
    name = theme.master.monster.name
    if plan.present:
        room = _lair(rooms, plan.depth)
        return SiteMaster(name, theme.master.title, room.id, "")
    assert why is not None
    return SiteMaster(name, theme.master.title, None, why.history)
