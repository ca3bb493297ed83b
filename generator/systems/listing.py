"""The bestiary in one system's terms: every bracket and every monster, as text or JSON."""

from __future__ import annotations

import textwrap
from typing import Any

from generator.build.monsters import Bestiary, Bracket, brackets, rule_xp
from generator.engine import words
from generator.engine.tables import TableSet
from generator.model.monster import BRACKET_NAMES, Monster
from generator.systems.core import System
from generator.systems.results import StatBlock

WIDTH = 88
TYPICAL_DC = 12  # FMC Basic, Monster Types: a bracket's XP assumes light defense (12)
TYPICAL_SPEED = '12"'  # FMC Basic, Armor and Speed: a figure without armour


def typical_monster(bracket: Bracket) -> Monster:
    """A plain monster of the bracket: light defense, a person's speed, no special powers."""
    return Monster(
        name=bracket.name,
        plural=words.plural(bracket.name.lower()),
        bracket=bracket.number,
        xp=rule_xp(bracket, TYPICAL_DC, False),
        dc=TYPICAL_DC,
        hp=bracket.hp,
        speed=TYPICAL_SPEED,
        attack=bracket.attack,
        damage=bracket.damage,
        hit_dice=bracket.hit_dice,
    )


def bestiary_blocks(
    tables: TableSet, system: System, beasts: Bestiary
) -> list[tuple[int, StatBlock, list[StatBlock]]]:
    """(bracket, its typical stat block, its monsters' stat blocks), in bracket order."""
    out = []
    for number, bracket in sorted(brackets(tables).items()):
        monsters = [system.stat_block(m) for m in beasts.monsters if m.bracket == number]
        out.append((number, system.stat_block(typical_monster(bracket)), monsters))
    return out


def bestiary_text(tables: TableSet, system: System, beasts: Bestiary) -> str:
    """The whole bestiary as plain text: how to read it, then bracket by bracket."""
    title = f"Bestiary in {system.name} terms"
    out = [title.upper(), "=" * len(title), "", _wrap(system.term("reading")), ""]
    for number, typical, monsters in bestiary_blocks(tables, system, beasts):
        name = BRACKET_NAMES.get(number, str(number))
        heading = f"Bracket {number}: {words.plural(name)}"
        out += [heading, "-" * len(heading), _fields(f"A typical {name}:", typical)]
        out += [_wrap(note, "    ", "    ") for note in typical.notes]
        out.append("")
        for block in monsters:
            out.append(_fields(f"{block.title}:", block))
            # What every monster of the bracket shares is said once, under the typical one.
            out += [_wrap(n, "    ", "    ") for n in block.notes if n not in typical.notes]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _fields(lead: str, block: StatBlock) -> str:
    """The stat line wrapped between its fields, never inside one ('Spd 9 m' stays whole)."""
    lines: list[str] = []
    current = lead
    parts = list(block.parts)
    for i, part in enumerate(parts):
        piece = part + ("," if i < len(parts) - 1 else ".")
        if len(current) + 1 + len(piece) > WIDTH and current.strip():
            lines.append(current)
            current = "    " + piece
        else:
            current = f"{current} {piece}"
    lines.append(current)
    return "\n".join(lines)


def _wrap(text: str, indent: str = "", first: str = "") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=first, subsequent_indent=indent)


def bestiary_json(tables: TableSet, system: System, beasts: Bestiary) -> dict[str, Any]:
    groups = bestiary_blocks(tables, system, beasts)
    return {
        "system": system.key,
        "name": system.name,
        "reading": system.term("reading"),
        "brackets": [typical.to_dict() for _n, typical, _m in groups],
        "monsters": [block.to_dict() for _n, _t, monsters in groups for block in monsters],
    }
