"""Export folders: names safe everywhere, ids stable, folders written whole or not at all."""

from __future__ import annotations

import json
import os

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
