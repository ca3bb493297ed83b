"""`delve sim`: how one fight goes, or the danger of every fight in a saved document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import OutputOption, emit, resolve_seed, tables
from generator.engine.tables import TableSet
from generator.errors import DelveError

FORMATS = ("text", "json")
DEFAULT_TRIALS = 2000
PartyOption = Annotated[
    str | None,
    typer.Option(
        "--party",
        help='Your party: CLASS:LEVEL pairs ("fighter:3,mage:3") or a YAML file of characters.',
    ),
]
TrialsOption = Annotated[
    int, typer.Option("--trials", help="Simulated fights per estimate (1 to 1,000,000).")
]


def sim(
    document: Annotated[
        Path | None,
        typer.Argument(help="A saved site or region (delve site -f json) to estimate again."),
    ] = None,
    monster: Annotated[
        str | None, typer.Option(help="The monster to fight (any bestiary name).")
    ] = None,
    count: Annotated[str, typer.Option(help="How many: a number or dice (1d4+2).")] = "1",
    level: Annotated[int | None, typer.Option(help="Level of the default party (1-30).")] = None,
    party: PartyOption = None,
    trials: TrialsOption = DEFAULT_TRIALS,
    seed: Annotated[str | None, typer.Option(help="Seed of the fights (any text).")] = None,
    system: Annotated[
        str | None,
        typer.Option(help="Also fight by this system's own rules where Delve can (fortmayn)."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    out: OutputOption = None,
) -> None:
    """Simulate a fight many times: the party's chance to win, flee or be wiped out.

    One fight: --monster NAME [--count N] [--level L | --party SPEC]. A saved document: every
    room, wandering group and lair in it, estimated again (say after editing a room); with
    --format json it prints the document with the estimates in it.

    Example: delve sim --monster ogre --count 2 --level 3 --trials 5000 --seed duel
    """
    from generator.sim.danger import check_trials

    if fmt not in FORMATS:
        raise DelveError(f"--format: must be {' or '.join(FORMATS)}, not {fmt!r}")
    check_trials(trials)
    if level is not None and party is not None:
        raise DelveError("--level and --party: give one or the other (a party has its own levels)")
    if (document is None) == (monster is None):
        raise DelveError("give a saved document or --monster NAME (one of the two)")
    ts = tables()
    chars = _party(ts, party, level) if party is not None or level is not None else None
    systems = _systems(ts, system)
    if document is not None:
        _document(ts, document, chars, trials, systems, fmt, out)
        return
    assert monster is not None
    _one_fight(ts, monster, count, chars, trials, seed, systems, fmt, out)


def _party(ts: TableSet, spec: str | None, level: int | None) -> list:
    from generator.sim.party import check_level, default_party, load_party_file, parse_spec

    if spec is None:
        return default_party(ts, check_level(level, "--level"))  # type: ignore[arg-type]
    path = Path(spec)
    if spec.lower().endswith((".yaml", ".yml")) or path.is_file():
        if not path.exists():  # a FIFO or folder is refused, unopened, by load_party_file
            raise DelveError(f"--party {spec}: no such file")
        return load_party_file(ts, path)
    return parse_spec(ts, spec)


def _systems(ts: TableSet, key: str | None) -> tuple[str, ...]:
    if key is None:
        return ()
    from generator.systems import get_system

    return (get_system(ts, key).key,)


def find_monster(ts: TableSet, name: str) -> object:
    """The bestiary's monster of that name, or an error listing the close names."""
    import difflib

    from generator.build.monsters import bestiary

    beasts = bestiary(ts)
    found = beasts.find(name)
    if found is not None:
        return found
    names = beasts.names()
    lower = {n.lower(): n for n in names}
    close = [lower[c] for c in difflib.get_close_matches(name.lower(), list(lower), 5, 0.6)]
    close += [n for n in names if name.lower() in n.lower() and n not in close][: 5 - len(close)]
    hint = f"; close names: {', '.join(close)}" if close else "; see delve monsters"
    raise DelveError(f"--monster {name!r}: no such monster{hint}")


def _count(text: str) -> str:
    from generator.engine.dice import parse
    from generator.sim.foes import MAX_FOES

    try:
        formula = parse(text)
    except DelveError as err:
        raise DelveError(f"--count {text!r}: {err}") from None
    if formula.min < 1 or formula.max > MAX_FOES:
        raise DelveError(f"--count {text!r}: must be from 1 to {MAX_FOES} monsters")
    return text.strip()


def _one_fight(
    ts: TableSet,
    name: str,
    count: str,
    chars: list | None,
    trials: int,
    seed: str | None,
    systems: tuple[str, ...],
    fmt: str,
    out: Path | None,
) -> None:
    from generator.render.danger_text import report
    from generator.sim.danger import estimate, foes
    from generator.sim.party import default_party, describe

    monster = find_monster(ts, name)
    how_many = _count(count)
    party = chars if chars is not None else default_party(ts, 1)
    address = resolve_seed(seed)
    danger = estimate(ts, party, foes(ts, [(monster, how_many)]), address, trials, systems)
    label = monster.name if how_many == "1" else f"{how_many} {_plural(monster)}"
    if fmt == "json":
        data = {
            "monster": monster.name,  # type: ignore[attr-defined]
            "count": how_many,
            "party": [c.__dict__ for c in party],
            "seed": address,
            "danger": danger.to_dict(),
        }
        emit(json.dumps(data, indent=2, ensure_ascii=False), out)
        return
    members = ", ".join(c.label() for c in party)
    title = f"{label} against {describe(party)} ({members}). Seed: {address}"
    emit(report(danger, title), out)


def _plural(monster: object) -> str:
    """The bestiary's plural, unless it drops a word of the name ('adult dragon' is not just
    'dragons' when the fight is against three of them)."""
    from generator.engine.words import plural

    name, many = monster.name, monster.plural  # type: ignore[attr-defined]
    return plural(name.lower()) if len(many.split()) < len(name.split()) else many


def _document(
    ts: TableSet,
    path: Path,
    chars: list | None,
    trials: int,
    systems: tuple[str, ...],
    fmt: str,
    out: Path | None,
) -> None:
    from generator.render import documents
    from generator.render.danger_text import document_report
    from generator.sim.danger import estimate_region, estimate_site

    model = documents.load(path)
    if model.kind == "site":
        estimate_site(ts, model, chars, trials, systems)
    else:
        estimate_region(ts, model, chars, trials, systems)
    if fmt == "json":
        emit(documents.to_json(model), out)
    else:
        emit(document_report(model), out)
