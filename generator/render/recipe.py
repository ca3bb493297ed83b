"""The command that makes a document again, byte for byte, printed on its cover and in its key.

A document's address (its `seed`, generator/build/address.py) carries every option of its
generator; a region adds its re-rolled hexes. The rest of what the bytes depend on is how it was
printed: the tables folders, the rules system, the format, and for booklets the paper and the
template folders. Those come from the render's own context (the system holds the tables it was
resolved from; the booklet options hold the paper and templates), so the command printed is the
one that was run, not a guess.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def rebuild_args(
    model: Any,
    fmt: str = "text",
    system: Any = None,
    paper: str = "a4",
    templates: Sequence[Path | str] = (),
) -> list[str]:
    """['delve', 'site', '--seed', ADDRESS, ...]: the command that makes these bytes again."""
    args = ["delve"]
    tables = getattr(system, "tables", None)
    for folder in tables.folders[1:] if tables is not None else ():
        args += ["--tables", str(folder)]
    args += [model.kind, "--seed", model.seed]
    for label, times in (getattr(model, "reroll", None) or {}).items():
        args += ["--reroll", label] * times
    if system is not None and not getattr(system, "default", False):
        args += ["--system", system.key]
    from generator.render.context import mono

    if mono() and model.kind == "region":
        args.append("--mono")
    if fmt != "text":
        args += ["--format", fmt]
    if fmt in ("html", "pdf"):
        if paper != "a4":
            args += ["--paper", paper]
        for folder in templates:
            args += ["--templates", str(folder)]
    return args


def rebuild_command(
    model: Any,
    fmt: str = "text",
    system: Any = None,
    paper: str = "a4",
    templates: Sequence[Path | str] = (),
) -> str:
    """The same as one line a shell reads back exactly (seeds may hold spaces or quotes)."""
    return shlex.join(rebuild_args(model, fmt, system, paper, templates))
