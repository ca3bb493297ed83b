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


def output_format(fmt: str | None, out: Path | None, kind: str) -> str:
    """--format as given; without it, the format -o's suffix names (`-o tonight.pdf` is a
    booklet, not text in a file called .pdf), else text."""
    from generator.render.documents import SUFFIXES, formats_for

    if fmt is not None:
        return fmt
    named = SUFFIXES.get(out.suffix.lower()) if out is not None else None
    if named is None:
        return "text"
    files = [f for f in formats_for(kind) if f in SUFFIXES.values()]
    if named not in files:
        raise DelveError(
            f"-o {out}: a {kind} has no {named} format; name the file for one it has "
            f"({', '.join(files)}) or give --format"
        )
    return named


def resolve_system(key: str | None) -> System:
    """The rules system named by --system (or by a document), checked against the tables."""
    from generator.systems import get_system

    return get_system(tables(), key)


OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", help="Write to this file (without --format, its suffix names the format)."
    ),
]
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
PartyOption = Annotated[
    str | None,
    typer.Option(
        "--party",
        help='Who fights in the danger estimates: CLASS:LEVEL pairs ("fighter:3,mage:3") or a '
        "YAML file of your characters (default: four of each room's level).",
    ),
]
TrialsOption = Annotated[
    int | None,
    typer.Option("--trials", help="Simulated fights per danger estimate (1 to 1,000,000)."),
]


def load_party(spec: str | None, level: int | None = None) -> list | None:
    """The characters of --party (a CLASS:LEVEL list or a YAML file), the default party of
    --level, or None for each room's own level."""
    from generator.sim.party import check_level, default_party, load_party_file, parse_spec

    ts = tables()
    if spec is None:
        return None if level is None else default_party(ts, check_level(level, "--level"))
    path = Path(spec)
    if spec.lower().endswith((".yaml", ".yml")) or path.is_file():
        if not path.exists():  # a FIFO or folder is refused, unopened, by load_party_file
            raise DelveError(f"--party {spec}: no such file")
        return load_party_file(ts, path)
    return parse_spec(ts, spec)


def check_danger_options(
    fmt: str, wanted: bool | None, party: str | None, trials: int | None
) -> bool:
    """Whether danger is on, refusing --party and --trials where no estimate is made."""
    on = wanted if wanted is not None else fmt in DANGER_FORMATS
    if (party is not None or trials is not None) and not on:
        given = "--party" if party is not None else "--trials"
        why = "with --no-danger" if wanted is False else f"for --format {fmt} without --danger"
        raise DelveError(f"{given}: there are no danger estimates {why}")
    if trials is not None:
        from generator.sim.danger import check_trials

        check_trials(trials)
    return on


def add_danger(
    model: Any,
    fmt: str,
    wanted: bool | None,
    system_key: str | None,
    party: str | None = None,
    trials: int | None = None,
) -> None:
    """Estimate (or, with --no-danger, strip) the danger of every fight in a site or region.

    Estimates the document already carries are kept while they fit their fights, unless
    --party or --trials asks for new ones (so a `delve sim DOC --party mine.yaml -f json`
    renders with the referee's party). Only here is the simulation imported, so
    `delve site -f json` never loads numpy."""
    if not check_danger_options(fmt, wanted, party, trials):
        if wanted is False:
            _strip_danger(model)
        return
    from generator.sim.danger import DEFAULT_TRIALS, Plan, estimate_region, estimate_site

    plan = Plan(
        load_party(party),
        trials if trials is not None else DEFAULT_TRIALS,
        _sim_systems(system_key),
        keep=party is None and trials is None,
    )
    if model.kind == "site":
        estimate_site(tables(), model, plan=plan)
    elif model.kind == "region":
        estimate_region(tables(), model, plan=plan)
    note = kept_note(plan, system_key)
    if note:
        typer.echo(f"delve: {note}", err=True)


def _sim_systems(system_key: str | None) -> tuple[str, ...]:
    from generator.sim.danger import other_system

    return (system_key,) if system_key and other_system(system_key) else ()


def kept_note(plan: Any, system_key: str | None) -> str:
    """One line on what a render kept of a document's estimates, when it is not the whole
    story: estimates kept for one party beside fresh ones for another, or kept ones without
    the figures of the system asked for."""
    if not plan.kept:
        return ""
    parts = [f"kept the document's danger estimates for {' and '.join(plan.kept)}"]
    if plan.fresh:
        n = sum(plan.fresh.values())
        parts.append(
            f"{n} made afresh (rooms edited since, or never estimated) "
            f"{'is' if n == 1 else 'are'} for {' and '.join(plan.fresh)}; --party estimates "
            "them all for one party"
        )
    if plan.lacking:
        from generator.render.danger_text import rules_name

        keys = sorted(plan.lacking)
        names = " and ".join(f"{rules_name(k)}'s" for k in keys)
        parts.append(
            f"they have no figures by {names} own rules (delve sim DOC --system {keys[0]} "
            "--party YOURS -f json adds them)"
        )
    return "; ".join(parts) if len(parts) > 1 else ""


def add_part_danger(
    part: Any,
    fmt: str,
    wanted: bool | None,
    system_key: str | None,
    party: str | None = None,
    trials: int | None = None,
) -> None:
    """A room or a one-room lair printed on its own shows the danger its key entry shows (the
    same figures: each estimate is seeded from the part's address)."""
    on = check_danger_options(fmt, wanted, party, trials)
    if not on or part.kind not in ("room", "hex", "lair"):
        return
    from generator.sim.danger import DEFAULT_TRIALS, Plan, estimate_lair, estimate_room

    plan = Plan(
        load_party(party),
        trials if trials is not None else DEFAULT_TRIALS,
        _sim_systems(system_key),
    )
    root = part.root
    if part.kind == "room":
        site = root
        if root.kind == "region":
            site = next(h.site for h in root.hexes if h.site and part.thing in h.site.rooms)
        estimate_room(tables(), site, part.thing, plan=plan)
        return
    home = part.thing if part.kind == "hex" else next(h for h in root.hexes if h.lair is part.thing)
    estimate_lair(tables(), home, plan=plan)


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
