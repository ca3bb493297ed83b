"""Hostile tables and dice: alias bombs, recursive aliases, duplicate keys, huge dice, deep
and long formulas, huge numbers, long reference chains. Each is one located line, found
before the work is done; the harmful ones run under bounded() so a regression fails at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.engine import yamlload
from generator.engine.dice import parse
from generator.engine.refs import MAX_DEPTH
from generator.engine.rng import Rng
from generator.engine.tableparse import MAX_ENTRIES
from generator.engine.tables import MAX_FOLDER_FILES, TableSet
from generator.engine.yamlload import MAX_FILE_BYTES, MAX_VALUES
from generator.errors import DiceError, TableError


def folder_with(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "mine"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def problems(tmp_path: Path, files: dict[str, str]) -> list[str]:
    _, found = TableSet.check([folder_with(tmp_path, files)], use_env=False)
    return found


def alias_bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [a, a, a, a, a, a, a, a, a]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + f"\ntitle: Bomb\nentries: *a{levels - 1}\n"


def test_an_alias_bomb_is_refused_at_its_line(tmp_path, bounded):
    text = alias_bomb()
    assert len(text) < 700  # the 677 bytes, give or take
    with bounded(seconds=30, memory_mb=512):
        found = problems(tmp_path, {"x/bomb.yaml": text})
    assert len(found) == 1 and "bomb.yaml:" in found[0] and "alias bomb" in found[0], found


def test_a_recursive_alias_is_refused_at_its_line(tmp_path, bounded):
    with bounded(seconds=30, memory_mb=512):
        found = problems(tmp_path, {"x/loop.yaml": "title: Loop\nl: &r [1, *r]\nentries: [a]\n"})
    assert found == [
        f"{tmp_path}/mine/x/loop.yaml:2: YAML error: an alias refers to the list or mapping "
        "that holds it"
    ]


def test_reading_tables_keeps_none_of_yaml_s_nodes(tmp_path):
    """A table file's YAML nodes (and their marks) go when it is read. A constructor shared by
    every file kept them all for the life of the process, so each uncached load of the
    built-in tables held tens of megabytes more, without bound."""
    import gc

    import yaml

    def nodes() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, yaml.Node))

    text = "title: Big\nentries:\n" + "".join(f"  - result: thing {i}\n" for i in range(2000))
    folder = folder_with(tmp_path, {"x/big.yaml": text})
    before = nodes()
    for _ in range(3):
        assert TableSet.check([folder], use_env=False)[1] == []
    assert nodes() - before < 100  # (4,000 nodes a read before the fix)


def test_a_few_aliases_still_work(tmp_path):
    text = (
        "title: Shared\nfields:\n  stats: dict\nentries:\n"
        "  - {result: a, stats: &s {hp: 3}}\n  - {result: b, stats: *s}\n"
    )
    tables, found = TableSet.check([folder_with(tmp_path, {"x/shared.yaml": text})], False)
    assert found == [] and tables.get("x/shared").entries[1]["stats"] == {"hp": 3}


def test_a_key_given_twice_is_a_located_error(tmp_path):
    found = problems(tmp_path, {"x/dup.yaml": "title: A\nentries: [a]\ntitle: B\n"})
    assert found == [
        f"{tmp_path}/mine/x/dup.yaml:3: YAML error: key 'title' given twice (first on line 1)"
    ]
    nested = "title: A\nfields:\n  n: int\nentries:\n  - {result: a, n: 1, n: 2}\n"
    assert "key 'n' given twice" in problems(tmp_path / "two", {"x/dup2.yaml": nested})[0]


def test_nesting_and_numbers_past_what_a_table_holds(tmp_path, bounded):
    deep = "title: Deep\nentries: " + "[" * 999 + "]" * 999 + "\n"
    digits = "title: Big\nentries:\n  - result: a\n    weight: " + "9" * 5000 + "\n"
    with bounded(seconds=30, memory_mb=512):
        found = problems(tmp_path, {"x/deep.yaml": deep, "x/big.yaml": digits})
    assert any("deep.yaml:2" in p and "nest more than" in p for p in found), found
    assert any("big.yaml:4" in p and "at most 15 digits" in p for p in found), found


def test_a_huge_die_is_checked_on_ranges_and_rolls(tmp_path, bounded):
    text = (
        "title: Big\ndie: d1000000000\nentries:\n"
        "  - {roll: 1-500000000, result: low}\n  - {roll: 500000001-1000000000, result: high}\n"
    )
    with bounded(seconds=30, memory_mb=512):
        tables, found = TableSet.check([folder_with(tmp_path, {"x/big.yaml": text})], False)
        assert found == []
        rolled = [tables.roll("x/big", Rng(f"big/{i}")) for i in range(200)]
        table = tables.get("x/big")
        assert table.lookup[0].result == "low" and table.lookup[999_999_999].result == "high"
    for r in rolled:
        assert r.text == ("low" if r.value <= 500_000_000 else "high")
    assert {r.text for r in rolled} == {"low", "high"}


def test_a_huge_die_with_a_gap_or_overlap_is_reported_as_ranges(tmp_path, bounded):
    text = (
        "title: Big\ndie: d1000000000\nentries:\n"
        "  - {roll: 1-400000000, result: low}\n  - {roll: 300000000-900000000, result: high}\n"
    )
    with bounded(seconds=30, memory_mb=512):
        found = problems(tmp_path, {"x/big.yaml": text})
    assert any("not covered by any entry on d1000000000: 900000001-1000000000" in p for p in found)
    assert any("rolls covered twice: 300000000-400000000" in p for p in found), found


def test_a_range_past_a_small_die_is_not_a_billion_numbers(tmp_path, bounded):
    text = "title: Wide\ndie: d6\nentries:\n  - {roll: 1-1000000000, result: a}\n"
    with bounded(seconds=30, memory_mb=256):
        found = problems(tmp_path, {"x/wide.yaml": text})
    assert found == [
        f"{tmp_path}/mine/x/wide.yaml:2: table 'x/wide': rolls that d6 cannot give: 7-1000000000"
    ]


def test_a_die_too_big_to_check_is_a_located_error(tmp_path, bounded):
    text = "title: Huge\ndie: 3d1000000\nentries:\n  - {roll: 3-3000000, result: a}\n"
    with bounded(seconds=30, memory_mb=256):
        found = problems(tmp_path, {"x/huge.yaml": text})
    assert len(found) == 1 and "huge.yaml:2" in found[0] and "too big to check" in found[0]


@pytest.mark.parametrize(
    ("formula", "says"),
    [
        ("(" * 1000 + "d6" + ")" * 1000, "longer than 200 characters"),
        ("(" * 25 + "d6" + ")" * 25, "brackets nest more than 20 deep"),
        ("+".join(["d6"] * 30_000), "longer than 200 characters"),
        ("1d" + "9" * 5000, "longer than 200 characters"),
        ("1d" + "9" * 40, "is too big"),
        ("999999999x999999999x999999999", "can give numbers past"),
        ("d1000000000", None),
        ("9**9", "unexpected '*'"),  # not 'x', which the formula does not hold
        ("١٢", "unexpected '١'"),  # Arabic-Indic digits rolled as 12
        ("d٦", "unexpected '٦'"),
    ],
    ids=[
        "nested-1000",
        "nested-25",
        "100kb",
        "5000-digits",
        "40-digits",
        "product",
        "billion",
        "power",
        "arabic-indic",
        "arabic-indic-die",
    ],  # fmt: skip
)
def test_roll_takes_any_formula_in_one_line(run_cli, bounded, formula, says):
    with bounded(seconds=30, memory_mb=512):
        result = run_cli("roll", formula, "--seed", "hostile")
    if says is None:
        assert result.code == 0 and 1 <= int(result.out.split(": ")[1]) <= 10**9
        return
    lines = result.err.splitlines()
    assert result.code == 1 and len(lines) == 1, result.err
    assert lines[0].startswith("delve: error: dice ") and says in lines[0], result.err
    with pytest.raises(DiceError, match=says):
        parse(formula)


@pytest.mark.parametrize(
    "inner",
    ["(" * 1000 + "d6" + ")" * 1000, "+".join(["d6"] * 30_000), "1d" + "9" * 5000],
    ids=["nested-1000", "100kb", "5000-digits"],
)
def test_the_same_formulas_inside_a_table_are_one_located_line(tmp_path, bounded, run_cli, inner):
    text = f'title: Dice\nentries:\n  - result: "a {{{inner}}} b"\n'
    with bounded(seconds=30, memory_mb=512):
        found = problems(tmp_path, {"x/dice.yaml": text})
    assert len(found) == 1 and "dice.yaml:3: table 'x/dice': result: bad inline dice" in found[0]
    assert len(found[0]) < 400  # the formula is shown cut short, not 100 KB of it
    folder = folder_with(tmp_path / "cli", {"x/dice.yaml": text})
    for command in (["tables", "roll", "x/dice"], ["site", "--seed", "dice", "-f", "text"]):
        with bounded(seconds=60, memory_mb=512):
            result = run_cli("--tables", folder, *command)
        lines = result.err.splitlines()
        assert result.code == 1 and len(lines) == 1, result.err
        assert lines[0].startswith("delve: error: ") and "dice.yaml:3: table 'x/dice'" in lines[0]


def _chain(count: int) -> dict[str, str]:
    files = {}
    for i in range(count):
        nxt = f"{{@c/t{i + 1}}}" if i < count - 1 else "end"
        files[f"c/t{i}.yaml"] = f'title: T{i}\nentries:\n  - result: "a {nxt}"\n'
    return files


def test_a_chain_of_two_thousand_tables_is_one_problem(tmp_path, bounded):
    with bounded(seconds=120, memory_mb=1024):
        found = problems(tmp_path, _chain(2000))
    assert len(found) == 1, found[:3]
    assert "t0.yaml:1: table 'c/t0': references nest 1,999 deep" in found[0]


def test_a_chain_that_loads_is_a_chain_that_rolls(tmp_path):
    ok = folder_with(tmp_path, _chain(MAX_DEPTH + 1))  # MAX_DEPTH references deep
    tables = TableSet.load([ok], use_env=False)
    assert tables.roll("c/t0", Rng("chain")).text.endswith("end")
    with pytest.raises(TableError, match=f"references nest {MAX_DEPTH + 1} deep"):
        TableSet.load([folder_with(tmp_path / "more", _chain(MAX_DEPTH + 2))], use_env=False)


def test_tables_check_fails_the_chain_it_cannot_roll(run_cli, tmp_path):
    result = run_cli("--tables", folder_with(tmp_path, _chain(20)), "tables", "check")
    assert result.code == 1 and "references nest 19 deep" in result.out + result.err


BUILTIN = Path(__file__).resolve().parent.parent / "tables"


def _biomes_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (BUILTIN / "region" / "biomes.yaml").read_text(encoding="utf-8")
    assert old in text
    return folder_with(tmp_path, {"region/biomes.yaml": text.replace(old, new, 1)})


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ('color: "#c4d49a"', """color: 'red"/><script>alert(1)</script><path d="'""", "color 'red"),
        ('color: "#c4d49a"', "color: 'red}}</style><script>alert(1)</script>'", "color 'red}"),
        ('color: "#c4d49a"', "color: red", "#rgb or #rrggbb"),
        ("- key: plains", """- key: 'x"/><script>alert(1)</script>'""", "key 'x"),
    ],
    ids=["attribute", "css", "named", "key"],
)
def test_a_biome_colour_or_key_that_could_write_markup_is_refused(
    tmp_path, run_cli, old, new, says
):
    pack = _biomes_with(tmp_path, old, new)
    result = run_cli("--tables", pack, "tables", "check")
    assert result.code == 1 and says in result.err, result.err
    assert "biomes.yaml:" in result.err
    for fmt in ("svg", "html"):
        out = tmp_path / f"r.{fmt}"
        result = run_cli("--tables", pack, "region", "--seed", "xss", "-f", fmt, "-o", out)
        assert result.code == 1 and says in result.err, result.err
        assert "internal error" not in result.err and not out.exists(), result.err


def test_a_good_colour_of_three_digits_still_draws(tmp_path, run_cli):
    pack = _biomes_with(tmp_path, 'color: "#c4d49a"', 'color: "#AbC"')
    assert run_cli("--tables", pack, "tables", "check").code == 0
    out = tmp_path / "r.svg"
    result = run_cli("--tables", pack, "region", "--seed", "hostile-region", "-f", "svg", "-o", out)
    assert result.code == 0, result.err
    assert ".b-plains{fill:#AbC}" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("a\x00b", 0x00),
        ("a\x1b[31mb", 0x1B),
        ("a\x0cb", 0x0C),
        ("a\x7fb", 0x7F),
        ("a\u0085b", 0x85),
        ("a\u009bb", 0x9B),
        ('"a\\0b"', 0x00),
        ('"a\\e[31mb"', 0x1B),
        ('"a\\fb"', 0x0C),
        ('"a\\x9bb"', 0x9B),
        ('"a\\x7fb"', 0x7F),
        ('"a\\rb"', 0x0D),
        ('"a\\Nb"', 0x85),
    ],
    ids=[
        "raw-nul",
        "raw-esc",
        "raw-ff",
        "raw-del",
        "raw-nel",
        "raw-csi",
        "nul",
        "esc",
        "ff",
        "csi",
        "del",
        "cr",
        "nel",
    ],
)
def test_a_control_character_in_a_table_is_refused_at_its_line(tmp_path, written, code):
    text = f"title: Names\nentries:\n  - result: ok\n  - result: {written}\n"
    found = problems(tmp_path, {"x/names.yaml": text})
    assert len(found) == 1, found
    assert found[0].startswith(f"{tmp_path}/mine/x/names.yaml:4: "), found
    assert f"a control character (U+{code:04X})" in found[0], found


def test_a_control_character_in_a_key_is_refused_too(tmp_path):
    found = problems(
        tmp_path, {"x/keys.yaml": 'title: Keys\nentries:\n  - {result: a, "k\\e": 1}\n'}
    )
    assert len(found) == 1 and "keys.yaml:3:" in found[0] and "(U+001B)" in found[0], found


def test_tab_newline_and_crlf_files_still_load(tmp_path):
    text = 'title: Fine\r\nentries:\r\n  - "a\\tb"\r\n  - "c\\nd"\r\n'
    tables, found = TableSet.check([folder_with(tmp_path, {"x/fine.yaml": text})], False)
    assert found == [] and [e.result for e in tables.get("x/fine").entries] == ["a\tb", "c\nd"]


def test_control_characters_never_reach_a_map(tmp_path, run_cli):
    """The audit's probe: site names ending in NUL, ESC and form feed wrote SVG and GraphML
    that did not parse. Now `tables check` and every command refuse the pack at its line."""
    text = (BUILTIN / "site" / "name-nouns.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("- result:"))
    lines[first] = lines[first].split(":", 1)[0] + ': "Vault\\0\\e\\f"'
    pack = folder_with(tmp_path, {"site/name-nouns.yaml": "\n".join(lines) + "\n"})
    result = run_cli("--tables", pack, "tables", "check")
    assert result.code == 1 and f"name-nouns.yaml:{first + 1}: " in result.err, result.err
    for fmt in ("svg", "graphml", "text"):
        out = tmp_path / f"s.{fmt}"
        result = run_cli("--tables", pack, "site", "--seed", "nul", "-f", fmt, "-o", out)
        assert result.code == 1 and "(U+0000)" in result.err and not out.exists(), result.err


# --------------------------------------------------------------------------- pack sizes


def test_a_file_of_half_a_million_values_is_refused_before_it_is_built(tmp_path, bounded):
    """Under the size cap, 2 MB of `- a` lines is half a million values: 30 s and 500 MB to
    load before. The values are counted from YAML's events, and the file refused, first."""
    text = "title: Many\nentries:\n" + "- a\n" * 500_000
    assert len(text) < MAX_FILE_BYTES
    with bounded(seconds=15, memory_mb=300):
        found = problems(tmp_path, {"x/many.yaml": text})
    assert found == [
        f"{tmp_path}/mine/x/many.yaml:{MAX_VALUES - 2}: more than {MAX_VALUES:,} values in one "
        "file (a table has at most 10,000 entries)"
    ]


def test_a_file_past_the_size_cap_is_refused_unread(tmp_path, bounded):
    root = folder_with(tmp_path, {"x/ok.yaml": "title: Ok\nentries: [a]\n"})
    with (root / "x" / "huge.yaml").open("wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing to read, were it read
    with bounded(seconds=15, memory_mb=256):
        _, found = TableSet.check([root], use_env=False)
    assert found == [
        f"{root}/x/huge.yaml: {MAX_FILE_BYTES + 1:,} bytes is too big for a table file "
        "(at most 2 MB)"
    ]


def test_a_table_of_too_many_entries_is_one_located_line(tmp_path, bounded):
    text = "title: Names\nentries: [" + ", ".join(["a"] * (MAX_ENTRIES + 1)) + "]\n"
    with bounded(seconds=30, memory_mb=512):
        found = problems(tmp_path, {"x/names.yaml": text})
    assert found == [
        f"{tmp_path}/mine/x/names.yaml:2: table 'x/names': {MAX_ENTRIES + 1:,} entries; a table "
        f"holds at most {MAX_ENTRIES:,} (split it, or roll a die on tables of their own)"
    ]
    ok = "title: Names\nentries: [" + ", ".join(["a"] * MAX_ENTRIES) + "]\n"
    assert problems(tmp_path / "ok", {"x/names.yaml": ok}) == []


def test_a_folder_past_its_values_is_one_located_line(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlload, "MAX_FOLDER_VALUES", 1_000)
    many = "title: T\nentries:\n" + "- a\n" * 400
    found = problems(tmp_path, {f"x/t{i}.yaml": many for i in range(4)})
    assert len(found) == 1, found
    assert found[0].startswith(f"{tmp_path}/mine/x/t2.yaml:") and (
        f"the folder {tmp_path}/mine holds more than 1,000 values in all" in found[0]
    ), found


def test_a_folder_past_its_bytes_or_files_is_refused_before_reading(tmp_path, bounded):
    big = tmp_path / "big"
    (big / "x").mkdir(parents=True)
    for i in range(11):  # 11 sparse files of 2 MB: 22 MB, past the folder's 20 MB
        with (big / "x" / f"t{i}.yaml").open("wb") as fh:
            fh.truncate(MAX_FILE_BYTES)
    many = tmp_path / "many"
    (many / "x").mkdir(parents=True)
    for i in range(MAX_FOLDER_FILES + 1):
        (many / "x" / f"t{i}.yaml").write_text(f"title: T{i}\nentries: [a]\n")
    with bounded(seconds=60, memory_mb=512):
        _, found_big = TableSet.check([big], use_env=False)
        _, found_many = TableSet.check([many], use_env=False)
    assert found_big == [f"{big}: more than 20 MB of table files in one folder"]
    assert found_many == [f"{many}: more than {MAX_FOLDER_FILES:,} table files in one folder"]


def test_a_table_file_linked_out_of_its_folder_is_not_read(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("title: Secret\nentries: [the referee's own notes]\n")
    root = folder_with(tmp_path, {"x/ok.yaml": "title: Ok\nentries: [a]\n"})
    (root / "x" / "leak.yaml").symlink_to(secret)
    tables, found = TableSet.check([root], use_env=False)
    assert found == [
        f"{root}/x/leak.yaml: a symbolic link out of its folder; tables are read only inside "
        "their folder"
    ]
    assert not tables.has("x/leak") and tables.has("x/ok")


# --------------------------------------------------------------------------- not files


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_table_file_that_is_not_a_file_is_refused_unopened(tmp_path, bounded, kind):
    root = folder_with(tmp_path, {"x/ok.yaml": "title: Ok\nentries: [a]\n"})
    odd = root / "x" / "odd.yaml"
    if kind == "fifo":
        os.mkfifo(odd)
    elif kind == "folder":
        odd.mkdir()
        (odd / "inner.yaml").write_text("title: In\nentries: [a]\n")
    else:
        odd.symlink_to("/dev/zero")  # a device: endless, were it read
    with bounded(seconds=15, memory_mb=256):
        tables, found = TableSet.check([root], use_env=False)
    if kind == "folder":  # a folder named .yaml is a folder of tables, not a file
        assert found == [] and tables.has("x/odd.yaml/inner")
        return
    if kind == "device":  # the link leads out of the folder
        assert len(found) == 1 and "a symbolic link out of its folder" in found[0], found
        return
    assert found == [
        f"{root}/x/odd.yaml: is a pipe (FIFO), not a file; Delve reads only regular files"
    ]


def test_a_party_file_that_is_a_fifo_is_refused(tmp_path, bounded, run_cli):
    fifo = tmp_path / "party.yaml"
    os.mkfifo(fifo)
    with bounded(seconds=15, memory_mb=256):
        result = run_cli("sim", "--monster", "goblin", "--party", fifo, "--trials", "10")
    lines = result.err.splitlines()
    assert result.code == 1 and len(lines) == 1 and "is a pipe (FIFO)" in lines[0], result.err


# --------------------------------------------------------------------------- tables check


def _pack_with(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (BUILTIN / name).read_text(encoding="utf-8")
    assert old in text, (name, old)
    return folder_with(tmp_path, {name: text.replace(old, new)})


@pytest.mark.parametrize(
    ("name", "old", "new", "says"),
    [
        ("equipment/armor.yaml", "name: Leather", "name: Hide", "armor must be one of none, hide"),
        ("equipment/armor.yaml", "defense: int?", "defense: str?", "defense must be a whole"),
        ("character/classes.yaml", "class: mage", "class: wizard", "no rows for class 'mage'"),
        ("character/classes.yaml", "prowess: 1\n", "prowess: 99999\n", "prowess must stay 0 to 60"),
        ("sim/party.yaml", "weapon: one-handed", "weapon: club", "weapon must be one of"),
        ("sim/tactics.yaml", "key: front_holds", "key: front_hold", "unknown key 'front_hold'"),
        ("monsters/brackets.yaml", "damage: d6", "damage: 2d6", "damage must be one of d4"),
        ("monsters/brackets.yaml", "xp: 50\n", "xp: 0\n", "xp must be at least 1, not 0"),
        ("monsters/brackets.yaml", "hp: 2\n", "hp: 99999\n", "hp must be 1 to 10,000"),
        ("monsters/examples.yaml", "hp: 16\n", "hp: -1\n", "hp must be 1 to 10,000, not -1"),
        ("systems/fortmayn/brackets.yaml", "  dd: int\n", "  dd: int?\n  dds: int?\n", "'dd: int'"),
    ],
    ids=[
        "armour-renamed",
        "armour-defense",
        "class-renamed",
        "prowess",
        "weapon",
        "tactics",
        "damage",
        "xp",
        "hp",
        "monster-hp",
        "dd",
    ],
)
def test_tables_check_finds_what_would_break_the_simulation(
    tmp_path, run_cli, bounded, name, old, new, says
):
    """Each of these passed `tables check`, then failed every command that estimates danger
    (or, for (Fortmayn)'s dice, stopped it with an internal error, or, for a prowess of 99,999,
    made every fight hang)."""
    pack = _pack_with(tmp_path, name, old, new)
    result = run_cli("--tables", pack, "tables", "check")
    assert result.code == 1 and says in result.err, result.err
    assert "internal error" not in result.err
    monster = "rat swarm" if name == "monsters/brackets.yaml" else "ogre"  # a grunt, for d6
    fight = ["sim", "--monster", monster, "--trials", "10", "--seed", "x"]
    if name.startswith("systems/fortmayn"):
        fight += ["--system", "fortmayn"]
    with bounded(seconds=120, memory_mb=1024):  # a fighter of 99,999 attacks a round hung
        result = run_cli("--tables", pack, *fight)
    assert result.code == 1 and "internal error" not in result.err, result.err


def test_a_long_reference_cycle_is_one_readable_line(tmp_path, bounded):
    files = _chain(2000)
    files["c/t1999.yaml"] = 'title: T1999\nentries:\n  - result: "a {@c/t0}"\n'
    with bounded(seconds=120, memory_mb=1024):
        found = problems(tmp_path, files)
    cycles = [p for p in found if "reference cycle" in p]
    assert len(cycles) == 1, found[:3]
    assert len(cycles[0]) < 400, len(cycles[0])
    assert "c/t0 -> c/t1 -> c/t2 -> c/t3 -> ... (1,995 more) -> c/t1999 -> c/t0" in cycles[0]
    short = problems(tmp_path / "short", {
        "c/a.yaml": 'title: A\nentries:\n  - result: "{@c/b}"\n',
        "c/b.yaml": 'title: B\nentries:\n  - result: "{@c/a}"\n',
    })  # fmt: skip
    assert any(p.endswith("reference cycle c/a -> c/b -> c/a") for p in short), short
