"""The ways between a site's rooms: six round each loop, and the ways between levels."""

from __future__ import annotations

from generator.build.site.deck import Deck
from generator.build.site.rules import BY, LOOP, SECOND_WAY_MIN_ROOMS
from generator.engine import needs
from generator.engine.rng import Rng
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


def _connection(deck: Deck, rng: Rng, a: int, b: int) -> Connection:
    tables = deck.tables
    needs.require(tables, OBSTACLE_TABLE)
    key = tables.roll("site/obstacles", rng)["key"]
    look = deck.deal(PASSAGE_TABLES[key], rng)
    return Connection(a, b, key, look.text, look.get("pass", ""))


def loop_connections(deck: Deck, rng: Rng, rooms: list[Room]) -> list[Connection]:
    """Six connections round the loop, each rolled on site/obstacles (FMC Basic, Site Design)."""
    return [_connection(deck, rng, rooms[i].id, rooms[(i + 1) % LOOP].id) for i in range(LOOP)]


def level_links(deck: Deck, rng: Rng, rooms: list[Room], depths: int) -> list[Connection]:
    links: list[Connection] = []
    for depth in range(1, depths):
        lrng = rng.child(f"{depth}")
        upper = rooms[LOOP * (depth - 1) : LOOP * depth]
        lower = rooms[LOOP * depth : LOOP * (depth + 1)]
        # The way down leaves from the far side of the loop (the arms' outer rooms), not the lair.
        down_from = lrng.choice([upper[2], upper[4]])
        links.append(_link(deck, lrng.child("main"), down_from.id, lower[0].id))
        if len(rooms) >= SECOND_WAY_MIN_ROOMS:
            starts = [
                r
                for r in upper
                if r.id != down_from.id
                and r.contents != "monsters_with_treasure"
                and r is not upper[0]
            ]
            ends = [lower[i] for i in (1, 2, 4, 5)]
            links.append(
                _link(deck, lrng.child("second"), lrng.choice(starts).id, lrng.choice(ends).id)
            )
    return links


def _link(deck: Deck, rng: Rng, a: int, b: int) -> Connection:
    rolled = deck.deal("site/level-links", rng)
    return Connection(
        a,
        b,
        "none",
        rolled.text,
        rolled.get("pass", ""),
        kind=rolled.get("kind", "stairs"),
        levels=True,
    )
