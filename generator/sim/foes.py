"""Monsters as a fight sees them: numbers from the stat block, specials read from their text.

FMC Basic, Monster Types: hit points, defense, attack bonus and damage die by bracket, and a
bonus above +1 may be split between attacks. A special ability counts in the fight when
`systems/specials` sorts it into a kind whose numbers the text gives (docs/danger.md):

- energy_drain: a hit also lowers maximum hit points by half the damage (Example Monsters, †).
- breath / cloud / blast: once per hour (once a fight) its damage die against every character,
  instead of attacking that round (Example Monsters, *: it counts as casting a spell).
- hold: as a blast, and each character caught tempts fate or loses its next turn.
- sweep / engulf: each round, one attack at its full bonus against every character in reach
  (engulf: those hit tempt fate or lose their next turn).
- regeneration: cures N points each round while standing (Example Monsters, ‡).
- petrify: each character facing it tempts fate once or is turned to stone (§).
- curse: once a fight, one character tempts fate or loses half its maximum hit points.

Anything else (poison has no numbers in FMC Basic: its damage is the die) is fought as a plain
attack and listed in the estimate's notes ("poison (Giant Spider)"), which every booklet prints
beside the figures, so a referee knows what they leave out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.engine import needs
from generator.engine.dice import parse
from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.monster import Monster
from generator.sim.rules import mindless

_DIE = re.compile(r"^\s*1?d(\d+)\s*$", re.I)
_CURES = re.compile(r"cures?\s+(\d+)\s+points?", re.I)
AREA_KINDS = ("breath", "cloud", "blast", "hold")
SIMULATED = {
    "energy_drain",
    "breath",
    "cloud",
    "blast",
    "hold",
    "sweep",
    "engulf",
    "regeneration",
    "petrify",
    "curse",
}
BIG_BRACKET = 4  # FMC Basic, Skirmishes: "a big monster" (our reading: lieutenants and bosses)
MAX_FOES = 60  # figures in one simulated fight


class FoeError(DelveError):
    """A stat block a fight cannot use; `field` names the bad field, so a document's error can
    give its JSON path."""

    def __init__(self, monster: str, field: str, reason: str) -> None:
        super().__init__(f"{monster}: {reason}")
        self.monster, self.field, self.reason = monster, field, reason


@dataclass(frozen=True)
class FoeKind:
    name: str
    hp: int
    dc: int
    attack: int
    damage: int  # die sides
    hit_dice: float
    bracket: int
    xp: int
    shield: bool
    resist: frozenset[str]
    armor: str = ""  # worn armour, if any ((Fortmayn): worn armour never makes a foe evasive)
    drain: bool = False
    regen: int = 0
    area: str = ""  # one of AREA_KINDS, used once a fight
    sweep: bool = False
    engulf: bool = False
    petrify: bool = False
    curse: bool = False
    mindless: bool = False
    intelligent: bool = False  # FMC Basic, Captivate: "an intelligent individual"
    notes: tuple[str, ...] = ()  # specials the fight leaves out, in words

    @property
    def big(self) -> bool:
        return self.bracket >= BIG_BRACKET

    @property
    def attacks(self) -> tuple[int, ...]:
        """FMC Basic, Monster Types: a bonus above +1 split into +1 attacks (docs/danger.md:
        k attacks at +1 land more hits on average than one at +k against any defense)."""
        if self.attack > 1:
            return (1,) * self.attack
        return (self.attack,)


def die_sides(text: str, what: str) -> int:
    m = _DIE.match(text)
    if not m or int(m.group(1)) < 2 or int(m.group(1)) > 100:
        raise FoeError(what, "damage", f"must be one die such as d8 for a fight, not {text!r}")
    return int(m.group(1))


def _damage_problems(tables: TableSet, table: Table) -> list[str]:
    """A bracket's (or a monster's own) damage is one die, as die_sides() reads it."""
    out = []
    for e in table.entries:
        if e.get("damage") is not None:
            try:
                die_sides(str(e["damage"]), str(e.get("name") or e.get("bracket")))
            except DelveError as err:
                out.append(f"{needs.where(table, e.line)}: {err}")
    return out


# `delve tables check` runs this on the monster tables (engine/needs.py).
DAMAGE = needs.declare("monsters/*", "the combat simulation", check=_damage_problems)


def foe_kind(tables: TableSet, monster: Monster) -> FoeKind:
    """The fight's view of a monster, its specials sorted by `systems/specials`."""
    from generator.systems.specials import classify

    kinds, _by_text = classify(tables, monster)
    tags, names = mindless(tables)
    text = monster.special
    notes = []
    # A net or a song that holds is a burst that also holds (Web Mother, Wreck Siren): the
    # sorting gives both kinds, and the hold is the one that says more.
    area = "hold" if "hold" in kinds else next((k for k in kinds if k in AREA_KINDS), "")
    regen = 0
    if "regeneration" in kinds:
        m = _CURES.search(text)
        regen = int(m.group(1)) if m else 1
    # What the fight leaves out, as "what (who)": the booklets print "Not simulated: poison
    # (Giant Spider)" in full and "not simulated: poison" where room is short.
    for k in kinds:
        if k not in SIMULATED:
            notes.append(f"{k.replace('_', ' ')} ({monster.name})")
    if text and not kinds:
        notes.append(f"its special ability ({monster.name})")
    thoughtless = bool(tags & set(monster.tags)) or monster.name.lower() in names
    if monster.hp < 1 or monster.hp > 10_000:
        raise FoeError(
            monster.name, "hp", f"hit points must be 1 to 10,000 for a fight, not {monster.hp}"
        )
    return FoeKind(
        name=monster.name,
        hp=monster.hp,
        dc=monster.dc,
        attack=max(0, min(monster.attack, 30)),
        damage=die_sides(monster.damage, monster.name),
        hit_dice=monster.hit_dice,
        bracket=monster.bracket,
        xp=monster.xp,
        shield=monster.shield,
        resist=frozenset(monster.resist),
        armor=monster.armor or "",
        drain="energy_drain" in kinds,
        regen=regen,
        area=area,
        sweep="sweep" in kinds,
        engulf="engulf" in kinds,
        petrify="petrify" in kinds,
        curse="curse" in kinds,
        mindless=thoughtless,
        # Our reading: beasts and vermin are not "intelligent" for Captivate; thinkers are.
        intelligent=not thoughtless and not {"beast", "vermin"} & set(monster.tags),
        notes=tuple(notes),
    )


@dataclass(frozen=True)
class FoeGroup:
    """So many of one kind: a fixed count, or a dice formula rolled afresh each trial."""

    kind: FoeKind
    count: str  # "6" or "1d4+2"

    @property
    def most(self) -> int:
        return parse(self.count).max

    def distribution(self) -> list[tuple[int, float]]:
        """(count, probability) over the formula's outcomes, none below 1."""
        dist = parse(self.count).distribution()
        out: dict[int, float] = {}
        for value, p in dist.items():
            out[max(1, value)] = out.get(max(1, value), 0.0) + float(p)
        return sorted(out.items())


def check_groups(groups: list[FoeGroup]) -> None:
    if not groups:
        raise DelveError("a fight needs at least one foe")
    total = sum(g.most for g in groups)
    if total > MAX_FOES:
        raise DelveError(f"at most {MAX_FOES} foes in one fight, not {total}")


def leader_index(groups: list[FoeGroup]) -> int:
    """FMC Basic, Skirmishes: "loses its leader". Our reading: a side of more than one kind is
    led by the first figure of its strongest kind (most XP); a side of one kind has no leader
    apart from its number. Returns the figure's index, or -1."""
    if len({g.kind.name for g in groups}) < 2:
        return -1
    best = max(range(len(groups)), key=lambda i: (groups[i].kind.xp, -i))
    return sum(g.most for g in groups[:best])
