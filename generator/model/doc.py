"""Reading JSON documents back into the model, with errors that name the JSON path."""

from __future__ import annotations

import math
import re
from typing import Any

from generator.errors import DocumentError
from generator.model.limits import MAX_NESTING, MAX_NUMBER, MAX_SEED_TEXT, MAX_TEXT

_TYPE_NAMES = {
    int: "an integer",
    str: "text",
    list: "a list",
    dict: "an object",
    bool: "true/false",
}


class TooBig(int):
    """A JSON integer of too many digits to read (what documents.load makes of one), so the
    walk below can name where it stands."""

    digits: int = 0


def too_big(digits: int) -> TooBig:
    value = TooBig(0)
    value.digits = digits
    return value


def check_plain(data: Any, path: str = "document") -> None:
    """What any JSON document must be before the model reads it: nested at most MAX_NESTING
    deep, every number of at most MAX_NUMBER (and finite), every text printable (no control
    characters but tab and newline, no lone surrogates, which no file can hold) and at most
    MAX_TEXT characters (a seed MAX_SEED_TEXT). Walked with a stack of its own; the first fault
    names its path."""
    todo: list[tuple[Any, str, int]] = [(data, path, 0)]
    while todo:
        value, at, depth = todo.pop()
        if isinstance(value, dict):
            if depth >= MAX_NESTING:
                raise DocumentError(f"{at}: nested more than {MAX_NESTING} deep")
            for k in value:
                _check_text(k, f"{at} (a key)")
            seed = value.get("seed")
            if isinstance(seed, str) and len(seed) > MAX_SEED_TEXT:
                raise DocumentError(
                    f"{at}.seed: a seed of {len(seed):,} characters (at most {MAX_SEED_TEXT:,})"
                )
            todo += [(v, f"{at}.{k}", depth + 1) for k, v in value.items()]
        elif isinstance(value, list):
            if depth >= MAX_NESTING:
                raise DocumentError(f"{at}: nested more than {MAX_NESTING} deep")
            todo += [(v, f"{at}[{i}]", depth + 1) for i, v in enumerate(value)]
        elif isinstance(value, str):
            _check_text(value, at)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, TooBig):
            raise DocumentError(f"{at}: a number of {value.digits:,} digits is too big")
        elif isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                raise DocumentError(f"{at}: {_short(value)} is too big (at most {MAX_NUMBER:,})")
        elif isinstance(value, float):
            if not math.isfinite(value) or abs(value) > MAX_NUMBER:
                raise DocumentError(f"{at}: {value!r} is not a number Delve can use")


_BAD_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _check_text(text: str, at: str) -> None:
    if len(text) > MAX_TEXT:
        raise DocumentError(f"{at}: text of {len(text):,} characters (at most {MAX_TEXT:,})")
    bad = _BAD_TEXT.search(text)
    if bad is not None:
        c = bad.group()
        what = "a lone surrogate" if 0xD800 <= ord(c) <= 0xDFFF else "a control character"
        raise DocumentError(f"{at}: text holds {what} (U+{ord(c):04X}) at {bad.start() + 1}")


def _short(value: int) -> str:
    digits = len(str(abs(value))) if abs(value).bit_length() < 10_000 else "thousands of"
    return f"a number of {digits} digits"


def field(obj: Any, key: str, kind: type | tuple[type, ...], path: str, default: Any = ...) -> Any:
    """obj[key] checked against kind; a missing key is an error unless a default is given."""
    if not isinstance(obj, dict):
        raise DocumentError(f"{path}: must be an object")
    if key not in obj:
        if default is not ...:
            return default
        raise DocumentError(f"{path}.{key}: missing")
    value = obj[key]
    if value is None and default is None:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    bad_bool = isinstance(value, bool) and bool not in kinds
    if bad_bool or not isinstance(value, kinds):
        want = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
        raise DocumentError(f"{path}.{key}: must be {want}, not {value!r}")
    return value


def one_of(obj: Any, key: str, choices: tuple[str, ...], path: str) -> str:
    value = field(obj, key, str, path)
    if value not in choices:
        raise DocumentError(f"{path}.{key}: must be one of {', '.join(choices)}, not {value!r}")
    return value


def items(obj: Any, key: str, path: str) -> list[tuple[str, Any]]:
    """(path, item) pairs of a list field, for reading each with its own path."""
    return [(f"{path}.{key}[{i}]", v) for i, v in enumerate(field(obj, key, list, path))]


def strings(obj: Any, key: str, path: str) -> list[str]:
    """A list field whose every item must be text."""
    out = []
    for p, v in items(obj, key, path):
        if not isinstance(v, str):
            raise DocumentError(f"{p}: must be text, not {v!r}")
        out.append(v)
    return out


MAX_COORD = 1_000  # squares from the origin: plans span a few dozen; the map stays drawable
MAX_SQUARES = 10_000  # squares in one list (a corridor, a cave's floor)


def square(obj: Any, key: str, path: str) -> tuple[int, int]:
    """An [x, y] pair of integers (a square of a plan)."""
    return _pair(field(obj, key, list, path), f"{path}.{key}")


def squares(obj: Any, key: str, path: str) -> list[tuple[int, int]]:
    """A list of [x, y] squares."""
    values = field(obj, key, list, path)
    if len(values) > MAX_SQUARES:
        raise DocumentError(f"{path}.{key}: more than {MAX_SQUARES:,} squares")
    return [_pair(v, f"{path}.{key}[{i}]") for i, v in enumerate(values)]


def _pair(value: Any, path: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise DocumentError(f"{path}: must be a square [x, y] of two integers, not {value!r}")
    if not all(-MAX_COORD <= v <= MAX_COORD for v in value):
        raise DocumentError(f"{path}: {value!r} is too far out (at most {MAX_COORD:,} squares)")
    return (value[0], value[1])


def check_total(total: int, path: str, what: str) -> None:
    """A sum Delve writes into a document (a site's or a lair's XP) must be a number it reads
    back: each part may be within MAX_NUMBER and the sum past it."""
    if abs(total) > MAX_NUMBER:
        raise DocumentError(f"{path}: {what} add up to {_short(total)}, more than {MAX_NUMBER:,}")
