"""Journal entries: a site's key, or a region's, as pages of escaped HTML.

A site's entry has an overview page (summary, history, random encounters, the rooms and
monsters as links, the rules at the table, totals), a page per room with its key text, and a
page per monster with its stat block in the chosen rules system. A region's has an overview, a
page per hex, haven, faction and monster. Names in the text link to the page they name with
Foundry's own links: ``@UUID[.pageId]{ghouls}`` to a page of the same entry (which survives
Import Data, where the entry's own id is the one it is imported into) and
``@UUID[JournalEntry.id]{Site}`` to another entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.export.foundry.docs import Journal
from generator.export.links import Linker, escape_html, linked
from generator.export.split import (
    haven_blocks,
    monster_blocks,
    split_region,
    split_site,
    unlinked_names,
)
from generator.model.region import Region
from generator.model.site import Site
from generator.render import blocks as b
from generator.systems import System

ELSEWHERE = "(in full in its own journal entry)"  # a site hex's site, which is not on its page


def uuid_link(target: str, shown: str) -> str:
    return f"@UUID[{target}]{{{shown}}}"


def html(blocks: list[b.Block]) -> str:
    return b.to_html(blocks, escape=False)


def link_item(target: str, shown: str, more: str = "") -> b.Block:
    return b.li(uuid_link(target, escape_html(shown)) + escape_html(more))


@dataclass
class SiteJournal:
    """The site's journal, with the page of each room and monster (for scenes and tables)."""

    journal: Journal
    rooms: dict[int, str] = field(default_factory=dict)  # room id -> page id
    monsters: dict[str, str] = field(default_factory=dict)  # bestiary key -> page id


def site_journal(site: Site, system: System) -> SiteJournal:
    journal = Journal(
        site.name, f"site/{site.seed}", kind="site", seed=site.seed, system=system.key
    )
    out = SiteJournal(journal)
    out.rooms = {r.id: journal.page_id(f"room/{r.id}") for r in site.rooms}
    out.monsters = {k: journal.page_id(f"monster/{k}") for k in site.bestiary}
    phrases = []
    for key, m in site.bestiary.items():
        phrases += [(m.plural, f".{out.monsters[key]}"), (m.name, f".{out.monsters[key]}")]
    linker = Linker(phrases, uuid_link, escape_html)
    rooms = {r.id: (f".{out.rooms[r.id]}", f"{r.id}. {r.name}") for r in site.rooms}
    split = split_site(site, system)

    def marker(block: b.Block) -> b.Block:
        if block.kind == "room":
            room = site.room(int(block.text))
            return link_item(*rooms[room.id], " (entrance)" if room.entrance else "")
        return link_item(f".{out.monsters[block.text]}", site.bestiary[block.text].name)

    journal.add("overview", site.name, html(linked(split.index, linker, marker=marker)))
    for room in sorted(site.rooms, key=lambda r: (r.level, r.id)):
        text = split.parts.get(f"room/{room.id}", [])
        title = f"{room.id}. {room.name}"
        journal.add(
            f"room/{room.id}", title, html(linked(text, linker, f".{out.rooms[room.id]}", rooms))
        )
    for key, monster in site.bestiary.items():
        journal.add(
            f"monster/{key}",
            monster.name,
            html(linked(monster_blocks(system, monster), linker, f".{out.monsters[key]}")),
        )
    return out


@dataclass
class RegionJournal:
    journal: Journal
    hexes: dict[str, str] = field(default_factory=dict)  # label -> page id
    monsters: dict[str, str] = field(default_factory=dict)


def region_journal(
    region: Region, system: System, sites: dict[str, SiteJournal], monsters: dict
) -> RegionJournal:
    """`sites`: hex label -> that site's journal, linked from its hex; `monsters`: every stat
    block the region's key prints (encounters, faction members, one-room lairs)."""
    journal = Journal(
        region.name, f"region/{region.seed}", kind="region", seed=region.seed, system=system.key
    )
    out = RegionJournal(journal)
    out.hexes = {h.label: journal.page_id(f"hex/{h.label}") for h in region.hexes}
    havens = {h.label: journal.page_id(f"haven/{h.label}") for h in region.hexes if h.haven}
    factions = {fa.key: journal.page_id(f"faction/{fa.key}") for fa in region.factions}
    out.monsters = {k: journal.page_id(f"monster/{k}") for k in monsters}
    phrases = [(f"hex {lab}", f".{pid}") for lab, pid in out.hexes.items()]
    phrases += [(region.hex(lab).haven.name, f".{pid}") for lab, pid in havens.items()]  # type: ignore[union-attr]
    phrases += [(region.faction(k).name, f".{pid}") for k, pid in factions.items()]
    phrases += [
        (region.hex(lab).site.name, f"JournalEntry.{sj.journal.id}")  # type: ignore[union-attr]
        for lab, sj in sites.items()
    ]
    for key, m in monsters.items():
        phrases += [(m.plural, f".{out.monsters[key]}"), (m.name, f".{out.monsters[key]}")]
    linker = Linker(phrases + unlinked_names(region), uuid_link, escape_html)
    split = split_region(region, system, monsters, elsewhere=ELSEWHERE)

    def own(*labels: str) -> Linker:
        """A linker for the pages of hexes `labels`: their own haven, site and factions win
        over any namesakes elsewhere in the region (the first label's over the next's)."""
        phrases: list[tuple[str, str]] = []
        for h in (h for label in labels for h in region.hexes if h.label == label):
            if h.haven is not None and h.label in havens:
                phrases.append((h.haven.name, f".{havens[h.label]}"))
            if h.site is not None and h.label in sites:
                phrases.append((h.site.name, f"JournalEntry.{sites[h.label].journal.id}"))
            phrases += [
                (fa.name, f".{factions[fa.key]}") for fa in region.factions if fa.base == h.label
            ]
        return Linker(phrases, uuid_link, escape_html, linker)

    def marker(block: b.Block) -> b.Block:
        if block.kind == "hex":
            h = region.hex(block.text)
            return link_item(f".{out.hexes[h.label]}", f"{h.label} {h.place}", f" ({h.stocking})")
        if block.kind == "faction":
            fa = region.faction(block.text)
            return link_item(f".{factions[fa.key]}", fa.name, f": {fa.goal}.")
        return link_item(f".{out.monsters[block.text]}", monsters[block.text].name)

    journal.add("overview", region.name, html(linked(split.index, linker, marker=marker)))
    for h in region.hexes:
        text = split.parts.get(f"hex/{h.label}", [])
        journal.add(
            f"hex/{h.label}",
            f"{h.label} {h.place}",
            html(linked(text, own(h.label), f".{out.hexes[h.label]}")),
        )
    for lab, pid in havens.items():
        hv = region.hex(lab).haven
        assert hv is not None
        # Its own name, then the place its rumour is about, over namesakes elsewhere.
        mine = own(lab, hv.rumour.about) if hv.rumour is not None else own(lab)
        journal.add(
            f"haven/{lab}", hv.name, html(linked(haven_blocks(region, lab), mine, f".{pid}"))
        )
    for fa in region.factions:
        text = split.parts.get(f"faction/{fa.key}", [])
        journal.add(
            f"faction/{fa.key}",
            fa.name,
            html(linked(text, own(fa.base), f".{factions[fa.key]}")),
        )
    for key, monster in monsters.items():
        journal.add(
            f"monster/{key}",
            monster.name,
            html(linked(monster_blocks(system, monster), linker, f".{out.monsters[key]}")),
        )
    return out
