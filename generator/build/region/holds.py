"""Factions and their holds: where each faction lives, who leads it, who stands with them.

FMC Basic, Region Design asks what local factions exist and how they relate; Hex Stocking gives
lairs of 500 x d6 XP in monsters and as much in treasure. Our rules, so that a faction's base
holds the faction:

- **Two to four factions**, distinct archetypes of ``region/factions``, are placed before any
  hex is stocked, on hexes whose first stocking roll is a lair (in a random order); when there
  are fewer of those than factions, a faction camps at a landmark (the hex keeps its landmark).
  A faction is never based in a haven, nor in an adventure site.
- **Its base is its hold**: a one-room lair (no form die: it is the faction's own) whose budget
  is 500 x d6, the d6 rolled when the faction is placed. It holds the faction's leader and at
  least two of its members, within 10% of the budget (at most 16 members), and a hoard worth
  the budget, as every one-room lair does.
- **The leader's stat block** is the archetype's ``boss`` monster when it names one (the
  necromancer of a household of skeletons is no skeleton); otherwise one of the members raised
  to a higher bracket (FMC Basic, Monster Types: lieutenants and bosses lead), one the budget
  can pay for, named by the leader's title ("Warden of the Scales"). An archetype whose hold
  the d6 cannot pay for (a deathless magus and two skeletons need 2,000 XP; three bog hags
  3,000) does not settle in this region: the next archetype is drawn.
- The faction, its leader's stat block, the budget and the base follow the hexes' first rolls
  and the factions' own stream, so re-rolling a base hex stocks the hold anew (its den, how
  many members, its hoard) and changes nothing else; the hex keeps its stocking.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.build.monsters import bestiary, brackets, rule_xp
from generator.build.region.names import NameBook, person
from generator.build.region.rules import FACTIONS, LAIR_UNIT, MAX_GROUP, XP_TOLERANCE
from generator.build.site.activities import group_doings
from generator.build.treasure import roll_hoard
from generator.engine import words
from generator.engine.hexes import Grid
from generator.engine.rng import Rng
from generator.engine.table import Rolled
from generator.engine.tables import TableSet
from generator.model.faction import Faction, Leader
from generator.model.hex import Lair
from generator.model.monster import Monster
from generator.model.site import MonsterGroup

# What a camp at a landmark looks like (the landmark itself is described with the hex).
CAMP = "{faction} have made camp here, and keep a watch on every way in."
MIN_MEMBERS = 2  # a leader and at least two of its members: a following, not a pair
TOP_BRACKET = 5


@dataclass(frozen=True)
class Hold:
    """What a faction's base hex is stocked with, decided when the faction is placed."""

    faction: str  # its key
    budget_roll: int  # the d6 of 500 x d6
    leader: Monster  # the leader's stat block
    members: Monster
    counts: tuple[int, ...]  # how many members bring the hold within 10% of the budget
    camp: bool  # camped at a landmark rather than in a lair hex

    @property
    def budget(self) -> int:
        return LAIR_UNIT * self.budget_roll


def _counts(leader: Monster, members: Monster, budget: int) -> tuple[int, ...]:
    slack = budget * XP_TOLERANCE
    return tuple(
        n
        for n in range(MIN_MEMBERS, MAX_GROUP + 1)
        if abs(leader.xp + n * members.xp - budget) <= slack
    )


def _title_name(title: str) -> str:
    """'the Captain of the Road' -> 'Captain of the Road'."""
    text = title.strip()
    if text.lower().startswith("the "):
        text = text[4:]
    return words.capital(text)


def promoted(tables: TableSet, members: Monster, bracket: int, name: str, leads: str) -> Monster:
    """One of the members raised to `bracket` (FMC Basic, Monster Types: a bracket fixes hit
    points, attack and damage die; XP follows the defense and formidable rule)."""
    b = brackets(tables)[bracket]
    return replace(
        members,
        name=name,
        plural=words.plural(name),
        bracket=b.number,
        xp=rule_xp(b, members.dc, members.formidable),
        hp=b.hp,
        attack=b.attack,
        damage=b.damage,
        hit_dice=b.hit_dice,
        description=(
            f"Leader of {leads}: {words.with_article(members.name.lower())} grown harder and "
            f"cannier than the rest, with {words.with_article(b.name.lower())}'s strength. "
            f"{members.description}"
        ).strip(),
    )


def leader_options(
    tables: TableSet, rolled: Rolled, members: Monster, budget: int, name: str, leads: str
) -> list[tuple[Monster, tuple[int, ...]]]:
    """Every leader stat block a hold of `budget` can pay for, with the member counts."""
    boss_name = rolled.get("boss")
    if boss_name:
        boss = bestiary(tables).find(str(boss_name))
        assert boss is not None  # checked with the tables
        counts = _counts(boss, members, budget)
        return [(boss, counts)] if counts else []
    out = []
    for bracket in range(min(members.bracket + 1, TOP_BRACKET), TOP_BRACKET + 1):
        leader = promoted(tables, members, bracket, name, leads)
        counts = _counts(leader, members, budget)
        if counts:
            out.append((leader, counts))
    return out


def _leader_name(tables: TableSet, title: str, taken: set[str], faction: str) -> str:
    """The leader's stat block is named by the title, unless a monster already has that name."""
    name = _title_name(title) or "Leader"
    if bestiary(tables).find(name) is not None or name.lower() in taken:
        name = f"{name} of {faction}"
    return name


def place_factions(
    tables: TableSet, grid: Grid, first: list[str], rng: Rng, book: NameBook
) -> tuple[list[Faction], dict[int, Hold]]:
    """The region's factions, each with its base hex and what its hold holds."""
    archetypes = tables.entries("region/factions")
    count = min(FACTIONS[0] + int(rng.random() * (FACTIONS[1] - FACTIONS[0] + 1)), len(archetypes))
    order = tables.draw("region/factions", rng.child("archetypes"), len(archetypes))
    brng = rng.child("bases")
    lairs = brng.shuffle([i for i in range(len(grid)) if first[i] == "lair"])
    marks = brng.shuffle([i for i in range(len(grid)) if first[i] == "landmark"])
    places = [(i, False) for i in lairs] + [(i, True) for i in marks]
    beasts = bestiary(tables)
    out: list[Faction] = []
    holds: dict[int, Hold] = {}
    taken: set[str] = set()
    for rolled in order:
        if len(out) >= count or not places:
            break
        key = rolled["key"]
        frng = rng.child(key)
        members = beasts.find(rolled["members"])
        assert members is not None  # checked with the tables
        hrng = frng.child("hold")
        budget_roll = hrng.die(6)
        book.owner = f"faction/{key}"
        name = book.choose(lambda r=rolled, n=frng.child("name"): tables.render_field(r, "name", n))
        title = str(rolled["leader"])
        options = leader_options(
            tables,
            rolled,
            members,
            LAIR_UNIT * budget_roll,
            _leader_name(tables, title, taken, name),
            _lower_the(name),
        )
        if not options:
            book.forget(book.owner)
            continue
        leader, counts = hrng.choice(options)
        taken.add(leader.name.lower())
        base, camp = places.pop(0)
        holds[base] = Hold(key, budget_roll, leader, members, counts, camp)
        out.append(
            Faction(
                key=key,
                name=name,
                description=rolled.text,
                goal=tables.render_field(rolled, "goal", frng),
                leader=Leader(person(tables, frng.child("leader")), title, monster=leader.name),
                base=grid.labels[base],
                members=members.name,
                relations={},
                seed=frng.address,
            )
        )
    for a_i, a in enumerate(out):
        for b in out[a_i + 1 :]:
            rel = tables.roll("region/faction-relations", rng.child(f"relations/{a.key}/{b.key}"))
            a.relations[b.key] = rel["key"]
            b.relations[a.key] = rel["key"]
    for fa in out:
        fa.relations = {k: fa.relations[k] for k in sorted(fa.relations)}
    return out, holds


def _lower_the(name: str) -> str:
    """'The Brothers of the Ash' as it reads mid-sentence: 'the Brothers of the Ash'."""
    return "the" + name[3:] if name.startswith("The ") else name


def stock_hold(
    tables: TableSet,
    hold: Hold,
    faction: Faction,
    level: int,
    rng: Rng,
    den: tuple[str, str],
) -> Lair:
    """The faction's hold: a one-room lair of its leader and members, with its hoard.

    `den` is the landmark it stands at (name, description): one dealt for it in a lair hex, the
    hex's own for a camp (whose description then says who camps there: the hex describes the
    landmark already)."""
    n = rng.choice(hold.counts)
    leader, members = hold.leader, hold.members
    # By each group's kind and head count: the leader alone, its members together.
    doing, busy = group_doings(tables, rng, [(leader, 1), (members, n)])
    groups = [
        MonsterGroup(leader.name, 1, leader.xp, doing),
        MonsterGroup(members.name, n, members.xp, busy),
    ]
    holder = max((leader, members), key=lambda m: (m.bracket, m.xp))
    # FMC Basic, Treasure Hoards: a magic weapon's power die is its holders' damage die.
    hoard = roll_hoard(tables, rng.child("hoard"), hold.budget, level, holder.damage)
    where = "camp" if hold.camp else "hold"
    return Lair(
        form="room",
        form_roll=0,
        seed=rng.address,
        name=f"{den[0]}, {where} of {_lower_the(faction.name)}",
        description=CAMP.format(faction=faction.name) if hold.camp else den[1],
        xp_budget=hold.budget,
        budget_roll=hold.budget_roll,
        monsters=groups,
        hoard=hoard,
        hoard_place=tables.roll("site/hoard-places", rng).text,
        bestiary={m.name: m for m in sorted((leader, members), key=lambda m: m.name)},
        faction=faction.key,
    )
