"""The cache folder, treated as untrusted: signed files in a folder only this user can write.

Anyone who can write a cache folder could otherwise hand the next run of Delve whatever data
(or, for compiled templates, code) they like. So:

- The folder must belong to this user and be writable by no one else (group and others); a
  folder that is not is refused, with one warning, and Delve runs without a cache.
- Every file starts with an HMAC-SHA256 of its kind, its name and its bytes, made with a key of
  32 random bytes kept in the folder (`key`, mode 0600, created on first use). A file is read
  only if it is a regular file of ours, writable by no one else, not too big, and its HMAC
  checks out; anything else (truncated, bytes flipped, written by someone else, another
  version's) is a miss, and the caller loads normally and writes the file again.
- Each kind of file is pruned on write to the newest few and a total size.

The cache lives in DELVE_CACHE_DIR, else $XDG_CACHE_HOME/delve, else ~/.cache/delve;
DELVE_NO_CACHE=1 turns it off. Nothing here ever raises: trouble with the cache is a miss.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

MAGIC = b"delve-cache 1\n"
_MAC_BYTES = 32
_KEY_NAME = "key"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)

# Set by the CLI to print a refusal once (library callers get silence).
on_warning: Callable[[str], None] | None = None
_warned: set[str] = set()


def cache_dir() -> Path:
    if os.environ.get("DELVE_CACHE_DIR"):
        return Path(os.environ["DELVE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "delve"


def enabled() -> bool:
    return not os.environ.get("DELVE_NO_CACHE")


def _warn(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        if on_warning is not None:
            on_warning(message)


def _ours(st: os.stat_result) -> bool:
    """Owned by this user (where the platform has owners) and writable by no one else."""
    owner = getattr(os, "geteuid", None)
    if owner is not None and st.st_uid != owner():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def folder(sub: str = "", create: bool = True) -> Path | None:
    """The cache folder (or a sub-folder of it), made if need be, or None when it is turned
    off, cannot be made, or is refused as not safely ours."""
    if not enabled():
        return None
    root = cache_dir()
    path = root / sub if sub else root
    try:
        if create:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        for where in dict.fromkeys([root, path]):
            st = os.stat(where)
            if not stat.S_ISDIR(st.st_mode):
                return None
            if not _ours(st):
                _warn(
                    f"cache folder {where} is not yours alone (another owner, or writable by "
                    "group or others); running without a cache (fix: chmod go-w, or set "
                    "DELVE_CACHE_DIR)"
                )
                return None
    except OSError:
        return None
    return path


def _open_ours(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of a regular file of ours (never through a symlink), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _BINARY)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _ours(st) or st.st_size > max_bytes:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(max_bytes + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _key(root: Path) -> bytes | None:
    """This user's signing key: 32 random bytes in `root/key`, readable by this user only."""
    path = root / _KEY_NAME
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _BINARY)
        try:
            st = os.fstat(fd)
            good = stat.S_ISREG(st.st_mode) and _ours(st) and not st.st_mode & 0o077
            data = os.read(fd, _MAC_BYTES + 1) if good else b""
        finally:
            os.close(fd)
        if len(data) == _MAC_BYTES:
            return data
    except OSError:
        pass
    # Missing or not trustworthy: a new key (every file signed with the old one becomes a miss).
    key = os.urandom(_MAC_BYTES)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".key-", dir=root)  # mkstemp makes it 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(key)
        os.replace(tmp, path)
    except OSError:
        return None
    return key


def _mac(key: bytes, kind: str, name: str, payload: bytes) -> bytes:
    label = f"{kind}\0{name}\0".encode("utf-8", "surrogatepass")
    return hmac.new(key, MAGIC + label + payload, hashlib.sha256).digest()


def read(sub: str, name: str, kind: str, max_bytes: int) -> bytes | None:
    """The payload of cache file `sub/name` if it is ours and its signature holds, else None."""
    where = folder(sub, create=False)
    root = folder(create=False)
    if where is None or root is None:
        return None
    data = _open_ours(where / name, max_bytes + len(MAGIC) + _MAC_BYTES)
    if data is None or not data.startswith(MAGIC):
        return None
    key = _key(root)
    if key is None:
        return None
    mac, payload = data[len(MAGIC) : len(MAGIC) + _MAC_BYTES], data[len(MAGIC) + _MAC_BYTES :]
    if not hmac.compare_digest(mac, _mac(key, kind, name, payload)):
        return None
    try:  # used just now: pruning keeps what is in use
        os.utime(where / name, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass
    return payload


def write(
    sub: str, name: str, kind: str, payload: bytes, keep: int, max_total: int, prefix: str
) -> bool:
    """Sign and write `sub/name` atomically, then prune files starting with `prefix` in that
    folder to the newest `keep` and at most `max_total` bytes. False if nothing was written."""
    where = folder(sub)
    root = folder()
    if where is None or root is None:
        return False
    key = _key(root)
    if key is None:
        return False
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=where)
        with os.fdopen(fd, "wb") as fh:
            fh.write(MAGIC + _mac(key, kind, name, payload) + payload)
        os.replace(tmp, where / name)
        tmp = None
    except OSError:
        return False
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
    prune(where, prefix, keep, max_total)
    return True


def prune(where: Path, prefix: str, keep: int, max_total: int) -> None:
    """Remove all but the newest `keep` files named `prefix*`, and the oldest beyond a total
    of `max_total` bytes (the newest is always kept). Leftover temporary files go too."""
    try:
        found = []
        with os.scandir(where) as it:
            for entry in it:
                if entry.name.startswith(".tmp-") or entry.name.startswith(".key-"):
                    st = entry.stat(follow_symlinks=False)
                    if st.st_mtime < _now() - 3600:  # an old crash's leftover
                        os.unlink(entry.path)
                elif entry.name.startswith(prefix):
                    st = entry.stat(follow_symlinks=False)
                    found.append((st.st_mtime_ns, entry.name, st.st_size, entry.path))
        found.sort(reverse=True)
        total = 0
        for index, (_, _, size, path) in enumerate(found):
            total += size
            if index > 0 and (index >= keep or total > max_total):
                os.unlink(path)
    except OSError:
        pass


def _now() -> float:
    import time

    return time.time()
