"""Monster stat lines in FMC Basic terms (FMC Basic, Example Monsters' columns)."""

from __future__ import annotations

from generator.model.monster import Monster


def stat_line(m: Monster) -> str:
    """'XP 150, DC 14, HP 4, SP 8", AT +1, DM d6' - the example table's columns."""
    return f"XP {m.xp:,}, DC {m.dc}, HP {m.hp}, SP {m.speed}, AT {m.attack:+d}, DM {m.damage}"


def stat_block(m: Monster) -> str:
    parts = [f"{m.name} ({m.bracket_name}): {stat_line(m)}."]
    if m.special:
        parts.append(m.special)
    if m.description:
        parts.append(m.description)
    return " ".join(parts)
