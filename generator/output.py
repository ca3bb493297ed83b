"""Writing files safely: a temporary file beside the target, then an atomic rename.

Only a new path or an existing regular file is ever written: a symlink, a device (as root,
`-o /dev/null` would otherwise replace the system's /dev/null), a pipe or a read-only file is
refused with one line. A new file gets the mode the umask allows (0666 less the umask); a file
written over keeps its own mode. The caller is told whether a file was replaced, so the
command can say so.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

from generator.errors import DelveError

DEFAULT_OUTPUT_DIR = Path("output")
MAX_STEM = 80  # characters of a seed kept in a default file name; the rest is a digest
MAX_STEM_BYTES = 120  # ... and bytes of UTF-8 (a file name is 255 bytes; 80 CJK are 240)


def check_target(path: Path) -> bool:
    """Refuse a path Delve must not write over; True when a regular file is there already."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        if not folder.is_dir():
            what = " (a file of that name is there)" if folder.exists() else ""
            raise DelveError(f"{path}: folder {folder} does not exist{what}") from None
        return False
    except OSError as err:
        raise DelveError(f"{path}: cannot write: {err.strerror}") from None
    if stat.S_ISLNK(st.st_mode):
        raise DelveError(f"{path}: is a symbolic link; Delve writes only new or regular files")
    if stat.S_ISDIR(st.st_mode):
        raise DelveError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise DelveError(
            f"{path}: is not a regular file (a device, pipe or socket); Delve will not replace it"
        )
    if not st.st_mode & stat.S_IWUSR:
        raise DelveError(f"{path}: is read-only; Delve will not replace it")
    return True


def new_file_mode() -> int:
    """0666 less the umask, as open() would give a new file."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, data: str | bytes) -> bool:
    """Write all of data or nothing: a crash never leaves half a file at `path`. Returns True
    when an earlier file was replaced."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    replaced = check_target(path)
    mode = stat.S_IMODE(os.stat(path).st_mode) if replaced else new_file_mode()
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise DelveError(f"{path}: cannot write in {folder}: {err.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise DelveError(f"{path}: cannot write: {err.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return replaced


def safe_name(seed: str) -> str:
    """A seed made safe for a file name: letters, digits and `-_.` kept, the rest `_`.

    A long seed keeps its first MAX_STEM characters, cut to MAX_STEM_BYTES bytes of UTF-8 on a
    character's boundary, and a digest of the whole, so the name stays unique and well under
    the 255 bytes a file system allows. A seed mostly of other characters (`🐉🐉`) gets the
    digest too, or every such seed would be the same `__`."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in seed) or "seed"
    replaced = sum(a != b for a, b in zip(seed, safe, strict=False))
    encoded = safe.encode("utf-8", "replace")
    if len(safe) > MAX_STEM or len(encoded) > MAX_STEM_BYTES or 2 * replaced > len(seed):
        digest = hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        stem = safe[:MAX_STEM].encode("utf-8", "replace")[:MAX_STEM_BYTES]
        safe = f"{stem.decode('utf-8', 'ignore')}-{digest}"
    return safe


def default_path(kind: str, seed: str, ext: str) -> Path:
    """`output/site-harrowdeep.svg`: kind and seed, with the seed made safe for a file name."""
    if DEFAULT_OUTPUT_DIR.exists() and not DEFAULT_OUTPUT_DIR.is_dir():
        raise DelveError(f"{DEFAULT_OUTPUT_DIR}: is a file; Delve writes its files into a folder")
    try:
        DEFAULT_OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DelveError(f"{DEFAULT_OUTPUT_DIR}: cannot make the folder: {err.strerror}") from None
    return DEFAULT_OUTPUT_DIR / f"{kind}-{safe_name(seed)}.{ext}"
