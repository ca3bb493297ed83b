"""A region's havens: settlements, their people, moods and rumours (FMC Basic, Region Design)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.model import doc

MOODS = ("hostile", "neutral", "friendly")


@dataclass
class NPC:
    """Someone met at a haven: name, what they do, a quirk and their mood towards strangers."""

    name: str
    role: str
    trait: str
    mood: str  # hostile | neutral | friendly (FMC Basic, Negotiation; rolled on npc/mood)
    mood_roll: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "role": self.role,
            "trait": self.trait,
            "mood": self.mood,
            "mood_roll": self.mood_roll,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> NPC:
        f = doc.field
        return cls(
            name=f(data, "name", str, path),
            role=f(data, "role", str, path, ""),
            trait=f(data, "trait", str, path, ""),
            mood=doc.one_of(data, "mood", MOODS, path),
            mood_roll=f(data, "mood_roll", int, path, 0),
        )


@dataclass
class Rumour:
    """What a haven's folk say. `text` holds {place} and {hex}, filled from hex `about`."""

    text: str
    about: str  # the label of the hex the rumour is about
    true: bool

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "about": self.about, "true": self.true}

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Rumour:
        f = doc.field
        return cls(
            f(data, "text", str, path), f(data, "about", str, path), f(data, "true", bool, path)
        )


@dataclass
class Haven:
    """A safe haven (FMC Basic, Hex Stocking [1]): where to stop, rest and recuperate."""

    name: str
    kind: str
    description: str
    offers: str
    runner: str
    npcs: list[NPC]
    rumour: Rumour | None
    seed: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "description": self.description,
            "offers": self.offers,
            "runner": self.runner,
            "npcs": [n.to_dict() for n in self.npcs],
            "rumour": self.rumour.to_dict() if self.rumour else None,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Haven:
        f = doc.field
        rumour = f(data, "rumour", dict, path, None)
        return cls(
            name=f(data, "name", str, path),
            kind=f(data, "kind", str, path),
            description=f(data, "description", str, path, ""),
            offers=f(data, "offers", str, path, ""),
            runner=f(data, "runner", str, path, ""),
            npcs=[NPC.from_dict(v, p) for p, v in doc.items(data, "npcs", path)],
            rumour=Rumour.from_dict(rumour, f"{path}.rumour") if rumour is not None else None,
            seed=f(data, "seed", str, path),
        )
