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

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.errors import DocumentError
from generator.model import doc, limits
from generator.model.faction import Faction, RegionEncounter
from generator.model.haven import Rumour
from generator.model.hex import Hex
from generator.model.monster import Monster

if TYPE_CHECKING:
    import networkx as nx

HEX_MILES = (18, 6)
PATH_KINDS = ("road", "trail")

# What a biome's key and colour, and a hex's label, may be: each is written into the map's SVG
# and the booklet's HTML as a class name, a CSS rule or text, so a table or an edited document
# holding `"/><script>` must be refused here, where the fault can be named.
BIOME_KEY = re.compile(r"[a-z][a-z0-9-]{0,31}")
COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
LABEL = re.compile(r"(?!00)[0-9]{2}(?!00)[0-9]{2}")  # XXYY, each counted from 01 (engine/hexes)
MAX_AXIAL = 200  # |q| and |r| of a hex: a 99 x 99 map (XXYY labels) stays within 150


def biome_key_problem(key: object) -> str | None:
    """Why `key` cannot be a biome's key (a CSS class and an SVG id), or None."""
    if isinstance(key, str) and BIOME_KEY.fullmatch(key):
        return None
    return f"{str(key)[:40]!r} must be lower-case letters, digits and '-', starting with a letter"


def colour_problem(colour: object) -> str | None:
    """Why `colour` cannot be a biome's colour (written into CSS and SVG), or None."""
    if isinstance(colour, str) and COLOUR.fullmatch(colour):
        return None
    return f"{str(colour)[:40]!r} must be a colour #rgb or #rrggbb, e.g. #87a66f"


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
        wrong = colour_problem(f(data, "color", str, path))
        if wrong:
            raise DocumentError(f"{path}.color: {wrong}")
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
        """The rumour with the current name of the place it is about (and of the faction
        based there, for a rumour that names one)."""
        try:
            place = self.hex(rumour.about).place
        except KeyError:
            place = "a place nobody can find"
        based = [fa.name for fa in self.factions if fa.base == rumour.about]
        text = rumour.text.replace("{place}", place).replace("{hex}", rumour.about)
        return text.replace("{faction}", based[0] if based else "a band nobody can name")

    def faction(self, key: str) -> Faction:
        for fa in self.factions:
            if fa.key == key:
                return fa
        raise KeyError(key)

    def faction_graph(self) -> nx.Graph:
        """Factions as nodes (with their data), attitudes as edges (`attitude`)."""
        import networkx as nx  # here: only graphml and the tests build a graph (start-up)

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
            if not LABEL.fullmatch(k):
                raise DocumentError(f"{path}.reroll: {k[:40]!r} is not a hex label (XXYY)")
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= limits.MAX_REROLLS:
                raise DocumentError(
                    f"{path}.reroll.{k}: must be a count of 1 to {limits.MAX_REROLLS}"
                )
        if sum(reroll.values()) > limits.MAX_REROLLS:  # each is a --reroll in the recipe
            raise DocumentError(f"{path}.reroll: at most {limits.MAX_REROLLS} re-rolls in all")
        biomes_raw = f(data, "biomes", dict, path)
        for k in biomes_raw:  # before any path names the key
            wrong = biome_key_problem(k)
            if wrong:
                raise DocumentError(f"{path}.biomes: the key {wrong}")
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
            if not LABEL.fullmatch(h.label):
                raise DocumentError(
                    f"{path}.hexes[{i}].label: must be four digits XXYY (0101 to 9999), "
                    f"not {h.label[:40]!r}"
                )
            for axis in ("q", "r"):
                if abs(getattr(h, axis)) > MAX_AXIAL:
                    raise DocumentError(
                        f"{path}.hexes[{i}].{axis}: must be -{MAX_AXIAL} to {MAX_AXIAL} "
                        "(a map is at most 99 x 99 hexes)"
                    )
            if h.label in labels:
                raise DocumentError(f"{path}.hexes[{i}].label: '{h.label}' is used twice")
            labels[h.label] = i
            if h.terrain not in self.biomes:
                raise DocumentError(
                    f"{path}.hexes[{i}].terrain: '{h.terrain}' is not one of the document's biomes"
                )
        if not self.hexes:
            raise DocumentError(f"{path}.hexes: a region needs at least one hex")
        if not 1 <= self.level <= limits.MAX_LEVEL:
            raise DocumentError(f"{path}.level: must be 1 to {limits.MAX_LEVEL}, not {self.level}")
        for k in self.reroll:
            if k not in labels:
                raise DocumentError(f"{path}.reroll.{k}: no hex '{k}'")
        if self.start not in labels:
            raise DocumentError(f"{path}.start: no hex '{self.start}'")
        for i, h in enumerate(self.hexes):
            if h.haven and h.haven.rumour and h.haven.rumour.about not in labels:
                raise DocumentError(
                    f"{path}.hexes[{i}].haven.rumour.about: no hex '{h.haven.rumour.about}'"
                )
        for key, items in (("rivers", self.rivers), ("roads", self.roads)):
            for i, item in enumerate(items):
                if not item.path:
                    raise DocumentError(f"{path}.{key}[{i}].path: must name at least one hex")
                for j, lab in enumerate(item.path):
                    if lab not in labels:
                        raise DocumentError(f"{path}.{key}[{i}].path[{j}]: no hex '{lab}'")
        for i, ridge in enumerate(self.ridges):
            for j, lab in enumerate(ridge):
                if lab not in labels:
                    raise DocumentError(f"{path}.ridges[{i}][{j}]: no hex '{lab}'")
        keys = [fa.key for fa in self.factions]
        for i, h in enumerate(self.hexes):
            if h.lair and h.lair.faction and h.lair.faction not in keys:
                raise DocumentError(
                    f"{path}.hexes[{i}].lair.faction: no faction '{h.lair.faction}'"
                )
        for i, fa in enumerate(self.factions):
            at = f"{path}.factions[{i}]"
            if keys.count(fa.key) > 1:
                raise DocumentError(f"{at}.key: '{fa.key}' is used twice")
            if fa.base not in labels:
                raise DocumentError(f"{at}.base: no hex '{fa.base}'")
            if fa.members not in self.bestiary:
                raise DocumentError(f"{at}.members: '{fa.members}' has no stat block in bestiary")
            if fa.leader.monster:
                _check_hold(self.hexes[labels[fa.base]], fa, at)
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


def _check_hold(base: Hex, fa: Faction, at: str) -> None:
    """A faction's base is its hold: a one-room lair of the faction with its leader and members."""
    hold = base.lair
    held = {g.name for g in hold.monsters} if hold and hold.form == "room" else set()
    if hold is None or hold.faction != fa.key or not {fa.members, fa.leader.monster} <= held:
        raise DocumentError(
            f"{at}.base: hex '{fa.base}' must hold the faction: a one-room lair whose faction "
            f"is '{fa.key}', with its leader's '{fa.leader.monster}' and its '{fa.members}'"
        )
