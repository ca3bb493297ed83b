"""A monster's stat block in FMC Basic terms (the model's native system)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from generator.errors import DocumentError
from generator.model import doc

BRACKET_NAMES = {1: "mook", 2: "grunt", 3: "elite", 4: "lieutenant", 5: "boss"}
MAX_DC = 30  # FMC Basic's defenses run 10 to 17; the fight keeps it in 32-bit numbers


# What a monster is, for what it can be found doing and what it leaves behind (docs/rooms.md):
# social (talks, plans, keeps things), beast, vermin, mindless (obeys or waits), undead (the
# thinking dead), ooze, plant, construct, dragon, spirit.
KINDS = (
    "social",
    "beast",
    "vermin",
    "mindless",
    "undead",
    "ooze",
    "plant",
    "construct",
    "dragon",
    "spirit",
)


def derive_kind(tags: list[str]) -> str:
    """A monster's kind from its tags, for entries that do not name one. The order settles the
    mixed cases: a crypt hound (undead, beast) hunts like a beast, an ashling (humanoid,
    dragon) talks, and giants, fey and demons talk, plan and keep things."""
    t = set(tags)
    for tag, kind in (("ooze", "ooze"), ("construct", "construct"), ("plant", "plant")):
        if tag in t:
            return kind
    if "undead" in t:
        return "beast" if "beast" in t else "undead"
    if "elemental" in t:
        return "spirit"
    if "humanoid" in t:
        return "social"
    if "vermin" in t:
        return "vermin"
    if "dragon" in t and "beast" not in t:
        return "dragon"
    if "beast" in t:
        return "beast"
    return "social"


@dataclass
class Monster:
    """One kind of monster. Numbers follow FMC Basic, Monster Types and Example Monsters."""

    name: str
    plural: str
    bracket: int
    xp: int
    dc: int
    hp: int
    speed: str
    attack: int
    damage: str
    hit_dice: float
    formidable: bool = False
    special: str = ""
    damage_type: str = "crush"
    resist: list[str] = field(default_factory=list)
    armor: str | None = None
    shield: bool = False
    tags: list[str] = field(default_factory=list)
    description: str = ""
    kind: str = ""  # one of KINDS; left out, it is read from the tags

    def __post_init__(self) -> None:
        if not self.kind:
            self.kind = derive_kind(self.tags)

    @property
    def bracket_name(self) -> str:
        return BRACKET_NAMES.get(self.bracket, str(self.bracket))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Monster:
        f = doc.field
        dc = f(data, "dc", int, path)
        if not 0 <= dc <= MAX_DC:
            raise DocumentError(f"{path}.dc: must be 0 to {MAX_DC}, not {dc}")
        return cls(
            name=f(data, "name", str, path),
            plural=f(data, "plural", str, path),
            bracket=f(data, "bracket", int, path),
            xp=f(data, "xp", int, path),
            dc=dc,
            hp=f(data, "hp", int, path),
            speed=f(data, "speed", str, path),
            attack=f(data, "attack", int, path),
            damage=f(data, "damage", str, path),
            hit_dice=float(f(data, "hit_dice", (int, float), path)),
            formidable=f(data, "formidable", bool, path, False),
            special=f(data, "special", str, path, ""),
            damage_type=f(data, "damage_type", str, path, "crush"),
            resist=doc.strings(data, "resist", path) if "resist" in data else [],
            armor=f(data, "armor", str, path, None),
            shield=f(data, "shield", bool, path, False),
            tags=doc.strings(data, "tags", path) if "tags" in data else [],
            description=f(data, "description", str, path, ""),
            kind=doc.one_of(data, "kind", KINDS, path) if "kind" in data else "",
        )
