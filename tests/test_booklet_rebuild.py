"""Issue 12: every command a document prints to make itself again makes the same bytes.

A booklet's cover, a key's `Rebuild:` line and a hoard's or weapon's "... rebuilds it" are run
as printed, over a matrix of the options that change what is written (tables folders from
--tables and DELVE_TABLES, --system, --no-danger and --danger, --paper, --templates, --mono,
--reroll, the generators' own options, each format that prints a command), and what they write
is compared byte for byte with the first. A document a referee edited prints `delve render FILE`
instead, and says so on its cover: its seed no longer makes it.
"""

from __future__ import annotations

import html as htmllib
import io
import json
import re
import shlex
from pathlib import Path

import pypdf
import pytest

from generator.render.booklet import builtin_templates_dir


def _command_in(fmt: str, data: bytes) -> list[str]:
    """The command a document prints to make itself again, as arguments."""
    if fmt in ("text", "md"):
        line = next(x for x in data.decode().splitlines() if x.startswith("Rebuild: "))
        return shlex.split(line[len("Rebuild: ") :])
    if fmt == "html":
        shown = re.search(r'<span class="seed command">(.*?)</span></p>', data.decode()).group(1)
        return shlex.split(htmllib.unescape(re.sub(r"<[^>]+>", "", shown)))
    cover = pypdf.PdfReader(io.BytesIO(data)).pages[0].extract_text()
    flat = re.sub(r"\s+", " ", cover)
    # The contents heading that follows is in small capitals: any mix of cases in the text layer.
    found = re.search(r"byte for byte: ((?:DELVE_TABLES=\S+ )?delve .*?)(?: (?i:contents)|$)", flat)
    assert found, flat[:600]
    return shlex.split(found.group(1))


def _run(run_cli, monkeypatch, args: list[str]) -> tuple[bytes, str]:
    """Run a printed command (DELVE_TABLES=... first when it names one): what it wrote (the
    file it names on stderr, else stdout) and its stderr."""
    monkeypatch.delenv("DELVE_TABLES", raising=False)
    if args[0].startswith("DELVE_TABLES="):
        monkeypatch.setenv("DELVE_TABLES", args[0].split("=", 1)[1])
        args = args[1:]
    assert args[0] == "delve", args
    res = run_cli(*args[1:])
    assert res.code == 0, (args, res.err)
    wrote = re.search(r"wrote (\S+)", res.err)
    data = Path(wrote.group(1)).read_bytes() if wrote else res.out.encode()
    return data, res.err


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    """A working folder with a tables folder and a templates folder of a referee's own."""
    monkeypatch.chdir(tmp_path)
    for name, text in (("my-tables", "old rope"), ("more-tables", "wet fur")):
        folder = tmp_path / name / "site"
        folder.mkdir(parents=True)
        (folder / "room-smells.yaml").write_text(f"title: Smells\nentries:\n  - result: {text}\n")
    cover = (builtin_templates_dir() / "parts" / "cover.html.j2").read_text(encoding="utf-8")
    mine = tmp_path / "my-look" / "parts"
    mine.mkdir(parents=True)
    (mine / "cover.html.j2").write_text(cover.replace("<h1>", "<h1>Mine: "), encoding="utf-8")
    (mine / "region_cover.html.j2").write_text(
        (builtin_templates_dir() / "parts" / "region_cover.html.j2")
        .read_text(encoding="utf-8")
        .replace("<h1>", "<h1>Mine: "),
        encoding="utf-8",
    )
    (tmp_path / "my party.yaml").write_text(
        "party:\n  - {name: Brakka, class: fighter, level: 2}\n"
        "  - {name: Wick, class: mage, level: 2}\n",
        encoding="utf-8",
    )
    return tmp_path


# (environment DELVE_TABLES, the command's arguments, the format): every option that changes
# the bytes is in some row, with formats that print a command in each kind of document.
MATRIX = [
    ("", "site --seed m1 --rooms 12 --theme bog-barrow --no-danger --system fortmayn", "text"),
    ("", "--tables my-tables site --seed m2 --level 2", "md"),
    (
        "my-tables",
        "--tables more-tables site --seed m3 --no-danger --paper a5 --templates my-look "
        "--system f4c",
        "html",
    ),
    ("", "site --seed m4 --no-danger --paper letter --system fantasy-core", "pdf"),
    ("", "site --seed m5 --paper letter", "html"),
    ("", "region --seed r1 --reroll 0302 --no-danger --hex-miles 6", "text"),
    (
        "",
        "region --seed r2 --mono --no-danger --paper a5 --reroll 0302 --reroll 0302 "
        "--system fortmayn --templates my-look",
        "html",
    ),
    ("", "--tables my-tables region --seed r3 --level 2 --system f4c", "md"),
    ("more-tables", "region --seed r4 --size 3x2 --no-danger --mono", "pdf"),
    # --party and --trials change every danger figure (a party file prints as it was given).
    ("", "site --seed p1 --party fighter:2,mage:2 --trials 500", "pdf"),
    ("", "site --seed p2 --rooms 12 --party 'my party.yaml' --trials 300", "text"),
    ("", "region --seed p4 --trials 400 --party fighter:1,mage:1", "html"),
]


@pytest.mark.parametrize(("env", "command", "fmt"), MATRIX)
def test_the_printed_command_makes_the_same_bytes(run_cli, scratch, monkeypatch, env, command, fmt):
    args = ["delve", *shlex.split(command), "--format", fmt]
    if fmt in ("html", "pdf"):
        args += ["-o", f"first.{fmt}"]
    if env:
        args.insert(0, f"DELVE_TABLES={env}")
    first, _ = _run(run_cli, monkeypatch, args)
    printed = _command_in(fmt, first)
    for option in ("--no-danger", "--system", "--paper", "--templates", "--mono", "--tables"):
        assert (option in command) == (option in printed), (option, printed)
    for option in ("--party", "--trials"):  # as given, word for word
        given = shlex.split(command)
        if option in given:
            assert option in printed, printed
            value = given[given.index(option) + 1]
            assert printed[printed.index(option) + 1] == value, printed
        else:
            assert option not in printed, printed
    assert printed[0].startswith("DELVE_TABLES=") == bool(env), printed
    assert printed.count("--reroll") == command.count("--reroll"), printed
    again, _ = _run(run_cli, monkeypatch, printed)
    assert again == first, printed


@pytest.mark.parametrize(
    ("kind", "made", "render"),
    [
        ("site", "site --seed d1 --rooms 12 --system f4c", "--format html --no-danger --paper a5"),
        ("region", "region --seed d2 --reroll 0302", "--format html --mono --no-danger"),
        ("site", "site --seed d3 --danger", "--format text --system fortmayn"),
    ],
)
def test_an_unedited_document_rendered_prints_its_seed_command(
    run_cli, scratch, monkeypatch, kind, made, render
):
    """`delve render` of a document its seed makes: the printed command is the seed's (the
    same bytes: `render` and the generator agree), with every option of the render."""
    res = run_cli(*shlex.split(made), "-f", "json", "-o", "doc.json")
    assert res.code == 0, res.err
    fmt = render.split()[1]
    out = ["-o", f"first.{fmt}"] if fmt == "html" else []
    first, _ = _run(run_cli, monkeypatch, ["delve", "render", "doc.json", *render.split(), *out])
    printed = _command_in(fmt, first)
    assert printed[1] == kind and "render" not in printed, printed
    if fmt == "html":
        assert "edited document" not in first.decode()
    again, _ = _run(run_cli, monkeypatch, printed)
    assert again == first, printed


@pytest.mark.parametrize(
    ("made", "render", "prints"),
    [
        # Estimates for another party, kept: its seed's command would estimate for the default.
        ("site --seed k1 --party fighter:2,mage:2 --trials 300", "", "render"),
        ("region --seed k2 --trials 300", "", "render"),
        # New estimates asked for: the seed's command with the same --party and --trials.
        (
            "site --seed k3 --party fighter:2,mage:2",
            "--party fighter:1,mage:1 --trials 200",
            "site",
        ),
        # The default party's estimates, kept: the seed's command makes them.
        ("site --seed k4", "", "site"),
    ],
)
def test_a_document_with_its_own_estimates_prints_a_command_that_keeps_them(
    run_cli, scratch, monkeypatch, made, render, prints
):
    """A document whose danger was estimated for another party (or trials) rendered as it is
    keeps those figures, which `delve site --seed ...` would not make: it prints `delve render
    FILE`. Rendered with a --party or --trials of its own, the seed's command carries them."""
    res = run_cli(*shlex.split(made), "-f", "json", "--danger", "-o", "doc.json")
    assert res.code == 0, res.err
    for fmt in ("text", "html"):
        out = ["-o", "first.html"] if fmt == "html" else []
        args = ["delve", "render", "doc.json", "--format", fmt, *shlex.split(render), *out]
        first, _ = _run(run_cli, monkeypatch, args)
        printed = _command_in(fmt, first)
        assert printed[1] == prints, printed
        for option in ("--party", "--trials"):
            assert (option in printed) == (option in render), printed
        if fmt == "html":  # the cover says why its seed does not make it, and not 'edited'
            assert ("estimated for another party" in first.decode()) == (prints == "render")
            assert "edited document" not in first.decode()
        again, _ = _run(run_cli, monkeypatch, printed)
        assert again == first, printed


@pytest.mark.parametrize(
    ("made", "fmt"),
    [("site --seed e1", "pdf"), ("region --seed e2 --reroll 0302", "text")],
)
def test_an_edited_document_prints_the_render_command(run_cli, scratch, monkeypatch, made, fmt):
    """Issue 12: a hand-edited document's cover claimed its seed made it byte for byte. Now it
    says it was made from an edited document, and prints the `delve render` that makes it."""
    assert run_cli(*shlex.split(made), "-f", "json", "-o", "doc.json").code == 0
    data = json.loads(Path("doc.json").read_text(encoding="utf-8"))
    data["name"] = "The Pit Nobody Rolled"
    Path("edited.json").write_text(json.dumps(data), encoding="utf-8")
    out = ["-o", f"first.{fmt}"] if fmt == "pdf" else []
    args = ["delve", "render", "edited.json", "--format", fmt, "--no-danger", *out]
    first, _ = _run(run_cli, monkeypatch, args)
    printed = _command_in(fmt, first)
    assert printed[:3] == ["delve", "render", "edited.json"], printed
    if fmt == "pdf":
        cover = re.sub(r"\s+", " ", pypdf.PdfReader(io.BytesIO(first)).pages[0].extract_text())
        assert "from an edited document" in cover
    again, _ = _run(run_cli, monkeypatch, printed)
    assert again == first
    # What its seed makes is another document: the claim would have been false.
    seed_made, _ = _run(
        run_cli,
        monkeypatch,
        ["delve", *shlex.split(made), "--format", fmt, "--no-danger", "-o", f"seed.{fmt}"],
    )
    assert seed_made != first


def _rebuilds_it(text: str) -> list[list[str]]:
    """Every '(COMMAND rebuilds it)' of a treasure text, as arguments (lines joined: a long
    command wraps)."""
    flat = re.sub(r"\s+", " ", text)
    return [
        shlex.split(c)
        for c in re.findall(r"\(((?:DELVE_TABLES=\S+ )?delve .*?) rebuilds it\)", flat)
    ]


@pytest.mark.parametrize(
    ("env", "command"),
    [
        ("", "--tables my-tables hoard --seed harrowdeep/level/1/room/4/hoard --system fortmayn"),
        ("my-tables", "weapon --seed ember --die d10 --system f4c"),
        ("", "--tables my-tables hoard --seed ember --value 600 --count 2"),
        ("more-tables", "weapon --seed ember/level/1/room/4/hoard/weapon"),
        ("", "--tables my-tables --tables more-tables hoard --seed e2 --level 3 --holder-die d8"),
    ],
)
def test_a_hoard_or_weapon_prints_the_command_that_rebuilds_it(
    run_cli, scratch, monkeypatch, env, command
):
    """Issue 12: `delve --tables mt hoard --seed ...` said `delve hoard --seed ...` rebuilds it,
    without the tables folder (or the rules system) it was printed with."""
    args = ["delve", *shlex.split(command)]
    if env:
        args.insert(0, f"DELVE_TABLES={env}")
    first, _ = _run(run_cli, monkeypatch, args)
    commands = _rebuilds_it(first.decode())
    assert commands and len(commands) == (2 if "--count 2" in command else 1)
    for printed in commands:
        assert printed[0].startswith("DELVE_TABLES=") == bool(env), printed
        assert ("--tables" in printed) == ("--tables" in command), printed
        assert ("--system" in printed) == ("--system" in command), printed
        again, _ = _run(run_cli, monkeypatch, printed)
        assert again.decode() in first.decode() + "\n", printed
        assert _rebuilds_it(again.decode()) == [printed]
