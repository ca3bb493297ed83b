"""The `delve` command: thin over the library. Each command group lives in its own module."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from generator import __version__
from generator.cli import roll_cmd, tables_cmd
from generator.cli.common import state
from generator.errors import DelveError, TableError


def _click_exception_class() -> type[Exception]:
    """The ClickException class typer raises: recent typer carries its own copy of click (and no
    longer installs click at all), older typer re-exports click's. BadParameter derives from it
    in both, so find it there instead of importing click."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return typer.BadParameter.__mro__[-2]


_ClickException = _click_exception_class()

app = typer.Typer(
    name="delve",
    help="Delve: ready-to-run sites, regions, treasure and booklets for referees.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"delve {__version__}")
        raise typer.Exit()


@app.callback()
def _global(
    tables: Annotated[
        list[Path] | None,
        typer.Option(
            "--tables", help="A folder of your own tables over the built-ins (repeatable)."
        ),
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed for every command (any text).")] = None,
    debug: Annotated[bool, typer.Option(help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show version.")
    ] = False,
) -> None:
    state.tables_dirs = list(tables or [])
    state.seed = seed
    state.debug = debug


app.add_typer(tables_cmd.app, name="tables")
app.command("roll")(roll_cmd.roll)


_registered = False


def _register_optional() -> None:
    """Command groups added by later modules register here (kept import-light), once only:
    main() may run many times in one process (the tests do)."""
    global _registered
    if _registered:
        return
    from generator.cli import commands

    commands.register(app)
    _registered = True


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    try:
        _register_optional()
        result = app(args=args, prog_name="delve", standalone_mode=False)
    except typer.Exit as err:
        sys.exit(err.exit_code)
    except _ClickException as err:
        if type(err).__name__ == "NoArgsIsHelpError":  # bare `delve` or `delve tables`: help
            print(err.format_message())  # type: ignore[attr-defined]
            sys.exit(0)
        if debug:
            raise
        print(f"delve: error: {err.format_message()}", file=sys.stderr)  # type: ignore[attr-defined]
        sys.exit(1)
    except typer.Abort:
        sys.exit(1)
    except TableError as err:
        if debug:
            raise
        for line in err.problems:
            print(f"delve: error: {line}", file=sys.stderr)
        sys.exit(1)
    except DelveError as err:
        if debug:
            raise
        print(f"delve: error: {err}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    if isinstance(result, int) and result:
        sys.exit(result)
