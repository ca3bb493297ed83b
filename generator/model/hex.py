"""One hex of a region and what stocks it: a haven, a site, a lair or a landmark.

Each hex holds the stocked thing in full: a haven, a site document (``Site.to_dict()``) for
adventure sites and multi-room lairs, a one-room lair with its budget, monsters and hoard, or a
landmark (FMC Basic, Hex Stocking).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.errors import DocumentError
from generator.model import doc, limits
from generator.model.haven import Haven
from generator.model.monster import Monster
from generator.model.site import MonsterGroup, Site, _danger
from generator.model.treasure import Hoard

if TYPE_CHECKING:
    from generator.model.danger import Danger

STOCKING = ("start", "haven", "site", "lair", "landmark")
LAIR_FORMS = ("room", "site")  # a one-room lair, or a multi-room site


def _number(obj: Any, key: str, path: str) -> float:
    value = doc.field(obj, key, (int, float), path)
    if value < 0:
        raise DocumentError(f"{path}.{key}: must not be negative, not {value}")
    return value


@dataclass
class Landmark:
    """A landmark (FMC Basic, Hex Stocking [4-6]): what sets the hex apart, and its stage."""

    name: str
    description: str
    stage: str  # how it can stage an encounter
    seed: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Landmark:
        f = doc.field
        return cls(
            name=f(data, "name", str, path),
            description=f(data, "description", str, path, ""),
            stage=f(data, "stage", str, path, ""),
            seed=f(data, "seed", str, path),
        )


@dataclass
class Lair:
    """A monster lair (FMC Basic, Hex Stocking [3]).

    Form "site": a multi-room site, kept in the hex's `site`. Form "room": one room whose
    monsters and hoard are each worth `xp_budget` = 500 x d6 (`budget_roll` is the d6). A
    faction's hold is a one-room lair with `faction` set (its key; `form_roll` 0: no form die),
    holding the faction's leader and members.
    """

    form: str
    form_roll: int
    seed: str
    name: str = ""
    description: str = ""
    xp_budget: int = 0
    budget_roll: int = 0
    monsters: list[MonsterGroup] = field(default_factory=list)
    hoard: Hoard | None = None
    hoard_place: str = ""
    bestiary: dict[str, Monster] = field(default_factory=dict)
    faction: str = ""  # the key of the faction whose hold this is
    danger: Danger | None = None  # from generator.sim, when asked for

    @property
    def monster_xp(self) -> int:
        return sum(g.xp for g in self.monsters)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"form": self.form, "form_roll": self.form_roll, "seed": self.seed}
        if self.form == "room":
            out.update(
                {
                    "name": self.name,
                    "description": self.description,
                    "xp_budget": self.xp_budget,
                    "budget_roll": self.budget_roll,
                    "monsters": [g.to_dict() for g in self.monsters],
                    "monster_xp": self.monster_xp,
                    "hoard": self.hoard.to_dict() if self.hoard else None,
                    "hoard_place": self.hoard_place,
                    "bestiary": {k: m.to_dict() for k, m in self.bestiary.items()},
                }
            )
            if self.faction:
                out["faction"] = self.faction
            if self.danger:
                out["danger"] = self.danger.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Lair:
        f = doc.field
        form = doc.one_of(data, "form", LAIR_FORMS, path)
        lair = cls(
            form=form, form_roll=f(data, "form_roll", int, path, 0), seed=f(data, "seed", str, path)
        )
        if form == "room":
            hoard = f(data, "hoard", dict, path)
            beasts = f(data, "bestiary", dict, path)
            lair.name = f(data, "name", str, path, "")
            lair.description = f(data, "description", str, path, "")
            lair.xp_budget = f(data, "xp_budget", int, path)
            lair.budget_roll = f(data, "budget_roll", int, path, 0)
            lair.monsters = [
                MonsterGroup.from_dict(v, p) for p, v in doc.items(data, "monsters", path)
            ]
            lair.hoard = Hoard.from_dict(hoard, f"{path}.hoard")
            lair.hoard_place = f(data, "hoard_place", str, path, "")
            lair.bestiary = {
                k: Monster.from_dict(v, f"{path}.bestiary.{k}") for k, v in beasts.items()
            }
            lair.faction = f(data, "faction", str, path, "")
            lair.danger = _danger(data, path)
            for j, g in enumerate(lair.monsters):
                if g.name not in lair.bestiary:
                    raise DocumentError(
                        f"{path}.monsters[{j}].name: '{g.name}' has no stat block in bestiary"
                    )
        return lair


@dataclass
class Hex:
    """One hex: where it is, its terrain and cost, and what it holds."""

    q: int
    r: int
    label: str
    terrain: str  # biome key
    travel_days: float  # days to cross on foot (FMC Basic, Overworld Exploration)
    encounter_odds: str  # "2-in-6": one 1-in-6 check per day spent in the hex
    distance: int  # hexes from the starting haven
    level: int  # party level its site or lair is stocked for
    stocking: str  # start | haven | site | lair | landmark
    seed: str  # the hex's seed address
    stocking_roll: int = 0  # the d6 on region/hex-stocking (0 for the start)
    rerolled: int = 0  # how many times --reroll re-rolled it
    haven: Haven | None = None
    site: Site | None = None
    lair: Lair | None = None
    landmark: Landmark | None = None

    @property
    def place(self) -> str:
        """The name of what is here (for rumours and the map)."""
        if self.haven:
            return self.haven.name
        if self.site:
            return self.site.name
        if self.lair:
            return self.lair.name
        if self.landmark:
            return self.landmark.name
        return self.label

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "q": self.q,
            "r": self.r,
            "terrain": self.terrain,
            "travel_days": self.travel_days,
            "encounter_odds": self.encounter_odds,
            "distance": self.distance,
            "level": self.level,
            "stocking": self.stocking,
            "stocking_roll": self.stocking_roll,
            "seed": self.seed,
        }
        if self.rerolled:
            out["rerolled"] = self.rerolled
        if self.haven:
            out["haven"] = self.haven.to_dict()
        if self.lair:
            out["lair"] = self.lair.to_dict()
        if self.site:
            out["site"] = self.site.to_dict()
        if self.landmark:
            out["landmark"] = self.landmark.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Hex:
        f = doc.field
        h = cls(
            q=f(data, "q", int, path),
            r=f(data, "r", int, path),
            label=f(data, "label", str, path),
            terrain=f(data, "terrain", str, path),
            travel_days=_number(data, "travel_days", path),
            encounter_odds=f(data, "encounter_odds", str, path),
            distance=f(data, "distance", int, path, 0),
            level=f(data, "level", int, path, 1),
            stocking=doc.one_of(data, "stocking", STOCKING, path),
            seed=f(data, "seed", str, path),
            stocking_roll=f(data, "stocking_roll", int, path, 0),
            rerolled=f(data, "rerolled", int, path, 0),
        )
        for key, kind in (("haven", Haven), ("lair", Lair), ("landmark", Landmark)):
            raw = f(data, key, dict, path, None)
            if raw is not None:
                setattr(h, key, kind.from_dict(raw, f"{path}.{key}"))
        raw_site = f(data, "site", dict, path, None)
        if raw_site is not None:
            h.site = Site.from_dict(raw_site, f"{path}.site")
        h.check(path)
        return h

    def check(self, path: str) -> None:
        """The stocked thing must match the stocking."""
        s = self.stocking
        need = {
            "start": "haven",
            "haven": "haven",
            "site": "site",
            "landmark": "landmark",
            "lair": "lair",
        }[s]
        if getattr(self, need) is None:
            raise DocumentError(f"{path}.{need}: a hex stocked '{s}' needs its {need}")
        if s == "lair" and self.lair is not None and self.lair.form == "site" and not self.site:
            raise DocumentError(f"{path}.site: a multi-room lair needs its site document")
        if not 1 <= self.level <= limits.MAX_LEVEL:
            raise DocumentError(f"{path}.level: must be 1 to {limits.MAX_LEVEL}, not {self.level}")
        if not 0 <= self.rerolled <= limits.MAX_REROLLS:
            raise DocumentError(f"{path}.rerolled: must be 0 to {limits.MAX_REROLLS}")
        if self.lair is not None:  # (its total is written back: see site.Site.check)
            doc.check_total(self.lair.monster_xp, f"{path}.lair.monsters", "the monsters' XP")
