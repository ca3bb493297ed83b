"""Foundry VTT 13 documents: every exported file fits Foundry's data model (the JSON Schema in
tests/foundry/), links and notes point at pages that exist, roll tables cover their dice, the
region's picture sits on Foundry's hex grid, and the same seed gives the same bytes."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from foundry_docs import export, validate, validate_folder, validator

from generator.build.site import generate_site
from generator.engine.rng import Rng
from generator.export.files import stable_id
from generator.export.foundry.scene import LevelImage, level_scene


@pytest.mark.parametrize(
    "kind, doc",
    [
        ("Wall", {"_id": "A" * 16, "c": [0, 0, 1, 1], "door": 3}),  # no such door type
        ("Wall", {"_id": "A" * 16, "c": [0, 0, 1.5, 1]}),  # pixels are integers
        ("Scene", {"_id": "A" * 16, "name": "x", "grid": {"type": 6}}),  # no such grid
        ("Scene", {"_id": "A" * 16, "name": "x", "grid": {"size": 10}}),  # under 20 pixels
        (
            "TableResult",
            {"_id": "A" * 16, "type": "text", "text": "v12", "range": [1, 1], "weight": 1},
        ),  # fmt: skip
        ("TableResult", {"_id": "A" * 16, "type": "pack", "range": [1, 1], "weight": 1}),
        (
            "JournalEntryPage",
            {"_id": "A" * 16, "name": "x", "type": "text", "text": {"content": "", "format": 0}},
        ),  # fmt: skip
        ("Note", {"_id": "A" * 16, "x": 0, "y": 0, "iconSize": 16}),  # Foundry's least is 32
    ],
)
def test_the_schema_refuses_what_foundry_13_refuses(kind, doc):
    assert list(validator(kind).iter_errors(doc)), (kind, doc)


def uuid_links(html: str) -> list[tuple[str, str]]:
    return re.findall(r"@UUID\[([^\]]+)\]\{([^}]*)\}", html)


def check_links(docs: dict[str, list[dict]]) -> None:
    """Every @UUID link in a page resolves: .id to a page of the same entry, JournalEntry.id
    (and its page) to an exported entry."""
    entries = {e["_id"]: {p["_id"] for p in e["pages"]} for e in docs["JournalEntry"]}
    for entry in docs["JournalEntry"]:
        for page in entry["pages"]:
            for target, _shown in uuid_links(page["text"]["content"]):
                if target.startswith("."):
                    assert target[1:] in entries[entry["_id"]], (page["name"], target)
                else:
                    parts = target.split(".")
                    assert parts[0] == "JournalEntry" and parts[1] in entries, target
                    if len(parts) == 4:
                        assert parts[3] in entries[parts[1]], target
    for table in docs.get("RollTable", []):
        for result in table["results"]:
            for target, _shown in uuid_links(result["description"]):
                _, entry, _, page = target.split(".")
                assert page in entries[entry], target
    check_no_orphan_pages(docs)


def check_no_orphan_pages(docs: dict[str, list[dict]]) -> None:
    """Every page but an entry's first (its overview) is linked from another page of the
    export, and so is every entry but the first (the site's or region's own): a page nothing
    links to is one the referee never finds, and the sign of a link gone to a namesake."""
    pages: set[tuple[str, str]] = set()
    entries: set[str] = set()
    for entry in docs["JournalEntry"]:
        for page in entry["pages"]:
            for target, _shown in uuid_links(page["text"]["content"]):
                parts = target.split(".")
                if target.startswith(".") and parts[1] != page["_id"]:
                    pages.add((entry["_id"], parts[1]))
                elif parts[0] == "JournalEntry" and parts[1] != entry["_id"]:
                    entries.add(parts[1])
                    if len(parts) == 4:
                        pages.add((parts[1], parts[3]))
    for entry in docs["JournalEntry"]:
        orphans = [p["name"] for p in entry["pages"][1:] if (entry["_id"], p["_id"]) not in pages]
        assert not orphans, f"{entry['name']}: pages no other page links to: {orphans[:5]}"
    kinds = {e["_id"]: e["flags"]["delve"]["kind"] for e in docs["JournalEntry"]}
    top = "region" if "region" in kinds.values() else "site"
    alone = [
        e["name"]
        for e in docs["JournalEntry"]
        if kinds[e["_id"]] != top and e["_id"] not in entries
    ]
    assert not alone, f"entries no other entry links to: {alone[:5]}"


@pytest.fixture
def site_docs(run_cli, tmp_path):
    folder = export(run_cli, tmp_path, "site", "--seed", "harrowdeep", "--rooms", "12")
    return folder, validate_folder(folder)


def test_site_journal_has_a_page_per_room_and_stat_block(site_docs, builtin_tables):
    _folder, docs = site_docs
    site = generate_site(builtin_tables, Rng("harrowdeep@rooms=12"), rooms=12)
    (journal,) = docs["JournalEntry"]
    names = [p["name"] for p in journal["pages"]]
    for room in site.rooms:
        assert f"{room.id}. {room.name}" in names
    for monster in site.bestiary.values():
        assert monster.name in names
    assert all(p["type"] == "text" and p["text"]["format"] == 1 for p in journal["pages"])
    check_links(docs)
    # The overview holds the history and the random encounters (and links the stat blocks).
    overview = journal["pages"][0]["text"]["content"]
    assert ">History<" in overview and site.history_text.split()[1] in overview
    for e in site.encounters:
        assert e.doing.split()[-1] in overview, e
    # Exits link to the pages of the rooms they lead to.
    pages = {p["_id"]: p for p in journal["pages"]}
    room3 = next(p for p in journal["pages"] if p["name"].startswith("3. "))
    exits = re.findall(r"Exit to @UUID\[\.(\w+)\]\{(\d+)\.", room3["text"]["content"])
    assert exits and all(pages[pid]["name"].startswith(f"{n}. ") for pid, n in exits)


def test_site_roll_table_is_a_d6_with_one_result_a_face(site_docs):
    _folder, docs = site_docs
    (table,) = docs["RollTable"]
    assert table["formula"] == "1d6"
    assert sorted(r["range"] for r in table["results"]) == [[i, i] for i in range(1, 7)]
    assert all("@UUID[JournalEntry." in r["description"] for r in table["results"])


# Foundry enriches journal and roll-table text: [[/r ...]] is an inline roll, @UUID[...]{...}
# and @Check[...] are links and checks. Table text must not write any of them, nor HTML.
LIVE_FOUNDRY = ("[[/r", "@UUID[Actor", "@Check[", "<script", "<img", "<b>")


def test_table_text_is_escaped_html(run_cli, tmp_path):
    """The hostile feature (tests/test_export_vault.py) prints its name, result and use in
    the room pages: escaped, so the text shows as written and nothing in it is live."""
    from test_export_vault import hostile_tables

    args = ("--tables", hostile_tables(tmp_path), "site", "--seed", "hostile")
    res = run_cli(*args, "--format", "foundry", "-o", tmp_path / "f")
    assert res.code == 0, res.err
    docs = validate_folder(tmp_path / "f")
    check_links(docs)
    text = json.dumps(docs, ensure_ascii=False)
    assert not [live for live in LIVE_FOUNDRY if live in text]
    (journal,) = docs["JournalEntry"]
    rooms = "".join(p["text"]["content"] for p in journal["pages"])
    for shown in (
        "Idol &#91;&#91;Nowhere&#93;&#93; | &lt;script&gt;alert(1)&lt;/script&gt;",
        "&#91;&#91;/r 1d6&#93;&#93; and !&#91;&#91;embed.png&#93;&#93;",
        "&#64;UUID&#91;Actor.y&#93;&#123;evil&#125; &amp; more",
        "Use &#91;&#91;Nowhere|x&#93;&#93; or &#64;Check&#91;dex&#93;",
        "&lt;img src=x onerror=alert(1)&gt;",
    ):
        assert shown in rooms, shown  # printed, and escaped


def test_hostile_names_are_escaped_html(builtin_tables, tmp_path):
    """A room's name is plain text in its page's and its map note's names (Foundry shows
    those as text) and escaped HTML wherever a page links it."""
    from test_export_vault import HOSTILE_NAME

    from generator.export.files import FolderWriter
    from generator.export.foundry import export_foundry

    site = generate_site(builtin_tables, Rng("hostile-names"), rooms=12)
    site.rooms[1].name = HOSTILE_NAME
    writer = FolderWriter(tmp_path / "f")
    export_foundry(site, writer)
    writer.commit()
    docs = validate_folder(tmp_path / "f")
    check_links(docs)
    (journal,) = docs["JournalEntry"]
    html = "".join(p["text"]["content"] for p in journal["pages"])
    assert not [live for live in LIVE_FOUNDRY if live in html]
    shown = "2. Crypt &#91;&#91;Nowhere&#93;&#93; !&#91;&#91;x.png&#93;&#93; #tag"
    assert re.search(r"@UUID\[\.\w+\]\{" + re.escape(shown), html)  # exits and the overview
    assert f"2. {HOSTILE_NAME}" in [p["name"] for p in journal["pages"]]
    notes = [n["text"] for sc in docs["Scene"] for n in sc["notes"]]
    assert f"2. {HOSTILE_NAME}" in notes


def test_same_seed_same_bytes(run_cli, tmp_path):
    a = export(run_cli, tmp_path / "a", "region", "--seed", "bytes", "--radius", "1")
    b = export(run_cli, tmp_path / "b", "region", "--seed", "bytes", "--radius", "1")
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


@pytest.fixture(scope="module")
def region_docs(tmp_path_factory):
    from generator.cli import main
    from generator.cli.common import state

    folder = tmp_path_factory.mktemp("region") / "foundry"
    state._tables = None
    main(
        ["region", "--seed", "saltmarch", "--radius", "3", "--format", "foundry", "-o", str(folder)]
    )
    state._tables = None
    return folder, validate_folder(folder)


def test_region_exports_journal_tables_scene_and_every_site(region_docs):
    folder, docs = region_docs
    region = json.loads((folder / "delve-foundry.json").read_text())
    assert region["documents"][0]["type"] == "JournalEntry"  # journals come first
    journals = {j["flags"]["delve"]["kind"]: [] for j in docs["JournalEntry"]}
    for j in docs["JournalEntry"]:
        journals[j["flags"]["delve"]["kind"]].append(j)
    (rj,) = journals["region"]
    kinds = {p["name"] for p in rj["pages"]}
    # The booklet prints each site after the hexes; here each is a journal entry of its own.
    hexes = [p["text"]["content"] for p in rj["pages"] if p["flags"]["delve"]["page"][:4] == "hex/"]
    assert sum("(in full in its own journal entry)" in t for t in hexes) == len(journals["site"])
    assert "in full below" not in json.dumps(docs)
    assert any(re.match(r"^\d{4} ", n) for n in kinds)  # hex pages
    sites = journals.get("site", [])
    assert sites, "every site hex has its journal"
    # A scene for the region and one for every level of every site hex (levels 1 to N).
    levels: dict[str, set[int]] = {}
    for sc in docs["Scene"]:
        if sc["flags"]["delve"]["kind"] == "site-level":
            levels.setdefault(sc["flags"]["delve"]["seed"], set()).add(
                sc["flags"]["delve"]["level"]
            )
    assert sorted(levels) == sorted(j["flags"]["delve"]["seed"] for j in sites)
    assert all(got == set(range(1, max(got) + 1)) for got in levels.values())
    assert len(docs["Scene"]) == 1 + sum(len(v) for v in levels.values())
    biome_tables = [
        t for t in docs["RollTable"] if t["flags"]["delve"]["kind"] == "region-encounters"
    ]
    assert biome_tables and all(t["formula"] == "1d6" for t in biome_tables)
    check_links(docs)


def test_region_scene_is_a_hex_grid_drawn_to_its_picture(region_docs):
    from PIL import Image

    folder, docs = region_docs
    (scene,) = [s for s in docs["Scene"] if s["flags"]["delve"]["kind"] == "region"]
    assert scene["grid"]["type"] == 4 and scene["padding"] == 0
    src = scene["background"]["src"]
    assert src.startswith(f"delve/{folder.name}/")
    png = folder / src.removeprefix(f"delve/{folder.name}/")
    with Image.open(png) as img:
        assert img.size == (scene["width"], scene["height"])
        pixels = img.convert("RGB")
        size = scene["grid"]["size"]
        w = 2 * size / math.sqrt(3)
        entry = next(j for j in docs["JournalEntry"] if j["_id"] == scene["notes"][0]["entryId"])
        pages = {p["_id"]: p["name"] for p in entry["pages"]}
        for note in scene["notes"]:
            label = pages[note["pageId"]][:4]  # every note opens its hex's page
            # Foundry 13's HEXODDQ cell, computed here independently of the exporter. Its
            # HexagonalGrid#getTopLeftPoint puts cell (row i, column j) of a scene without
            # padding at x = 0.75 w j and y = (i - 1/2) size in the even columns, i size in the
            # odd ones (an odd grid's first hex is cut in half): so the centre is
            # (0.75 w j + w / 2, i size + size / 2 if j is odd).
            col = round((note["x"] - w / 2) / (0.75 * w))
            row = round((note["y"] - size * 0.25 - (size / 2 if col % 2 else 0)) / size)
            cx = col * 0.75 * w + w / 2
            cy = row * size + (size / 2 if col % 2 else 0)
            assert abs(cx - note["x"]) <= 1 and abs(cy + size * 0.25 - note["y"]) <= 1, label
            # The picture's hex there is the hex's terrain colour (sampled off the label).
            r, g, b = pixels.getpixel((round(cx - w * 0.3), round(cy)))
            assert (r, g, b) != (235, 232, 224), f"{label}: no hex drawn under Foundry's cell"
            assert row >= 1, f"{label}: in Foundry's half-hex first row"
        # Every hex lies whole on the picture: none cut by its edge as Foundry's first row is.
        region_hexes = len(scene["notes"])
        corners_inside = 0
        for note in scene["notes"]:
            cx, cy = note["x"], note["y"] - size * 0.25
            if all(
                -1 <= cx + w / 2 * math.cos(math.radians(60 * k)) <= img.width + 1
                and -1 <= cy + w / 2 * math.sin(math.radians(60 * k)) <= img.height + 1
                for k in range(6)
            ):
                corners_inside += 1
        assert corners_inside == region_hexes


def stub_geometry():
    """A level as generator/plan/geometry.py gives it: squares from the picture's top-left
    corner, a wall outline, three doorways, a flickering light in ARGB."""
    door = SimpleNamespace
    return SimpleNamespace(
        origin=(-4, 7),  # the plan square at the picture's corner: not needed for pixels
        size=(10, 8),
        walls=[[(0, 0), (10, 0), (10, 8), (0, 8), (0, 0)]],
        doors=[
            door(a=(3, 0), b=(4, 0), kind="locked", rooms=(1, 2)),
            door(a=(10, 2), b=(10, 3), kind="secret", rooms=(2, 3)),
            door(a=(0, 4), b=(0, 5), kind="open", rooms=(3, 1)),
        ],
        lights=[
            SimpleNamespace(
                position=(2, 2), radius=3, color="ffff9933", intensity=0.6, room=1, flicker=True
            )
        ],
        labels={1: (2, 2)},
    )


def test_level_scene_walls_doors_lights_and_notes_in_pixels(builtin_tables):
    site = generate_site(builtin_tables, Rng("stub"))
    image = LevelImage(b"", 1000, 800, 100)
    pages = {r.id: stable_id("page", str(r.id)) for r in site.rooms}
    doc = level_scene(site, 1, stub_geometry(), image, "delve/x/maps/l1.png", "E" * 16, pages)
    validate("Scene", doc)
    walls = [w for w in doc["walls"] if w["door"] == 0]
    assert [w["c"] for w in walls] == [
        [0, 0, 1000, 0],
        [1000, 0, 1000, 800],
        [1000, 800, 0, 800],
        [0, 800, 0, 0],
    ]
    doors = {tuple(w["c"]): (w["door"], w["ds"]) for w in doc["walls"] if w["door"]}
    # A stuck or locked door is a door, shut and locked; a hidden one a secret door; an open
    # way is a gap, with no wall at all.
    assert doors == {(300, 0, 400, 0): (1, 2), (1000, 200, 1000, 300): (2, 0)}
    (lamp,) = doc["lights"]
    assert (lamp["x"], lamp["y"]) == (200, 200) and lamp["config"]["dim"] == 30
    assert lamp["config"]["color"] == "#ff9933" and lamp["config"]["animation"]["type"] == "torch"
    assert doc["grid"] == {**doc["grid"], "type": 1, "size": 100, "distance": 10}
    notes = {n["pageId"]: (n["x"], n["y"]) for n in doc["notes"]}
    assert notes[pages[1]] == (200, 200)
    assert {n["pageId"] for n in doc["notes"]} == {pages[r.id] for r in site.rooms if r.level == 1}
    assert doc["journalEntryPage"] == pages[1]
    # A level with no room of its own (a hand-edited document) opens the overview.
    empty = level_scene(site, 9, stub_geometry(), image, "x.png", "E" * 16, pages, "O" * 16)
    assert (empty["journal"], empty["journalEntryPage"]) == ("E" * 16, "O" * 16)


def test_site_scenes_from_the_plan(run_cli, tmp_path, builtin_tables):
    from PIL import Image

    # A site with a stuck or locked door or a hidden one on each of its two levels.
    for seed in ("harrowdeep", *(f"scenes{i}" for i in range(40))):
        site = generate_site(builtin_tables, Rng(f"{seed}@rooms=12"), rooms=12)
        level_of = {r.id: r.level for r in site.rooms}
        doors = ("locked_door", "hidden_door")
        shut = {level_of[c.from_room] for c in site.connections if c.obstacle in doors}
        if shut >= {1, 2}:
            break
    folder = export(run_cli, tmp_path, "site", "--seed", seed, "--rooms", "12")
    docs = validate_folder(folder)
    assert len(docs["Scene"]) == 2  # a scene per level
    for scene in docs["Scene"]:
        png = folder / scene["background"]["src"].removeprefix(f"delve/{folder.name}/")
        with Image.open(png) as img:
            assert img.size == (scene["width"], scene["height"])
        assert scene["walls"] and any(w["door"] for w in scene["walls"])
        for wall in scene["walls"]:
            assert all(0 <= v <= max(scene["width"], scene["height"]) for v in wall["c"])
        assert scene["notes"]
        assert not off_the_ink(folder, scene), scene["name"]
    check_links(docs)
    # Lights only where a room has a light source; a note on every room; doors as Foundry's
    # (a stuck or locked door shut and locked, a hidden door secret).
    from generator.plan.lights import source

    for scene in docs["Scene"]:
        level = scene["flags"]["delve"]["level"]
        here = [r for r in site.rooms if r.level == level]
        assert len(scene["lights"]) == sum(source(r.light) is not None for r in here)
        assert len(scene["notes"]) == len(here)
        # The scene opens the journal at its own level's first room.
        (journal,) = docs["JournalEntry"]
        first = min(here, key=lambda r: r.id)
        page = next(p for p in journal["pages"] if p["_id"] == scene["journalEntryPage"])
        assert scene["journal"] == journal["_id"] and page["name"].startswith(f"{first.id}. ")
        kinds = {(w["door"], w["ds"]) for w in scene["walls"] if w["door"]}
        assert kinds <= {(1, 2), (2, 0)}
        obstacles = {c.obstacle for c in site.connections if site.room(c.from_room).level == level}
        assert ((1, 2) in kinds) == ("locked_door" in obstacles)
        assert ((2, 0) in kinds) == ("hidden_door" in obstacles)


def off_the_ink(folder: Path, scene: dict) -> list[tuple[int, int]]:
    """Points along the scene's walls (and secret doors, which the players' picture draws as
    wall) where its picture has no wall: a dark pixel within 3 pixels of each of nine points
    along every segment. A plain door is skipped: the picture draws it as an open box."""
    from PIL import Image

    png = folder / scene["background"]["src"].removeprefix(f"delve/{folder.name}/")
    with Image.open(png) as img:
        grey = img.convert("L")
    w, h = grey.size
    off = []
    for wall in scene["walls"]:
        if wall["door"] == 1:
            continue
        x1, y1, x2, y2 = wall["c"]
        for k in range(1, 10):
            x, y = round(x1 + (x2 - x1) * k / 10), round(y1 + (y2 - y1) * k / 10)
            near = [
                grey.getpixel((min(w - 1, max(0, x + dx)), min(h - 1, max(0, y + dy))))
                for dx in (-3, 0, 3)
                for dy in (-3, 0, 3)
            ]
            if min(near) > 100:
                off.append((x, y))
    return off


@pytest.mark.parametrize(("seed", "rooms"), [("ink", 6), ("ink-caves", 18), ("ink-deep", 30)])
def test_site_scene_walls_sit_on_the_pictures_walls(builtin_tables, tmp_path, seed, rooms):
    """Every wall of every level's scene lies on a wall drawn in its picture, sampled pixel
    by pixel, so tokens stop where the players see stone."""
    from generator.export.files import FolderWriter
    from generator.export.foundry import export_foundry

    site = generate_site(builtin_tables, Rng(seed), rooms=rooms)
    writer = FolderWriter(tmp_path / "f")
    export_foundry(site, writer)
    writer.commit()
    docs = validate_folder(tmp_path / "f")
    assert len(docs["Scene"]) == site.levels
    for scene in docs["Scene"]:
        assert sum(w["door"] != 1 for w in scene["walls"]) >= 4, scene["name"]
        off = off_the_ink(tmp_path / "f", scene)
        assert not off, (
            f"{scene['name']}: {len(off)} wall points off the picture's walls: {off[:5]}"
        )


def test_tables_export_all_validates(run_cli, tmp_path):
    res = run_cli("tables", "export", "--all", "--format", "foundry", "-o", tmp_path / "t")
    assert res.code == 0, res.err
    docs = validate_folder(tmp_path / "t")
    assert len(docs["RollTable"]) > 100


def test_an_encounter_without_a_stat_block_is_escaped_text(builtin_tables):
    """A hand-edited document may name a monster its bestiary lacks: its name is plain,
    escaped text in the roll table, never markup."""
    from generator.export.foundry.rolltable import site_encounters
    from generator.render.context import system_for

    site = generate_site(builtin_tables, Rng("unlisted"))
    site.encounters[0].name = "<img src=x onerror=alert(1)>"
    site.encounters[0].count = "1"
    table = site_encounters(site, system_for(site), "E" * 16, {})
    validate("RollTable", table)
    first = table["results"][0]["description"]
    assert "<img" not in first and "&lt;img src=x" in first


def test_render_of_a_saved_site_makes_the_same_foundry_folder(run_cli, tmp_path):
    """`delve render DOC.json --format foundry` writes what `delve site` writes, byte for byte
    (the folder name aside, which the scenes' picture paths carry)."""
    doc = tmp_path / "site.json"
    assert run_cli("site", "--seed", "again", "--rooms", "12", "-f", "json", "-o", doc).code == 0
    a = export(run_cli, tmp_path / "a", "render", str(doc))
    b = export(run_cli, tmp_path / "b", "site", "--seed", "again", "--rooms", "12")
    files = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    validate_folder(a)


def test_namesakes_each_link_their_own_page(builtin_tables, tmp_path):
    """Two havens, two sites (and three people) of one name: each hex's page links its own
    haven's page and its own site's journal, and nothing is left unlinked."""
    from test_export_vault import namesake_region, near

    from generator.export.files import FolderWriter
    from generator.export.foundry import export_foundry

    region = namesake_region(builtin_tables)
    writer = FolderWriter(tmp_path / "f")
    export_foundry(region, writer)
    writer.commit()
    docs = validate_folder(tmp_path / "f")
    check_links(docs)  # and no orphan pages
    (rj,) = [e for e in docs["JournalEntry"] if e["flags"]["delve"]["kind"] == "region"]
    page_of = {p["_id"]: p["flags"]["delve"]["page"] for p in rj["pages"]}
    seed_of = {e["_id"]: e["flags"]["delve"]["seed"] for e in docs["JournalEntry"]}
    checked = {"haven": 0, "site": 0}
    for page in rj["pages"]:
        kind, _, label = page["flags"]["delve"]["page"].partition("/")
        if kind != "hex":
            continue
        for target, _shown in uuid_links(page["text"]["content"]):
            parts = target.split(".")
            if target.startswith(".") and page_of[parts[1]].startswith("haven/"):
                assert page_of[parts[1]][6:] in near(region, label), (page["name"], target)
                checked["haven"] += 1
            elif parts[0] == "JournalEntry":
                seed = seed_of[parts[1]]
                assert any(f"/hex/{lab}/" in seed for lab in near(region, label)), target
                checked["site"] += 1
    assert all(checked.values()), checked
