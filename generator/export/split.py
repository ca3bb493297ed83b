"""The renderers' text cut into the parts that become notes (a vault) or pages (a journal).

`site_key.site_blocks` and `region_key.region_blocks` print a whole key. An export wants the
same words split up: each room, hex and faction on its own, and in the index a link where that
part stood. The split parts keep the renderers' blocks untouched; the index gets marker blocks
(kind "room", "hex", "faction" or "monster", the text naming which) for the exporter to turn into
links in its own syntax.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from generator.engine.words import with_article
from generator.model.monster import Monster
from generator.model.region import Region
from generator.model.site import Site
from generator.render import blocks as b
from generator.systems import System

SITE_HEADING = re.compile(r"^Hex \d{4}: ")  # a site in full inside the region's key
IN_FULL = "(in full below)"  # region_key's pointer from a site hex to that site in full


@dataclass
class Split:
    index: list[b.Block] = field(default_factory=list)
    parts: dict[str, list[b.Block]] = field(default_factory=dict)  # "room/4", "hex/0302"...


def sections(blocks: Iterable[b.Block]) -> list[tuple[b.Block | None, list[b.Block]]]:
    """(heading, the blocks under it) for every heading, h1 to h3."""
    out: list[tuple[b.Block | None, list[b.Block]]] = [(None, [])]
    for block in blocks:
        if block.kind in ("h1", "h2", "h3"):
            out.append((block, []))
        else:
            out[-1][1].append(block)
    return out


def _stat_lines(system: System, monsters: dict) -> dict[str, str]:
    from generator.render.site_key import stat_paragraph

    return {stat_paragraph(system, m): key for key, m in monsters.items()}


def _body(out: Split, body: list[b.Block], stats: dict[str, str]) -> None:
    for block in body:
        if block.kind == "li" and block.text in stats:
            out.index.append(b.Block("monster", stats[block.text]))
        else:
            out.index.append(block)


def split_site(site: Site, system: System) -> Split:
    """Rooms out of the key ("room/ID"), stat blocks replaced by monster markers."""
    from generator.render.site_key import loop_order, site_blocks

    out = Split()
    rooms = iter(loop_order(site))
    stats = _stat_lines(system, site.bestiary)
    for heading, body in sections(site_blocks(site, system)):
        if heading is not None and heading.kind == "h3":
            room = next(rooms)
            out.parts[f"room/{room.id}"] = body
            out.index.append(b.Block("room", str(room.id)))
            continue
        if heading is not None and heading.kind != "h1":
            out.index.append(heading)
        _body(out, body, stats)
    return without_empty_headings(out)


def split_region(region: Region, system: System, monsters: dict, elsewhere: str) -> Split:
    """Hexes ("hex/XXYY") and factions ("faction/KEY") out of the key; the sites in full left
    out (each is exported whole on its own, so a site hex's "(in full below)" becomes
    `elsewhere`, the export's words for where it is); the bigger headings one step down,
    under the region's own title."""
    from generator.render.region_key import region_blocks

    out = Split()
    labels = {h.label for h in region.hexes}
    factions = {fa.name: fa.key for fa in region.factions}
    stats = _stat_lines(system, monsters)
    in_site = False
    for heading, body in sections(region_blocks(region, system)):
        kind = heading.kind if heading is not None else ""
        text = heading.text if heading is not None else ""
        if kind in ("h1", "h2"):
            in_site = kind == "h2" and SITE_HEADING.match(text) is not None
        if in_site:
            continue
        label = text.split(" ", 1)[0]
        if kind == "h3" and label in labels and f"hex/{label}" not in out.parts:
            out.parts[f"hex/{label}"] = [_reword(block, elsewhere) for block in body]
            out.index.append(b.Block("hex", label))
            continue
        if kind == "h3" and text in factions:
            out.parts[f"faction/{factions[text]}"] = body
            out.index.append(b.Block("faction", factions[text]))
            continue
        if kind == "h1" and text != region.name:
            out.index.append(b.h2(text))
        elif kind in ("h2", "h3"):
            out.index.append(b.Block(kind, text))
        _body(out, body, stats)
    return without_empty_headings(out)


def _reword(block: b.Block, elsewhere: str) -> b.Block:
    if IN_FULL in block.text:
        return b.Block(block.kind, block.text.replace(IN_FULL, elsewhere), block.rows, block.depth)
    return block


def without_empty_headings(split: Split) -> Split:
    """Drop headings left with nothing under them (their content went to parts of its own)."""
    rank = {"h1": 1, "h2": 2, "h3": 3}
    kept: list[b.Block] = []
    for block in reversed(split.index):
        if block.kind in rank:
            following = kept[-1] if kept else None
            if following is None or rank.get(following.kind, 9) <= rank[block.kind]:
                continue
        kept.append(block)
    split.index = kept[::-1]
    return split


def monster_blocks(system: System, monster: Monster) -> list[b.Block]:
    """A stat block in the system's words: a table of its fields, its notes, its description."""
    from generator.render.site_key import stat_paragraph

    block = system.stat_block(monster)
    out = [b.p(f"{block.title}, in {system.name}.")]
    out.append(b.table([["Stat", "Value"], *([k, v] for k, v in block.fields)]))
    out += [b.li(note) for note in block.notes]
    if monster.description:
        out.append(b.p(monster.description))
    out.append(b.p(f"In one line: {stat_paragraph(system, monster)}"))
    return out


def haven_blocks(region: Region, label: str) -> list[b.Block]:
    """A haven: what it is and offers, who runs it, its people and its rumour."""
    from generator.render.region_key import MOOD_NOTES

    haven = region.hex(label).haven
    assert haven is not None
    out = [
        b.p(f"{with_article(haven.kind).capitalize()} in hex {label}. {haven.description}"),
        b.li(f"Offers: {haven.offers}"),
        b.li(f"Run by {haven.runner}."),
    ]
    if haven.npcs:
        out.append(b.h2("People"))
    for npc in haven.npcs:
        out.append(
            b.li(
                f"{npc.name}, {npc.role}: {npc.trait}. Mood towards strangers: {npc.mood} "
                f"({MOOD_NOTES.get(npc.mood, '')}; d6 {npc.mood_roll})."
            )
        )
    if haven.rumour:
        truth = "true" if haven.rumour.true else "false"
        out += [b.h2("Rumour"), b.p(f'"{region.rumour_text(haven.rumour)}" ({truth})')]
    return out


def unlinked_names(region: Region) -> list[tuple[str, str]]:
    """Names of things with no note of their own (rivers, landmarks), left as text, so that a
    name inside them (a person's, a monster's) is not linked from there."""
    names = [river.name for river in region.rivers]
    names += [h.landmark.name for h in region.hexes if h.landmark]
    return [(name, "") for name in names]
