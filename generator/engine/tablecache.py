"""A cache of validated tables, so commands need not parse every YAML file on each run.

The key is a fingerprint of Delve's version, the Python version and every table file's path,
size and modification time in the layered folders; any edit makes a new key. Only sets that
loaded without a problem are cached.

The file is plain data, never a pickle: a JSON index, then each table as a JSON object of
text, numbers and lists, rebuilt into a Table the first time it is asked for (its texts'
placeholders are compiled again, as on a first load). Reading data cannot run code, whoever
wrote the file; and the file is signed (see cachefiles.py), so only tables this user's Delve
validated are ever taken from it. Any trouble with the cache is a normal load.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from generator import __version__
from generator.engine import cachefiles
from generator.engine.cachefiles import cache_dir  # noqa: F401  (kept for callers)

_FORMAT = 5  # bump when the stored table layout or the checks made at load change
_KIND = "tables"
_KEEP = 6  # table sets kept (a few folder combinations, and the one before an edit)
_MAX_TOTAL = 32 * 1024 * 1024
_MAX_FILE = 16 * 1024 * 1024


def fingerprint(folders: list[Path]) -> str | None:
    if not cachefiles.enabled():
        return None
    h = hashlib.sha256(f"{__version__}|{sys.version_info[:2]}|{_FORMAT}".encode())
    try:
        for folder in folders:
            h.update(f"\0{folder.resolve()}".encode("utf-8", "surrogatepass"))
            if not folder.is_dir():
                return None
            for path, st in _files(str(folder)):
                h.update(f"|{path}|{st.st_mtime_ns}|{st.st_size}".encode("utf-8", "surrogatepass"))
    except (OSError, RecursionError):
        return None
    return h.hexdigest()


def _files(folder: str) -> list[tuple[str, os.stat_result]]:
    """Every YAML file under a folder with its stat, in a stable order (scandir: no Path churn)."""
    out: list[tuple[str, os.stat_result]] = []
    with os.scandir(folder) as it:
        for entry in it:
            if entry.is_dir():
                out += _files(entry.path)
            elif entry.name.endswith((".yaml", ".yml")):
                out.append((entry.path, entry.stat()))
    return sorted(out, key=lambda pair: pair[0])


def _name(key: str) -> str:
    return f"tables-{key[:32]}.cache"


# --------------------------------------------------------------------------- plain data


def _plain(table: Any) -> dict[str, Any]:
    return {
        "id": table.id,
        "title": table.title,
        "path": str(table.path),
        "folder": table.folder,
        "die": table.die.text if table.die is not None else None,
        "fields": {k: list(v) for k, v in table.fields.items()},
        "source": table.source,
        "description": table.description,
        "line": table.line,
        "entries": [[e.data, e.line, e.weight, e.spans] for e in table.entries],
    }


def _table(d: dict[str, Any]) -> Any:
    from generator.engine.dice import parse
    from generator.engine.table import Entry, Table

    entries = []
    for data, line, weight, spans in d["entries"]:
        runs = tuple((lo, hi) for lo, hi in spans)
        # Texts compile when first read (Entry.template): the cache holds checked tables.
        entries.append(Entry(data, line, None, None, weight, spans=runs))
    table = Table(
        id=d["id"],
        title=d["title"],
        path=Path(d["path"]),
        folder=d["folder"],
        die=parse(d["die"]) if d["die"] is not None else None,
        entries=entries,
        fields={k: (v[0], v[1]) for k, v in d["fields"].items()},
        source=d["source"],
        description=d["description"],
        line=d["line"],
    )
    table._prepare()
    return table


class LazyTables(Mapping):
    """Tables by id, each rebuilt the first time it is asked for: a command that rolls on
    forty tables does not pay to rebuild the other eighty."""

    def __init__(self, payload: bytes, index: dict[str, list[int]]) -> None:
        self._payload = payload
        self._index = index
        self._done: dict[str, Any] = {}

    def __getitem__(self, table_id: str) -> Any:
        table = self._done.get(table_id)
        if table is None:
            start, end = self._index[table_id]
            table = self._done[table_id] = _table(json.loads(self._payload[start:end]))
        return table

    def get(self, table_id: str, default: Any = None) -> Any:
        return self[table_id] if table_id in self._index else default

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


def read(key: str | None) -> Any:
    if key is None:
        return None
    payload = cachefiles.read("", _name(key), _KIND, _MAX_FILE)
    if payload is None:
        return None
    try:
        head, _, _ = payload.partition(b"\n")
        header = json.loads(head)
        index = header["index"]
        if header["key"] != key or not isinstance(index, dict):
            return None
        base = len(head) + 1
        return LazyTables(payload, {i: [base + a, base + b] for i, (a, b) in index.items()})
    except (ValueError, KeyError, TypeError):  # signed by us, so only another layout's file
        return None


def write(key: str | None, tables: Mapping[str, Any]) -> None:
    if key is None:
        return
    try:
        blobs: list[bytes] = []
        index: dict[str, list[int]] = {}
        offset = 0
        for table_id, table in tables.items():
            blob = json.dumps(_plain(table), separators=(",", ":"), allow_nan=False).encode()
            index[table_id] = [offset, offset + len(blob)]
            blobs.append(blob)
            offset += len(blob)
        head = json.dumps({"key": key, "index": index}, separators=(",", ":")).encode()
    except (TypeError, ValueError, RecursionError):  # a value JSON cannot hold: no cache
        return
    payload = head + b"\n" + b"".join(blobs)
    if len(payload) <= _MAX_FILE:
        cachefiles.write("", _name(key), _KIND, payload, _KEEP, _MAX_TOTAL, "tables-")
