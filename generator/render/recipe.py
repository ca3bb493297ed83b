"""The command that makes a document again, byte for byte, printed on its cover and in its key.

A document's address (its `seed`, generator/build/address.py) carries every option of its
generator; a region adds its re-rolled hexes. The rest of what the bytes depend on is how it was
printed: the tables folders (DELVE_TABLES and --tables), the rules system, the format, whether
danger was estimated (and with which --party and --trials), the black-on-white map, and for
booklets the paper and the template folders. Those come from the render's own context (the
system holds the tables it was resolved from; the booklet options hold the paper and templates;
the model holds its danger; the CLI says which --party and --trials it was given), so the
command printed is the one that was run, not a guess.

A document `delve render` read that is not what its seed makes (a referee edited it, or other
tables made it) cannot come back from its seed: its command is `delve render FILE ...`, and its
cover says it was made from an edited document (see :func:`from_document`).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

# Formats that show danger unless --no-danger is given; the rest (json) only with --danger.
DANGER_FORMATS = ("text", "md", "html", "pdf")

# The document file a `delve render` read, when it differs from what its seed makes, and why.
_DOCUMENT: ContextVar[tuple[str, str] | None] = ContextVar("delve_render_document", default=None)
WHY = {
    "edited": "an edited document, which its address no longer makes",
    "danger": "a document whose danger was estimated for another party or number of trials, "
    "which its address alone does not make",
}
# The --party and --trials the danger estimates were made with, as the user typed them.
_DANGER_GIVEN: ContextVar[tuple[str, ...]] = ContextVar("delve_danger_given", default=())


@contextmanager
def from_document(path: str | Path | None, why: str = "edited") -> Iterator[None]:
    """Render as made from the document at `path` (None: as made from its seed), which its
    seed does not make because it was `edited` or holds other `danger` estimates."""
    token = _DOCUMENT.set(None if path is None else (str(path), WHY[why]))
    try:
        yield
    finally:
        _DOCUMENT.reset(token)


@contextmanager
def danger_given(party: str | None, trials: int | None) -> Iterator[None]:
    """Render with the --party and --trials its estimates were made with: they change every
    figure, so the printed command carries them (a party file's path as it was given)."""
    given = [*(("--party", party) if party is not None else ())]
    given += [*(("--trials", str(trials)) if trials is not None else ())]
    token = _DANGER_GIVEN.set(tuple(given))
    try:
        yield
    finally:
        _DANGER_GIVEN.reset(token)


def edited_document() -> str | None:
    """The file an edited document came from (None when the seed makes it)."""
    found = _DOCUMENT.get()
    return None if found is None else found[0]


def document_note() -> str:
    """What the booklet was made from, when its seed does not make it ('' when it does)."""
    found = _DOCUMENT.get()
    return "" if found is None else found[1]


def has_danger(model: Any) -> bool:
    """Whether any fight of a site or region carries a danger estimate."""
    sites = [model] if model.kind == "site" else [h.site for h in model.hexes if h.site]
    for site in sites:
        if site.routes or any(t.danger for t in [*site.rooms, *site.encounters]):
            return True
    if model.kind == "region":
        if any(h.lair and h.lair.danger for h in model.hexes):
            return True
        return any(e.danger for table in model.encounters for e in table.entries)
    return False


def _danger_args(kind: str, model: Any, fmt: str) -> list[str]:
    if kind not in ("site", "region"):
        return []
    if not has_danger(model):
        return ["--no-danger"] if fmt in DANGER_FORMATS else []
    return [*([] if fmt in DANGER_FORMATS else ["--danger"]), *_DANGER_GIVEN.get()]


def _table_args(system: Any) -> tuple[list[str], list[str]]:
    """(the DELVE_TABLES=... word, the --tables options) for the folders over the built-ins.
    Folders that came from DELVE_TABLES are printed as it, so the command run again in the same
    shell (DELVE_TABLES still set) layers the same folders, not those folders twice."""
    tables = getattr(system, "tables", None)
    folders = [str(f) for f in tables.folders[1:]] if tables is not None else []
    env = [p for p in os.environ.get("DELVE_TABLES", "").split(os.pathsep) if p]
    prefix: list[str] = []
    if env and folders[: len(env)] == env:
        prefix = [f"DELVE_TABLES={os.pathsep.join(env)}"]
        folders = folders[len(env) :]
    return prefix, [word for folder in folders for word in ("--tables", folder)]


def rebuild_args(
    model: Any,
    fmt: str = "text",
    system: Any = None,
    paper: str = "a4",
    templates: Sequence[Path | str] = (),
    command: str | None = None,
) -> list[str]:
    """['delve', 'site', '--seed', ADDRESS, ...]: the command that makes these bytes again
    (['DELVE_TABLES=...', 'delve', ...] when folders came from DELVE_TABLES). `command` is the
    one that makes the model (`hoard`, `weapon`) when the model does not say (sites and regions
    have a kind)."""
    from generator.render.context import mono

    kind = command or model.kind
    prefix, tables = _table_args(system)
    args = [*prefix, "delve", *tables]
    document = edited_document()
    if document is not None:
        args += ["render", document]
        if system is not None:
            args += ["--system", system.key]  # else the document's own system prints
    else:
        args += [kind, "--seed", model.seed]
        args += root_reroll_args(model)
        if system is not None and not getattr(system, "default", False):
            args += ["--system", system.key]
    if mono() and kind == "region":
        args.append("--mono")
    args += _danger_args(kind, model, fmt)
    if fmt != "text":
        args += ["--format", fmt]
    if fmt in ("html", "pdf"):
        if paper != "a4":
            args += ["--paper", paper]
        for folder in templates:
            args += ["--templates", str(folder)]
    return args


def root_reroll_args(model: Any) -> list[str]:
    """A re-rolled region's --reroll options (its address alone is the region before them)."""
    return [
        word
        for label, times in (getattr(model, "reroll", None) or {}).items()
        for _ in range(times)
        for word in ("--reroll", label)
    ]


def root_address(model: Any) -> str:
    """The address printed for a region or site, with a re-rolled region's --reroll options
    after it: 'saltmarch --reroll 0302', which `delve region --seed` takes as it stands."""
    more = root_reroll_args(model)
    return shlex.join([model.seed, *more]) if more else model.seed


def rebuild_command(
    model: Any,
    fmt: str = "text",
    system: Any = None,
    paper: str = "a4",
    templates: Sequence[Path | str] = (),
    command: str | None = None,
) -> str:
    """The same as one line a shell reads back exactly (seeds may hold spaces or quotes)."""
    return shlex.join(rebuild_args(model, fmt, system, paper, templates, command))
