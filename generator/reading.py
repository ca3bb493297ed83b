"""Reading the files a user hands Delve (documents, tables, party files, templates).

Only a regular file is read, and never more than a limit: a FIFO would block the read forever
(`mkfifo doc.json; delve render doc.json`), a device could be endless or have side effects, and
a folder is not a document. The path is checked with stat() before it is opened; it is then
opened without blocking and checked again on the open file (so a file swapped for a FIFO in
between is still refused), and read up to the limit (so a file that grows in between is too).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from generator.errors import DelveError


class Unreadable(DelveError):
    """Why a file cannot be read, without its name (each caller names it its own way)."""


def not_a_file(mode: int) -> str | None:
    """Why a file of this mode is not read (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a pipe (FIFO), not a file; Delve reads only regular files"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file; Delve reads only regular files"
    return "is a device, not a file; Delve reads only regular files"


def _too_big(size: int, limit: int, what: str) -> str:
    shown = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"
    return f"{size:,} bytes is too big for {what} (at most {shown})"


def read_bytes(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file at `path`, of at most `limit` bytes (`what` names the kind
    of file in the message: "a document"). Unreadable (a one-line reason) otherwise."""
    try:
        before = os.stat(path)
    except FileNotFoundError:
        raise Unreadable("no such file") from None
    except OSError as err:
        raise Unreadable(f"cannot read: {err.strerror}") from None
    wrong = not_a_file(before.st_mode)
    if wrong:
        raise Unreadable(wrong)
    if before.st_size > limit:
        raise Unreadable(_too_big(before.st_size, limit, what))
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise Unreadable(f"cannot read: {err.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        now = os.fstat(fh.fileno())
        wrong = not_a_file(now.st_mode)
        if wrong:  # swapped for something else since the stat above
            raise Unreadable(wrong)
        try:
            data = fh.read(limit + 1)
        except OSError as err:
            raise Unreadable(f"cannot read: {err.strerror}") from None
    if len(data) > limit:
        raise Unreadable(_too_big(len(data), limit, what))
    return data


def read_text(path: str | Path, limit: int, what: str) -> str:
    """read_bytes() decoded as UTF-8 (strictly: a byte that is not UTF-8 is Unreadable)."""
    data = read_bytes(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Unreadable(
            f"cannot read as UTF-8 text: byte {err.start + 1:,} is not UTF-8"
        ) from None
