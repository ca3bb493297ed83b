"""`delve hoard` and `delve weapon`: treasure on its own, for a lair or a referee's prep.

Seeding: one thing uses the seed itself; with --count N, thing i (from 1) uses the child
address `<seed>/hoard/<i>` (or `<seed>/weapon/<i>`), recorded in its output, so
`delve hoard --seed <that address>` with the same options rolls the same hoard again.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from generator.cli.common import SystemOption, check_count, emit, resolve_system, rng_for, tables
from generator.errors import DelveError

FORMATS = ("text", "json")


def _check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise DelveError(f"--format: must be {' or '.join(FORMATS)}, not {fmt!r}")
    return fmt


def _emit(things: list[Any], single: bool, fmt: str, text: Any) -> None:
    if fmt == "json":
        data = things[0].to_dict() if single else [t.to_dict() for t in things]
        emit(json.dumps(data, indent=2, ensure_ascii=False), None)
    else:
        emit("\n".join(text(t) for t in things), None)


def hoard(
    level: Annotated[
        int | None,
        typer.Option(help="Site level L: a hoard worth 1,000 x L c.p. (default 1)."),
    ] = None,
    value: Annotated[
        int | None,
        typer.Option(help="A hoard worth exactly this many c.p. instead (a focus holds 1)."),
    ] = None,
    holder_die: Annotated[
        str,
        typer.Option(help="Damage die of the holders, d4 (mooks) to d12 (a boss)."),
    ] = "d6",
    count: Annotated[
        int | None, typer.Option(help="Roll N hoards, seeded <seed>/hoard/1..N.")
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed or seed address (any text).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    system: SystemOption = None,
) -> None:
    """Roll a treasure hoard: a magic item or not, valuables and coins, adding up exactly.

    Example: delve hoard --level 2 --holder-die d8 --seed harrowdeep
    """
    from generator.build.treasure import check_power_die, roll_hoard
    from generator.render.treasure_text import hoard_text

    if level is not None and value is not None:
        raise DelveError(
            "give --level or --value, not both (--level L is a hoard worth 1,000 x L c.p.)"
        )
    if level is not None and level < 1:
        raise DelveError(f"--level: must be at least 1, not {level}")
    if value is not None and value < 0:
        raise DelveError(f"--value: must be a number of c.p., 0 or more, not {value}")
    die = check_power_die(holder_die, "--holder-die")
    _check_format(fmt)
    if count is not None:
        check_count("--count", count)
    site_level = level if level is not None else 1
    # FMC Basic, Treasure Hoards: a site of level L holds treasure worth 1,000 x L c.p.
    value_cp = value if value is not None else 1000 * site_level
    ts = tables()
    words = resolve_system(system)
    root = rng_for(seed)
    rngs = [root] if count is None else [root.child(f"hoard/{i}") for i in range(1, count + 1)]
    hoards = [roll_hoard(ts, rng, value_cp, site_level, die) for rng in rngs]
    _emit(hoards, count is None, fmt, lambda h: hoard_text(h, words))


def weapon(
    die: Annotated[
        str, typer.Option(help="Power die: the holders' damage die, d4 (mooks) to d12 (a boss).")
    ] = "d6",
    count: Annotated[
        int | None, typer.Option(help="Roll N weapons, seeded <seed>/weapon/1..N.")
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed or seed address (any text).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    system: SystemOption = None,
) -> None:
    """Roll a magic weapon: its form, its powers from the power die down, and its bonus.

    Example: delve weapon --die d8 --count 3 --seed harrowdeep
    """
    from generator.build.treasure import check_power_die, roll_weapon
    from generator.render.treasure_text import weapon_text

    power_die = check_power_die(die, "--die")
    _check_format(fmt)
    if count is not None:
        check_count("--count", count)
    ts = tables()
    words = resolve_system(system)
    root = rng_for(seed)
    rngs = [root] if count is None else [root.child(f"weapon/{i}") for i in range(1, count + 1)]
    weapons = [roll_weapon(ts, rng, power_die) for rng in rngs]
    _emit(weapons, count is None, fmt, lambda w: weapon_text(w, words))
