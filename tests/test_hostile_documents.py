"""Hostile documents for `delve render`: each is one located line and exit 1, or a good render.

The probes of issue 11 first, then a Hypothesis fuzz that mutates a saved site and region
(drops, retypes, grows and nests fields) and renders the result in every cheap format:
DELVE_FUZZ_EXAMPLES sets how many (200 by default; `DELVE_FUZZ_EXAMPLES=20000 pytest
tests/test_hostile_documents.py` is the long run by hand).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import generator.cli
from generator.build.region import generate_region
from generator.build.site import generate_site
from generator.cli.common import state
from generator.engine.rng import Rng
from generator.errors import DocumentError
from generator.render import documents

EXAMPLES = int(os.environ.get("DELVE_FUZZ_EXAMPLES", "200"))


@pytest.fixture(scope="module")
def site_doc(builtin_tables) -> dict[str, Any]:
    return generate_site(builtin_tables, Rng("hostile-site"), rooms=12).to_dict()


@pytest.fixture(scope="module")
def region_doc(builtin_tables) -> dict[str, Any]:
    return generate_region(builtin_tables, Rng("hostile-region")).to_dict()


def render(
    path: Path, fmt: str, out: Path | None = None, danger: bool = False
) -> tuple[int, str, str]:
    """`delve render PATH --format FMT [--no-danger] [-o OUT]` in process: (code, out, err)."""
    args = ["render", str(path), "--format", fmt] + ([] if danger else ["--no-danger"])
    if out is not None:
        args += ["-o", str(out)]
    state.tables_dirs, state.seed, state.debug, state._tables = [], None, False, None
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            generator.cli.main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, stdout.getvalue(), stderr.getvalue()


def assert_one_line(code: int, err: str, *needles: str) -> None:
    lines = err.splitlines()
    assert code == 1, err
    assert len(lines) == 1 and lines[0].startswith("delve: error: "), err
    assert "internal error" not in err and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def write(tmp_path: Path, data: Any, raw: str | None = None) -> Path:
    path = tmp_path / "doc.json"
    path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the probes


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ('{"kind": "site", "level": ' + "9" * 5000 + "}", "site.level: a number of 5,000 digits"),
        ('{"kind": "site", "level": NaN}', "NaN"),
        ('{"kind": "site", "level": 1e400}', "site.level"),
    ],
    ids=["nested-100000", "5000-digits", "nan", "1e400"],
)
def test_unreadable_json_is_one_line(tmp_path, bounded, raw, says):
    with bounded(seconds=60, memory_mb=1024):
        code, _, err = render(write(tmp_path, None, raw), "text")
    assert_one_line(code, err, says)


def _edit(doc: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *parents, last = where.split(".")
    node: Any = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


@pytest.mark.parametrize(
    ("where", "value", "says"),
    [
        ("name", "\ud800", "site.name: text holds a lone surrogate"),
        ("name", "Crypt\x00", "site.name: text holds a control character (U+0000)"),
        ("history_text", "a\x1b[31m", "control character (U+001B)"),
        ("rooms.0.map.x", 10**400, "site.rooms[0].map.x"),
        ("rooms.0.map.x", 5000, "too far out"),
        ("rooms.0.level", 0, "site.rooms[0].level: must be 1 to 6, not 0"),
        ("rooms.0.level", 1_000_000, "site.rooms[0].level: must be 1 to 6"),
        ("level", 0, "site.level: must be 1 to 30"),
        ("level", 1_000_000, "site.level: must be 1 to 30"),
        ("rooms.1.monsters", [{"name": "x", "count": 10**9, "xp_each": 1}], "count"),
        ("seed", "x" * 200_000, "site.seed: text of 200,000 characters"),
    ],
)
def test_a_site_past_what_the_generator_makes_is_one_line(
    tmp_path, bounded, site_doc, where, value, says
):
    doc = _edit(site_doc, where, value)
    with bounded(seconds=60, memory_mb=1024):
        code, _, err = render(write(tmp_path, doc), "svg", tmp_path / "map.svg")
    assert_one_line(code, err, says)
    assert not (tmp_path / "map.svg").exists()


def test_a_room_moved_far_away_is_refused_before_any_search(tmp_path, bounded, site_doc):
    doc = copy.deepcopy(site_doc)
    moved = doc["rooms"][1]
    moved["map"]["x"] = moved["map"]["y"] = 990
    for c in doc["connections"]:
        if moved["id"] in (c["from"], c["to"]):
            for key in ("path", "door", "at", "to_at"):
                c.pop(key, None)
    with bounded(seconds=60, memory_mb=1024):
        code, _, err = render(write(tmp_path, doc), "svg", tmp_path / "map.svg")
    assert_one_line(code, err, "spans", "at most 250 x 250")


def test_a_bestiary_tag_that_is_a_number(tmp_path, site_doc):
    name = next(iter(site_doc["bestiary"]))
    doc = _edit(site_doc, f"bestiary.{name}.tags", [7])
    code, _, err = render(write(tmp_path, doc), "text")
    assert_one_line(code, err, f"site.bestiary.{name}.tags[0]")


@pytest.mark.parametrize("what", ["rivers", "roads"])
@pytest.mark.parametrize("fmt", ["text", "svg", "html"])
def test_an_empty_river_or_road_path_is_one_line(tmp_path, region_doc, what, fmt):
    assert region_doc[what], f"the region fixture needs a {what[:-1]}"
    doc = _edit(region_doc, f"{what}.0.path", [])
    code, _, err = render(write(tmp_path, doc), fmt, tmp_path / f"r.{fmt}")
    assert_one_line(code, err, f"region.{what}[0].path: must name at least one hex")


SCRIPT = '"/><script>alert(1)</script><g class="'


@pytest.mark.parametrize(
    ("where", "value", "says"),
    [
        ("biomes.plains.color", SCRIPT, "region.biomes.plains.color: "),
        ("biomes.plains.color", "red}</style><script>alert(1)</script>", "#rgb or #rrggbb"),
        ("biomes.plains.color", "red", "#rgb or #rrggbb"),
        ("hexes.1.label", "<script>alert(2)</script>", "region.hexes[1].label: must be four"),
        ("hexes.1.label", "0001", "region.hexes[1].label"),
        ("hexes.1.label", "١٢٣٤", "region.hexes[1].label"),
        ("hexes.1.q", 10**9, "region.hexes[1].q: must be -200 to 200"),
    ],
)
@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_a_document_cannot_write_markup_into_the_region_map(
    tmp_path, region_doc, where, value, says, fmt
):
    doc = _edit(region_doc, where, value)
    code, _, err = render(write(tmp_path, doc), fmt, tmp_path / f"r.{fmt}")
    assert_one_line(code, err, says)
    assert not (tmp_path / f"r.{fmt}").exists()


@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_a_biome_key_or_terrain_that_is_not_a_key_is_one_line(tmp_path, region_doc, fmt):
    doc = copy.deepcopy(region_doc)
    doc["biomes"][SCRIPT] = doc["biomes"].pop("plains")
    for h in doc["hexes"]:
        if h["terrain"] == "plains":
            h["terrain"] = SCRIPT
    code, _, err = render(write(tmp_path, doc), fmt, tmp_path / f"r.{fmt}")
    assert_one_line(code, err, "region.biomes: the key", "lower-case letters")


def test_the_region_map_checks_what_it_writes_even_unread(region_doc):
    """A region made in memory (never read from a document) still cannot write markup."""
    from generator.errors import DelveError
    from generator.render.region_svg import region_svg

    region = documents.from_dict(region_doc)
    region.biomes["plains"].color = SCRIPT
    with pytest.raises(DelveError, match="colour"):
        region_svg(region)
    region = documents.from_dict(region_doc)
    region.hexes[0].terrain = region.biomes["plains"].key = SCRIPT
    region.biomes[SCRIPT] = region.biomes.pop("plains")
    with pytest.raises(DelveError, match="biome key"):
        region_svg(region)


@pytest.mark.parametrize(
    ("where", "value", "says", "fmt"),
    [
        ("name", "", "site.name: must not be empty", "svg"),
        ("name", "   ", "site.name: must not be empty", "png"),
        ("name", "", "site.name: must not be empty", "html"),
        ("encounters.0.name", "Nobody", "site.encounters[0].name: 'Nobody' has no stat", "text"),
        ("encounters.0.count", "d1000000000", "site.encounters[0].count:", "text"),
        ("encounters.0.count", "1d6*100", "a group is 0 to 100 monsters", "md"),
        ("encounters.0.count", "x", "site.encounters[0].count: dice 'x'", "html"),
    ],
)
def test_edits_that_broke_a_renderer_or_the_simulation_are_one_line(
    tmp_path, site_doc, where, value, says, fmt
):
    doc = _edit(site_doc, where, value)
    out = tmp_path / f"out.{fmt}" if fmt in documents.FILE_FORMATS else None
    code, _, err = render(write(tmp_path, doc), fmt, out, danger=True)
    assert_one_line(code, err, says)


def test_an_encounter_missing_from_the_bestiary_stops_the_sim_too(tmp_path, site_doc, run_cli):
    doc = _edit(site_doc, "encounters.0.name", "Nobody")
    result = run_cli("sim", write(tmp_path, doc), "--trials", "10")
    assert_one_line(result.code, result.err, "site.encounters[0].name")


def test_an_edited_document_that_stays_in_bounds_still_renders(tmp_path, site_doc):
    doc = _edit(site_doc, "history_text", "Built by <b>Tabs</b>\tand\nlines, & more.")
    code, out, err = render(write(tmp_path, doc), "text")
    assert code == 0, err
    assert "Built by <b>Tabs</b>" in out


def test_from_dict_checks_in_memory_documents_too(site_doc):
    with pytest.raises(DocumentError, match=r"site\.rooms\[0\]\.level"):
        documents.from_dict(_edit(site_doc, "rooms.0.level", 0))


# --------------------------------------------------------------------------- the fuzz

WEIRD = [
    None,
    True,
    0,
    -1,
    7,
    10**400,
    10**13,
    1.5,
    float("inf"),
    "",
    "x",
    "\ud800",
    "a\x00b",
    [],
    {},
    [[]],
    {"a": 1},
    "1d6",
    "d1000000000",
    "x" * 3000,
]
CHEAP = {"site": ["json", "text", "md", "svg", "graphml"], "region": ["json", "text", "md"]}


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:6]):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def _mutation(draw: Any, base: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)[1:]))
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        key, value = path[-1], parent[path[-1]]
        how = draw(st.sampled_from(["drop", "retype", "grow", "nest"]))
        if how == "drop":
            del parent[key]
        elif how == "retype":
            parent[key] = copy.deepcopy(draw(st.sampled_from(WEIRD)))
        elif how == "grow":
            if isinstance(value, list):
                parent[key] = value * draw(st.sampled_from([2, 10, 60]))
            elif isinstance(value, str):
                parent[key] = value * 500
            elif isinstance(value, bool):
                parent[key] = not value
            elif isinstance(value, (int, float)):
                parent[key] = value * draw(st.sampled_from([-1, 1000, 10**9]))
            elif isinstance(value, dict):
                value["extra"] = copy.deepcopy(value)
        else:
            parent[key] = draw(st.sampled_from([[value], {"x": value}, [[[[value]]]]]))
    return doc


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    phases=[Phase.generate],  # report every failure as it came: shrinking a render is slow
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_fuzzed_documents_render_or_fail_in_one_line(
    tmp_path_factory, bounded, site_doc, region_doc, data
):
    kind = data.draw(st.sampled_from(["site", "region"]))
    doc = data.draw(_mutation(site_doc if kind == "site" else region_doc))
    fmt = data.draw(st.sampled_from(CHEAP[kind] + ["html"] * (kind == "site")))
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = folder / f"out.{fmt}" if fmt in ("svg", "graphml", "html") else None
    with bounded(seconds=300, memory_mb=2048):
        code, _, err = render(path, fmt, out)
    # The CLI's last resorts are one line too, but each means a bound is missing somewhere.
    assert "ran out of memory" not in err and "nested too deeply" not in err, (path, err)
    if code:
        assert_one_line(code, err)
    else:
        assert "Traceback" not in err
