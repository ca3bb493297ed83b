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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from generator.engine.words import count
from generator.export.files import FolderWriter, Names
from generator.export.links import Linker, escape_markdown, linked
from generator.export.split import (
    haven_blocks,
    monster_blocks,
    split_region,
    split_site,
    unlinked_names,
)
from generator.model.monster import Monster
from generator.model.region import Region
from generator.model.site import Room, Site
from generator.model.treasure import Item
from generator.render import blocks as b
from generator.render.context import system_for
from generator.systems import System

ELSEWHERE = "(in full in its own notes)"  # a site hex's site, which has a folder of its own


def wikilink(target: str, shown: str) -> str:
    """[[path|shown]] (the path without .md); the shown text comes escaped.

    Readers of wikilinks differ on escapes inside a link (Obsidian reads markdown there, pandoc
    reads flat text) but all close it at the first ']]' and split it at the first '|': so the
    shown text's brackets become parentheses and a pipe a slash, and no reader sees a link end
    early or a second target."""
    path = target[:-3] if target.endswith(".md") else target
    shown = shown.replace("\\[", "(").replace("\\]", ")").replace("|", "/")
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


def link_item(target: str, shown: str, more: str = "") -> b.Block:
    return b.li(wikilink(target, escape_markdown(shown)) + escape_markdown(more))


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
    system = vault.system
    note = vault.note(path, monster.name, "monster", seed, tags)
    note.meta.update({"system": system.key, "bracket": monster.bracket_name})
    body = linked(monster_blocks(system, monster), Linker([], wikilink, escape_markdown))
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
        # One map a level, as `delve site --format svg` draws them.
        self.maps = [
            vault.claim(
                folder, f"{site.name} map" + (f" level {n}" if site.levels > 1 else ""), "svg"
            )
            for n in range(1, site.levels + 1)
        ]
        self.rooms = {r.id: vault.claim(f"{sub}Rooms", f"{r.id:02d} {r.name}") for r in site.rooms}
        self.monsters = {k: vault.claim(f"{sub}Monsters", m.name) for k, m in site.bestiary.items()}
        items = magic_items(r.hoard for r in site.rooms)
        self.items = [(item, vault.claim(f"{sub}Items", item_name(item))) for item in items]

    def phrases(self) -> list[tuple[str, str]]:
        # Its own name first: in a region, another site may share it.
        out = [(self.site.name, self.index)]
        out += monster_phrases(self.site.bestiary, self.monsters)
        out += [(item_name(i), path) for i, path in self.items]
        return out

    def room_items(self, room: Room) -> list[tuple[str, str]]:
        """The room's own magic items: they win over another room's of the same name."""
        here = room.hoard.items if room.hoard else []
        return [(item_name(i), path) for i, path in self.items if any(i is x for x in here)]

    def build(self, parent: Linker | None = None) -> None:
        from generator.render.documents import renderer

        site, vault = self.site, self.vault
        linker = Linker(self.phrases(), wikilink, escape_markdown, parent)
        for path, svg in zip(self.maps, renderer("site", "svg")(site), strict=True):
            vault.files[path] = svg
        rooms = {r.id: (self.rooms[r.id], f"{r.id}. {r.name}") for r in site.rooms}
        split = split_site(site, self.system)

        def marker(block: b.Block) -> b.Block:
            if block.kind == "room":
                room = site.room(int(block.text))
                more = " (entrance)" if room.entrance else ""
                return link_item(*rooms[room.id], more)
            return link_item(self.monsters[block.text], site.bestiary[block.text].name)

        note = vault.note(self.index, site.name, "site", site.seed, self.tags)
        note.meta.update({"level": site.level, "rooms": len(site.rooms), "system": self.system.key})
        body = linked(split.index, linker, self.index, marker=marker)
        note.body = [*(b.p(f"![[{path}]]") for path in self.maps), *body]
        for room in site.rooms:
            self.room_note(room, split.parts.get(f"room/{room.id}", []), linker, rooms)
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
        own = Linker(self.room_items(room), wikilink, escape_markdown, linker)
        note.body = [lead, *linked(text, own, path, rooms, done={self.index})]

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
        return out + unlinked_names(region)

    def local(self, label: str) -> list[tuple[str, str]]:
        """The names that mean hex `label`'s own things, which win in that hex's notes over
        anything else of the same name: its haven and its people, its site, its lair's magic
        items, and the factions based there with their leaders."""
        try:
            h = self.region.hex(label)
        except KeyError:  # a hand-edited document's faction may name no hex of the region
            return []
        out: list[tuple[str, str]] = []
        if h.haven is not None and label in self.havens:
            out.append((h.haven.name, self.havens[label]))
        out += [(p.name, path) for path, p, where in self.people if where == label]
        if h.site is not None and label in self.sites:
            out.append((h.site.name, self.sites[label].index))
        hoard = h.lair.hoard if h.lair and h.lair.form == "room" else None
        if hoard:
            out += [
                (item_name(i), path) for i, path in self.items if any(i is x for x in hoard.items)
            ]
        for fa in self.region.factions:
            if fa.base == label:
                out += self.faction_own(fa.key)
        return out

    def person_lines(self, label: str, linker: Linker) -> Callable[[b.Block], Linker | None]:
        """For `linked`: a line that opens with one of the haven's people ('Nico, a pilgrim')
        links that person, even when another of its people has the same name."""
        left = [(path, p) for path, p, where in self.people if where == label]

        def own(block: b.Block) -> Linker | None:
            for i, (path, p) in enumerate(left):
                if block.kind == "li" and block.text.startswith(f"{p.name}, {p.role}"):
                    del left[i]
                    return Linker([(p.name, path)], wikilink, escape_markdown, linker)
            return None

        return own

    def faction_own(self, key: str) -> list[tuple[str, str]]:
        """A faction's name and its leader's."""
        fa = self.region.faction(key)
        out = [(fa.name, self.factions[key])]
        out += [(p.name, path) for path, p, where in self.people if where == key]
        return out

    def build(self) -> None:
        from generator.render.documents import renderer

        region, vault = self.region, self.vault
        linker = Linker(self.phrases(), wikilink, escape_markdown)
        vault.files[self.map] = renderer("region", "svg")(region)
        split = split_region(region, vault.system, self.bestiary, elsewhere=ELSEWHERE)

        def marker(block: b.Block) -> b.Block:
            if block.kind == "hex":
                h = region.hex(block.text)
                return link_item(self.hexes[h.label], f"{h.label} {h.place}", f" ({h.stocking})")
            if block.kind == "faction":
                fa = region.faction(block.text)
                return link_item(self.factions[fa.key], fa.name, f": {fa.goal}.")
            return link_item(self.monsters[block.text], self.bestiary[block.text].name)

        index = [b.p(f"![[{self.map}]]"), *linked(split.index, linker, self.index, marker=marker)]
        if self.sites:
            index.append(b.h2("Sites"))
            for lab, sn in self.sites.items():
                index.append(link_item(sn.index, sn.site.name, f" (hex {lab})"))
        hex_text = {k[4:]: v for k, v in split.parts.items() if k.startswith("hex/")}
        faction_text = {k[8:]: v for k, v in split.parts.items() if k.startswith("faction/")}
        note = vault.note(self.index, region.name, "region", region.seed, [self.tag])
        note.meta.update({"hexes": len(region.hexes), "system": vault.system.key})
        note.body = index
        self.hex_notes(hex_text, linker)
        self.haven_notes(linker)
        self.faction_notes(faction_text, linker)
        self.people_notes(linker)
        self.monster_notes()
        self.item_notes()
        # A site's text links the region's places and people; its monsters are its own.
        places = [p for p in self.phrases() if not p[1].startswith("Monsters/")]
        under = Linker(places, wikilink, escape_markdown)
        for sn in self.sites.values():
            sn.build(under)

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
            mine = Linker(self.local(h.label), wikilink, escape_markdown, linker)
            people = self.person_lines(h.label, mine)
            note.body = [lead, *linked(text.get(h.label, []), mine, path, own=people)]

    def haven_notes(self, linker: Linker) -> None:
        for lab, path in self.havens.items():
            hv = self.region.hex(lab).haven
            assert hv is not None
            note = self.vault.note(path, hv.name, "haven", hv.seed, [self.tag])
            note.meta.update({"hex": lab, "haven": hv.kind})
            # Its own people, then the place its rumour is about, win over namesakes elsewhere.
            own = self.local(lab) + (self.local(hv.rumour.about) if hv.rumour else [])
            mine = Linker(own, wikilink, escape_markdown, linker)
            people = self.person_lines(lab, mine)
            note.body = linked(haven_blocks(self.region, lab), mine, path, own=people)

    def faction_notes(self, text: dict[str, list[b.Block]], linker: Linker) -> None:
        region = self.region
        for fa in region.factions:
            path = self.factions[fa.key]
            note = self.vault.note(path, fa.name, "faction", fa.seed or region.seed, [self.tag])
            note.meta.update({"base": fa.base, "members": fa.members})
            own = self.faction_own(fa.key) + self.local(fa.base)
            mine = Linker(own, wikilink, escape_markdown, linker)
            note.body = linked(text.get(fa.key, []), mine, path)
            here = [e for t in region.encounters for e in t.entries if e.faction == fa.key]
            if here:
                note.body.append(b.h2("Met on the road"))
                for t in region.encounters:
                    for e in t.entries:
                        if e.faction == fa.key:
                            m = self.bestiary.get(e.monster)
                            who = m.plural if m else e.monster
                            line = f"{t.name}, {e.roll} on the {t.die}: {e.count} {who}, {e.doing}."
                            note.body.append(b.li(mine.link(line, set(), path)))

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
            note.meta.update({"haven": hv.name, "hex": where, "mood": person.mood})
            mine = Linker(self.local(where), wikilink, escape_markdown, linker)
            note.body = [
                b.p(
                    escape_markdown(f"{person.name}, {person.role}, met at ")
                    + wikilink(self.havens[where], escape_markdown(hv.name))
                    + escape_markdown(".")
                ),
                b.li(mine.link(f"Quirk: {person.trait}.", set(), path)),
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
                            + escape_markdown(f" ({', '.join(rolls)} on the {t.die})")
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
