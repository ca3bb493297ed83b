"""`delve site` and `delve render`."""

from __future__ import annotations

import re
from pathlib import Path
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
    add_danger,
    add_part_danger,
    booklet_session,
    emit,
    output_format,
    resolve_seed,
    resolve_system,
    tables,
)
from generator.errors import DelveError
from generator.render import documents

SITE_FORMATS = (
    "text", "md", "json", "svg", "png", "uvtt", "graphml", "html", "pdf", "foundry", "vault",
)  # fmt: skip
MAP_FORMATS = ("svg", "png", "uvtt")

PlayersOption = Annotated[
    bool,
    typer.Option(
        "--players",
        help="The players' map (svg, png, uvtt): no room numbers, hidden doors or marks.",
    ),
]
DpiOption = Annotated[
    int | None,
    typer.Option("--dpi", help="Pixels a 10-foot square for png and uvtt (default 100)."),
]


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
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="text, md, json, svg, png, uvtt, graphml, html, pdf, or a folder: foundry, vault "
            "(default: what -o's suffix names, else text).",
        ),
    ] = None,
    out: OutputOption = None,
    paper: PaperOption = "a4",
    templates: TemplatesOption = None,
    system: SystemOption = None,
    danger: DangerOption = None,
    party: PartyOption = None,
    trials: TrialsOption = None,
    players: PlayersOption = False,
    dpi: DpiOption = None,
    force: ForceOption = False,
) -> None:
    """Generate a looping site: rooms, monsters, treasure, traps and a map.

    The address printed for a site (on its cover and in its JSON) carries its options:
    `delve site --seed harrowdeep@level=2+rooms=12` is the site below again. A region's site
    (saltmarch/hex/0403/site) or a room (harrowdeep/level/1/room/4) comes back the same way.
    Maps (svg, png, uvtt) are one file per level: -o names the first, the others end in
    -level2, -level3...

    Example: delve site --level 2 --rooms 12 --seed harrowdeep --format pdf

    Example: delve site --seed harrowdeep -o harrowdeep.pdf

    Example: delve site --seed harrowdeep --format uvtt --players --dpi 140

    Example: delve site --seed harrowdeep --format foundry -o harrowdeep-foundry

    Example: delve site --seed harrowdeep --format pdf --party my-party.yaml
    """
    from generator.build import address

    fmt = output_format(fmt, out, "site")
    _check_map_options(fmt, players, dpi)
    with booklet_session(paper, templates, out, fmt):
        ts = tables()
        if system is not None:
            resolve_system(system)  # a bad --system fails before any seed is drawn
        given = {"level": level, "rooms": rooms, "theme": theme}
        part = address.build(ts, resolve_seed(seed), "site", given)
        address.check_kind(part, ("site", "room"), "site")
        if part.kind == "room":
            add_part_danger(part, fmt, danger, system, party, trials)
            _write_part(part, fmt, system)
        else:
            from generator.render.recipe import danger_given

            add_danger(part.thing, fmt, danger, system, party, trials)
            with danger_given(party, trials):
                _write(part.thing, fmt, out, system, players=players, dpi=dpi, force=force)


def render(
    document: Annotated[Path, typer.Argument(help="A saved JSON document (delve site -f json).")],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="text, md, json, svg, png, uvtt, html, pdf, foundry, vault... (default: what "
            "-o's suffix names, else text)",
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
    players: PlayersOption = False,
    dpi: DpiOption = None,
    force: ForceOption = False,
) -> None:
    """Render a saved (and perhaps edited) site or region document.

    Without --system it prints in the system the document names. A site keeps the plan its
    document holds; connections without a path are routed among its rooms. Danger estimates
    the document carries (delve sim DOC --party mine.yaml -f json) are kept while their rooms
    hold the same monsters, unless --party or --trials asks for new ones.

    Example: delve render output/site-harrowdeep.json --format pdf --paper a5

    Example: delve render output/site-harrowdeep.json --format png --players

    Example: delve render output/site-harrowdeep.json --format vault -o harrowdeep-notes
    """
    from generator.render.recipe import danger_given, from_document

    if fmt is not None:  # refused before the document is read
        _check_map_options(fmt, players, dpi)
    model = documents.load(document)
    if fmt is None:  # the document's kind says which suffixes name a format
        fmt = output_format(fmt, out, model.kind)
        _check_map_options(fmt, players, dpi)
    label = "region booklet" if model.kind == "region" else None
    edited, why = (None if _its_seed_makes(model) else document), "edited"
    with booklet_session(paper, templates, out, fmt, progress_label=label, generates=False):
        add_danger(model, fmt, danger, system or model.system, party, trials)
        if not edited and party is None and trials is None and _kept_other_estimates(model):
            edited, why = document, "danger"  # its seed's command estimates for the default party
        with from_document(edited, why), danger_given(party, trials):
            _write(model, fmt, out, system, mono, players, dpi, force)


def _its_seed_makes(model: Any) -> bool:
    """Whether the document is what its address makes with these tables (danger and the
    system it prints in aside: the printed command gives those). Only then may its cover and
    key print the command that makes it from its seed; an edited document's print
    `delve render FILE`."""
    from generator.build import address
    from generator.render.recipe import root_reroll_args

    def plain(data: Any) -> Any:
        if isinstance(data, dict):
            return {k: plain(v) for k, v in data.items() if k not in ("danger", "routes", "system")}
        if isinstance(data, list):
            return [plain(v) for v in data]
        return data

    reroll = root_reroll_args(model)[1::2]  # the labels, once a re-roll
    try:
        again = address.build(tables(), model.seed, model.kind, reroll=reroll or None).thing
    except DelveError:
        return False
    return plain(again.to_dict()) == plain(model.to_dict())


def _kept_other_estimates(model: Any) -> bool:
    """Whether a document kept estimates its seed's command does not make: another party's
    (`delve sim DOC --party mine.yaml`, or a site made with --party) or another number of
    trials. The default party is told as 'four level-2 characters', with no names or classes
    (generator/sim/party.py describe)."""
    sites = [model] if model.kind == "site" else [h.site for h in model.hexes if h.site]
    found = [t.danger for s in sites for t in [*s.rooms, *s.encounters]]
    if model.kind == "region":
        found += [h.lair.danger for h in model.hexes if h.lair]
        found += [e.danger for table in model.encounters for e in table.entries]
    found = [d for d in found if d]
    if not found:
        return False
    from generator.sim.danger import DEFAULT_TRIALS

    default = re.compile(r"\w+ level-\d+ characters?")
    return any(d.trials != DEFAULT_TRIALS or not default.fullmatch(d.party) for d in found)


def _check_map_options(fmt: str, players: bool, dpi: int | None) -> None:
    """--players and --dpi belong to the map formats; refuse them early and in one line."""
    if players and fmt not in MAP_FORMATS:
        raise DelveError(
            f"--players: only for --format svg, png or uvtt (the players' map), not {fmt}"
        )
    if dpi is not None:
        if fmt not in ("png", "uvtt"):
            raise DelveError(f"--dpi: only for --format png or uvtt, not {fmt}")
        from generator.render.map_png import check_ppg

        check_ppg(dpi)


def _write(
    model: object,
    fmt: str,
    out: Path | None,
    system: str | None = None,
    mono: bool = False,
    players: bool = False,
    dpi: int | None = None,
    force: bool = False,
) -> None:
    """Render in the chosen rules system (recorded in the document) and write or print;
    `mono` draws the region map black on white, `players` and `dpi` shape a site's maps,
    `force` lets a folder format (foundry, vault) replace its own earlier export."""
    from generator.render.context import in_mono

    if fmt in documents.FOLDER_FORMATS:
        from generator.export.cli import export_folder

        return export_folder(model, fmt, out, system, force)

    if fmt in MAP_FORMATS and model.kind == "site":  # type: ignore[attr-defined]
        _write_maps(model, fmt, out, players, dpi)
        return
    if players:
        raise DelveError(f"--players: a {model.kind} has no players' map")  # type: ignore[attr-defined]
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
    ext = documents.EXTENSIONS.get(fmt, fmt)
    to_file = fmt in documents.FILE_FORMATS
    emit(data, out, model.kind, model.seed, ext if to_file else "")  # type: ignore[attr-defined]


PART_FORMATS = ("text", "md", "json")


def _write_part(part: object, fmt: str, system: str | None) -> None:
    """One part of a site or region (a room, a hex, a haven, a lair) as text, md or json."""
    import json

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


def _write_maps(model: object, fmt: str, out: Path | None, players: bool, dpi: int | None) -> None:
    """A map file per level: -o (or output/site-SEED[-players].EXT) for the first, the rest
    named NAME-level2.EXT and so on. Every file is drawn before any is written."""
    from generator.output import default_path
    from generator.render import site_map
    from generator.render.booklet import check_target

    options = site_map.MapOptions(players, dpi or site_map.DEFAULT_PPG)
    ext = documents.EXTENSIONS.get(fmt, fmt)
    kind, seed = model.kind, model.seed  # type: ignore[attr-defined]
    check_target(out)
    with site_map.using(options):
        files = documents.render(model, fmt)
    first = (
        out if out is not None else default_path(kind, seed + ("-players" if players else ""), ext)
    )
    for level, data in enumerate(files, start=1):
        emit(data, site_map.level_name(first, level), kind, seed, ext)
