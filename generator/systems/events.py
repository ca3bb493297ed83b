"""What a site's random events are written from: its encounters, rooms and strongest monsters.

Renderers never roll dice, so every value is chosen from the site's data by a fixed rule: the
first occupied room is the noisy one, the room with the first hoard holds the stirring group, and
the kind of monster worth the most XP is the one whose traces the party finds.
"""

from __future__ import annotations

from generator.engine import words
from generator.model.site import MonsterGroup, Room, Site


def _plural(site: Site, name: str) -> str:
    """The bestiary's own plural of a monster (words.plural for one it does not hold)."""
    m = site.bestiary.get(name)
    return words.plural(name.lower()) if m is None else m.plural


def _group_text(site: Site, g: MonsterGroup) -> str:
    if g.count == 1:
        return g.name.lower()  # the events table says "The {$lair_group}"
    return f"{g.count} {_plural(site, g.name)}"


def site_values(site: Site) -> dict[str, str]:
    """The placeholders of the events table (systems/KEY/events), filled from one site."""
    rooms = sorted(site.rooms, key=lambda r: (r.level, r.id))
    occupied = [r for r in rooms if r.monsters]
    first: Room | None = rooms[0] if rooms else None
    noisy = occupied[0] if occupied else first
    lair = next((r for r in occupied if r.contents == "monsters_with_treasure"), noisy)
    leader_room, leader = None, None
    for r in occupied:
        for g in r.monsters:
            if leader is None or g.xp_each > leader.xp_each:
                leader_room, leader = r, g
    kinds = list(dict.fromkeys(_plural(site, e.name) for e in site.encounters))
    return {
        "site_name": site.name,
        "wanderers": words.join(kinds, "or") or "any of its groups",
        "noisy_room": str(noisy.id) if noisy else "",
        "noisy_room_name": noisy.name if noisy else "",
        "noisy_sound": (noisy.sound.rstrip(".") if noisy and noisy.sound else "a muffled noise"),
        "lair_room": str(lair.id) if lair else "",
        "lair_room_name": lair.name if lair else "",
        "lair_group": (
            words.join([_group_text(site, g) for g in lair.monsters])
            if lair and lair.monsters
            else "inhabitants"
        ),
        "leader_plural": _plural(site, leader.name) if leader else "inhabitants",
        "leader_room": str(leader_room.id) if leader_room else "",
        "leader_room_name": leader_room.name if leader_room else "",
    }
