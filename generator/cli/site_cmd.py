"""`delve site` and `delve render`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import emit, rng_for, tables
from generator.render import documents

SITE_FORMATS = ("text", "md", "json", "svg", "graphml")


def site(
    level: Annotated[int, typer.Option(help="Party level the site is stocked for.")] = 1,
    rooms: Annotated[int, typer.Option(help="6, 12, 18, 24, 30 or 36 (six per level).")] = 6,
    theme: Annotated[str | None, typer.Option(help="Theme key or name (default: rolled).")] = None,
    seed: Annotated[str | None, typer.Option(help="Seed or seed address (any text).")] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="text, md, json, svg or graphml.")
    ] = "text",
    out: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
) -> None:
    """Generate a looping site: rooms, monsters, treasure, traps and a map.

    Example: delve site --level 2 --rooms 12 --seed harrowdeep --format md
    """
    from generator.site import generate_site

    ts = tables()
    rng = rng_for(seed)
    model = generate_site(ts, rng, level=level, rooms=rooms, theme=theme)
    _write(model, fmt, out)


def render(
    document: Annotated[Path, typer.Argument(help="A saved JSON document (delve site -f json).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, md, json, svg...")] = "text",
    out: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
) -> None:
    """Render a saved (and perhaps edited) site or region document.

    Example: delve render output/site-harrowdeep.json --format svg
    """
    _write(documents.load(document), fmt, out)


def _write(model: object, fmt: str, out: Path | None) -> None:
    data = documents.render(model, fmt)
    ext = "md" if fmt == "md" else "txt" if fmt == "text" else fmt
    to_file = fmt in documents.FILE_FORMATS
    emit(data, out, model.kind, model.seed, ext if to_file else "")  # type: ignore[attr-defined]
