"""Player characters for simulated fights, built from the character and equipment tables.

FMC Basic, Fighters / Mages / Experts: hit points and the class ability (prowess, energy, skills)
by level come from `character/classes`; defense from `equipment/armor` (a shield adds +1); a
typical weapon deals d6 and a two-handed one the best of 2d6 (Combat). The text stops at level
5; above it each class keeps the step of its last two rows (our reading: the tables rise by the
same amount every level), so a level-8 fighter has 40 hit points and +8 prowess.

A party comes from the default table (`sim/party`), from a spec such as
"fighter:3,fighter:3,expert:3,mage:3", or from a referee's YAML file of their own characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from generator.engine import needs
from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.engine.yamlload import LDict, LList, load_yaml, plain
from generator.errors import DelveError, TableError
from generator.sim.rules import PARTY

CLASSES = ("fighter", "mage", "expert")
WEAPONS = {"one-handed": 1, "two-handed": 2, "ranged": 1}  # damage dice, keep the best
SKILLS = ("attack", "avoid_surprise")
SPELLS = ("lullaby", "captivate", "heal")  # the scrolls a mage uses in a fight
MAX_LEVEL = 30
MAX_PARTY = 12
MAX_HP = 999
MAX_BONUS = 5
MAX_PARTY_FILE = 64 * 1024  # a party file is a few dozen lines; refuse anything huge


@dataclass(frozen=True)
class Character:
    """One character as a fight sees it."""

    name: str
    cls: str
    level: int
    hp: int  # hit points it starts the fight with
    max_hp: int
    defense: int  # armour plus shield
    shield: bool
    prowess: int  # FMC Basic, Fighters: added to attack rolls, split among attacks above +1
    weapon: str  # one-handed, two-handed, ranged
    weapon_bonus: int  # a magic weapon's bonus to attack and damage
    damage_type: str
    energy: int  # FMC Basic, Mages: energy each adventure
    spells: tuple[str, ...]
    skills: tuple[str, ...]
    named: bool = False  # a name the referee gave it (a party file), not its kit's

    @property
    def front(self) -> bool:
        """Whether it stands in the front rank when the fight opens (mages and archers do not)."""
        return self.cls != "mage" and self.weapon != "ranged"

    def label(self) -> str:
        return f"{self.cls} {self.level}"


def class_rows(tables: TableSet) -> dict[str, dict[int, dict[str, int]]]:
    """class -> level -> {hp, prowess, energy, skills} from `character/classes`."""
    cached = tables.derived.get("sim/classes")
    if cached is not None:
        return cached
    table = tables.require_fields(
        "character/classes", {"class": "str", "level": "int", "hp": "int"}
    )
    out: dict[str, dict[int, dict[str, int]]] = {}
    for e in table.entries:
        row = {k: int(e.get(k) or 0) for k in ("hp", "prowess", "energy", "skills")}
        out.setdefault(str(e["class"]).lower(), {})[int(e["level"])] = row
    problems = [
        f"{table.path}: table 'character/classes': no rows for class '{c}'"
        for c in CLASSES
        if c not in out
    ]
    for cls, rows in out.items():
        levels = sorted(rows)
        if levels != list(range(1, len(levels) + 1)):
            problems.append(
                f"{table.path}: table 'character/classes': class '{cls}' must have levels "
                f"1, 2, 3... without gaps, not {levels}"
            )
            continue
        wrong = _out_of_bounds(rows)
        if wrong:
            problems.append(f"{table.path}: table 'character/classes': class '{cls}': {wrong}")
    if problems:
        raise TableError(problems)
    tables.derived["sim/classes"] = out
    return out


# What a class's row may hold at every level to MAX_LEVEL, carried on as level_row() does: the
# built-ins reach hp 150, prowess 30, energy 30 and skills 31 at level 30. A fighter attacks
# once a point of prowess above +1, so a table's prowess of 99,999 made every fight hang.
CLASS_BOUNDS = {"hp": (1, MAX_HP), "prowess": (0, 60), "energy": (0, 100), "skills": (0, 100)}


def _out_of_bounds(rows: dict[int, dict[str, int]]) -> str:
    for level in [*sorted(rows), MAX_LEVEL]:  # the steps are even past the table: ends suffice
        row = _row_at(rows, level)
        for key, (low, high) in CLASS_BOUNDS.items():
            if not low <= row[key] <= high:
                return (
                    f"{key} must stay {low} to {high} to level {MAX_LEVEL}, not {row[key]:,} "
                    f"at level {level}"
                )
    return ""


def level_row(tables: TableSet, cls: str, level: int) -> dict[str, int]:
    """The class's row at `level`, carried past the table's last level by its last step."""
    return _row_at(class_rows(tables)[cls], level)


def _row_at(rows: dict[int, dict[str, int]], level: int) -> dict[str, int]:
    top = max(rows)
    if level <= top:
        return rows[level]
    last = rows[top]
    step = {k: last[k] - rows[top - 1][k] for k in last} if top > 1 else dict(last)
    return {k: last[k] + step[k] * (level - top) for k in last}


def armor_defense(tables: TableSet) -> dict[str, int]:
    """Armour name (lower case) -> defense, and 'shield' -> its bonus (`equipment/armor`)."""
    cached = tables.derived.get("sim/armor")
    if cached is None:
        table = tables.require_fields("equipment/armor", {"name": "str"})
        problems = _armour_problems(tables, table)
        if problems:
            raise TableError(problems)
        cached = {}
        for e in table.entries:
            if e.get("defense") is not None:
                cached[str(e["name"]).lower()] = int(e["defense"])
            elif e.get("defense_bonus") is not None:
                cached[str(e["name"]).lower()] = int(e["defense_bonus"])
        tables.derived["sim/armor"] = cached
    return cached


def _armour_problems(tables: TableSet, table: Table) -> list[str]:
    """A row's defense (or a shield's defense_bonus) must be a whole number."""
    out = []
    for e in table.entries:
        for key in ("defense", "defense_bonus"):
            value = e.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                out.append(f"{needs.where(table, e.line)}: {key} must be a whole number")
    return out


@dataclass(frozen=True)
class Kit:
    """A row of `sim/party`: what a character of a class carries."""

    name: str
    cls: str
    armor: str
    shield: bool
    weapon: str
    damage_type: str
    skills: tuple[str, ...]
    spells: tuple[str, ...]


def kits(tables: TableSet) -> list[Kit]:
    cached = tables.derived.get(PARTY)
    if cached is not None:
        return cached
    table = tables.require_fields(
        PARTY,
        {"name": "str", "class": "str", "armor": "str", "weapon": "str", "damage_type": "str"},
    )
    armors = armor_defense(tables)
    problems: list[str] = []
    out: list[Kit] = []
    for e in table.entries:
        where = f"{table.path}:{e.line}: table '{PARTY}'"
        try:
            if e.get("shield") and str(e["weapon"]).strip().lower() == "two-handed":
                raise DelveError("a shield and a two-handed weapon cannot go together (line 58)")
            out.append(
                Kit(
                    name=e["name"],
                    cls=_choice(e["class"].lower(), CLASSES, "class"),
                    armor=_armor(e["armor"], armors),
                    shield=bool(e.get("shield", False)),
                    weapon=_choice(e["weapon"], tuple(WEAPONS), "weapon"),
                    damage_type=e["damage_type"],
                    skills=tuple(_choice(s, SKILLS, "skill") for s in e.get("skills") or ()),
                    spells=tuple(_spell(s) for s in e.get("spells") or ()),
                )
            )
        except DelveError as err:
            problems.append(f"{where}: {err}")
    if not out and not problems:
        problems.append(f"{table.path}: table '{PARTY}': needs at least one character")
    if problems:
        raise TableError(problems)
    tables.derived[PARTY] = out
    return out


def _choice(value: Any, choices: tuple[str, ...], what: str) -> str:
    text = str(value).strip().lower().replace(" ", "_" if what == "skill" else "-")
    if text not in choices:
        raise DelveError(f"{what} must be one of {', '.join(choices)}, not {value!r}")
    return text


def _spell(value: Any) -> str:
    """Spell names are free (a mage may carry any scroll); only some act in a fight."""
    text = str(value).strip().lower()
    if not re.fullmatch(r"[a-z][a-z '\-]{0,40}", text):
        raise DelveError(f"spell must be a spell's name, not {value!r}")
    return text


def _armor(value: Any, armors: dict[str, int]) -> str:
    text = str(value).strip().lower()
    if text not in armors or text == "shield":
        names = ", ".join(n for n in armors if n != "shield")
        raise DelveError(f"armor must be one of {names}, not {value!r}")
    return text


def build(
    tables: TableSet,
    kit: Kit,
    level: int,
    name: str | None = None,
    hp: int | None = None,
    weapon_bonus: int = 0,
) -> Character:
    """A character of the kit's class at `level`, by the class table and the armour table."""
    row = level_row(tables, kit.cls, level)
    armors = armor_defense(tables)
    defense = armors[kit.armor] + (armors.get("shield", 1) if kit.shield else 0)
    return Character(
        name=name or kit.name,
        cls=kit.cls,
        level=level,
        hp=row["hp"] if hp is None else hp,
        max_hp=row["hp"],
        defense=defense,
        shield=kit.shield,
        prowess=row["prowess"] if kit.cls == "fighter" else 0,
        weapon=kit.weapon,
        weapon_bonus=weapon_bonus,
        damage_type=kit.damage_type,
        energy=row["energy"] if kit.cls == "mage" else 0,
        spells=kit.spells if kit.cls == "mage" else (),
        skills=kit.skills if kit.cls == "expert" else (),
    )


def _kit_for(tables: TableSet, cls: str, nth: int) -> Kit:
    """The nth (0-based) kit of the class in `sim/party`, going round; a bare one if none."""
    mine = [k for k in kits(tables) if k.cls == cls]
    if not mine:
        return Kit(cls, cls, "leather", False, "one-handed", "slash", (), ())
    return mine[nth % len(mine)]


def default_party(tables: TableSet, level: int) -> list[Character]:
    """The `sim/party` table's characters, all of `level`."""
    check_level(level, "--level")
    return [build(tables, k, level) for k in kits(tables)]


def check_level(level: int, what: str) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise DelveError(
            f"{what}: level must be a whole number from 1 to {MAX_LEVEL}, not {level!r}"
        )
    return level


_SPEC_ITEM = re.compile(r"^\s*([A-Za-z]+)\s*:\s*(\S+)\s*$")


def parse_spec(tables: TableSet, spec: str) -> list[Character]:
    """'fighter:3,fighter:3,expert:3,mage:3' -> four characters with the default kits."""
    items = [s for s in spec.split(",")]
    if not spec.strip() or any(not s.strip() for s in items):
        raise DelveError(
            f"--party {spec!r}: write CLASS:LEVEL pairs separated by commas, "
            "e.g. fighter:3,fighter:3,expert:3,mage:3"
        )
    if len(items) > MAX_PARTY:
        raise DelveError(f"--party: at most {MAX_PARTY} characters, not {len(items)}")
    seen: dict[str, int] = {}
    out = []
    for item in items:
        m = _SPEC_ITEM.match(item)
        if not m:
            raise DelveError(
                f"--party {item.strip()!r}: write CLASS:LEVEL, e.g. fighter:3 "
                f"(classes: {', '.join(CLASSES)})"
            )
        cls, level_text = m.group(1).lower(), m.group(2)
        if cls not in CLASSES:
            raise DelveError(
                f"--party {item.strip()!r}: unknown class '{cls}' (classes: {', '.join(CLASSES)})"
            )
        if not level_text.isdigit():
            raise DelveError(
                f"--party {item.strip()!r}: level must be a whole number from 1 to {MAX_LEVEL}"
            )
        level = check_level(int(level_text), f"--party {item.strip()!r}")
        nth = seen.get(cls, 0)
        seen[cls] = nth + 1
        out.append(build(tables, _kit_for(tables, cls, nth), level))
    return out


# --------------------------------------------------------------------------- party files

_FILE_KEYS = {
    "name",
    "class",
    "level",
    "hp",
    "armor",
    "shield",
    "weapon",
    "weapon_bonus",
    "damage_type",
    "skills",
    "spells",
}


def load_party_file(tables: TableSet, path: Path) -> list[Character]:
    """A referee's own characters from YAML: a list (or `party:` holding one) of mappings.

    Every field but class and level may be left out (the class's first kit fills it in); hp is
    the hit points a wounded character starts with. Errors name the file and line.
    """
    label = str(path)
    try:
        size = path.stat().st_size
    except OSError as err:
        raise DelveError(f"{label}: cannot read: {err.strerror}") from None
    if size > MAX_PARTY_FILE:
        raise DelveError(f"{label}: {size:,} bytes is too big for a party file (limit 64 KB)")
    try:
        doc = load_yaml(path, label)
    except TableError as err:
        raise DelveError(err.problems[0]) from None
    if isinstance(doc, LDict) and "party" in doc:
        doc = doc["party"]
    if not isinstance(doc, LList) or not doc:
        line = getattr(doc, "line", 1)
        raise DelveError(f"{label}:{line}: a party file is a list of characters (or party: LIST)")
    if len(doc) > MAX_PARTY:
        raise DelveError(f"{label}:{doc.line}: at most {MAX_PARTY} characters, not {len(doc)}")
    seen: dict[str, int] = {}
    out = []
    for i, item in enumerate(doc):
        line = doc.item_lines[i]
        try:
            out.append(_character(tables, item, seen))
        except DelveError as err:
            at = item.line_of(getattr(err, "key", "")) if isinstance(item, LDict) else line
            raise DelveError(f"{label}:{at}: character {i + 1}: {err}") from None
    return out


class _FieldError(DelveError):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


def _int(item: LDict, key: str, low: int, high: int, default: int | None) -> int | None:
    if key not in item:
        return default
    value = plain(item[key])
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _FieldError(key, f"must be a whole number from {low} to {high}, not {value!r}")
    return value


def _character(tables: TableSet, item: Any, seen: dict[str, int]) -> Character:
    if not isinstance(item, LDict):
        raise DelveError("must be a mapping (class: fighter, level: 3, ...)")
    unknown = sorted(set(item) - _FILE_KEYS)
    if unknown:
        raise _FieldError(unknown[0], f"unknown field (fields: {', '.join(sorted(_FILE_KEYS))})")
    if "class" not in item or "level" not in item:
        raise DelveError("needs a class and a level")
    try:
        cls = _choice(plain(item["class"]), CLASSES, "class")
    except DelveError as err:
        raise _FieldError("class", str(err)) from None
    level = _int(item, "level", 1, MAX_LEVEL, None)
    assert level is not None
    nth = seen.get(cls, 0)
    seen[cls] = nth + 1
    kit = _kit_for(tables, cls, nth)
    changes: dict[str, Any] = {}
    for key, parse in (
        ("armor", lambda v: _armor(v, armor_defense(tables))),
        ("weapon", lambda v: _choice(v, tuple(WEAPONS), "weapon")),
        ("damage_type", _damage_type),
    ):
        if key in item:
            try:
                changes[key] = parse(plain(item[key]))
            except DelveError as err:
                raise _FieldError(key, str(err)) from None
    if "shield" in item:
        if not isinstance(plain(item["shield"]), bool):
            raise _FieldError("shield", "must be true or false")
        changes["shield"] = plain(item["shield"])
    for key, parse_one in (("skills", lambda v: _choice(v, SKILLS, "skill")), ("spells", _spell)):
        if key in item:
            values = item[key]
            if not isinstance(values, list) or len(values) > 20:
                raise _FieldError(key, "must be a list (at most 20)")
            try:
                changes[key] = tuple(parse_one(plain(v)) for v in values)
            except DelveError as err:
                raise _FieldError(key, str(err)) from None
    kit = replace(kit, **changes)
    if kit.shield and kit.weapon == "two-handed":
        # FMC Basic, Fighters (line 58): a one-handed weapon and a shield, or a two-handed one.
        # What the file says wins over the kit it fills in from; saying both is an error.
        if "shield" in item and "weapon" in item:
            raise _FieldError(
                "weapon", "a shield and a two-handed weapon cannot go together (line 58)"
            )
        if "weapon" in item:
            kit = replace(kit, shield=False)
        else:
            kit = replace(kit, weapon="one-handed")
    name = plain(item.get("name", "")) or None
    if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 60):
        raise _FieldError("name", "must be text of at most 60 characters")
    character = build(
        tables,
        kit,
        level,
        name=name.strip() if name else None,
        weapon_bonus=_int(item, "weapon_bonus", 0, MAX_BONUS, 0) or 0,
    )
    if name:
        character = replace(character, named=True)
    hp = _int(item, "hp", 1, MAX_HP, None)
    if hp is not None:
        if hp > character.max_hp:
            raise _FieldError("hp", f"{hp} is more than a level-{level} {cls}'s {character.max_hp}")
        character = replace(character, hp=hp)
    return character


def _damage_type(value: Any) -> str:
    text = str(value).strip().lower()
    if not re.fullmatch(r"[a-z]{2,20}", text):
        raise DelveError(f"must be one word such as slash, crush or pierce, not {value!r}")
    return text


def describe(party: list[Character], tables: TableSet | None = None) -> str:
    """Who fought, as the danger lines say it: the referee's names ('Brakka, Orm, Wick and
    Sefa'); 'four level-3 characters' for the default party of that level; the classes when
    they share a level but are not the default party ('three level-2 characters (fighter,
    fighter and mage)'); else each class and level ('fighter 3, expert 2 and mage 4')."""
    from generator.engine.words import join, number

    if any(c.named for c in party):
        return join([c.name if c.named else c.label() for c in party])
    levels = {c.level for c in party}
    if len(levels) != 1:
        return join([c.label() for c in party])
    level = levels.pop()
    who = f"{number(len(party))} level-{level} {'character' if len(party) == 1 else 'characters'}"
    if tables is not None and party != default_party(tables, level):
        who += f" ({join([c.cls for c in party])})"
    return who


# --------------------------------------------------------------------------- tables check

# What the simulation needs of the tables it reads (engine/needs.py), so `delve tables check`
# reports a pack that would break it: sim/party's kits wear armour from equipment/armor and
# are of the classes character/classes lists, so renaming Leather is found there, not by every
# command that estimates danger.
BY = "the combat simulation"


def _party_problems(tables: TableSet, table: Table) -> list[str]:
    try:
        armours, found = armor_defense(tables), kits(tables)
    except TableError as err:
        return list(err.problems)
    bare = [c for c in CLASSES if c not in {k.cls for k in found}]
    if bare and "leather" not in armours:  # _kit_for's bare kit
        return [
            f"{needs.where(table)}: no kit for {', '.join(bare)}, whose bare kit wears leather, "
            "which equipment/armor does not list"
        ]
    return []


PARTY_TABLE = needs.declare(
    PARTY,
    BY,
    fields={"name": "str", "class": "str", "armor": "str", "weapon": "str", "damage_type": "str"},
    check=_party_problems,
)
ARMOUR_TABLE = needs.declare("equipment/armor", BY, fields={"name": "str"}, check=_armour_problems)
CLASS_TABLE = needs.declare(
    "character/classes",
    BY,
    fields={"class": "str", "level": "int", "hp": "int"},
    check=needs.by_reading(class_rows),
)
