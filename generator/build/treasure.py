"""Treasure hoards and magic weapons, by FMC Basic, Treasure Hoards and Magic Weapons.

Pure functions: (TableSet, Rng, options) -> model. Worth is in copper pieces, which is also
experience (1 c.p. = 1 XP, 1 s.p. = 10, 1 g.p. = 100). The caller decides a hoard's value (a
site of level L holds 1,000 x L c.p. split between two hoards; a one-room lair 500 x d6 for
monsters and treasure together); :func:`roll_hoard` fills exactly that value.

How a hoard is filled
---------------------
1. Its own stream rolls the d6 on ``treasure/magic-item``: 1 a magic weapon, 2 a spell scroll,
   3 an arcane focus, 4-6 just valuable.
2. The magic item is worked out in its own child stream (``<hoard>/weapon``, ``/scroll``,
   ``/focus``); ``delve weapon --seed <hoard>/weapon --die <its die>`` shows the same weapon.
   Worth: a scroll 1,000 c.p. and a weapon 100 c.p. per face of its power die (both from the
   rules). The rules give a focus no worth; we price it at 500 c.p. per point of energy (half a
   scroll: a point of energy powers one casting each adventure, where a scroll is the spell).
3. **A magic item worth more than the whole hoard** is kept in a lesser form, so the d6 keeps
   its odds at every level (a level-1 site's hoards are worth 300-700 c.p., less than a
   scroll) and the total stays exact; ``Hoard.note`` says what changed:

   - a weapon's power die steps down (d10 -> d8 -> ...) until the weapon fits: a lesser blade
     the holders took from weaker hands. The rules price a weapon by its die, and there is none
     below a d4 (400 c.p.), so a hoard under 400 c.p. holds no weapon;
   - a focus is found partly drained: it holds as many points of energy as fit (500 c.p. each);
     in a hoard under 500 c.p. it is drained dry, a mage can fill it in downtime (FMC Basic,
     Downtime), and it is the whole hoard, worth what the hoard is worth;
   - a scroll becomes a **lesser scroll**: the same spell in a hasty copy good for one casting
     (a mage who casts from a whole scroll with energy keeps it, FMC Basic, Mages; this one
     fades whoever casts it). It stands in for all of the hoard's valuables and coins: it is
     the whole hoard, worth what the hoard is worth, below the whole scroll's 1,000 c.p.

   With no item left (a weapon in a hoard under 400 c.p., anything in a hoard worth nothing),
   the hoard is "just valuable", as on a 4-6.
4. Of what is left, a share of 0-50 % (by a d6: (d6 - 1) x 10 %) is set aside as coins. The rest
   buys distinct valuables from ``treasure/valuables``: a handful of pieces, more for a bigger
   budget (as many as the budget has digits, sometimes one more), each priced between a quarter
   of and a whole even share of what remains. Trade goods (``kind: trade``) may come several of
   a kind (``3 x old bottle of wine``) when the share is worth several; other pieces come alone
   unless the share is dearer than anything on the table. Whatever the valuables do not use
   becomes coins, so coins + items = value exactly and nothing is ever negative.
5. Coins are split by the size of the pile: a small one mostly copper, a large one mostly gold.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from math import log10
from typing import Any

from generator.engine import needs, words
from generator.engine.rng import Rng
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.limits import MAX_HOARD_CP, MAX_LEVEL
from generator.model.treasure import FORMS, POWER_DICE, Coins, Hoard, Item, MagicWeapon

__all__ = [
    "POWER_DICE",
    "SCROLL_CP",
    "FOCUS_CP_PER_ENERGY",
    "check_power_die",
    "weapon_value_cp",
    "roll_weapon",
    "roll_hoard",
]

# FMC Basic, Treasure Hoards: a scroll is worth 1,000 c.p.
SCROLL_CP = 1000
# Our choice (the text prices no focus): 500 c.p. per point of energy, half a scroll.
FOCUS_CP_PER_ENERGY = 500
LESSER_SCROLL = (
    "A hasty copy, good for one casting: whoever casts from it, mage or not, sees the ink fade "
    "as the spell goes, and no mage can keep it by spending energy."
)
EMPTY_FOCUS = "It is drained dry; a mage can fill it with their own energy over a week of downtime."
_SIDES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12}
_MAX_QUANTITY = 20  # at most this many of one valuable; a vaster share spills into coins

_WEAPON_KEY = "treasure/weapon"
_HOARD_KEY = "treasure/hoard"
_MAGIC_KINDS = ("magic_weapon", "scroll", "focus", "valuable")
_POWERS_NEEDED = max(_SIDES.values())  # FMC Basic, Magic Weapons: a d12 power die rolls 1-12


def _twelve_powers(tables: TableSet, table: Table) -> list[str]:
    """A d12 power die rolls 1-12 on the powers table: it needs an entry for each roll."""
    if table.die is not None:
        covered = table.low <= 1 and table.die.max >= _POWERS_NEEDED
    else:
        covered = len(table.entries) >= _POWERS_NEEDED
    if covered and len(table.entries) >= _POWERS_NEEDED:
        return []
    return [
        f"{needs.where(table)}: has {len(table.entries)} entries but a d12 power die can roll "
        f"1-{_POWERS_NEEDED}: it needs {_POWERS_NEEDED} entries, one for each roll"
    ]


def _worth_at_least_one(tables: TableSet, table: Table) -> list[str]:
    return [
        f"{needs.where(table, e.line)}: worth_cp must be at least 1, not {e['worth_cp']}"
        for e in table.entries
        if e["worth_cp"] < 1
    ]


# What the treasure generator needs of its tables (engine/needs.py; `delve tables check`).
BY = "the treasure generator"
_FORM = {"form": FORMS, "hands": (1, 2)}
POWERS_TABLE = needs.declare(
    "treasure/weapon-powers",
    BY,
    fields={"name": "str", "effect": "str", "flavor": "str"},
    check=_twelve_powers,
)
FORM_TABLE = needs.declare(
    "treasure/weapon-form", BY, fields={"form": "str", "hands": "int"}, values=_FORM
)
KINDS_TABLE = needs.declare(
    "treasure/weapon-kinds",
    BY,
    fields={"form": "str", "hands": "int", "noun": "str"},
    values=_FORM,
)
MAGIC_TABLE = needs.declare(
    "treasure/magic-item", BY, fields={"key": "str"}, values={"key": _MAGIC_KINDS}
)
SPELLS_TABLE = needs.declare("spells", BY, fields={"name": "str", "effect": "str"})
VALUABLES_TABLE = needs.declare(
    "treasure/valuables",
    BY,
    fields={"name": "str", "worth_cp": "int"},
    check=_worth_at_least_one,
)


# --------------------------------------------------------------------------- checks


def check_power_die(die: Any, what: str = "power die") -> str:
    """'d8' (any case, spaces ignored) -> 'd8'; anything else is a DelveError naming `what`."""
    if isinstance(die, str) and die in _SIDES:
        return die
    text = die.strip().lower() if isinstance(die, str) else None
    if text not in _SIDES:
        raise DelveError(
            f"{what}: {die!r} is not a power die; use one of {', '.join(POWER_DICE)} "
            "(the damage dice of mook, grunt, elite, lieutenant and boss)"
        )
    return text


def weapon_value_cp(power_die: str) -> int:
    """FMC Basic, Treasure Hoards: a weapon is worth as many g.p. as its power die's maximum."""
    return 100 * _SIDES[power_die]


def _check_whole(name: str, value: Any, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DelveError(f"{name}: must be a whole number, not {value!r}")
    if value < least:
        raise DelveError(f"{name}: must be at least {least}, not {value:,}")
    if value > most:
        raise DelveError(f"{name}: must be at most {most:,}, not {value:,}")
    return value


# --------------------------------------------------------------------------- table lookups


def _picker(tables: TableSet, table_id: str) -> Callable[[Rng], str]:
    """A fast roll returning the result text (static texts, by weight); else the full roll."""
    table = tables.get(table_id)
    if table.die is None and all(e.template.static is not None for e in table.entries):
        texts = [e.template.static or "" for e in table.entries]
        cumulative = table.cumulative
        total = cumulative[-1]
        return lambda rng: texts[bisect_right(cumulative, rng.random() * total)]
    return lambda rng: tables.roll(table_id, rng).text


def _entry_roller(table: Table) -> Callable[[Rng], tuple[int, Entry]]:
    """(number rolled, entry): the die's value, or the entry's place (1-based) if weighted."""
    if table.die is not None:
        roll, lookup, low = table.die.roll, table.lookup, table.low

        def by_die(rng: Rng) -> tuple[int, Entry]:
            value = roll(rng)
            return value, lookup[value - low]

        return by_die
    entries, cumulative = table.entries, table.cumulative
    total = cumulative[-1]

    def by_weight(rng: Rng) -> tuple[int, Entry]:
        i = bisect_right(cumulative, rng.random() * total)
        return i + 1, entries[i]

    return by_weight


def _text(tables: TableSet, table: Table, entry: Entry, rng: Rng) -> str:
    static = entry.template.static
    if static is not None:
        return static
    return tables._rolled(table, entry, rng, None).text


@dataclass
class _WeaponTables:
    powers: list[tuple[str, str, str]]  # (name, effect, flavor) for rolls 1..12
    roll_form: Callable[[Rng], tuple[int, Entry]]
    nouns: dict[tuple[str, int], list[str]]
    look: Callable[[Rng], str]
    epithet: Callable[[Rng], str]


def _weapon_tables(tables: TableSet) -> _WeaponTables:
    cached = tables.derived.get(_WEAPON_KEY)
    if cached is not None:
        return cached
    powers_t = needs.require(tables, POWERS_TABLE)
    # FMC Basic, Magic Weapons: a d12 power die rolls 1-12 on a 12-line table.
    if powers_t.die is not None:
        by_roll = [powers_t.lookup[n - powers_t.low] for n in range(1, _POWERS_NEEDED + 1)]
    else:
        by_roll = powers_t.entries[:_POWERS_NEEDED]
    powers = [(e["name"], e["effect"], e["flavor"]) for e in by_roll]
    form_t = needs.require(tables, FORM_TABLE)
    kinds_t = needs.require(tables, KINDS_TABLE)
    nouns: dict[tuple[str, int], list[str]] = {}
    for e in kinds_t.entries:
        nouns.setdefault((e["form"], e["hands"]), []).append(e["noun"])
    look = _picker(tables, "treasure/weapon-looks")
    epithet = _picker(tables, "treasure/weapon-epithets")
    built = _WeaponTables(powers, _entry_roller(form_t), nouns, look, epithet)
    tables.derived[_WEAPON_KEY] = built
    return built


@dataclass
class _HoardTables:
    roll_magic: Callable[[Rng], tuple[int, Entry]]
    spells: Table
    roll_spell: Callable[[Rng], tuple[int, Entry]]
    scroll_look: Callable[[Rng], str]
    focus_object: Callable[[Rng], str]
    valuables: Table
    worths: list[int]  # ascending
    goods: list[Entry]  # in the same order as worths, and so are:
    names: list[str]
    texts: list[str | None]  # the text, unless it holds dice or references
    lots: list[bool]  # trade goods, which may come several of a kind


def _hoard_tables(tables: TableSet) -> _HoardTables:
    cached = tables.derived.get(_HOARD_KEY)
    if cached is not None:
        return cached
    magic_t = needs.require(tables, MAGIC_TABLE)
    spells_t = needs.require(tables, SPELLS_TABLE)
    goods_t = needs.require(tables, VALUABLES_TABLE)
    goods = sorted(goods_t.entries, key=lambda e: (e["worth_cp"], e["name"]))
    built = _HoardTables(
        roll_magic=_entry_roller(magic_t),
        spells=spells_t,
        roll_spell=_entry_roller(spells_t),
        scroll_look=_picker(tables, "treasure/scroll-looks"),
        focus_object=_picker(tables, "treasure/focus-objects"),
        valuables=goods_t,
        worths=[e["worth_cp"] for e in goods],
        goods=goods,
        names=[e["name"] for e in goods],
        texts=[e.template.static for e in goods],
        lots=[e.get("kind") == "trade" for e in goods],
    )
    tables.derived[_HOARD_KEY] = built
    return built


def check_tables(tables: TableSet) -> None:
    """Read every treasure table as the generator will (TableError naming what is wrong)."""
    _weapon_tables(tables)
    _hoard_tables(tables)


# --------------------------------------------------------------------------- weapons


def roll_weapon(tables: TableSet, rng: Rng, power_die: str) -> MagicWeapon:
    """A magic weapon whose power die is its holders' damage die (FMC Basic, Magic Weapons)."""
    die = check_power_die(power_die)
    look = _weapon_tables(tables)
    random = rng.draw()
    # FMC Basic, Magic Weapons: roll the power die and every die below it on the powers table;
    # a result already rolled is null. The weapon's level is the number of dice rolled.
    level = POWER_DICE.index(die) + 1
    rolled: list[tuple[str, str, str]] = []
    for sides in (4, 6, 8, 10, 12)[:level]:
        power = look.powers[int(random() * sides)]  # roll N -> the table's entry N
        if all(power[0] != p[0] for p in rolled):
            rolled.append(power)
    # FMC Basic, Magic Weapons: fewer powers than its level -> the difference is its bonus.
    bonus = max(0, level - len(rolled))
    # FMC Basic, Magic Weapons: d6 -- smashing 1/4, slashing 2/5, stabbing 3/6;
    # one-handed 1-3, two-handed 4-6.
    _, form_entry = look.roll_form(rng)
    form, hands = form_entry["form"], form_entry["hands"]
    choices = look.nouns.get((form, hands))
    noun = choices[int(random() * len(choices))] if choices else f"{form} weapon"
    epithet = look.epithet(rng)
    name = f"{words.capital(epithet)}, {words.with_article(noun)} {look.look(rng)}"
    kind = noun if "handed" in noun else f"{'one' if hands == 1 else 'two'}-handed {noun}"
    a_kind = words.capital(words.with_article(kind))
    # The bonus is a number here and nowhere in the words: each rules system says what it does
    # (its weapon_bonus term), so a (Fortmayn) booklet never prints FMC's "+2 to attack".
    if rolled:
        description = f"{a_kind} that {words.join([p[2] for p in rolled])}."
    else:
        description = f"{a_kind} with no powers, plain but keen."
    return MagicWeapon(
        name=name,
        description=description,
        power_die=die,
        level=level,
        form=form,
        hands=hands,
        powers=[p[0] for p in rolled],
        power_effects=[p[1] for p in rolled],
        bonus=bonus,
        value_cp=weapon_value_cp(die),
        seed=rng.address,
    )


# --------------------------------------------------------------------------- hoards


def _weapon_item(
    tables: TableSet, rng: Rng, value_cp: int, holder_die: str
) -> tuple[Item | None, str]:
    die = holder_die
    # Our rule: too dear for the hoard -> a lesser weapon, one die size down at a time.
    while weapon_value_cp(die) > value_cp and die != POWER_DICE[0]:
        die = POWER_DICE[POWER_DICE.index(die) - 1]
    wanted = weapon_value_cp(holder_die)
    if weapon_value_cp(die) > value_cp:
        least = "" if holder_die == die else f", or even a {die} ({weapon_value_cp(die):,} c.p.),"
        return None, (
            f"Rolled a magic weapon, but a {holder_die} weapon ({wanted:,} c.p.){least} is worth "
            f"more than this {value_cp:,} c.p. hoard: no magic item."
        )
    weapon = roll_weapon(tables, rng.child("weapon"), die)
    note = ""
    if die != holder_die:
        note = (
            f"Rolled a magic weapon, but a {holder_die} weapon ({wanted:,} c.p.) is worth more "
            f"than this {value_cp:,} c.p. hoard: it is a lesser {die} weapon instead."
        )
    item = Item("magic_weapon", weapon.name, weapon.value_cp, weapon.description, weapon=weapon)
    return item, note


def _scroll_item(
    tables: TableSet, look: _HoardTables, rng: Rng, value_cp: int
) -> tuple[Item | None, str]:
    srng = rng.child("scroll")
    _, entry = look.roll_spell(srng)
    spell, effect = entry["name"], entry["effect"]
    description = f"{look.scroll_look(srng)} It holds the spell {spell}: {effect}"
    if value_cp >= SCROLL_CP:
        return Item("scroll", f"Scroll of {spell}", SCROLL_CP, description, spell=spell), ""
    if value_cp < 1:
        return None, "Rolled a spell scroll, but this hoard is worth nothing: no magic item."
    # FMC Basic, Treasure Hoards: a 2 on the d6 is a scroll, worth 1,000 c.p.; a level-1 site's
    # hoards (300-700 c.p.) cannot pay for one. Our reading, so a 2 is a scroll at every level:
    # a lesser scroll, a hasty copy good for one casting (Mages: casting from a scroll with
    # energy keeps it; this one fades whoever casts it), that stands in for the whole hoard.
    description += f" {LESSER_SCROLL}"
    note = (
        f"Rolled a spell scroll; a whole scroll ({SCROLL_CP:,} c.p.) is worth more than this "
        f"{value_cp:,} c.p. hoard, so it is a lesser scroll, good for one casting, and it is "
        "the whole hoard."
    )
    item = Item("scroll", f"Lesser scroll of {spell}", value_cp, description, spell=spell)
    return item, note


def _focus_item(look: _HoardTables, rng: Rng, value_cp: int, level: int) -> tuple[Item | None, str]:
    # FMC Basic, Treasure Hoards: a focus holds energy equal to the site's level.
    energy, note = level, ""
    wanted = FOCUS_CP_PER_ENERGY * level
    description = look.focus_object(rng.child("focus"))
    worth = FOCUS_CP_PER_ENERGY * energy
    if wanted > value_cp:
        energy = value_cp // FOCUS_CP_PER_ENERGY
        worth = FOCUS_CP_PER_ENERGY * energy
        note = (
            f"Rolled an arcane focus holding {level} energy ({wanted:,} c.p.), more than this "
            f"{value_cp:,} c.p. hoard: it is found partly drained, holding {energy}."
        )
        if energy == 0:
            if value_cp < 1:
                return (
                    None,
                    "Rolled an arcane focus, but this hoard is worth nothing: no magic item.",
                )
            # As a lesser scroll does (above), a focus drained dry stands in for the whole hoard.
            worth = value_cp
            description += f" {EMPTY_FOCUS}"
            note = (
                f"Rolled an arcane focus holding {level} energy ({wanted:,} c.p.), more than "
                f"this {value_cp:,} c.p. hoard: it is found drained dry, and it is the whole hoard."
            )
    name = f"Arcane focus ({energy} energy)" if energy else "Arcane focus (empty)"
    item = Item("focus", name, worth, description, energy=energy)
    return item, note


def _valuables(tables: TableSet, look: _HoardTables, rng: Rng, budget: int) -> list[Item]:
    """Distinct valuables worth at most `budget` in all: a handful, sized to the budget."""
    worths = look.worths
    cheapest, dearest = worths[0], worths[-1]
    if budget < cheapest:
        return []
    random = rng.draw()
    wanted = len(str(budget)) + (random() < 0.5)  # as many as its digits: 5,000 -> 4 or 5
    wanted = min(wanted, len(worths))
    used: list[int] = []
    picked: list[tuple[int, int, int]] = []  # (-line worth, index, quantity)
    remaining = budget
    for i in range(wanted):
        if remaining < cheapest:
            break
        target = remaining // (wanted - i)
        if target < cheapest:
            target = remaining
        # Prefer pieces worth between a quarter of the share and the whole share.
        hi = bisect_right(worths, target)
        lo = bisect_left(worths, target >> 2, 0, hi)
        if lo >= hi:
            lo = hi - 3 if hi > 3 else 0
        j = lo + int(random() * (hi - lo))
        if j in used:
            free = [k for k in range(lo, hi) if k not in used]
            if not free:
                free = [k for k in range(hi - 1, -1, -1) if k not in used][:3]
                if not free:
                    break
            j = free[int(random() * len(free))]
        used.append(j)
        worth = worths[j]
        quantity = 1
        # Trade goods come by the lot (3 x old bottle of wine); a one-off piece of art or
        # jewellery comes alone, unless the share is more than the dearest thing on the table.
        if target >= 2 * worth and (look.lots[j] or target > dearest):
            most = min(target // worth, _MAX_QUANTITY)
            quantity = 1 + int(random() * most)
        picked.append((-worth * quantity, j, quantity))
        remaining -= worth * quantity
    picked.sort()
    goods, texts = look.goods, look.texts
    return [
        Item(
            "valuable",
            look.names[j],
            -line,
            texts[j] if texts[j] is not None else _text(tables, look.valuables, goods[j], rng),
            quantity,
        )
        for line, j, quantity in picked
    ]


def _coins(rng: Rng, total: int) -> Coins:
    """Split `total` c.p. into coins: small piles mostly copper, large ones mostly gold,
    rolled on the hoard's own stream, the last of its draws (none when there are no coins)."""
    if total <= 0:
        return Coins()
    size = log10(total)  # 1 for 10 c.p., 3 for 1,000 c.p., 5 for 100,000 c.p.
    gold = min(0.95, max(0.0, 0.35 * size - 0.6 + 0.2 * (rng.random() - 0.5)))
    copper = min(1.0, max(0.03, 1.1 - 0.3 * size + 0.2 * (rng.random() - 0.5)))
    gp = int(total * gold) // 100
    rest = total - 100 * gp
    sp = max(0, int(rest - total * copper)) // 10
    return Coins(cp=rest - 10 * sp, sp=sp, gp=gp)


def roll_hoard(
    tables: TableSet, rng: Rng, value_cp: int, level: int = 1, holder_die: str = "d6"
) -> Hoard:
    """A hoard worth exactly `value_cp` c.p. (see the module notes for how it is filled).

    `level` is the site's level (a focus holds that much energy); `holder_die` is the damage
    die of the monsters who keep the hoard, which a magic weapon takes as its power die.
    """
    _check_whole("hoard value (c.p.)", value_cp, 0, MAX_HOARD_CP)
    _check_whole("level", level, 1, MAX_LEVEL)
    holder_die = check_power_die(holder_die, "holder die")
    look = _hoard_tables(tables)
    # FMC Basic, Treasure Hoards: d6 -- 1 magic weapon, 2 scroll, 3 focus, 4-6 just valuable.
    magic_roll, entry = look.roll_magic(rng)
    key = entry["key"]
    share = int(rng.random() * 6)  # (d6 - 1) x 10 % of the rest is set aside as coins
    item: Item | None = None
    note = ""
    if key == "magic_weapon":
        item, note = _weapon_item(tables, rng, value_cp, holder_die)
    elif key == "scroll":
        item, note = _scroll_item(tables, look, rng, value_cp)
    elif key == "focus":
        item, note = _focus_item(look, rng, value_cp, level)
    rest = value_cp - (item.value_cp if item else 0)
    # The valuables come from the hoard's own stream, after the two rolls above: the magic item
    # has its own child stream, so what it rolled never shifts the valuables.
    goods = _valuables(tables, look, rng, rest - rest * share // 10)
    coins = _coins(rng, rest - sum(i.value_cp for i in goods))
    return Hoard(
        value_cp=value_cp,
        level=level,
        holder_die=holder_die,
        coins=coins,
        items=([item] if item else []) + goods,
        seed=rng.address,
        magic_roll=magic_roll,
        note=note,
    )
