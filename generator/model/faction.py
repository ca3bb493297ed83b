"""A region's factions and its encounter tables: who holds what, and who is met on the road."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.errors import DocumentError
from generator.model import doc
from generator.model.site import _danger

if TYPE_CHECKING:
    from generator.model.danger import Danger

ATTITUDES = ("at_war", "rival", "neutral", "allied")
REACTIONS = ("negative", "uncertain", "affirmative")


@dataclass
class Leader:
    """Who leads a faction: a person, their title, and the stat block they fight with (the name
    of a monster in the bestiary of the faction's hold; empty in documents made before holds)."""

    name: str
    title: str
    monster: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "monster": self.monster}

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Leader:
        f = doc.field
        return cls(
            f(data, "name", str, path),
            f(data, "title", str, path, ""),
            f(data, "monster", str, path, ""),
        )


@dataclass
class Faction:
    """A local faction (FMC Basic, Region Design): who, what they want, where, and their ties."""

    key: str
    name: str
    description: str
    goal: str
    leader: Leader
    base: str  # hex label of its hold, the one-room lair that holds its leader and members
    members: str  # monster kind (its stat block is in the region's bestiary)
    relations: dict[str, str]  # other faction key -> at_war | rival | neutral | allied
    seed: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "description": self.description,
            "goal": self.goal,
            "leader": self.leader.to_dict(),
            "base": self.base,
            "members": self.members,
            "relations": dict(self.relations),
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Faction:
        f = doc.field
        rel = f(data, "relations", dict, path)
        for k, v in rel.items():
            if v not in ATTITUDES:
                raise DocumentError(
                    f"{path}.relations.{k}: must be one of {', '.join(ATTITUDES)}, not {v!r}"
                )
        return cls(
            key=f(data, "key", str, path),
            name=f(data, "name", str, path),
            description=f(data, "description", str, path, ""),
            goal=f(data, "goal", str, path),
            leader=Leader.from_dict(f(data, "leader", dict, path), f"{path}.leader"),
            base=f(data, "base", str, path),
            members=f(data, "members", str, path),
            relations=dict(rel),
            seed=f(data, "seed", str, path, ""),
        )


@dataclass
class EncounterEntry:
    """One line of a region encounter table, with a reaction pre-rolled on npc/reaction."""

    roll: int
    monster: str
    count: str  # dice formula
    doing: str
    description: str
    xp_each: int
    reaction: str  # negative | uncertain | affirmative
    reaction_roll: int
    faction: str = ""  # the faction key when the faction's members stand here
    danger: Danger | None = None  # from generator.sim, when asked for

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "danger"}
        if self.danger:
            out["danger"] = self.danger.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Any, path: str) -> EncounterEntry:
        f = doc.field
        return cls(
            roll=f(data, "roll", int, path),
            monster=f(data, "monster", str, path),
            count=f(data, "count", str, path),
            doing=f(data, "doing", str, path, ""),
            description=f(data, "description", str, path, ""),
            xp_each=f(data, "xp_each", int, path, 0),
            reaction=doc.one_of(data, "reaction", REACTIONS, path),
            reaction_roll=f(data, "reaction_roll", int, path, 0),
            faction=f(data, "faction", str, path, ""),
            danger=_danger(data, path),
        )


@dataclass
class RegionEncounter:
    """The d6 encounter table of one biome of the region."""

    terrain: str
    name: str
    entries: list[EncounterEntry]
    die: str = "d6"

    def to_dict(self) -> dict[str, Any]:
        return {
            "terrain": self.terrain,
            "name": self.name,
            "die": self.die,
            "entries": [e.to_dict() for e in self.entries],
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> RegionEncounter:
        f = doc.field
        return cls(
            terrain=f(data, "terrain", str, path),
            name=f(data, "name", str, path, ""),
            entries=[EncounterEntry.from_dict(v, p) for p, v in doc.items(data, "entries", path)],
            die=f(data, "die", str, path, "d6"),
        )
