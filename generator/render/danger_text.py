"""Danger estimates in words: the one line every room, encounter and lair prints, and the
fuller report of `delve sim`. Renderers never simulate: the figures come with the model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.engine.words import capital, noun

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
    """'hard, win 71%, someone drops 38%'."""
    text = f"{d.verdict}, win {percent(d.win)}, someone drops {percent(d.drop)}"
    if d.wiped >= 0.005:
        text += f", all drop {percent(d.wiped)}"
    return text


def under(d: Danger, system: System | None) -> str:
    """' (FMC Basic's rules)' when the booklet speaks another system, else ''."""
    if system is None or system.key == d.rules:
        return ""
    return f" ({RULES_NAMES.get(d.rules, d.rules)}'s rules)"


def danger_line(d: Danger, system: System | None = None) -> str:
    """'Danger for four level-1 characters: hard, win 71%, someone drops 38%.' and, where the
    booklet's system has a simulation of its own, its figures too."""
    return f"Danger {danger_rest(d, system)}"


def danger_rest(d: Danger, system: System | None = None) -> str:
    """The line after its first word, for booklets that set 'Danger' as a label."""
    text = f"for {d.party}{under(d, system)}: {short(d)}."
    if system is not None and system.key in d.others:
        other = d.others[system.key]
        text += f" By {system.name}'s own rules: {short(other)}."
    return text


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
        f"Rules: {RULES_NAMES.get(d.rules, d.rules)}. {d.trials:,} simulated fights.",
        f"Verdict: {d.verdict}",
        share("win", "party wins"),
        share("flee", "party flees"),
        share("wiped", "party wiped out"),
        share("drop", "someone drops"),
        f"  {'rounds':<18}{d.rounds:>6.2f}   (95%: {rounds_low:.2f} to {rounds_high:.2f})",
        share("hp_lost", "hit points lost"),
    ]
    for key, other in d.others.items():
        lines.append("")
        lines.append(report(other, f"by {RULES_NAMES.get(key, key)}'s own rules"))
    if d.notes:
        lines.append("Not simulated: " + "; ".join(d.notes) + ".")
    return "\n".join(lines)


def _group(bestiary: dict, name: str, count: object) -> str:
    """'14 ashlings', '1 fire newt', '1d3+1 ashlings': the count and the name agreeing, by the
    bestiary's own plural where it has one (a dice formula counts as many)."""
    m = bestiary.get(name)
    proper = m is not None and m.plural[:1].isupper()  # 'Grisla the Hag' keeps her capitals
    many = 1 if str(count) == "1" else 2
    return f"{count} {noun(many, name if proper else name.lower(), m.plural if m else None)}"


def _site_lines(site: object, indent: str = "") -> list[str]:
    lines = []
    beasts = site.bestiary  # type: ignore[attr-defined]
    for room in sorted(site.rooms, key=lambda r: (r.level, r.id)):  # type: ignore[attr-defined]
        if room.danger:
            who = ", ".join(_group(beasts, g.name, g.count) for g in room.monsters)
            lines.append(f"{indent}Room {room.id}, {room.name} ({who}): {short(room.danger)}")
    for e in site.encounters:  # type: ignore[attr-defined]
        if e.danger:
            who = _group(beasts, e.name, e.count)
            lines.append(f"{indent}Encounter {e.roll} ({who}): {short(e.danger)}")
    for r in site.routes:  # type: ignore[attr-defined]
        steps = ", ".join(f"room {s.room} {percent(s.through)}" for s in r.steps)
        lines.append(f"{indent}Level {r.level} without a rest ({r.party}): {steps}")
    return lines


def document_report(model: object) -> str:
    """Every estimate in a site or region document, one line each (`delve sim DOC.json`)."""
    lines = [f"{model.name} ({model.kind}, seed {model.seed}); FMC Basic's rules."]  # type: ignore[attr-defined]
    if model.kind == "site":  # type: ignore[attr-defined]
        return "\n".join(lines + _site_lines(model))
    for h in model.hexes:  # type: ignore[attr-defined]
        if h.lair and h.lair.danger:
            lines.append(f"Hex {h.label}, lair {h.lair.name}: {short(h.lair.danger)}")
        if h.site:
            lines.append(f"Hex {h.label}, {h.site.name}:")
            lines += _site_lines(h.site, "  ")
    beasts = _all_monsters(model)
    for table in model.encounters:  # type: ignore[attr-defined]
        for e in table.entries:
            if e.danger:
                who = _group(beasts, e.monster, e.count)
                lines.append(f"{table.name} {e.roll} ({who}): {short(e.danger)}")
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


def cell(d: Danger | None) -> str:
    """An encounter table's danger cell, kept narrow: 'hard, win 71%, drops 38%'."""
    return f"{d.verdict}, win {percent(d.win)}, drops {percent(d.drop)}" if d is not None else ""


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
            alone = short(room.danger) if room is not None and room.danger else ""
            name = f"{step.room}. {room.name}" if room is not None else str(step.room)
            rows.append([name, alone, percent(step.through)])
        out.append(b.table(rows))
    return out
