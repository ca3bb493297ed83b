"""What every command shares: global options, loading tables, seeds, writing results."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from generator.engine.rng import Rng, check_seed, random_seed
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.output import default_path, write_atomic
from generator.render.recipe import DANGER_FORMATS  # one list: the rebuild commands read it

if TYPE_CHECKING:
    from generator.systems import System


@dataclass
class State:
    tables_dirs: list[Path] = field(default_factory=list)
    seed: str | None = None
    debug: bool = False
    _tables: TableSet | None = None


state = State()


def tables() -> TableSet:
    """The built-in tables layered with DELVE_TABLES and every --tables folder (loaded once)."""
    if state._tables is None:
        state._tables = TableSet.load(state.tables_dirs)
    return state._tables


def resolve_system(key: str | None) -> System:
    """The rules system named by --system (or by a document), checked against the tables."""
    from generator.systems import get_system

    return get_system(tables(), key)


OutputOption = Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")]
ForceOption = Annotated[
    bool,
    typer.Option("--force", help="foundry/vault: write over an earlier export in the -o folder."),
]
PaperOption = Annotated[
    str, typer.Option("--paper", help="Booklet paper for html/pdf: a4, letter or a5.")
]
TemplatesOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--templates",
        help="A folder of your own booklet templates over the built-ins (repeatable).",
    ),
]


def booklet_session(
    paper: str, templates: list[Path] | None, out: Path | None, fmt: str, *args: Any, **kw: Any
) -> Any:
    """The booklet's checks and progress for html/pdf (and for any --paper/--templates given);
    other formats skip it, so they never load the booklet machinery."""
    if fmt in ("html", "pdf") or templates or paper != "a4":
        from generator.render import booklet

        return booklet.cli_session(paper, templates, out, fmt, *args, **kw)
    return nullcontext(lambda stage, done: None)


MonoOption = Annotated[
    bool,
    typer.Option(
        "--mono",
        help="Draw the region map black on white (white land, grey water, black rivers).",
    ),
]
SystemOption = Annotated[
    str | None,
    typer.Option(
        "--system",
        help="Rules system to print in: fmc, fortmayn, f4c, fantasy-core (default fmc).",
    ),
]


DangerOption = Annotated[
    bool | None,
    typer.Option(
        "--danger/--no-danger",
        help="Danger estimates from simulated fights: on by default for text, md, html and pdf; "
        "json only with --danger.",
    ),
]


def add_danger(model: Any, fmt: str, wanted: bool | None, system_key: str | None) -> None:
    """Estimate (or, with --no-danger, strip) the danger of every fight in a site or region.

    Only here is the simulation imported, so `delve site -f json` never loads numpy."""
    on = wanted if wanted is not None else fmt in DANGER_FORMATS
    if not on:
        if wanted is False:
            _strip_danger(model)
        return
    from generator.sim.danger import estimate_region, estimate_site, other_system

    systems = (system_key,) if system_key and other_system(system_key) else ()
    if model.kind == "site":
        estimate_site(tables(), model, systems=systems)
    elif model.kind == "region":
        estimate_region(tables(), model, systems=systems)


def add_part_danger(part: Any, fmt: str, wanted: bool | None, system_key: str | None) -> None:
    """A room or a one-room lair printed on its own shows the danger its key entry shows (the
    same figures: each estimate is seeded from the part's address)."""
    on = wanted if wanted is not None else fmt in DANGER_FORMATS
    if not on or part.kind not in ("room", "hex", "lair"):
        return
    from generator.sim.danger import estimate_lair, estimate_room, other_system

    systems = (system_key,) if system_key and other_system(system_key) else ()
    root = part.root
    if part.kind == "room":
        site = root
        if root.kind == "region":
            site = next(h.site for h in root.hexes if h.site and part.thing in h.site.rooms)
        estimate_room(tables(), site, part.thing, systems=systems)
        return
    home = part.thing if part.kind == "hex" else next(h for h in root.hexes if h.lair is part.thing)
    estimate_lair(tables(), home, systems=systems)


def _strip_danger(model: Any) -> None:
    sites = [model] if model.kind == "site" else [h.site for h in model.hexes if h.site]
    for site in sites:
        site.routes = []
        for thing in [*site.rooms, *site.encounters]:
            thing.danger = None
    if model.kind == "region":
        for h in model.hexes:
            if h.lair:
                h.lair.danger = None
        for table in model.encounters:
            for e in table.entries:
                e.danger = None


def resolve_seed(seed: str | None) -> str:
    """The command's --seed, else the global one, else a fresh one announced on stderr."""
    chosen = seed if seed is not None else state.seed
    if chosen is None:
        chosen = random_seed()
        typer.echo(f"seed: {chosen}", err=True)
    return check_seed(chosen)


def rng_for(seed: str | None) -> Rng:
    return Rng(resolve_seed(seed))


MAX_TIMES = 10_000  # rolls of one `roll --times`: more is no longer something to read
MAX_THINGS = 1_000  # hoards or weapons of one --count


def check_count(name: str, value: int, most: int = MAX_TIMES) -> int:
    if value < 1:
        raise DelveError(f"{name}: must be at least 1, not {value}")
    if value > most:
        raise DelveError(f"{name}: at most {most:,} at once, not {value:,}")
    return value


def emit(
    text: str | bytes, out: Path | None, kind: str = "", seed: str = "", ext: str = ""
) -> None:
    """Write to -o PATH, to output/KIND-SEED.EXT when `ext` says it is a file, else stdout."""
    if out is None and not ext:
        try:
            if isinstance(text, bytes):
                sys.stdout.buffer.write(text)
            else:
                sys.stdout.write(text if text.endswith("\n") else text + "\n")
            sys.stdout.flush()
        except OSError as err:  # a full disk, a closed pipe
            raise DelveError(f"cannot write to standard output: {err.strerror or err}") from None
        return
    path = out if out is not None else default_path(kind, seed, ext)
    replaced = write_atomic(path, text)
    typer.echo(f"wrote {path}" + (" (replacing the file there)" if replaced else ""), err=True)
