"""A cache of validated tables, so commands need not parse every YAML file on each run.

The key is a fingerprint of Delve's version, the Python version and every table file's path,
size and modification time in the layered folders; any edit makes a new key. Only sets that
loaded without a problem are cached. The cache lives in DELVE_CACHE_DIR, else
$XDG_CACHE_HOME/delve, else ~/.cache/delve; DELVE_NO_CACHE=1 turns it off. Any trouble with
the cache (unwritable folder, stale or corrupt file) just means a normal load.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from generator import __version__

_FORMAT = 2  # bump when the pickled Table layout changes


def cache_dir() -> Path:
    if os.environ.get("DELVE_CACHE_DIR"):
        return Path(os.environ["DELVE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "delve"


def fingerprint(folders: list[Path]) -> str | None:
    if os.environ.get("DELVE_NO_CACHE"):
        return None
    h = hashlib.sha256(f"{__version__}|{sys.version_info[:2]}|{_FORMAT}".encode())
    try:
        for folder in folders:
            h.update(f"\0{folder.resolve()}".encode("utf-8", "surrogatepass"))
            if not folder.is_dir():
                return None
            for path, st in _files(str(folder)):
                h.update(f"|{path}|{st.st_mtime_ns}|{st.st_size}".encode("utf-8", "surrogatepass"))
    except OSError:
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


def _path(key: str) -> Path:
    return cache_dir() / f"tables-{key[:32]}.pickle"


class LazyTables(Mapping):
    """Tables by id, each unpickled the first time it is asked for: a command that rolls on
    forty tables does not pay to rebuild the other eighty."""

    def __init__(self, raw: dict[str, bytes]) -> None:
        self._raw = raw
        self._done: dict[str, Any] = {}

    def __getitem__(self, table_id: str) -> Any:
        table = self._done.get(table_id)
        if table is None:
            table = self._done[table_id] = pickle.loads(self._raw[table_id])
        return table

    def get(self, table_id: str, default: Any = None) -> Any:
        return self[table_id] if table_id in self._raw else default

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def read(key: str | None) -> Any:
    if key is None:
        return None
    try:
        with open(_path(key), "rb") as fh:
            stored_key, raw = pickle.load(fh)
    except Exception:  # noqa: BLE001 - a bad cache is never an error, just a miss
        return None
    return LazyTables(raw) if stored_key == key and isinstance(raw, dict) else None


def write(key: str | None, tables: Any) -> None:
    if key is None:
        return
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tables-", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            raw = {i: pickle.dumps(t, protocol=pickle.HIGHEST_PROTOCOL) for i, t in tables.items()}
            pickle.dump((key, raw), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, _path(key))
    except Exception:  # noqa: BLE001 - caching is best effort
        try:
            Path(tmp).unlink(missing_ok=True)  # type: ignore[possibly-undefined]
        except Exception:  # noqa: BLE001
            pass
