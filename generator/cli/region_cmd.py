"""`delve region`: a stocked hex region, its key and its map."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from generator.cli.common import (
    ForceOption,
    OutputOption,
    PaperOption,
    SystemOption,
    TemplatesOption,
    booklet_session,
)

PROGRESS_FROM = 200  # hexes: smaller regions are done before a bar would be read


class _Bar:
    """A progress bar on stderr, opened on the first report of a long job."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        if total <= PROGRESS_FROM:
            return
        if self.bar is None:
            self.bar = typer.progressbar(length=total, label="Stocking hexes", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def region(
    radius: Annotated[
        int | None,
        typer.Option(help="Rings of hexes round the starting haven (default 1: seven hexes)."),
    ] = None,
    size: Annotated[
        str | None, typer.Option(help="A rectangular campaign map, WIDTHxHEIGHT, e.g. 12x8.")
    ] = None,
    hex_miles: Annotated[
        int, typer.Option("--hex-miles", help="18 (a day's travel a hex) or 6 (three a day).")
    ] = 18,
    level: Annotated[
        int, typer.Option(help="Party level near the start; danger rises with distance.")
    ] = 1,
    seed: Annotated[str | None, typer.Option(help="Seed (any text).")] = None,
    reroll: Annotated[
        list[str] | None,
        typer.Option(help="Re-roll one hex (XXYY) and keep the rest; repeatable."),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format", "-f", help="text, md, json, svg, html, pdf, or a folder: foundry, vault."
        ),
    ] = "text",
    out: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    system: SystemOption = None,
    force: ForceOption = False,
) -> None:
    """Generate a hex region: terrain, havens, sites, lairs, landmarks, factions, encounters.

    Example: delve region --radius 3 --seed harrowdeep --format svg

    Example: delve region --radius 3 --seed saltmarch --format vault -o saltmarch-vault
    """
    from generator.build.region import generate_region
    from generator.build.region.terrain import parse_size
    from generator.cli.common import resolve_system, rng_for, tables
    from generator.cli.site_cmd import _write

    dims = parse_size(size) if size is not None else None
    with booklet_session(paper, templates, out, fmt, "region booklet") as report:
        ts = tables()
        if system is not None:
            resolve_system(system)  # a bad --system fails before any seed is drawn
        rng = rng_for(seed)
        # Booklets show one bar over generation, HTML and PDF; other formats get their own.
        bar = _Bar() if fmt not in ("html", "pdf") else None
        try:
            model = generate_region(
                ts,
                rng,
                radius=radius,
                size=dims,
                hex_miles=hex_miles,
                level=level,
                reroll=reroll,
                progress=bar or (lambda done, total: report("generation", done / total)),
            )
        finally:
            if bar is not None:
                bar.close()
        _write(model, fmt, out, system, force)
