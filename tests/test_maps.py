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
    assert ">to level 2</text>" in first
    assert ">from level 1</text>" in second


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


@pytest.mark.parametrize("fmt", ["svg", "png", "uvtt"])
def test_same_seed_same_bytes(builtin_tables, fmt):
    def once() -> list:
        s = generate_site(builtin_tables, Rng("bytes"), rooms=12)
        with site_map.using(site_map.MapOptions(ppg=24)):
            return list(render(s, fmt))

    assert once() == once()


# ---------------------------------------------------------------- Universal VTT


@pytest.fixture(scope="module")
def uvtt(site) -> list[dict]:
    with site_map.using(site_map.MapOptions(ppg=20)):
        return [json.loads(page) for page in render(site, "uvtt")]


def test_uvtt_has_every_field(uvtt, site):
    assert len(uvtt) == site.levels
    for depth, doc in enumerate(uvtt, start=1):
        assert doc["format"] == 0.3
        res = doc["resolution"]
        assert set(res) == {"map_origin", "map_size", "pixels_per_grid"}
        assert res["map_origin"] == {"x": 0, "y": 0} and res["pixels_per_grid"] == 20
        assert doc["line_of_sight"] and all(
            len(line) >= 2 and all(set(p) == {"x", "y"} for p in line)
            for line in doc["line_of_sight"]
        )
        assert doc["objects_line_of_sight"] == []
        doors = [d for d in level_geometry(site, depth, False).doors if d.kind != "open"]
        assert len(doc["portals"]) == len(doors)
        for portal in doc["portals"]:
            assert set(portal) == {"position", "bounds", "rotation", "closed", "freestanding"}
            assert portal["closed"] is True and portal["freestanding"] is False
            (a, b) = portal["bounds"]
            assert abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) == pytest.approx(1.0)
        assert set(doc["environment"]) == {"baked_lighting", "ambient_light"}
        assert re.fullmatch(r"[0-9a-f]{8}", doc["environment"]["ambient_light"])
        for light in doc["lights"]:
            assert set(light) == {"position", "range", "intensity", "color", "shadows"}
            assert re.fullmatch(r"[0-9a-f]{8}", light["color"]) and light["range"] > 0
        image = Image.open(io.BytesIO(base64.b64decode(doc["image"])))
        assert image.size == (res["map_size"]["x"] * 20, res["map_size"]["y"] * 20)


def test_uvtt_lights_follow_the_rooms_light(site, uvtt):
    from generator.plan.lights import source

    for depth, doc in enumerate(uvtt, start=1):
        lit = [r for r in site.rooms if r.level == depth and source(r.light) is not None]
        assert len(doc["lights"]) == len(lit)
    assert source("pitch darkness that swallows torchlight a few paces out") is None
    assert source("the red glow of banked coals in a hearth") is not None


def _crosses(p, q, a, b) -> bool:
    """Whether segment pq crosses segment ab (touching counts)."""

    def orient(u, v, w) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    if ((d1 > 0) != (d2 > 0) or d1 == 0 or d2 == 0) and (
        (d3 > 0) != (d4 > 0) or d3 == 0 or d4 == 0
    ):
        return (
            min(a[0], b[0]) - 1e-9 <= max(p[0], q[0])
            and min(p[0], q[0]) <= max(a[0], b[0]) + 1e-9
            and min(a[1], b[1]) - 1e-9 <= max(p[1], q[1])
            and min(p[1], q[1]) <= max(a[1], b[1]) + 1e-9
        )
    return False


def _doorways(site, depth, origin) -> list:
    """Every doorway of a level from the JSON plan itself: corridor ends, shared walls, the
    way in (picture coordinates)."""
    ox, oy = origin
    rooms = {r.id: r for r in site.rooms}

    def edge(inside, outside):
        (x, y), (x2, y2) = inside, outside
        x, y, x2, y2 = x - ox, y - oy, x2 - ox, y2 - oy
        if x2 != x:
            gx = max(x, x2)
            return ((gx, y), (gx, y + 1))
        gy = max(y, y2)
        return ((x, gy), (x + 1, gy))

    def touching(room, sq):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (sq[0] + dx, sq[1] + dy)
            if room.x <= q[0] < room.x + room.w and room.y <= q[1] < room.y + room.h:
                return q
        return None

    out = []
    for c in site.connections:
        if c.levels or rooms[c.from_room].level != depth:
            continue
        if c.path:
            out.append(edge(touching(rooms[c.from_room], c.path[0]), c.path[0]))
            out.append(edge(touching(rooms[c.to_room], c.path[-1]), c.path[-1]))
        else:
            x, y, side = c.door
            step = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}[side]
            out.append(edge((x, y), (x + step[0], y + step[1])))
    for r in site.rooms:
        if r.level == depth and r.entry:
            out.append(edge(touching(r, r.entry[0]), r.entry[0]))
    return out


def _flood(start, inside, near) -> None:
    """Quarter-square steps from `start` that no barrier stops must all stay `inside`."""
    seen, todo = {start}, [start]
    while todo:
        p = todo.pop()
        assert inside(p), p
        for dx, dy in ((0.25, 0), (-0.25, 0), (0, 0.25), (0, -0.25)):
            q = (p[0] + dx, p[1] + dy)
            if q in seen or any(_crosses(p, q, a, b) for a, b in near):
                continue
            seen.add(q)
            todo.append(q)


def test_uvtt_walls_enclose_every_room_and_corridor(site, uvtt):
    """Walk out from the middle of each room and corridor in quarter squares: walls, portals
    and open doorways must stop every step before it leaves the room or the corridor."""
    _check_enclosed(site, uvtt)


@pytest.mark.parametrize("seed, rooms", [("ent181", 12), ("octagon/27", 6), ("round/7", 18)])
def test_uvtt_walls_enclose_shaped_rooms_and_a_crossroads(builtin_tables, seed, rooms):
    """The same walk for sites with caves, round rooms and octagons, and one whose way in
    crosses a corridor at a crossroads (ent181)."""
    s = generate_site(builtin_tables, Rng(seed), rooms=rooms)
    with site_map.using(site_map.MapOptions(ppg=20)):
        docs = [json.loads(page) for page in render(s, "uvtt")]
    _check_enclosed(s, docs)


def _check_enclosed(site, uvtt) -> None:
    for depth, doc in enumerate(uvtt, start=1):
        origin = level_geometry(site, depth).origin
        barriers = []
        for line in doc["line_of_sight"]:
            pts = [(p["x"], p["y"]) for p in line]
            barriers += list(zip(pts, pts[1:], strict=False))
        for portal in doc["portals"]:
            a, b = portal["bounds"]
            barriers.append(((a["x"], a["y"]), (b["x"], b["y"])))
        barriers += _doorways(site, depth, origin)

        def near(x0, y0, x1, y1, barriers=barriers):
            return [
                (p, q)
                for p, q in barriers
                if min(p[0], q[0]) <= x1 + 1
                and max(p[0], q[0]) >= x0 - 1
                and min(p[1], q[1]) <= y1 + 1
                and max(p[1], q[1]) >= y0 - 1
            ]

        for room in (r for r in site.rooms if r.level == depth):
            x0, y0 = room.x - origin[0], room.y - origin[1]
            x1, y1 = x0 + room.w, y0 + room.h
            floor = room.cells or [(x, y) for x in range(room.w) for y in range(room.h)]
            mx, my = min(
                floor,
                key=lambda c: (abs(c[0] + 0.5 - room.w / 2) + abs(c[1] + 0.5 - room.h / 2), c),
            )
            start = (x0 + mx + 0.375, y0 + my + 0.375)
            box = (x0, y0, x1, y1)
            _flood(
                start,
                lambda p, b=box: b[0] < p[0] < b[2] and b[1] < p[1] < b[3],
                near(x0, y0, x1, y1),
            )
        paths = [
            c.path
            for c in site.connections
            if not c.levels and c.path and site.room(c.from_room).level == depth
        ]
        way = [tuple(p) for r in site.rooms if r.level == depth for p in r.entry]
        if len(way) > 1:
            # The way in is open to the outside at its far end: close it for the walk.
            (ax, ay), (bx, by) = way[-2], way[-1]
            ox, oy = origin
            end = (bx - ox + (bx - ax) * 0.5 + 0.5, by - oy + (by - ay) * 0.5 + 0.5)
            half = (abs(by - ay) * 0.5, abs(bx - ax) * 0.5)
            barriers.append(
                ((end[0] - half[0], end[1] - half[1]), (end[0] + half[0], end[1] + half[1]))
            )
        # A corridor the way in crosses is open to it there (a crossroads): walk them as one.
        crossed = [p for p in paths if set(map(tuple, p)) & set(way)]
        joined = {tuple(q) for p in crossed for q in p} | set(way)
        for path in paths:
            squares = joined if path in crossed else {tuple(q) for q in path}
            cells = {(x - origin[0], y - origin[1]) for x, y in squares}
            xs, ys = [x for x, _ in cells], [y for _, y in cells]
            mid = sorted(cells)[len(cells) // 2]
            start = (mid[0] + 0.375, mid[1] + 0.375)
            _flood(
                start,
                lambda p, cells=cells: (int(p[0] // 1), int(p[1] // 1)) in cells,
                near(min(xs), min(ys), max(xs) + 1, max(ys) + 1),
            )


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


def test_booklet_map_pages_one_level_a_page(builtin_tables):
    from generator.render import booklet

    site = generate_site(builtin_tables, Rng("booklet-maps"), rooms=18)
    html = booklet.booklet_html(site, booklet.make_options("a5"))
    assert html.count('<section class="part map-page"') == 3
    for depth in (2, 3):
        assert f'id="map-{depth}"' in html
    # Sized in millimetres for the page, never wider than A5's text block.
    widths = [float(w) for w in re.findall(r'<svg class="plan"[^>]*width="([\d.]+)mm"', html)]
    assert len(widths) == 3 and all(w <= booklet.PAPERS["a5"].content_width + 0.1 for w in widths)


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


def test_numbers_marks_and_labels_never_land_on_anything(builtin_tables):
    """Room numbers sit inside their rooms; no number, mark or label lands on another, on a
    door or on a stair (a room with fewer than three squares of free floor may have to); a
    stair's label stands near it, on its room's floor or on the rock, never over a wall."""
    from generator.render.map_draw import level_drawing
    from generator.render.map_labels import REACH, cells_under, grow, overlap

    checked = 0
    for site in _placed_sites(builtin_tables):
        for depth in range(1, site.levels + 1):
            geo = level_geometry(site, depth, players=False)
            placed = level_drawing(site, depth, geometry=geo).placed
            rooms = {r.id: r for r in geo.rooms}
            stairs = {s.cell for s in geo.stairs}
            floor = {c for r in geo.rooms for c in r.cells}
            floor |= {c for p in geo.corridors for c in p} | set(geo.entry)
            numbers = [w for w, _ in placed if w.startswith("number/")]
            assert sorted(numbers) == sorted(f"number/{r}" for r in rooms)
            for what, box in placed:
                kind, _, rest = what.partition("/")
                if kind == "number":
                    assert all(c in rooms[int(rest)].cells for c in cells_under(box)), what
                if kind in ("number", "mark"):
                    room = rooms[int(rest.split("/")[0])]
                    if len([c for c in room.inner if c not in stairs]) < 3:
                        continue  # a closet with a stair: no room to spare
                if kind in ("number", "mark", "stair-label", "entrance"):
                    hits = [w for w, b in placed if w != what and overlap(box, b)]
                    assert not hits, (site.seed, depth, what, hits)
                    checked += 1
                if kind == "stair-label":
                    stair = next(s for s in geo.stairs if s.connection == int(rest))
                    x, y = stair.cell
                    gap = max(x - box[2], box[0] - x - 1, y - box[3], box[1] - y - 1)
                    assert gap <= 2 * REACH, (site.seed, depth, what)
                    own = set(rooms[stair.room].inner)
                    on_floor = all(c in own for c in cells_under(grow(box, 0.05)))
                    on_rock = not any(c in floor for c in cells_under(grow(box, 0.1)))
                    assert on_floor or on_rock, (site.seed, depth, what)
    assert checked > 500


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


def test_uvtt_files_are_one_a_level(run_cli, tmp_path):
    out = tmp_path / "crypt.dd2vtt"
    res = run_cli("site", "--seed", "vtt", "--rooms", "18", "-f", "uvtt", "--dpi", "20", "-o", out)
    assert res.code == 0, res.err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "crypt-level2.dd2vtt",
        "crypt-level3.dd2vtt",
        "crypt.dd2vtt",
    ]
    sizes = {json.loads(p.read_text())["resolution"]["pixels_per_grid"] for p in tmp_path.iterdir()}
    assert sizes == {20}


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
    assert (
        run_cli("render", tmp_path / "bare.json", "-f", "svg", "-o", tmp_path / "a.svg").code == 0
    )
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


def _clear_move(doc):
    """The first room of level 1 but the entrance (and shift by two squares) whose moved box,
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
        for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2)):
            box = dict(room["map"], x=room["map"]["x"] + dx, y=room["map"]["y"] + dy)
            if box["x"] >= 1 and box["y"] >= 1 and not squares(box, 1) & (others | paths):
                room["map"] = box
                return index, room
    raise AssertionError("no room of the level can move two squares clear of the rest")
