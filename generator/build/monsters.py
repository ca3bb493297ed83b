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
from typing import Any

from generator.engine import needs, words
from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.errors import TableError
from generator.model.monster import KINDS, Monster
from generator.model.treasure import POWER_DICE

BRACKETS_TABLE = "monsters/brackets"
# What a number of a monster may be and still make a site: the occupant budget divides by XP,
# the fight needs hit points to lose (the simulation takes up to 10,000), and a lair's hoard takes
# its holders' damage die as the power die of its magic weapon (FMC Basic, Treasure Hoards), so a
# monster's damage is one of the brackets' dice.
MAX_HP = 10_000
MAX_ATTACK = 30


def _stat_problems(where: str, name: str, e: Any) -> list[str]:
    """What is wrong with the numbers a bracket or a monster gives (those it leaves out come
    from its bracket)."""
    out = []
    xp, hp, attack, damage = (e.get(k) for k in ("xp", "hp", "attack", "damage"))
    if isinstance(xp, int) and xp < 1:
        out.append(f"{where}: {name}: xp must be at least 1, not {xp}")
    if isinstance(hp, int) and not 1 <= hp <= MAX_HP:
        out.append(f"{where}: {name}: hp must be 1 to {MAX_HP:,}, not {hp}")
    if isinstance(attack, int) and not 0 <= attack <= MAX_ATTACK:
        out.append(f"{where}: {name}: attack must be 0 to {MAX_ATTACK}, not {attack}")
    if isinstance(damage, str) and damage.strip().lower() not in POWER_DICE:
        out.append(
            f"{where}: {name}: damage must be one of {', '.join(POWER_DICE)} (a bracket's "
            f"damage die, which is also its hoard's power die), not {damage!r}"
        )
    hit_dice = e.get("hit_dice")
    if isinstance(hit_dice, (int, float)) and not isinstance(hit_dice, bool) and hit_dice <= 0:
        out.append(f"{where}: {name}: hit_dice must be more than 0, not {hit_dice}")
    return out


def _bracket_bounds(tables: TableSet, table: Table) -> list[str]:
    return [
        problem
        for e in table.entries
        for problem in _stat_problems(needs.where(table, e.line), f"bracket {e['bracket']}", e)
    ]


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
    check=_bracket_bounds,
)
# A monster's kind (docs/rooms.md): named in the table, or read from its tags.
KIND = needs.declare("monsters/*", "the bestiary", values={"kind": KINDS})
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
                e["damage"].strip().lower(),
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


def _clashes(tables: TableSet) -> list[tuple[str, str]]:
    """(table id, problem) for every monster whose name or plural is already another's.

    Room keys and encounter tables print a monster by its name or its plural ("Adult dragons
    1d2"), and the bestiary finds a stat block by either: each must lead to one monster."""
    owner: dict[str, tuple[str, str, str]] = {}  # key -> (monster name, name|plural, FILE:LINE)
    out: list[tuple[str, str]] = []
    # The built-in tables first, so a referee's table is the one named for a clash.
    ids = sorted(monster_table_ids(tables), key=lambda i: (tables.get(i).folder != "built-in", i))
    for table_id in ids:
        table = tables.get(table_id)
        for e in table.entries:
            name = e.get("name")
            if not isinstance(name, str):
                continue
            at = f"{table.path}:{e.line}"
            plural = str(e.get("plural") or words.plural(name))
            for what, word in (("name", name), ("plural", plural)):
                had = owner.setdefault(_key(word), (name, what, at))
                if had[2] == at:
                    continue
                if _key(had[0]) != _key(name):
                    problem = (
                        f"monster '{name}': its {what} '{word}' is already the {had[1]} of "
                        f"'{had[0]}' ({had[2]}); a room key or an encounter line printing it "
                        "would not say which stat block to read"
                    )
                elif what == "name":
                    problem = f"monster '{name}' is already defined at {had[2]}"
                else:
                    continue  # the same monster twice: its name said so
                out.append((table_id, f"{at}: table '{table_id}': {problem}"))
    return out


# Checked by `delve tables check` with every other need, and by bestiary() before any generator
# reads a monster.
UNIQUE_NAMES = needs.declare(
    "monsters/*",
    "the bestiary",
    check=lambda tables, table: [p for tid, p in _clashes(tables) if tid == table.id],
)


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
        table = needs.require(tables, KIND, table_id)
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
            stats = _stat_problems(where, name, e)
            if stats:
                problems += stats
                continue
            shield = bool(e.get("shield", False))
            dc += SHIELD_BONUS if shield else 0
            formidable = bool(e.get("formidable", False))
            key = _key(name)
            if key in seen:
                continue  # reported by _clashes, below
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
                    damage=(e.get("damage") or b.damage).strip().lower(),
                    hit_dice=b.hit_dice,
                    formidable=formidable,
                    special=e.get("special") or "",
                    damage_type=e.get("damage_type") or "crush",
                    resist=list(e.get("resist") or []),
                    armor=e.get("armor"),
                    shield=shield,
                    tags=list(e.tags),
                    description=e.result,
                    kind=e.get("kind") or "",
                )
            )
    problems += [p for _, p in _clashes(tables)]
    if problems:
        raise TableError(problems)
    result = Bestiary(monsters, sources)
    tables.derived["bestiary"] = result
    return result
