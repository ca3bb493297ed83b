"""The region tables, read and checked once per TableSet: biomes and their look."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.build.monsters import bestiary
from generator.build.region.rules import (
    BIOMES,
    PLACES,
    RUMOURS,
    STOCKING_KEYS,
    STOCKING_TABLE,
    SYMBOLS,
)
from generator.build.site import themes
from generator.engine import needs
from generator.engine.dice import parse
from generator.engine.table import Entry
from generator.engine.tables import TableSet
from generator.errors import DiceError, TableError
from generator.model.faction import ATTITUDES, REACTIONS
from generator.model.haven import MOODS
from generator.model.monster import Monster
from generator.model.region import biome_key_problem, colour_problem

# What the region generator needs of its tables (engine/needs.py; `delve tables check`). The
# checks that reach across tables (a biome's neighbours, its landmark and encounter tables, the
# monsters they name) are made by region_tables() below, which `tables check` runs too.
BY = "the region generator"
BIOME_TABLE = needs.declare(
    BIOMES,
    BY,
    fields={
        "key": "str",
        "name": "str",
        "difficult": "bool",
        "passable": "bool",
        "color": "str",
        "symbol": "str",
        "neighbours": "list",
    },
    values={"symbol": SYMBOLS},
)
KEYED = {
    STOCKING_TABLE: needs.declare(
        STOCKING_TABLE, BY, fields={"key": "str"}, values={"key": STOCKING_KEYS}
    ),
    "npc/mood": needs.declare("npc/mood", BY, fields={"key": "str"}, values={"key": MOODS}),
    "npc/reaction": needs.declare(
        "npc/reaction", BY, fields={"key": "str"}, values={"key": REACTIONS}
    ),
    "region/faction-relations": needs.declare(
        "region/faction-relations", BY, fields={"key": "str"}, values={"key": ATTITUDES}
    ),
    "region/road-kinds": needs.declare(
        "region/road-kinds", BY, fields={"kind": "str"}, values={"kind": ("road", "trail")}
    ),
    "region/factions": needs.declare(
        "region/factions",
        BY,
        fields={"key": "str", "name": "str", "goal": "str", "leader": "str", "members": "str"},
    ),
    "region/haven-kinds": needs.declare(
        "region/haven-kinds", BY, fields={"kind": "str", "offers": "str", "runner": "str"}
    ),
}
ENCOUNTERS = needs.declare(
    "region/encounters/*", BY, fields={"monster": "str", "count": "str", "doing": "str"}
)
LANDMARKS = needs.declare("region/landmarks/*", BY, fields={"name": "str"})


def _needed(tables: TableSet, need: needs.Need, table_id: str | None = None) -> list[str]:
    return needs.problems(tables, need, tables.get(table_id or need.table))


@dataclass(frozen=True)
class BiomeInfo:
    key: str
    name: str
    difficult: bool
    passable: bool
    color: str
    symbol: str
    neighbours: frozenset[str]
    weight: float
    description: str


@dataclass
class RegionTables:
    """What the region generator reads from the tables, checked once per TableSet."""

    biomes: dict[str, BiomeInfo]
    keepers: dict[str, list[Monster]]  # biome -> monsters that may keep a one-room lair
    lair_fallback: list[list[Monster]]  # each site theme's inhabitants
    haven_pools: dict[str, list[Entry]]  # biome -> haven kinds that suit it
    encounter_monsters: dict[str, list[Monster]]  # biome -> monster of each d6 line
    lair_options: dict[tuple[str, int], tuple[tuple[tuple[Monster, int], ...], ...]] = field(
        default_factory=dict
    )


def _where(tables: TableSet, table_id: str, entry: Entry | None = None) -> str:
    t = tables.get(table_id)
    return f"{t.path}:{entry.line if entry else t.line}: table '{table_id}'"


def region_tables(tables: TableSet) -> RegionTables:
    """Check every table the region generator relies on; raise TableError naming FILE:LINE."""
    cached = tables.derived.get("region")
    if cached is not None:
        return cached
    table = needs.require(tables, BIOME_TABLE)
    beasts = bestiary(tables)
    problems: list[str] = []
    biomes: dict[str, BiomeInfo] = {}
    keys = [e["key"] for e in table.entries]
    for e in table.entries:
        where = f"{_where(tables, BIOMES, e)}: biome '{e['key']}'"
        if e["key"] in biomes:
            problems.append(f"{where}: key is used twice")
            continue
        # Both are written into the map's SVG and CSS (render/region_svg.py).
        checks = (("key", biome_key_problem(e["key"])), ("color", colour_problem(e["color"])))
        problems += [f"{where}: {name} {why}" for name, why in checks if why]
        for other in e["neighbours"]:
            if other not in keys:
                problems.append(f"{where}: neighbours name an unknown biome {other!r}")
        for kind in ("landmarks", "encounters"):
            if not tables.has(f"region/{kind}/{e['key']}"):
                problems.append(f"{where}: has no table 'region/{kind}/{e['key']}'")
        biomes[e["key"]] = BiomeInfo(
            key=e["key"],
            name=e["name"],
            difficult=e["difficult"],
            passable=e["passable"],
            color=e["color"],
            symbol=e["symbol"],
            neighbours=frozenset(str(n) for n in e["neighbours"]),
            weight=e.weight,
            description=e.result,
        )
    if biomes and not any(b.passable for b in biomes.values()):
        problems.append(f"{_where(tables, BIOMES)}: no biome is passable; a haven needs land")
    if problems:
        raise TableError(problems)
    for need in KEYED.values():
        problems += _needed(tables, need)
    if problems:
        raise TableError(problems)
    for e in tables.entries("region/factions"):
        for name in ("members", "boss"):
            if name in e.data and beasts.find(str(e[name])) is None:
                problems.append(
                    f"{_where(tables, 'region/factions', e)}: {name} name unknown monster "
                    f"{e[name]!r}"
                )
    for e in tables.entries(RUMOURS):
        about = e.get("about")
        if about is not None and (
            not isinstance(about, list) or not about or not set(about) <= set(PLACES)
        ):
            problems.append(
                f"{_where(tables, RUMOURS, e)}: about must list kinds of place among "
                f"{', '.join(PLACES)}, not {about!r}"
            )
    encounter_monsters: dict[str, list[Monster]] = {}
    for key in biomes:
        tid = f"region/encounters/{key}"
        t = tables.get(tid)
        wrong = _needed(tables, ENCOUNTERS, tid) + _needed(
            tables, LANDMARKS, f"region/landmarks/{key}"
        )
        if wrong:
            problems += wrong
            continue
        if t.die is None or t.die.text.strip().lower() not in ("d6", "1d6"):
            problems.append(f"{_where(tables, tid)}: must roll a d6 (one line per face)")
            continue
        found: list[Monster] = []
        for e in t.lookup:
            m = beasts.find(e["monster"])
            if m is None:
                problems.append(f"{_where(tables, tid, e)}: unknown monster {e['monster']!r}")
            else:
                found.append(m)
            try:
                parse(e["count"])
            except DiceError as err:
                problems.append(f"{_where(tables, tid, e)}: count: {err}")
        encounter_monsters[key] = found
    if problems:
        raise TableError(problems)
    roster = {m.monster.name: m.monster for th in themes(tables).values() for m in th.roster}
    keepers = {
        key: sorted(
            {m.name: m for m in found if "humanoid" not in m.tags or m.name in roster}.values(),
            key=lambda m: m.name,
        )
        for key, found in encounter_monsters.items()
    }
    havens = tables.entries("region/haven-kinds")
    pools = {}
    for key in biomes:
        fitting = [
            e for e in havens if key in (e.get("biomes") or ["any"]) or "any" in e.get("biomes", [])
        ]
        pools[key] = fitting or list(havens)
    result = RegionTables(
        biomes=biomes,
        keepers=keepers,
        lair_fallback=[
            sorted({m.monster.name: m.monster for m in th.roster}.values(), key=lambda m: m.name)
            for _, th in sorted(themes(tables).items())
        ],
        haven_pools=pools,
        encounter_monsters=encounter_monsters,
    )
    tables.derived["region"] = result
    return result
