"""`delve site` and `delve render`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import (
    DangerOption,
    MonoOption,
    OutputOption,
    PaperOption,
    SystemOption,
    TemplatesOption,
    add_danger,
    booklet_session,
    emit,
    resolve_seed,
    resolve_system,
    tables,
)
from generator.render import documents

SITE_FORMATS = ("text", "md", "json", "svg", "graphml", "html", "pdf")


def site(
    level: Annotated[
        int | None, typer.Option(help="Party level the site is stocked for (default 1).")
    ] = None,
    rooms: Annotated[
        int | None, typer.Option(help="6, 12, 18, 24, 30 or 36 (six per level; default 6).")
    ] = None,
    theme: Annotated[str | None, typer.Option(help="Theme key or name (default: rolled).")] = None,
    seed: Annotated[
        str | None,
        typer.Option(help="Seed (any text), or the address of a site or a room: it rebuilds it."),
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="text, md, json, svg, graphml, html or pdf.")
    ] = "text",
    out: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    system: SystemOption = None,
    danger: DangerOption = None,
) -> None:
    """Generate a looping site: rooms, monsters, treasure, traps and a map.

    The address printed for a site (on its cover and in its JSON) carries its options:
    `delve site --seed harrowdeep@level=2+rooms=12` is the site below again. A region's site
    (saltmarch/hex/0403/site) or a room (harrowdeep/level/1/room/4) comes back the same way.

    Example: delve site --level 2 --rooms 12 --seed harrowdeep --format pdf
    """
    from generator.build import address

    with booklet_session(paper, templates, out, fmt):
        ts = tables()
        if system is not None:
            resolve_system(system)  # a bad --system fails before any seed is drawn
        given = {"level": level, "rooms": rooms, "theme": theme}
        part = address.build(ts, resolve_seed(seed), "site", given)
        address.check_kind(part, ("site", "room"), "site")
        if part.kind == "room":
            _write_part(part, fmt, system)
        else:
            add_danger(part.thing, fmt, danger, system)
            _write(part.thing, fmt, out, system)


def render(
    document: Annotated[Path, typer.Argument(help="A saved JSON document (delve site -f json).")],
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="text, md, json, svg, html, pdf...")
    ] = "text",
    out: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    system: SystemOption = None,
    mono: MonoOption = False,
    danger: DangerOption = None,
) -> None:
    """Render a saved (and perhaps edited) site or region document.

    Without --system it prints in the system the document names.

    Example: delve render output/site-harrowdeep.json --format pdf --paper a5
    """
    model = documents.load(document)
    label = "region booklet" if model.kind == "region" else None
    with booklet_session(paper, templates, out, fmt, progress_label=label, generates=False):
        add_danger(model, fmt, danger, system or model.system)
        _write(model, fmt, out, system, mono)


def _write(
    model: object, fmt: str, out: Path | None, system: str | None = None, mono: bool = False
) -> None:
    """Render in the chosen rules system (recorded in the document) and write or print;
    `mono` draws the region map black on white."""
    from generator.render.context import in_mono

    if fmt in ("json", "graphml", "svg") and system is None:
        # These print no rules: the document keeps the system it names, unresolved.
        with in_mono(mono):
            data = documents.render(model, fmt)
    else:
        from generator.render.context import using_system

        chosen = resolve_system(system or getattr(model, "system", None))
        model.system = chosen.key  # type: ignore[attr-defined]
        with using_system(chosen), in_mono(mono):
            data = documents.render(model, fmt)
    ext = "md" if fmt == "md" else "txt" if fmt == "text" else fmt
    to_file = fmt in documents.FILE_FORMATS
    emit(data, out, model.kind, model.seed, ext if to_file else "")  # type: ignore[attr-defined]


PART_FORMATS = ("text", "md", "json")


def _write_part(part: object, fmt: str, system: str | None) -> None:
    """One part of a site or region (a room, a hex, a haven, a lair) as text, md or json."""
    import json

    from generator.errors import DelveError
    from generator.render.context import using_system

    p = part  # type: Any
    if fmt not in PART_FORMATS:
        raise DelveError(
            f"--format {fmt}: a {p.kind} on its own prints as {', '.join(PART_FORMATS)}; "
            f"its {'site' if p.kind == 'room' else 'region'} makes the booklet"
        )
    if fmt == "json":
        emit(json.dumps(p.thing.to_dict(), indent=2, ensure_ascii=False), None)
        return
    from generator.render.parts import part_text

    chosen = resolve_system(system or getattr(p.root, "system", None))
    with using_system(chosen):
        emit(part_text(p, fmt, chosen), None)
