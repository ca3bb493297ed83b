"""Sites follow FMC Basic, Site Design: loops of six, the content mix, budgets, obstacles."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build.site import XP_PER_LEVEL, compose_occupants, generate_site, themes
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.errors import DelveError, DocumentError
from generator.model.site import OBSTACLES, ROOM_COUNTS, Site
from generator.render.documents import render

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zs")), min_size=1
    )
    .map(str.strip)
    .filter(bool)
)

settings.register_profile("delve", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("delve")


def check_site(site: Site, level: int, rooms: int) -> None:
    """Every rule the issue names, for one site."""
    g = site.graph()
    assert g.number_of_nodes() == rooms
    assert nx.is_connected(g)
    depths = rooms // 6
    for depth in range(1, depths + 1):
        ids = [r.id for r in site.rooms if r.level == depth]
        loop = g.subgraph(ids)
        loop_edges = [(a, b) for a, b, d in loop.edges(data=True) if not d["levels"]]
        # One cycle through all six rooms: six edges, each room of degree two, connected.
        ring = nx.Graph(loop_edges)
        assert ring.number_of_nodes() == 6 and ring.number_of_edges() == 6
        assert all(d == 2 for _, d in ring.degree())
        assert nx.is_connected(ring)
        assert len(nx.cycle_basis(ring)) == 1
        contents = Counter(r.contents for r in site.rooms if r.level == depth)
        assert contents == {
            "monsters_with_treasure": 1,
            "monsters": 1,
            "hidden_treasure": 1,
            "feature": 3,
        }
        party = level + depth - 1
        xp = sum(r.monster_xp for r in site.rooms if r.level == depth)
        assert abs(xp - XP_PER_LEVEL * party) <= 0.1 * XP_PER_LEVEL * party
        hoards = [r.hoard for r in site.rooms if r.level == depth and r.hoard]
        assert len(hoards) == 2
        assert sum(h.value_cp for h in hoards) == 1000 * party
        for h in hoards:
            assert h.coins.value_cp + sum(i.value_cp for i in h.items) == h.value_cp
        lair = next(
            r for r in site.rooms if r.level == depth and r.contents == "monsters_with_treasure"
        )
        # FMC Basic: a weapon's power die is the damage die of the monsters who hold it (the
        # lair's strongest); it steps down only when the hoard cannot afford it (noted).
        holder = max((site.bestiary[gp.name] for gp in lair.monsters), key=lambda m: m.bracket)
        order = ["d4", "d6", "d8", "d10", "d12"]
        for h in hoards:
            for item in h.items:
                if item.weapon is not None:
                    die = item.weapon.power_die
                    assert die == holder.damage or (
                        h.note and order.index(die) < order.index(holder.damage)
                    ), (die, holder.damage, h.note)
        entrance_like = next(r for r in site.rooms if r.level == depth and r.id == ids[0])
        assert entrance_like.contents == "feature"
    links = [d for _, _, d in g.edges(data=True) if d["levels"]]
    expected = 0 if depths == 1 else (depths - 1) * (2 if rooms >= 18 else 1)
    assert len(links) == expected
    assert sum(1 for r in site.rooms if r.entrance) == 1
    for c in site.connections:
        assert c.obstacle in OBSTACLES
        assert c.description
    assert len(site.encounters) == 6
    assert [e.roll for e in site.encounters] == [1, 2, 3, 4, 5, 6]
    for key in ("who", "what", "when", "where", "why", "how"):
        assert site.history[key]
    assert site.monster_xp == sum(r.monster_xp for r in site.rooms)
    for r in site.rooms:
        for gp in r.monsters:
            assert gp.name in site.bestiary


@given(seed=SEEDS, level=st.integers(1, 10), rooms=st.sampled_from(ROOM_COUNTS))
@settings(max_examples=60)
def test_site_rules_hold_for_any_seed(builtin_tables, seed, level, rooms):
    site = generate_site(builtin_tables, Rng(seed), level=level, rooms=rooms)
    check_site(site, level, rooms)


@pytest.mark.parametrize("level", range(1, 11))
def test_every_theme_fills_every_level(builtin_tables, level):
    for key in themes(builtin_tables):
        site = generate_site(builtin_tables, Rng(f"t/{key}/{level}"), level=level, theme=key)
        check_site(site, level, 6)


def test_deep_sites_reach_party_level_fifteen(builtin_tables):
    for key in themes(builtin_tables):
        site = generate_site(builtin_tables, Rng(f"deep/{key}"), level=10, rooms=36, theme=key)
        check_site(site, 10, 36)


def test_the_rules_example_is_a_possible_site(builtin_tables):
    """FMC Basic: a level-1 site of ~1,000 XP, 'such as 6 hoblins and 4 porcs'."""
    theme = next(
        t
        for t in themes(builtin_tables).values()
        if {"Hoblin", "Porc"} <= {m.monster.name for m in t.roster}
    )
    for i in range(5000):
        lair, guards = compose_occupants(theme, 1000, Rng(f"example/{i}"))
        counts = Counter()
        for m, n in lair + guards:
            counts[m.name] += n
        if counts == {"Hoblin": 6, "Porc": 4}:
            seed = f"example/{i}"
            break
    else:
        pytest.fail("no seed gave 6 hoblins and 4 porcs")
    assert sum(m.xp * n for m, n in lair + guards) == 1050  # "~1,000" XP, within 10%
    assert seed


def test_obstacles_follow_the_d6(builtin_tables):
    counts = Counter()
    for i in range(600):
        site = generate_site(builtin_tables, Rng(f"obstacles/{i}"), level=1)
        counts.update(c.obstacle for c in site.connections if not c.levels)
    n = sum(counts.values())
    for key, p in {
        "locked_door": 1 / 6,
        "hidden_door": 1 / 6,
        "long_corridor": 1 / 6,
        "none": 3 / 6,
    }.items():
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(counts[key] / n - p) < 4 * sd, (key, counts)


def test_same_seed_same_bytes_and_seeds_differ(builtin_tables):
    a = render(generate_site(builtin_tables, Rng("harrowdeep"), level=2), "json")
    b = render(generate_site(builtin_tables, Rng("harrowdeep"), level=2), "json")
    c = render(generate_site(builtin_tables, Rng("harrowdeep2"), level=2), "json")
    assert a == b and a != c


def test_histories_read_differently_across_seeds(builtin_tables):
    # Room variety has its own tests over hundreds of sites (test_site_story.py).
    texts = {
        generate_site(builtin_tables, Rng(f"variety/{i}"), level=1 + i % 5).history_text
        for i in range(100)
    }
    assert len(texts) == 100


def test_json_round_trip(builtin_tables):
    for i in range(20):
        site = generate_site(builtin_tables, Rng(f"trip/{i}"), level=3, rooms=12)
        data = site.to_dict()
        assert Site.from_dict(json.loads(json.dumps(data))).to_dict() == data


def test_bad_arguments(builtin_tables):
    with pytest.raises(DelveError, match="--rooms"):
        generate_site(builtin_tables, Rng("x"), rooms=7)
    with pytest.raises(DelveError, match="--level"):
        generate_site(builtin_tables, Rng("x"), level=0)
    with pytest.raises(DelveError, match="themes:"):
        generate_site(builtin_tables, Rng("x"), theme="no-such-theme")


# ---------------------------------------------------------------- CLI


def test_cli_site_json_reproduces_from_its_seed(run_cli):
    first = run_cli("site", "--seed", "harrowdeep", "--level", "2", "--format", "json")
    assert first.code == 0, first.err
    doc = json.loads(first.out)
    # The address carries the level: it alone rebuilds the site.
    assert doc["kind"] == "site" and doc["seed"] == "harrowdeep@level=2"
    assert {"rooms", "connections", "encounters", "history", "totals"} <= set(doc)
    again = run_cli("site", "--seed", doc["seed"], "--format", "json")
    assert again.out == first.out


def test_cli_render_round_trips_json(run_cli, tmp_path):
    out = run_cli("site", "--seed", "rt", "--rooms", "12", "--format", "json")
    path = tmp_path / "site.json"
    path.write_text(out.out)
    again = run_cli("render", str(path), "--format", "json")
    assert again.code == 0, again.err
    assert again.out == out.out
    for fmt in ("text", "md"):
        assert run_cli("render", str(path), "--format", fmt).code == 0


def test_cli_render_names_the_json_path_of_a_bad_edit(run_cli, tmp_path):
    doc = json.loads(run_cli("site", "--seed", "edit", "--format", "json").out)
    doc["rooms"][2]["monsters"] = [{"name": "Porc", "count": "many", "xp_each": 150}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    res = run_cli("render", str(path), "--format", "text")
    assert res.code == 1
    assert "rooms[2].monsters[0].count" in res.err
    assert "Traceback" not in res.err and len(res.err.strip().splitlines()) == 1


def test_cli_svg_and_graphml_go_to_output(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for fmt in ("svg", "graphml"):
        res = run_cli("site", "--seed", "mapme", "--format", fmt)
        assert res.code == 0, res.err
        path = tmp_path / "output" / f"site-mapme.{fmt}"
        assert path.exists() and str(path.relative_to(tmp_path)) in res.err
    g = nx.read_graphml(tmp_path / "output" / "site-mapme.graphml")
    assert g.number_of_nodes() == 6 and g.number_of_edges() == 6


def test_without_format_the_output_s_suffix_names_it(run_cli, tmp_path):
    """`-o tonight.svg` writes an SVG map, not the text key in a file called .svg; --format,
    when given, still wins; a suffix of no format gives text, and one of a format the kind
    has not is refused in a line, nothing written."""
    site_json = tmp_path / "tonight.json"
    assert run_cli("site", "--seed", "suffix", "-o", site_json).code == 0
    doc = json.loads(site_json.read_text())
    assert doc["kind"] == "site"
    svg = tmp_path / "tonight.svg"
    assert run_cli("site", "--seed", "suffix", "-o", svg).code == 0
    assert "<svg" in svg.read_text()[:300]
    forced = tmp_path / "forced.svg"
    assert run_cli("site", "--seed", "suffix", "-f", "json", "-o", forced).code == 0
    assert json.loads(forced.read_text())["kind"] == "site"
    notes = tmp_path / "notes.log"
    assert run_cli("site", "--seed", "suffix", "-o", notes).code == 0
    assert notes.read_text().startswith(doc["name"].upper() + "\n===")
    # A saved document renders by the suffix too; a region has no PNG, so it prints text.
    png = tmp_path / "again.png"
    assert run_cli("render", site_json, "-o", png).code == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    region_json = tmp_path / "region.json"
    assert run_cli("region", "--seed", "suffix", "--radius", "1", "-o", region_json).code == 0
    assert json.loads(region_json.read_text())["kind"] == "region"
    png = tmp_path / "region.png"
    res = run_cli("render", region_json, "-o", png)
    assert res.code == 1 and not png.exists()
    assert res.err.strip() == (
        f"delve: error: -o {png}: a region has no png format; name the file for one it has "
        "(text, md, json, svg, html, pdf) or give --format"
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--rooms", "7"], "--rooms"),
        (["--level", "0"], "--level"),
        (["--theme", "nowhere"], "themes:"),
    ],
)
def test_cli_bad_input_is_one_line(run_cli, tmp_path, args, needle):
    out = tmp_path / "never.json"
    res = run_cli("site", "--seed", "x", "--format", "json", "-o", str(out), *args)
    assert res.code == 1
    assert needle in res.err
    assert len(res.err.strip().splitlines()) == 1
    assert not out.exists()


def test_user_tables_change_sites(run_cli, tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "obstacles.yaml").write_text(
        "title: Always locked\ndie: d6\nfields:\n  key: str\n  name: str\nentries:\n"
        "  - roll: 1-6\n    key: locked_door\n    name: Locked\n    result: Locked tight.\n"
    )
    doc = json.loads(run_cli("--tables", str(tmp_path), "site", "--seed", "u", "-f", "json").out)
    assert {c["obstacle"] for c in doc["connections"]} == {"locked_door"}


def test_user_theme_is_used(run_cli, tmp_path, builtin_tables):
    base = builtin_tables.get("site/themes")
    text = base.path.read_text()
    extra = (
        "  - key: goblin-market\n    name: Goblin market\n    roster:\n"
        "      - {monster: Hoblin, role: rank}\n      - {monster: Porc, role: guard}\n"
        "      - {monster: Ogre, role: leader}\n    places: [market]\n    mood: loud\n"
        "    result: Hoblins trade stolen goods under an ogre's eye.\n"
    )
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "themes.yaml").write_text(text.rstrip() + "\n" + extra)
    res = run_cli(
        "--tables", str(tmp_path), "site", "--theme", "goblin-market", "--seed", "g", "-f", "json"
    )
    assert res.code == 0, res.err
    assert json.loads(res.out)["theme"] == "goblin-market"


def test_empty_roster_is_a_table_error(run_cli, tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "themes.yaml").write_text(
        "title: Themes\nfields:\n  key: str\n  name: str\n  roster: list\nentries:\n"
        "  - key: empty\n    name: Empty\n    roster: []\n    result: Nobody home.\n"
    )
    res = run_cli("--tables", str(tmp_path), "site", "--seed", "e", "-f", "json")
    assert res.code == 1
    assert "themes.yaml:7" in res.err and "roster is empty" in res.err


# ---------------------------------------------------------------- the plan stands apart


def _copy(builtin_tables, table_id: str, folder: Path, edit) -> None:  # type: ignore[no-untyped-def]
    """A user table: the built-in one, its entries edited (or cut down) by `edit`."""
    doc = yaml.safe_load(builtin_tables.get(table_id).path.read_text())
    doc["entries"] = edit(doc["entries"])
    path = folder / f"{table_id}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False))


def _with_dice(entries: list[dict]) -> list[dict]:
    return [{**e, "result": e["result"] + " {1d6} of {2d4} were here."} for e in entries]


def test_a_change_to_contents_tables_never_moves_the_plan(builtin_tables, tmp_path):
    """Issue 10: room types, sizes, shapes, the layout and the ways are drawn from a stream no
    content roll touches, so features, traps and monsters rolling more or fewer dice, or
    coming from smaller tables, leave every room and every path where it was."""
    _copy(builtin_tables, "site/features", tmp_path, lambda es: _with_dice(es[::9]))
    _copy(builtin_tables, "site/traps", tmp_path, lambda es: _with_dice(es[:3]))
    _copy(builtin_tables, "site/hiding-places", tmp_path, lambda es: _with_dice(es[:2]))
    _copy(builtin_tables, "site/room-sounds", tmp_path, lambda es: _with_dice(es[:5]))
    _copy(
        builtin_tables,
        "monsters/examples",
        tmp_path,
        lambda es: [{**e, "xp": e["xp"] + 25, "hp": e["hp"] + 3} for e in es],
    )
    user = TableSet.load([tmp_path], use_env=False)
    changed = 0
    for i, (rooms, level) in enumerate([(6, 1), (6, 3), (12, 2), (18, 1), (36, 4)] * 4):
        seed = "harrowdeep" if i == 0 else f"apart/{i}"
        a = generate_site(builtin_tables, Rng(seed), level=level, rooms=rooms)
        b = generate_site(user, Rng(seed), level=level, rooms=rooms)
        assert [r.map_dict() for r in a.rooms] == [r.map_dict() for r in b.rooms], seed
        assert [(c.path, c.door, c.at, c.to_at) for c in a.connections] == [
            (c.path, c.door, c.at, c.to_at) for c in b.connections
        ], seed
        assert [r.type for r in a.rooms] == [r.type for r in b.rooms]
        changed += a.to_dict()["rooms"] != b.to_dict()["rooms"]
    assert changed == 20  # the user tables did change every site's contents


# ---------------------------------------------------------------- tables of the old kind


def test_a_room_types_table_of_the_old_kind_still_works(builtin_tables, tmp_path):
    """A referee's room types with only name, size and result: the result opens the room's
    description, no details are added, and every theme still fills its rooms."""
    _copy(
        builtin_tables,
        "site/room-types",
        tmp_path,
        lambda es: [{k: e[k] for k in ("name", "size", "result")} for e in es[:40]],
    )
    table = yaml.safe_load((tmp_path / "site/room-types.yaml").read_text())
    table["fields"] = {"name": "str", "size": "str"}
    (tmp_path / "site/room-types.yaml").write_text(yaml.safe_dump(table, sort_keys=False))
    user = TableSet.load([tmp_path], use_env=False)
    results = {e["name"]: e.result for e in user.entries("site/room-types")}
    for i, key in enumerate(sorted(themes(user))):
        site = generate_site(user, Rng(f"old/{i}"), level=1 + i % 5, theme=key)
        check_site(site, 1 + i % 5, 6)
        for r in site.rooms:
            assert r.description.startswith(results[r.type]), (key, r.description)


def test_an_activities_table_needs_something_for_every_kind(run_cli, tmp_path):
    """An activity follows a name in its own grammar (`one` for a lone creature): a table of
    group activities alone cannot say what a lone ooze does, and the check says so."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "activities.yaml").write_text(
        "title: Old activities\nentries:\n  - result: are arguing over a stolen goat\n"
        "  - result: sleep in a heap around the fire\n"
    )
    checked = run_cli("tables", "check", tmp_path)
    assert checked.code == 1
    assert "no entry an ooze can do as a lone creature" in checked.err
    site = run_cli("--tables", tmp_path, "site", "--seed", "harrowdeep")
    assert site.code == 1 and "activities.yaml" in site.err


# ---------------------------------------------------------------- the master in the document


def test_the_master_is_in_the_document(builtin_tables):
    site = generate_site(builtin_tables, Rng("harrowdeep"), level=1, theme="dragon-lair")
    doc = site.to_dict()
    assert doc["master"]["name"] == "Adult dragon" and doc["master"]["room"] is None
    assert doc["master"]["note"] in doc["history_text"]
    assert Site.from_dict(json.loads(json.dumps(doc))).to_dict() == doc
    deep = generate_site(builtin_tables, Rng("harrowdeep"), level=4, theme="dragon-lair")
    room = deep.room(deep.to_dict()["master"]["room"])
    assert [g.count for g in room.monsters if g.name == "Adult dragon"] == [1]
    plain = generate_site(builtin_tables, Rng("harrowdeep"), theme="hoblin-warren")
    assert plain.to_dict()["master"] is None


@pytest.mark.parametrize(
    "edit, needle",
    [
        (lambda d: d["master"].update(room=None, note=""), "master.note: a master in no room"),
        (lambda d: d["master"].update(room=999), "master.room: no room 999"),
        (lambda d: d["master"].update(room=1), "master.room: room 1 holds no 'Adult dragon'"),
    ],
)
def test_a_master_edited_out_of_its_room_is_named(builtin_tables, edit, needle):
    site = generate_site(builtin_tables, Rng("harrowdeep"), level=4, theme="dragon-lair")
    doc = json.loads(json.dumps(site.to_dict()))
    edit(doc)
    with pytest.raises(DocumentError, match=needle.replace("(", r"\(")):
        Site.from_dict(doc)


# ---------------------------------------------------------------- golden files


@pytest.mark.parametrize("seed, level, rooms", [("harrowdeep", 1, 6), ("saltmarch", 3, 12)])
@pytest.mark.parametrize("fmt", ["json", "md", "svg"])
def test_golden(builtin_tables, seed, level, rooms, fmt, request):
    site = generate_site(builtin_tables, Rng(seed), level=level, rooms=rooms)
    data = render(site, fmt)
    # A map is a file per level: NAME.svg, NAME-level2.svg...
    pages = list(data) if fmt == "svg" else [data]
    for depth, page in enumerate(pages, start=1):
        suffix = f"-level{depth}" if depth > 1 else ""
        path = GOLDEN / f"site-{seed}-{level}-{rooms}{suffix}.{fmt}"
        if request.config.getoption("--regen-golden"):
            path.write_text(page)
        assert path.exists(), f"missing golden file {path}; run pytest --regen-golden"
        assert page == path.read_text(), f"{path} differs; if the change is meant, --regen-golden"
