"""Registration of the generator commands (site, hoard, region...), one module each."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add each generator's command to the app. New command modules add one line here."""
