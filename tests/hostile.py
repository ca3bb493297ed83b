"""Helpers shared by the hostile-document tests (test_hostile_documents.py and
test_hostile_fuzz.py): render a saved document in process, check a one-line failure, write
and edit documents."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path
from typing import Any

import generator.cli
from generator.cli.common import state


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
    """Exit 1 and one `delve: error:` line (progress lines aside), holding every needle."""
    errors = [line for line in err.splitlines() if line.startswith("delve: ")]
    assert code == 1, err
    assert len(errors) == 1 and errors[0].startswith("delve: error: "), err
    assert "internal error" not in err and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def write(tmp_path: Path, data: Any, raw: str | None = None) -> Path:
    path = tmp_path / "doc.json"
    path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
    return path


def edit(doc: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """A copy of doc with the field at `where` (dotted, list items by number) set to value."""
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
