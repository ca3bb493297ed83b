"""`delve monsters`: the bestiary (every bracket and every monster, the referee's own included)
in the terms of one rules system."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from generator.cli.common import emit, tables
from generator.errors import DelveError

FORMATS = ("text", "json")


def monsters(
    system: Annotated[
        str | None,
        typer.Option(help="Rules system: fmc, fortmayn, f4c or fantasy-core (default fmc)."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
) -> None:
    """List the bestiary, bracket by bracket, with stat blocks in one rules system's terms.

    Example: delve monsters --system f4c
    """
    from generator.build.monsters import bestiary
    from generator.systems import get_system
    from generator.systems.listing import bestiary_json, bestiary_text

    if fmt not in FORMATS:
        raise DelveError(f"--format: must be {' or '.join(FORMATS)}, not {fmt!r}")
    ts = tables()
    chosen = get_system(ts, system)
    beasts = bestiary(ts)
    if fmt == "json":
        emit(json.dumps(bestiary_json(ts, chosen, beasts), indent=2, ensure_ascii=False), None)
    else:
        emit(bestiary_text(ts, chosen, beasts), None)
