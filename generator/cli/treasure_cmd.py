"""`delve hoard` and `delve weapon`: treasure on its own, for a lair or a referee's prep.

Seeding (generator/build/address.py): one thing uses its address, the seed with the options
that differ from their defaults (`ember@level=2+holder=d8`); with --count N, thing i (from 1)
is at `<that>/hoard/<i>` (or `/weapon/<i>`). Each prints its address, and the address alone
rebuilds it, as it rebuilds any hoard or weapon of a site or region.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from generator.cli.common import (
    MAX_THINGS,
    SystemOption,
    check_count,
    emit,
    resolve_seed,
    resolve_system,
    tables,
)
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
        str | None,
        typer.Option(help="Damage die of the holders, d4 (mooks) to d12 (a boss); default d6."),
    ] = None,
    count: Annotated[
        int | None, typer.Option(help="Roll N hoards, at the addresses <seed>/hoard/1..N.")
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(help="Seed (any text), or the address of any hoard: it rebuilds it."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    system: SystemOption = None,
) -> None:
    """Roll a treasure hoard: a magic item or not, valuables and coins, adding up exactly.

    Every hoard prints its address, which rebuilds it alone: a site's
    (harrowdeep/level/1/room/4/hoard), a lair's (saltmarch/hex/0502/lair/hoard) or this
    command's (harrowdeep@level=2+holder=d8).

    Example: delve hoard --level 2 --holder-die d8 --seed harrowdeep
    """
    from generator.render.treasure_text import hoard_text

    if level is not None and value is not None:
        raise DelveError(
            "give --level or --value, not both (--level L is a hoard worth 1,000 x L c.p.)"
        )
    if level is not None and level < 1:
        raise DelveError(f"--level: must be at least 1, not {level}")
    if value is not None and value < 0:
        raise DelveError(f"--value: must be a number of c.p., 0 or more, not {value}")
    _check_format(fmt)
    words = resolve_system(system)  # a bad --system fails before any seed is drawn
    given = {"level": level, "value": value, "holder": holder_die}
    hoards = _things(seed, "hoard", given, count)
    _emit(hoards, count is None, fmt, lambda h: hoard_text(h, words))


def _things(seed: str | None, kind: str, given: dict[str, Any], count: int | None) -> list[Any]:
    """The thing the seed names (a root made with `given`, or any part of its kind), or with
    --count the things at <root>/<kind>/1..N."""
    from generator.build import address

    if count is not None:
        check_count("--count", count, MAX_THINGS)  # before a seed is picked and announced
    ts = tables()
    text = resolve_seed(seed)
    if count is None:
        return [address.check_kind(address.build(ts, text, kind, given), (kind,), kind).thing]
    if address.parse(text).path:
        raise DelveError(f"--count: {text} is the address of one {kind}; leave --count out")
    root = address.build(ts, text, kind, given).address
    return [address.build(ts, f"{root}/{kind}/{i}", kind).thing for i in range(1, count + 1)]


def weapon(
    die: Annotated[
        str | None,
        typer.Option(help="Power die: the holders' damage die, d4 (mooks) to d12 (a boss)."),
    ] = None,
    count: Annotated[
        int | None, typer.Option(help="Roll N weapons, at the addresses <seed>/weapon/1..N.")
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(help="Seed (any text), or the address of any magic weapon: it rebuilds it."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    system: SystemOption = None,
) -> None:
    """Roll a magic weapon: its form, its powers from the power die down, and its bonus.

    A weapon found in a hoard has the hoard's address and /weapon
    (harrowdeep/level/1/room/4/hoard/weapon); this command rebuilds it from that alone.

    Example: delve weapon --die d8 --count 3 --seed harrowdeep
    """
    from generator.render.treasure_text import weapon_text

    _check_format(fmt)
    words = resolve_system(system)  # a bad --system fails before any seed is drawn
    weapons = _things(seed, "weapon", {"die": die}, count)
    _emit(weapons, count is None, fmt, lambda w: weapon_text(w, words))
