"""Export folders: names safe everywhere, ids stable, folders written whole or not at all."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import DelveError
from generator.export.files import MANIFEST, FolderWriter, Names, safe_stem, stable_id

FORBIDDEN = set('<>:"/\\|?*#^[]`$%=~')
RESERVED = {"CON", "PRN", "AUX", "NUL"} | {f"{p}{i}" for p in ("COM", "LPT") for i in range(10)}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_safe_stem_is_a_file_name_every_system_takes(text):
    name = safe_stem(text)
    assert name and len(name) <= 80
    assert not FORBIDDEN & set(name)
    assert all(ord(c) >= 32 and ord(c) != 127 for c in name)
    assert not name.endswith((".", " ")) and not name.startswith((".", " "))
    assert name.split(".")[0].upper() not in RESERVED
    assert safe_stem(name) == name  # a safe name stays as it is


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Room 1: the crypt?", "Room 1 the crypt"),
        ("CON", "CON_"),
        ("nul.txt", "nul.txt_"),
        ("trailing dots...", "trailing dots"),
        ("...", "untitled"),
        ("[[evil]] | #tag", "evil tag"),
        ("`code` $x$ %% c %% ==h== ~~s~~", "code x c h s"),
    ],
)
def test_safe_stem_examples(text, expected):
    assert safe_stem(text) == expected


def test_names_that_clash_get_a_suffix_ignoring_case():
    names = Names()
    assert names.claim("Rooms", "Crypt", "md") == "Rooms/Crypt.md"
    assert names.claim("Rooms", "crypt", "md") == "Rooms/crypt 2.md"
    assert names.claim("Rooms", "Crypt?", "md") == "Rooms/Crypt 3.md"
    assert names.claim("Other", "Crypt", "md") == "Other/Crypt.md"
    assert names.folder("Sites", "Crypt") == "Sites/Crypt"
    assert names.folder("Sites", "Crypt") == "Sites/Crypt 2"


def test_stable_ids_look_like_foundrys_and_do_not_collide():
    ids = {stable_id("x", str(i)) for i in range(5000)}
    assert len(ids) == 5000
    assert all(len(i) == 16 and i.isalnum() and i.isascii() for i in ids)
    assert stable_id("a", "b") == stable_id("a", "b") != stable_id("ab")


def _writer(target, force=False, files=None):
    w = FolderWriter(target, force)
    for rel, data in (files or {"a.md": "A", "sub/b.md": "B"}).items():
        w.add(rel, data)
    return w


def test_a_new_folder_is_written_with_its_manifest(tmp_path):
    target = tmp_path / "vault"
    _writer(target).commit()
    assert (target / "a.md").read_text() == "A"
    assert (target / "sub/b.md").read_text() == "B"
    assert json.loads((target / MANIFEST).read_text())["files"] == ["a.md", "sub/b.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vault"]  # no staging folder left


def test_an_empty_folder_is_written_into(tmp_path):
    target = tmp_path / "vault"
    target.mkdir()
    _writer(target).commit()
    assert (target / "a.md").exists()


def test_an_earlier_export_needs_force_and_keeps_files_delve_did_not_write(tmp_path):
    target = tmp_path / "vault"
    _writer(target).commit()
    (target / "my notes.md").write_text("mine")
    with pytest.raises(DelveError, match="--force"):
        _writer(target, files={"a.md": "A2"}).commit()
    assert (target / "a.md").read_text() == "A"
    _writer(target, force=True, files={"a.md": "A2"}).commit()
    assert (target / "a.md").read_text() == "A2"
    assert not (target / "sub").exists()  # the old export's file is gone, and its folder
    assert (target / "my notes.md").read_text() == "mine"  # never ours, never touched


def test_force_never_overwrites_a_file_delve_did_not_write(tmp_path):
    target = tmp_path / "vault"
    _writer(target).commit()
    (target / "c.md").write_text("mine")
    with pytest.raises(DelveError, match="c.md is not a file Delve wrote"):
        _writer(target, force=True, files={"a.md": "A", "c.md": "C"}).commit()
    assert (target / "c.md").read_text() == "mine"


def test_a_folder_of_other_files_is_refused_even_with_force(tmp_path):
    target = tmp_path / "notes"
    target.mkdir()
    (target / "diary.md").write_text("mine")
    with pytest.raises(DelveError, match="Delve did not write"):
        _writer(target, force=True).commit()
    assert sorted(os.listdir(target)) == ["diary.md"]


def test_a_file_is_not_a_folder(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    with pytest.raises(DelveError, match="is a file"):
        _writer(target).check()


def test_a_hand_edited_manifest_cannot_reach_outside_the_folder(tmp_path):
    target = tmp_path / "vault"
    _writer(target).commit()
    outside = tmp_path / "precious.md"
    outside.write_text("keep")
    (target / MANIFEST).write_text(json.dumps({"files": ["../precious.md", "a.md"]}))
    _writer(target, force=True, files={"z.md": "Z"}).commit()
    assert outside.read_text() == "keep"


def test_linker_links_the_longest_first_mention_once_and_escapes_the_rest():
    from generator.export.links import Linker, escape_markdown

    def fmt(target, shown):
        return f"[[{target}|{shown}]]"

    linker = Linker(
        [("Bog Hag", "M/hag"), ("bog hags", "M/hag"), ("Bog", "M/bog"), ("hex 0303", "H/0303")],
        fmt,
        escape_markdown,
    )
    text = "Two bog hags [[x]] wait in hex 0303; a Bog Hag waits in hex 03030 too. Bog!"
    out = linker.link(text, skip="")
    assert out == (
        "Two [[M/hag|bog hags]] \\[\\[x\\]\\] wait in [[H/0303|hex 0303]]; a Bog Hag waits in "
        "hex 03030 too. [[M/bog|Bog]]!"
    )
    assert linker.link("a Bog Hag", skip="M/hag") == "a Bog Hag"  # a note never links itself
    under = Linker([("Bog", "S/bog")], fmt, escape_markdown, parent=linker)
    assert under.link("Bog Hag by the Bog") == "[[M/hag|Bog Hag]] by the [[S/bog|Bog]]"
    # A seed address is one word to copy: nothing inside it is linked.
    address = "Rebuild: delve site --seed saltmarch@radius=3/hex/0303/site (see hex 0303)."
    assert linker.link(address) == address.replace("hex 0303)", "[[H/0303|hex 0303]])")
    assert linker.link("bog@level=2+rooms=12") == "bog@level=2+rooms=12"


# --------------------------------------------------------------------------- --force, atomically

OLD = {"a.md": "A", "sub/b.md": "B", "keep/c.md": "C", "gone/deep/d.md": "D"}
NEW = {"a.md": "A2", "keep/c.md": "C2", "fresh/e.md": "E", "fresh/more/f.md": "F"}
THEIRS = {"mine.md": "my notes", "keep/mine.md": "mine too", "sub/notes.md": "and these"}


def snapshot(folder) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def an_old_export(target):
    """An earlier export with the referee's own files beside and among its own."""
    _writer(target, files=OLD).commit()
    for rel, text in THEIRS.items():
        (target / rel).write_text(text)
    return snapshot(target)


class Failing:
    """Stands in for os.replace or Path.mkdir: the `at`-th call (and, if `stay`, every later
    one) fails as a full disk does, or with an exception nobody foresaw."""

    def __init__(self, real, at, error, stay=False):
        self.real, self.at, self.error, self.stay, self.calls = real, at, error, stay, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.calls == self.at or (self.stay and self.calls > self.at):
            raise self.error
        return self.real(*args, **kwargs)

    def __get__(self, instance, owner):  # as a method (Path.mkdir), bound to its path
        return self if instance is None else functools.partial(self, instance)


def calls_in_a_rewrite(tmp_path, monkeypatch, obj, name) -> int:
    target = tmp_path / "count"
    an_old_export(target)
    counter = Failing(getattr(obj, name), 0, None)
    monkeypatch.setattr(obj, name, counter)
    _writer(target, force=True, files=NEW).commit()
    monkeypatch.undo()
    return counter.calls


DISK_FULL = OSError(28, "No space left on device")


@pytest.mark.parametrize(
    ("obj", "name", "error"),
    [
        (os, "replace", DISK_FULL),
        (os, "replace", RuntimeError("moving went wrong")),
        (Path, "mkdir", DISK_FULL),
    ],
    ids=["replace-disk-full", "replace-exception", "mkdir-disk-full"],
)
def test_force_over_an_export_is_all_or_nothing(tmp_path, monkeypatch, obj, name, error):
    """Whichever step of a --force rewrite fails, the folder is the old export exactly (the
    referee's files untouched), no staging folder is left, and the next --force works."""
    fresh = tmp_path / "fresh"
    an_old_export(fresh)
    _writer(fresh, force=True, files=NEW).commit()
    after_rewrite = snapshot(fresh)
    total = calls_in_a_rewrite(tmp_path, monkeypatch, obj, name)
    assert total >= (10 if name == "replace" else 3)  # every step is tried
    for at in range(1, total + 1):
        target = tmp_path / f"at{at}"
        before = an_old_export(target)
        monkeypatch.setattr(obj, name, Failing(getattr(obj, name), at, error))
        with pytest.raises((DelveError, RuntimeError)):
            _writer(target, force=True, files=NEW).commit()
        monkeypatch.undo()
        assert snapshot(target) == before, f"failing at step {at} of {total} left a mix"
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(f".at{at}.")]
        _writer(target, force=True, files=NEW).commit()
        assert snapshot(target) == after_rewrite


def test_a_rewrite_that_cannot_even_undo_is_cleared_by_the_next_force(tmp_path, monkeypatch):
    """A crash, or a disk that fails the undo too, can leave a mix; the manifest then names
    the old files and the new, so the next --force clears it and writes the new export."""
    fresh = tmp_path / "fresh"
    an_old_export(fresh)
    _writer(fresh, force=True, files=NEW).commit()
    for at in range(2, 10):
        target = tmp_path / f"at{at}"
        an_old_export(target)
        monkeypatch.setattr(os, "replace", Failing(os.replace, at, DISK_FULL, stay=True))
        with pytest.raises(DelveError, match="cannot write"):
            _writer(target, force=True, files=NEW).commit()
        monkeypatch.undo()
        assert {rel: (target / rel).read_text() for rel in THEIRS} == THEIRS
        _writer(target, force=True, files=NEW).commit()
        assert snapshot(target) == snapshot(fresh), at
