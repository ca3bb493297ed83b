"""Hostile arguments and output targets: seeds, counts, stdout and -o. One line each, and
nothing that is not a regular file is ever replaced."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from generator.output import MAX_STEM, default_path, safe_name, write_atomic


def one_line(result, *needles: str) -> None:
    lines = result.err.splitlines()
    assert result.code == 1, result.err
    assert len(lines) == 1 and lines[0].startswith("delve: error: "), result.err
    assert "Traceback" not in result.err
    for needle in needles:
        assert needle in result.err, (needle, result.err)


# --------------------------------------------------------------------------- seeds


def test_a_long_seed_makes_a_short_unique_file_name(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    seed = "s" * 300
    result = run_cli("site", "--seed", seed, "--format", "svg")
    assert result.code == 0, result.err
    (written,) = (tmp_path / "output").glob("site-*.svg")
    assert len(written.name) < 120 and written.name.startswith("site-" + "s" * MAX_STEM + "-")
    assert safe_name(seed) != safe_name(seed + "t")
    assert default_path("site", "harrowdeep", "svg").name == "site-harrowdeep.svg"  # unchanged


@pytest.mark.parametrize("seed", ["漢" * 80, "🐉" * 120, "é" * 300, "a" + "ü" * 90])
def test_a_long_multibyte_seed_names_its_file_in_bytes(run_cli, tmp_path, monkeypatch, seed):
    """80 CJK characters are 240 bytes, and with `site-`, a digest and `.svg` the name passed
    the 255 bytes a file name may hold (ENAMETOOLONG): names are cut by bytes."""
    monkeypatch.chdir(tmp_path)
    result = run_cli("site", "--seed", seed, "--format", "svg")
    assert result.code == 0, result.err
    (written,) = (tmp_path / "output").glob("site-*.svg")
    assert len(written.name.encode("utf-8")) <= 160, written.name
    assert safe_name(seed) != safe_name(seed[:-1]) and safe_name(seed).count("-") >= 1


def test_seeds_of_symbols_alone_do_not_share_a_file(tmp_path):
    assert safe_name("🐉🐉") != safe_name("🐍🐍")
    assert safe_name("saltmarch@size=12x8") == "saltmarch_size_12x8"  # addresses read as before


@pytest.mark.parametrize(
    ("seed", "says"),
    [
        ("a\x00b", "control character (U+0000)"),
        ("a\x1b[2Jb", "control character (U+001B)"),
        ("a\udcffb", "not UTF-8 text"),
        ("x" * 5000, "longer than 1,000 characters"),
    ],
    ids=["nul", "esc", "undecodable", "5000"],
)
def test_a_seed_that_is_not_plain_text_is_one_line(run_cli, tmp_path, monkeypatch, seed, says):
    monkeypatch.chdir(tmp_path)
    for command in (["site", "--format", "svg"], ["site", "--format", "graphml"], ["hoard"]):
        result = run_cli(*command, "--seed", seed)
        one_line(result, says)
    assert not (tmp_path / "output").exists() or not list((tmp_path / "output").iterdir())


def test_an_undecodable_byte_on_the_real_command_line_is_one_line(tmp_path):
    """The bytes as a shell passes them: Python decodes \\xff to a lone surrogate."""
    result = subprocess.run(
        [sys.executable, "-m", "generator", "site", "--seed", os.fsdecode(b"a\xffb")],
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 1 and err.count("\n") == 1 and "not UTF-8 text" in err, err


# --------------------------------------------------------------------------- counts


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["weapon", "--count", "99999999999"], "--count: at most 1,000"),
        (["hoard", "--count", "5000"], "--count: at most 1,000"),
        (["roll", "d6", "--times", "99999999999"], "--times: at most 10,000"),
        (["tables", "roll", "site/obstacles", "--times", "99999999999"], "--times: at most"),
        (["hoard", "--level", "1000000000000", "--seed", "a"], "--level: must be 1 to 30"),
        (["hoard", "--value", "10000000000000000000000", "--seed", "a"], "at most 100,000,000"),
        (["hoard", "--seed", "a@value=99999999999999999999"], "at most 100,000,000"),
        (["region", "--seed", "salt/hex/0302/reroll/100000000"], "at most 999 re-rolls"),
        (["region", "--seed", "salt", *["--reroll", "0302"] * 1000], "at most 999 re-rolls"),
    ],
    ids=["weapons", "hoards", "roll", "tables-roll", "level", "value", "value-address",
         "reroll-address", "reroll-option"],
)  # fmt: skip
def test_counts_past_reason_are_one_line_at_once(run_cli, bounded, args, says):
    with bounded(seconds=60, memory_mb=1024):
        result = run_cli(*args)
    one_line(result, says)


# --------------------------------------------------------------------------- output


def test_stdout_to_a_full_disk_is_one_line(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "generator", "site", "--seed", "full", "-f", "json"],
            stdout=full,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
        )
    err = result.stderr.decode()
    assert result.returncode == 1 and err.count("\n") == 1, err
    assert "cannot write to standard output" in err and "Traceback" not in err


def test_an_output_folder_that_is_a_file_is_one_line(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "output").write_text("mine")
    one_line(run_cli("site", "--seed", "blocked", "--format", "svg"), "output: is a file")
    assert (tmp_path / "output").read_text() == "mine"


def _targets(tmp_path):
    regular = tmp_path / "regular.txt"
    regular.write_text("keep")
    link = tmp_path / "link.json"
    link.symlink_to(regular)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    readonly = tmp_path / "readonly.json"
    readonly.write_text("keep")
    os.chmod(readonly, 0o444)
    out = {"symlink": (link, "symbolic link"), "fifo": (fifo, "not a regular file")}
    out["read-only"] = (readonly, "is read-only")
    if os.geteuid() == 0:  # a device node of our own, never the system's /dev/null
        device = tmp_path / "null"
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        out["device"] = (device, "not a regular file")
    return out


@pytest.mark.parametrize("kind", ["symlink", "fifo", "read-only", "device"])
@pytest.mark.parametrize("fmt", ["json", "svg", "html"])
def test_o_onto_anything_but_a_regular_file_is_refused(run_cli, tmp_path, kind, fmt):
    targets = _targets(tmp_path)
    if kind not in targets:
        pytest.skip("making a device node needs root")
    target, says = targets[kind]
    before = os.lstat(target)
    result = run_cli("site", "--seed", "targets", "--format", fmt, "-o", target)
    one_line(result, str(target), says)
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert (tmp_path / "regular.txt").read_text() == "keep"


def test_new_files_respect_the_umask_and_old_ones_keep_their_mode(tmp_path):
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o600
    os.chmod(tmp_path / "new.txt", 0o640)
    assert write_atomic(tmp_path / "new.txt", "y") is True
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_render_says_what_it_replaced(run_cli, tmp_path):
    doc = tmp_path / "site.json"
    assert run_cli("site", "--seed", "replace", "-f", "json", "-o", doc).code == 0
    target = tmp_path / "site.html"
    first = run_cli("render", doc, "-f", "html", "-o", target, "--no-danger")
    assert first.code == 0 and "replacing" not in first.err
    again = run_cli("render", doc, "-f", "html", "-o", target, "--no-danger")
    assert again.code == 0 and f"wrote {target} (replacing the file there)" in again.err
