"""`delve tables ...`: list, show, roll and check the random tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import check_count, rng_for, state, tables
from generator.engine.tables import TableSet
from generator.errors import DelveError, TableError

app = typer.Typer(
    help="List, show, roll, check and export the random tables.", no_args_is_help=True
)


@app.command("list")
def list_tables() -> None:
    """List every table: id, title, die, entries and the folder it came from.

    Example: delve tables list
    """
    ts = tables()
    rows = [
        (t.id, t.title, str(t.die) if t.die else "weighted", str(len(t.entries)), t.folder)
        for t in (ts.tables[i] for i in ts.ids())
    ]
    widths = [
        max(len(r[i]) for r in rows + [("id", "title", "die", "n", "from")]) for i in range(4)
    ]
    typer.echo(
        f"{'id':<{widths[0]}}  {'title':<{widths[1]}}  {'die':<{widths[2]}}  "
        f"{'n':>{widths[3]}}  from"
    )
    for r in rows:
        typer.echo(
            f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  "
            f"{r[3]:>{widths[3]}}  {r[4]}"
        )


@app.command("show")
def show(table_id: Annotated[str, typer.Argument(help="Table id, e.g. site/obstacles.")]) -> None:
    """Print a table in full, as a referee would read it.

    Example: delve tables show site/obstacles
    """
    t = tables().get(table_id)
    typer.echo(f"{t.title}  [{t.id}]")
    if t.source:
        typer.echo(f"Source: {t.source}")
    if t.description:
        typer.echo(t.description)
    typer.echo(f"From: {t.folder} ({t.path})")
    typer.echo(f"Roll: {t.die}" if t.die else f"Weighted, {len(t.entries)} entries")
    typer.echo("")
    for e in t.entries:
        if t.die:
            key = ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in e.spans)
        else:
            key = f"x{e.weight:g}"
        extras = [f"{k}={v}" for k, v in e.data.items() if k not in ("result", "tags")]
        text = e.result or ""
        if extras:
            text = (text + "  " if text else "") + "(" + "; ".join(extras) + ")"
        typer.echo(f"{key:>7}  {text}")


@app.command("roll")
def roll(
    table_id: Annotated[str, typer.Argument(help="Table id, e.g. site/features.")],
    times: Annotated[int, typer.Option("--times", "-n", help="How many rolls.")] = 1,
    seed: Annotated[str | None, typer.Option(help="Seed (any text).")] = None,
) -> None:
    """Roll on a table, resolving dice and nested tables.

    Example: delve tables roll site/obstacles --times 6 --seed harrowdeep
    """
    check_count("--times", times)
    ts = tables()
    table = ts.get(table_id)
    rng = rng_for(seed)
    for rolled in ts.roll_many(table.id, rng, times, _Blanks()):
        prefix = f"[{rolled.value}] " if rolled.value is not None else ""
        text = rolled.text or ", ".join(
            f"{k}: {v}" for k, v in rolled.entry.data.items() if k != "tags"
        )
        typer.echo(prefix + text)


class _Blanks(dict):
    """Placeholders a generator would fill (`{$place}`) show as [place] when rolled alone."""

    def __contains__(self, key: object) -> bool:
        return True

    def __missing__(self, key: str) -> str:
        return f"[{key}]"


@app.command("check")
def check(
    dirs: Annotated[
        list[Path] | None, typer.Argument(help="Folders to layer over the built-ins.")
    ] = None,
) -> None:
    """Validate the built-in tables layered with DIRs; exit 1 listing every problem.

    Checks each file (format, dice, rolls covered, references), then every table against what
    the generators and rules systems need of it (a key they know, a field they read), all in
    one run: a set that passes makes sites and regions.

    Example: delve tables check my-tables/
    """
    from generator.build import table_problems

    ts, problems = TableSet.check([*state.tables_dirs, *(dirs or [])])
    problems = list(dict.fromkeys(problems + table_problems(ts) + _system_problems(ts)))
    if problems:
        for line in problems:
            typer.echo(line, err=True)
        typer.echo(f"{len(problems)} problem(s) found", err=True)
        raise typer.Exit(1)
    typer.echo(f"ok: {len(ts.tables)} tables from {len(ts.folders)} folder(s)")


def _system_problems(ts: TableSet) -> list[str]:
    """Every rules system loaded as a booklet would load it."""
    from generator.errors import DelveError
    from generator.systems import get_system, system_keys
    from generator.systems.checks import bestiary_problems

    problems: list[str] = []
    try:
        keys = system_keys(ts)
    except TableError as err:
        return list(err.problems)
    except DelveError as err:
        return [str(err)]
    for key in keys:
        try:
            problems += bestiary_problems(get_system(ts, key))
        except TableError as err:
            problems += err.problems
        except DelveError as err:
            problems.append(str(err))
    return problems


@app.command("export")
def export(
    table_id: Annotated[
        str | None, typer.Argument(help="Table id, e.g. site/obstacles (or --all).")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="foundry (a RollTable), csv or md.")
    ] = "foundry",
    every: Annotated[bool, typer.Option("--all", help="Every table, into the -o folder.")] = False,
    out: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="The file (one table) or folder (--all) to write."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="--all: write over an earlier export in the folder.")
    ] = False,
) -> None:
    """Export a table (or --all) for Foundry VTT, a spreadsheet or a page of notes.

    Example: delve tables export site/obstacles --format foundry -o obstacles.json

    Example: delve tables export --all --format csv -o my-tables-csv
    """
    from generator.export import table_export
    from generator.output import write_atomic

    if fmt not in table_export.FORMATS:
        raise DelveError(f"--format {fmt}: use {', '.join(table_export.FORMATS)}")
    ts = tables()
    if every:
        if table_id is not None:
            raise DelveError("give a table id or --all, not both")
        if out is None:
            raise DelveError("--all needs -o DIR, the folder to write the tables into")
        from generator.export.files import FolderWriter

        writer = FolderWriter(out, force, kind=f"tables/{fmt}")
        writer.check()
        count = table_export.export_all(ts, fmt, writer)
        writer.commit()
        typer.echo(f"wrote {out}/ ({count} tables)", err=True)
        return
    if table_id is None:
        raise DelveError("name a table to export (delve tables list shows them), or pass --all")
    text = table_export.export_one(ts, table_id, fmt)
    if out is None:
        typer.echo(text, nl=False)
        return
    replaced = write_atomic(out, text)
    typer.echo(f"wrote {out}" + (" (replacing the file there)" if replaced else ""), err=True)
