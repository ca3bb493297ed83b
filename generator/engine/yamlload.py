"""Safe YAML loading that keeps line numbers and disarms YAML 1.1's traps.

Only `true`/`false` are booleans (`no`, `yes`, `on`, `off` stay text), sexagesimal numbers such
as `1:30` stay text, and dates stay text. Mappings and lists come back as dict/list subclasses
that remember the line of each key and item, so errors can name `FILE:LINE`. A key given
twice in one mapping is an error (YAML would keep the last silently), and aliases are bounded
(see _Converter).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml

from generator.errors import TableError

MAX_FILE_BYTES = 10 * 1024 * 1024  # refuse anything this big: tables are small hand-made files

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[valid-type,misc]
    yaml_implicit_resolvers: dict = {}


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$"), list("-+0123456789")
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]+(?:[eE][-+]?[0-9]+)?$"),
    list("-+0123456789."),
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)

_constructor = yaml.constructor.SafeConstructor()


class LDict(dict):
    """A mapping that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LList(list):
    line: int = 0
    item_lines: list


class Raw(str):
    """A scalar's text exactly as written (for fields that must stay text)."""

    value: Any  # what YAML would have made of it


MAX_ALIAS_VALUES = 100_000  # values aliases may add beyond those written out
MAX_NUMBER = 10**15 - 1  # no count, worth or weight in a table comes near it
_TOO_BIG = "a number in a table has at most 15 digits"
MAX_NESTING = 100  # lists and mappings inside each other; hand-made tables use a handful

# Control characters (C0 and C1, DEL) and lone surrogates: table text lands in SVG and GraphML
# (where most of them are not even allowed), in file names and on terminals (ESC starts an
# escape sequence). A file may hold CR as a line break; a value holds only tab and newline.
_CONTROL_IN_FILE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_CONTROL_IN_VALUE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _control(found: re.Match[str]) -> str:
    c = found.group()
    what = "a lone surrogate" if 0xD800 <= ord(c) <= 0xDFFF else "a control character"
    return f"{what} (U+{ord(c):04X}): a table holds printable text only (tab and newline aside)"


class _Bad(Exception):
    """A problem found while converting, with the line it is on."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


class _Converter:
    """Turns composed nodes into LDict/LList/scalars, bounding what aliases can do: an alias
    is a pointer to a node written once, and a document of a few hundred bytes can point at
    pointers nine deep (a billion values), or at itself."""

    def __init__(self) -> None:
        self.seen: set[int] = set()  # nodes converted at least once
        self.extra = 0  # conversions of nodes already seen: what aliases added
        self.active: set[int] = set()  # nodes being converted (for an alias to itself)

    def convert(self, node: yaml.Node, depth: int = 0) -> Any:
        key = id(node)
        line = node.start_mark.line + 1
        if key in self.seen:
            self.extra += 1
            if self.extra > MAX_ALIAS_VALUES:
                raise _Bad(
                    line,
                    f"aliases here expand to more than {MAX_ALIAS_VALUES:,} values "
                    "(an alias bomb?); write the values out",
                )
        self.seen.add(key)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if key in self.active:
            raise _Bad(line, "an alias refers to the list or mapping that holds it")
        if depth >= MAX_NESTING:
            raise _Bad(line, f"lists and mappings nest more than {MAX_NESTING} deep")
        self.active.add(key)
        try:
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, depth)
            return self.sequence(node, depth)
        finally:
            self.active.discard(key)

    def mapping(self, node: yaml.MappingNode, depth: int) -> LDict:
        out = LDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = self.convert(key_node, depth + 1)
            if not isinstance(key, str):
                key = str(key)
            line = key_node.start_mark.line + 1
            if key in out:
                raise _Bad(line, f"key '{key}' given twice (first on line {out.key_lines[key]})")
            out[key] = self.convert(value_node, depth + 1)
            out.key_lines[key] = line
        return out

    def sequence(self, node: yaml.Node, depth: int) -> LList:
        seq = LList(self.convert(item, depth + 1) for item in node.value)
        seq.line = node.start_mark.line + 1
        seq.item_lines = [item.start_mark.line + 1 for item in node.value]
        return seq

    @staticmethod
    def scalar(node: yaml.ScalarNode) -> Any:
        line = node.start_mark.line + 1
        try:
            value = _constructor.construct_object(node, deep=True)
        except (ValueError, OverflowError) as err:  # 5,000 digits: Python will not read them
            too_long = node.tag.endswith(":int")
            message = _TOO_BIG if too_long else f"cannot read {node.value[:40]!r}: {err}"
            raise _Bad(line, message) from None
        if isinstance(value, str):
            bad = _CONTROL_IN_VALUE.search(value)
            if bad is not None:  # written as an escape ("\e", "\x00") in a quoted scalar
                raise _Bad(line, _control(bad))
            return value
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise _Bad(line, _TOO_BIG)
        if isinstance(value, float) and not math.isfinite(value):
            raise _Bad(line, "a number in a table must be finite")
        raw = Raw(node.value)
        raw.value = value
        return raw


def plain(value: Any) -> Any:
    """YAML's own reading of a scalar (undoing Raw) for typed fields."""
    return value.value if isinstance(value, Raw) else value


def load_yaml(path: Path, label: str) -> Any:
    """Load one YAML file; errors become TableError lines naming the file and line."""
    try:
        size = path.stat().st_size
    except OSError as err:
        raise TableError([f"{label}: cannot read: {err.strerror}"]) from None
    if size >= MAX_FILE_BYTES:
        raise TableError([f"{label}: {size:,} bytes is too big for a table file (limit 10 MB)"])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise TableError([f"{label}: cannot read as UTF-8 text: {err}"]) from None
    bad = _CONTROL_IN_FILE.search(text)
    if bad is not None:  # found here, where its line is known (YAML's reader gives none)
        line = text.count("\n", 0, bad.start()) + 1
        raise TableError([f"{label}:{line}: {_control(bad)}"])
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        problem = err.problem or err.context or "bad YAML"
        raise TableError([f"{label}:{line}: YAML syntax error: {problem}"]) from None
    except yaml.YAMLError as err:
        raise TableError([f"{label}:1: YAML error: {err}"]) from None
    if node is None:
        return None
    try:
        return _Converter().convert(node)
    except _Bad as err:
        raise TableError([f"{label}:{err.line}: YAML error: {err.message}"]) from None
    except yaml.constructor.ConstructorError as err:
        mark = err.problem_mark
        line = mark.line + 1 if mark else 1
        raise TableError([f"{label}:{line}: YAML error: {err.problem}"]) from None
