"""The table engine and `delve tables`: built-ins, every kind of broken table, YAML traps,
layering, references, draw modes, distributions and the CLI's bad-input handling."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from generator.engine.rng import Rng
from generator.engine.tables import TableSet, builtin_tables_dir
from generator.engine.yamlload import MAX_FILE_BYTES, LDict, LList, Raw, load_yaml
from generator.errors import DelveError, TableError

BUILTIN = builtin_tables_dir()
SCHEMA = BUILTIN / "schema" / "table.schema.json"
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def write(folder: Path, rel: str, text: str) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


# --------------------------------------------------------------------------- built-ins


def test_builtins_load(builtin_tables: TableSet) -> None:
    for table_id in (
        "site/obstacles",
        "region/hex-stocking",
        "treasure/magic-item",
        "treasure/weapon-powers",
        "treasure/weapon-form",
        "monsters/brackets",
        "monsters/examples",
        "spells",
        "character/starting-items",
        "character/classes",
        "equipment/costs",
        "equipment/armor",
        "npc/reaction",
        "downtime/research",
    ):
        assert builtin_tables.has(table_id), table_id
    assert all(t.folder == "built-in" for t in builtin_tables.tables.values())


def test_builtins_pass_check(run_cli) -> None:
    result = run_cli("tables", "check")
    assert result.code == 0, result.err
    assert result.out.startswith("ok: ")
    assert result.err == ""


class _AnyVars(Mapping[str, str]):
    """Fills any {$name} placeholder (some content tables take values from a generator)."""

    def __getitem__(self, key: str) -> str:
        return f"<{key}>"

    def __contains__(self, key: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 1


def test_every_builtin_table_can_be_rolled(builtin_tables: TableSet) -> None:
    rng = Rng("roll-them-all")
    for table_id in builtin_tables.ids():
        for _ in range(20):
            rolled = builtin_tables.roll(table_id, rng, _AnyVars())
            assert isinstance(rolled.text, str)
            assert "{@" not in rolled.text, table_id


def test_site_obstacles_is_the_fmc_table(builtin_tables: TableSet) -> None:
    table = builtin_tables.get("site/obstacles")
    assert str(table.die) == "d6"
    keys = {r: e["key"] for e in table.entries for r in e.rolls}
    assert keys == {
        1: "locked_door",
        2: "hidden_door",
        3: "long_corridor",
        4: "none",
        5: "none",
        6: "none",
    }


# --------------------------------------------------------------------------- schema


def _builtin_yaml_files() -> list[Path]:
    files = sorted(BUILTIN.rglob("*.yaml")) + sorted(BUILTIN.rglob("*.yml"))
    assert files, BUILTIN
    return files


def test_schema_is_shipped_beside_the_tables() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert set(schema["required"]) >= {"title", "entries"}


def test_every_table_file_points_editors_at_the_schema() -> None:
    problems = []
    for path in _builtin_yaml_files():
        first = path.read_text(encoding="utf-8").splitlines()[0]
        m = SCHEMA_LINE.match(first)
        if not m:
            problems.append(f"{path}: first line is {first!r}")
        elif (path.parent / m.group(1)).resolve() != SCHEMA.resolve():
            problems.append(f"{path}: $schema={m.group(1)} does not lead to {SCHEMA}")
    assert problems == []


def _as_json(value: object) -> object:
    """A loaded document as YAML 1.2 (what editors use) reads it: Raw scalars as their values."""
    if isinstance(value, LDict):
        return {k: _as_json(v) for k, v in value.items()}
    if isinstance(value, LList):
        return [_as_json(v) for v in value]
    if isinstance(value, Raw):
        return value.value
    return value


def _validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def test_builtin_tables_validate_against_the_schema() -> None:
    validator = _validator()
    problems = []
    for path in _builtin_yaml_files():
        doc = _as_json(load_yaml(path, str(path)))
        for err in validator.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path)
            problems.append(f"{path.relative_to(BUILTIN)}: {where}: {err.message}")
    assert problems == []


@pytest.mark.parametrize(
    "doc",
    [
        {"entries": ["a"]},  # no title
        {"title": "t", "entries": []},
        {"title": "t", "entries": ["a"], "titel": "typo"},
        {"title": "t", "die": "d6", "entries": [{"roll": 1, "weight": 2, "result": "a"}]},
        {"title": "t", "die": "d6", "entries": [{"roll": "four", "result": "a"}]},
        {"title": "t", "entries": [{"weight": 0, "result": "a"}]},
        {"title": "t", "entries": [{"result": "a", "tags": "one"}]},
        {"title": "t", "fields": {"hp": "integer"}, "entries": [{"hp": 1}]},
    ],
)
def test_schema_rejects_bad_tables(doc: dict) -> None:
    assert not _validator().is_valid(doc)


@pytest.mark.parametrize(
    "doc",
    [
        {"title": "t", "entries": ["plain text"]},
        {
            "title": "t",
            "die": "d66",
            "fields": {"hp": "int", "note": "str?"},
            "entries": [
                {"roll": "11-36", "result": "a", "hp": 3, "tags": ["x"]},
                {"roll": "41, 42-66", "hp": 4},
            ],
        },
        {"title": "t", "entries": [{"weight": 2.5, "result": "a"}, {"result": "b"}]},
    ],
)
def test_schema_accepts_good_tables(doc: dict) -> None:
    assert _validator().is_valid(doc)


# --------------------------------------------------------------------------- broken tables

BROKEN = {
    "uncovered": (
        "cov.yaml",
        """\
        title: Gaps
        die: d6
        entries:
          - roll: 1
            result: one
          - roll: 2-3
            result: two or three
          - roll: 4
            result: four
        """,
        ["{d}/cov.yaml:2: table 'cov': rolls not covered by any entry on d6: 5-6"],
    ),
    "covered twice": (
        "twice.yaml",
        """\
        title: Overlap
        die: d6
        entries:
          - roll: 1-4
            result: low
          - roll: "3-6"
            result: high
        """,
        ["{d}/twice.yaml:2: table 'twice': rolls covered twice: 3-4"],
    ),
    "d66 gaps and impossible rolls": (
        "oracle.yaml",
        """\
        title: Oracle
        die: d66
        entries:
          - roll: 11-36
            result: yes
          - roll: 41-65
            result: no
        """,
        [
            "{d}/oracle.yaml:2: table 'oracle': rolls not covered by any entry on d66: 66",
            "{d}/oracle.yaml:2: table 'oracle': rolls that d66 cannot give: "
            "17-20, 27-30, 47-50, 57-60",
        ],
    ),
    "roll and weight": (
        "both.yaml",
        """\
        title: Both
        entries:
          - result: fine
          - roll: 1
            weight: 2
            result: not fine
        """,
        [
            "{d}/both.yaml:4: table 'both': entry has both 'roll' and 'weight' "
            "(a table uses one or other)"
        ],
    ),
    "unknown entry key": (
        "typo.yaml",
        """\
        title: Typo
        entries:
          - result: fine
          - weight: 2
            resutl: misspelt
        """,
        [
            "{d}/typo.yaml:5: table 'typo': unknown key 'resutl' (did you mean 'result'?)",
            "{d}/typo.yaml:4: table 'typo': entry has neither 'result' nor any field",
        ],
    ),
    "unknown top-level key": (
        "top.yaml",
        """\
        title: Top
        decsription: misspelt
        entries:
          - fine
        """,
        ["{d}/top.yaml:2: table 'top': unknown key 'decsription' (did you mean 'description'?)"],
    ),
    "missing title": (
        "untitled.yaml",
        """\
        die: d6
        entries:
          - roll: 1-6
            result: all
        """,
        ["{d}/untitled.yaml:1: table 'untitled': missing 'title'"],
    ),
    "wrong field type": (
        "beasts.yaml",
        """\
        title: Beasts
        fields:
          hp: int
          note: str?
        entries:
          - result: a rat
            hp: 2
          - result: a bear
            hp: lots
        """,
        ["{d}/beasts.yaml:9: table 'beasts': field 'hp' must be int, not 'lots'"],
    ),
    "missing required field": (
        "beasts.yaml",
        """\
        title: Beasts
        fields:
          hp: int
        entries:
          - result: a rat
            hp: 2
          - result: a ghost
        """,
        ["{d}/beasts.yaml:7: table 'beasts': entry is missing required field 'hp'"],
    ),
    "unknown field type": (
        "beasts.yaml",
        """\
        title: Beasts
        fields:
          hp: integer
        entries:
          - result: a rat
        """,
        [
            "{d}/beasts.yaml:3: table 'beasts': field 'hp': unknown type 'integer' "
            "(use str, int, float, bool, list, dict)"
        ],
    ),
    "bad roll": (
        "rolls.yaml",
        """\
        title: Rolls
        die: d6
        entries:
          - roll: 1-3
            result: low
          - roll: four up
            result: high
        """,
        ["{d}/rolls.yaml:6: table 'rolls': roll 'four up' is not a number or a range such as 4-6"],
    ),
    "bad weight": (
        "weights.yaml",
        """\
        title: Weights
        entries:
          - weight: 0
            result: never
          - result: always
        """,
        ["{d}/weights.yaml:3: table 'weights': weight must be a positive number, not 0"],
    ),
    "unparsable die": (
        "baddie.yaml",
        """\
        title: Bad die
        die: 2d
        entries:
          - roll: 1
            result: one
        """,
        [
            "{d}/baddie.yaml:2: table 'baddie': die: dice '2d': "
            "a die needs a number of sides (e.g. d6)"
        ],
    ),
    "unparsable inline dice": (
        "inline.yaml",
        """\
        title: Inline
        entries:
          - result: "{2d6} goblins"
          - result: "{d6+} orcs"
        """,
        [
            "{d}/inline.yaml:4: table 'inline': result: bad inline dice {{d6+}}: "
            "dice 'd6+': ends where a number or die was expected"
        ],
    ),
    "unbalanced brace": (
        "brace.yaml",
        """\
        title: Brace
        entries:
          - result: "a {2d6 trap"
        """,
        [
            "{d}/brace.yaml:3: table 'brace': result: unbalanced '{{' in text "
            "(write {{{{ for a literal brace)"
        ],
    ),
    "unknown reference": (
        "ref.yaml",
        """\
        title: Ref
        entries:
          - plain
          - result: "Beyond: {@site/obstacle}"
        """,
        [
            "{d}/ref.yaml:4: table 'ref': reference to unknown table 'site/obstacle' "
            "(did you mean 'site/obstacles'?)"
        ],
    ),
    "reference cycle": (
        "t/a.yaml",
        """\
        title: A
        entries:
          - result: "a then {@t/b}"
        """,
        ["{d}/t/b.yaml:4: table 't/b': reference cycle t/a -> t/b -> t/a"],
    ),
    "self reference": (
        "loop.yaml",
        """\
        title: Loop
        entries:
          - result: "again: {@loop}"
        """,
        ["{d}/loop.yaml:3: table 'loop': reference cycle loop -> loop"],
    ),
    "YAML syntax error": (
        "syntax.yaml",
        """\
        title: Syntax
        entries:
          - result: fine
          - result: broken: here
        """,
        ["{d}/syntax.yaml:4: YAML syntax error: mapping values are not allowed in this context"],
    ),
    "not a mapping": (
        "list.yaml",
        """\
        - just
        - a list
        """,
        ["{d}/list.yaml:1: table 'list': a table file must be a mapping, not a list"],
    ),
    "empty file": (
        "empty.yaml",
        "",
        ["{d}/empty.yaml:1: table 'empty': a table file must be a mapping, not empty"],
    ),
    "no entries": (
        "bare.yaml",
        """\
        title: Bare
        entries: []
        """,
        ["{d}/bare.yaml:2: table 'bare': 'entries' is empty"],
    ),
}

# The reference cycle needs its second table.
EXTRA_FILES = {
    "reference cycle": (
        "t/b.yaml",
        """\
        title: B
        entries:
          - result: a way out
          - result: "b then {@t/a}"
        """,
    )
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_check_reports_file_line_and_table(run_cli, tmp_path: Path, case: str) -> None:
    rel, text, expected = BROKEN[case]
    write(tmp_path, rel, text)
    if case in EXTRA_FILES:
        write(tmp_path, *EXTRA_FILES[case])
    result = run_cli("tables", "check", tmp_path)
    assert result.code == 1
    got = lines(result.err)
    assert got[-1] == f"{len(expected)} problem(s) found"
    assert got[:-1] == [e.format(d=tmp_path) for e in expected]
    assert "Traceback" not in result.err
    assert result.out == ""


def test_check_reports_every_problem_at_once(run_cli, tmp_path: Path) -> None:
    expected: list[str] = []
    folders: list[Path] = []
    for case, (rel, text, want) in BROKEN.items():
        folder = tmp_path / case.replace(" ", "-")
        write(folder, rel, text)
        if case in EXTRA_FILES:
            write(folder, *EXTRA_FILES[case])
        folders.append(folder)
        expected += [e.format(d=folder) for e in want]
    result = run_cli("tables", "check", *folders)
    assert result.code == 1
    got = lines(result.err)
    assert sorted(got[:-1]) == sorted(expected)
    assert got[-1] == f"{len(expected)} problem(s) found"


def test_a_file_past_the_size_limit_is_refused(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w", encoding="utf-8") as f:
        f.write("title: Huge\nentries:\n")
        line = "  - result: " + "x" * 1000 + "\n"
        while f.tell() <= MAX_FILE_BYTES:
            f.write(line)
    size = path.stat().st_size
    result = run_cli("tables", "check", tmp_path)
    assert result.code == 1
    assert lines(result.err) == [
        f"{path}: {size:,} bytes is too big for a table file (at most 2 MB)",
        "1 problem(s) found",
    ]


def test_missing_and_empty_folders(run_cli, tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a table\n")
    result = run_cli("tables", "check", missing, empty)
    assert result.code == 1
    assert lines(result.err) == [
        f"{missing}: tables folder does not exist",
        f"{empty}: tables folder holds no .yaml files",
        "2 problem(s) found",
    ]
    # The same through the global --tables: one line, exit 1, for any command.
    result = run_cli("--tables", missing, "tables", "list")
    assert result.code == 1
    assert lines(result.err) == [f"delve: error: {missing}: tables folder does not exist"]
    result = run_cli("--tables", empty, "tables", "roll", "site/obstacles", "--seed", "x")
    assert result.code == 1
    assert lines(result.err) == [f"delve: error: {empty}: tables folder holds no .yaml files"]


def test_a_broken_user_table_stops_every_command(run_cli, tmp_path: Path) -> None:
    write(
        tmp_path,
        "site/obstacles.yaml",
        "title: Broken\ndie: d6\nentries:\n  - roll: 1\n    result: a\n",
    )
    result = run_cli("--tables", tmp_path, "tables", "roll", "site/obstacles", "--seed", "s")
    assert result.code == 1
    assert lines(result.err) == [
        f"delve: error: {tmp_path}/site/obstacles.yaml:2: table 'site/obstacles': "
        "rolls not covered by any entry on d6: 2-6"
    ]


# --------------------------------------------------------------------------- YAML traps


def test_yaml_traps_are_disarmed(tmp_path: Path) -> None:
    write(
        tmp_path,
        "traps.yaml",
        """\
        title: Traps
        die: d6
        fields:
          answer: str
          count: int
          flag: bool
        entries:
          - roll: 1
            result: no
            answer: yes
            count: 3
            flag: true
          - roll: 2
            result: 1:30
            answer: off
            count: 0
            flag: false
          - roll: "3"
            result: on
            answer: "007"
            count: -2
            flag: false
          - roll: "4-6"
            result: 2024-01-01
            answer: 1.50
            count: 12
            flag: true
        """,
    )
    ts = TableSet.load([tmp_path], use_env=False)
    table = ts.get("traps")
    by_roll = {r: e for e in table.entries for r in e.rolls}
    assert by_roll[1].result == "no"
    assert by_roll[1]["answer"] == "yes"
    assert by_roll[2].result == "1:30"
    assert by_roll[2]["answer"] == "off"
    assert by_roll[3].result == "on"
    assert by_roll[3]["answer"] == "007"
    assert by_roll[4].result == "2024-01-01"
    assert by_roll[4]["answer"] == "1.50"  # a str field keeps the text as written
    assert [by_roll[r]["count"] for r in (1, 2, 3, 4)] == [3, 0, -2, 12]
    assert [by_roll[r]["flag"] for r in (1, 2, 3, 4)] == [True, False, False, True]
    assert by_roll[4] is by_roll[5] is by_roll[6]
    assert by_roll[4].rolls == (4, 5, 6)
    assert {ts.roll("traps", Rng(f"s{i}")).text for i in range(200)} == {
        "no",
        "1:30",
        "on",
        "2024-01-01",
    }


def test_literal_braces(tmp_path: Path) -> None:
    write(tmp_path, "braces.yaml", 'title: Braces\nentries:\n  - result: "a {{b}} c"\n')
    ts = TableSet.load([tmp_path], use_env=False)
    assert ts.roll("braces", Rng("x")).text == "a {b} c"


# --------------------------------------------------------------------------- layering

OVERRIDE = """\
title: Obstacles of my own
die: d6
fields:
  key: str
entries:
  - roll: 1-6
    key: none
    result: {text}
"""


def test_a_user_folder_overrides_a_builtin(run_cli, tmp_path: Path) -> None:
    args = ("tables", "roll", "site/obstacles", "--times", "6", "--seed", "harrowdeep")
    before = run_cli(*args)
    assert before.code == 0
    assert "rope bridge" not in before.out

    write(tmp_path, "site/obstacles.yaml", OVERRIDE.format(text="A swaying rope bridge."))
    after = run_cli("--tables", tmp_path, *args)
    assert after.code == 0, after.err
    assert lines(after.out) == [f"[{n}] A swaying rope bridge." for n in _d6s("harrowdeep", 6)]

    listed = run_cli("--tables", tmp_path, "tables", "list")
    row = next(line for line in lines(listed.out) if line.startswith("site/obstacles "))
    assert "Obstacles of my own" in row and row.endswith(str(tmp_path))


def _d6s(seed: str, n: int) -> list[int]:
    rng = Rng(seed)
    return [1 + int(rng.random() * 6) for _ in range(n)]


def test_a_new_id_is_listed_and_rollable(run_cli, tmp_path: Path) -> None:
    write(
        tmp_path,
        "mine/weather.yaml",
        """\
        title: Weather on the moor
        entries:
          - result: Fog rolls in.
            weight: 3
          - result: A cold, clear night.
        """,
    )
    listed = run_cli("--tables", tmp_path, "tables", "list")
    assert listed.code == 0
    row = next(line for line in lines(listed.out) if line.startswith("mine/weather "))
    assert "Weather on the moor" in row and "weighted" in row and row.endswith(str(tmp_path))
    assert any(line.startswith("site/obstacles ") for line in lines(listed.out))

    rolled = run_cli(
        "--tables", tmp_path, "tables", "roll", "mine/weather", "-n", "20", "--seed", "m"
    )
    assert rolled.code == 0
    assert set(lines(rolled.out)) == {"Fog rolls in.", "A cold, clear night."}

    shown = run_cli("--tables", tmp_path, "tables", "show", "mine/weather")
    assert shown.code == 0
    assert "Weather on the moor  [mine/weather]" in shown.out
    assert "Fog rolls in." in shown.out


def test_delve_tables_environment_variable(run_cli, tmp_path: Path, monkeypatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    write(first, "site/obstacles.yaml", OVERRIDE.format(text="From the first folder."))
    write(second, "site/obstacles.yaml", OVERRIDE.format(text="From the second folder."))
    monkeypatch.setenv("DELVE_TABLES", os.pathsep.join([str(first), str(second)]))
    args = ("tables", "roll", "site/obstacles", "--seed", "env")
    result = run_cli(*args)
    assert result.code == 0, result.err
    assert result.out.endswith("From the second folder.\n")
    # --tables folders sit over DELVE_TABLES ones.
    result = run_cli("--tables", first, *args)
    assert result.out.endswith("From the first folder.\n")


def test_later_tables_folders_win(run_cli, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    write(first, "site/obstacles.yaml", OVERRIDE.format(text="From the first folder."))
    write(second, "site/obstacles.yaml", OVERRIDE.format(text="From the second folder."))
    args = ("tables", "roll", "site/obstacles", "--seed", "order")
    assert run_cli("--tables", first, "--tables", second, *args).out.endswith("second folder.\n")
    assert run_cli("--tables", second, "--tables", first, *args).out.endswith("first folder.\n")
    # `tables check DIR...` layers its folders the same way.
    assert run_cli("tables", "check", first, second).code == 0


def test_library_layering_matches_the_cli(tmp_path: Path) -> None:
    write(tmp_path, "site/obstacles.yaml", OVERRIDE.format(text="Mine."))
    ts = TableSet.load([tmp_path], use_env=False)
    assert ts.get("site/obstacles").folder == str(tmp_path)
    assert ts.roll("site/obstacles", Rng("x")).text == "Mine."
    assert ts.folders == [BUILTIN, tmp_path]


def test_an_id_key_renames_the_table(tmp_path: Path) -> None:
    write(tmp_path, "anything.yaml", "title: Renamed\nid: site/obstacles\nentries:\n  - Mine.\n")
    ts = TableSet.load([tmp_path], use_env=False)
    assert ts.roll("site/obstacles", Rng("x")).text == "Mine."
    assert not ts.has("anything")


# --------------------------------------------------------------------------- references


@pytest.fixture
def nested(tmp_path: Path) -> TableSet:
    write(
        tmp_path,
        "t/leaf.yaml",
        """\
        title: Leaf
        die: d6
        entries:
          - roll: 1-3
            result: gold
          - roll: 4-6
            result: "{d4} silver spoons"
        """,
    )
    write(tmp_path, "t/mid.yaml", 'title: Mid\nentries:\n  - result: "a chest of {@t/leaf}"\n')
    write(
        tmp_path,
        "t/top.yaml",
        'title: Top\nentries:\n  - result: "{2d6} rats guard {@t/mid}; beyond, {@t/mid}."\n',
    )
    return TableSet.load([tmp_path], use_env=False)


def test_nested_references_and_inline_dice_resolve(nested: TableSet) -> None:
    pattern = re.compile(
        r"^(\d+) rats guard a chest of (gold|([1-4]) silver spoons); "
        r"beyond, a chest of (gold|[1-4] silver spoons)\.$"
    )
    seen_rats = set()
    seen_inner = set()
    rng = Rng("nested")
    for _ in range(500):
        text = nested.roll("t/top", rng).text
        m = pattern.match(text)
        assert m, text
        seen_rats.add(int(m.group(1)))
        seen_inner.add(m.group(2))
    assert seen_rats == set(range(2, 13))
    assert seen_inner == {
        "gold",
        "1 silver spoons",
        "2 silver spoons",
        "3 silver spoons",
        "4 silver spoons",
    }


def test_nested_rolls_are_reproducible(nested: TableSet) -> None:
    a = [nested.roll("t/top", Rng("same")).text for _ in range(5)]
    b = [nested.roll("t/top", Rng("same")).text for _ in range(5)]
    assert a == b


def test_cli_resolves_references(run_cli, nested: TableSet) -> None:
    folder = nested.folders[-1]
    result = run_cli("--tables", folder, "tables", "roll", "t/top", "--seed", "cli", "-n", "3")
    assert result.code == 0
    assert all(" rats guard a chest of " in line for line in lines(result.out))
    assert "{" not in result.out


# --------------------------------------------------------------------------- draw modes


@pytest.fixture
def letters(tmp_path: Path) -> TableSet:
    entries = "".join(
        f"  - result: {c}\n    weight: {w}\n" for c, w in zip("abcde", [5, 1, 1, 1, 2], strict=True)
    )
    write(tmp_path, "letters.yaml", "title: Letters\nentries:\n" + entries)
    return TableSet.load([tmp_path], use_env=False)


def test_roll_once(builtin_tables: TableSet, letters: TableSet) -> None:
    rolled = builtin_tables.roll("site/obstacles", Rng("once"))
    assert rolled.table == "site/obstacles"
    assert rolled.value in range(1, 7)
    assert rolled.value in rolled.entry.rolls
    assert rolled.text == rolled.entry.result
    assert rolled["key"] == rolled.get("key") == rolled.entry["key"]
    assert rolled["key"] in {"locked_door", "hidden_door", "long_corridor", "none"}
    weighted = letters.roll("letters", Rng("once"))
    assert weighted.value is None and weighted.text in "abcde"


def test_roll_n_times(letters: TableSet) -> None:
    rolled = letters.roll_many("letters", Rng("many"), 50)
    assert len(rolled) == 50
    assert len({r.text for r in rolled}) < 50  # repeats are allowed
    with pytest.raises(DelveError, match="at least 1"):
        letters.roll_many("letters", Rng("many"), 0)


def test_draw_without_repeats(letters: TableSet) -> None:
    for i in range(50):
        drawn = letters.draw("letters", Rng(f"draw{i}"), 3)
        assert len({r.text for r in drawn}) == 3
    assert sorted(r.text for r in letters.draw("letters", Rng("all"), 5)) == list("abcde")
    with pytest.raises(DelveError) as exc:
        letters.draw("letters", Rng("too many"), 6)
    assert "has 5 entries; cannot draw 6 different ones" in str(exc.value)


def test_draw_follows_the_weights(letters: TableSet) -> None:
    firsts = Counter(letters.draw("letters", Rng(f"w{i}"), 2)[0].text for i in range(4000))
    assert 1800 < firsts["a"] < 2200  # weight 5 of 10


def test_reroll_duplicates(builtin_tables: TableSet, letters: TableSet) -> None:
    rolled = letters.roll_many("letters", Rng("reroll"), 5, reroll_duplicates=True)
    assert sorted(r.text for r in rolled) == list("abcde")
    # On a die table, duplicates are entries, not numbers: site/obstacles has four entries.
    obstacles = builtin_tables.roll_many("site/obstacles", Rng("r"), 4, reroll_duplicates=True)
    assert len({r["key"] for r in obstacles}) == 4
    with pytest.raises(DelveError, match="cannot draw 5 different"):
        builtin_tables.roll_many("site/obstacles", Rng("r"), 5, reroll_duplicates=True)


def test_pick_filters_by_field(builtin_tables: TableSet) -> None:
    rolled = builtin_tables.pick("site/obstacles", Rng("pick"), where={"key": "hidden_door"})
    assert rolled["key"] == "hidden_door"
    with pytest.raises(DelveError, match="no entry matching"):
        builtin_tables.pick("site/obstacles", Rng("pick"), where={"key": "moat"})


# --------------------------------------------------------------------------- distribution


def test_site_obstacles_entries_come_up_at_their_frequencies(builtin_tables: TableSet) -> None:
    n = 60_000
    rng = Rng("obstacle-frequencies")
    counts = Counter(builtin_tables.roll("site/obstacles", rng)["key"] for _ in range(n))
    expected = {"locked_door": 1 / 6, "hidden_door": 1 / 6, "long_corridor": 1 / 6, "none": 3 / 6}
    assert set(counts) == set(expected)
    for key, p in expected.items():
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(counts[key] - n * p) < 5 * sigma, (key, counts[key], n * p)
    chi2 = sum((counts[k] - n * p) ** 2 / (n * p) for k, p in expected.items())
    assert chi2 < 16.3  # df 3: p = 0.001


def test_weighted_entries_come_up_at_their_frequencies(letters: TableSet) -> None:
    n = 50_000
    rng = Rng("letter-frequencies")
    counts = Counter(letters.roll("letters", rng).text for _ in range(n))
    for key, w in zip("abcde", [5, 1, 1, 1, 2], strict=True):
        p = w / 10
        assert abs(counts[key] - n * p) < 5 * math.sqrt(n * p * (1 - p)), key


# --------------------------------------------------------------------------- CLI bad input


def test_unknown_table_suggests_nearest_ids(run_cli) -> None:
    result = run_cli("tables", "roll", "site/obstacle", "--seed", "x")
    assert result.code == 1
    assert len(lines(result.err)) == 1
    assert result.err.startswith("delve: error: unknown table 'site/obstacle' (did you mean ")
    assert "site/obstacles" in result.err
    result = run_cli("tables", "show", "npc/reactoin")
    assert result.code == 1
    assert "npc/reaction" in result.err and len(lines(result.err)) == 1


@pytest.mark.parametrize("times", ["0", "-1", "-50"])
def test_times_must_be_positive(run_cli, times: str) -> None:
    for args in (("tables", "roll", "site/obstacles"), ("roll", "2d6")):
        result = run_cli(*args, "--times", times, "--seed", "x")
        assert result.code == 1
        assert lines(result.err) == [f"delve: error: --times: must be at least 1, not {times}"]
        assert result.out == ""


def test_times_must_be_a_number(run_cli) -> None:
    result = run_cli("tables", "roll", "site/obstacles", "--times", "many")
    assert result.code == 1
    assert len(lines(result.err)) == 1
    assert "Traceback" not in result.err


@pytest.mark.parametrize(
    "args",
    [
        ("--seed", "", "tables", "roll", "site/obstacles"),
        ("tables", "roll", "site/obstacles", "--seed", ""),
        ("roll", "d6", "--seed", ""),
        ("tables", "roll", "site/obstacles", "--seed", " padded "),
    ],
)
def test_bad_seed_is_one_line(run_cli, args: tuple[str, ...]) -> None:
    result = run_cli(*args)
    assert result.code == 1
    assert len(lines(result.err)) == 1
    assert result.err.startswith("delve: error: seed")
    assert result.out == ""


def test_usage_errors_are_one_line(run_cli) -> None:
    for args in (("tables", "nope"), ("roll",), ("--nope",)):
        result = run_cli(*args)
        assert result.code == 1, args
        assert len(lines(result.err)) == 1, (args, result.err)
        assert result.err.startswith("delve: error: ")


def test_bare_commands_show_help(run_cli) -> None:
    for args in ((), ("tables",)):
        result = run_cli(*args)
        assert result.code == 0, (args, result.err)
        assert "check" in result.out or "tables" in result.out
        assert result.err == ""


def test_bad_formula_is_one_line(run_cli) -> None:
    result = run_cli("roll", "d6+", "--seed", "x")
    assert result.code == 1
    assert lines(result.err) == [
        "delve: error: dice 'd6+': ends where a number or die was expected"
    ]


def test_same_seed_same_output(run_cli) -> None:
    for args in (
        ("tables", "roll", "site/obstacles", "--times", "20", "--seed", "harrowdeep"),
        ("--seed", "harrowdeep", "tables", "roll", "region/hex-stocking", "--times", "20"),
        ("roll", "3d6x10", "--times", "20", "--seed", "harrowdeep"),
    ):
        first, second = run_cli(*args), run_cli(*args)
        assert first.code == 0
        assert first.out.encode() == second.out.encode()
        assert first.err == second.err == ""


def test_different_seeds_differ(run_cli) -> None:
    args = ("tables", "roll", "site/obstacles", "--times", "20", "--seed")
    assert run_cli(*args, "harrowdeep").out != run_cli(*args, "harrowdeep2").out


def test_no_seed_announces_one_that_reproduces(run_cli) -> None:
    result = run_cli("tables", "roll", "site/obstacles", "--times", "10")
    assert result.code == 0
    m = re.fullmatch(r"seed: (\S+)\n", result.err)
    assert m, result.err
    again = run_cli("tables", "roll", "site/obstacles", "--times", "10", "--seed", m.group(1))
    assert again.out == result.out


def test_roll_command(run_cli) -> None:
    result = run_cli("roll", "3d6x10", "--times", "30", "--seed", "r")
    assert result.code == 0
    values = [int(line.split(": ")[1]) for line in lines(result.out)]
    assert len(values) == 30
    assert all(v in range(30, 181, 10) for v in values)


def _delve(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, "DELVE_TABLES": ""},
    )


def test_traceback_only_with_debug(tmp_path: Path) -> None:
    quiet = _delve("tables", "roll", "no/such-table", "--seed", "x", cwd=tmp_path)
    assert quiet.returncode == 1
    assert "Traceback" not in quiet.stderr
    assert len(lines(quiet.stderr)) == 1

    loud = _delve("--debug", "tables", "roll", "no/such-table", "--seed", "x", cwd=tmp_path)
    assert loud.returncode == 1
    assert "Traceback (most recent call last)" in loud.stderr
    assert "unknown table 'no/such-table'" in loud.stderr


def test_same_seed_same_bytes_across_processes(tmp_path: Path) -> None:
    args = ("tables", "roll", "site/obstacles", "--times", "12", "--seed", "harrowdeep")
    first = _delve(*args, cwd=tmp_path)
    second = _delve(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert first.stdout.encode() == second.stdout.encode()


def test_table_error_lists_every_problem(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "title: A\nentries:\n  - resutl: x\n")
    write(tmp_path, "b.yaml", "title: B\ndie: d0\nentries:\n  - roll: 1\n    result: x\n")
    with pytest.raises(TableError) as exc:
        TableSet.load([tmp_path], use_env=False)
    assert len(exc.value.problems) == 3
    assert all(re.match(r"^\S+\.yaml:\d+: table '\w+': ", p) for p in exc.value.problems)
