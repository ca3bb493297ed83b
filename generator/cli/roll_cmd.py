"""`delve roll FORMULA`: a quick die roll."""

from __future__ import annotations

from typing import Annotated

import typer

from generator.cli.common import check_count, rng_for
from generator.engine.dice import parse


def roll(
    formula: Annotated[str, typer.Argument(help="Dice, e.g. 2d6+1, 3d6x10, d66, 4d6kh3.")],
    times: Annotated[int, typer.Option("--times", "-n", help="How many rolls.")] = 1,
    seed: Annotated[str | None, typer.Option(help="Seed (any text).")] = None,
) -> None:
    """Roll a dice formula.

    Example: delve roll 3d6x10 --times 4 --seed harrowdeep
    """
    check_count("--times", times)
    f = parse(formula)
    rng = rng_for(seed)
    for _ in range(times):
        typer.echo(f"{formula}: {f.roll(rng)}")
