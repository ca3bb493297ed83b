"""Checks shared by the Foundry export tests: every exported file against Foundry 13's data model
(the JSON Schema in tests/foundry/) and what the schema cannot say. A plain module, not a test
file, so both test files import it (conftest.py puts this folder on sys.path)."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

SCHEMA = json.loads((Path(__file__).parent / "foundry" / "foundry13.schema.json").read_text())


def validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{kind}"})


def validate(kind: str, doc: dict) -> None:
    errors = sorted(validator(kind).iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def export(run_cli, tmp_path: Path, *args: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "foundry"
    res = run_cli(*args, "--format", "foundry", "-o", out)
    assert res.code == 0, res.err
    return out


def validate_folder(folder: Path) -> dict[str, list[dict]]:
    """Check every document file against the schema; return the documents by type."""
    index = json.loads((folder / "delve-foundry.json").read_text())
    assert index["foundry"] == "13"
    listed = {d["file"] for d in index["documents"]}
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*.json")}
    assert on_disk - {"delve-foundry.json", ".delve-manifest.json"} == listed
    out: dict[str, list[dict]] = {}
    for entry in index["documents"]:
        doc = json.loads((folder / entry["file"]).read_text())
        validate(entry["type"], doc)
        assert doc["_id"] == entry["_id"]
        check_beyond_schema(entry["type"], doc)
        out.setdefault(entry["type"], []).append(doc)
    return out


def check_beyond_schema(kind: str, doc: dict) -> None:
    """What Foundry 13 validates that JSON Schema cannot say: a result's range ascends
    (TableResult), a light's darkness.min is at most its max (LightData), ids are unique
    within their collection."""
    if kind == "RollTable":
        assert all(low <= high for low, high in (r["range"] for r in doc["results"])), doc["name"]
        ids = [r["_id"] for r in doc["results"]]
    elif kind == "Scene":
        for lamp in doc["lights"]:
            dark = lamp["config"].get("darkness", {})
            assert dark.get("min", 0) <= dark.get("max", 1)
        ids = [x["_id"] for key in ("walls", "lights", "notes") for x in doc[key]]
    else:
        ids = [p["_id"] for p in doc["pages"]]
    assert len(ids) == len(set(ids)), f"{kind} {doc['name']}: an id twice"
