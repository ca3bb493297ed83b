"""One part of a site or region on its own (a room, a hex, a haven, a lair), as text or
markdown: what `delve site|region --seed ADDRESS` prints when the address names a part."""

from __future__ import annotations

from typing import Any

from generator.render import blocks as b
from generator.systems import System


def part_blocks(part: Any, system: System) -> list[b.Block]:
    """The key entry of the part, as its site's or region's key prints it, address and all."""
    from generator.render import region_key, site_key

    if part.kind != "room":
        return region_key.part_blocks(part.root, part.thing, system)
    site = part.root
    if site.kind == "region":  # a room of one of the region's sites
        site = next(h.site for h in site.hexes if h.site and part.thing in h.site.rooms)
    return site_key.room_blocks(site, part.thing, system)  # its address is its last line


def part_text(part: Any, fmt: str, system: System) -> str:
    blocks = part_blocks(part, system)
    return b.to_markdown(blocks) if fmt == "md" else b.to_text(blocks)
