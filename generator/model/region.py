"""A stocked hex region: terrain, havens, sites, lairs, landmarks, factions and encounters.

The document (to_dict) is the model, losslessly; ``from_dict`` reads an edited document back
and names the JSON path of anything wrong. Hexes are listed in label order (XXYY); each holds
the stocked thing in full: a haven, a site document (``Site.to_dict()``) for adventure sites
and multi-room lairs, a one-room lair with its budget, monsters and hoard, or a landmark.

A haven's rumour points at another hex by label rather than copying that hex's name, so
re-rolling one hex never rewrites another: ``Region.rumour_text`` fills the name in.
``Region.faction_graph()`` gives the factions and their attitudes as a networkx graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import networkx as nx

from generator.errors import DocumentError
from generator.model import doc
from generator.model.monster import Monster
from generator.model.site import MonsterGroup, Site, _danger
from generator.model.treasure import Hoard

if TYPE_CHECKING:
    from generator.model.danger import Danger

STOCKING = ("start", "haven", "site", "lair", "landmark")
LAIR_FORMS = ("room", "site")  # a one-room lair, or a multi-room site
ATTITUDES = ("at_war", "rival", "neutral", "allied")
MOODS = ("hostile", "neutral", "friendly")
REACTIONS = ("negative", "uncertain", "affirmative")
HEX_MILES = (18, 6)
PATH_KINDS = ("road", "trail")


def _number(obj: Any, key: str, path: str) -> float:
    value = doc.field(obj, key, (int, float), path)
    if value < 0:
        raise DocumentError(f"{path}.{key}: must not be negative, not {value}")
    return value


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
    monsters and hoard are each worth `xp_budget` = 500 x d6 (`budget_roll` is the d6).
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
        if self.level < 1:
            raise DocumentError(f"{path}.level: must be at least 1, not {self.level}")


@dataclass
class Leader:
    name: str
    title: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title}

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Leader:
        return cls(doc.field(data, "name", str, path), doc.field(data, "title", str, path, ""))


@dataclass
class Faction:
    """A local faction (FMC Basic, Region Design): who, what they want, where, and their ties."""

    key: str
    name: str
    description: str
    goal: str
    leader: Leader
    base: str  # hex label
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


@dataclass
class River:
    name: str
    path: list[str]  # hex labels, source first

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "path": list(self.path)}

    @classmethod
    def from_dict(cls, data: Any, path: str) -> River:
        return cls(doc.field(data, "name", str, path), doc.strings(data, "path", path))


@dataclass
class Road:
    kind: str  # road | trail
    description: str
    path: list[str]  # hex labels

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "description": self.description, "path": list(self.path)}

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Road:
        return cls(
            doc.one_of(data, "kind", PATH_KINDS, path),
            doc.field(data, "description", str, path, ""),
            doc.strings(data, "path", path),
        )


@dataclass
class Biome:
    """How a biome looks and costs, copied from the tables so a document renders alone."""

    key: str
    name: str
    difficult: bool
    passable: bool
    color: str
    symbol: str
    description: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "difficult": self.difficult,
            "passable": self.passable,
            "color": self.color,
            "symbol": self.symbol,
            "description": self.description,
        }

    @classmethod
    def from_dict(cls, key: str, data: Any, path: str) -> Biome:
        f = doc.field
        return cls(
            key=key,
            name=f(data, "name", str, path),
            difficult=f(data, "difficult", bool, path),
            passable=f(data, "passable", bool, path, True),
            color=f(data, "color", str, path),
            symbol=f(data, "symbol", str, path),
            description=f(data, "description", str, path, ""),
        )


@dataclass
class Region:
    seed: str
    name: str
    hex_miles: int
    level: int  # the base level (--level): the starting haven's surroundings
    shape: dict[str, int]  # {"radius": R} or {"width": W, "height": H}
    start: str  # label of the starting haven
    hexes: list[Hex]
    biomes: dict[str, Biome]
    rivers: list[River]
    roads: list[Road]
    ridges: list[list[str]]
    factions: list[Faction]
    encounters: list[RegionEncounter]
    bestiary: dict[str, Monster]  # stat blocks for the encounter tables and faction members
    reroll: dict[str, int] = field(default_factory=dict)
    version: str = ""
    system: str = "fmc"  # the rules system its stat blocks and procedures are printed in
    _index: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    kind = "region"

    def hex(self, label: str) -> Hex:
        """The hex with this label (an index kept on the side, checked on every use)."""
        i = self._index.get(label)
        if i is None or i >= len(self.hexes) or self.hexes[i].label != label:
            self._index = {h.label: n for n, h in enumerate(self.hexes)}
            i = self._index.get(label)
            if i is None:
                raise KeyError(label)
        return self.hexes[i]

    def by_label(self) -> dict[str, Hex]:
        return {h.label: h for h in self.hexes}

    def rumour_text(self, rumour: Rumour) -> str:
        """The rumour with the current name of the place it is about."""
        try:
            place = self.hex(rumour.about).place
        except KeyError:
            place = "a place nobody can find"
        return rumour.text.replace("{place}", place).replace("{hex}", rumour.about)

    def faction(self, key: str) -> Faction:
        for fa in self.factions:
            if fa.key == key:
                return fa
        raise KeyError(key)

    def faction_graph(self) -> nx.Graph:
        """Factions as nodes (with their data), attitudes as edges (`attitude`)."""
        g = nx.Graph(region=self.name, seed=self.seed)
        for fa in self.factions:
            g.add_node(
                fa.key,
                name=fa.name,
                goal=fa.goal,
                base=fa.base,
                members=fa.members,
                leader=f"{fa.leader.name}, {fa.leader.title}",
            )
        for fa in self.factions:
            for other, attitude in fa.relations.items():
                if fa.key < other:
                    g.add_edge(fa.key, other, attitude=attitude)
        return g

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "region",
            "version": self.version,
            "seed": self.seed,
            "system": self.system,
            "name": self.name,
            "hex_miles": self.hex_miles,
            "level": self.level,
            "shape": dict(self.shape),
            "start": self.start,
            "reroll": dict(self.reroll),
            "biomes": {k: b.to_dict() for k, b in self.biomes.items()},
            "rivers": [r.to_dict() for r in self.rivers],
            "roads": [r.to_dict() for r in self.roads],
            "ridges": [list(p) for p in self.ridges],
            "factions": [fa.to_dict() for fa in self.factions],
            "encounters": [e.to_dict() for e in self.encounters],
            "bestiary": {k: m.to_dict() for k, m in self.bestiary.items()},
            "hexes": [h.to_dict() for h in self.hexes],
        }

    @classmethod
    def from_dict(cls, data: Any, path: str = "region") -> Region:
        f = doc.field
        if f(data, "kind", str, path) != "region":
            raise DocumentError(f"{path}.kind: must be 'region'")
        hex_miles = f(data, "hex_miles", int, path)
        if hex_miles not in HEX_MILES:
            raise DocumentError(f"{path}.hex_miles: must be 18 or 6, not {hex_miles}")
        shape = f(data, "shape", dict, path)
        for k, v in shape.items():
            if (
                k not in ("radius", "width", "height")
                or isinstance(v, bool)
                or not isinstance(v, int)
            ):
                raise DocumentError(f"{path}.shape.{k}: must be radius, width or height (integers)")
        reroll = f(data, "reroll", dict, path, {})
        for k, v in reroll.items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise DocumentError(f"{path}.reroll.{k}: must be a count of at least 1")
        biomes_raw = f(data, "biomes", dict, path)
        beasts = f(data, "bestiary", dict, path)
        region = cls(
            seed=f(data, "seed", str, path),
            name=f(data, "name", str, path),
            hex_miles=hex_miles,
            level=f(data, "level", int, path, 1),
            shape=dict(shape),
            start=f(data, "start", str, path),
            hexes=[Hex.from_dict(v, p) for p, v in doc.items(data, "hexes", path)],
            biomes={k: Biome.from_dict(k, v, f"{path}.biomes.{k}") for k, v in biomes_raw.items()},
            rivers=[River.from_dict(v, p) for p, v in doc.items(data, "rivers", path)],
            roads=[Road.from_dict(v, p) for p, v in doc.items(data, "roads", path)],
            ridges=[doc.strings({"p": v}, "p", p) for p, v in doc.items(data, "ridges", path)],
            factions=[Faction.from_dict(v, p) for p, v in doc.items(data, "factions", path)],
            encounters=[
                RegionEncounter.from_dict(v, p) for p, v in doc.items(data, "encounters", path)
            ],
            bestiary={k: Monster.from_dict(v, f"{path}.bestiary.{k}") for k, v in beasts.items()},
            reroll=dict(reroll),
            version=f(data, "version", str, path, ""),
            system=f(data, "system", str, path, "fmc"),
        )
        region.check(path)
        return region

    def check(self, path: str = "region") -> None:
        """References between parts must resolve for the renderers to make sense."""
        labels: dict[str, int] = {}
        for i, h in enumerate(self.hexes):
            if h.label in labels:
                raise DocumentError(f"{path}.hexes[{i}].label: '{h.label}' is used twice")
            labels[h.label] = i
            if h.terrain not in self.biomes:
                raise DocumentError(
                    f"{path}.hexes[{i}].terrain: '{h.terrain}' is not one of the document's biomes"
                )
        if not self.hexes:
            raise DocumentError(f"{path}.hexes: a region needs at least one hex")
        if self.start not in labels:
            raise DocumentError(f"{path}.start: no hex '{self.start}'")
        for i, h in enumerate(self.hexes):
            if h.haven and h.haven.rumour and h.haven.rumour.about not in labels:
                raise DocumentError(
                    f"{path}.hexes[{i}].haven.rumour.about: no hex '{h.haven.rumour.about}'"
                )
        for key, items in (("rivers", self.rivers), ("roads", self.roads)):
            for i, item in enumerate(items):
                for j, lab in enumerate(item.path):
                    if lab not in labels:
                        raise DocumentError(f"{path}.{key}[{i}].path[{j}]: no hex '{lab}'")
        for i, ridge in enumerate(self.ridges):
            for j, lab in enumerate(ridge):
                if lab not in labels:
                    raise DocumentError(f"{path}.ridges[{i}][{j}]: no hex '{lab}'")
        keys = [fa.key for fa in self.factions]
        for i, fa in enumerate(self.factions):
            at = f"{path}.factions[{i}]"
            if keys.count(fa.key) > 1:
                raise DocumentError(f"{at}.key: '{fa.key}' is used twice")
            if fa.base not in labels:
                raise DocumentError(f"{at}.base: no hex '{fa.base}'")
            if fa.members not in self.bestiary:
                raise DocumentError(f"{at}.members: '{fa.members}' has no stat block in bestiary")
            for other in fa.relations:
                if other not in keys or other == fa.key:
                    raise DocumentError(f"{at}.relations.{other}: no other faction '{other}'")
        for i, table in enumerate(self.encounters):
            for j, e in enumerate(table.entries):
                at = f"{path}.encounters[{i}].entries[{j}]"
                if e.monster not in self.bestiary:
                    raise DocumentError(
                        f"{at}.monster: '{e.monster}' has no stat block in bestiary"
                    )
                if e.faction and e.faction not in keys:
                    raise DocumentError(f"{at}.faction: no faction '{e.faction}'")
