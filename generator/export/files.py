"""What every export shares: safe file names, stable ids, and folders written atomically.

An export is a folder of many files. :class:`FolderWriter` collects them in memory, then writes
them into a temporary folder beside the target and moves that into place, so a failure leaves
nothing half-written. It keeps a manifest (``.delve-manifest.json``) of the files it wrote: a
folder that already holds an export is written over only with ``--force``, and then only the
files of the old manifest are replaced or removed; a file Delve did not write is never touched.

Over an earlier export the new files cannot arrive in one move (the referee's own files stay
in the folder), so the swap is made undoable instead (:func:`_swap`): the old files are moved
aside, the new ones in, and the new manifest written last; any failure on the way moves
everything back, leaving the old export whole. While the swap runs, the manifest names the old
files and the new together, so even a crash that leaves a mix is cleared by the next --force.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import unicodedata
from pathlib import Path

from generator.errors import DelveError

MANIFEST = ".delve-manifest.json"
MAX_STEM = 80  # characters: long names trouble Windows paths and every file picker

# Windows forbids these names with any extension (CON.md is as bad as CON).
_RESERVED = {"CON", "PRN", "AUX", "NUL"} | {f"{p}{i}" for p in ("COM", "LPT") for i in range(10)}
# Forbidden on Windows (<>:"/\|?*), meaningful in Obsidian links (#^[]|), or opening markdown
# that can swallow a link around the name (code `, maths $, comments %%, highlights ==,
# strike-through ~~), plus controls.
_BAD = re.compile(r'[<>:"/\\|?*#^\[\]`$%=~\x00-\x1f\x7f]')
_ID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def safe_stem(text: str) -> str:
    """A file name (without extension) that Windows, macOS and Linux all accept.

    Forbidden characters become spaces, runs of space collapse, leading dots and trailing dots
    and spaces go, reserved device names (CON, NUL, COM1...) get a trailing underscore, and the
    name is cut to MAX_STEM characters on a word boundary where it can be.
    """
    text = unicodedata.normalize("NFC", text)
    text = _BAD.sub(" ", text)
    text = re.sub(r"\s+", " ", text).strip().lstrip(".").strip()
    if len(text) > MAX_STEM:
        cut = text[:MAX_STEM]
        text = cut.rsplit(" ", 1)[0] if " " in cut[MAX_STEM // 2 :] else cut
    text = text.rstrip(". ")
    if not text:
        text = "untitled"
    if text.split(".")[0].upper() in _RESERVED:
        text += "_"
    return text


class Names:
    """Hands out safe names unique within one folder, case-insensitively (macOS and Windows
    treat Room.md and room.md as one file): a clash gets a suffix, ' 2', ' 3'..."""

    def __init__(self) -> None:
        self._taken: dict[str, set[str]] = {}

    def claim(self, folder: str, text: str, ext: str) -> str:
        """The folder-relative path ``folder/Name.ext`` for `text`, unique in the folder."""
        taken = self._taken.setdefault(folder.lower(), set())
        stem = safe_stem(text)
        name, n = stem, 1
        while f"{name}.{ext}".lower() in taken:
            n += 1
            name = f"{stem} {n}"
        taken.add(f"{name}.{ext}".lower())
        return f"{folder}/{name}.{ext}" if folder else f"{name}.{ext}"

    def folder(self, parent: str, text: str) -> str:
        """A sub-folder path ``parent/Name``, unique among the parent's files and folders."""
        return self.claim(parent, text, "")[:-1]


def stable_id(*parts: str) -> str:
    """A 16-character id of letters and digits (Foundry's form) from a name: the same parts
    always give the same id, so the same seed exports the same documents, byte for byte."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return "".join(_ID_CHARS[b % len(_ID_CHARS)] for b in digest[:16])


class FolderWriter:
    """Collects an export's files, then writes them all at once (see the module docstring)."""

    def __init__(self, target: Path, force: bool = False, kind: str = "export") -> None:
        self.target = Path(target)
        self.force = force
        self.kind = kind
        self.files: dict[str, bytes] = {}

    def add(self, rel: str, data: str | bytes) -> None:
        if rel in self.files:
            raise AssertionError(f"export wrote {rel} twice")
        self.files[rel] = data.encode("utf-8") if isinstance(data, str) else data

    def check(self) -> list[str]:
        """Refuse a target we must not write; return the old manifest's files (may be [])."""
        target = self.target
        if target.is_symlink():
            raise DelveError(f"-o {target}: is a symbolic link; an export needs a real folder")
        if target.exists() and not target.is_dir():
            raise DelveError(f"-o {target}: is a file; an export needs a folder")
        parent = target.parent if str(target.parent) else Path(".")
        if not parent.is_dir():
            raise DelveError(f"-o {target}: folder {parent} does not exist")
        if not target.exists():
            return []
        present = sorted(
            p.relative_to(target).as_posix() for p in target.rglob("*") if not p.is_dir()
        )
        if not present:
            return []
        old = _read_manifest(target)
        if old is None:
            raise DelveError(
                f"-o {target}: folder holds files Delve did not write (such as {present[0]}); "
                "choose a new or empty folder"
            )
        if not self.force:
            raise DelveError(
                f"-o {target}: folder holds an earlier export; pass --force to write over it"
            )
        theirs = [rel for rel in self.files if rel not in old and (target / rel).exists()]
        if theirs:
            raise DelveError(
                f"-o {target}: {theirs[0]} is not a file Delve wrote; move it aside first"
            )
        return old

    def commit(self) -> Path:
        """Write every file; return the target folder."""
        old = self.check()
        manifest = {"delve_export": self.kind, "files": sorted(self.files)}
        self.files[MANIFEST] = (json.dumps(manifest, indent=1) + "\n").encode("utf-8")
        target = self.target
        parent = target.parent if str(target.parent) else Path(".")
        try:
            stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
        except OSError as err:
            raise DelveError(f"-o {target}: cannot write in {parent}: {err.strerror}") from None
        try:
            for rel, data in self.files.items():
                path = stage / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            if not old:  # a new folder, or an empty one: the whole export moves in at once
                if target.exists():
                    target.rmdir()
                os.chmod(stage, 0o777 & ~_umask())  # mkdtemp makes it 0700
                os.replace(stage, target)
                return target
            # Over an earlier export (--force): swapped in whole, or not at all.
            both = {"delve_export": self.kind, "files": sorted(set(old) | set(self.files))}
            (stage / UNION).write_text(json.dumps(both, indent=1) + "\n", encoding="utf-8")
            _swap(target, stage, [rel for rel in self.files if rel != MANIFEST], old)
            return target
        except OSError as err:
            raise DelveError(f"-o {target}: cannot write: {err.strerror or err}") from None
        finally:
            shutil.rmtree(stage, ignore_errors=True)


UNION = ".delve-manifest-both.json"  # in the stage: the manifest that names old and new


def _swap(target: Path, stage: Path, new: list[str], old: list[str]) -> None:
    """Move the staged export (`new`, then its manifest) into `target` over the export whose
    manifest named `old`: all of it, or, on any failure, none of it.

    Before anything moves, everything the undo needs is already written (the old manifest's
    copy, the manifest naming both), so undoing only moves files back: it needs no disk space.
    """
    aside = stage / ".old"  # the old export, moved out of the way; the stage is on target's disk
    aside.mkdir()
    shutil.copy2(target / MANIFEST, aside / MANIFEST)
    os.replace(stage / UNION, target / MANIFEST)  # from here, the manifest names every file
    moved_aside: list[str] = []
    moved_in: list[str] = []
    made: list[Path] = []  # folders made in target for the new files
    try:
        for rel in old:
            path = target / rel
            if rel != MANIFEST and (path.is_file() or path.is_symlink()):
                (aside / rel).parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, aside / rel)
                moved_aside.append(rel)
        for rel in new:
            dest = target / rel
            _make_parents(target, dest.parent, made)
            os.replace(stage / rel, dest)
            moved_in.append(rel)
        os.replace(stage / MANIFEST, target / MANIFEST)  # the new export is in: no way back
    except BaseException:
        for rel in reversed(moved_in):
            os.replace(target / rel, stage / rel)
        for folder in reversed(made):
            _rmdir_if_empty(folder)
        for rel in reversed(moved_aside):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(aside / rel, target / rel)
        os.replace(aside / MANIFEST, target / MANIFEST)
        raise
    for rel in moved_aside:  # folders the old export's files left empty
        folder = (target / rel).parent
        while folder != target and _rmdir_if_empty(folder):
            folder = folder.parent


def _make_parents(target: Path, folder: Path, made: list[Path]) -> None:
    """Make `folder` and the folders above it inside `target`, adding each to `made` as it is
    made (so an undo removes them even when the next one fails)."""
    missing = []
    while folder != target and not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir()
        made.append(path)


def _rmdir_if_empty(folder: Path) -> bool:
    try:
        folder.rmdir()
    except OSError:  # not empty (a referee's file), or already gone
        return False
    return True


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _read_manifest(folder: Path) -> list[str] | None:
    """The files an earlier export wrote, or None when the folder holds no manifest of ours."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    # A hand-edited manifest must not name files outside the folder.
    return [f for f in files if f and not Path(f).is_absolute() and ".." not in Path(f).parts]
