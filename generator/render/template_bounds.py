"""What a template may build: the size checks the sandbox (render/templating.py) makes.

A template of a few bytes can ask for a page of a gigabyte: `{{ 'a'|center(10**9) }}`,
`{{ '%999999999d'|format(1) }}`, `{{ '{:>999999999}'.format(1) }}`, `{{ 'x'.ljust(10**9) }}`,
`{{ s|replace('a', s) }}`. Where the size of a result follows from its arguments, it is
checked before the work (so nothing is allocated); every other value a filter or a call
returns is checked after. Each is at most MAX_BUILT characters or items, and a template's whole
output at most MAX_OUTPUT characters, counted as it streams out.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from jinja2.sandbox import SecurityError

MAX_BUILT = 20_000_000  # characters or items one expression may build
# Characters one template may print: a 91-hex region's booklet is 1.4 MB of HTML.
MAX_OUTPUT = 200_000_000


def bounded_size(size: int) -> None:
    if size > MAX_BUILT:
        raise SecurityError(f"a template may build at most {MAX_BUILT:,} characters or items")


def bounded_result(value: Any) -> Any:
    """value, if it is not too big (text, lists and the like; anything else passes)."""
    if isinstance(value, (str, list, tuple, dict, set, frozenset)):
        bounded_size(len(value))
    return value


def _numbers(text: str) -> Iterator[int]:
    for digits in re.findall(r"\d+", text):
        yield int(digits) if len(digits) <= 12 else MAX_BUILT + 1


_PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def check_printf(template: str, args: Any) -> None:
    """`template % args` (and the format filter): no field wider than MAX_BUILT, and none
    whose width comes from the arguments (`%*d`) past it either."""
    for match in _PRINTF.finditer(template):
        for part in match.groups():
            if part is None:
                continue
            if part == "*":
                values = args if isinstance(args, tuple) else (args,)
                for v in values:
                    if isinstance(v, int) and not isinstance(v, bool):
                        bounded_size(abs(v))
            else:
                bounded_size(next(_numbers(part)))


def check_format(template: str, args: Iterable[Any], kwargs: dict[str, Any]) -> None:
    """`template.format(...)`: no replacement field's width or precision past MAX_BUILT,
    whether written (`{:>999999999}`) or nested (`{:>{w}}`, then w is checked)."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return  # Python refuses it itself
    for _, _, spec, _ in fields:
        if not spec:
            continue
        for n in _numbers(spec):
            bounded_size(n)
        if "{" in spec:
            for v in [*args, *kwargs.values()]:
                if isinstance(v, int) and not isinstance(v, bool):
                    bounded_size(abs(v))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def check_replace(s: Any, old: Any, new: Any, count: Any = None) -> None:
    s, old, new = _text(s), _text(old), _text(new)
    times = len(s) + 1 if not old else s.count(old)
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    bounded_size(len(s) + times * max(0, len(new) - len(old)))


# Filters whose result size follows from their arguments: checked before they run.
def _center(value: Any, width: Any = 80, *_: Any, **__: Any) -> None:
    if isinstance(width, int):
        bounded_size(width)


def _indent(value: Any, width: Any = 4, *_: Any, **__: Any) -> None:
    pad = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    bounded_size(len(_text(value)) + (_text(value).count("\n") + 1) * max(0, pad))


def _wordwrap(value: Any, width: Any = 79, *args: Any, **kwargs: Any) -> None:
    wrap = kwargs.get("wrapstring", args[1] if len(args) > 1 else None) or "\n"
    bounded_size(len(_text(value)) * (1 + len(_text(wrap))))


def _count(value: Any, slices: Any = 1, *_: Any, **__: Any) -> None:
    if isinstance(slices, int):  # batch's line count, slice's number of columns
        bounded_size(slices)


def _replace(value: Any, old: Any = "", new: Any = "", count: Any = None, **_: Any) -> None:
    check_replace(value, old, new, count)


def _format(value: Any, *args: Any, **kwargs: Any) -> None:
    check_printf(_text(value), kwargs or args)


def check_join(items: Any, joiner: Any) -> None:
    if isinstance(items, (list, tuple)):
        texts = sum(len(v) for v in items if isinstance(v, str))
        bounded_size(texts + len(_text(joiner)) * max(0, len(items) - 1))


def _join(value: Any, d: Any = "", *_: Any, **__: Any) -> None:
    check_join(value, d)


BEFORE: dict[str, Callable[..., None]] = {
    "center": _center,
    "indent": _indent,
    "wordwrap": _wordwrap,
    "batch": _count,
    "slice": _count,
    "replace": _replace,
    "format": _format,
    "join": _join,
}


def bound_filter(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """The filter, with its size checked before (where it can be) and after it runs.
    functools.wraps keeps Jinja's pass_context and pass_eval_context marks."""
    before = BEFORE.get(name)
    takes_first = getattr(fn, "jinja_pass_arg", None) is not None  # context, eval ctx or env

    @functools.wraps(fn)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        if before is not None:
            rest = args[1:] if takes_first else args
            if rest:
                before(*rest, **kwargs)
        return bounded_result(fn(*args, **kwargs))

    return bounded


_WIDTH_METHODS = ("center", "ljust", "rjust", "zfill")


def check_call(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Before a template calls a method of a text: the methods that grow it by an argument."""
    owner = getattr(obj, "__self__", None)
    wrapped = getattr(getattr(obj, "__wrapped__", None), "__self__", None)
    name = getattr(obj, "__name__", "")
    if isinstance(wrapped, str) and name in ("format", "format_map"):  # the sandbox's wrapper
        mapping = args[0] if name == "format_map" and args else kwargs
        check_format(wrapped, args if name == "format" else (), dict(mapping))
        return
    if not isinstance(owner, str):
        return
    if name in _WIDTH_METHODS and args and isinstance(args[0], int):
        bounded_size(args[0])
    elif name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(size, int):
            bounded_size(len(owner) + owner.count("\t") * max(0, size))
    elif name == "join" and args:
        check_join(args[0], owner)
    elif name == "replace" and len(args) >= 2:
        check_replace(owner, args[0], args[1], args[2] if len(args) > 2 else kwargs.get("count"))


def bounded_output(chunks: Iterable[str]) -> str:
    """A template's output, joined, stopped once past MAX_OUTPUT characters."""
    out: list[str] = []
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > MAX_OUTPUT:
            raise SecurityError(f"a template may print at most {MAX_OUTPUT:,} characters")
        out.append(chunk)
    return "".join(out)
