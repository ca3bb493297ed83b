"""An Obsidian vault: a folder of markdown notes joined by [[wikilinks]].

A site vault holds the site's note (the index: summary, map, history, encounters, the rooms
level by level), a note per room, monster and magic item. A region vault holds the region's note
(travel rules, terrain, encounter tables, the hexes), a note per hex, haven, faction, named
person, monster and magic item, and each site of the region in a folder of its own under
``Sites/``. Every note opens with YAML front matter (kind, seed, tags).

The text is the renderers' own (`site_key.room_blocks`, `region_key.region_blocks`...): the vault
only splits it into notes and turns the names in it into links, so it says exactly what the
booklet says. Links are written with the note's path from the vault's root, which resolves the
same way in Obsidian, Foam or any tool that reads wikilinks, even where two notes share a name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from generator.engine.words import count
from generator.export.files import FolderWriter, Names
from generator.export.links import Linker, escape_markdown
from generator.model.monster import Monster
from generator.model.region import Region
from generator.model.site import Room, Site
from generator.model.treasure import Item
from generator.render import blocks as b
from generator.render.context import system_for
from generator.systems import System

EXIT = re.compile(r"^Exit to (\d+)\b")
SITE_HEADING = re.compile(r"^Hex \d{4}: ")  # a site in full inside the region's key


def wikilink(target: str, shown: str) -> str:
    """[[path|shown]] (the path without .md); the shown text is already escaped."""
    path = target[:-3] if target.endswith(".md") else target
    return f"[[{path}|{shown}]]"


def slug(text: str) -> str:
    """A tag-safe word: Obsidian tags take letters, digits, '-', '_' and '/'."""
    out = re.sub(r"[^0-9a-z]+", "-", text.lower()).strip("-")
    return out or "untitled"


@dataclass
class Note:
    path: str  # from the vault's root, with .md
    title: str
    meta: dict[str, Any]
    body: list[b.Block] = field(default_factory=list)  # text already escaped and linked

    def text(self) -> str:
        head = yaml.safe_dump(
            self.meta, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=None
        )
        return f"---\n{head}---\n\n# {escape_markdown(self.title)}\n\n" + b.to_markdown(self.body)


class Vault:
    """Notes under construction, with the names they claimed and the links between them."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.names = Names()
        self.notes: list[Note] = []
        self.files: dict[str, str | bytes] = {}

    def claim(self, folder: str, title: str, ext: str = "md") -> str:
        return self.names.claim(folder, title, ext)

    def note(self, path: str, title: str, kind: str, seed: str, tags: Iterable[str]) -> Note:
        meta = {"kind": kind, "seed": seed, "tags": ["delve", f"delve/{kind}", *tags]}
        note = Note(path, title, meta)
        self.notes.append(note)
        return note

    def write(self, writer: FolderWriter) -> None:
        for rel, data in self.files.items():
            writer.add(rel, data)
        for note in self.notes:
            writer.add(note.path, note.text())


def linked(
    blocks: Iterable[b.Block],
    linker: Linker,
    skip: str,
    rooms: dict[int, tuple[str, str]] | None = None,
    done: set[str] | None = None,
) -> list[b.Block]:
    """Blocks with their text escaped and the first mention of every other note linked.
    `rooms` (id -> (path, '4. Name')) turns each 'Exit to 4' into a link to room 4."""
    done = set() if done is None else done
    out = []
    for block in blocks:
        if block.kind == "table" and block.rows:
            head, *rows = block.rows
            out.append(
                b.table(
                    [[escape_markdown(c) for c in head]]
                    + [[linker.link(c, set(), skip) for c in row] for row in rows]
                )
            )
            continue
        text = block.text
        if block.kind in ("h1", "h2", "h3"):
            out.append(b.Block(block.kind, escape_markdown(text)))
            continue
        m = EXIT.match(text) if rooms else None
        if m and rooms and int(m.group(1)) in rooms:
            path, shown = rooms[int(m.group(1))]
            rest = linker.link(text[m.end() :], done, skip)
            out.append(
                b.Block(block.kind, f"Exit to {wikilink(path, escape_markdown(shown))}{rest}")
            )
            continue
        out.append(b.Block(block.kind, linker.link(text, done, skip)))
    return out


def link_item(target: str, shown: str, more: str = "") -> b.Block:
    return b.li(wikilink(target, escape_markdown(shown)) + escape_markdown(more))


def sections(blocks: list[b.Block], level: str) -> list[tuple[b.Block | None, list[b.Block]]]:
    """Split blocks at each heading of `level` (and any bigger one): (heading, blocks after)."""
    stop = {"h1": ("h1",), "h2": ("h1", "h2"), "h3": ("h1", "h2", "h3")}[level]
    out: list[tuple[b.Block | None, list[b.Block]]] = [(None, [])]
    for block in blocks:
        if block.kind in stop:
            out.append((block, []))
        else:
            out[-1][1].append(block)
    return out


def without_empty_headings(blocks: list[b.Block]) -> list[b.Block]:
    """Drop headings left with nothing under them (their content moved to notes of its own)."""
    rank = {"h1": 1, "h2": 2, "h3": 3}
    out: list[b.Block] = []
    for block in reversed(blocks):
        if block.kind in rank:
            following = out[-1] if out else None
            if following is None or rank.get(following.kind, 9) <= rank[block.kind]:
                continue
        out.append(block)
    return out[::-1]


# --------------------------------------------------------------------------- monsters and items


def magic_items(hoards: Iterable[Any]) -> list[Item]:
    return [item for hoard in hoards if hoard for item in hoard.items if item.magic]


def item_name(item: Item) -> str:
    return item.weapon.name if item.weapon is not None else item.name


def monster_phrases(monsters: dict[str, Monster], paths: dict[str, str]) -> list[tuple[str, str]]:
    out = []
    for key, m in monsters.items():
        out += [(m.plural, paths[key]), (m.name, paths[key])]
    return out


def monster_note(
    vault: Vault, path: str, monster: Monster, seed: str, tags: list[str], where: list[b.Block]
) -> None:
    """A stat block in the chosen system, its notes and description, and where it is met."""
    from generator.render.site_key import stat_paragraph

    system = vault.system
    block = system.stat_block(monster)
    note = vault.note(path, monster.name, "monster", seed, tags)
    note.meta.update({"system": system.key, "bracket": block.bracket_name})
    body = [b.p(escape_markdown(f"{block.title}, in {system.name}."))]
    body.append(
        b.table(
            [["Stat", "Value"]]
            + [[escape_markdown(k), escape_markdown(v)] for k, v in block.fields]
        )
    )
    body += [b.li(escape_markdown(n)) for n in block.notes]
    if monster.description:
        body.append(b.p(escape_markdown(monster.description)))
    body.append(b.p(escape_markdown(f"In one line: {stat_paragraph(system, monster)}")))
    if where:
        body += [b.h2("Where it is met"), *where]
    note.body = body


def item_note(
    vault: Vault, path: str, item: Item, seed: str, tags: list[str], where: list[b.Block]
) -> None:
    from generator.render.treasure_text import item_phrase, worth

    note = vault.note(path, item_name(item), "magic-item", seed, tags)
    note.meta.update({"item": item.kind, "value_cp": item.value_cp})
    body = [b.p(escape_markdown(item_phrase(item, vault.system)))]
    w = item.weapon
    if w is not None:
        hands = "one-handed" if w.hands == 1 else "two-handed"
        body.append(
            b.li(
                escape_markdown(f"{hands.capitalize()} {w.form} weapon, {count(w.slots, 'slot')}.")
            )
        )
        body += [
            b.li(escape_markdown(f"{name}: {effect}".rstrip(": ")))
            for name, effect in zip(w.powers, w.power_effects or [""] * len(w.powers), strict=True)
        ]
        if w.seed:
            body.append(b.li(escape_markdown(f"Seed address: {w.seed}")))
    body.append(b.li(escape_markdown(f"Worth {worth(item.value_cp)}.")))
    if where:
        body += [b.h2("Where it lies"), *where]
    note.body = body


# --------------------------------------------------------------------------- sites


class SiteNotes:
    """The notes of one site, under `folder` ('' for a vault of its own)."""

    def __init__(self, vault: Vault, site: Site, folder: str = "", region_tag: str = "") -> None:
        self.vault, self.site, self.folder = vault, site, folder
        self.tags = [f"site/{slug(site.name)}"] + ([region_tag] if region_tag else [])
        sub = f"{folder}/" if folder else ""
        self.index = vault.claim(folder, site.name)
        self.map = vault.claim(folder, f"{site.name} map", "svg")
        self.rooms = {r.id: vault.claim(f"{sub}Rooms", f"{r.id:02d} {r.name}") for r in site.rooms}
        self.monsters = {k: vault.claim(f"{sub}Monsters", m.name) for k, m in site.bestiary.items()}
        items = magic_items(r.hoard for r in site.rooms)
        self.items = [(item, vault.claim(f"{sub}Items", item_name(item))) for item in items]

    def phrases(self) -> list[tuple[str, str]]:
        out = monster_phrases(self.site.bestiary, self.monsters)
        out += [(item_name(i), path) for i, path in self.items]
        return out

    def build(self, extra: list[tuple[str, str]] = ()) -> None:
        from generator.render.documents import renderer
        from generator.render.site_key import loop_order, site_blocks, stat_paragraph

        site, vault, system = self.site, self.vault, self.system
        linker = Linker([*self.phrases(), *extra], wikilink, escape_markdown)
        vault.files[self.map] = renderer("site", "svg")(site)
        rooms = {r.id: (self.rooms[r.id], f"{r.id}. {r.name}") for r in site.rooms}
        keyed = iter(loop_order(site))
        stat_lines = {stat_paragraph(system, m): k for k, m in site.bestiary.items()}
        index: list[b.Block] = [b.p(f"![[{self.map}]]")]
        done: set[str] = set()
        room_text: dict[int, list[b.Block]] = {}
        for heading, body in sections(site_blocks(site, system), "h3"):
            if heading is not None and heading.kind == "h3":
                room = next(keyed)
                room_text[room.id] = body
                path, shown = rooms[room.id]
                index.append(link_item(path, shown, " (entrance)" if room.entrance else ""))
                continue
            if heading is not None and heading.kind != "h1":
                index.append(heading)
            stats = [blk for blk in body if blk.kind == "li" and blk.text in stat_lines]
            for blk in body:
                if blk in stats:
                    key = stat_lines[blk.text]
                    index.append(link_item(self.monsters[key], site.bestiary[key].name))
                else:
                    index += linked([blk], linker, self.index, done=done)
        note = vault.note(self.index, site.name, "site", site.seed, self.tags)
        note.meta.update({"level": site.level, "rooms": len(site.rooms), "system": system.key})
        note.body = [
            blk if blk.kind != "h2" else b.Block("h2", escape_markdown(blk.text)) for blk in index
        ]
        for room in site.rooms:
            self.room_note(room, room_text.get(room.id, []), linker, rooms)
        self.monster_notes(rooms)
        self.item_notes(rooms)

    @property
    def system(self) -> System:
        return self.vault.system

    def room_note(
        self,
        room: Room,
        text: list[b.Block],
        linker: Linker,
        rooms: dict[int, tuple[str, str]],
    ) -> None:
        path = self.rooms[room.id]
        note = self.vault.note(path, f"{room.id}. {room.name}", "room", room.seed, self.tags)
        note.meta.update({"level": room.level, "contents": room.contents})
        where = f"Room {room.id} on level {room.level} of "
        lead = b.p(escape_markdown(where) + wikilink(self.index, escape_markdown(self.site.name)))
        note.body = [lead, *linked(text, linker, path, rooms)]

    def monster_notes(self, rooms: dict[int, tuple[str, str]]) -> None:
        site = self.site
        for key, monster in site.bestiary.items():
            where = [
                link_item(rooms[r.id][0], rooms[r.id][1])
                for r in site.rooms
                if any(g.name == key for g in r.monsters)
            ]
            rolls = [str(e.roll) for e in site.encounters if e.name == key]
            if rolls:
                table = f" random encounters ({', '.join(rolls)} on the d6)"
                where.append(b.li(wikilink(self.index, escape_markdown(site.name)) + table))
            monster_note(self.vault, self.monsters[key], monster, site.seed, self.tags, where)

    def item_notes(self, rooms: dict[int, tuple[str, str]]) -> None:
        for item, path in self.items:
            where = [
                link_item(*rooms[r.id])
                for r in self.site.rooms
                if r.hoard and any(i is item for i in r.hoard.items)
            ]
            seed = next(
                (r.hoard.seed for r in self.site.rooms if r.hoard and item in r.hoard.items), ""
            )
            item_note(self.vault, path, item, seed or self.site.seed, self.tags, where)


def site_vault(site: Site, writer: FolderWriter) -> None:
    vault = Vault(system_for(site))
    SiteNotes(vault, site).build()
    vault.write(writer)


# --------------------------------------------------------------------------- regions


class RegionNotes:
    def __init__(self, vault: Vault, region: Region) -> None:
        from generator.render.region_key import _monsters_by_name

        self.vault, self.region = vault, region
        self.tag = f"region/{slug(region.name)}"
        self.index = vault.claim("", region.name)
        self.map = vault.claim("", f"{region.name} map", "svg")
        self.hexes = {h.label: vault.claim("Hexes", f"{h.label} {h.place}") for h in region.hexes}
        self.havens = {
            h.label: vault.claim("Havens", h.haven.name) for h in region.hexes if h.haven
        }
        self.factions = {fa.key: vault.claim("Factions", fa.name) for fa in region.factions}
        self.people: list[tuple[str, Any, str]] = []  # (path, npc or leader, hex label / faction)
        for h in region.hexes:
            for npc in h.haven.npcs if h.haven else []:
                self.people.append((vault.claim("People", npc.name), npc, h.label))
        for fa in region.factions:
            self.people.append((vault.claim("People", fa.leader.name), fa.leader, fa.key))
        self.bestiary = _monsters_by_name(region)
        self.monsters = {k: vault.claim("Monsters", m.name) for k, m in self.bestiary.items()}
        lairs = [h.lair for h in region.hexes if h.lair and h.lair.form == "room"]
        self.items = [
            (item, vault.claim("Items", item_name(item)))
            for item in magic_items(lr.hoard for lr in lairs)
        ]
        self.sites = {
            h.label: SiteNotes(vault, h.site, vault.names.folder("Sites", h.site.name), self.tag)
            for h in region.hexes
            if h.site
        }

    def phrases(self) -> list[tuple[str, str]]:
        region = self.region
        out: list[tuple[str, str]] = []
        out += [(f"hex {lab}", path) for lab, path in self.hexes.items()]
        out += [(region.hex(lab).haven.name, path) for lab, path in self.havens.items()]  # type: ignore[union-attr]
        out += [(region.faction(k).name, path) for k, path in self.factions.items()]
        out += [(person.name, path) for path, person, _ in self.people]
        out += [(self.region.hex(lab).site.name, s.index) for lab, s in self.sites.items()]  # type: ignore[union-attr]
        out += monster_phrases(self.bestiary, self.monsters)
        out += [(item_name(i), path) for i, path in self.items]
        return out

    def build(self) -> None:
        from generator.render.documents import renderer
        from generator.render.region_key import region_blocks
        from generator.render.site_key import stat_paragraph

        region, vault = self.region, self.vault
        system = vault.system
        linker = Linker(self.phrases(), wikilink, escape_markdown)
        vault.files[self.map] = renderer("region", "svg")(region)
        stat_lines = {stat_paragraph(system, m): k for k, m in self.bestiary.items()}
        faction_names = {fa.name: fa for fa in region.factions}
        hex_text: dict[str, list[b.Block]] = {}
        faction_text: dict[str, list[b.Block]] = {}
        index: list[b.Block] = [b.p(f"![[{self.map}]]")]
        done: set[str] = set()
        in_site = False  # inside "Sites in full": each site has its own folder of notes
        for heading, body in sections(region_blocks(region, system), "h3"):
            kind = heading.kind if heading is not None else ""
            text = heading.text if heading is not None else ""
            if kind in ("h1", "h2"):
                in_site = kind == "h2" and SITE_HEADING.match(text) is not None
            if in_site:
                continue
            label = text.split(" ", 1)[0]
            if kind == "h3" and label in self.hexes and label not in hex_text:
                h = region.hex(label)
                hex_text[label] = body
                index.append(link_item(self.hexes[label], f"{label} {h.place}", f" ({h.stocking})"))
                continue
            if kind == "h3" and text in faction_names:
                fa = faction_names[text]
                faction_text[fa.key] = body
                index.append(link_item(self.factions[fa.key], fa.name, f": {fa.goal}."))
                continue
            if kind == "h1" and text != region.name:
                index.append(b.h2(escape_markdown(text)))
            elif kind in ("h2", "h3"):
                index.append(b.Block(kind, escape_markdown(text)))
            for blk in body:
                if blk.kind == "li" and blk.text in stat_lines:
                    key = stat_lines[blk.text]
                    index.append(link_item(self.monsters[key], self.bestiary[key].name))
                else:
                    index += linked([blk], linker, self.index, done=done)
        if self.sites:
            index.append(b.h2("Sites"))
            for lab, sn in self.sites.items():
                index.append(link_item(sn.index, sn.site.name, f" (hex {lab})"))
        index = without_empty_headings(index)
        note = vault.note(self.index, region.name, "region", region.seed, [self.tag])
        note.meta.update({"hexes": len(region.hexes), "system": system.key})
        note.body = index
        self.hex_notes(hex_text, linker)
        self.haven_notes(linker)
        self.faction_notes(faction_text, linker)
        self.people_notes(linker)
        self.monster_notes()
        self.item_notes()
        region_phrases = self.phrases()
        for sn in self.sites.values():
            sn.build(extra=[p for p in region_phrases if not p[1].startswith("Monsters/")])

    def hex_notes(self, text: dict[str, list[b.Block]], linker: Linker) -> None:
        for h in self.region.hexes:
            path = self.hexes[h.label]
            note = self.vault.note(path, f"{h.label} {h.place}", "hex", h.seed, [self.tag])
            note.meta.update({"label": h.label, "terrain": h.terrain, "stocking": h.stocking})
            lead = b.p(
                escape_markdown(f"Hex {h.label} of ")
                + wikilink(self.index, escape_markdown(self.region.name))
                + "."
            )
            note.body = [lead, *linked(text.get(h.label, []), linker, path)]

    def haven_notes(self, linker: Linker) -> None:
        from generator.render.region_key import MOOD_NOTES

        region = self.region
        for lab, path in self.havens.items():
            h = region.hex(lab)
            hv = h.haven
            assert hv is not None
            note = self.vault.note(path, hv.name, "haven", hv.seed, [self.tag])
            note.meta.update({"hex": lab, "haven": hv.kind})
            done: set[str] = set()
            body = [
                b.p(
                    escape_markdown(f"A {hv.kind} in ")
                    + wikilink(self.hexes[lab], escape_markdown(f"hex {lab}"))
                    + ". "
                    + linker.link(hv.description, done, path)
                ),
                b.li("Offers: " + linker.link(hv.offers, done, path)),
                b.li("Run by " + linker.link(hv.runner, done, path) + "."),
            ]
            people = {id(p): pth for pth, p, _ in self.people}
            if hv.npcs:
                body.append(b.h2("People"))
            for npc in hv.npcs:
                mood = (
                    f": {npc.trait}. Mood towards strangers: {npc.mood} "
                    f"({MOOD_NOTES.get(npc.mood, '')})."
                )
                body.append(link_item(people[id(npc)], f"{npc.name}, {npc.role}", mood))
            if hv.rumour:
                truth = "true" if hv.rumour.true else "false"
                body.append(b.h2("Rumour"))
                body.append(
                    b.p(linker.link(f'"{region.rumour_text(hv.rumour)}" ({truth})', done, path))
                )
            note.body = body

    def faction_notes(self, text: dict[str, list[b.Block]], linker: Linker) -> None:
        region = self.region
        for fa in region.factions:
            path = self.factions[fa.key]
            note = self.vault.note(path, fa.name, "faction", fa.seed or region.seed, [self.tag])
            note.meta.update({"base": fa.base, "members": fa.members})
            note.body = linked(text.get(fa.key, []), linker, path)
            here = [e for t in region.encounters for e in t.entries if e.faction == fa.key]
            if here:
                note.body.append(b.h2("Met on the road"))
                for t in region.encounters:
                    for e in t.entries:
                        if e.faction == fa.key:
                            m = self.bestiary.get(e.monster)
                            who = m.plural if m else e.monster
                            line = f"{t.name}, {e.roll} on the {t.die}: {e.count} {who}, {e.doing}."
                            note.body.append(b.li(linker.link(line, set(), path)))

    def people_notes(self, linker: Linker) -> None:
        from generator.render.region_key import MOOD_NOTES

        region = self.region
        for path, person, where in self.people:
            if where in self.factions:
                fa = region.faction(where)
                note = self.vault.note(path, person.name, "npc", fa.seed or region.seed, [self.tag])
                note.meta["faction"] = fa.key
                note.body = [
                    b.p(
                        escape_markdown(f"{person.name}, {person.title}: leader of ")
                        + wikilink(self.factions[fa.key], escape_markdown(fa.name))
                        + escape_markdown(", whose base is in ")
                        + wikilink(self.hexes[fa.base], escape_markdown(f"hex {fa.base}"))
                        + escape_markdown(f". They want {fa.goal}.")
                    )
                ]
                continue
            h = region.hex(where)
            hv = h.haven
            assert hv is not None
            note = self.vault.note(path, person.name, "npc", hv.seed, [self.tag])
            note.meta.update({"haven": hv.name, "mood": person.mood})
            note.body = [
                b.p(
                    escape_markdown(f"{person.name}, {person.role}, met at ")
                    + wikilink(self.havens[where], escape_markdown(hv.name))
                    + escape_markdown(".")
                ),
                b.li(linker.link(f"Quirk: {person.trait}.", set(), path)),
                b.li(
                    escape_markdown(
                        f"Mood towards strangers: {person.mood} "
                        f"({MOOD_NOTES.get(person.mood, '')}; d6 {person.mood_roll})."
                    )
                ),
            ]

    def monster_notes(self) -> None:
        region = self.region
        for key, monster in self.bestiary.items():
            where = []
            for t in region.encounters:
                rolls = [str(e.roll) for e in t.entries if e.monster == key]
                if rolls:
                    where.append(
                        b.li(
                            wikilink(self.index, escape_markdown(t.name))
                            + escape_markdown(f" encounters ({', '.join(rolls)} on the {t.die})")
                        )
                    )
            for h in region.hexes:
                if h.lair and h.lair.form == "room" and any(g.name == key for g in h.lair.monsters):
                    where.append(link_item(self.hexes[h.label], f"{h.label} {h.place}", " (lair)"))
            for fa in region.factions:
                if fa.members == key:
                    where.append(link_item(self.factions[fa.key], fa.name, " (members)"))
            monster_note(self.vault, self.monsters[key], monster, region.seed, [self.tag], where)

    def item_notes(self) -> None:
        region = self.region
        for item, path in self.items:
            where, seed = [], region.seed
            for h in region.hexes:
                hoard = h.lair.hoard if h.lair else None
                if hoard and any(i is item for i in hoard.items):
                    where.append(link_item(self.hexes[h.label], f"{h.label} {h.place}", " (lair)"))
                    seed = hoard.seed or seed
            item_note(self.vault, path, item, seed, [self.tag], where)


def region_vault(region: Region, writer: FolderWriter) -> None:
    vault = Vault(system_for(region))
    RegionNotes(vault, region).build()
    vault.write(writer)


def export_vault(model: Any, writer: FolderWriter) -> None:
    """Write a site or region as a vault (the CLI's --format vault)."""
    if model.kind == "region":
        region_vault(model, writer)
    else:
        site_vault(model, writer)
