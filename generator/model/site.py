"""A site: rooms and connections that form one loop per level of six rooms.

The document (to_dict) is the model, losslessly; `graph()` gives the networkx view the tests
and the map use. Monster stat blocks are kept once per kind in `bestiary`; rooms name them.

The plan (generator/plan/) is stored here too. Every level is drawn on one grid of 10-foot
squares, x to the east and y to the south, all levels sharing one origin so they stack: the
square (x, y) of level 2 lies under the square (x, y) of level 1. A room's `map` is its box on
that grid: x, y the top-left square, w x h squares (the key's size, either way round), its
`shape` (rect, round, octagon, cross, cave; see plan/shapes.py), a cave's floor `cells`
(relative to the box) and, for the entrance, the `entry` squares of the way in from outside. A
connection's `path` is its corridor, square by square from the `from` room to the `to` room;
`door` is the doorway its obstacle stands in (the square just inside a room and the wall
side); a way between levels has `at` (where it leaves) and `to_at` (where it arrives) instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.errors import DocumentError
from generator.model import doc, limits
from generator.model.monster import Monster
from generator.model.treasure import Hoard

if TYPE_CHECKING:  # read lazily: only documents with danger need them (json start-up)
    import networkx as nx

    from generator.model.danger import Danger, Route

CONTENTS = ("monsters_with_treasure", "monsters", "hidden_treasure", "feature")
OBSTACLES = ("locked_door", "hidden_door", "long_corridor", "none")
HISTORY_KEYS = ("who", "what", "when", "where", "why", "how")
ROOM_COUNTS = (6, 12, 18, 24, 30, 36)


def _danger(data: Any, path: str) -> Danger | None:
    """The optional `danger` of a room or encounter (present when danger was estimated)."""
    raw = doc.field(data, "danger", dict, path, None)
    if raw is None:
        return None
    from generator.model.danger import Danger

    return Danger.from_dict(raw, f"{path}.danger")


def _routes(data: Any, path: str) -> list[Route]:
    if "routes" not in data:
        return []
    from generator.model.danger import Route

    return [Route.from_dict(v, p) for p, v in doc.items(data, "routes", path)]


@dataclass
class MonsterGroup:
    name: str
    count: int
    xp_each: int
    activity: str = ""

    @property
    def xp(self) -> int:
        return self.count * self.xp_each

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "count": self.count,
            "xp_each": self.xp_each,
            "activity": self.activity,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> MonsterGroup:
        count = doc.field(data, "count", int, path)
        if count < 1:
            raise DocumentError(f"{path}.count: must be at least 1, not {count}")
        return cls(
            name=doc.field(data, "name", str, path),
            count=count,
            xp_each=doc.field(data, "xp_each", int, path),
            activity=doc.field(data, "activity", str, path, ""),
        )


@dataclass
class Trap:
    name: str
    description: str
    trigger: str
    effect: str
    find: str
    avoid: str
    kind: str = "mechanical"
    save: str = "dodge"

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Trap:
        f = doc.field
        return cls(
            **{
                k: f(data, k, str, path)
                for k in ("name", "description", "trigger", "effect", "find", "avoid")
            },
            kind=f(data, "kind", str, path, "mechanical"),
            save=f(data, "save", str, path, "dodge"),
        )


@dataclass
class Feature:
    name: str
    description: str
    use: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Feature:
        return cls(**{k: doc.field(data, k, str, path) for k in ("name", "description", "use")})


@dataclass
class Room:
    id: int
    name: str
    level: int  # which level of the site (1 = the top loop)
    contents: str
    description: str
    size: str = ""
    sound: str = ""
    smell: str = ""
    light: str = ""
    monsters: list[MonsterGroup] = field(default_factory=list)
    hoard: Hoard | None = None
    danger: Danger | None = None  # from generator.sim, only when asked for
    hoard_place: str = ""  # where the hoard is kept, and how to find it if hidden
    trap: Trap | None = None
    feature: Feature | None = None
    entrance: bool = False
    seed: str = ""
    type: str = ""  # the room type it was built as ("Wine cellar"), whatever its name now
    # The plan: its box on the level's grid (top-left square, size in 10-foot squares), its
    # shape ("" until planned), a cave's floor squares (relative to the box) and the entrance's
    # way in from outside (absolute squares, from the wall outwards).
    x: int = 0
    y: int = 0
    w: int = 3
    h: int = 3
    shape: str = ""
    cells: list[tuple[int, int]] | None = None
    entry: list[tuple[int, int]] = field(default_factory=list)

    @property
    def monster_xp(self) -> int:
        return sum(g.xp for g in self.monsters)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "level": self.level,
            "contents": self.contents,
            "entrance": self.entrance,
            "description": self.description,
            "size": self.size,
            "sound": self.sound,
            "smell": self.smell,
            "light": self.light,
            "monsters": [g.to_dict() for g in self.monsters],
            "hoard": self.hoard.to_dict() if self.hoard else None,
            "hoard_place": self.hoard_place,
            **({"danger": self.danger.to_dict()} if self.danger else {}),
            "trap": self.trap.to_dict() if self.trap else None,
            "feature": self.feature.to_dict() if self.feature else None,
            "seed": self.seed,
            "map": self.map_dict(),
        }

    def map_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"x": self.x, "y": self.y, "w": self.w, "h": self.h}
        if self.shape:
            out["shape"] = self.shape
        if self.cells is not None:
            out["cells"] = [list(c) for c in self.cells]
        if self.entry:
            out["entry"] = [list(c) for c in self.entry]
        return out

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Room:
        f = doc.field
        hoard = f(data, "hoard", dict, path, None)
        trap = f(data, "trap", dict, path, None)
        feature = f(data, "feature", dict, path, None)
        box = f(data, "map", dict, path, {})
        at = f"{path}.map"
        return cls(
            id=f(data, "id", int, path),
            name=f(data, "name", str, path),
            type=f(data, "type", str, path, ""),
            level=f(data, "level", int, path, 1),
            contents=doc.one_of(data, "contents", CONTENTS, path),
            description=f(data, "description", str, path, ""),
            size=f(data, "size", str, path, ""),
            sound=f(data, "sound", str, path, ""),
            smell=f(data, "smell", str, path, ""),
            light=f(data, "light", str, path, ""),
            monsters=[MonsterGroup.from_dict(v, p) for p, v in doc.items(data, "monsters", path)],
            hoard=Hoard.from_dict(hoard, f"{path}.hoard") if hoard is not None else None,
            hoard_place=f(data, "hoard_place", str, path, ""),
            danger=_danger(data, path),
            trap=Trap.from_dict(trap, f"{path}.trap") if trap is not None else None,
            feature=Feature.from_dict(feature, f"{path}.feature") if feature is not None else None,
            entrance=f(data, "entrance", bool, path, False),
            seed=f(data, "seed", str, path, ""),
            x=f(box, "x", int, at, 0),
            y=f(box, "y", int, at, 0),
            w=f(box, "w", int, at, 3),
            h=f(box, "h", int, at, 3),
            shape=f(box, "shape", str, at, ""),
            cells=doc.squares(box, "cells", at) if "cells" in box else None,
            entry=doc.squares(box, "entry", at) if "entry" in box else [],
        )


@dataclass
class Connection:
    from_room: int
    to_room: int
    obstacle: str  # one of OBSTACLES
    description: str  # how the way looks
    passage: str  # what it takes to pass
    kind: str = "passage"  # passage, or the way between levels: stairs, shaft, chute...
    levels: bool = False  # joins two levels of the site
    # The plan: the corridor's squares from the `from` room to the `to` room (None until
    # planned; empty for a door in a shared wall or a way between levels), the doorway the
    # obstacle stands in (a square just inside a room and its wall side), and for a way between
    # levels the square where it leaves and the one where it arrives.
    path: list[tuple[int, int]] | None = None
    door: tuple[int, int, str] | None = None
    at: tuple[int, int] | None = None
    to_at: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "from": self.from_room,
            "to": self.to_room,
            "obstacle": self.obstacle,
            "kind": self.kind,
            "levels": self.levels,
            "description": self.description,
            "passage": self.passage,
        }
        if self.path is not None:
            out["path"] = [list(c) for c in self.path]
        if self.door is not None:
            out["door"] = {"x": self.door[0], "y": self.door[1], "side": self.door[2]}
        if self.at is not None:
            out["at"] = list(self.at)
        if self.to_at is not None:
            out["to_at"] = list(self.to_at)
        return out

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Connection:
        f = doc.field
        return cls(
            from_room=f(data, "from", int, path),
            to_room=f(data, "to", int, path),
            obstacle=doc.one_of(data, "obstacle", OBSTACLES, path),
            description=f(data, "description", str, path, ""),
            passage=f(data, "passage", str, path, ""),
            kind=f(data, "kind", str, path, "passage"),
            levels=f(data, "levels", bool, path, False),
            path=doc.squares(data, "path", path) if "path" in data else None,
            door=_door(data, path) if data.get("door") is not None else None,
            at=doc.square(data, "at", path) if data.get("at") is not None else None,
            to_at=doc.square(data, "to_at", path) if data.get("to_at") is not None else None,
        )


def _door(data: dict[str, Any], path: str) -> tuple[int, int, str]:
    at = f"{path}.door"
    box = doc.field(data, "door", dict, path)
    side = doc.one_of(box, "side", ("n", "e", "s", "w"), at)
    return (doc.field(box, "x", int, at), doc.field(box, "y", int, at), side)


@dataclass
class Encounter:
    roll: int
    name: str  # monster kind, as in the bestiary
    count: str  # a dice formula, e.g. "1d4+2"
    doing: str
    xp_each: int
    danger: Danger | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "roll": self.roll,
            "name": self.name,
            "count": self.count,
            "doing": self.doing,
            "xp_each": self.xp_each,
            **({"danger": self.danger.to_dict()} if self.danger else {}),
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Encounter:
        f = doc.field
        return cls(
            f(data, "roll", int, path),
            f(data, "name", str, path),
            f(data, "count", str, path),
            f(data, "doing", str, path),
            f(data, "xp_each", int, path, 0),
            _danger(data, path),
        )


@dataclass
class SiteMaster:
    """The creature a theme is named for (docs/rooms.md): the lair it is in, or none and why."""

    name: str  # the monster, as in the bestiary
    title: str  # how the text calls it: "the dragon"
    room: int | None  # the room holding it; None when it is not in the site
    note: str = ""  # why it is not in the site (empty when it is)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "room": self.room, "note": self.note}

    @classmethod
    def from_dict(cls, data: Any, path: str) -> SiteMaster:
        f = doc.field
        return cls(
            name=f(data, "name", str, path),
            title=f(data, "title", str, path, ""),
            room=f(data, "room", int, path, None),
            note=f(data, "note", str, path, ""),
        )


@dataclass
class Site:
    seed: str
    level: int
    name: str
    theme: str  # theme key
    theme_name: str
    ecosystem: str
    history: dict[str, str]
    history_text: str
    rooms: list[Room]
    connections: list[Connection]
    encounters: list[Encounter]
    bestiary: dict[str, Monster]
    system: str = "fmc"
    version: str = ""
    routes: list[Route] = field(default_factory=list)  # from generator.sim, when asked for
    master: SiteMaster | None = None  # for a theme named for one creature

    kind = "site"

    @property
    def levels(self) -> int:
        return max((r.level for r in self.rooms), default=1)

    def room(self, room_id: int) -> Room:
        for r in self.rooms:
            if r.id == room_id:
                return r
        raise KeyError(room_id)

    def level_of(self, depth: int) -> int:
        """The party level a depth is stocked for (deeper is harder)."""
        return self.level + depth - 1

    @property
    def monster_xp(self) -> int:
        return sum(r.monster_xp for r in self.rooms)

    @property
    def treasure_cp(self) -> int:
        return sum(r.hoard.value_cp for r in self.rooms if r.hoard)

    def graph(self) -> nx.Graph:
        """Rooms as nodes, connections as edges, all data as attributes."""
        import networkx as nx  # here, not at the top: only graphml and the tests build a graph

        g = nx.Graph(name=self.name, seed=self.seed, level=self.level)
        for r in self.rooms:
            g.add_node(
                r.id,
                name=r.name,
                level=r.level,
                contents=r.contents,
                entrance=r.entrance,
                monster_xp=r.monster_xp,
                treasure_cp=r.hoard.value_cp if r.hoard else 0,
            )
        for c in self.connections:
            g.add_edge(
                c.from_room,
                c.to_room,
                obstacle=c.obstacle,
                kind=c.kind,
                levels=c.levels,
                description=c.description,
                passage=c.passage,
            )
        return g

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "site",
            "version": self.version,
            "seed": self.seed,
            "system": self.system,
            "name": self.name,
            "level": self.level,
            "theme": self.theme,
            "theme_name": self.theme_name,
            "ecosystem": self.ecosystem,
            "history": dict(self.history),
            "history_text": self.history_text,
            "master": self.master.to_dict() if self.master else None,
            "rooms": [r.to_dict() for r in self.rooms],
            "connections": [c.to_dict() for c in self.connections],
            "encounters": [e.to_dict() for e in self.encounters],
            "bestiary": {k: m.to_dict() for k, m in self.bestiary.items()},
            "totals": {"monster_xp": self.monster_xp, "treasure_cp": self.treasure_cp},
            **({"routes": [r.to_dict() for r in self.routes]} if self.routes else {}),
        }

    @classmethod
    def from_dict(cls, data: Any, path: str = "site") -> Site:
        f = doc.field
        if f(data, "kind", str, path) != "site":
            raise DocumentError(f"{path}.kind: must be 'site'")
        history = f(data, "history", dict, path)
        for key in HISTORY_KEYS:
            doc.field(history, key, str, f"{path}.history")
        bestiary_raw = f(data, "bestiary", dict, path)
        master = f(data, "master", dict, path, None)
        site = cls(
            seed=f(data, "seed", str, path),
            level=f(data, "level", int, path),
            name=f(data, "name", str, path),
            theme=f(data, "theme", str, path, ""),
            theme_name=f(data, "theme_name", str, path, ""),
            ecosystem=f(data, "ecosystem", str, path, ""),
            history={k: history[k] for k in HISTORY_KEYS},
            history_text=f(data, "history_text", str, path, ""),
            rooms=[Room.from_dict(v, p) for p, v in doc.items(data, "rooms", path)],
            connections=[
                Connection.from_dict(v, p) for p, v in doc.items(data, "connections", path)
            ],
            encounters=[Encounter.from_dict(v, p) for p, v in doc.items(data, "encounters", path)],
            bestiary={
                k: Monster.from_dict(v, f"{path}.bestiary.{k}") for k, v in bestiary_raw.items()
            },
            system=f(data, "system", str, path, "fmc"),
            version=f(data, "version", str, path, ""),
            routes=_routes(data, path),
            master=SiteMaster.from_dict(master, f"{path}.master") if master is not None else None,
        )
        site.check(path)
        return site

    def check(self, path: str = "site") -> None:
        """The invariants an edited document must keep for the renderers to make sense."""
        if not 1 <= self.level <= limits.MAX_LEVEL:
            raise DocumentError(f"{path}.level: must be 1 to {limits.MAX_LEVEL}, not {self.level}")
        if not self.name.strip():  # the map's title is the name: it cannot be blank
            raise DocumentError(f"{path}.name: must not be empty")
        if not 1 <= len(self.rooms) <= limits.MAX_ROOMS:
            raise DocumentError(f"{path}.rooms: must hold 1 to {limits.MAX_ROOMS} rooms")
        depths = set()
        for i, r in enumerate(self.rooms):
            if not 1 <= r.level <= limits.MAX_DEPTH:
                raise DocumentError(
                    f"{path}.rooms[{i}].level: must be 1 to {limits.MAX_DEPTH}, not {r.level}"
                )
            if not 1 <= r.id <= limits.MAX_ROOMS * 10:
                raise DocumentError(f"{path}.rooms[{i}].id: must be 1 to {limits.MAX_ROOMS * 10}")
            for j, g in enumerate(r.monsters):
                if not 1 <= g.count <= limits.MAX_GROUP:
                    raise DocumentError(
                        f"{path}.rooms[{i}].monsters[{j}].count: must be 1 to {limits.MAX_GROUP}"
                    )
            depths.add(r.level)
        # The totals Delve writes back must be numbers it reads: each XP within bounds may still
        # add up past them (found by the fuzzer: a document Delve wrote and could not read).
        doc.check_total(self.monster_xp, f"{path}.rooms", "the monsters' XP")
        missing = sorted(set(range(1, max(depths) + 1)) - depths)
        if missing:
            raise DocumentError(f"{path}.rooms: no room on level {missing[0]} (levels run from 1)")
        ways_in = [i for i, r in enumerate(self.rooms) if r.entrance]
        if len(ways_in) > 1:  # the plan routes one way in (a second was given the first's)
            first = self.rooms[ways_in[0]].id
            raise DocumentError(
                f"{path}.rooms[{ways_in[1]}].entrance: a site has one way in from outside "
                f"(room {first} is the entrance)"
            )
        ids = [r.id for r in self.rooms]
        if len(set(ids)) != len(ids):
            raise DocumentError(f"{path}.rooms: room ids must be unique")
        known = set(ids)
        for i, c in enumerate(self.connections):
            for end in (c.from_room, c.to_room):
                if end not in known:
                    raise DocumentError(f"{path}.connections[{i}]: no room {end}")
        for i, r in enumerate(self.rooms):
            for j, g in enumerate(r.monsters):
                if g.name not in self.bestiary:
                    raise DocumentError(
                        f"{path}.rooms[{i}].monsters[{j}].name: '{g.name}' has no stat block "
                        "in bestiary"
                    )
        if len(self.encounters) != 6:
            raise DocumentError(f"{path}.encounters: must hold six entries (a d6 table)")
        for i, e in enumerate(self.encounters):
            at = f"{path}.encounters[{i}]"
            if e.name not in self.bestiary:
                raise DocumentError(f"{at}.name: '{e.name}' has no stat block in bestiary")
            _check_count(e.count, f"{at}.count")

        self._check_master(f"{path}.master")

    def _check_master(self, path: str) -> None:
        """A master named in a room is in that room; one in no room says why."""
        m = self.master
        if m is None:
            return
        if m.room is None:
            if not m.note.strip():
                raise DocumentError(f"{path}.note: a master in no room needs a note saying why")
            return
        if m.room not in {r.id for r in self.rooms}:
            raise DocumentError(f"{path}.room: no room {m.room}")
        if not any(g.name == m.name for g in self.room(m.room).monsters):
            raise DocumentError(
                f"{path}.room: room {m.room} holds no {m.name!r} (move the master with its "
                "room, or set room to null with a note)"
            )


def _check_count(count: str, at: str) -> None:
    """A wandering group's count: a dice formula of at most limits.MAX_GROUP monsters."""
    from generator.engine.dice import parse
    from generator.errors import DiceError

    try:
        formula = parse(count)
    except DiceError as err:
        raise DocumentError(f"{at}: {err}") from None
    if formula.min < 0 or formula.max > limits.MAX_GROUP:
        raise DocumentError(
            f"{at}: {count!r} rolls {formula.min:,} to {formula.max:,}; a group is 0 to "
            f"{limits.MAX_GROUP} monsters"
        )
