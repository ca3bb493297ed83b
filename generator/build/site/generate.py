"""A whole site: the theme, its story, each level stocked and joined, and its plan."""

from __future__ import annotations

from generator import __version__
from generator.build.monsters import bestiary
from generator.build.site.connections import level_links, loop_connections
from generator.build.site.deck import Deck, draw
from generator.build.site.rules import LOOP, MAX_LEVEL, XP_PER_LEVEL
from generator.build.site.stock import room_types, stock_level
from generator.build.site.story import encounters, history
from generator.build.site.themes import find_theme, roll_theme
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.monster import Monster
from generator.model.site import ROOM_COUNTS, Connection, Room, Site
from generator.plan import plan_site


def generate_site(
    tables: TableSet,
    rng: Rng,
    level: int = 1,
    rooms: int = 6,
    theme: str | None = None,
) -> Site:
    """A stocked site of `rooms` rooms (one loop of six per level) for party level `level`."""
    if not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise DelveError(f"--level must be 1 to {MAX_LEVEL}, not {level}")
    if rooms not in ROOM_COUNTS:
        raise DelveError(f"--rooms must be one of {', '.join(map(str, ROOM_COUNTS))}, not {rooms}")
    # The site's own stream decides the whole-site choices in order; levels, rooms and
    # hoards below get streams of their own so a change in one never reshuffles another.
    th = find_theme(tables, theme) if theme else roll_theme(tables, rng)
    depths = rooms // LOOP
    story, history_text, place = history(tables, rng.child("history"), th)
    name = tables.roll("site/name-patterns", rng, {"place": place.title()}).text
    features = draw(tables, "site/features", rng, 3 * depths)
    types = room_types(tables, rng, rooms, th.places)
    activities = draw(tables, "site/activities", rng, 2 * depths)
    deck = Deck(tables)
    used: dict[str, Monster] = {}
    all_rooms: list[Room] = []
    connections: list[Connection] = []
    for depth in range(1, depths + 1):
        lrng = rng.child(f"level/{depth}")
        party_level = level + depth - 1
        level_rooms = stock_level(
            deck,
            lrng,
            th,
            depth,
            party_level,
            features[3 * (depth - 1) : 3 * depth],
            types[LOOP * (depth - 1) : LOOP * depth],
            activities[2 * (depth - 1) : 2 * depth],
        )
        for r in level_rooms:
            for g in r.monsters:
                used.setdefault(g.name, bestiary(tables).find(g.name))  # type: ignore[arg-type]
        all_rooms += level_rooms
        connections += loop_connections(deck, lrng.child("connections"), level_rooms)
    connections += level_links(deck, rng.child("links"), all_rooms, depths)
    wandering = encounters(tables, rng.child("encounters"), th, XP_PER_LEVEL * level)
    for e in wandering:
        used.setdefault(e.name, bestiary(tables).find(e.name))  # type: ignore[arg-type]
    site = Site(
        seed=rng.address,
        level=level,
        name=name,
        theme=th.key,
        theme_name=th.name,
        ecosystem=th.ecosystem,
        history=story,
        history_text=history_text,
        rooms=all_rooms,
        connections=connections,
        encounters=wandering,
        bestiary={k: used[k] for k in sorted(used)},
        version=__version__,
    )
    # The floor plan has a stream of its own, so it never moves when a room's contents change.
    plan_site(site, rng.child("plan"))
    return site
