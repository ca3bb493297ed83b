"""The CLI's one path to a folder export (site, region and render share it)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import typer

from generator.export.files import FolderWriter
from generator.output import default_path


def default_folder(kind: str, seed: str, fmt: str) -> Path:
    """output/site-harrowdeep-foundry: beside the files the other formats write."""
    path = default_path(kind, seed, fmt)
    return path.with_name(path.name[: -len(fmt) - 1] + f"-{fmt}")


def export_folder(model: Any, fmt: str, out: Path | None, system: str | None, force: bool) -> None:
    """Export `model` as `fmt` (foundry, vault) into the folder `out`, written whole or not at
    all, in the rules system chosen (or the one the document names)."""
    from generator.cli.common import resolve_system
    from generator.render.context import using_system
    from generator.render.documents import FOLDER_FORMATS

    target = out if out is not None else default_folder(model.kind, model.seed, fmt)
    writer = FolderWriter(target, force, kind=f"{model.kind}/{fmt}")
    writer.check()  # a bad -o fails before any work
    chosen = resolve_system(system or getattr(model, "system", None))
    model.system = chosen.key
    module, _, name = FOLDER_FORMATS[fmt].partition(":")
    exporter = getattr(importlib.import_module(module), name)
    with using_system(chosen):
        notes = exporter(model, writer) or []
    writer.commit()
    for line in notes:
        typer.echo(f"delve: note: {line}", err=True)
    typer.echo(f"wrote {target}/ ({len(writer.files)} files)", err=True)
