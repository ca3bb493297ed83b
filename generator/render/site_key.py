"""The room key of a site as text or markdown: what a referee reads at the table."""

from __future__ import annotations

from generator.engine import words
from generator.model.monster import Monster
from generator.model.site import Connection, MonsterGroup, Room, Site
from generator.render import blocks as b
from generator.render.context import system_for
from generator.render.danger_text import cell, cell_head, danger_blocks, route_blocks
from generator.render.recipe import rebuild_command
from generator.render.rules_used import procedures
from generator.render.treasure_text import hoard_points, xp_in_play
from generator.systems import System

CONTENT_LABELS = {
    "monsters_with_treasure": "Occupied, with treasure",
    "monsters": "Occupied",
    "hidden_treasure": "Unoccupied, treasure hidden or trapped",
    "feature": "Feature",
}
OBSTACLE_LABELS = {
    "locked_door": "stuck or locked door",
    "hidden_door": "hidden door",
    "long_corridor": "very long corridor",
    "none": "open way",
}
CHECK_RULE = (
    "Check for a wandering encounter once each exploration turn: roll a d6, and a 1 (a 1-in-6 "
    "chance) brings one of the groups below. There are six exploration turns in an hour of the "
    "game's time, so a slow party meets about one group an hour."
)


def loop_order(site: Site) -> list[Room]:
    """Rooms in key order: level by level, round each loop from its arrival room."""
    return sorted(site.rooms, key=lambda r: (r.level, r.id))


def exits(site: Site, room: Room) -> list[tuple[Connection, int]]:
    """Each connection touching the room, with the room at its other end."""
    out = []
    for c in site.connections:
        if c.from_room == room.id:
            out.append((c, c.to_room))
        elif c.to_room == room.id:
            out.append((c, c.from_room))
    return sorted(out, key=lambda pair: pair[1])


def exit_text(c: Connection, other: int, system: System | None = None) -> str:
    """'to 4: hidden door. How it looks. What it takes.' (the passage in the system's words).

    An open way's passage is a clue (footprints in the silt), so it prints too."""
    passage = system.reword(c.passage) if system else c.passage
    if c.levels:
        return f"to {other}: {c.kind} ({c.description} {passage})".strip()
    label = OBSTACLE_LABELS.get(c.obstacle, c.obstacle)
    return f"to {other}: {label}. {c.description} {passage}".strip()


rewards_in_xp = xp_in_play  # Fortmayn: a die per level survived, no XP figures


def plural(site: Site, name: str, count: int) -> str:
    """The monster's name agreeing with count, by the bestiary's own plural when it has one."""
    m = site.bestiary.get(name)
    return words.noun(count, name, m.plural if m else None)


def group_name(site: Site, name: str, count: int) -> str:
    """'a weeping shade', 'Grisla the Hag' (a proper name), '3 skeletons'."""
    m = site.bestiary.get(name)
    if count == 1:
        proper = m is not None and m.plural[:1].isupper()
        return name if proper else words.with_article(name.lower())
    return f"{count} {plural(site, name, count)}"


def subject(monsters: dict[str, Monster], name: str, count: int) -> str:
    """'the ogre', 'the hoblins', 'Grisla the Hag' (a proper name): a group as a subject."""
    m = monsters.get(name)
    if m is not None and m.plural[:1].isupper():
        return name if count == 1 else m.plural
    return f"the {name.lower() if count == 1 else words.noun(count, name, m.plural if m else None)}"


def doings(monsters: dict[str, Monster], groups: list[MonsterGroup]) -> str:
    """What each group is doing, in its own words (the tables write them for one or for
    several): 'They are asleep.' or 'The ogre is gnawing a bone; the hoblins are dicing.'"""
    said = [(g, g.activity.strip().rstrip(".")) for g in groups if g.activity.strip()]
    if not said:
        return ""
    if len(groups) == 1:
        g, doing = said[0]
        return f"{'It' if g.count == 1 else 'They'} {doing}."
    parts = [f"{subject(monsters, g.name, g.count)} {doing}" for g, doing in said]
    return words.capital("; ".join(parts)) + "."


def occupants(site: Site, room: Room, system: System | None = None) -> str:
    """'a weeping shade (XP 400) and 2 skeletons (XP 50 each); 500 XP in all. The weeping
    shade is ...; the skeletons are ...'"""
    xp = rewards_in_xp(system)
    parts = []
    for g in room.monsters:
        each = f" (XP {g.xp_each:,}" + (" each)" if g.count > 1 else ")") if xp else ""
        parts.append(f"{group_name(site, g.name, g.count)}{each}")
    total = f"; {room.monster_xp:,} XP in all" if xp else ""
    return f"{words.join(parts)}{total}. {doings(site.bestiary, room.monsters)}".strip()


def master_line(site: Site) -> str:
    """'Master: the dragon (Adult dragon), in room 4.' or why it is not in the site."""
    m = site.master
    assert m is not None
    who = f"{m.title} ({m.name})" if m.title else m.name
    if m.room is not None:
        return f"Master: {who}, in room {m.room}."
    note = "" if m.note.strip() in site.history_text else words.sentence(m.note)
    return f"Master: {who}, not in the site. {note}".strip()


def room_blocks(site: Site, room: Room, system: System | None = None) -> list[b.Block]:
    reword = system.reword if system else (lambda text: text)
    title = f"{room.id}. {room.name}"
    if room.entrance:
        title += " (entrance)"
    out = [b.h3(title)]
    senses = f"{room.description} {words.sentence(room.light)}".strip()
    senses += f" You hear {room.sound.rstrip('.')}. It smells of {room.smell.rstrip('.')}."
    lead = f"{room.size}. " if room.size else ""
    out.append(b.p(f"{lead}{senses}"))
    label = CONTENT_LABELS[room.contents]
    if room.contents == "hidden_treasure":
        label = "Unoccupied, treasure " + ("guarded by a trap" if room.trap else "hidden")
    out.append(b.li(f"Contents: {label}."))
    if room.monsters:
        out.append(b.li(f"Monsters: {occupants(site, room, system)}"))
        out += danger_blocks(room.danger, system)
    if room.trap:
        t = room.trap
        rule = f" {system.trap_text(t)}" if system else ""
        out.append(
            b.li(
                f"Trap, {t.name}: {t.description} Trigger: {reword(t.trigger)} Effect: "
                f"{reword(t.effect)} Finding it: {reword(t.find)} Avoiding it: "
                f"{reword(t.avoid)}{rule}"
            )
        )
    if room.hoard:
        out.append(b.li(f"Treasure ({room.hoard.value_cp:,} c.p.): {reword(room.hoard_place)}"))
        points = hoard_points(room.hoard, system)
        out += [b.sub(reword(point)) for point in points]
    if room.feature:
        f = room.feature
        out.append(b.li(f"Feature, {f.name}: {reword(f.description)} {reword(f.use)}".strip()))
    for c, other in exits(site, room):
        out.append(b.li("Exit " + exit_text(c, other, system)))
    if room.seed:
        out.append(b.li(f"Address: {room.seed}"))  # `delve site --seed` gives the room back
    return out


def stat_paragraph(system: System, monster: Monster) -> str:
    """A stat block as one paragraph: 'Ghoul (elite): Def 8, HP 28, ... Note. Note.'"""
    block = system.stat_block(monster)
    return " ".join([f"{block.title}: {block.line}.", *block.notes])


def check_rule(system: System | None) -> str:
    if system is not None and system.has_term("wandering_site"):
        return system.term("wandering_site")
    return CHECK_RULE


def in_system(title: str, system: System) -> str:
    """'Monsters (FMC Basic)'; a system named in brackets keeps its own: 'Monsters (Fortmayn)'."""
    name = system.name
    return f"{title} {name}" if name.startswith("(") else f"{title} ({name})"


def site_blocks(
    site: Site, system: System | None = None, appendix: bool = True, fmt: str = "text"
) -> list[b.Block]:
    """The whole key; `appendix=False` leaves out the stat blocks and rules (a region prints
    them once for all its sites) and the command that rebuilds it (its region's does)."""
    system = system or system_for(site)
    out = [b.h1(site.name)]
    levels = words.count(site.levels, "level")
    lead = (
        f"{words.capital(words.with_article(site.theme_name.lower()))} for party level "
        f"{site.level}: {len(site.rooms)} rooms on {levels}. Rules: {system.name}. "
        f"Address: {site.seed}"
    )
    out.append(b.p(lead))
    if appendix:
        out.append(b.command(f"Rebuild: {rebuild_command(site, fmt, system)}"))
    out += [b.h2("History"), b.p(site.history_text)]
    if site.master is not None:
        out.append(b.p(master_line(site)))
    out.append(b.p(system.reword(site.ecosystem)))
    out.append(b.h2("Random encounters (d6)"))
    out.append(b.p(check_rule(system)))
    danger = any(e.danger for e in site.encounters)
    out.append(
        b.table(
            [["d6", "Who", "How many", "Doing what"] + ([cell_head(system)] if danger else [])]
            + [
                [
                    str(e.roll),
                    words.capital(plural(site, e.name, 1 if e.count == "1" else 2)),
                    e.count,
                    e.doing,
                ]
                + ([cell(e.danger, system)] if danger else [])
                for e in site.encounters
            ]
        )
    )
    for depth in range(1, site.levels + 1):
        heading = (
            "Room key"
            if site.levels == 1
            else (f"Level {depth} (stocked for party level {site.level_of(depth)})")
        )
        out.append(b.h2(heading))
        for room in loop_order(site):
            if room.level == depth:
                out += room_blocks(site, room, system)
    events = system.random_events(site)
    if events:
        out.append(b.h2("Random events"))
        if system.has_term("random_events"):
            out.append(b.p(system.term("random_events")))
        out += [b.li(f"{e.die}. {e.title}: {e.text}") for e in events]
    out += route_blocks(site)
    if not appendix:
        out.append(b.h2("Totals"))
        out.append(b.p(summary_text(site, system)))
        return out
    out.append(b.h2(in_system("Monsters", system)))
    if system.has_term("reading"):
        out.append(b.p(system.term("reading")))
    out += [b.li(stat_paragraph(system, m)) for m in site.bestiary.values()]
    out.append(b.h2(in_system("Rules at the table", system)))
    out += [b.li(text) for _key, text in procedures(site, system)]
    out.append(b.h2("Totals"))
    out.append(b.p(summary_text(site, system)))
    return out


def summary_text(site: Site, system: System | None = None) -> str:
    if not rewards_in_xp(system):
        assert system is not None
        return (
            f"Treasure worth {site.treasure_cp:,} c.p. in "
            f"{sum(1 for r in site.rooms if r.hoard)} hoards. {system.term('reward')}"
        )
    hoards = [r.hoard for r in site.rooms if r.hoard]
    coins_xp = sum(h.xp_coins_and_valuables for h in hoards)
    return (
        f"Monsters worth {site.monster_xp:,} XP; treasure worth {site.treasure_cp:,} c.p. in "
        f"{len(hoards)} hoards ({coins_xp:,} XP in coins and valuables; the rest only if the "
        f"magic items are sold). Clearing it all is worth {site.monster_xp + site.treasure_cp:,}"
        " XP to the party."
    )


def site_markdown(site: Site, system: System | None = None) -> str:
    return b.to_markdown(site_blocks(site, system, fmt="md"))


def site_text(site: Site, system: System | None = None) -> str:
    return b.to_text(site_blocks(site, system))
