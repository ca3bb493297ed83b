"""The ways between a site's rooms: six round each loop, and the ways between levels.

What a way is (its obstacle, which rooms a way down joins) shapes the plan, so it is drawn from
the site's plan stream with the room types (types.py); how it looks is contents, dealt from the
level's own stream.
"""

from __future__ import annotations

from generator.build.site.deck import Deck
from generator.build.site.rules import BY, LAIR_POS, LOOP, SECOND_WAY_MIN_ROOMS
from generator.engine import needs
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.model.site import OBSTACLES, Connection, Room

OBSTACLE_TABLE = needs.declare(
    "site/obstacles", BY, fields={"key": "str"}, values={"key": OBSTACLES}
)
PASSAGE_TABLES = {
    "locked_door": "site/passages/locked-door",
    "hidden_door": "site/passages/hidden-door",
    "long_corridor": "site/passages/long-corridor",
    "none": "site/passages/open",
}
Link = tuple[int, int]  # (position on the level above, position on the level below)


def obstacles(tables: TableSet, rng: Rng) -> list[str]:
    """Six obstacles round a loop, each rolled on site/obstacles (FMC Basic, Site Design); only
    the entry is rolled, so a table's text never moves the plan."""
    table = needs.require(tables, OBSTACLE_TABLE)
    return [str(table.pick(rng)[0]["key"]) for _ in range(LOOP)]


def link_ends(rng: Rng, depths: int, rooms: int) -> list[list[Link]]:
    """Which rooms the ways down join, level by level (positions on each loop)."""
    out: list[list[Link]] = []
    for _ in range(1, depths):
        # The way down leaves from the far side of the loop (the arms' outer rooms), not the
        # lair, and arrives where the party arrives on the level below.
        down = rng.choice((2, 4))
        ways = [(down, 0)]
        if rooms >= SECOND_WAY_MIN_ROOMS:
            starts = [p for p in range(1, LOOP) if p not in (down, LAIR_POS)]
            ways.append((rng.choice(starts), rng.choice((1, 2, 4, 5))))
        out.append(ways)
    return out


def loop_connections(deck: Deck, rng: Rng, rooms: list[Room], keys: list[str]) -> list[Connection]:
    out = []
    for i, key in enumerate(keys):
        look = deck.deal(PASSAGE_TABLES[key], rng)
        out.append(
            Connection(rooms[i].id, rooms[(i + 1) % LOOP].id, key, look.text, look.get("pass", ""))
        )
    return out


def level_links(
    deck: Deck, rng: Rng, rooms: list[Room], ends: list[list[Link]]
) -> list[Connection]:
    links: list[Connection] = []
    for depth, ways in enumerate(ends, start=1):
        upper = rooms[LOOP * (depth - 1) : LOOP * depth]
        lower = rooms[LOOP * depth : LOOP * (depth + 1)]
        for a, b in ways:
            rolled = deck.deal("site/level-links", rng)
            links.append(
                Connection(
                    upper[a].id,
                    lower[b].id,
                    "none",
                    rolled.text,
                    rolled.get("pass", ""),
                    kind=rolled.get("kind", "stairs"),
                    levels=True,
                )
            )
    return links
