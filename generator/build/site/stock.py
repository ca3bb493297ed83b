"""Stocking one level: who is in the lair and the guard room, the hoards, traps, hiding places
and features, each room's senses, and its name and description (compose.py).

Everything here is a room's contents, rolled from the level's own stream (<seed>/level/N);
the room types, which fix the plan, were dealt before (types.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.build.site import activities
from generator.build.site.compose import Composer
from generator.build.site.deck import Deck
from generator.build.site.master import MasterPlan, rule_for
from generator.build.site.occupants import can_compose, compose_occupants
from generator.build.site.rules import LOOP, TREASURE_PER_LEVEL, XP_PER_LEVEL
from generator.build.site.themes import Theme, reinforced
from generator.build.site.types import RoomType
from generator.build.treasure import roll_hoard
from generator.engine.rng import Rng
from generator.engine.table import Rolled
from generator.model.monster import Monster
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


# The senses tables tag some entries `occupied` (cooking smells, snoring): as a kind of who is
# there, so they fit only a room with occupants.
OCCUPIED = frozenset({"occupied"})
EMPTY: frozenset[str] = frozenset({"empty"})


def _resolve(deck: Deck, table_id: str, rng: Rng, room: frozenset[str]) -> Rolled:
    """An entry fitting the room (its type's places), else the site's (docs/rooms.md)."""
    return deck.tables.resolve(table_id, deck.in_room(table_id, rng, room), rng)


def _text(
    deck: Deck, table_id: str, rng: Rng, room: frozenset[str], kinds: frozenset[str] = EMPTY
) -> str:
    """Only the text of an entry fitting the room (and who is in it)."""
    entry = deck.in_room(table_id, rng, room, kinds)
    static = entry.template.static
    return static if static is not None else deck.tables.resolve(table_id, entry, rng).text


@dataclass
class Stocker:
    """What stocking shares across a site's levels: its theme, its deck (nothing twice), its
    composer (no two rooms alike), and where the master is."""

    theme: Theme
    deck: Deck
    composer: Composer
    master: MasterPlan | None
    monsters: dict[str, Monster] = field(default_factory=dict)  # everyone stocked, by name

    def occupants(
        self, rng: Rng, depth: int, budget: int
    ) -> tuple[list[tuple[Monster, int]], list[tuple[Monster, int]]]:
        rule = rule_for(self.theme, self.master, depth)
        tables = self.deck.tables
        # A roster too weak for the level is reinforced (known once per budget and rule, so
        # no level pays for a search that cannot succeed).
        key = ("composes", self.theme.key, budget, rule)
        fits = tables.derived.get(key)
        if fits is None:
            fits = tables.derived[key] = can_compose(self.theme, budget, rule)
        theme = self.theme if fits else reinforced(tables, self.theme)
        return compose_occupants(theme, budget, rng, rule)

    def level(
        self,
        rng: Rng,
        depth: int,
        party_level: int,
        contents: list[str],
        types: list[RoomType],
    ) -> list[Room]:
        # Below the first level no sky is overhead: its rolls come from a deck that says so
        # (only entries whose `not` names `deep`, daylight and the like, are left out).
        deck = self.deck if depth == 1 else self.deck.below()
        tables = deck.tables
        lair, guards = self.occupants(rng, depth, XP_PER_LEVEL * party_level)
        for m, _ in lair + guards:
            self.monsters[m.name] = m
        holder = max((m for m, _ in lair), key=lambda m: m.bracket)
        treasure = TREASURE_PER_LEVEL * party_level
        lair_value = round(treasure * rng.choice((0.5, 0.6, 0.7)))
        everyone = lair + guards
        # A sense tagged `occupied` (a cook-pot, a tended candle) needs someone who cooks and
        # tends: social occupants, not centipedes.
        who = {
            role: OCCUPIED if any(m.kind == "social" for m, _ in holders) else EMPTY
            for role, holders in (("monsters_with_treasure", lair), ("monsters", guards))
        }
        rooms: list[Room] = []
        for pos, what in enumerate(contents):
            # Room rolls come from the level's stream; each hoard gets a stream of its own at
            # <level>/room/N/hoard, so `delve hoard --seed` can reproduce it.
            rt = types[pos]
            here = rt.places  # what the room's things must fit: its type's places first
            senses = who.get(what, EMPTY)
            room = Room(
                id=LOOP * (depth - 1) + pos + 1,
                name=rt.name,
                type=rt.name,
                level=depth,
                contents=what,
                description="",
                size=rt.entry.get("size", ""),
                sound=_text(deck, "site/room-sounds", rng, here, senses),
                smell=_text(deck, "site/room-smells", rng, here, senses),
                light=_text(deck, "site/room-lights", rng, here, senses),
                entrance=depth == 1 and pos == 0,
                seed=f"{rng.address}/room/{pos + 1}",
                shape=rt.entry.get("shape", "rect"),
            )
            groups: list[tuple[Monster, int]] = []
            if what == "feature":
                room.feature = _feature(_resolve(deck, "site/features", rng, here))
            elif what == "monsters_with_treasure":
                groups = lair
                # FMC Basic, Treasure Hoards: a magic weapon's power die is its holders' die.
                room.hoard = roll_hoard(
                    tables,
                    rng.child(f"room/{pos + 1}/hoard"),
                    lair_value,
                    party_level,
                    holder.damage,
                )
                room.hoard_place = _text(
                    deck, "site/hoard-places", rng, here, frozenset(m.kind for m, _ in lair)
                )
            elif what == "monsters":
                groups = guards
            else:
                # The hidden hoard was stashed by the site's masters: their die sets its weapon.
                room.hoard = roll_hoard(
                    tables,
                    rng.child(f"room/{pos + 1}/hoard"),
                    treasure - lair_value,
                    party_level,
                    holder.damage,
                )
                if rng.chance(0.5):
                    room.trap = _trap(_resolve(deck, "site/traps", rng, here))
                    room.hoard_place = _text(deck, "site/trapped-hoards", rng, here)
                else:
                    hiding = _resolve(deck, "site/hiding-places", rng, here)
                    find = hiding.get("find", "")
                    room.hoard_place = f"{hiding.text} To find it: {find}".strip()
            # Each group its own activity, in the grammar of its head count.
            near: set[int] = set()
            room.monsters = [
                MonsterGroup(
                    m.name,
                    n,
                    m.xp,
                    activities.doing(deck, activities.ROOM_ACTIVITIES, rng, m, n, near),
                )
                for m, n in groups
            ]
            room.name, room.description = self.composer.room(
                rng, rt, groups, room.hoard is not None, everyone
            )
            rooms.append(room)
        return rooms
