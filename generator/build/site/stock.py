"""Stocking one level: room types, the content of each loop position, monsters and hoards."""

from __future__ import annotations

from generator.build.site.deck import Deck
from generator.build.site.occupants import compose_occupants
from generator.build.site.rules import (
    ARMS,
    LAIR_POS,
    LOOP,
    TREASURE_PER_LEVEL,
    XP_PER_LEVEL,
)
from generator.build.site.themes import Theme, reinforced
from generator.build.treasure import roll_hoard
from generator.engine.rng import Rng
from generator.engine.table import Rolled
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.site import Feature, MonsterGroup, Room, Trap


def _feature(rolled: Rolled) -> Feature:
    return Feature(rolled.get("name", ""), rolled.text, rolled.get("use", ""))


def _trap(rolled: Rolled) -> Trap:
    return Trap(
        name=rolled.get("name", ""),
        description=rolled.text,
        trigger=rolled.get("trigger", ""),
        effect=rolled.get("effect", ""),
        find=rolled.get("find", ""),
        avoid=rolled.get("avoid", ""),
        kind=rolled.get("kind", "mechanical"),
        save=rolled.get("save", "dodge"),
    )


def room_types(tables: TableSet, rng: Rng, count: int, places: tuple[str, ...]) -> list[Rolled]:
    """Room types suiting the theme's places first, then any; no repeats while they last."""
    key = f"room-types/{','.join(places)}"
    pool = tables.derived.get(key)
    if pool is None:
        entries = tables.entries("site/room-types")
        fitting = [e for e in entries if not e.tags or "any" in e.tags or set(e.tags) & set(places)]
        pool = tables.derived[key] = (fitting if len(fitting) >= LOOP * 6 else entries, entries)
    fitting, everything = pool
    picked = rng.sample(fitting, min(count, len(fitting)))
    while len(picked) < count:
        picked.append(rng.choice(everything))
    return [Rolled("site/room-types", e, None, e.result) for e in picked]


def _layout(rng: Rng) -> list[str]:
    """Contents by loop position (see rules.py for why)."""
    contents = ["feature"] * LOOP
    contents[LAIR_POS] = "monsters_with_treasure"
    guard_arm, hidden_arm = ARMS if rng.chance(0.5) else ARMS[::-1]
    contents[rng.choice(guard_arm)] = "monsters"
    contents[rng.choice(hidden_arm)] = "hidden_treasure"
    return contents


def stock_level(
    deck: Deck,
    rng: Rng,
    theme: Theme,
    depth: int,
    party_level: int,
    features: list[Rolled],
    types: list[Rolled],
    activities: list[Rolled],
) -> list[Room]:
    tables = deck.tables
    contents = _layout(rng)
    budget = XP_PER_LEVEL * party_level
    try:
        lair, guards = compose_occupants(theme, budget, rng)
    except DelveError:
        lair, guards = compose_occupants(reinforced(tables, theme), budget, rng)
    holder = max((m for m, _ in lair), key=lambda m: m.bracket)
    treasure = TREASURE_PER_LEVEL * party_level
    lair_value = round(treasure * rng.choice((0.5, 0.6, 0.7)))
    rooms: list[Room] = []
    feature_iter = iter(features)
    for pos, what in enumerate(contents):
        rid = LOOP * (depth - 1) + pos + 1
        # Room rolls come from the level's stream; each hoard gets a stream of its own at
        # <level>/room/N/hoard, so `delve hoard --seed` can reproduce it.
        rrng = rng
        room_address = f"{rng.address}/room/{pos + 1}"
        kind = types[pos]
        room = Room(
            id=rid,
            name=kind.get("name", "Room"),
            level=depth,
            contents=what,
            description=kind.text,
            size=kind.get("size", ""),
            sound=deck.deal("site/room-sounds", rrng).text,
            smell=deck.deal("site/room-smells", rrng).text,
            light=deck.deal("site/room-lights", rrng).text,
            entrance=depth == 1 and pos == 0,
            seed=room_address,
            shape=kind.get("shape", "rect"),
        )
        if what == "feature":
            room.feature = _feature(next(feature_iter))
        elif what == "monsters_with_treasure":
            room.monsters = [MonsterGroup(m.name, n, m.xp, activities[0].text) for m, n in lair]
            # FMC Basic, Treasure Hoards: a magic weapon's power die is its holders' damage die.
            room.hoard = roll_hoard(
                tables, rng.child(f"room/{pos + 1}/hoard"), lair_value, party_level, holder.damage
            )
            room.hoard_place = deck.deal("site/hoard-places", rrng).text
        elif what == "monsters":
            room.monsters = [MonsterGroup(m.name, n, m.xp, activities[1].text) for m, n in guards]
        else:
            # The hidden hoard was stashed by the site's masters: their die sets its weapon.
            room.hoard = roll_hoard(
                tables,
                rng.child(f"room/{pos + 1}/hoard"),
                treasure - lair_value,
                party_level,
                holder.damage,
            )
            if rrng.chance(0.5):
                room.trap = _trap(deck.deal("site/traps", rrng))
                room.hoard_place = deck.deal("site/trapped-hoards", rrng).text
            else:
                hiding = deck.deal("site/hiding-places", rrng)
                room.hoard_place = f"{hiding.text} To find it: {hiding.get('find', '')}".strip()
        rooms.append(room)
    return rooms
