"""(Fortmayn) figures: the party as BODY and HEAD dice with armour as usage dice, and each foe
as a (Fortmayn) booklet prints it (its Difficulty Dice, whether it is hard to land a blow on).

The party: each FMC Basic class becomes a Brawny or a Brainy by `sim/fortmayn` (our reading of
Making a character and the sample characters), its kit from `sim/party` or the referee's file.
The foes: the Difficulty Dice and the evasive note of `systems/fortmayn/brackets` and
`systems/fortmayn/defense`, computed by the very functions the stat blocks use, so the fight is
against the numbers the referee reads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from generator.engine import needs
from generator.engine.tables import TableSet
from generator.errors import DelveError, TableError
from generator.sim.foes import FoeKind
from generator.sim.party import CLASSES, WEAPONS, Character, armor_defense

SIZES = np.array([4, 6, 8, 12])  # (Fortmayn), Advantage & disadvantage: d4 <<>> d6 <<>> d8 <<>> d12
D4, D6, D8, D12 = range(4)
NONE = -1  # no armour or shield, or one used up
SIZE_OF = {"d4": D4, "d6": D6, "d8": D8, "d12": D12}
# (Fortmayn), Choose a type: (BODY die, HEAD die)
TYPES = {"brawny": (D8, D6), "brainy": (D6, D8)}
GROWS = ("body", "head", "both")
BUILDS = "sim/fortmayn"
ARMOUR = "systems/fortmayn/armour"
STARTING_DICE = 4  # (Fortmayn), Choose a type: "You start with four dice"
MAX_PER_LEVEL = 5


@dataclass(frozen=True)
class Build:
    """A row of `sim/fortmayn`: what a class becomes in (Fortmayn), and the kit it buys."""

    cls: str
    brawny: bool
    body: int
    head: int
    grows: str
    per_level: int
    armour: str  # a row of systems/fortmayn/armour
    shield: bool
    weapon: str
    damage_type: str


_BUILD_FIELDS = {
    "class": "str",
    "type": "str",
    "body": "int",
    "head": "int",
    "grows": "str",
    "per_level": "int",
    "armour": "str",
    "shield": "bool",
    "weapon": "str",
    "damage_type": "str",
}


def builds(tables: TableSet) -> dict[str, Build]:
    """class -> Build, checked: every class once, four starting dice with one of each kind, a
    kit Delve can fight with. Errors name the file and line."""
    cached = tables.derived.get(BUILDS)
    if cached is not None:
        return cached
    table = tables.require_fields(BUILDS, _BUILD_FIELDS)
    armours = {str(e.get("armor", "")).lower() for e in tables.entries(ARMOUR)} - {"shield"}
    out: dict[str, Build] = {}
    problems = []
    for e in table.entries:
        where = f"{table.path}:{e.line}: table '{BUILDS}'"
        cls, kind, grows = str(e["class"]).lower(), str(e["type"]).lower(), str(e["grows"])
        body, head, per_level = e["body"], e["head"], e["per_level"]
        armour, weapon = str(e["armour"]).lower(), str(e["weapon"]).lower()
        if cls not in CLASSES or cls in out:
            problems.append(f"{where}: class must be one of {', '.join(CLASSES)}, once each")
        elif kind not in TYPES:
            problems.append(f"{where}: type must be brawny or brainy, not {e['type']!r}")
        elif grows not in GROWS:
            problems.append(f"{where}: grows must be body, head or both, not {grows!r}")
        elif body < 1 or head < 1 or body + head != STARTING_DICE:
            problems.append(
                f"{where}: body and head must be at least 1 each and {STARTING_DICE} together "
                f"((Fortmayn): four dice, at least one of each kind), not {body} and {head}"
            )
        elif not 0 <= per_level <= MAX_PER_LEVEL:
            problems.append(f"{where}: per_level must be 0 to {MAX_PER_LEVEL}, not {per_level}")
        elif armour not in armours:
            problems.append(
                f"{where}: armour must be a row of {ARMOUR} ({', '.join(sorted(armours))}), "
                f"not {e['armour']!r}"
            )
        elif weapon not in WEAPONS:
            problems.append(f"{where}: weapon must be one of {', '.join(WEAPONS)}, not {weapon!r}")
        elif e["shield"] and weapon == "two-handed":
            problems.append(f"{where}: a shield and a two-handed weapon cannot go together")
        else:
            out[cls] = Build(
                cls,
                kind == "brawny",
                body,
                head,
                grows,
                per_level,
                armour,
                bool(e["shield"]),
                weapon,
                str(e["damage_type"]).lower(),
            )
    missing = [c for c in CLASSES if c not in out]
    if missing and not problems:
        problems.append(
            f"{table.path}:{table.line}: table '{BUILDS}': no row for {', '.join(missing)}"
        )
    if problems:
        raise TableError(problems)
    tables.derived[BUILDS] = out
    return out


# What the (Fortmayn) fight needs of its tables (engine/needs.py), so `delve tables check` finds
# a pack that would break `--system fortmayn`, not the first danger estimate that reads it.
BY = "the (Fortmayn) simulation"
BUILDS_NEED = needs.declare(BUILDS, BY, fields=_BUILD_FIELDS, check=needs.by_reading(builds))
BRACKETS_NEED = needs.declare(
    "systems/fortmayn/brackets",
    BY,
    fields={"bracket": "int", "dd": "int"},
    values={"bracket": (1, 2, 3, 4, 5)},
)


@dataclass(frozen=True)
class Figure:
    """One character as (Fortmayn)'s fight sees it."""

    body: int  # unwounded BODY dice at the start
    head: int
    size: int  # BODY die, an index into SIZES
    head_size: int
    armour: int  # usage die of worn armour, or NONE
    shield: int
    advantage: bool  # its weapon gives advantage on its melee rolls
    brawny: bool
    damage_type: str
    caster: bool  # a mage: its attack spells are HEAD rolls
    shooter: bool  # a ranged weapon: HEAD rolls, risk-free
    back: bool  # starts behind the front rank


def usage(tables: TableSet, armour: str) -> int:
    """The usage die of an armour (a row of `systems/fortmayn/armour`), as a SIZES index."""
    table = tables.get(ARMOUR)
    for e in table.entries:
        if str(e.get("armor", "")).lower() == armour:
            return SIZE_OF.get(str(e.get("usage", "")).strip().lower(), NONE)
    raise DelveError(f"{table.path}: table '{ARMOUR}': no entry for armor {armour!r}")


def _armour_name(tables: TableSet, c: Character) -> str:
    """The armour a character wears, from its defense less its shield (`equipment/armor`)."""
    defenses = armor_defense(tables)
    base = c.defense - (defenses.get("shield", 1) if c.shield else 0)
    names = [n for n, d in defenses.items() if d == base and n != "shield"]
    return names[0] if names else "none"


def own_kit(tables: TableSet, c: Character) -> bool:
    """Whether the referee set this character's kit: its armour, shield, weapon or damage type
    differ from every `sim/party` kit of its class, or it carries a magic weapon. A character of
    the default party or a --party spec wears its class's (Fortmayn) kit instead."""
    from generator.sim.party import build, kits

    same = ("defense", "shield", "weapon", "damage_type", "weapon_bonus")
    for kit in kits(tables):
        if kit.cls == c.cls:
            usual = build(tables, kit, c.level)
            if all(getattr(usual, k) == getattr(c, k) for k in same):
                return False
    return True


def figure(tables: TableSet, c: Character) -> Figure:
    """A character in (Fortmayn) terms (`sim/fortmayn`; docs/danger.md, Other rules systems)."""
    b = builds(tables)[c.cls]
    body, head = b.body, b.head
    # (Fortmayn), Experience: a die for each session, site level or quest survived. Our
    # reading: per_level dice for each FMC Basic level above the first.
    extra = b.per_level * max(0, c.level - 1)
    if b.grows == "body":
        body += extra
    elif b.grows == "head":
        head += extra
    else:
        body += (extra + 1) // 2
        head += extra // 2
    if 0 <= c.hp < c.max_hp:
        # A wounded start (a party file's hp): that share of its BODY dice, rounded up.
        body = math.ceil(body * c.hp / c.max_hp)
    size, head_size = TYPES["brawny" if b.brawny else "brainy"]
    if own_kit(tables, c):
        armour, shield = _armour_name(tables, c), c.shield
        weapon, damage_type = c.weapon, c.damage_type
    else:
        armour, shield, weapon, damage_type = b.armour, b.shield, b.weapon, b.damage_type
    # (Fortmayn), Different sizes of weapons: a Brawny's larger weapon, well narrated, gives
    # advantage (our reading: a two-handed one). A Brainy's smaller one would too, but Delve's
    # weapons are one-handed (an arming sword, the sample characters' weapon) or larger. A magic
    # weapon gives advantage (systems/fortmayn/terms, weapon_bonus).
    advantage = (b.brawny and weapon == "two-handed") or c.weapon_bonus > 0
    return Figure(
        body=body,
        head=head,
        size=size,
        head_size=head_size,
        armour=usage(tables, armour),
        shield=usage(tables, "shield") if shield else NONE,
        advantage=advantage,
        brawny=b.brawny,
        damage_type=damage_type,
        caster=c.cls == "mage",
        shooter=weapon == "ranged",
        back=c.cls == "mage" or weapon == "ranged",
    )


@dataclass(frozen=True)
class FoeFigure:
    """One kind of foe as (Fortmayn)'s fight sees it."""

    kind: FoeKind
    dd: int  # Difficulty Dice, as its stat block prints them
    evasive: bool  # fought at disadvantage (systems/fortmayn/defense)
    paired: bool  # worth half a hit die: two make one foe (systems/fortmayn/brackets)


def difficulty(tables: TableSet, kind: FoeKind) -> int:
    """Its Difficulty Dice as the stat block prints them: its bracket's row of
    `systems/fortmayn/brackets`, scaled by its hit points the way the booklet scales them."""
    from generator.build.monsters import brackets
    from generator.systems.core import follow_monster

    rows = {e["bracket"]: e["dd"] for e in needs.require(tables, BRACKETS_NEED).entries}
    norm = brackets(tables).get(kind.bracket)
    dd = rows.get(kind.bracket, 1)
    if norm is None:
        return max(1, dd)
    # follow_monster reads only the hit points and attack, which a FoeKind has as a Monster does.
    return int(follow_monster({"dd": dd}, kind, norm.hp, norm.attack)["dd"])  # type: ignore[arg-type]


def evasive(tables: TableSet, kind: FoeKind) -> bool:
    """Hard to land a blow on: its defense's row of `systems/fortmayn/defense` says so, and
    the defense is not worn armour (the stat block's `evasive !armor`)."""
    rows = {e["dc"]: e.get("evasive") for e in tables.entries("systems/fortmayn/defense")}
    return bool(str(rows.get(kind.dc) or "").strip()) and not kind.armor


def foe_figure(tables: TableSet, kind: FoeKind) -> FoeFigure:
    return FoeFigure(
        kind=kind,
        dd=difficulty(tables, kind),
        evasive=evasive(tables, kind),
        paired=kind.hit_dice < 1,
    )
