"""Treasure in the model: hoards, their items and coins, and magic weapons.

Every worth is in copper pieces (c.p.), which is also experience: FMC Basic, Treasure Hoards,
"1 copper piece is worth 1 experience, 1 silver is worth 10, 1 gold is worth 100". A hoard's
coins plus its items add up to its ``value_cp`` exactly; :meth:`Hoard.from_dict` checks that, so
an edited JSON document that no longer adds up is reported rather than printed.

An item's ``value_cp`` is the worth of the whole line (``3 x old bottle of wine`` at 100 c.p.
each is 300 c.p.).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.errors import DocumentError
from generator.model import doc

POWER_DICE = ("d4", "d6", "d8", "d10", "d12")
"""FMC Basic, Monster Types: the damage dice of the five brackets, mook to boss."""

ITEM_KINDS = ("magic_weapon", "scroll", "focus", "valuable")
MAGIC_KINDS = ("magic_weapon", "scroll", "focus")
FORMS = ("smashing", "slashing", "stabbing")
COINS_PER_SLOT = 100  # FMC Basic, Equipment: 1 slot fits up to 100 pieces of any currency


def _slots(n: int) -> int:
    return -(-n // COINS_PER_SLOT)


def _count(obj: Any, key: str, path: str, default: Any = ...) -> int:
    """A whole number that cannot be negative."""
    value = doc.field(obj, key, int, path, default)
    if value is not None and value < 0:
        raise DocumentError(f"{path}.{key}: must not be negative, not {value}")
    return value


@dataclass
class MagicWeapon:
    """FMC Basic, Magic Weapons: a form, a power die, the powers it rolled and its bonus."""

    name: str
    description: str
    power_die: str  # "d4" .. "d12": the damage die of the monsters who held it
    level: int  # number of dice rolled for powers: d4 1 .. d12 5
    form: str  # smashing, slashing or stabbing
    hands: int  # 1 or 2
    powers: list[str] = field(default_factory=list)  # distinct power names
    power_effects: list[str] = field(default_factory=list)  # one per power, same order
    bonus: int = 0  # to attack and damage: level minus number of powers
    value_cp: int = 0  # as many g.p. as the power die's maximum
    seed: str = ""

    @property
    def slots(self) -> int:
        # FMC Basic, Combat: two-handed weapons occupy 2 slots.
        return 2 if self.hands == 2 else 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "power_die": self.power_die,
            "level": self.level,
            "form": self.form,
            "hands": self.hands,
            "powers": list(self.powers),
            "power_effects": list(self.power_effects),
            "bonus": self.bonus,
            "value_cp": self.value_cp,
            "slots": self.slots,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str = "weapon") -> MagicWeapon:
        f = doc.field
        hands = f(data, "hands", int, path)
        if hands not in (1, 2):
            raise DocumentError(f"{path}.hands: must be 1 or 2, not {hands!r}")
        level = _count(data, "level", path)
        if level < 1:
            raise DocumentError(f"{path}.level: must be at least 1, not {level}")
        powers = doc.strings(data, "powers", path)
        effects = doc.strings(data, "power_effects", path) if "power_effects" in data else []
        if effects and len(effects) != len(powers):
            raise DocumentError(
                f"{path}.power_effects: must have one effect per power "
                f"({len(powers)}), not {len(effects)}"
            )
        return cls(
            name=f(data, "name", str, path),
            description=f(data, "description", str, path, ""),
            power_die=doc.one_of(data, "power_die", POWER_DICE, path),
            level=level,
            form=doc.one_of(data, "form", FORMS, path),
            hands=hands,
            powers=powers,
            power_effects=effects,
            bonus=_count(data, "bonus", path),
            value_cp=_count(data, "value_cp", path),
            seed=f(data, "seed", str, path, ""),
        )


@dataclass
class Item:
    """One line of a hoard: a magic item, or a valuable (perhaps several of the same)."""

    kind: str  # magic_weapon | scroll | focus | valuable
    name: str
    value_cp: int  # the whole line: quantity x the worth of one
    description: str = ""
    quantity: int = 1
    weapon: MagicWeapon | None = None  # kind magic_weapon
    spell: str | None = None  # kind scroll: the spell's name
    energy: int | None = None  # kind focus: the energy it holds

    @property
    def magic(self) -> bool:
        return self.kind in MAGIC_KINDS

    @property
    def unit_cp(self) -> int:
        return self.value_cp // self.quantity

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "value_cp": self.value_cp,
            "quantity": self.quantity,
            "description": self.description,
            "weapon": self.weapon.to_dict() if self.weapon is not None else None,
            "spell": self.spell,
            "energy": self.energy,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str = "item") -> Item:
        f = doc.field
        kind = doc.one_of(data, "kind", ITEM_KINDS, path)
        quantity = _count(data, "quantity", path, 1)
        if quantity < 1:
            raise DocumentError(f"{path}.quantity: must be at least 1, not {quantity}")
        weapon_data = f(data, "weapon", dict, path, None)
        weapon = (
            MagicWeapon.from_dict(weapon_data, f"{path}.weapon")
            if weapon_data is not None
            else None
        )
        if kind == "magic_weapon" and weapon is None:
            raise DocumentError(f"{path}.weapon: a magic_weapon item needs its weapon")
        spell = f(data, "spell", str, path, None)
        if kind == "scroll" and spell is None:
            raise DocumentError(f"{path}.spell: a scroll needs the name of its spell")
        energy = _count(data, "energy", path, None)
        if kind == "focus" and energy is None:
            raise DocumentError(f"{path}.energy: a focus needs the energy it holds")
        return cls(
            kind=kind,
            name=f(data, "name", str, path),
            value_cp=_count(data, "value_cp", path),
            description=f(data, "description", str, path, ""),
            quantity=quantity,
            weapon=weapon,
            spell=spell,
            energy=energy,
        )


@dataclass
class Coins:
    """Coins by metal. FMC Basic, Equipment: 10 c.p. = 1 s.p., 10 s.p. = 1 g.p."""

    cp: int = 0
    sp: int = 0
    gp: int = 0

    @property
    def value_cp(self) -> int:
        return self.cp + 10 * self.sp + 100 * self.gp

    @property
    def count(self) -> int:
        return self.cp + self.sp + self.gp

    @property
    def slots(self) -> int:
        # FMC Basic, Equipment: 1 slot fits up to 100 pieces of one currency; metals don't mix.
        return _slots(self.cp) + _slots(self.sp) + _slots(self.gp)

    def to_dict(self) -> dict[str, Any]:
        return {"cp": self.cp, "sp": self.sp, "gp": self.gp}

    @classmethod
    def from_dict(cls, data: Any, path: str = "coins") -> Coins:
        return cls(
            cp=_count(data, "cp", path, 0),
            sp=_count(data, "sp", path, 0),
            gp=_count(data, "gp", path, 0),
        )


@dataclass
class Hoard:
    """A hoard worth exactly ``value_cp``: coins plus items (at most one of them magic)."""

    value_cp: int
    level: int = 1  # the site's level: a focus holds this much energy
    holder_die: str = "d6"  # damage die of the holders: a magic weapon's power die
    coins: Coins = field(default_factory=Coins)
    items: list[Item] = field(default_factory=list)
    seed: str = ""
    magic_roll: int = 0  # the d6 on treasure/magic-item (0: not rolled)
    note: str = ""  # how a magic item that did not fit the value was handled, else ""

    @property
    def magic_cp(self) -> int:
        return sum(i.value_cp for i in self.items if i.magic)

    @property
    def xp_if_sold(self) -> int:
        """Experience if everything is sold: 1 c.p. = 1 XP."""
        return self.value_cp

    @property
    def xp_coins_and_valuables(self) -> int:
        """FMC Basic, Treasure Hoards: magic items give no experience unless sold."""
        return self.value_cp - self.magic_cp

    @property
    def slots(self) -> int:
        """Slots for the coins and any magic weapons (valuables' bulk is the referee's call)."""
        return self.coins.slots + sum(i.weapon.slots for i in self.items if i.weapon)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document; coin_slots, slots and xp figures are derived (ignored on reading)."""
        return {
            "value_cp": self.value_cp,
            "level": self.level,
            "holder_die": self.holder_die,
            "magic_roll": self.magic_roll,
            "coins": self.coins.to_dict(),
            "items": [i.to_dict() for i in self.items],
            "note": self.note,
            "coin_slots": self.coins.slots,
            "slots": self.slots,
            "xp_if_sold": self.xp_if_sold,
            "xp_coins_and_valuables": self.xp_coins_and_valuables,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str = "hoard") -> Hoard:
        f = doc.field
        value = _count(data, "value_cp", path)
        level = _count(data, "level", path, 1)
        if level < 1:
            raise DocumentError(f"{path}.level: must be at least 1, not {level}")
        coins = Coins.from_dict(f(data, "coins", dict, path), f"{path}.coins")
        items = [Item.from_dict(v, p) for p, v in doc.items(data, "items", path)]
        hoard = cls(
            value_cp=value,
            level=level,
            holder_die=doc.one_of(data, "holder_die", POWER_DICE, path)
            if "holder_die" in data
            else "d6",
            coins=coins,
            items=items,
            seed=f(data, "seed", str, path),
            magic_roll=_count(data, "magic_roll", path, 0),
            note=f(data, "note", str, path, ""),
        )
        total = coins.value_cp + sum(i.value_cp for i in items)
        if total != value:
            raise DocumentError(
                f"{path}.value_cp: is {value:,} but coins and items add up to {total:,} "
                "(change one so they agree)"
            )
        return hoard
