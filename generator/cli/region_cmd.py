"""`delve region`: a stocked hex region, its key and its map."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from generator.cli.common import (
    DangerOption,
    ForceOption,
    MonoOption,
    OutputOption,
    PaperOption,
    PartyOption,
    SystemOption,
    TemplatesOption,
    TrialsOption,
    booklet_session,
    output_format,
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
        int | None,
        typer.Option("--hex-miles", help="18 (a day's travel a hex; default) or 6 (three a day)."),
    ] = None,
    level: Annotated[
        int | None,
        typer.Option(help="Party level near the start (default 1); danger rises with distance."),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(help="Seed (any text), or the address of a region, hex, haven or lair."),
    ] = None,
    reroll: Annotated[
        list[str] | None,
        typer.Option(help="Re-roll one hex (XXYY) and keep the rest; repeatable."),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="text, md, json, svg, html, pdf, or a folder: foundry, vault (default: what "
            "-o's suffix names, else text).",
        ),
    ] = None,
    out: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    system: SystemOption = None,
    mono: MonoOption = False,
    danger: DangerOption = None,
    party: PartyOption = None,
    trials: TrialsOption = None,
    force: ForceOption = False,
) -> None:
    """Generate a hex region: terrain, havens, sites, lairs, landmarks, factions, encounters.

    The address printed for a region carries its options (saltmarch@radius=3); a hex, haven or
    lair address (saltmarch/hex/0302, .../haven, .../lair) prints that part again.

    Example: delve region --radius 3 --seed harrowdeep --format svg

    Example: delve region --radius 3 --seed saltmarch --format vault -o saltmarch-vault
    """
    from generator.build import address
    from generator.build.region.terrain import parse_size
    from generator.cli.common import (
        add_danger,
        add_part_danger,
        resolve_seed,
        resolve_system,
        tables,
    )
    from generator.cli.site_cmd import _write, _write_part

    fmt = output_format(fmt, out, "region")
    dims = parse_size(size) if size is not None else None
    with booklet_session(paper, templates, out, fmt, "region booklet") as report:
        ts = tables()
        if system is not None:
            resolve_system(system)  # a bad --system fails before any seed is drawn
        # Booklets show one bar over generation, HTML and PDF; other formats get their own.
        bar = _Bar() if fmt not in ("html", "pdf") else None
        given = {"radius": radius, "size": dims, "miles": hex_miles, "level": level}
        try:
            part = address.build(
                ts,
                resolve_seed(seed),
                "region",
                given,
                reroll=reroll,
                progress=bar or (lambda done, total: report("generation", done / total)),
            )
        finally:
            if bar is not None:
                bar.close()
        address.check_kind(part, ("region", "hex", "haven", "lair"), "region")
        if part.kind == "region":
            from generator.render.recipe import danger_given

            add_danger(part.thing, fmt, danger, system, party, trials)
            with danger_given(party, trials):
                _write(part.thing, fmt, out, system, mono, force=force)
        else:
            add_part_danger(part, fmt, danger, system, party, trials)
            _write_part(part, fmt, system)
