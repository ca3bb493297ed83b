"""Writing files safely: a temporary file beside the target, then an atomic rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from generator.errors import DelveError

DEFAULT_OUTPUT_DIR = Path("output")


def write_atomic(path: Path, data: str | bytes) -> Path:
    """Write all of data or nothing: a crash never leaves half a file at `path`."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise DelveError(f"{path}: folder {folder} does not exist")
    if path.is_dir():
        raise DelveError(f"{path}: is a folder, not a file")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise DelveError(f"{path}: cannot write in {folder}: {err.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise DelveError(f"{path}: cannot write: {err.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def default_path(kind: str, seed: str, ext: str) -> Path:
    """`output/site-harrowdeep.svg`: kind and seed, with the seed made safe for a file name."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in seed) or "seed"
    DEFAULT_OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    return DEFAULT_OUTPUT_DIR / f"{kind}-{safe}.{ext}"
