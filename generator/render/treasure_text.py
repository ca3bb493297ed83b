"""Plain-text treasure: a hoard or a magic weapon as a referee's treasure list.

Renderers never roll dice: everything here comes from the model. ``hoard_lines`` and
``weapon_lines`` return lines without a trailing newline so site renderers can indent and
embed them; ``hoard_text`` and ``weapon_text`` join them.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from generator.engine import words
from generator.model.treasure import COINS_PER_SLOT, Coins, Hoard, Item, MagicWeapon
from generator.render.recipe import rebuild_command

if TYPE_CHECKING:
    from generator.systems import System

WIDTH = 88
_KINDS = {"magic_weapon": "a magic weapon", "scroll": "a spell scroll", "focus": "an arcane focus"}


def worth(cp: int) -> str:
    """'1,000 c.p. (10 g.p.)', '465 c.p. (4.65 g.p.)', '40 c.p.'."""
    if cp < 100:
        return f"{cp:,} c.p."
    gp = f"{cp // 100:,}" if cp % 100 == 0 else f"{cp / 100:,.2f}"
    return f"{cp:,} c.p. ({gp} g.p.)"


def coins_phrase(coins: Coins) -> str:
    """'3 g.p., 12 s.p. and 45 c.p.' (metals with none are left out)."""
    parts = [
        f"{n:,} {unit}"
        for n, unit in ((coins.gp, "g.p."), (coins.sp, "s.p."), (coins.cp, "c.p."))
        if n
    ]
    return words.join(parts) or "no coins"


def _wrap(text: str, indent: str, hang: str = "") -> list[str]:
    lines = textwrap.wrap(
        text, WIDTH, initial_indent=indent, subsequent_indent=indent + hang, break_on_hyphens=False
    )
    return lines or [indent]


def bonus_text(bonus: int, system: System | None = None) -> str:
    """'+2 to attack and damage rolls', in the rules system's words."""
    if system is not None and system.has_term("weapon_bonus"):
        return system.term("weapon_bonus", bonus=bonus)
    return f"+{bonus} to attack and damage rolls"


def xp_in_play(system: System | None) -> bool:
    """Systems with a 'reward' term (Fortmayn keeps no XP) print no XP figures."""
    return system is None or not system.has_term("reward")


def weapon_lines(weapon: MagicWeapon, indent: str = "", system: System | None = None) -> list[str]:
    """A magic weapon: name, worth and slots, form, power die, powers and bonus."""
    more = indent + "  "
    hands = "one-handed" if weapon.hands == 1 else "two-handed"
    lines = _wrap(weapon.name, indent)
    lines += _wrap(
        f"{hands.capitalize()} {weapon.form} weapon; power die {weapon.power_die}, "
        f"level {weapon.level}; worth {worth(weapon.value_cp)}; "
        f"{words.count(weapon.slots, 'slot')}.",
        more,
    )
    if weapon.powers:
        effects = weapon.power_effects or [""] * len(weapon.powers)
        for name, effect in zip(weapon.powers, effects, strict=True):
            lines += _wrap(f"- {name}: {effect}".rstrip(": "), more, "  ")
    else:
        lines += _wrap("- No powers.", more)
    if weapon.bonus:
        lines += _wrap(f"- {bonus_text(weapon.bonus, system)}.", more)
    if weapon.description:
        lines += _wrap(weapon.description, more)
    return lines


def address_line(thing: Hoard | MagicWeapon, command: str, system: System | None) -> str:
    """'Address: X (delve hoard --seed X rebuilds it)': a part's address, and the command that
    prints this text again (with the tables folders and the rules system it was printed with)."""
    again = rebuild_command(thing, "text", system, command=command)
    return f"Address: {thing.seed} ({again} rebuilds it)"


def weapon_text(weapon: MagicWeapon, system: System | None = None) -> str:
    lines = weapon_lines(weapon, system=system)
    if weapon.seed:
        lines += _wrap(address_line(weapon, "weapon", system), "  ")
    return "\n".join(lines) + "\n"


def _item_lines(item: Item, indent: str, system: System | None = None) -> list[str]:
    more = indent + "  "
    if item.weapon is not None:
        lines = weapon_lines(item.weapon, indent, system)
        if item.weapon.seed:
            lines += _wrap(f"Address: {item.weapon.seed}", more)
        return lines
    if item.kind == "focus":
        head = f"{item.name}: {worth(item.value_cp)}"
    elif item.quantity > 1:
        head = f"{item.quantity} x {item.name}, {worth(item.unit_cp)} each: {worth(item.value_cp)}"
    else:
        head = f"{item.name}: {worth(item.value_cp)}"
    lines = _wrap(head[:1].upper() + head[1:], indent)
    if item.description:
        lines += _wrap(item.description, more)
    return lines


def hoard_lines(hoard: Hoard, indent: str = "", system: System | None = None) -> list[str]:
    """A hoard as a treasure list: magic item, valuables, coins and slots, then experience."""
    more = indent + "  "
    lines = [f"{indent}Hoard worth {worth(hoard.value_cp)}"]
    magic = [i for i in hoard.items if i.magic]
    goods = [i for i in hoard.items if not i.magic]
    if magic:
        kinds = " and ".join(_KINDS.get(i.kind, i.kind) for i in magic)
        lines += _wrap(f"Magic item (d6 rolled {hoard.magic_roll}): {kinds}.", indent)
        for item in magic:
            lines += _item_lines(item, more, system)
    elif hoard.magic_roll:
        lines += _wrap(f"Magic item (d6 rolled {hoard.magic_roll}): none, just valuables.", indent)
    if hoard.note:
        lines += _wrap(f"Note: {hoard.note}", more)
    if goods:
        total = sum(i.value_cp for i in goods)
        lines += _wrap(f"Valuables, {worth(total)} in all:", indent)
        for item in goods:
            lines += _item_lines(item, more)
    coins = hoard.coins
    if coins.count:
        lines += _wrap(
            f"Coins: {coins_phrase(coins)}, {worth(coins.value_cp)} in all; "
            f"{words.count(coins.slots, 'slot')} ({COINS_PER_SLOT} coins of one metal a slot).",
            indent,
        )
    else:
        lines += _wrap("Coins: none.", indent)
    weapon_slots = sum(i.weapon.slots for i in hoard.items if i.weapon)
    carried = [w for w, n in (("the coins", coins.slots), ("the weapon", weapon_slots)) if n]
    if carried:
        slots = f"Slots: {words.count(hoard.slots, 'slot')} to carry {' and '.join(carried)}."
    else:
        slots = "Slots: no coins to carry."
    lines += _wrap(slots + " Valuables take what space the referee judges.", indent)
    if xp_in_play(system):
        lines += _wrap(
            f"XP: {hoard.xp_if_sold:,} if everything is sold; "
            f"{hoard.xp_coins_and_valuables:,} for the coins and valuables alone "
            "(magic items give experience only when sold).",
            indent,
        )
    return lines


def hoard_text(hoard: Hoard, system: System | None = None) -> str:
    lines = hoard_lines(hoard, system=system)
    lines += _wrap(f"Rolled for level {hoard.level}, holders' damage die {hoard.holder_die}.", "")
    if hoard.seed:
        lines += _wrap(address_line(hoard, "hoard", system), "")
    return "\n".join(lines) + "\n"


def item_phrase(item: Item, system: System | None = None) -> str:
    """One item as a single unwrapped sentence (for room keys and booklets)."""
    if item.weapon is not None:
        w = item.weapon
        hands = "one-handed" if w.hands == 1 else "two-handed"
        powers = "; ".join(
            f"{name}: {effect.rstrip('.')}".rstrip(": ")
            for name, effect in zip(w.powers, w.power_effects or [""] * len(w.powers), strict=True)
        )
        bonus = f"; {bonus_text(w.bonus, system)}" if w.bonus else ""
        address = f" Address: {w.seed}." if w.seed else ""
        return (
            f"{w.name} ({hands} {w.form}, power die {w.power_die}, level {w.level}{bonus}). "
            f"{w.description} Powers: {powers or 'none'}. "
            f"Worth {words.stop(worth(item.value_cp))}{address}"
        )
    if item.quantity > 1:
        head = f"{item.quantity} x {item.name}, {worth(item.unit_cp)} each"
    else:
        head = f"{item.name[:1].upper() + item.name[1:]}, {worth(item.value_cp)}"
    return f"{head}: {item.description}" if item.description else head


def hoard_points(hoard: Hoard, system: System | None = None) -> list[str]:
    """A hoard as short unwrapped points: each item, the coins, the experience (if in play)."""
    xp = xp_in_play(system)
    points = [item_phrase(i, system) for i in hoard.items]
    coins = hoard.coins
    if coins.count:
        points.append(
            f"Coins: {coins_phrase(coins)} ({words.count(coins.slots, 'slot')} to carry)."
        )
    if hoard.note:
        points.append(f"Note: {hoard.note}")
    if xp:
        points.append(
            f"XP {hoard.xp_if_sold:,} if everything is sold; {hoard.xp_coins_and_valuables:,} "
            "in coins and valuables alone."
        )
    if hoard.seed:
        points.append(f"Address: {hoard.seed}")
    return points
