"""`delve site` and `delve render`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import (
    ForceOption,
    OutputOption,
    PaperOption,
    SystemOption,
    TemplatesOption,
    booklet_session,
    emit,
    resolve_system,
    rng_for,
    tables,
)
from generator.render import documents

SITE_FORMATS = ("text", "md", "json", "svg", "graphml", "html", "pdf", "foundry", "vault")


def site(
    level: Annotated[int, typer.Option(help="Party level the site is stocked for.")] = 1,
    rooms: Annotated[int, typer.Option(help="6, 12, 18, 24, 30 or 36 (six per level).")] = 6,
    theme: Annotated[str | None, typer.Option(help="Theme key or name (default: rolled).")] = None,
    seed: Annotated[str | None, typer.Option(help="Seed or seed address (any text).")] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="text, md, json, svg, graphml, html, pdf, or a folder: foundry, vault.",
        ),
    ] = "text",
    out: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    system: SystemOption = None,
    force: ForceOption = False,
) -> None:
    """Generate a looping site: rooms, monsters, treasure, traps and a map.

    Example: delve site --level 2 --rooms 12 --seed harrowdeep --format pdf

    Example: delve site --seed harrowdeep --format foundry -o harrowdeep-foundry
    """
    from generator.build.site import generate_site

    with booklet_session(paper, templates, out, fmt):
        ts = tables()
        if system is not None:
            resolve_system(system)  # a bad --system fails before any seed is drawn
        rng = rng_for(seed)
        model = generate_site(ts, rng, level=level, rooms=rooms, theme=theme)
        _write(model, fmt, out, system, force)


def render(
    document: Annotated[Path, typer.Argument(help="A saved JSON document (delve site -f json).")],
    fmt: Annotated[
        str,
        typer.Option("--format", "-f", help="text, md, json, svg, html, pdf, foundry, vault..."),
    ] = "text",
    out: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    system: SystemOption = None,
    force: ForceOption = False,
) -> None:
    """Render a saved (and perhaps edited) site or region document.

    Without --system it prints in the system the document names.

    Example: delve render output/site-harrowdeep.json --format pdf --paper a5

    Example: delve render output/site-harrowdeep.json --format vault -o harrowdeep-notes
    """
    model = documents.load(document)
    label = "region booklet" if model.kind == "region" else None
    with booklet_session(paper, templates, out, fmt, progress_label=label, generates=False):
        _write(model, fmt, out, system, force)


def _write(
    model: object, fmt: str, out: Path | None, system: str | None = None, force: bool = False
) -> None:
    """Render in the chosen rules system (recorded in the document) and write or print."""
    if fmt in documents.FOLDER_FORMATS:
        from generator.export.cli import export_folder

        return export_folder(model, fmt, out, system, force)
    if fmt in ("json", "graphml", "svg") and system is None:
        # These print no rules: the document keeps the system it names, unresolved.
        data = documents.render(model, fmt)
    else:
        from generator.render.context import using_system

        chosen = resolve_system(system or getattr(model, "system", None))
        model.system = chosen.key  # type: ignore[attr-defined]
        with using_system(chosen):
            data = documents.render(model, fmt)
    ext = "md" if fmt == "md" else "txt" if fmt == "text" else fmt
    to_file = fmt in documents.FILE_FORMATS
    emit(data, out, model.kind, model.seed, ext if to_file else "")  # type: ignore[attr-defined]
