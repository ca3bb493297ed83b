"""A monster's stat block in FMC Basic terms (the model's native system)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from generator.errors import DocumentError
from generator.model import doc

BRACKET_NAMES = {1: "mook", 2: "grunt", 3: "elite", 4: "lieutenant", 5: "boss"}
MAX_DC = 30  # FMC Basic's defenses run 10 to 17; the fight keeps it in 32-bit numbers


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
        )
