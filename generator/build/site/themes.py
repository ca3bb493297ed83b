"""Site themes: who holds a site, with its roster resolved against the bestiary.

A theme (docs/rooms.md, site/themes) names its roster with roles and eco lines, the places and
builds its rooms are made of, its mood, the details its holders leave everywhere, and, for a
theme named for one creature, its master (with the master's young, where it has them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from generator.build.monsters import bestiary
from generator.build.site.rules import BY, HOARD_WORDS
from generator.engine import needs
from generator.engine.rng import Rng
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.engine.texts import Template, compile_template
from generator.errors import DelveError, TableError
from generator.model.monster import Monster

THEME_TABLE = needs.declare(
    "site/themes",
    BY,
    fields={"key": "str", "name": "str", "roster": "list"},
    check=lambda tables, table: _theme_problems(table),
)
MOOD_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Detail:
    """A telling detail of a room type or a theme: one sentence, an optional tail for the
    room's name ("of the cracked casks"), and the conditions it cannot stand beside."""

    text: Template
    name: str
    not_: frozenset[str]
    promises: bool = False  # its name says treasure: only for a room that holds a hoard


@dataclass(frozen=True)
class RosterMember:
    monster: Monster
    role: str
    eco: str = ""  # one sentence on its place in the site, printed when it is in the site


@dataclass(frozen=True)
class Master:
    """The creature a theme is named for, with its title ("the dragon") and its young."""

    monster: Monster
    title: str
    young: Monster | None = None


@dataclass(frozen=True)
class Theme:
    key: str
    name: str
    roster: tuple[RosterMember, ...]
    places: tuple[str, ...]
    mood: str
    ecosystem: str
    builds: tuple[str, ...] = ()
    master: Master | None = None
    details: tuple[Detail, ...] = ()

    @cached_property
    def kinds(self) -> frozenset[str]:
        """The kinds of the whole roster (what its rooms should suit, whoever is rolled)."""
        return frozenset(m.monster.kind for m in self.roster)

    @cached_property
    def moods(self) -> tuple[str, ...]:
        """The mood's words ("hot, fiery and wealthy" -> hot, fiery, wealthy)."""
        return tuple(w for w in MOOD_WORD.findall(self.mood.lower()) if w != "and")

    @cached_property
    def ruled(self) -> frozenset[str]:
        """Every condition one of its details cannot stand beside."""
        return frozenset(k for d in self.details for k in d.not_)

    @cached_property
    def signature(self) -> tuple[tuple[int, str], ...]:
        """((xp, role), ...) of the roster: what the occupants' options depend on."""
        return tuple((m.monster.xp, m.role) for m in self.roster)


def details_of(value: object, where: str, problems: list[str]) -> tuple[Detail, ...]:
    """A `details` list (room type or theme) read into Details; problems are FILE:LINE lines."""
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append(f"{where}: details must be a list of {{text, name?, not?}}")
        return ()
    out: list[Detail] = []
    for i, item in enumerate(value, start=1):
        text = item.get("text") if isinstance(item, dict) else item
        name = item.get("name", "") if isinstance(item, dict) else ""
        not_ = item.get("not", []) if isinstance(item, dict) else []
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where}: detail {i} needs a 'text' sentence")
            continue
        if not isinstance(name, str) or not isinstance(not_, list):
            problems.append(f"{where}: detail {i}: 'name' must be text and 'not' a list")
            continue
        try:
            tpl = compile_template(text)
        except DelveError as err:
            problems.append(f"{where}: detail {i}: {err}")
            continue
        if tpl.static is None and tpl.refs:
            problems.append(f"{where}: detail {i}: a detail may hold dice, not {{@table}}")
            continue
        name = name.strip()
        not_set = frozenset(str(k) for k in not_)
        out.append(Detail(tpl, name, not_set, bool(HOARD_WORDS.search(name))))
    return tuple(out)


def _theme_problems(table: Table) -> list[str]:
    problems = [
        f"{needs.where(table, e.line)}: key {e['key']!r} must be lower-case letters, digits and "
        "dashes (it is written in site addresses: harrowdeep@theme=KEY)"
        for e in table.entries
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", e["key"])
    ]
    for e in table.entries:  # (details are checked as themes() reads them)
        master = e.get("master")
        if master is not None and not (isinstance(master, dict) and master.get("monster")):
            problems.append(
                f"{needs.where(table, e.line)}: theme '{e['key']}': master must be "
                "{monster: NAME, title: TEXT, young: NAME?}"
            )
    return problems


def _master(e: Entry, beasts: object, members: list[RosterMember], where: str) -> Master | None:
    raw = e.get("master")
    if not isinstance(raw, dict):
        return None
    find = beasts.find  # type: ignore[attr-defined]
    monster = find(str(raw.get("monster", "")))
    if monster is None:
        raise TableError([f"{where}: master names unknown monster {raw.get('monster')!r}"])
    if monster.name not in {m.monster.name for m in members}:
        raise TableError([f"{where}: master {monster.name!r} must be in the roster"])
    young = find(str(raw["young"])) if raw.get("young") else None
    if raw.get("young") and young is None:
        raise TableError([f"{where}: master's young names unknown monster {raw['young']!r}"])
    title = str(raw.get("title") or f"the {monster.name.lower()}")
    return Master(monster, title, young)


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
            eco = item.get("eco", "") if isinstance(item, dict) else ""
            monster = beasts.find(str(name)) if name else None
            if monster is None:
                problems.append(f"{where}: roster names unknown monster {name!r}")
                continue
            members.append(RosterMember(monster, str(role), str(eco or "").strip()))
        if not members:
            continue
        try:
            master = _master(e, beasts, members, where)
        except TableError as err:
            problems += err.problems
            continue
        out[e["key"]] = Theme(
            key=e["key"],
            name=e["name"],
            roster=tuple(members),
            places=tuple(e.get("places") or ()),
            mood=e.get("mood") or "",
            ecosystem=e.result,
            builds=tuple(e.get("builds") or ()),
            master=master,
            details=details_of(e.get("details"), where, problems),
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


def roll_theme(tables: TableSet, rng: Rng) -> Theme:
    rolled = tables.roll("site/themes", rng)
    return themes(tables)[rolled["key"]]


def reinforced(tables: TableSet, theme: Theme) -> Theme:
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
        theme.builds,
        theme.master,
        theme.details,
    )
    tables.derived[key] = result
    return result
