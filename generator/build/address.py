"""Addresses: every part of a world named by its seed, and rebuilt from that name alone.

An address is a *root* and a *path*. The root is the seed the referee gave, followed, after an
``@``, by the options the root was built with that differ from their defaults (``+`` between
them, in a fixed order)::

    harrowdeep                           delve site --seed harrowdeep
    harrowdeep@level=3+theme=bog-barrow  delve site --seed harrowdeep --level 3 --theme bog-barrow
    saltmarch@radius=3                   delve region --seed saltmarch --radius 3
    ember@value=600+holder=d8            delve hoard --seed ember --value 600 --holder-die d8

The whole root seeds the random streams, so a root's options are part of what it names: the two
ways of writing a site above are the same site, and every part inside it carries them. The path
names one part under the root (each is the ``seed`` field of that part in the JSON)::

    <site>/level/D/room/N[/hoard[/weapon]]     room N of level D, its hoard, its magic weapon
    <region>/hex/XXYY                          a hex; /reroll/K after it when re-rolled K times
    <region>/hex/XXYY/haven | /lair | /lair/hoard[/weapon]
    <region>/hex/XXYY/site[/level/D/room/N/hoard[/weapon]]
    <hoard>/weapon                             the magic weapon of a hoard of `delve hoard`
    <root>/hoard/N[/weapon], <root>/weapon/N   the N-th of `delve hoard|weapon --count`

To give a part back, :func:`build` rebuilds its root from the address alone (a re-rolled hex
implies its re-roll) and takes the part whose recorded seed is the address: no part is derived
twice, and nothing but the address is needed. Text shaped like an address is read as one; any
other text is a plain seed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.engine.rng import Rng, check_seed
from generator.engine.tables import TableSet
from generator.errors import DelveError
from generator.model.limits import MAX_LEVEL, MAX_REROLLS

# --------------------------------------------------------------------------- the grammar

_SITE_PATH = r"level/\d+/room/\d+(?:/hoard(?:/weapon)?)?"
_HEX = r"hex/\d{4}(?:/reroll/\d+)?"
_REGION_PATH = rf"{_HEX}(?:/haven|/lair(?:/hoard(?:/weapon)?)?|/site(?:/{_SITE_PATH})?)?"
_PATHS = {
    "site": _SITE_PATH,
    "region": _REGION_PATH,
    "hoard": r"hoard/\d+(?:/weapon)?|weapon",
    "weapon": r"weapon/\d+",
}
# The shortest root whose rest is a whole path: a seed may itself hold '/'.
_ADDRESS = re.compile(
    r"^(?P<root>.+?)/(?P<path>"
    + "|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _PATHS.items())
    + r")$",
    re.S,
)
_OPTIONS = re.compile(r"^[a-z]+=[^@+/=\s]+(?:\+[a-z]+=[^@+/=\s]+)*$")
_REROLL = re.compile(r"hex/(\d{4})/reroll/(\d+)")

# What each kind of thing is called, by the class of its model.
KINDS = {
    "Site": "site",
    "Room": "room",
    "Hoard": "hoard",
    "MagicWeapon": "weapon",
    "Region": "region",
    "Hex": "hex",
    "Haven": "haven",
    "Lair": "lair",
}
COMMANDS = {"site": "site", "region": "region", "hoard": "hoard", "weapon": "weapon"}
COMMAND_OF = {
    "site": "site",
    "room": "site",
    "hoard": "hoard",
    "weapon": "weapon",
    "region": "region",
    "hex": "region",
    "haven": "region",
    "lair": "region",
}


@dataclass(frozen=True)
class Option:
    """One option a root may carry: its name in the address and its default."""

    name: str
    default: Any  # None: absent unless given
    parse: Callable[[str], Any]


def _whole(text: str) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _size(text: str) -> tuple[int, int]:
    from generator.build.region.terrain import parse_size

    return parse_size(text)


# In the order they are written. The options a root must carry for its parts to come back:
# everything its generator takes but the rolls themselves (a region's re-rolls are in the path
# of each re-rolled hex, and given to `delve region` with --reroll).
ROOT_OPTIONS: dict[str, tuple[Option, ...]] = {
    "site": (Option("level", 1, _whole), Option("rooms", 6, _whole), Option("theme", None, str)),
    "region": (
        Option("radius", None, _whole),
        Option("size", None, _size),
        Option("miles", 18, _whole),
        Option("level", 1, _whole),
    ),
    "hoard": (
        Option("level", 1, _whole),
        Option("value", None, _whole),
        Option("holder", "d6", str),
    ),
    "weapon": (Option("die", "d6", str),),
}


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return "x".join(str(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Address:
    """A parsed address: `seed` (the referee's text), `options`, and the `path` below the root."""

    seed: str
    options: dict[str, Any]
    path: str = ""
    root_kind: str | None = None  # the kind of root the path belongs to; None without a path

    @property
    def root(self) -> str:
        return format_root(self.seed, self.options)

    def __str__(self) -> str:
        return f"{self.root}/{self.path}" if self.path else self.root


def format_root(seed: str, options: Mapping[str, Any]) -> str:
    """'harrowdeep' and {'level': 3} -> 'harrowdeep@level=3' (options already canonical)."""
    shown = "+".join(f"{k}={_text(v)}" for k, v in options.items())
    return f"{seed}@{shown}" if shown else seed


def _split_root(root: str) -> tuple[str, str]:
    """'harrowdeep@level=3' -> ('harrowdeep', 'level=3'); text without options -> (text, '')."""
    seed, at, tail = root.rpartition("@")
    if at and seed and _OPTIONS.match(tail):
        return seed, tail
    return root, ""


def parse(text: str) -> Address:
    """Split an address into its root (seed and options, not yet checked) and its path."""
    check_seed(text)
    match = _ADDRESS.match(text)
    root, path, kind = text, "", None
    if match:
        root, path = match.group("root"), match.group("path")
        kind = next(k for k in _PATHS if match.group(k) is not None)
    seed, options = _split_root(root)
    check_seed(seed)
    raw: dict[str, Any] = {}
    for pair in options.split("+") if options else ():
        name, _, value = pair.partition("=")
        if name in raw:
            raise DelveError(f"address {text!r}: option '{name}' is given twice")
        raw[name] = value
    return Address(seed, raw, path, kind)


# --------------------------------------------------------------------------- canonical roots


def canonical(
    tables: TableSet, kind: str, seed: str, written: Mapping[str, str], given: Mapping[str, Any]
) -> dict[str, Any]:
    """The options of a root of `kind`: those written in its address and those given on the
    command line (which must agree), checked, with defaults left out."""
    specs = {o.name: o for o in ROOT_OPTIONS[kind]}
    values: dict[str, Any] = {}
    for name, text in written.items():
        spec = specs.get(name)
        if spec is None:
            raise DelveError(
                f"address {seed}@...: '{name}' is not an option of a {kind} "
                f"(a {kind} address may carry {', '.join(specs)})"
            )
        try:
            values[name] = spec.parse(text)
        except (ValueError, DelveError) as err:
            raise DelveError(f"address {seed}@...: {name}={text}: {err}") from None
    for name, value in given.items():
        if value is None:
            continue
        if name in values and _same(kind, name, values[name], value, tables) is False:
            raise DelveError(
                f"--{name.replace('_', '-')} {_text(value)}: the address says "
                f"{name}={_text(values[name])}; give one or the other"
            )
        values[name] = value
    return _normal(tables, kind, values)


def _same(kind: str, name: str, a: Any, b: Any, tables: TableSet) -> bool:
    return _normal(tables, kind, {name: a}) == _normal(tables, kind, {name: b})


def _normal(tables: TableSet, kind: str, values: dict[str, Any]) -> dict[str, Any]:
    """Options as their generator reads them, defaults dropped, in their written order."""
    values = dict(values)
    if kind == "site" and values.get("theme") is not None:
        from generator.build.site import find_theme

        values["theme"] = find_theme(tables, str(values["theme"])).key
    if kind in ("hoard", "weapon"):
        from generator.build.treasure import check_power_die

        for name, what in (("holder", "--holder-die"), ("die", "--die")):
            if values.get(name) is not None:
                values[name] = check_power_die(values[name], what)
    if kind == "hoard" and values.get("value") is not None:
        # FMC Basic, Treasure Hoards: a hoard of level L is worth 1,000 x L c.p. by default.
        if values["value"] == 1000 * values.get("level", 1):
            values.pop("value")
    if kind == "region" and values.get("radius") == 1 and values.get("size") is None:
        values.pop("radius")
    out = {}
    for spec in ROOT_OPTIONS[kind]:
        value = values.get(spec.name)
        if value is not None and value != spec.default:
            out[spec.name] = value
    return out


# --------------------------------------------------------------------------- building


@dataclass
class Part:
    """What an address names: its kind (site, room, hoard, weapon, region, hex, haven, lair),
    the model of that part, and the address in full."""

    kind: str
    thing: Any
    address: str
    root: Any = None  # the whole model the part was taken from (the part itself for a root)


Progress = Callable[[int, int], None]


def build(
    tables: TableSet,
    text: str,
    kind: str,
    given: Mapping[str, Any] | None = None,
    reroll: list[str] | None = None,
    progress: Progress | None = None,
) -> Part:
    """What `text` names, for the command that makes things of `kind`.

    A root (no path) is made with the options its address carries and those `given` (the
    command's options, None when not given); an address of a part rebuilds its root from the
    address alone, so `given` options (and `reroll`) are refused there.
    """
    given = {k: v for k, v in (given or {}).items() if v is not None}
    address = parse(text)
    if not address.path:
        options = canonical(tables, kind, address.seed, address.options, given)
        root = format_root(address.seed, options)
        thing = _make(tables, kind, root, options, reroll, progress)
        return Part(kind, thing, root, thing)
    if given or reroll:
        names = ", ".join(
            f"--{k.replace('_', '-')}" for k in [*given, *(["reroll"] if reroll else [])]
        )
        raise DelveError(
            f"{names}: the address {text} names one part, which it rebuilds with the options it "
            "carries; leave these out"
        )
    root_kind = address.root_kind or kind
    options = canonical(tables, root_kind, address.seed, address.options, {})
    root = format_root(address.seed, options)
    full = f"{root}/{address.path}"
    if root_kind == "region":
        implied: dict[str, int] = {}
        for lab, n in _REROLL.findall(address.path):
            if len(n) > 4 or int(n) > MAX_REROLLS:
                raise DelveError(f"{text}: at most {MAX_REROLLS} re-rolls of one hex")
            implied[lab] = implied.get(lab, 0) + int(n)
        model = _make(tables, "region", root, options, implied, progress)
    elif root_kind in ("hoard", "weapon") and re.match(r"(hoard|weapon)/\d+", address.path):
        # The n-th of a --count: its own stream under the root, with the root's options.
        head = "/".join(address.path.split("/")[:2])
        model = _make(tables, root_kind, f"{root}/{head}", options, None, None)
    else:
        model = _make(tables, root_kind, root, options, None, progress)
    found = find(model, full)
    if found is None:
        raise DelveError(_missing(model, root_kind, root, address.path))
    if type(found).__name__ == "Lair" and found.form != "room":
        raise DelveError(_site_lair(model, found))
    return Part(KINDS[type(found).__name__], found, full, model)


def _make(
    tables: TableSet,
    kind: str,
    root: str,
    options: Mapping[str, Any],
    reroll: list[str] | Mapping[str, int] | None,
    progress: Progress | None,
) -> Any:
    rng = Rng(root)
    if kind == "site":
        from generator.build.site import generate_site

        return generate_site(
            tables,
            rng,
            level=options.get("level", 1),
            rooms=options.get("rooms", 6),
            theme=options.get("theme"),
        )
    if kind == "region":
        from generator.build.region import generate_region

        return generate_region(
            tables,
            rng,
            radius=options.get("radius"),
            size=options.get("size"),
            hex_miles=options.get("miles", 18),
            level=options.get("level", 1),
            reroll=reroll,
            progress=progress,
        )
    if kind == "hoard":
        from generator.build.treasure import roll_hoard

        level = options.get("level", 1)
        if not 1 <= level <= MAX_LEVEL:
            raise DelveError(f"--level: must be 1 to {MAX_LEVEL}, not {level:,}")
        value = options.get("value", 1000 * level)
        return roll_hoard(tables, rng, value, level, options.get("holder", "d6"))
    if kind == "weapon":
        from generator.build.treasure import roll_weapon

        return roll_weapon(tables, rng, options.get("die", "d6"))
    raise DelveError(f"no generator makes a {kind!r}")


def parts(thing: Any) -> Iterator[Any]:
    """Every part of a model that records its address, parents before their parts."""
    if dataclasses.is_dataclass(thing) and not isinstance(thing, type):
        if isinstance(getattr(thing, "seed", None), str):
            yield thing
        for f in dataclasses.fields(thing):
            if f.name not in ("bestiary", "biomes"):
                yield from parts(getattr(thing, f.name))
    elif isinstance(thing, (list, tuple)):
        for item in thing:
            yield from parts(item)
    elif isinstance(thing, dict):
        for item in thing.values():
            yield from parts(item)


def find(model: Any, address: str) -> Any:
    """The part of `model` whose address is `address` (None when it has none)."""
    for part in parts(model):
        if part.seed == address and type(part).__name__ in KINDS:
            return part
    return None


def _missing(model: Any, kind: str, root: str, path: str) -> str:
    """Why a well-formed address names nothing: say what is there instead."""
    if kind == "region":
        label = path.split("/")[1]
        hexes = {h.label: h for h in model.hexes}
        h = hexes.get(label)
        if h is None:
            return f"{root}/{path}: the region {root} has no hex {label}"
        what = {
            "start": "the starting haven",
            "haven": "a haven",
            "site": "an adventure site",
            "lair": "a monster lair",
            "landmark": "a landmark",
        }.get(h.stocking, h.stocking)
        return f"{root}/{path}: hex {label} of {root} is {what} ({h.seed}); it holds no such part"
    if kind == "site":
        return f"{root}/{path}: {_missing_in_site(model, root, path)}"
    return f"{root}/{path}: that hoard holds no magic weapon"


def _missing_in_site(site: Any, root: str, path: str) -> str:
    """What the site has where the address points at nothing: its levels, a level's rooms,
    the rooms of a level that hold a hoard."""
    from generator.engine import words

    found = re.match(r"level/(\d+)/room/(\d+)(/hoard)?(/weapon)?$", path)
    assert found is not None  # the grammar let nothing else through
    depth, number = int(found.group(1)), int(found.group(2))
    levels = max((r.level for r in site.rooms), default=0)
    if not 1 <= depth <= levels:
        return f"the site {root} has {words.count(levels, 'level')}, so no level {depth}"
    rooms = {int(r.seed.rsplit("/", 1)[1]): r for r in site.rooms if r.level == depth}
    room = rooms.get(number)
    if room is None:
        return f"level {depth} of {root} has rooms 1 to {len(rooms)}, so no room {number}"
    if room.hoard is None:
        held = [str(n) for n, r in sorted(rooms.items()) if r.hoard]
        if not held:
            return f"no room of level {depth} holds treasure"
        where = f"rooms {words.join(held)} hold" if len(held) > 1 else f"room {held[0]} holds"
        return f"room {number} of level {depth} holds no treasure ({where} this level's)"
    return f"the hoard of room {number} of level {depth} holds no magic weapon"


def _site_lair(region: Any, lair: Any) -> str:
    """A lair of several rooms is its hex's site (FMC Basic, Hex Stocking): name that."""
    home = next(h for h in region.hexes if h.lair is lair)
    return (
        f"{lair.seed}: the lair in hex {home.label} is a site of {len(home.site.rooms)} rooms; "
        f"try `delve site --seed {home.site.seed}`"
    )


def check_kind(part: Part, wanted: tuple[str, ...], command: str) -> Part:
    """Refuse a part this command does not make, naming the command that does."""
    if part.kind in wanted:
        return part
    other = COMMAND_OF.get(part.kind, part.kind)
    return _refuse(part, command, other)


def _refuse(part: Part, command: str, other: str) -> Part:
    raise DelveError(
        f"--seed {part.address}: that is a {part.kind}, not something `delve {command}` makes; "
        f"try `delve {other} --seed {part.address}`"
    )
