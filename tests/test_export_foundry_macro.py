"""The import macro (docs/foundry-import.js): node parses it as Foundry runs it, and runs it
against an export with Foundry's API stubbed (tests/foundry/macro_stub.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from foundry_docs import export, validate_folder


@pytest.fixture
def site_docs(run_cli, tmp_path):
    folder = export(run_cli, tmp_path, "site", "--seed", "harrowdeep", "--rooms", "12")
    return folder, validate_folder(folder)


MACRO = Path(__file__).parent.parent / "docs" / "foundry-import.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="node is not installed: the import macro cannot be parsed or run here"
)


@needs_node
def test_the_macro_is_valid_javascript(tmp_path):
    """Foundry runs a script macro as the body of an async function (it awaits and returns at
    the top): wrapped so, node must parse it."""
    wrapped = tmp_path / "macro.js"
    wrapped.write_text(f"(async () => {{\n{MACRO.read_text()}\n}})();\n", encoding="utf-8")
    res = subprocess.run([NODE, "--check", str(wrapped)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def run_macro(folder: Path, answer: str, runs: int = 1) -> dict:
    stub = Path(__file__).parent / "foundry" / "macro_stub.js"
    res = subprocess.run(
        [NODE, str(stub), str(MACRO), str(folder), answer, str(runs)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@needs_node
def test_the_macro_imports_every_document_with_its_id(site_docs):
    """Run with Foundry's API stubbed: every listed document is created once, with its own id
    (so notes open their pages), journals before the scenes that point at them, in one folder
    a type; the scenes' pictures follow the folder the referee named; a second run replaces
    the first's documents instead of adding to them."""
    folder, docs = site_docs
    index = json.loads((folder / "delve-foundry.json").read_text())
    log = run_macro(folder, "delve/moved/", runs=2)
    assert not log["errors"], log["errors"]
    first = log["created"][: len(index["documents"])]
    assert [(c["type"], c["id"]) for c in first] == [
        (d["type"], d["_id"]) for d in index["documents"]
    ]
    assert all(c["keepId"] for c in log["created"])
    kinds = [c["type"] for c in first]
    assert kinds.index("Scene") > max(i for i, k in enumerate(kinds) if k == "JournalEntry")
    # One folder a type, the same on the second run.
    assert sorted(f["type"] for f in log["folders"]) == ["JournalEntry", "RollTable", "Scene"]
    assert all(f["name"] == "Delve: moved" for f in log["folders"])
    folder_of = {f["type"]: f["id"] for f in log["folders"]}
    assert all(c["folder"] == folder_of[c["type"]] for c in log["created"])
    for c in first:
        if c["type"] == "Scene":
            assert c["background"].startswith("delve/moved/maps/"), c["background"]
            assert (folder / c["background"].removeprefix("delve/moved/")).is_file()
    # The second run deleted each document of the first before making it again.
    assert sorted((d["type"], d["id"]) for d in log["deleted"]) == sorted(
        (c["type"], c["id"]) for c in first
    )
    assert log["stored"] == {k: len(v) for k, v in docs.items()}
    assert log["infos"][-1] == f"Delve: imported {len(first)} documents from delve/moved"


@needs_node
def test_the_macro_says_so_when_the_folder_is_not_an_export(tmp_path):
    log = run_macro(tmp_path, "delve/nothing")
    assert not log["created"] and len(log["errors"]) == 1
    assert "no delve-foundry.json in delve/nothing" in log["errors"][0]
