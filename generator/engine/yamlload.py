"""Safe YAML loading that keeps line numbers and disarms YAML 1.1's traps.

Only `true`/`false` are booleans (`no`, `yes`, `on`, `off` stay text), sexagesimal numbers such
as `1:30` stay text, and dates stay text. Mappings and lists come back as dict/list subclasses
that remember the line of each key and item, so errors can name `FILE:LINE`.
"""

from __future__ import annotations

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


def _convert(node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        out = LDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = _convert(key_node)
            if not isinstance(key, str):
                key = str(key)
            out[key] = _convert(value_node)
            out.key_lines[key] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = LList(_convert(item) for item in node.value)
        seq.line = node.start_mark.line + 1
        seq.item_lines = [item.start_mark.line + 1 for item in node.value]
        return seq
    value = _constructor.construct_object(node, deep=True)
    if isinstance(value, str):
        return value
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
        return _convert(node)
    except yaml.constructor.ConstructorError as err:
        mark = err.problem_mark
        line = mark.line + 1 if mark else 1
        raise TableError([f"{label}:{line}: YAML error: {err.problem}"]) from None
