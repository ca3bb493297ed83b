"""Reading JSON documents back into the model, with errors that name the JSON path."""

from __future__ import annotations

from typing import Any

from generator.errors import DocumentError

_TYPE_NAMES = {
    int: "an integer",
    str: "text",
    list: "a list",
    dict: "an object",
    bool: "true/false",
}


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


MAX_COORD = 100_000  # squares: far beyond any plan, small enough to draw nothing absurd
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
