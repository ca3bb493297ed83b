"""Foundry VTT (version 13): a site or region as documents Foundry's Import Data accepts.

The folder holds one JSON document a file (``journals/``, ``tables/``, ``scenes/``), the map
pictures (``maps/``) and ``delve-foundry.json``, the list the import macro in docs/ reads. Image
paths in the scenes are Foundry paths under ``delve/<folder name>/``: put the folder there in
Foundry's user data (see the README) and the scenes find their pictures.
"""

from __future__ import annotations

import json
from typing import Any

from generator.export.files import FolderWriter, Names
from generator.export.foundry.docs import FOUNDRY_VERSION, dumps
from generator.export.foundry.journal import SiteJournal
from generator.model.region import Region
from generator.model.site import Site
from generator.render.context import system_for
from generator.systems import System

INDEX = "delve-foundry.json"
ORDER = {"JournalEntry": 0, "RollTable": 1, "Scene": 2}  # journals first: notes point at them


class FoundryExport:
    def __init__(self, writer: FolderWriter) -> None:
        self.writer = writer
        self.root = f"delve/{writer.target.name}"  # where Foundry finds the folder
        self.names = Names()
        self.documents: list[dict[str, Any]] = []

    def add(self, kind: str, document: dict[str, Any]) -> None:
        folder = {"JournalEntry": "journals", "RollTable": "tables", "Scene": "scenes"}[kind]
        path = self.names.claim(folder, document["name"], "json")
        self.writer.add(path, dumps(document))
        self.documents.append(
            {"type": kind, "file": path, "_id": document["_id"], "name": document["name"]}
        )

    def image(self, name: str, png: bytes) -> str:
        """Store a picture; return its Foundry path."""
        path = self.names.claim("maps", name, "png")
        self.writer.add(path, png)
        return f"{self.root}/{path}"

    def site(self, site: Site, system: System, sj: SiteJournal | None = None) -> None:
        from generator.export.foundry.journal import site_journal
        from generator.export.foundry.plan import level_images
        from generator.export.foundry.rolltable import site_encounters
        from generator.export.foundry.scene import level_scene

        sj = sj or site_journal(site, system)
        self.add("JournalEntry", sj.journal.document())
        self.add("RollTable", site_encounters(site, system, sj.journal.id, sj.monsters))
        for level, geometry, image in level_images(site):
            label = site.name if site.levels == 1 else f"{site.name} level {level}"
            src = self.image(label, image.png)
            overview = sj.journal.page_id("overview")
            scene = level_scene(
                site, level, geometry, image, src, sj.journal.id, sj.rooms, overview
            )
            self.add("Scene", scene)

    def region(self, region: Region, system: System) -> None:
        from generator.export.foundry.hexmap import hex_map_png, layout, region_scene
        from generator.export.foundry.journal import region_journal, site_journal
        from generator.export.foundry.rolltable import region_encounters
        from generator.render.region_key import _monsters_by_name

        sites = {h.label: site_journal(h.site, system) for h in region.hexes if h.site}
        monsters = _monsters_by_name(region)
        rj = region_journal(region, system, sites, monsters)
        self.add("JournalEntry", rj.journal.document())
        for table in region_encounters(region, rj.journal.id, rj.monsters):
            self.add("RollTable", table)
        lay = layout(region)
        src = self.image(region.name, hex_map_png(region, lay))
        overview = rj.journal.page_id("overview")
        self.add("Scene", region_scene(region, lay, src, rj.journal.id, rj.hexes, overview))
        for h in region.hexes:
            if h.site:
                self.site(h.site, system, sites[h.label])

    def finish(self) -> None:
        docs = sorted(self.documents, key=lambda d: ORDER[d["type"]])
        index = {
            "format": "delve-foundry",
            "foundry": FOUNDRY_VERSION,
            "path": self.root,
            "documents": docs,
        }
        self.writer.add(INDEX, json.dumps(index, indent=2, ensure_ascii=False) + "\n")


def export_foundry(model: Any, writer: FolderWriter) -> None:
    """Write a site or region for Foundry."""
    system = system_for(model)
    export = FoundryExport(writer)
    if model.kind == "region":
        export.region(model, system)
    else:
        export.site(model, system)
    export.finish()
