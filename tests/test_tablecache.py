"""The tables cache: reused while nothing changes, rebuilt after any edit, never required."""

from __future__ import annotations

import os
import time

from generator.engine import tablecache
from generator.engine.tables import TableSet


def _user_folder(tmp_path, text="A"):
    folder = tmp_path / "mine"
    (folder / "extra").mkdir(parents=True, exist_ok=True)
    (folder / "extra" / "thing.yaml").write_text(f"title: Thing\nentries:\n  - result: {text}\n")
    return folder


def test_a_clean_load_is_cached_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path / "cache"))
    folder = _user_folder(tmp_path)
    first = TableSet.load([folder], use_env=False)
    files = list((tmp_path / "cache").glob("tables-*.cache"))
    assert len(files) == 1
    second = TableSet.load([folder], use_env=False)
    assert second.ids() == first.ids()
    assert second.get("extra/thing").entries[0].result == "A"


def test_an_edit_is_seen_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path / "cache"))
    folder = _user_folder(tmp_path, "A")
    TableSet.load([folder], use_env=False)
    path = folder / "extra" / "thing.yaml"
    path.write_text("title: Thing\nentries:\n  - result: Bee\n")
    later = time.time() + 5
    os.utime(path, (later, later))
    assert TableSet.load([folder], use_env=False).get("extra/thing").entries[0].result == "Bee"


def test_a_corrupt_cache_is_only_a_miss(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path / "cache"))
    folder = _user_folder(tmp_path)
    TableSet.load([folder], use_env=False)
    for f in (tmp_path / "cache").glob("tables-*.cache"):
        f.write_bytes(b"not a cache file")
    assert TableSet.load([folder], use_env=False).has("extra/thing")


def test_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("DELVE_NO_CACHE", "1")
    assert tablecache.fingerprint([_user_folder(tmp_path)]) is None
    TableSet.load([_user_folder(tmp_path)], use_env=False)
    assert not (tmp_path / "cache").exists()
