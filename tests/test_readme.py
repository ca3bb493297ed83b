"""The README's examples, run: every `delve` line of its shell blocks exits 0, and what its
comment says it prints (`# prints "..."`) or writes (`# writes PATH`) is so.

The YAML blocks whose first line names a file (`# my-tables/site/obstacles.yaml: ...`) are
written there first, and the `mkdir`/`cp` lines run in the same scratch folder (with the
built-in templates where the README's `templates/` is), so the examples run as a reader would
run them, in order.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from generator.render.booklet import builtin_templates_dir

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
CLAIM = re.compile(r"#\s*(prints|writes)\s+(.*)$")


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)


def examples() -> list[tuple[str, str, str]]:
    """(command, claim kind, claim) for every runnable line of the README's shell blocks."""
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            code, _, comment = line.partition("#")
            code = code.strip()
            if not code.startswith(("delve ", "mkdir ")):
                continue  # pip, pytest, ruff and bench lines are the README's own business
            claim = CLAIM.search("#" + comment) if comment else None
            kind, text = (claim.group(1), claim.group(2).strip()) if claim else ("", "")
            out.append((code, kind, text.strip('"')))
    return out


def test_the_readme_has_examples_with_claims():
    runnable = examples()
    assert len(runnable) >= 25
    assert sum(1 for _, kind, _ in runnable if kind) >= 20


def test_every_example_runs_and_does_what_it_says(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "templates").symlink_to(builtin_templates_dir())
    for block in blocks("yaml"):
        first = block.splitlines()[0]
        target = re.match(r"#\s*(\S+\.yaml):", first)
        if target:
            path = tmp_path / target.group(1)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block)
    for code, kind, claim in examples():
        if code.startswith("mkdir "):
            done = subprocess.run(code, shell=True, cwd=tmp_path, capture_output=True, text=True)
            assert done.returncode == 0, (code, done.stderr)
            continue
        args = shlex.split(code)[1:]
        res = run_cli(*args)
        assert res.code == 0, (code, res.err)
        if kind == "prints":
            assert claim in res.out, (code, claim, res.out[:2000])
        elif kind == "writes":
            assert (tmp_path / claim).is_file(), (code, claim, res.err)


@pytest.mark.parametrize(
    "wrong",
    [
        "saltmarch/hex/0302/site",  # a haven in that region: the example it once gave
    ],
)
def test_addresses_the_readme_warns_about_are_refused(run_cli, wrong):
    res = run_cli("site", "--seed", wrong)
    assert res.code == 1 and "haven" in res.err


def test_the_readme_table_of_addresses_names_real_parts(run_cli):
    """Every address in the README's table of addresses that names one part gives it back."""
    table = README[README.index("| address |") : README.index("To give a part back")]
    wanted = {
        "harrowdeep/level/1/room/4": ("site", "Address: harrowdeep/level/1/room/4"),
        "saltmarch/hex/0302": ("region", "Address: saltmarch/hex/0302"),
        "saltmarch/hex/0302/haven": ("region", "Haven address: saltmarch/hex/0302/haven"),
        "saltmarch/hex/0103/lair": ("region", "Lair address: saltmarch/hex/0103/lair"),
        "saltmarch/hex/0303/site": ("site", "Address: saltmarch/hex/0303/site"),
        "saltmarch/hex/0103/lair/hoard": ("hoard", "Address: saltmarch/hex/0103/lair/hoard"),
        "harrowdeep@level=5/level/1/room/4/hoard/weapon": (
            "weapon",
            "Address: harrowdeep@level=5/level/1/room/4/hoard/weapon",
        ),
    }
    for address, (command, says) in wanted.items():
        assert address.split("/")[-1] in table
        res = run_cli(command, "--seed", address)
        assert res.code == 0, (address, res.err)
        assert says in res.out, address


def _named(doc, seed):
    """The part of a JSON document (dicts and lists) whose `seed` is `seed`, or None."""
    if isinstance(doc, dict):
        if doc.get("seed") == seed:
            return doc
        doc = list(doc.values())
    if isinstance(doc, list):
        for item in doc:
            found = _named(item, seed)
            if found is not None:
                return found
    return None


ROOT_COMMAND = {"site": "site", "region": "region", "hoard": "hoard", "weapon": "weapon"}


def _readme_part_addresses() -> list[str]:
    """Every address of a part the README shows: in its shell examples and its address table."""
    found = set(re.findall(r"--seed ([\w@=+/-]+/[\w@=+/-]+)", "\n".join(blocks("sh"))))
    table = README[README.index("| address |") : README.index("To give a part back")]
    for a in re.findall(r"`([\w@=+./-]+/[\w/@=+.-]+)`", table):
        # `.../hex/0302/haven` is saltmarch's, as the row before it; `.../reroll/1/...` the hex
        a = re.sub(r"^\.\.\./", "saltmarch/", a).removesuffix("/...")
        if "..." not in a:
            found.add(a)
    return sorted(found)


def test_each_readme_address_gives_back_the_very_part_its_root_holds(run_cli):
    """Issue 12: `delve hoard --seed harrowdeep/level/1/room/4/hoard` with no other option is
    room 4's hoard as the site holds it (worth and holders' die and all); the same for every
    part address the README names: rooms, weapons, a region's hexes, havens, lairs, their
    hoards, a hex's site, a re-rolled hex, the n-th of a --count."""
    from generator.build import address

    addresses = _readme_part_addresses()
    assert {"harrowdeep/level/1/room/4/hoard", "saltmarch/hex/0303/site"} <= set(addresses)
    assert len(addresses) >= 11, addresses
    roots: dict[tuple[str, ...], object] = {}
    for text in addresses:
        a = address.parse(text)
        kind = a.root_kind
        args = [ROOT_COMMAND[kind], "--seed", a.root]
        args += [
            f"--reroll={lab}"
            for lab, n in re.findall(r"hex/(\d{4})/reroll/(\d+)", a.path)
            for _ in range(int(n))
        ]
        if re.match(r"(hoard|weapon)/(\d+)", a.path):  # the n-th of a --count
            args += ["--count", a.path.split("/")[1]]
        key = tuple(args)
        if key not in roots:
            made = run_cli(*args, "-f", "json")
            assert made.code == 0, (args, made.err)
            roots[key] = json.loads(made.out)
        held = _named(roots[key], text)
        assert held is not None, (text, "is not a part of", args)
        part = run_cli(_command_for(text), "--seed", text, "-f", "json")
        assert part.code == 0, (text, part.err)
        assert json.loads(part.out) == held, text


def _command_for(text: str) -> str:
    """The command the README's table names for a part's address, by its last steps."""
    last = text.rsplit("/", 1)[-1]
    if last == "hoard" or re.search(r"/hoard/\d+$", text):
        return "hoard"
    if last == "weapon" or re.search(r"/weapon/\d+$", text):
        return "weapon"
    if re.search(r"/room/\d+$", text) or last == "site":
        return "site"
    return "region"
