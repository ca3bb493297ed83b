"""The `delve` command: thin over the library. Each command group lives in its own module."""

from __future__ import annotations

import errno
import os
import sys
import unicodedata
from pathlib import Path
from typing import Annotated

import typer

from generator import __version__, errors
from generator.cli import roll_cmd, tables_cmd
from generator.cli.common import state
from generator.engine import cachefiles
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


def _cache_warning(message: str) -> None:
    print(f"delve: warning: {message}", file=sys.stderr)


def _one_line(text: str) -> str:
    """An error as one line: no control characters, and not a page long."""
    flat = " ".join(str(text).split())
    flat = "".join(f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" else c for c in flat)
    return flat if len(flat) <= 2000 else flat[:2000] + "..."


def _stdout_gone(err: OSError) -> None:
    """stdout is full or closed: say so once, and keep Python's exit from trying again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    print(f"delve: error: cannot write to standard output: {err.strerror or err}", file=sys.stderr)
    sys.exit(1)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    cachefiles.on_warning = _cache_warning
    notes: list[str] = []  # the library's notes, said once the command has done its work
    errors.on_note = notes.append
    try:
        _register_optional()
        result = app(args=args, prog_name="delve", standalone_mode=False)
        sys.stdout.flush()
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
            print(f"delve: error: {_one_line(line)}", file=sys.stderr)
        sys.exit(1)
    except DelveError as err:
        if debug:
            raise
        print(f"delve: error: {_one_line(str(err))}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError as err:
        _stdout_gone(err)
    except OSError as err:
        if err.errno in (errno.ENOSPC, errno.EPIPE, errno.EIO) and not debug:
            _stdout_gone(err)
        raise
    except (MemoryError, RecursionError) as err:
        if debug:
            raise
        what = "ran out of memory" if isinstance(err, MemoryError) else "nested too deeply"
        print(f"delve: error: the input {what} ({type(err).__name__})", file=sys.stderr)
        sys.exit(1)
    except Exception as err:  # a bug of ours: still one line (the tests fail on any)
        if debug:
            raise
        print(
            f"delve: internal error: {type(err).__name__}: {_one_line(str(err))[:300]} "
            "(a bug in Delve; --debug shows where)",
            file=sys.stderr,
        )
        sys.exit(1)
    for note in notes:  # a command that fails says only why, on one line
        _cache_warning(note)
    if isinstance(result, int) and result:
        sys.exit(result)
