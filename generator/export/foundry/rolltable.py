"""Roll tables: a site's wandering monsters and a region's encounter tables, and the dice
formulas Foundry reads.

Foundry's dice grammar is not ours: ``x`` there explodes a die, where ours multiplies, and it has
no d66. :func:`foundry_formula` writes a formula of ours in Foundry's words when the two mean the
same roll, and says None when they cannot (a ``/`` that rounds down), so the caller rolls it
instead.
"""

from __future__ import annotations

import re

from generator.engine.dice import parse
from generator.errors import DiceError
from generator.export.foundry.docs import page_uuid, roll_table, table_result
from generator.export.links import escape_html
from generator.model.region import Region
from generator.model.site import Site
from generator.systems import System

_DIE = re.compile(r"(\d*)d(66|%|\d+)")


def foundry_formula(text: str) -> str | None:
    """Our dice formula in Foundry's syntax, or None if Foundry cannot roll the same thing."""
    try:
        parse(text)
    except DiceError:
        return None
    formula = re.sub(r"\s+", "", text.lower()).replace("×", "*").replace("x", "*")
    if "/" in formula:
        return None  # ours rounds down; Foundry's division does not

    def die(m: re.Match[str]) -> str:
        count, sides = m.group(1) or "1", m.group(2)
        if sides == "66":  # tens die then units die: 11-66, as (1d6*10+1d6)
            return "+".join(["(1d6*10+1d6)"] * int(count))
        return f"{count}d{100 if sides == '%' else sides}"

    return _DIE.sub(die, formula)


def inline_roll(count: str) -> str:
    """'1d4+2' as an inline roll Foundry rolls when the draw is shown; '1' as it is."""
    if count.strip().isdigit():
        return count.strip()
    formula = foundry_formula(count)
    return f"[[{formula}]]" if formula else escape_html(count)


def monster_link(journal_id: str, page: str | None, who: str) -> str:
    """The monsters' words as a link to their stat block, or as escaped text without one (a
    hand-edited document's encounter may name a monster it has no stat block for)."""
    if page is None:
        return escape_html(who)
    return f"@UUID[{page_uuid(journal_id, page)}]{{{escape_html(who)}}}"


def site_encounters(
    site: Site, system: System, journal_id: str, monster_pages: dict[str, str]
) -> dict:
    """The site's d6 wandering monster table; each result links the monster's stat block."""
    from generator.render.site_key import check_rule, plural

    results = []
    for e in site.encounters:
        one = e.count == "1"
        who = e.name if one else plural(site, e.name, 2)
        link = monster_link(journal_id, monster_pages.get(e.name), who)
        doing = escape_html(e.doing)  # written for its count by the tables
        description = f"<p>{inline_roll(e.count)} {link}: {doing}.</p>"
        results.append(
            table_result(
                f"{site.seed}/encounters/{e.roll}",
                f"{who} ({e.count})",
                e.roll,
                e.roll,
                description,
            )
        )
    return roll_table(
        f"site/{site.seed}/encounters",
        f"{site.name}: random encounters",
        "1d6",
        results,
        f"<p>{escape_html(check_rule(system))}</p>",
        kind="site-encounters",
        seed=site.seed,
    )


def region_encounters(region: Region, journal_id: str, monster_pages: dict[str, str]) -> list[dict]:
    """One table per biome, each result with its monsters, what they are doing, the pre-rolled
    reaction and the faction they serve."""
    out = []
    for table in region.encounters:
        results = []
        for e in table.entries:
            m = region.bestiary.get(e.monster)
            who = m.plural if m else e.monster
            link = monster_link(journal_id, monster_pages.get(e.monster), who)
            parts = [f"{inline_roll(e.count)} {link}: {escape_html(e.doing)}."]
            if e.description:
                parts.append(escape_html(e.description))
            if e.faction:
                try:
                    parts.append(escape_html(f"They belong to {region.faction(e.faction).name}."))
                except KeyError:
                    pass
            parts.append(escape_html(f"Reaction, if there is no time to roll: {e.reaction}."))
            results.append(
                table_result(
                    f"{region.seed}/encounters/{table.terrain}/{e.roll}",
                    f"{who} ({e.count})",
                    e.roll,
                    e.roll,
                    "<p>" + " ".join(parts) + "</p>",
                )
            )
        out.append(
            roll_table(
                f"region/{region.seed}/encounters/{table.terrain}",
                f"{region.name}: {table.name}",
                foundry_formula(table.die) or "1d6",
                results,
                kind="region-encounters",
                seed=region.seed,
                terrain=table.terrain,
            )
        )
    return out
