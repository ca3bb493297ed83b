"""Safe YAML loading that keeps line numbers and disarms YAML 1.1's traps.

Only `true`/`false` are booleans (`no`, `yes`, `on`, `off` stay text), sexagesimal numbers such
as `1:30` stay text, and dates stay text. Mappings and lists come back as dict/list subclasses
that remember the line of each key and item, so errors can name `FILE:LINE`. A key given
twice in one mapping is an error (YAML would keep the last silently), and aliases are bounded
(see _Converter).

A file is bounded before it is parsed: at most MAX_FILE_BYTES, read only if it is a regular
file (generator/reading.py), and a file big enough to hold more than MAX_VALUES values has them
counted from YAML's event stream before any node is built; every file's values are counted as
they are converted, against its folder's Budget too.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml

from generator.errors import TableError
from generator.reading import Unreadable, read_text

# Tables are small hand-made files: the biggest built-in one is 245 KB and 12,436 values, all
# 126 of them 856 KB and 43,537 values. Checking a folder of 250,000 values took 4.4 s of CPU
# time and 293 MB: about 20 microseconds and 1.2 KB a value.
MAX_FILE_BYTES = 2 * 1024 * 1024  # bytes in one table file
MAX_VALUES = 100_000  # values (texts, numbers, lists, mappings) in one file
MAX_FOLDER_VALUES = 250_000  # ... and in one folder of tables, all its files together
# Bytes: a smaller file holds at most about MAX_VALUES values (`a,` is two bytes), which the
# converter counts; a bigger one has them counted first, from YAML's events.
_SMALL = 2 * MAX_VALUES

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


class Budget:
    """The values a folder of tables may still hold (MAX_FOLDER_VALUES in all)."""

    def __init__(self, folder: str) -> None:
        self.folder, self.left = folder, MAX_FOLDER_VALUES
        self.spent = False  # said once; the folder's other files are not read

    def message(self) -> str:
        self.spent = True
        return (
            f"the folder {self.folder} holds more than {MAX_FOLDER_VALUES:,} values in all "
            "(texts, numbers, lists and mappings); split it into folders of its own"
        )


def _file_message() -> str:
    return f"more than {MAX_VALUES:,} values in one file (a table has at most 10,000 entries)"


class _Converter:
    """Turns composed nodes into LDict/LList/scalars, bounding what aliases can do: an alias
    is a pointer to a node written once, and a document of a few hundred bytes can point at
    pointers nine deep (a billion values), or at itself. Every value is counted against the
    file's and the folder's bounds."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.seen: set[int] = set()  # nodes converted at least once
        self.extra = 0  # conversions of nodes already seen: what aliases added
        self.active: set[int] = set()  # nodes being converted (for an alias to itself)
        self.count = 0  # values written out (not counting what aliases repeat)
        self.budget = budget
        # YAML's own reading of each scalar. One a file: a constructor keeps every node it
        # has read until the document ends, so one shared by every file kept every table's
        # nodes for the life of the process (tens of megabytes a load, without bound).
        self.constructor = yaml.constructor.SafeConstructor()

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
        else:  # a value written out (what aliases repeat is bounded above)
            self.count += 1
            if self.count > MAX_VALUES:
                raise _Bad(line, _file_message())
        if self.budget is not None and self.count + self.extra > self.budget.left:
            raise _Bad(line, self.budget.message())
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

    def scalar(self, node: yaml.ScalarNode) -> Any:
        line = node.start_mark.line + 1
        try:
            value = self.constructor.construct_object(node, deep=True)
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


def _count_values(text: str) -> tuple[int, int]:
    """(values, line) of a big file from YAML's event stream, stopping past MAX_VALUES: far
    cheaper than building its nodes (a 2 MB file of `- a` lines is half a million)."""
    count = 0
    values = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, values):
            count += 1
            if count > MAX_VALUES:
                return count, event.start_mark.line + 1
    return count, 0


def load_yaml(path: Path, label: str, budget: Budget | None = None) -> Any:
    """Load one YAML file; errors become TableError lines naming the file and line. `budget`
    is its folder's (tables are loaded folder by folder)."""
    try:
        text = read_text(path, MAX_FILE_BYTES, "a table file")
    except Unreadable as err:
        raise TableError([f"{label}: {err}"]) from None
    bad = _CONTROL_IN_FILE.search(text)
    if bad is not None:  # found here, where its line is known (YAML's reader gives none)
        line = text.count("\n", 0, bad.start()) + 1
        raise TableError([f"{label}:{line}: {_control(bad)}"])
    try:
        if len(text) > _SMALL:
            count, line = _count_values(text)
            if count > MAX_VALUES:
                raise TableError([f"{label}:{line}: {_file_message()}"])
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
    converter = _Converter(budget)
    try:
        doc = converter.convert(node)
    except _Bad as err:
        raise TableError([f"{label}:{err.line}: YAML error: {err.message}"]) from None
    except yaml.constructor.ConstructorError as err:
        mark = err.problem_mark
        line = mark.line + 1 if mark else 1
        raise TableError([f"{label}:{line}: YAML error: {err.problem}"]) from None
    if budget is not None:
        budget.left -= converter.count + converter.extra
    return doc
