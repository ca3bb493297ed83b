"""The README's examples, run: every `delve` line of its shell blocks exits 0, and what its
comment says it prints (`# prints "..."`) or writes (`# writes PATH`, `# writes A and B`,
`# writes PATH, with "..." in it`) is so. A comment in a shell block that says anything else
fails the test until it is rewritten as one of those: no claim goes unchecked.

The YAML blocks whose first line names a file (`# my-tables/site/obstacles.yaml: ...`) are
written there first, and the `mkdir`/`cp` lines run in the same scratch folder (with the
built-in templates where the README's `templates/` is), so the examples run as a reader would
run them, in order. Every text a README table example gives prints in what those tables make.
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
CLAIM = re.compile(
    r'^prints "(?P<prints>[^"]+)"$'
    r'|^writes (?P<writes>[^",]+(?:(?:, | and )[^",]+)*?)(?:, with "(?P<holding>[^"]+)" in it)?$'
)


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)


def examples() -> list[tuple[str, dict[str, str]]]:
    """(command, claim) for every runnable line of the README's shell blocks: `delve` lines,
    the `delve` after a `pip install ... &&`, and `mkdir` lines. The claim is {} or one of
    prints / writes (with holding). Raises on a comment that is not a claim this reads."""
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            code, hash_, comment = line.partition("#")
            code = code.strip()
            if "&& delve " in code:  # `pip install . && delve site ...`: the delve part runs
                code = "delve " + code.split("&& delve ", 1)[1]
            claim: dict[str, str] = {}
            if hash_:
                found = CLAIM.match(comment.strip())
                if found is None or not code.startswith("delve "):
                    raise AssertionError(f"README comment no test reads: {line.strip()!r}")
                claim = {k: v for k, v in found.groupdict().items() if v}
            if code.startswith(("delve ", "mkdir ")):
                out.append((code, claim))
    return out


def _paths(writes: str) -> list[str]:
    return [p.strip() for p in re.split(r", | and ", writes)]


def test_every_readme_comment_is_a_claim_the_test_checks():
    """Issue 12: comments such as `# one fight, 2,000 times` were read by nobody."""
    runnable = examples()  # raises on an unreadable comment
    assert len(runnable) >= 25
    assert sum(1 for _, claim in runnable if claim) >= 30
    assert any("holding" in claim for _, claim in runnable)
    assert any(len(_paths(claim.get("writes", ""))) > 1 for _, claim in runnable)


def test_a_comment_the_test_cannot_read_fails_it(monkeypatch):
    import test_readme

    for bad in ("# one fight, 2,000 times", "# output/site-harrowdeep.svg", "# ...edit, then:"):
        text = f"```sh\ndelve site --seed x   {bad}\n```\n"
        monkeypatch.setattr(test_readme, "README", text)
        with pytest.raises(AssertionError, match="README comment no test reads"):
            test_readme.examples()


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
    for code, claim in examples():
        if code.startswith("mkdir "):
            done = subprocess.run(code, shell=True, cwd=tmp_path, capture_output=True, text=True)
            assert done.returncode == 0, (code, done.stderr)
            continue
        for path in _paths(claim.get("writes", "")) if "writes" in claim else ():
            (tmp_path / path).unlink(missing_ok=True)  # written by this example, not before
        args = shlex.split(code)[1:]
        res = run_cli(*args)
        assert res.code == 0, (code, res.err)
        if "prints" in claim:
            assert claim["prints"] in res.out, (code, claim, res.out[:2000])
        for path in _paths(claim["writes"]) if "writes" in claim else ():
            assert (tmp_path / path).is_file(), (code, path, res.err)
            if "holding" in claim:
                assert claim["holding"] in (tmp_path / path).read_text(), (code, claim)


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


def _text_pattern(text: str) -> re.Pattern[str]:
    """A table text as what it prints: each die a number (with its noun when it counts one)."""
    from generator.engine.texts import compile_template

    tpl = compile_template(text)
    if tpl.static is not None:
        return re.compile(re.escape(tpl.static))
    out = []
    for part in tpl.parts:
        if isinstance(part, str):
            out.append(re.escape(part))
        else:
            assert part[0] == "dice", (text, part)  # the README's examples roll nothing else
            noun = f" (?:{re.escape(part[2])}|{re.escape(part[3])})" if part[2] else ""
            out.append(r"\d+" + noun)
    return re.compile("".join(out))


def test_every_text_of_a_readme_table_prints(tmp_path):
    """Issue 12: the README's custom tables showed texts that never printed (a `result` only
    the odds were read from, an obstacle `name` nothing prints). Every text a README table
    example gives, every entry's, prints in the sites those tables make; the fields the site
    generator only reads (an obstacle's `key`) are not text."""
    import yaml

    from generator.build import address, table_problems
    from generator.engine import needs
    from generator.engine.tables import TableSet
    from generator.render import documents
    from generator.render.context import using_system
    from generator.systems import get_system

    wanted: dict[str, re.Pattern[str]] = {}
    for block in blocks("yaml"):
        target = re.match(r"#\s*my-tables/(\S+)\.yaml:", block.splitlines()[0])
        if not target:
            continue
        path = tmp_path / f"{target.group(1)}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block)
        data = yaml.safe_load(block)
        tables = TableSet.load([tmp_path], use_env=False)
        assert table_problems(tables) == []
        read_only = {
            name
            for need in needs.declared()
            if need.matches(target.group(1))
            for name in need.values
        }
        for entry in data["entries"]:
            for name, value in entry.items():
                # `roll` is the die's range, not a text; `read_only` fields are read, not printed
                if isinstance(value, str) and name != "roll" and name not in read_only:
                    wanted[f"{target.group(1)}: {name}: {value}"] = _text_pattern(value)
    assert len(wanted) >= 4
    tables = TableSet.load([tmp_path], use_env=False)
    seen: set[str] = set()
    with using_system(get_system(tables, "fmc")):
        for i in range(16):
            site = address.build(tables, f"readme-{i}", "site", {"rooms": 12}).thing
            text = re.sub(r"\s+", " ", documents.render(site, "text"))
            seen |= {key for key, pattern in wanted.items() if pattern.search(text)}
            if len(seen) == len(wanted):
                break
    assert sorted(set(wanted) - seen) == []
