"""Which of a rules system's procedures a site or region needs at the table.

A booklet's "Rules at the table" prints the procedures its own rooms, monsters and traps call
for: the locked-door rule only where a door is locked, petrification only where a monster
petrifies, hex travel only in a region. The rest of the system is in its own rulebook.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# Every encounter can come to talk, to blows, or to flight.
ALWAYS = ("roll", "surprise", "initiative", "morale", "reaction", "fatigue")
# Exploring a site underground: the wandering check, light and supplies.
IN_A_SITE = ("wandering_site", "light", "consumables")
# A monster's kind of special ability (systems/specials) -> the procedure that resolves it.
SPECIAL_RULES = {
    "energy_drain": "energy_drain",
    "petrify": "petrify",
    "poison": "poison",
    "breath": "breath",
    "blast": "breath",
    "cloud": "breath",
    "regeneration": "regeneration",
}
POISON_WORDS = ("poison", "venom")


def _monster_keys(system: Any, monsters: Iterable[Any]) -> set[str]:
    from generator.systems import classify

    keys: set[str] = set()
    for m in monsters:
        kinds, _ = classify(system.tables, m)
        keys.update(SPECIAL_RULES[k] for k in kinds if k in SPECIAL_RULES)
    return keys


def site_keys(site: Any, system: Any) -> set[str]:
    """The procedures one site calls for."""
    keys = set(ALWAYS) | set(IN_A_SITE)
    keys.update(c.obstacle for c in site.connections if c.obstacle != "none")
    traps = [r.trap for r in site.rooms if r.trap]
    if traps:
        keys.add("trap.find")
    if any(w in f"{t.effect} {t.description}".lower() for t in traps for w in POISON_WORDS):
        keys.add("poison")
    keys |= _monster_keys(system, site.bestiary.values())
    return keys


def region_keys(region: Any, system: Any) -> set[str]:
    """The procedures a region calls for: travel, its sites' and its monsters'."""
    keys = set(ALWAYS) | {"wandering_region"}
    monsters = list(region.bestiary.values())
    for h in region.hexes:
        if h.site is not None:
            keys |= site_keys(h.site, system)
        if h.lair is not None and h.lair.form == "room":
            monsters += list(h.lair.bestiary.values())
    keys |= _monster_keys(system, monsters)
    return keys


def procedures(model: Any, system: Any) -> list[tuple[str, str]]:
    """(key, text) of the procedures the model needs, in the system's order. The random events'
    own rule prints with their table, not here."""
    wanted = site_keys(model, system) if model.kind == "site" else region_keys(model, system)
    return [(k, text) for k, text in system.procedures() if k in wanted]
