"""The bestiary: every monster table under `monsters/`, read into stat blocks.

FMC Basic, Monster Types: a monster's bracket fixes its XP, hit points, attack and damage die;
XP rises by half for medium defense (14), doubles for heavy defense (16), and rises by another
half for formidable powers. The 20 example monsters all fit that rule, so monsters written
without explicit numbers get them from it.

A table's `dc` is the defense of the monster's armour or hide (12, 14 or 16, as FMC Basic's
leather, chainmail and plate); `shield: true` adds the shield's +1 (FMC Basic, Armor & Speed),
so the model's `Monster.dc` is the number an attack roll must reach: 13, 15 or 17 with a shield.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine import needs, words
from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.errors import TableError
from generator.model.monster import Monster

BRACKETS_TABLE = "monsters/brackets"
MAX_HP = 10_000  # a monster's hit points (the simulation's bound, sim/foes.py)


def _bracket_problems(tables: TableSet, table: Table) -> list[str]:
    """Numbers a site's budget divides by (xp) and a fight counts down (hp) must be sane."""
    out = []
    for e in table.entries:
        if e["xp"] < 1:
            out.append(f"{needs.where(table, e.line)}: xp must be at least 1, not {e['xp']}")
        if not 1 <= e["hp"] <= MAX_HP:
            out.append(f"{needs.where(table, e.line)}: hp must be 1 to {MAX_HP:,}, not {e['hp']}")
    return out


BRACKETS = needs.declare(
    BRACKETS_TABLE,
    "the bestiary",
    fields={
        "bracket": "int",
        "name": "str",
        "xp": "int",
        "hp": "int",
        "attack": "int",
        "damage": "str",
        "hit_dice": "float",
    },
    values={"bracket": (1, 2, 3, 4, 5)},
    check=_bracket_problems,
)
# FMC Basic, Monster Types: light (12), medium (14) and heavy (16) defense. A table's dc is one
# of these: the defense of the monster's armour or hide, before any shield.
ARMOUR_CLASSES = (12, 14, 16)
# FMC Basic, Armor & Speed: a shield gives +1 defense (counted once, here, in Monster.dc).
SHIELD_BONUS = 1
DEFENSE_CLASSES = (12, 13, 14, 15, 16, 17)
# FMC Basic, Monster Types: +50% XP at defense 14, +100% at 16. That is +25% a point of defense,
# and a shield's point is worth the same: chainmail and shield (15) is +75%.
DEFENSE_BONUS = {dc: (dc - 12) / 4 for dc in DEFENSE_CLASSES}
FORMIDABLE_BONUS = 0.5


@dataclass(frozen=True)
class Bracket:
    number: int
    name: str
    xp: int
    hp: int
    attack: int
    damage: str
    hit_dice: float


def brackets(tables: TableSet) -> dict[int, Bracket]:
    cached = tables.derived.get("brackets")
    if cached is None:
        needs.require(tables, BRACKETS)
        cached = {
            e["bracket"]: Bracket(
                e["bracket"],
                e["name"],
                e["xp"],
                e["hp"],
                e["attack"],
                e["damage"],
                float(e["hit_dice"]),
            )
            for e in tables.entries(BRACKETS_TABLE)
        }
        tables.derived["brackets"] = cached
    return cached


def rule_xp(bracket: Bracket, dc: int, formidable: bool) -> int:
    """XP by the bracket rule (additive: a formidable heavy-defense boss is 800 x 2.5)."""
    bonus = DEFENSE_BONUS.get(dc, 0.0) + (FORMIDABLE_BONUS if formidable else 0.0)
    return round(bracket.xp * (1 + bonus))


def _key(name: str) -> str:
    return " ".join(name.lower().replace("-", " ").split())


class Bestiary:
    """All monsters by name (case-insensitive; 'Dragon, Young' also finds 'Young dragon')."""

    def __init__(self, monsters: list[Monster], sources: dict[str, str]) -> None:
        self.monsters = monsters
        self.sources = sources  # name -> "FILE:LINE"
        self._by_key: dict[str, Monster] = {}
        for m in monsters:
            self._by_key[_key(m.name)] = m
            self._by_key.setdefault(_key(m.plural), m)
            if "," in m.name:
                head, _, tail = m.name.partition(",")
                self._by_key.setdefault(_key(f"{tail} {head}"), m)
            names = m.name.split()
            if len(names) == 2:
                self._by_key.setdefault(_key(f"{names[1]}, {names[0]}"), m)

    def find(self, name: str) -> Monster | None:
        return self._by_key.get(_key(name))

    def names(self) -> list[str]:
        return [m.name for m in self.monsters]


def monster_table_ids(tables: TableSet) -> list[str]:
    return [i for i in tables.ids() if i.startswith("monsters/") and i != BRACKETS_TABLE]


def bestiary(tables: TableSet) -> Bestiary:
    """Every monster table (examples, bestiary, wilderness and any the referee adds)."""
    cached = tables.derived.get("bestiary")
    if cached is not None:
        return cached
    by_bracket = brackets(tables)
    problems: list[str] = []
    monsters: list[Monster] = []
    sources: dict[str, str] = {}
    seen: dict[str, str] = {}
    for table_id in monster_table_ids(tables):
        table = tables.get(table_id)
        for e in table.entries:
            where = f"{table.path}:{e.line}: table '{table_id}'"
            name = e.get("name")
            if not isinstance(name, str):
                problems.append(f"{where}: a monster needs a 'name'")
                continue
            number = e.get("bracket")
            if number not in by_bracket:
                problems.append(f"{where}: {name}: bracket must be 1-5, not {number!r}")
                continue
            b = by_bracket[number]
            dc = e.get("dc", 12)
            if dc not in ARMOUR_CLASSES:
                problems.append(
                    f"{where}: {name}: dc must be 12, 14 or 16 (the defense of its armour or "
                    f"hide; shield: true adds a shield's +1), not {dc!r}"
                )
                continue
            wrong = [
                f"{key} must be {low:,} to {high:,}, not {e[key]!r}"
                for key, low, high in (("xp", 1, 10**12), ("hp", 1, MAX_HP))
                if e.get(key) is not None
                and (
                    isinstance(e[key], bool)
                    or not isinstance(e[key], int)
                    or not low <= e[key] <= high
                )
            ]
            if wrong:  # its own numbers, where it gives them (a budget divides by xp)
                problems.append(f"{where}: {name}: {'; '.join(wrong)}")
                continue
            shield = bool(e.get("shield", False))
            dc += SHIELD_BONUS if shield else 0
            formidable = bool(e.get("formidable", False))
            key = _key(name)
            if key in seen:
                problems.append(f"{where}: monster '{name}' is already defined at {seen[key]}")
                continue
            seen[key] = f"{table.path}:{e.line}"
            sources[name] = seen[key]
            monsters.append(
                Monster(
                    name=name,
                    plural=e.get("plural") or words.plural(name),
                    bracket=b.number,
                    xp=e.get("xp") or rule_xp(b, dc, formidable),
                    dc=dc,
                    hp=e.get("hp") or b.hp,
                    speed=e.get("speed") or '8"',
                    attack=e["attack"] if isinstance(e.get("attack"), int) else b.attack,
                    damage=e.get("damage") or b.damage,
                    hit_dice=b.hit_dice,
                    formidable=formidable,
                    special=e.get("special") or "",
                    damage_type=e.get("damage_type") or "crush",
                    resist=list(e.get("resist") or []),
                    armor=e.get("armor"),
                    shield=shield,
                    tags=list(e.tags),
                    description=e.result,
                )
            )
    if problems:
        raise TableError(problems)
    result = Bestiary(monsters, sources)
    tables.derived["bestiary"] = result
    return result
