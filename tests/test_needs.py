"""What each generator needs of a table is declared once, beside it; `delve tables check` checks
user tables against the declarations, and the generators read through the same ones.

Issue 12: an obstacle entry with `key: portcullis` passed the check, then `delve site` failed;
and the check reported a table's problems in rounds (unknown field, then the roll gap, then the
bad reference).
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from generator.engine import needs

DOCS = (Path(__file__).resolve().parent.parent / "docs" / "tables.md").read_text()

PORTCULLIS = """\
title: Obstacles with a portcullis
die: d6
fields:
  key: str
entries:
  - roll: 1-3
    key: locked_door
    result: A door.
  - roll: 4-6
    key: portcullis
    result: A portcullis.
"""

EVERYTHING_WRONG = """\
title: Obstacles, wrong four ways
die: d6
fields:
  key: str
entries:
  - roll: 1-2
    key: locked_door
    colour: red
    result: A red door.
  - roll: 3
    key: portcullis
    result: A portcullis.
  - roll: 4-5
    key: none
    result: "Open, {@site/no-such-table}."
"""


def write(folder: Path, rel: str, text: str) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_check_catches_what_would_break_the_site(run_cli, tmp_path):
    path = write(tmp_path, "site/obstacles.yaml", PORTCULLIS)
    checked = run_cli("tables", "check", tmp_path)
    assert checked.code == 1
    problem = checked.err.splitlines()[0]
    assert problem.startswith(f"{path}:9: table 'site/obstacles': key 'portcullis'")
    assert "locked_door, hidden_door, long_corridor, none" in problem
    # The site fails with the same words, from the same declaration.
    site = run_cli("--tables", tmp_path, "site", "--seed", "harrowdeep")
    assert site.code == 1
    assert site.err.strip() == f"delve: error: {problem}"


def test_check_reports_every_problem_in_one_run(run_cli, tmp_path):
    path = write(tmp_path, "site/obstacles.yaml", EVERYTHING_WRONG)
    checked = run_cli("tables", "check", tmp_path)
    assert checked.code == 1
    got = checked.err.strip().splitlines()
    assert got[-1] == "4 problem(s) found"
    said = "\n".join(got)
    assert f"{path}:8: table 'site/obstacles': unknown key 'colour'" in said
    assert "rolls not covered by any entry on d6: 6" in said
    assert "reference to unknown table 'site/no-such-table'" in said
    assert "key 'portcullis' must be one of" in said


def test_a_user_table_missing_a_needed_field_is_reported(run_cli, tmp_path):
    write(
        tmp_path,
        "treasure/valuables.yaml",
        """\
        title: Cheap things
        fields:
          name: str
        entries:
          - name: a button
        """,
    )
    checked = run_cli("tables", "check", tmp_path)
    assert checked.code == 1
    assert "needs a required field 'worth_cp: int' on every entry" in checked.err
    hoard = run_cli("--tables", tmp_path, "hoard", "--seed", "x")
    assert hoard.code == 1 and "worth_cp" in hoard.err


def test_cross_table_needs_are_checked_too(run_cli, tmp_path):
    write(
        tmp_path,
        "region/factions.yaml",
        """\
        title: Factions
        fields:
          key: str
          name: str
          goal: str
          leader: str
          members: str
        entries:
          - key: moths
            name: The Moth Court
            goal: to dim every lamp
            leader: the Grey Duchess
            members: Moth-folk
        """,
    )
    checked = run_cli("tables", "check", tmp_path)
    assert checked.code == 1 and "members name unknown monster 'Moth-folk'" in checked.err


def test_the_builtins_meet_every_declaration(builtin_tables):
    from generator.build import table_problems

    assert table_problems(builtin_tables) == []
    declared = needs.declared()
    assert len(declared) >= 15
    for need in declared:
        assert any(need.matches(i) for i in builtin_tables.ids()), need.table


def test_every_declaration_is_in_the_docs(builtin_tables):
    from generator.build import table_problems

    table_problems(builtin_tables)  # imports every generator, so each has declared its needs
    for need in needs.declared():
        assert f"| `{need.table}` | {need.by} |" in DOCS, need.table
        for name, type_name in need.fields.items():
            assert f"`{name}: {type_name}`" in DOCS, (need.table, name)
        for allowed in need.values.values():
            for value in allowed:
                assert f"`{value}`" in DOCS or str(value) in DOCS, (need.table, value)


TWO_FAULTS_AN_ENTRY = """\
title: Obstacles, two faults to an entry
die: d6
fields:
  key: str
entries:
  - roll: 1-3
    key: portcullis
    colour: red
  - roll: 4-6
    key: none
    result: "Open, {@site/no-such-table}, {2q6} rats."
"""


def test_an_entry_with_two_faults_reports_both_in_one_run(run_cli, tmp_path):
    """The unknown key and the value no generator knows, in one entry; a bad die and a bad
    reference, in one text: all four at once, not one now and the next after the fix."""
    write(tmp_path, "site/obstacles.yaml", TWO_FAULTS_AN_ENTRY)
    said = run_cli("tables", "check", tmp_path).err
    assert "unknown key 'colour'" in said
    assert "key 'portcullis' must be one of" in said
    assert "bad inline dice {2q6}" in said
    assert "reference to unknown table 'site/no-such-table'" in said
    assert said.strip().splitlines()[-1] == "4 problem(s) found"


def test_a_faulty_entry_does_not_break_a_generators_own_check(run_cli, tmp_path):
    write(
        tmp_path,
        "treasure/valuables.yaml",
        """\
        title: Cheap things
        fields:
          name: str
          worth_cp: int
        entries:
          - name: a button
            worth_cp: lots
          - name: a pin
            worth_cp: 0
        """,
    )
    checked = run_cli("tables", "check", tmp_path)
    assert checked.code == 1 and "Traceback" not in checked.err
    assert "field 'worth_cp' must be int, not 'lots'" in checked.err
    assert "worth_cp must be at least 1, not 0" in checked.err


# --------------------------------------------------------------------------- the change sweep
#
# Issue 12's audit changed every built-in table one way at a time and found 35 changes that
# `tables check` passed and a command then failed on (a bracket worth 0 XP divided by zero). The
# sweep is kept here: each change of a sample either is reported by `tables check` or makes a
# site, a region, hoards and a weapon, with danger, in every rules system. The sample is small
# enough for CI; DELVE_SWEEP_ALL=1 runs every change (about 850, some 20 minutes).

BUILTIN = Path(__file__).resolve().parent.parent / "tables"
# Read by the danger simulation, whose needs are declared beside it (generator/sim/): a change
# to them is swept once the simulation declares what it needs of that table.
SIM_TABLES = ("sim/party", "sim/tactics", "sim/verdicts", "character/classes", "equipment/armor")
# The tables the audit caught breaking a command after passing the check: every change of these
# is in the sample; of the rest, every STRIDE-th.
ALWAYS = ("monsters/brackets", "systems/deadly-traps")
STRIDE = 29
# And the audit's other finds, and one of this sweep's own (a monster's armour no system knows).
FOUND = (
    ("monsters/examples", "hp=-1"),
    ("monsters/examples", "damage=zzbogus"),
    ("monsters/examples", "armor=zzbogus"),
)


def _changes(data: dict) -> list[tuple[str, dict]]:
    """One table changed one way at a time: a field dropped, a text field set to nonsense, a
    number field set to 0 or -1, all entries but one dropped, every result text emptied."""
    import copy

    out: list[tuple[str, dict]] = []
    fields = data.get("fields") or {}
    entries = data.get("entries") or []
    for name, declared in fields.items():
        base = str(declared).rstrip("?").split()[0]
        changed = copy.deepcopy(data)
        for e in changed["entries"]:
            if isinstance(e, dict):
                e.pop(name, None)
        del changed["fields"][name]
        if not changed["fields"]:
            del changed["fields"]
        out.append((f"without {name}", changed))
        bad_values = {"str": ["zzbogus"], "int": [0, -1]}.get(base, [])
        for bad in bad_values:
            changed = copy.deepcopy(data)
            for e in changed["entries"]:
                if isinstance(e, dict) and name in e:
                    e[name] = bad
            out.append((f"{name}={bad}", changed))
    if len(entries) > 1 and "die" not in data:
        out.append(("one entry", {**copy.deepcopy(data), "entries": copy.deepcopy(entries[:1])}))
    if any(isinstance(e, dict) and isinstance(e.get("result"), str) for e in entries):
        changed = copy.deepcopy(data)
        for e in changed["entries"]:
            if isinstance(e, dict) and isinstance(e.get("result"), str):
                e["result"] = ""
        out.append(("empty results", changed))
    return out


def _sweep() -> list[tuple[str, str]]:
    import yaml

    every = []
    for path in sorted(BUILTIN.rglob("*.yaml")):
        table_id = path.relative_to(BUILTIN).with_suffix("").as_posix()
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "entries" in data:
            every += [(table_id, label) for label, _ in _changes(data)]
    if os.environ.get("DELVE_SWEEP_ALL"):
        return every
    return [c for i, c in enumerate(every) if c[0] in ALWAYS or c in FOUND or i % STRIDE == 0]


def _make_everything(folder: Path) -> None:
    """What a referee makes from a folder that passed: sites and a region with danger, printed
    in every rules system; hoards of three levels; a weapon."""
    from generator.build import address
    from generator.engine.tables import TableSet
    from generator.render import documents
    from generator.render.context import using_system
    from generator.sim.danger import estimate_region, estimate_site
    from generator.systems import get_system, system_keys

    tables = TableSet.load([folder], use_env=False)
    site = address.build(tables, "sweep", "site", {"rooms": 12}).thing
    estimate_site(tables, site, trials=20)
    region = address.build(tables, "sweep", "region", {"radius": 1}).thing
    estimate_region(tables, region, trials=20)
    for key in system_keys(tables):
        with using_system(get_system(tables, key)):
            documents.render(site, "text")
            documents.render(region, "md")
    for level in (1, 3, 6):
        address.build(tables, f"sweep-{level}", "hoard", {"level": level})
    address.build(tables, "sweep", "weapon", {"die": "d8"})


@pytest.mark.parametrize(("table_id", "change"), _sweep())
def test_every_change_tables_check_passes_makes_a_site_a_region_and_a_hoard(
    run_cli, tmp_path, table_id, change
):
    import yaml

    if table_id in SIM_TABLES and not any(n.matches(table_id) for n in needs.declared()):
        pytest.skip(f"the simulation declares no needs of {table_id} yet")
    data = yaml.safe_load((BUILTIN / f"{table_id}.yaml").read_text(encoding="utf-8"))
    changed = dict(_changes(data))[change]
    target = tmp_path / f"{table_id}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(yaml.safe_dump(changed, sort_keys=False, allow_unicode=True))
    checked = run_cli("tables", "check", tmp_path)
    if checked.code != 0:
        assert "Traceback" not in checked.err and "problem(s) found" in checked.err
        return
    try:
        _make_everything(tmp_path)
    except Exception as err:  # noqa: BLE001  (any failure here is the defect)
        pytest.fail(f"`tables check` passed {table_id} ({change}), then: {err!r}")
