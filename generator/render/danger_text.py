"""Danger estimates in words: the one line every room, encounter and lair prints, and the
fuller report of `delve sim`. Renderers never simulate: the figures come with the model."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from generator.engine.words import capital, join, noun

if TYPE_CHECKING:
    from generator.model.danger import Danger, Route
    from generator.systems import System

RULES_NAMES = {"fmc": "FMC Basic", "fortmayn": "(Fortmayn)"}


def percent(p: float) -> str:
    """71%; '<1%' and '>99%' rather than a 0% or 100% the trials cannot promise."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p >= 0.995:
        return ">99%"
    return f"{round(p * 100)}%"


def short(d: Danger) -> str:
    """'hard, win 71%, someone drops 38%' (and 'all drop 5%' when the party may be wiped)."""
    return f"{d.verdict}{tail(d)}"


def tail(d: Danger) -> str:
    """What follows the verdict word: ', win 71%, someone drops 38%, all drop 5%'."""
    text = f", win {percent(d.win)}, someone drops {percent(d.drop)}"
    if d.wiped >= 0.005:
        text += f", all drop {percent(d.wiped)}"
    return text


def rules_name(key: str) -> str:
    return RULES_NAMES.get(key, key)


def under(d: Danger, system: System | None) -> str:
    """' (FMC Basic's rules)' when the booklet speaks another system, else ''."""
    if system is None or system.key == d.rules:
        return ""
    return f" ({rules_name(d.rules)}'s rules)"


_WHOSE = re.compile(r"^(.*?)\s*\(([^()]*)\)$")  # 'poison (Giant Spider)': what, and whose


def _by_kind(notes: list[str]) -> dict[str, list[str]]:
    """Notes grouped by what is left out: {'poison': ['Giant Spider', 'Tunnel Spider']}."""
    out: dict[str, list[str]] = {}
    for note in notes:
        m = _WHOSE.match(note)
        what, who = (m.group(1), m.group(2)) if m else (note, "")
        whose = out.setdefault(what, [])
        if who and who not in whose:
            whose.append(who)
    return out


def left_out_text(notes: list[str]) -> str:
    """'poison (Giant Spider and Tunnel Spider)': what the figures leave out, or ''."""
    return "; ".join(
        f"{what} ({join(who)})" if who else what for what, who in _by_kind(notes).items()
    )


def left_out(notes: list[str]) -> str:
    """' Not simulated: poison (Giant Spider).' to follow the figures, or ''."""
    return f" Not simulated: {left_out_text(notes)}." if notes else ""


def left_out_brief(notes: list[str]) -> str:
    """'not simulated: poison', each kind once and without whose it is, for narrow places."""
    kinds = list(_by_kind(notes))
    return f"not simulated: {join(kinds)}" if kinds else ""


def danger_line(d: Danger, system: System | None = None) -> str:
    """'Danger for four level-1 characters: hard, win 71%, someone drops 38%.' and, where the
    booklet's system has a simulation of its own, its figures too; then what is left out."""
    return f"Danger {danger_rest(d, system)}"


def danger_rest(d: Danger, system: System | None = None) -> str:
    """The line after its first word, for booklets that set 'Danger' as a label."""
    text = f"for {d.party}{under(d, system)}: {short(d)}."
    if system is not None and system.key in d.others:
        other = d.others[system.key]
        text += f" By {system.name}'s own rules: {short(other)}."
        extra = [n for n in other.notes if n not in d.notes]
        text += left_out(d.notes)
        if extra:
            text += f" Not in {system.name}'s fight: {left_out_text(extra)}."
        return text
    return text + left_out(d.notes)


def route_line(route: Route) -> str:
    last = route.steps[-1].through if route.steps else 1.0
    where = f"level {route.level}" if route.level > 1 else "the site"
    return (
        f"Fighting every occupied room of {where} in key order without a rest (hit points, "
        f"energy and shields carry over), {route.party} win every fight {percent(last)} of the "
        f"time (FMC Basic's rules, {route.trials:,} trials)."
    )


def report(d: Danger, title: str) -> str:
    """The text `delve sim` prints for one fight."""
    ci = d.ci95

    def share(key: str, label: str) -> str:
        low, high = ci.get(key, (0.0, 1.0))
        value = getattr(d, key)
        return f"  {label:<18}{percent(value):>6}   (95%: {percent(low)} to {percent(high)})"

    rounds_low, rounds_high = ci.get("rounds", (d.rounds, d.rounds))
    lines = [
        capital(title),
        f"Rules: {rules_name(d.rules)}. {d.trials:,} simulated fights.",
        f"Verdict: {d.verdict}",
        share("win", "party wins"),
        share("flee", "party flees"),
        share("wiped", "party wiped out"),
        share("drop", "someone drops"),
        f"  {'rounds':<18}{d.rounds:>6.2f}   (95%: {rounds_low:.2f} to {rounds_high:.2f})",
        share("hp_lost", "hit points lost"),
    ]
    if d.notes:
        lines.append(left_out(d.notes).strip())
    for key, other in d.others.items():
        lines.append("")
        lines.append(report(other, f"by {rules_name(key)}'s own rules"))
    return "\n".join(lines)


def _group(bestiary: dict, name: str, count: object) -> str:
    """'14 ashlings', '1 fire newt', '1d3+1 ashlings': the count and the name agreeing, by the
    bestiary's own plural where it has one (a dice formula counts as many)."""
    m = bestiary.get(name)
    proper = m is not None and m.plural[:1].isupper()  # 'Grisla the Hag' keeps her capitals
    many = 1 if str(count) == "1" else 2
    return f"{count} {noun(many, name if proper else name.lower(), m.plural if m else None)}"


class _Lines:
    """How `delve sim DOC` words each estimate: the party named once in the heading when every
    estimate has the same one, else on each line; a system's own figures and what the figures
    leave out after them."""

    def __init__(self, parties: set[str], system_key: str | None) -> None:
        self.one = parties.pop() if len(parties) == 1 else None
        self.system_key = system_key

    def __call__(self, d: Danger) -> str:
        text = ("" if self.one is not None else f"for {d.party}: ") + short(d)
        key = self.system_key
        if key and key in d.others:
            text += f"; by {rules_name(key)}'s own rules: {short(d.others[key])}"
        brief = left_out_brief(d.notes)
        return text + (f"; {brief}" if brief else "")


def _estimates(model: object) -> list:
    """Every Danger and Route in a site or region document."""
    sites = [model] if model.kind == "site" else [h.site for h in model.hexes if h.site]  # type: ignore[attr-defined]
    out: list = []
    for site in sites:
        out += [t.danger for t in [*site.rooms, *site.encounters] if t.danger]
        out += list(site.routes)
    if model.kind == "region":  # type: ignore[attr-defined]
        out += [h.lair.danger for h in model.hexes if h.lair and h.lair.danger]  # type: ignore[attr-defined]
        out += [e.danger for t in model.encounters for e in t.entries if e.danger]  # type: ignore[attr-defined]
    return out


def _site_lines(site: object, say: _Lines, indent: str = "") -> list[str]:
    lines = []
    beasts = site.bestiary  # type: ignore[attr-defined]
    for room in sorted(site.rooms, key=lambda r: (r.level, r.id)):  # type: ignore[attr-defined]
        if room.danger:
            who = ", ".join(_group(beasts, g.name, g.count) for g in room.monsters)
            lines.append(f"{indent}Room {room.id}, {room.name} ({who}): {say(room.danger)}")
    for e in site.encounters:  # type: ignore[attr-defined]
        if e.danger:
            who = _group(beasts, e.name, e.count)
            lines.append(f"{indent}Encounter {e.roll} ({who}): {say(e.danger)}")
    for r in site.routes:  # type: ignore[attr-defined]
        steps = ", ".join(f"room {s.room} {percent(s.through)}" for s in r.steps)
        party = "" if say.one is not None else f", for {r.party}"
        lines.append(f"{indent}Level {r.level} without a rest{party}: {steps}")
    return lines


def document_report(model: object, system_key: str | None = None) -> str:
    """Every estimate in a site or region document, one line each (`delve sim DOC.json`)."""
    say = _Lines({e.party for e in _estimates(model)}, system_key)
    head = f"{model.name} ({model.kind}, seed {model.seed}); FMC Basic's rules"  # type: ignore[attr-defined]
    lines = [head + (f", for {say.one}." if say.one is not None else ".")]
    if model.kind == "site":  # type: ignore[attr-defined]
        return "\n".join(lines + _site_lines(model, say))
    for h in model.hexes:  # type: ignore[attr-defined]
        if h.lair and h.lair.danger:
            lines.append(f"Hex {h.label}, lair {h.lair.name}: {say(h.lair.danger)}")
        if h.site:
            lines.append(f"Hex {h.label}, {h.site.name}:")
            lines += _site_lines(h.site, say, "  ")
    beasts = _all_monsters(model)
    for table in model.encounters:  # type: ignore[attr-defined]
        for e in table.entries:
            if e.danger:
                who = _group(beasts, e.monster, e.count)
                lines.append(f"{table.name} {e.roll} ({who}): {say(e.danger)}")
    return "\n".join(lines)


def _all_monsters(region: object) -> dict:
    """Every monster a region names, by name: its own bestiary, its lairs' and its sites'."""
    out = dict(region.bestiary)  # type: ignore[attr-defined]
    for h in region.hexes:  # type: ignore[attr-defined]
        for part in (h.lair, h.site):
            for name, m in getattr(part, "bestiary", {}).items():
                out.setdefault(name, m)
    return out


# --------------------------------------------------------------------------- key blocks
# The room keys (site_key.py, region_key.py) add danger through these, so the words live here.


def danger_blocks(d: Danger | None, system: System | None = None) -> list:
    """The danger line of a room or lair as a list item, or nothing without an estimate."""
    from generator.render import blocks as b

    return [b.li(danger_line(d, system))] if d is not None else []


def cell(d: Danger | None, system: System | None = None) -> str:
    """An encounter table's danger cell, kept narrow: 'hard, win 71%, drops 38%', then the
    booklet's own system's figures where it has them and, briefly, what is left out."""
    if d is None:
        return ""
    return f"{d.verdict}{cell_tail(d, system)}"


def cell_tail(d: Danger, system: System | None = None) -> str:
    """The cell after its verdict word (the HTML sets the verdict in bold)."""
    text = f", win {percent(d.win)}, drops {percent(d.drop)}"
    if system is not None and system.key in d.others:
        o = d.others[system.key]
        text += f"; {system.name}: {o.verdict}, win {percent(o.win)}, drops {percent(o.drop)}"
    brief = left_out_brief(d.notes)
    return f"{text}; {brief}" if brief else text


def cell_head(system: System | None = None) -> str:
    """The encounter table's danger column: which rules its figures are, off FMC Basic."""
    if system is None or system.key == "fmc":
        return "Danger"
    if other_rules(system):
        return f"Danger (FMC Basic's rules, then {system.name}'s)"
    return "Danger (FMC Basic's rules)"


def other_rules(system: System | None) -> bool:
    """Whether the booklet's system has a simulation of its own (its figures sit beside)."""
    return system is not None and system.key in ("fortmayn",)


def step_alone(d: Danger | None) -> str:
    """A route step's 'This fight alone' cell: the room's figures and what they leave out."""
    if d is None:
        return ""
    brief = left_out_brief(d.notes)
    return short(d) + (f"; {brief}" if brief else "")


def route_blocks(site: object) -> list:
    """The referee's route: each level's occupied rooms in key order, with the chance of
    having won every fight so far without a rest."""
    from generator.render import blocks as b

    routes = site.routes  # type: ignore[attr-defined]
    if not routes:
        return []
    rooms = {r.id: r for r in site.rooms}  # type: ignore[attr-defined]
    out = [b.h2("Danger, room after room")]
    for route in routes:
        out.append(b.p(route_line(route)))
        rows = [["Room", "This fight alone", "Through so far"]]
        for step in route.steps:
            room = rooms.get(step.room)
            alone = step_alone(room.danger) if room is not None else ""
            name = f"{step.room}. {room.name}" if room is not None else str(step.room)
            rows.append([name, alone, percent(step.through)])
        out.append(b.table(rows))
    return out


def template_helpers(system: System | None) -> dict[str, object]:
    """The danger functions the booklet templates call (parts/danger.html.j2), bound to the
    booklet's rules system, so the HTML says what the text says."""
    return {
        "danger_rest": lambda d: danger_rest(d, system),
        "danger_tail": tail,
        "danger_cell_tail": lambda d: cell_tail(d, system),
        "danger_head": lambda: cell_head(system),
        "danger_brief": lambda d: left_out_brief(d.notes),
        "route_line": route_line,
        "percent": percent,
    }
