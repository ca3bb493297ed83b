"""Site themes: who holds a site, with its roster resolved against the bestiary."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.build.monsters import bestiary
from generator.build.site.rules import BY
from generator.engine import needs
from generator.engine.rng import Rng
from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.errors import DelveError, TableError
from generator.model.monster import Monster

THEME_TABLE = needs.declare(
    "site/themes",
    BY,
    fields={"key": "str", "name": "str", "roster": "list"},
    check=lambda tables, table: _theme_keys(table),
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
    )
    tables.derived[key] = result
    return result
