"""Site maps: SVG, PNG and Universal VTT from one drawing; the players' map; the CLI options."""

from __future__ import annotations

import base64
import io
import json
import re

import pytest
from PIL import Image

from generator.build.site import generate_site
from generator.engine.rng import Rng
from generator.model.site import ROOM_COUNTS
from generator.plan.geometry import level_geometry
from generator.render import site_map
from generator.render.documents import render
from generator.render.map_svg import drawing_svg


@pytest.fixture(scope="module")
def site(builtin_tables):
    # Two levels, with hidden doors, locked doors and a way down, for every symbol.
    for i in range(200):
        s = generate_site(builtin_tables, Rng(f"maps/{i}"), rooms=12)
        top = {r.id for r in s.rooms if r.level == 1}  # the legend tests read level 1
        kinds = {c.obstacle for c in s.connections if c.from_room in top and c.to_room in top}
        if {"hidden_door", "locked_door"} <= kinds:
            return s
    raise AssertionError("no seed with both kinds of door")


def _svg(site, players=False) -> list[str]:
    with site_map.using(site_map.MapOptions(players=players)):
        return list(render(site, "svg"))


# ---------------------------------------------------------------- SVG and PNG


def test_svg_is_one_map_a_level(site):
    pages = _svg(site)
    assert len(pages) == site.levels == 2
    for depth, page in enumerate(pages, start=1):
        assert page.startswith("<svg") and f"level {depth} of 2" in page
        numbers = {int(n) for n in re.findall(r'font-weight="bold"[^>]*>(\d+)</text>', page)}
        assert numbers == {r.id for r in site.rooms if r.level == depth}
        assert "50 feet" in page and ">N</text>" in page  # scale bar and compass


def test_the_legend_lists_the_symbols_used(site):
    first = _svg(site)[0]
    for word in ("hidden door", "door", "monsters", "treasure", "entrance"):
        assert f">{word}</text>" in first
    level = site.connections
    assert not any(c.kind == "ladder" for c in level) or ">ladder</text>" in first


def test_ways_between_levels_are_labelled_at_both_ends(site):
    first, second = _svg(site)
    # On one line, or stacked on two where that stands nearer its symbol (map_labels.py).
    assert ">to level 2</text>" in first or (">to</text>" in first and ">level 2</text>" in first)
    assert ">from level 1</text>" in second or (
        ">from</text>" in second and ">level 1</text>" in second
    )


def test_the_players_map_hides_what_players_do_not_know(site):
    referee, players = _svg(site)[0], _svg(site, players=True)[0]
    assert ">S</text>" in referee and ">S</text>" not in players
    assert not re.findall(r'font-weight="bold"[^>]*>\d+</text>', players)
    for word in ("monsters", "treasure", "trap", "feature", "hidden door"):
        assert f">{word}</text>" not in players
    assert "Seed" not in players
    # A hidden door is plain wall for the players: one wall more, one doorway fewer.
    geo_r = level_geometry(site, 1, players=False)
    geo_p = level_geometry(site, 1, players=True)
    secret = [d for d in geo_r.doors if d.kind == "secret"]
    assert secret and not [d for d in geo_p.doors if d.kind == "secret"]
    walls = {tuple(map(tuple, w)) for w in geo_p.walls}
    assert walls != {tuple(map(tuple, w)) for w in geo_r.walls}


def test_png_is_the_same_picture_at_the_asked_size(site):
    with site_map.using(site_map.MapOptions(ppg=30)):
        pages = render(site, "png")
    drawing_w = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', _svg(site)[0])
    image = Image.open(io.BytesIO(pages[0]))
    assert image.format == "PNG"
    w, h = (float(v) / 20 for v in drawing_w.groups())  # 20 SVG units a square
    assert abs(image.width - w * 30) <= 1 and abs(image.height - h * 30) <= 1


def _segments(drawing, width):
    """Every straight piece of line of this width on a plan drawn without its frame."""
    from generator.render.map_primitives import Poly, Segments

    out = []
    for item in drawing.items:
        if isinstance(item, Poly) and item.width == width and item.stroke:
            pts = list(item.points) + ([item.points[0]] if item.closed else [])
            out += list(zip(pts, pts[1:], strict=False))
        elif isinstance(item, Segments) and item.width == width:
            out += list(item.lines)
    return out


def _covered(edge, pieces) -> bool:
    """Whether a unit edge of the grid lies on one of these straight pieces."""
    (ax, ay), (bx, by) = edge
    for (px, py), (qx, qy) in pieces:
        if ax == bx == px == qx and min(py, qy) <= min(ay, by) and max(ay, by) <= max(py, qy):
            return True
        if ay == by == py == qy and min(px, qx) <= min(ax, bx) and max(ax, bx) <= max(px, qx):
            return True
    return False


@pytest.mark.parametrize("players", [False, True])
def test_every_room_is_outlined_on_the_map(builtin_tables, players):
    """A room reads as a room, not one blob with a corridor run flush with its wall or a room
    a square wide: round its floor, every edge is wall, a door's symbol, an S, or (an open
    doorway) a thin threshold line."""
    from generator.render.map_draw import SILL, level_drawing
    from generator.render.map_primitives import WALL

    checked = 0
    for i in range(8):
        s = generate_site(builtin_tables, Rng(f"outlined/{i}"), rooms=12)
        for depth in range(1, s.levels + 1):
            geo = level_geometry(s, depth, players=players)
            drawing = level_drawing(s, depth, players=players, frame=False, geometry=geo)
            walls, sills = _segments(drawing, WALL), _segments(drawing, SILL)
            symbols = {(d.a, d.b) for d in geo.doors if d.kind == "locked" or d.kind == "secret"}
            for room in geo.rooms:
                if room.shape not in ("rect", "cross"):
                    continue  # curved outlines: their corners are not grid edges
                for x, y in room.cells:
                    for dx, dy, edge in (
                        (0, -1, ((x, y), (x + 1, y))),
                        (0, 1, ((x, y + 1), (x + 1, y + 1))),
                        (-1, 0, ((x, y), (x, y + 1))),
                        (1, 0, ((x + 1, y), (x + 1, y + 1))),
                    ):
                        if (x + dx, y + dy) in room.cells:
                            continue
                        fedge = tuple((float(a), float(b)) for a, b in edge)
                        ok = _covered(edge, walls) or fedge in symbols
                        ok = ok or _covered(edge, sills)
                        assert ok, (s.seed, depth, room.id, edge)
                        checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    "words, name",
    [
        ("A short tunnel with a stream of water running down its middle.", "water"),
        ("A barrel-vaulted brick culvert running with a thin cold stream.", "water"),
        ("A short flight of brick steps under a low vault.", "steps"),
        ("A gap where a wall has fallen in, leaving a rubble slope to climb over.", "rubble"),
        ("A plain archway with a keystone carved as a yawning face.", None),
        ("A short bridge of stone over a trickling gully.", None),  # over water, not through
    ],
)
def test_a_corridor_is_drawn_as_its_description_says(builtin_tables, words, name):
    """A stream down a wet way, steps across a stair, stones on a fallen one: ink on the
    corridor's own squares, keyed in the legend, and the tabletop's walls and doors unchanged."""
    from generator.render.map_draw import level_drawing
    from generator.render.map_primitives import Circle, Poly, Segments

    s = generate_site(builtin_tables, Rng("textures"), rooms=6)
    index, way = next(
        (i, c) for i, c in enumerate(s.connections) if c.obstacle == "none" and len(c.path) >= 3
    )
    way.description = "A plain passage."
    plain = level_drawing(s, 1, frame=False).items
    with site_map.using(site_map.MapOptions(ppg=20)):
        walls = json.loads(render(s, "uvtt")[0])
    way.description = words
    drawn = level_drawing(s, 1, frame=False).items
    legend = level_drawing(s, 1)
    with site_map.using(site_map.MapOptions(ppg=20)):
        after = json.loads(render(s, "uvtt")[0])
    for key in ("line_of_sight", "portals", "lights"):
        assert after[key] == walls[key]
    extra = [item for item in drawn if item not in plain]
    if name is None:
        assert not extra
        return
    assert extra
    ox, oy = level_geometry(s, 1).origin
    squares = {(x - ox, y - oy) for x, y in way.path}

    def on_corridor(p) -> bool:
        return any(x - 1e-6 <= p[0] <= x + 1 + 1e-6 and y - 1e-6 <= p[1] <= y + 1 + 1e-6
                   for x, y in squares)  # fmt: skip

    for item in extra:
        if isinstance(item, Poly):
            points = item.points
        elif isinstance(item, Segments):
            points = [p for line in item.lines for p in line]
        else:
            assert isinstance(item, Circle)
            (cx, cy), r = item.centre, item.r
            points = [(cx - r, cy - r), (cx + r, cy + r)]
        assert all(on_corridor(p) for p in points), (name, item)
    svg = drawing_svg(legend)
    assert f">{name}</text>" in svg


@pytest.mark.parametrize("fmt", ["svg", "png", "uvtt"])
def test_same_seed_same_bytes(builtin_tables, fmt):
    def once() -> list:
        s = generate_site(builtin_tables, Rng("bytes"), rooms=12)
        with site_map.using(site_map.MapOptions(ppg=24)):
            return list(render(s, fmt))

    assert once() == once()


# ---------------------------------------------------------------- the CLI


def test_cli_writes_a_file_a_level(run_cli, tmp_path):
    out = tmp_path / "crypt.png"
    res = run_cli(
        "site", "--seed", "files", "--rooms", "18", "-f", "png", "--dpi", "20", "-o", str(out)
    )
    assert res.code == 0, res.err
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["crypt-level2.png", "crypt-level3.png", "crypt.png"]
    res = run_cli(
        "site", "--seed", "files", "-f", "uvtt", "--players", "-o", str(tmp_path / "v.dd2vtt")
    )
    assert res.code == 0, res.err
    assert json.loads((tmp_path / "v.dd2vtt").read_text())["format"] == 0.3


def test_cli_default_names(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("site", "--seed", "dflt", "-f", "svg", "--players").code == 0
    assert (tmp_path / "output" / "site-dflt-players.svg").exists()
    assert run_cli("site", "--seed", "dflt", "-f", "uvtt", "--dpi", "20").code == 0
    assert (tmp_path / "output" / "site-dflt.dd2vtt").exists()


@pytest.mark.parametrize(
    "args, needle",
    [
        (["-f", "png", "--dpi", "0"], "--dpi 0"),
        (["-f", "png", "--dpi", "5000"], "--dpi 5000"),
        (["-f", "json", "--players"], "--players"),
        (["-f", "text", "--players"], "--players"),
        (["-f", "graphml", "--players"], "--players"),
        (["-f", "svg", "--dpi", "50"], "--dpi"),
    ],
)
def test_cli_map_options_refused_in_one_line(run_cli, tmp_path, args, needle):
    out = tmp_path / "never.out"
    res = run_cli("site", "--seed", "bad", "-o", str(out), *args)
    assert res.code == 1
    assert needle in res.err and len(res.err.strip().splitlines()) == 1
    assert not out.exists()


def test_cli_render_draws_a_saved_site(run_cli, tmp_path):
    doc = tmp_path / "site.json"
    doc.write_text(run_cli("site", "--seed", "saved", "-f", "json").out)
    out = tmp_path / "m.svg"
    assert run_cli("render", str(doc), "-f", "svg", "-o", str(out)).code == 0
    direct = tmp_path / "d.svg"
    assert run_cli("site", "--seed", "saved", "-f", "svg", "-o", str(direct)).code == 0
    assert out.read_text() == direct.read_text()


# ---------------------------------------------------------------- booklets


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_booklet_map_pages_one_level_a_page_as_large_as_it_allows(builtin_tables, paper):
    """One level a page, each map as large as the page allows: as wide as the text block, or
    as tall as the page holds under its heading and over its caption (which take at most
    40 mm); and never larger, so it stays on its page."""
    from generator.render import booklet

    size = booklet.PAPERS[paper]
    for rooms, seed in ((18, "booklet-maps"), (6, "booklet-six"), (36, "booklet-big")):
        site = generate_site(builtin_tables, Rng(seed), rooms=rooms)
        html = booklet.booklet_html(site, booklet.make_options(paper))
        assert html.count('<section class="part map-page"') == site.levels
        for depth in range(2, site.levels + 1):
            assert f'id="map-{depth}"' in html
        maps = re.findall(r'<svg class="plan"[^>]*width="([\d.]+)mm" height="([\d.]+)mm"', html)
        assert len(maps) == site.levels
        for w, h in ((float(w), float(h)) for w, h in maps):
            assert w <= size.content_width + 0.1 and h <= size.content_height - 30, (w, h)
            wide = w >= size.content_width - 0.5
            tall = h >= size.content_height - 40
            assert wide or tall, (paper, rooms, w, h, size.content_width, size.content_height)


def test_booklet_map_pages_keep_each_map_on_its_page(builtin_tables):
    """In the PDF (A5, the tightest page), each map page holds its heading, the map and the
    caption under it: the map never spills onto a page of its own."""
    import pypdf

    from generator.render import booklet

    site = generate_site(builtin_tables, Rng("booklet-maps"), rooms=18)
    pdf = booklet.booklet_pdf(site, booklet.make_options("a5"))
    # (Headings are set in small capitals, which pypdf reads back in mixed case.)
    pages = [p.extract_text().lower() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    for depth in range(1, site.levels + 1):
        (page,) = [t for t in pages if f"map, level {depth}" in t]
        assert "one square is 10 feet" in page and f"level {depth} of 3" in page


def test_region_booklet_links_each_site_hex_to_its_map(builtin_tables):
    from generator.build.region import generate_region
    from generator.render import booklet

    region = generate_region(builtin_tables, Rng("linked"), radius=2)
    html = booklet.booklet_html(region, booklet.make_options())
    sites = [h for h in region.hexes if h.site is not None]
    assert sites
    for h in sites:
        assert f'href="#h{h.label}-map"' in html
        assert f'id="h{h.label}-map"' in html


def test_png_without_dejavu_still_draws(site, monkeypatch):
    """Where the system has no DejaVu fonts, Pillow's own font stands in."""
    from generator.render import map_png

    monkeypatch.setattr(map_png, "FONT_DIRS", ())
    map_png._font.cache_clear()
    try:
        with site_map.using(site_map.MapOptions(ppg=20)):
            page = render(site, "png")[0]
        assert Image.open(io.BytesIO(page)).width > 100
    finally:
        map_png._font.cache_clear()


def test_a_picture_too_large_is_refused_in_one_line(run_cli, tmp_path):
    out = tmp_path / "huge.png"
    res = run_cli(
        "site", "--seed", "huge", "--rooms", "36", "-f", "png", "--dpi", "400", "-o", str(out)
    )
    assert res.code == 1 and "--dpi 400" in res.err and "pixels" in res.err
    assert len(res.err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------- what goes where


def _placed_sites(builtin_tables):
    for i in range(36):
        rooms = ROOM_COUNTS[i % len(ROOM_COUNTS)]
        yield generate_site(builtin_tables, Rng(f"placed/{i}"), rooms=rooms, level=1 + i % 10)
    # Room 27, a 3 x 4 cave whose only two squares wholly inside its walls both hold stairs.
    yield generate_site(builtin_tables, Rng("lab95"), rooms=36, level=6)


def test_numbers_marks_and_labels_never_land_on_anything(builtin_tables):
    """Room numbers sit inside their rooms; no number, mark or label lands on another, on a
    door or on a stair, however small the room; a stair's label stands near it, on its room's
    floor or on the rock, never over a wall."""
    from generator.render.map_draw import level_drawing
    from generator.render.map_labels import REACH, cells_under, grow, overlap

    checked = stairs_checked = 0
    for site in _placed_sites(builtin_tables):
        for depth in range(1, site.levels + 1):
            geo = level_geometry(site, depth, players=False)
            placed = level_drawing(site, depth, geometry=geo).placed
            rooms = {r.id: r for r in geo.rooms}
            floor = {c for r in geo.rooms for c in r.cells}
            floor |= {c for p in geo.corridors for c in p} | set(geo.entry)
            numbers = [w for w, _ in placed if w.startswith("number/")]
            assert sorted(numbers) == sorted(f"number/{r}" for r in rooms)
            for what, box in placed:
                kind, _, rest = what.partition("/")
                if kind == "number":
                    assert all(c in rooms[int(rest)].cells for c in cells_under(box)), what
                if kind in ("number", "mark", "stair-label", "entrance"):
                    hits = [w for w, b in placed if w != what and overlap(box, b)]
                    assert not hits, (site.seed, depth, what, hits)
                    checked += 1
                if kind == "stair":  # a stair's icon and a door's symbol or S
                    hits = [
                        w
                        for w, b in placed
                        if w != what and w.startswith(("door/", "stair/")) and overlap(box, b)
                    ]
                    assert not hits, (site.seed, depth, what, hits)
                    stairs_checked += 1
                if kind == "stair-label":
                    stair = next(s for s in geo.stairs if s.connection == int(rest))
                    x, y = stair.cell
                    gap = max(x - box[2], box[0] - x - 1, y - box[3], box[1] - y - 1)
                    assert gap <= 2 * REACH, (site.seed, depth, what)
                    own = set(rooms[stair.room].inner)
                    on_floor = all(c in own for c in cells_under(grow(box, 0.05)))
                    on_rock = not any(c in floor for c in cells_under(grow(box, 0.1)))
                    assert on_floor or on_rock, (site.seed, depth, what)
    assert checked > 500 and stairs_checked > 200


def test_map_text_is_never_under_six_and_a_half_points_in_a_booklet(builtin_tables):
    """Every word on a booklet's map pages (numbers, labels, legend, the legend's S) at A4,
    Letter and A5, for sites of 6, 12 and 36 rooms."""
    from generator.render.booklet import PAPERS
    from generator.render.site_map import MIN_PT, PT_MM, booklet_maps

    for i in range(4):
        for rooms in (6, 12, 36):
            site = generate_site(builtin_tables, Rng(f"points/{i}"), rooms=rooms)
            for paper in ("a4", "letter", "a5"):
                for page in booklet_maps(site, PAPERS[paper]):
                    svg = str(page["svg"])
                    mm = float(re.search(r'width="([\d.]+)mm"', svg).group(1))
                    units = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
                    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
                    smallest = min(sizes) * mm / units / PT_MM
                    assert smallest >= MIN_PT - 0.01, (site.seed, rooms, paper, smallest)


def test_the_players_map_is_the_same_in_every_format(site):
    """--players hides numbers, hidden doors and marks in SVG and PNG (one drawing), in the
    Universal VTT picture and portals, and a Foundry scene shows that picture too."""
    from generator.export.foundry.plan import DPI, level_images
    from generator.render.map_draw import level_drawing
    from generator.render.map_png import drawing_png

    for depth in range(1, site.levels + 1):
        players = level_drawing(site, depth, players=True)
        referee = level_drawing(site, depth, players=False)
        kinds = {w.split("/")[0] for w, _ in players.placed}
        assert not kinds & {"number", "mark"} and {"number", "mark"} <= {
            w.split("/")[0] for w, _ in referee.placed
        }
        secret = [
            d.connection for d in level_geometry(site, depth, False).doors if d.kind == "secret"
        ]
        shown = {w for w, _ in players.placed if w.startswith("door/")}
        assert not shown & {f"door/{c}" for c in secret}
        with site_map.using(site_map.MapOptions(players=True, ppg=20)):
            png = render(site, "png")[depth - 1]
            uvtt = json.loads(render(site, "uvtt")[depth - 1])
        assert png == drawing_png(players, 20)
        bare = level_drawing(site, depth, players=True, frame=False)
        assert base64.b64decode(uvtt["image"]) == drawing_png(bare, 20)
        # A hidden door is no portal on the players' file, and one on the referee's.
        with site_map.using(site_map.MapOptions(players=False, ppg=20)):
            ref = json.loads(render(site, "uvtt")[depth - 1])
        assert base64.b64decode(ref["image"]) == drawing_png(bare, 20)  # pictures never tell
        assert len(ref["portals"]) - len(uvtt["portals"]) == len(secret)
    for depth, _geometry, image in level_images(site):
        assert image.png == drawing_png(level_drawing(site, depth, True, frame=False), DPI)


def test_render_of_a_document_without_paths_draws_the_generated_plan(run_cli, tmp_path):
    """`delve render` of a document whose plan was stripped plans it afresh, as generated;
    one whose plan was edited by hand draws the edit."""
    doc = json.loads(run_cli("site", "--seed", "stripped", "-f", "json").out)
    for r in doc["rooms"]:
        r["map"] = {k: v for k, v in r["map"].items() if k in ("w", "h", "shape")}
    for c in doc["connections"]:
        for key in ("path", "door", "at", "to_at"):
            c.pop(key, None)
    (tmp_path / "bare.json").write_text(json.dumps(doc))
    res = run_cli("render", tmp_path / "bare.json", "-f", "svg", "-o", tmp_path / "a.svg")
    assert res.code == 0
    # The referee is told, in one line, that the rooms' places were not kept.
    (line,) = [x for x in res.err.splitlines() if not x.startswith("wrote ")]
    assert line.startswith("delve: warning: site: ") and "afresh from the seed" in line
    assert "overlaps" in line
    assert run_cli("site", "--seed", "stripped", "-f", "svg", "-o", tmp_path / "b.svg").code == 0
    assert (tmp_path / "a.svg").read_text() == (tmp_path / "b.svg").read_text()
    # A hand edit: one room moved two squares, its corridors dropped and routed again. The
    # room and the way it moves are the first that land clear of every other room and corridor.
    doc = json.loads(run_cli("site", "--seed", "stripped", "-f", "json").out)
    index, moved = _clear_move(doc)
    for c in doc["connections"]:
        if moved["id"] in (c["from"], c["to"]) and not c.get("at"):
            c.pop("path"), c.pop("door")
    (tmp_path / "edit.json").write_text(json.dumps(doc))
    out = tmp_path / "edit-out.json"
    assert run_cli("render", tmp_path / "edit.json", "-f", "json", "-o", out).code == 0
    back = json.loads(out.read_text())
    assert back["rooms"][index]["map"] == moved["map"]
    assert all(c.get("path") is not None for c in back["connections"] if not c.get("at"))


def test_render_keeps_the_rooms_of_a_document_stripped_of_every_path(run_cli, tmp_path):
    """A referee moves a room and deletes every corridor, door, way's square and the way in:
    the rooms stay where they were put (not where the seed would put them), everything is
    routed among them, and nothing is said on stderr."""
    doc = json.loads(run_cli("site", "--seed", "harrowdeep", "-f", "json").out)
    index, moved = _clear_move(doc, far=5)
    for c in doc["connections"]:
        for key in ("path", "door", "at", "to_at"):
            c.pop(key, None)
    for r in doc["rooms"]:
        r["map"].pop("entry", None)
    (tmp_path / "edit.json").write_text(json.dumps(doc))
    out = tmp_path / "out.json"
    res = run_cli("render", tmp_path / "edit.json", "-f", "json", "-o", out)
    assert res.code == 0 and res.err.startswith("wrote ") and "warning" not in res.err
    back = json.loads(out.read_text())
    # Every room where the edit put it, the moved one five squares from its seed's place.
    for before, after in zip(doc["rooms"], back["rooms"], strict=True):
        assert {k: after["map"][k] for k in before["map"]} == before["map"]
    assert back["rooms"][index]["map"] == moved["map"]
    for c in back["connections"]:
        assert c["path"] is not None and (c.get("door") or c.get("at"))
    assert next(r for r in back["rooms"] if r.get("entrance"))["map"]["entry"]
    svg = tmp_path / "out.svg"
    assert run_cli("render", tmp_path / "edit.json", "-f", "svg", "-o", svg).code == 0


def _clear_move(doc, far=2):
    """The first room of level 1 but the entrance (and shift by `far` squares) whose moved box,
    with a square of rock round it, touches no other room and no corridor it is not part of."""

    def squares(m, pad=0):
        return {
            (x, y)
            for x in range(m["x"] - pad, m["x"] + m["w"] + pad)
            for y in range(m["y"] - pad, m["y"] + m["h"] + pad)
        }

    rooms = [r for r in doc["rooms"] if r["level"] == 1]
    for index, room in enumerate(rooms):
        if room["map"].get("entry"):
            continue  # the way in from outside is drawn to the room where it stands
        others = set().union(*(squares(r["map"]) for r in rooms if r is not room))
        paths = {
            tuple(sq)
            for c in doc["connections"]
            if room["id"] not in (c["from"], c["to"])
            for sq in c.get("path") or ()
        }
        for dx, dy in ((-far, 0), (far, 0), (0, -far), (0, far)):
            box = dict(room["map"], x=room["map"]["x"] + dx, y=room["map"]["y"] + dy)
            if box["x"] >= 1 and box["y"] >= 1 and not squares(box, 1) & (others | paths):
                room["map"] = box
                return index, room
    raise AssertionError(f"no room of the level can move {far} squares clear of the rest")


def _in_box(room, square) -> bool:
    return room.x <= square[0] < room.x + room.w and room.y <= square[1] < room.y + room.h


def test_a_way_a_referee_puts_in_a_doorway_keeps_clear_of_its_door(builtin_tables):
    """A hand-edited plan may put a way between levels on the square just inside a locked or
    hidden door: the stair's icon is drawn smaller, pushed off the door, never under it; and
    a way routed afresh moves its door to the corridor's other end, off the stair."""
    from generator.plan.contract import check_plan
    from generator.plan.planner import doors_off_stairs
    from generator.render.map_draw import level_drawing
    from generator.render.map_labels import overlap

    for i in range(200):
        site = generate_site(builtin_tables, Rng(f"by-hand/{i}"), rooms=12)
        found = [
            (way, c)
            for way in site.connections
            if way.levels and site.room(way.from_room).level == 1
            for c in site.connections
            if c.obstacle in ("locked_door", "hidden_door")
            and c.path
            and site.room(c.from_room).level == 1  # levels share one grid: same level only
            and _in_box(site.room(way.from_room), c.door)
        ]
        if found:
            break
    else:
        raise AssertionError("no site with a door symbol in a room a way down leaves")
    way, door = found[0]
    way.at = tuple(door.door[:2])
    placed = level_drawing(site, 1).placed
    stair = next(b for w, b in placed if w == f"stair/{site.connections.index(way)}")
    symbol = next(b for w, b in placed if w == f"door/{site.connections.index(door)}")
    assert not overlap(stair, symbol)
    assert stair[2] - stair[0] < 0.7  # drawn smaller than a stair in the open (0.76)
    before = door.door
    doors_off_stairs(site)
    assert door.door != before and tuple(door.door[:2]) != way.at
    check_plan(site)


def test_levels_encoded_on_a_thread_are_the_bytes_drawn_one_by_one(builtin_tables):
    """site_png compresses each level on a second thread while the next is drawn (speed, issue
    10): every level's file must be exactly what drawing it alone gives, in level order."""
    from generator.render.map_draw import level_drawing
    from generator.render.map_png import drawing_png

    site = generate_site(builtin_tables, Rng("thread-png"), rooms=24)
    files = site_map.site_png(site)
    ppg = site_map.DEFAULT_PPG
    alone = [drawing_png(level_drawing(site, d), ppg) for d in range(1, site.levels + 1)]
    assert len(files) == site.levels == 4
    assert files == alone
