"""Universal VTT files: every field, portals in the doorways the document names, walls that
enclose every room and corridor (walked), lights where the key's light text says, one file a
level."""

from __future__ import annotations

import base64
import colorsys
import io
import json
import re

import pytest
from PIL import Image

from generator.build.site import generate_site
from generator.engine.rng import Rng
from generator.plan.geometry import level_geometry
from generator.render import site_map
from generator.render.documents import render


@pytest.fixture(scope="module")
def site(builtin_tables):
    # Two levels, with hidden doors, locked doors and a way down (as test_maps.py's site).
    for i in range(200):
        s = generate_site(builtin_tables, Rng(f"maps/{i}"), rooms=12)
        kinds = {c.obstacle for c in s.connections}
        if {"hidden_door", "locked_door"} <= kinds:
            return s
    raise AssertionError("no seed with both kinds of door")


@pytest.fixture(scope="module")
def uvtt(site) -> list[dict]:
    with site_map.using(site_map.MapOptions(ppg=20)):
        return [json.loads(page) for page in render(site, "uvtt")]


DOORS = ("locked_door", "hidden_door")  # the obstacles a tabletop closes with a portal


def _portal_edges(doc) -> set:
    return {
        tuple(
            sorted(
                (
                    (p["bounds"][0]["x"], p["bounds"][0]["y"]),
                    (p["bounds"][1]["x"], p["bounds"][1]["y"]),
                )
            )
        )
        for p in doc["portals"]
    }


@pytest.mark.parametrize("players", [False, True])
def test_uvtt_portals_stand_in_the_doorways_of_the_json_doors(builtin_tables, players):
    """One closed portal across the doorway of each locked door (and hidden door, on the
    referee's file) that the document's `door` names, and none elsewhere."""
    checked = 0
    for i in range(12):
        s = generate_site(builtin_tables, Rng(f"portals/{i}"), rooms=(6, 12, 18)[i % 3])
        with site_map.using(site_map.MapOptions(ppg=20, players=players)):
            docs = [json.loads(page) for page in render(s, "uvtt")]
        for depth, doc in enumerate(docs, start=1):
            origin = level_geometry(s, depth).origin
            shut = ("locked_door",) if players else DOORS
            wanted = {
                tuple(sorted(map(tuple, e)))
                for e, obstacle in _doorways(s, depth, origin)
                if obstacle in shut
            }
            assert _portal_edges(doc) == {tuple(sorted(e)) for e in wanted}, (s.seed, depth)
            checked += len(wanted)
    assert checked > 20


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
    """Every doorway of a level from the JSON plan itself, as (edge, obstacle): corridor
    ends, shared walls, the way in (picture coordinates). The obstacle is the connection's
    (`locked_door`, `hidden_door`...) at its `door`, "none" at a corridor's other end."""
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
        x, y, side = c.door
        step = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}[side]
        door = edge((x, y), (x + step[0], y + step[1]))
        out.append((door, c.obstacle))
        if c.path:
            for room, end in ((c.from_room, c.path[0]), (c.to_room, c.path[-1])):
                e = edge(touching(rooms[room], end), end)
                if e != door:
                    out.append((e, "none"))
    for r in site.rooms:
        if r.level == depth and r.entry:
            out.append((edge(touching(r, r.entry[0]), r.entry[0]), "none"))
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


@pytest.mark.parametrize("how", ["removed", "moved"])
def test_the_wall_walk_finds_a_door_left_open(site, uvtt, how):
    """The walk fails when a portal is missing or stands a square off its doorway: a door is
    closed only by its portal, never by the test's own knowledge of where doors are."""
    import copy

    docs = copy.deepcopy(uvtt)
    doc = next(d for d in docs if d["portals"])
    portal = doc["portals"][0]
    if how == "removed":
        doc["portals"].remove(portal)
    else:
        horizontal = portal["bounds"][0]["y"] == portal["bounds"][1]["y"]
        for p in [*portal["bounds"], portal["position"]]:
            p["x" if horizontal else "y"] += 1
    with pytest.raises(AssertionError):
        _check_enclosed(site, docs)


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
        # Open doorways are gaps on purpose: close them for the walk. A door's doorway must be
        # closed by the file itself, by its portal (or, for the players, by plain wall).
        barriers += [e for e, obstacle in _doorways(site, depth, origin) if obstacle not in DOORS]

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


# ---------------------------------------------------------------- lights

# What a referee reading the key would light, and in what colour, written by hand for the
# built-in room lights (tables/site/room-lights.yaml): "dark", or the colours that would do.
# Colours are families of hue: warm (red to yellow), green, cold (cyan to blue), violet, and
# white for any pale light.
ANY = {"warm", "white", "green", "cold", "violet"}
LIGHTS = {
    "pitch darkness that swallows torchlight a few paces out": "dark",
    "grey daylight falling in a thin shaft through a crack in the ceiling": {"white"},
    "a single candle guttering on a ledge, recently lit": {"warm"},
    "a greenish glow from fungus growing on the walls": {"green"},
    "the red glow of banked coals in a hearth": {"warm"},
    "moonlight through a high grating, striping the floor": {"cold", "white"},
    "flickering torches in iron brackets, burning low": {"warm"},
    "a cold blue light with no source, shadowless and steady": {"cold"},
    "faint violet light pulsing from crystals in the rock": {"violet"},
    "the orange glare of a roaring fire pit": {"warm"},
    "darkness, broken by pinpricks of light from glowworms on the ceiling": {"cold", "green"},
    "a hanging lantern of coloured glass that throws red and gold patches on the walls": {"warm"},
    "a dim, watery shimmer reflected up from a pool": {"cold", "white"},
    "near darkness, with dusty light leaking under a door": {"white", "warm"},
    "a row of skull lamps with candles burning inside their eyes": {"warm"},
    "darkness so thick that torchlight seems to shrink and dim": "dark",
    "bright, warm light from an everburning glass globe on a chain": {"white", "warm"},
    "sparks drifting up from a crack in the floor, lighting the room in brief flashes": {"warm"},
    "sunlight in a dusty wedge from a high, broken window": {"white", "warm"},
    "daylight filtering green through a ceiling of roots and leaves": {"green"},
    "a blue-green glow through walls of ice, like deep water": {"cold", "green"},
    "pale daylight through a roof of thin ice": {"white", "cold"},
    "starlight through a round hole in the dome, a coin of night sky": {"cold", "white"},
    "a dim amber glow through walls of thin paper": {"warm"},
    "a faint glow from slime along the waterline": {"green"},
    "a sickly yellow glow from a puddle of something that moves": {"warm"},
    "a hundred cold candles that never burn down": {"warm", "white"},
    "moonlight through the gaps between deck planks overhead": {"cold", "white"},
    "grey light rippling down through a flooded skylight": {"white", "cold"},
    "witchlight, pale green balls of flame drifting near the ceiling": {"green"},
    "the blue flicker of a ghostly lamp that gives no heat": {"cold"},
    "a soft glow from a mushroom the size of a child": {"green"},
    "luminous moss carpeting the walls in soft green": {"green"},
    "glowing runes along the walls, pulsing like a slow heart": ANY,
    "a red glow from magma creeping in a fissure far below": {"warm"},
    "white flashes from a crackling globe on a brass stand": {"white", "cold"},
    "a shaft of daylight down a chimney, full of turning dust": {"white", "warm"},
    "thin bars of daylight through arrow slits": {"white", "warm"},
    "sunlight thrown off water onto the ceiling in trembling ripples": {"white", "warm"},
    "grey dawn light through the mouth of a sea cave": {"white"},
    "a cold gleam of daylight off the ice, bright enough to squint": {"white", "cold"},
    "a tallow lamp smoking on a hook by the door": {"warm"},
    "lanterns hung from the beams, swinging gently": {"warm"},
    "the red glow of a cook-fire's embers": {"warm"},
    "the white heat of a forge fire, roaring in its hood": {"warm", "white"},
    "rushlights stuck in clay along the wall, spitting": {"warm"},
    "torchlight from a brand jammed in a crack, sputtering": {"warm"},
    "a hooded lantern turned low on the floor": {"warm"},
    "candles stuck to a skull on a table, wax running down its face": {"warm"},
    "a bonfire of broken furniture in the middle of the floor": {"warm"},
    "a brazier of green flame that throws long shadows": {"green"},
    "oil lamps in wall niches, a few of them still lit": {"warm"},
    "a ring of candles around a chalked circle": {"warm"},
    "darkness, and a cold stir of air from somewhere above": "dark",
    "blackness; your light finds wet walls and little else": "dark",
    "darkness, thick and dusty and undisturbed": "dark",
    "dark, but for the faint glow of rotting wood": {"green", "cold"},
    "darkness, broken only by rats' eyes in the corners": "dark",
    "black as a closed eye; sounds carry strangely in it": "dark",
    "darkness under a ceiling of ice that gleams wherever your light touches it": "dark",
    "dark water and dark stone, with nothing to give back your light": "dark",
    "pitch black, the air warm and close": "dark",
    "near darkness, grey shapes at the edge of your light": "dark",
    "darkness below decks, the hull close on every side": "dark",
    "dark as a well shaft, and cold with it": "dark",
    "darkness, lit by pale lichen in ragged patches": {"green"},
    "darkness, broken by a cold gleam from the walls of ice": {"cold", "white"},
}


def _family(argb: str) -> str:
    r, g, b = (int(argb[k : k + 2], 16) / 255 for k in (2, 4, 6))
    hue, sat, _ = colorsys.rgb_to_hsv(r, g, b)
    hue *= 360
    if sat < 0.3:
        return "white"
    if hue < 70 or hue >= 330:
        return "warm"
    return "green" if hue < 165 else "cold" if hue < 255 else "violet"


def test_the_hand_read_lights_cover_the_built_in_table(builtin_tables):
    """Most of the table's entries are read by hand above, so the tests below mean something
    (an entry added since is simply not checked)."""
    texts = {e["result"] for e in builtin_tables.entries("site/room-lights")}
    assert len(texts & set(LIGHTS)) >= 0.8 * len(texts)
    assert len(texts & set(LIGHTS)) >= 40


def test_uvtt_lights_are_where_and_what_the_key_says(builtin_tables):
    """Each level's file lights exactly the rooms whose light text a reader would light, one
    light in each, inside the room, in a colour the text allows; the dark rooms stay dark."""
    lit_seen = dark_seen = 0
    for i in range(8):
        s = generate_site(builtin_tables, Rng(f"lights/{i}"), rooms=18)
        with site_map.using(site_map.MapOptions(ppg=20)):
            docs = [json.loads(page) for page in render(s, "uvtt")]
        for depth, doc in enumerate(docs, start=1):
            ox, oy = level_geometry(s, depth).origin
            lights = [(light["position"], light["color"]) for light in doc["lights"]]
            for room in (r for r in s.rooms if r.level == depth):
                x0, y0 = room.x - ox, room.y - oy
                mine = [
                    colour
                    for p, colour in lights
                    if x0 < p["x"] < x0 + room.w and y0 < p["y"] < y0 + room.h
                ]
                want = LIGHTS.get(room.light)
                if want is None:
                    continue  # an entry nobody has read yet
                if want == "dark":
                    assert not mine, (s.seed, room.id, room.light)
                    dark_seen += 1
                else:
                    assert len(mine) == 1, (s.seed, room.id, room.light, mine)
                    assert _family(mine[0]) in want, (room.light, mine[0], _family(mine[0]))
                    lit_seen += 1
            # And no light stands outside the rooms.
            boxes = [(r.x - ox, r.y - oy, r.w, r.h) for r in s.rooms if r.level == depth]
            for p, _ in lights:
                assert any(x < p["x"] < x + w and y < p["y"] < y + h for x, y, w, h in boxes)
    assert lit_seen > 40 and dark_seen > 10


def test_every_hand_read_light_is_lit_as_read():
    """The same reading over every entry, straight from the light classifier."""
    from generator.plan.lights import source

    for text, want in LIGHTS.items():
        got = source(text)
        if want == "dark":
            assert got is None, text
        else:
            assert got is not None and _family(got.color) in want, (text, got)
