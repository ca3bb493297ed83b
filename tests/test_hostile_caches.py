"""A hostile or broken cache folder: nothing in it runs, and any fault is a normal load."""

from __future__ import annotations

import os
import pickle
import stat

import pytest

from generator.engine import cachefiles, tablecache
from generator.engine.tables import TableSet, table_folders


def _mine(tmp_path):
    folder = tmp_path / "mine" / "extra"
    folder.mkdir(parents=True)
    (folder / "thing.yaml").write_text("title: Thing\nentries:\n  - result: A {1d6}\n")
    return tmp_path / "mine"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _key(folders):
    return tablecache.fingerprint(table_folders(folders, use_env=False))


def _tables_file(cache):
    (found,) = cache.glob("tables-*.cache")
    return found


def test_the_cache_is_plain_data_signed_by_a_private_key(tmp_path, cache):
    TableSet.load([_mine(tmp_path)], use_env=False)
    data = _tables_file(cache).read_bytes()
    assert data.startswith(cachefiles.MAGIC)
    payload = data[len(cachefiles.MAGIC) + 32 :]
    head = payload.split(b"\n", 1)[0]
    assert b'"index"' in head and b"\x80" not in payload[:2]  # JSON, not a pickle
    key = cache / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    assert stat.S_IMODE(cache.stat().st_mode) & 0o077 == 0


def test_a_planted_pickle_is_never_unpickled(tmp_path, cache, monkeypatch):
    folders = [_mine(tmp_path)]
    TableSet.load(folders, use_env=False)
    target = _tables_file(cache)
    calls: list[bytes] = []
    monkeypatch.setattr(pickle, "loads", lambda data, **kw: calls.append(data))
    monkeypatch.setattr(pickle, "load", lambda fh, **kw: calls.append(fh))

    class Boom:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'PWNED'}",))

    target.write_bytes(pickle.dumps(Boom()))
    tables = TableSet.load(folders, use_env=False)
    assert tables.get("extra/thing").entries[0].result == "A {1d6}"
    assert calls == [] and not (tmp_path / "PWNED").exists()
    assert _tables_file(cache).read_bytes().startswith(cachefiles.MAGIC)  # written again


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "forge"])
def test_a_damaged_or_forged_file_is_a_normal_load_and_a_rewrite(tmp_path, cache, damage):
    folders = [_mine(tmp_path)]
    TableSet.load(folders, use_env=False)
    target = _tables_file(cache)
    good = target.read_bytes()
    if damage == "flip":
        for at in (len(cachefiles.MAGIC) + 3, len(good) // 2, len(good) - 1):
            bad = good[:at] + bytes([good[at] ^ 0x01]) + good[at + 1 :]
            target.write_bytes(bad)
            assert tablecache.read(_key(folders)) is None
    elif damage == "truncate":
        target.write_bytes(good[: len(good) // 3])
    elif damage == "empty":
        target.write_bytes(b"")
    else:  # a well-formed file with another key's signature: injected table text
        payload = good[len(cachefiles.MAGIC) + 32 :].replace(b"A {1d6}", b"EVIL!!!")
        target.write_bytes(cachefiles.MAGIC + b"\x00" * 32 + payload)
    tables = TableSet.load(folders, use_env=False)
    assert tables.get("extra/thing").entries[0].result == "A {1d6}"
    assert _tables_file(cache).read_bytes() == good  # rewritten, byte for byte


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="owners are a POSIX notion")
def test_a_folder_writable_by_others_is_refused_with_one_warning(tmp_path, cache, monkeypatch):
    cache.mkdir(mode=0o700)
    os.chmod(cache, 0o777)
    warned: list[str] = []
    monkeypatch.setattr(cachefiles, "on_warning", warned.append)
    monkeypatch.setattr(cachefiles, "_warned", set())
    folders = [_mine(tmp_path)]
    assert TableSet.load(folders, use_env=False).has("extra/thing")
    assert TableSet.load(folders, use_env=False).has("extra/thing")
    assert list(cache.iterdir()) == []  # nothing read, nothing written
    assert len(warned) == 1 and "writable by group or others" in warned[0]


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away takes root"
)
def test_a_folder_owned_by_another_user_is_refused_with_one_warning(tmp_path, cache, monkeypatch):
    """A real chown, not a pretended geteuid: the folder belongs to nobody (65534)."""
    folders = [_mine(tmp_path)]
    TableSet.load(folders, use_env=False)  # a good cache of our own first
    planted = _tables_file(cache)
    os.chown(cache, 65534, 65534)
    os.chown(planted, 65534, 65534)
    warned: list[str] = []
    monkeypatch.setattr(cachefiles, "on_warning", warned.append)
    monkeypatch.setattr(cachefiles, "_warned", set())
    before, names = planted.read_bytes(), sorted(p.name for p in cache.iterdir())
    assert TableSet.load(folders, use_env=False).has("extra/thing")
    assert TableSet.load(folders, use_env=False).has("extra/thing")
    assert len(warned) == 1 and "another owner" in warned[0], warned
    assert sorted(p.name for p in cache.iterdir()) == names  # nothing written beside it
    assert planted.read_bytes() == before  # and nothing written over
    assert tablecache.read(_key(folders)) is None


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="owners are a POSIX notion")
def test_a_file_of_another_owner_or_writable_by_others_is_a_miss(tmp_path, cache, monkeypatch):
    folders = [_mine(tmp_path)]
    TableSet.load(folders, use_env=False)
    target = _tables_file(cache)
    key = _key(folders)
    assert key is not None and tablecache.read(key) is not None
    os.chmod(target, 0o666)
    assert tablecache.read(key) is None  # group- or world-writable: not ours alone
    os.chmod(target, 0o600)
    assert tablecache.read(key) is not None
    monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 1)  # as if someone else wrote it
    assert tablecache.read(key) is None


def test_a_symlinked_cache_file_is_not_followed(tmp_path, cache):
    folders = [_mine(tmp_path)]
    TableSet.load(folders, use_env=False)
    target = _tables_file(cache)
    elsewhere = tmp_path / "elsewhere"
    target.rename(elsewhere)
    target.symlink_to(elsewhere)
    assert tablecache.read(_key(folders)) is None


def test_old_cache_files_are_pruned(tmp_path, cache):
    folders = [_mine(tmp_path)]
    thing = tmp_path / "mine" / "extra" / "thing.yaml"
    for i in range(tablecache._KEEP + 5):  # every edit makes a new fingerprint
        thing.write_text(f"title: Thing\nentries:\n  - result: edit {i}\n")
        os.utime(thing, (1_000_000 + i, 1_000_000 + i))
        TableSet.load(folders, use_env=False)
    files = list(cache.glob("tables-*.cache"))
    assert len(files) == tablecache._KEEP
    assert TableSet.load(folders, use_env=False).get("extra/thing").entries[0].result == (
        f"edit {tablecache._KEEP + 4}"
    )


def test_pruning_bounds_the_total_size(tmp_path):
    for i in range(10):
        (tmp_path / f"tpl-{i}").write_bytes(b"x" * 1000)
        os.utime(tmp_path / f"tpl-{i}", (1000 + i, 1000 + i))
    cachefiles.prune(tmp_path, "tpl-", keep=100, max_total=3500)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tpl-7", "tpl-8", "tpl-9"]


def test_the_cached_tables_roll_what_fresh_ones_do(tmp_path, cache):
    from generator.engine.rng import Rng

    folders = [_mine(tmp_path)]
    fresh = TableSet.load(folders, use_env=False)
    cached = TableSet.load(folders, use_env=False)
    assert _tables_file(cache).exists()
    for table_id in ("site/obstacles", "extra/thing", "treasure/valuables"):
        if fresh.has(table_id):
            one = [fresh.roll(table_id, Rng(f"r{i}")).text for i in range(30)]
            two = [cached.roll(table_id, Rng(f"r{i}")).text for i in range(30)]
            assert one == two
