"""The README is part of the product: its commands exist and every command is in it."""

from __future__ import annotations

import re
from pathlib import Path

import generator.cli as cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def _commands() -> list[str]:
    cli._register_optional()
    names = [c.name or c.callback.__name__ for c in cli.app.registered_commands]
    names += [g.name for g in cli.app.registered_groups]
    return sorted(n for n in names if n)


def test_every_command_is_in_the_readme():
    missing = [name for name in _commands() if f"delve {name}" not in README]
    assert missing == []


def test_every_command_has_help_with_an_example(run_cli):
    for name in _commands():
        res = run_cli(name, "--help")
        assert res.code == 0, (name, res.err)
        if name != "tables":
            assert "Example:" in res.out, name


def test_the_readme_opens_with_the_two_commands():
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block is not None
    lines = [line for line in block.group(1).splitlines() if line.strip()]
    assert lines[0].startswith("pip install . && delve site --seed harrowdeep --format pdf")
    assert lines[1].startswith("pip install '.[test]' && pytest")


def test_every_setting_the_readme_names_is_read():
    """A DELVE_* variable the README names is read by the code or the tests that it says."""
    root = Path(__file__).resolve().parent.parent
    sources = "\n".join(
        p.read_text(encoding="utf-8")
        for folder in ("generator", "tests")
        for p in (root / folder).rglob("*.py")
        if p.name != "test_docs.py"
    )
    named = set(re.findall(r"\bDELVE_[A-Z_]+\b", README))
    assert {"DELVE_TABLES", "DELVE_SWEEP_ALL", "DELVE_FUZZ_EXAMPLES"} <= named
    assert sorted(n for n in named if f'"{n}"' not in sources) == []


def test_the_table_format_example_is_a_table_whose_texts_print(run_cli, tmp_path):
    """docs/tables.md's example is a working `site/passages/locked-door`: it passes the check,
    and its `result` and `pass` print in a site's room key (its `noise`, read by no generator,
    does not)."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "tables.md").read_text()
    example = re.search(r"```yaml\n(.*?)```", docs, re.S).group(1)
    target = tmp_path / "site" / "passages" / "locked-door.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(example)
    assert run_cli("tables", "check", tmp_path).code == 0
    said = " ".join(
        run_cli("--tables", tmp_path, "site", "--seed", f"docs-{i}", "--no-danger").out
        for i in range(6)
    )
    said = re.sub(r"\s+", " ", said)
    for text in ("A door swollen shut with damp.", "kick it free", "pick the locks"):
        assert text in said
    assert re.search(r"A door with (1 lock|[23] locks) and one key missing", said)
    assert "crack that carries" not in said
