"""Six-room looping sites, stocked by FMC Basic, Site Design.

Per six rooms (one loop, one level of the site): one room of monsters with treasure (the lair),
one of monsters without treasure (the guards), one unoccupied with trapped or hidden treasure,
and three rooms with features. Occupants are worth 1,000 XP x the level (within 10%); the two
hoards are worth exactly 1,000 c.p. x the level between them.

Placement, so the loop plays well (our rule; the text leaves it open):

- Position 0 on each loop is where the party arrives (the entrance on level 1, the foot of the
  way down on deeper levels). It is always a feature room: a stage, never a fight at the door.
- The lair sits opposite, at position 3, so either way round the loop passes two rooms first.
- The guards and the hidden treasure take opposite arms (positions 1-2 and 4-5), so each way
  round meets one of them before the lair.
- Deeper level k is stocked for party level L + k - 1. A way down leaves from a room on the far
  arm of level k and arrives at position 0 of level k+1; sites of 18 rooms or more get a second
  way between each pair of levels, from another room to a room on an arm below, so loops cross
  levels.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from generator import __version__
from generator.build.monsters import bestiary
from generator.build.treasure import roll_hoard
from generator.engine import needs
from generator.engine.rng import Rng
from generator.engine.table import Rolled, Table
from generator.engine.tables import TableSet
from generator.errors import DelveError, TableError
from generator.model.limits import MAX_LEVEL
from generator.model.monster import Monster
from generator.model.site import (
    OBSTACLES,
    ROOM_COUNTS,
    Connection,
    Encounter,
    Feature,
    MonsterGroup,
    Room,
    Site,
    Trap,
)
from generator.plan import plan_site

LOOP = 6
LAIR_POS = 3
ARMS = ((1, 2), (5, 4))  # each read outwards from the arrival room
XP_PER_LEVEL = 1000  # FMC Basic, Site Design: occupants worth 1,000 XP x level
TREASURE_PER_LEVEL = 1000  # ... and treasure worth the same in c.p., split between two hoards
XP_TOLERANCE = 0.10  # "~1,000": we hold the total within 10%
SECOND_WAY_MIN_ROOMS = 18
MAX_HEADS = 20  # more monsters than this in one room stops being a room key
PASSAGE_TABLES = {
    "locked_door": "site/passages/locked-door",
    "hidden_door": "site/passages/hidden-door",
    "long_corridor": "site/passages/long-corridor",
    "none": "site/passages/open",
}
ENCOUNTER_SHARE = 0.15  # a wandering group is worth about a sixth of the level's budget

# What this generator needs of its tables (engine/needs.py; `delve tables check` checks them).
BY = "the site generator"
THEME_TABLE = needs.declare(
    "site/themes",
    BY,
    fields={"key": "str", "name": "str", "roster": "list"},
    check=lambda tables, table: _theme_keys(table),
)
OBSTACLE_TABLE = needs.declare(
    "site/obstacles", BY, fields={"key": "str"}, values={"key": OBSTACLES}
)


def _theme_keys(table: Table) -> list[str]:
    """A theme's key is written in site addresses (harrowdeep@theme=bog-barrow)."""
    return [
        f"{needs.where(table, e.line)}: key {e['key']!r} must be lower-case letters, digits and "
        "dashes (it is written in site addresses: harrowdeep@theme=KEY)"
        for e in table.entries
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", e["key"])
    ]


@dataclass(frozen=True)
class RosterMember:
    monster: Monster
    role: str


@dataclass(frozen=True)
class Theme:
    key: str
    name: str
    roster: tuple[RosterMember, ...]
    places: tuple[str, ...]
    mood: str
    ecosystem: str


# --------------------------------------------------------------------------- themes


def themes(tables: TableSet) -> dict[str, Theme]:
    """Every theme with its roster resolved against the bestiary (checked once per TableSet)."""
    cached = tables.derived.get("themes")
    if cached is not None:
        return cached
    table = needs.require(tables, THEME_TABLE)
    beasts = bestiary(tables)
    problems: list[str] = []
    out: dict[str, Theme] = {}
    for e in table.entries:
        where = f"{table.path}:{e.line}: table 'site/themes': theme '{e['key']}'"
        members: list[RosterMember] = []
        if not e["roster"]:
            problems.append(f"{where}: roster is empty (a site needs inhabitants)")
            continue
        for item in e["roster"]:
            name = item.get("monster") if isinstance(item, dict) else item
            role = item.get("role", "rank") if isinstance(item, dict) else "rank"
            monster = beasts.find(str(name)) if name else None
            if monster is None:
                problems.append(f"{where}: roster names unknown monster {name!r}")
                continue
            members.append(RosterMember(monster, str(role)))
        if members:
            out[e["key"]] = Theme(
                key=e["key"],
                name=e["name"],
                roster=tuple(members),
                places=tuple(e.get("places") or ()),
                mood=e.get("mood") or "",
                ecosystem=e.result,
            )
    if problems:
        raise TableError(problems)
    tables.derived["themes"] = out
    return out


def find_theme(tables: TableSet, name: str) -> Theme:
    all_themes = themes(tables)
    wanted = name.strip().lower()
    for t in all_themes.values():
        if wanted in (t.key.lower(), t.name.lower()):
            return t
    raise DelveError(f"unknown theme '{name}'; themes: {', '.join(sorted(all_themes))}")


# --------------------------------------------------------------------------- monsters


Group = tuple[tuple[int, int], ...]  # (index into the roster, head count)


@lru_cache(maxsize=65536)
def _options(
    roster: tuple[tuple[int, str], ...], target: int, lair: bool, slack: int
) -> tuple[Group, ...]:
    """Compositions of one room's occupants worth `target` XP give or take `slack`.

    `roster` is ((xp, role), ...) so results can be cached. A room holds one kind of monster,
    or leaders (1-4) with followers of another kind no stronger than they are. The lair
    prefers compositions led by a roster 'leader'; the guards prefer everyone else.
    """
    members = list(range(len(roster)))
    leaders = [i for i in members if roster[i][1] == "leader"]
    others = [i for i in members if roster[i][1] != "leader"] or members
    heads = (leaders or members) if lair else others
    xp = [x for x, _ in roster]
    out: list[Group] = []
    seen: set[Group] = set()

    def add(group: Group) -> None:
        total = sum(xp[i] * n for i, n in group)
        count = sum(n for _, n in group)
        if (
            count <= MAX_HEADS
            and abs(total - target) <= target * XP_TOLERANCE
            and group not in seen
        ):
            seen.add(group)
            out.append(group)

    for lead in heads:
        n = round(target / xp[lead])
        for count in (n - 1, n, n + 1):
            if 1 <= count <= MAX_HEADS:
                add(((lead, count),))
        for n_lead in (1, 2, 3, 4):
            rest = target - xp[lead] * n_lead
            if rest <= 0:
                break
            for follower in members:
                if follower == lead or xp[follower] > xp[lead]:
                    continue
                n = round(rest / xp[follower])
                for count in (n - 1, n, n + 1):
                    if 2 <= count <= MAX_HEADS - n_lead:
                        add(((lead, n_lead), (follower, count)))
    return tuple(out)


def compose_occupants(
    theme: Theme, budget: int, rng: Rng
) -> tuple[list[tuple[Monster, int]], list[tuple[Monster, int]]]:
    """Split the level's XP budget between the lair and the guards, within 10% in total.

    The lair takes half to two thirds (it holds the leaders); the guards make up the rest.
    """
    sig = tuple((m.monster.xp, m.role) for m in theme.roster)
    xp = [x for x, _ in sig]

    def worth(group: Group) -> int:
        return sum(xp[j] * n for j, n in group)

    for share in rng.shuffle([0.5, 0.55, 0.6, 0.65]):
        lair_target = round(budget * share / 10) * 10
        slack = round(lair_target * XP_TOLERANCE)
        lair_opts = _options(sig, lair_target, True, slack) or _options(
            sig, lair_target, False, slack
        )
        for i in rng.shuffle(list(range(len(lair_opts)))):
            lair = lair_opts[i]
            rest = budget - worth(lair)
            if rest <= 0:
                continue
            # Guards within 10% of the budget of what the lair left: the site's total then is
            # within 10% of the budget too.
            slack_total = round(budget * XP_TOLERANCE)
            fits = [_options(sig, rest, leaders, slack_total) for leaders in (False, True)]
            guard_opts = fits[0] or fits[1]
            if guard_opts:
                guards = rng.choice(guard_opts)
                return (
                    [(theme.roster[j].monster, n) for j, n in lair],
                    [(theme.roster[j].monster, n) for j, n in guards],
                )
    raise DelveError(
        f"theme '{theme.key}': its roster cannot make {budget:,} XP of occupants within 10%; "
        "give it monsters of more brackets"
    )


def _reinforced(tables: TableSet, theme: Theme) -> Theme:
    """A roster too weak for a deep level draws in greater creatures of its own kind.

    The two strongest-fitting monsters of the bestiary that share the roster's tags and
    outclass its strongest member join as leaders, so a beast den at party level 15 gets a
    beast worthy of it instead of forty bears.
    """
    key = f"reinforced/{theme.key}"
    cached = tables.derived.get(key)
    if cached is not None:
        return cached
    tags = {t for m in theme.roster for t in m.monster.tags}
    top = max(m.monster.xp for m in theme.roster)
    names = {m.monster.name for m in theme.roster}
    extra = sorted(
        (
            m
            for m in bestiary(tables).monsters
            if m.xp > top and m.name not in names and tags & set(m.tags)
        ),
        key=lambda m: (-len(tags & set(m.tags)), m.xp, m.name),
    )[:2]
    result = Theme(
        theme.key,
        theme.name,
        theme.roster + tuple(RosterMember(m, "leader") for m in extra),
        theme.places,
        theme.mood,
        theme.ecosystem,
    )
    tables.derived[key] = result
    return result


# --------------------------------------------------------------------------- pieces


def _feature(rolled: Rolled) -> Feature:
    return Feature(rolled.get("name", ""), rolled.text, rolled.get("use", ""))


def _trap(rolled: Rolled) -> Trap:
    return Trap(
        name=rolled.get("name", ""),
        description=rolled.text,
        trigger=rolled.get("trigger", ""),
        effect=rolled.get("effect", ""),
        find=rolled.get("find", ""),
        avoid=rolled.get("avoid", ""),
        kind=rolled.get("kind", "mechanical"),
        save=rolled.get("save", "dodge"),
    )


class Deck:
    """Deals table entries without repeats within one site (rerolling duplicates), so no two
    rooms or doors of a site read alike while the tables have entries to spare."""

    TRIES = 24

    def __init__(self, tables: TableSet) -> None:
        self.tables = tables
        self.used: dict[str, set[int]] = {}

    def deal(self, table_id: str, rng: Rng, vars: dict[str, str] | None = None) -> Rolled:
        used = self.used.setdefault(table_id, set())
        return self.tables.roll_avoiding(table_id, rng, used, vars, self.TRIES)


def _draw(tables: TableSet, table_id: str, rng: Rng, count: int) -> list[Rolled]:
    """`count` entries, distinct while the table has enough (small user tables still work)."""
    deck = Deck(tables)
    return [deck.deal(table_id, rng) for _ in range(count)]


def _room_types(tables: TableSet, rng: Rng, count: int, places: tuple[str, ...]) -> list[Rolled]:
    """Room types suiting the theme's places first, then any; no repeats while they last."""
    key = f"room-types/{','.join(places)}"
    pool = tables.derived.get(key)
    if pool is None:
        entries = tables.entries("site/room-types")
        fitting = [e for e in entries if not e.tags or "any" in e.tags or set(e.tags) & set(places)]
        pool = tables.derived[key] = (fitting if len(fitting) >= LOOP * 6 else entries, entries)
    fitting, everything = pool
    picked = rng.sample(fitting, min(count, len(fitting)))
    while len(picked) < count:
        picked.append(rng.choice(everything))
    return [Rolled("site/room-types", e, None, e.result) for e in picked]


def _inhabitants(theme: Theme) -> str:
    leaders = [m.monster for m in theme.roster if m.role == "leader"]
    ranks = [m.monster for m in theme.roster if m.role != "leader"]
    if leaders and ranks:
        return f"the {ranks[0].plural} and their {leaders[0].name.lower()} master"
    kinds = leaders or ranks
    return f"the {kinds[0].plural}"


def _history(tables: TableSet, rng: Rng, theme: Theme) -> tuple[dict[str, str], str, str]:
    rolls = {
        k: tables.roll(f"site/history/{k}", rng, {"inhabitants": _inhabitants(theme)})
        for k in ("who", "what", "when", "where", "why", "how")
    }
    h = {k: r.text.strip() for k, r in rolls.items()}
    who = h["who"][:1].upper() + h["who"][1:]
    text = f"{who} {h['what']} {h['when']}, {h['where']}. {h['why']} {h['how']}"
    place = rolls["what"].get("place") or (theme.places[0] if theme.places else "place")
    return h, text, place


def _encounters(tables: TableSet, rng: Rng, theme: Theme, budget: int) -> list[Encounter]:
    """d6 wandering groups drawn from the site's own ecosystem."""
    doings = _draw(tables, "site/encounter-activities", rng, LOOP)
    wanderers = [m for m in theme.roster if m.role != "leader"] or list(theme.roster)
    leaders = [m for m in theme.roster if m.role == "leader"]
    picks = [wanderers[i % len(wanderers)] for i in range(LOOP - 1)]
    rng.shuffle(picks)
    picks.append(leaders[0] if leaders else wanderers[0])  # a 6 brings out the master
    out = []
    for i, member in enumerate(picks, start=1):
        m = member.monster
        n = max(1, round(budget * ENCOUNTER_SHARE / m.xp))
        count = "1" if n == 1 else f"1d{n}+{n // 2}" if n > 2 else "1d2+1"
        out.append(Encounter(i, m.name, count, doings[i - 1].text, m.xp))
    return out


# --------------------------------------------------------------------------- the site


def generate_site(
    tables: TableSet,
    rng: Rng,
    level: int = 1,
    rooms: int = 6,
    theme: str | None = None,
    choose_name: Callable[[Callable[[], str]], str] | None = None,
) -> Site:
    """A stocked site of `rooms` rooms (one loop of six per level) for party level `level`.

    `choose_name`, given a function that rolls a name (the site's own first, then others),
    picks the name: a region uses it so no word ends up in too many of its names."""
    if not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise DelveError(f"--level must be 1 to {MAX_LEVEL}, not {level}")
    if rooms not in ROOM_COUNTS:
        raise DelveError(f"--rooms must be one of {', '.join(map(str, ROOM_COUNTS))}, not {rooms}")
    # The site's own stream decides the whole-site choices in order; levels, rooms and
    # hoards below get streams of their own so a change in one never reshuffles another.
    th = find_theme(tables, theme) if theme else _roll_theme(tables, rng)
    depths = rooms // LOOP
    history, history_text, place = _history(tables, rng.child("history"), th)
    name = tables.roll("site/name-patterns", rng, {"place": place.title()}).text
    if choose_name is not None:
        # Names rolled again take a stream of their own: nothing else in the site moves.
        again, first = rng.child("name"), [name]
        name = choose_name(
            lambda: (
                first.pop()
                if first
                else tables.roll("site/name-patterns", again, {"place": place.title()}).text
            )
        )
    features = _draw(tables, "site/features", rng, 3 * depths)
    types = _room_types(tables, rng, rooms, th.places)
    activities = _draw(tables, "site/activities", rng, 2 * depths)
    deck = Deck(tables)
    used: dict[str, Monster] = {}
    all_rooms: list[Room] = []
    connections: list[Connection] = []
    for depth in range(1, depths + 1):
        lrng = rng.child(f"level/{depth}")
        party_level = level + depth - 1
        level_rooms = _stock_level(
            deck,
            lrng,
            th,
            depth,
            party_level,
            features[3 * (depth - 1) : 3 * depth],
            types[LOOP * (depth - 1) : LOOP * depth],
            activities[2 * (depth - 1) : 2 * depth],
        )
        for r in level_rooms:
            for g in r.monsters:
                used.setdefault(g.name, bestiary(tables).find(g.name))  # type: ignore[arg-type]
        all_rooms += level_rooms
        connections += _loop_connections(deck, lrng.child("connections"), level_rooms)
    connections += _level_links(deck, rng.child("links"), all_rooms, depths)
    encounters = _encounters(tables, rng.child("encounters"), th, XP_PER_LEVEL * level)
    for e in encounters:
        used.setdefault(e.name, bestiary(tables).find(e.name))  # type: ignore[arg-type]
    site = Site(
        seed=rng.address,
        level=level,
        name=name,
        theme=th.key,
        theme_name=th.name,
        ecosystem=th.ecosystem,
        history=history,
        history_text=history_text,
        rooms=all_rooms,
        connections=connections,
        encounters=encounters,
        bestiary={k: used[k] for k in sorted(used)},
        version=__version__,
    )
    # The floor plan has a stream of its own, so it never moves when a room's contents change.
    plan_site(site, rng.child("plan"))
    return site


def _roll_theme(tables: TableSet, rng: Rng) -> Theme:
    rolled = tables.roll("site/themes", rng)
    return themes(tables)[rolled["key"]]


def _layout(rng: Rng) -> list[str]:
    """Contents by loop position (see the module docstring for why)."""
    contents = ["feature"] * LOOP
    contents[LAIR_POS] = "monsters_with_treasure"
    guard_arm, hidden_arm = ARMS if rng.chance(0.5) else ARMS[::-1]
    contents[rng.choice(guard_arm)] = "monsters"
    contents[rng.choice(hidden_arm)] = "hidden_treasure"
    return contents


def _stock_level(
    deck: Deck,
    rng: Rng,
    theme: Theme,
    depth: int,
    party_level: int,
    features: list[Rolled],
    types: list[Rolled],
    activities: list[Rolled],
) -> list[Room]:
    tables = deck.tables
    contents = _layout(rng)
    budget = XP_PER_LEVEL * party_level
    try:
        lair, guards = compose_occupants(theme, budget, rng)
    except DelveError:
        lair, guards = compose_occupants(_reinforced(tables, theme), budget, rng)
    holder = max((m for m, _ in lair), key=lambda m: m.bracket)
    treasure = TREASURE_PER_LEVEL * party_level
    lair_value = round(treasure * rng.choice((0.5, 0.6, 0.7)))
    rooms: list[Room] = []
    feature_iter = iter(features)
    for pos, what in enumerate(contents):
        rid = LOOP * (depth - 1) + pos + 1
        # Room rolls come from the level's stream; each hoard gets a stream of its own at
        # <level>/room/N/hoard, so `delve hoard --seed` can reproduce it.
        rrng = rng
        room_address = f"{rng.address}/room/{pos + 1}"
        kind = types[pos]
        room = Room(
            id=rid,
            name=kind.get("name", "Room"),
            level=depth,
            contents=what,
            description=kind.text,
            size=kind.get("size", ""),
            sound=deck.deal("site/room-sounds", rrng).text,
            smell=deck.deal("site/room-smells", rrng).text,
            light=deck.deal("site/room-lights", rrng).text,
            entrance=depth == 1 and pos == 0,
            seed=room_address,
            shape=kind.get("shape", "rect"),
        )
        if what == "feature":
            room.feature = _feature(next(feature_iter))
        elif what == "monsters_with_treasure":
            room.monsters = [MonsterGroup(m.name, n, m.xp, activities[0].text) for m, n in lair]
            # FMC Basic, Treasure Hoards: a magic weapon's power die is its holders' damage die.
            room.hoard = roll_hoard(
                tables, rng.child(f"room/{pos + 1}/hoard"), lair_value, party_level, holder.damage
            )
            room.hoard_place = deck.deal("site/hoard-places", rrng).text
        elif what == "monsters":
            room.monsters = [MonsterGroup(m.name, n, m.xp, activities[1].text) for m, n in guards]
        else:
            # The hidden hoard was stashed by the site's masters: their die sets its weapon.
            room.hoard = roll_hoard(
                tables,
                rng.child(f"room/{pos + 1}/hoard"),
                treasure - lair_value,
                party_level,
                holder.damage,
            )
            if rrng.chance(0.5):
                room.trap = _trap(deck.deal("site/traps", rrng))
                room.hoard_place = deck.deal("site/trapped-hoards", rrng).text
            else:
                hiding = deck.deal("site/hiding-places", rrng)
                room.hoard_place = f"{hiding.text} To find it: {hiding.get('find', '')}".strip()
        rooms.append(room)
    return rooms


def _connection(deck: Deck, rng: Rng, a: int, b: int) -> Connection:
    tables = deck.tables
    needs.require(tables, OBSTACLE_TABLE)
    key = tables.roll("site/obstacles", rng)["key"]
    look = deck.deal(PASSAGE_TABLES[key], rng)
    return Connection(a, b, key, look.text, look.get("pass", ""))


def _loop_connections(deck: Deck, rng: Rng, rooms: list[Room]) -> list[Connection]:
    """Six connections round the loop, each rolled on site/obstacles (FMC Basic, Site Design)."""
    return [_connection(deck, rng, rooms[i].id, rooms[(i + 1) % LOOP].id) for i in range(LOOP)]


def _level_links(deck: Deck, rng: Rng, rooms: list[Room], depths: int) -> list[Connection]:
    links: list[Connection] = []
    for depth in range(1, depths):
        lrng = rng.child(f"{depth}")
        upper = rooms[LOOP * (depth - 1) : LOOP * depth]
        lower = rooms[LOOP * depth : LOOP * (depth + 1)]
        # The way down leaves from the far side of the loop (the arms' outer rooms), not the lair.
        down_from = lrng.choice([upper[2], upper[4]])
        links.append(_link(deck, lrng.child("main"), down_from.id, lower[0].id))
        if len(rooms) >= SECOND_WAY_MIN_ROOMS:
            starts = [
                r
                for r in upper
                if r.id != down_from.id
                and r.contents != "monsters_with_treasure"
                and r is not upper[0]
            ]
            ends = [lower[i] for i in (1, 2, 4, 5)]
            links.append(
                _link(deck, lrng.child("second"), lrng.choice(starts).id, lrng.choice(ends).id)
            )
    return links


def _link(deck: Deck, rng: Rng, a: int, b: int) -> Connection:
    rolled = deck.deal("site/level-links", rng)
    return Connection(
        a,
        b,
        "none",
        rolled.text,
        rolled.get("pass", ""),
        kind=rolled.get("kind", "stairs"),
        levels=True,
    )
