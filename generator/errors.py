"""One exception family: every error a referee can cause names what and where."""

from __future__ import annotations

from collections.abc import Callable

# Set by the CLI to print a note on one line of stderr (library callers get silence): what the
# library had to decide for the referee, such as a hand-edited plan it could not keep.
on_note: Callable[[str], None] | None = None


def note(message: str) -> None:
    if on_note is not None:
        on_note(message)


class DelveError(Exception):
    """Bad input of any kind. The CLI prints str(error) on one line and exits 1."""


class DiceError(DelveError):
    """A dice formula that cannot be parsed or rolled."""


class TableError(DelveError):
    """One or more problems in table files, each as `FILE:LINE: table 'ID': message`."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class DocumentError(DelveError):
    """A JSON document (an edited site or region) that does not fit the model."""


class TemplateError(DelveError):
    """A booklet template that is missing, broken or uses an undefined value."""
