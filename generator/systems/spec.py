"""What a rules system's tables must hold: the terms every system defines, the lookups
keyed by what a monster is, and the values every monster brings to a stat block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


INDEX = "systems/index"
SPECIALS = "systems/specials"
DEADLY = "systems/deadly-traps"

# Terms every system must define (docs/systems.md says what each is for), plus special.KIND for
# every kind in systems/specials.
TERM_KEYS = (
    "reading",
    "roll",
    "locked_door",
    "hidden_door",
    "long_corridor",
    "open_way",
    "trap.ordinary",
    "trap.deadly",
    "trap.dodge",
    "trap.endure",
    "trap.resolve",
    "trap.find",
    "morale",
    "reaction",
    "surprise",
    "initiative",
    "wandering_site",
    "wandering_region",
    "light",
    "consumables",
    "weapon_bonus",
    "energy_drain",
    "petrify",
    "poison",
    "breath",
    "regeneration",
    "resist",
    "special",
    "area.cone",
    "area.radius",
    "area.within",
    "area.none",
    "frequency.hour",
    "frequency.round",
    "frequency.any",
    "speed.walk",
    "speed.fly",
)

# The general rules a booklet's reference page prints, in order (terms without placeholders).
PROCEDURE_KEYS = (
    "roll",
    "surprise",
    "initiative",
    "morale",
    "reaction",
    "wandering_site",
    "wandering_region",
    "locked_door",
    "hidden_door",
    "long_corridor",
    "trap.find",
    "light",
    "consumables",
    "energy_drain",
    "petrify",
    "poison",
    "breath",
    "regeneration",
    "fatigue",
    "random_events",
)

SAVES = ("dodge", "endure", "resolve")

# Values every monster brings (FMC Basic numbers carry the fmc_ prefix, so a system's own `hp`
# can never silently fall back to FMC's).
BASE_VARS = frozenset(
    {
        "name",
        "plural",
        "bracket",
        "bracket_name",
        "fmc_xp",
        "fmc_dc",
        "fmc_hp",
        "fmc_speed",
        "fmc_attack",
        "fmc_damage",
        "fmc_hit_dice",
        "damage_type",
        "damage_word",
        "resist",
        "resist_words",
        "resist_or",
        "armor",
        "shield",
        "tags",
        "special",
        "formidable",
        "class",
        "speed",
        "walk",
        "fly",
        "regen",
        "area",
        "frequency",
        "reach",
        "width",
        "length",
        "radius",
        "type",
    }
)


@dataclass(frozen=True)
class Lookup:
    """A table of numbers keyed by something the monster is."""

    name: str  # systems/KEY/<name>
    key: str  # the key field
    key_type: str


# Applied in this order; later tables override earlier ones where they share a field.
LOOKUPS = (
    Lookup("brackets", "bracket", "int"),
    Lookup("defense", "dc", "int"),
    Lookup("dice", "die", "str"),
    Lookup("armour", "armor", "str"),
    Lookup("speeds", "up_to", "int"),
    Lookup("tags", "tag", "str"),
)
CLASSES = Lookup("classes", "class", "str")  # keyed by class and bracket
OTHER_KEYS = {
    "resist": {"type": "str"},
    "ranges": {"up_to": "int"},
    "units": {"per_inch": "float", "round": "float"},
    "events": {"die": "int", "title": "str"},
    "usage": {"item": "str", "die": "str"},
    "rewrites": {"find": "str", "replace": "str"},
    "stat-block": {"label": "str", "value": "str"},
    "terms": {"key": "str"},
}
