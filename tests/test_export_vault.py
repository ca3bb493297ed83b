"""The Obsidian vault: every note has front matter and a body, every wikilink resolves, the
links the issue names are there, and the folder is written safely."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build.site import generate_site
from generator.engine.rng import Rng
from generator.export.files import MANIFEST, FolderWriter
from generator.export.vault import export_vault
from generator.render.context import using_system
from generator.systems import get_system

LINK = re.compile(r"(!?)\[\[([^\]]+?)\]\]")
FORBIDDEN = re.compile(r'[<>:"\\|?*#^\[\]`$%=~]')


def notes(vault: Path) -> dict[str, str]:
    return {
        p.relative_to(vault).as_posix(): p.read_text(encoding="utf-8") for p in vault.rglob("*.md")
    }


def links(text: str) -> list[tuple[bool, str, str]]:
    """(embed, target, shown) of every wikilink; escaped brackets are not links."""
    out = []
    for m in LINK.finditer(text):
        if m.start() > 0 and text[m.start() - 1] == "\\":
            continue
        target, _, shown = m.group(2).replace("\\|", "|").partition("|")
        out.append((m.group(1) == "!", target, shown))
    return out


def front_matter(text: str) -> tuple[dict, str]:
    assert text.startswith("---\n"), text[:80]
    head, _, body = text[4:].partition("\n---\n")
    return yaml.safe_load(head), body


def check_vault(vault: Path) -> dict[str, str]:
    """The invariants every vault keeps; returns its notes.

    Every note but the index (the site's or region's note at the root) is linked from some
    other note: a note nothing links to is one a referee never finds, and the sign of a link
    that went to a namesake instead."""
    found = notes(vault)
    files = {p.relative_to(vault).as_posix() for p in vault.rglob("*") if p.is_file()}
    assert found
    linked_to: set[str] = set()
    for path, text in found.items():
        linked_to |= {f"{t}.md" for embed, t, _s in links(text) if not embed and f"{t}.md" != path}
    indexes = [p for p in found if "/" not in p]
    assert len(indexes) == 1, indexes
    orphans = sorted(set(found) - linked_to - set(indexes))
    assert not orphans, f"notes no other note links to: {orphans[:5]}"
    for path, text in found.items():
        meta, body = front_matter(text)
        assert {"kind", "seed", "tags"} <= set(meta), path
        assert meta["kind"] and meta["seed"] and "delve" in meta["tags"], path
        for tag in meta["tags"]:
            assert re.fullmatch(r"[a-z0-9_/\-]+", tag), (path, tag)
        lines = [line for line in body.splitlines() if line.strip() and not line.startswith("#")]
        assert lines, f"{path} is empty"
        for embed, target, _shown in links(text):
            wanted = target if embed else f"{target}.md"
            assert wanted in files, f"{path}: [[{target}]] does not resolve"
        for part in path.split("/"):
            stem = part[:-3] if part.endswith(".md") else part
            assert not FORBIDDEN.search(stem) and stem == stem.strip(" ."), path
    return found


def cli(*args: str) -> None:
    """Run delve in-process for a module-scoped fixture (run_cli is per test)."""
    from generator.cli import main
    from generator.cli.common import state

    state._tables = None
    try:
        main([str(a) for a in args])
    finally:
        state._tables = None


@pytest.fixture(scope="module")
def site_vault(tmp_path_factory):
    out = tmp_path_factory.mktemp("v") / "vault"
    cli("site", "--seed", "harrowdeep", "--rooms", "12", "--format", "vault", "-o", out)
    return out


def test_site_vault_has_every_note_and_every_link_resolves(site_vault, builtin_tables):
    site = generate_site(builtin_tables, Rng("harrowdeep@rooms=12"), rooms=12)
    found = check_vault(site_vault)
    kinds: dict[str, list[str]] = {}
    for path, text in found.items():
        kinds.setdefault(front_matter(text)[0]["kind"], []).append(path)
    assert len(kinds["site"]) == 1
    assert len(kinds["room"]) == 12
    assert len(kinds["monster"]) == len(site.bestiary)
    magic = [i for r in site.rooms if r.hoard for i in r.hoard.items if i.magic]
    assert len(kinds.get("magic-item", [])) == len(magic)
    index = found[kinds["site"][0]]
    assert any(embed and t.endswith(".svg") for embed, t, _ in links(index))  # the map


def test_room_exits_link_to_the_rooms_they_lead_to(site_vault, builtin_tables):
    site = generate_site(builtin_tables, Rng("harrowdeep@rooms=12"), rooms=12)
    found = notes(site_vault)
    by_id = {}
    for path, text in found.items():
        meta, _ = front_matter(text)
        if meta["kind"] == "room":
            by_id[int(path.split("/")[-1].split(" ")[0])] = (path, text)
    for room in site.rooms:
        _path, text = by_id[room.id]
        exits = re.findall(r"^- Exit to \[\[([^|\]]+)\|(\d+)\.", text, re.M)
        ends = sorted(
            c.to_room if c.from_room == room.id else c.from_room
            for c in site.connections
            if room.id in (c.from_room, c.to_room)
        )
        assert sorted(int(n) for _t, n in exits) == ends
        for target, n in exits:
            assert by_id[int(n)][0] == f"{target}.md"
        if room.monsters:
            monster_links = [t for _e, t, _s in links(text) if t.startswith("Monsters/")]
            assert monster_links, f"room {room.id} names its monsters without a link"


def test_same_seed_same_vault_bytes(tmp_path, run_cli):
    for name in ("a", "b"):
        res = run_cli("site", "--seed", "byte/check", "--format", "vault", "-o", tmp_path / name)
        assert res.code == 0, res.err
    a = {
        p.relative_to(tmp_path / "a"): p.read_bytes()
        for p in (tmp_path / "a").rglob("*")
        if p.is_file()
    }
    b = {
        p.relative_to(tmp_path / "b"): p.read_bytes()
        for p in (tmp_path / "b").rglob("*")
        if p.is_file()
    }
    assert a == b


@pytest.fixture(scope="module")
def region_vault(tmp_path_factory):
    out = tmp_path_factory.mktemp("r") / "vault"
    cli("region", "--radius", "2", "--seed", "saltmarch", "--format", "vault", "-o", out)
    return out


def test_region_vault_links_hexes_sites_factions_and_people(region_vault):
    found = check_vault(region_vault)
    kinds: dict[str, dict[str, str]] = {}
    for path, text in found.items():
        kinds.setdefault(front_matter(text)[0]["kind"], {})[path] = text
    for kind in ("region", "hex", "haven", "faction", "npc", "monster"):
        assert kinds.get(kind), f"no {kind} notes"
    assert len(kinds["hex"]) == 19
    # Each site hex links to its site's index note, which lives in its own folder under Sites/.
    site_indexes = {p for p, t in kinds.get("site", {}).items()}
    assert all(p.startswith("Sites/") for p in site_indexes)
    for path, text in kinds["hex"].items():
        meta, _ = front_matter(text)
        if meta["stocking"] == "site":
            assert any(f"{t}.md" in site_indexes for _e, t, _s in links(text)), path
            # The booklet prints the site after the hexes; here it is in notes of its own.
            assert "(in full in its own notes)" in text, path
    assert not [p for p, t in found.items() if "in full below" in t]
    # A faction links its base hex and its leader.
    for path, text in kinds["faction"].items():
        targets = [t for _e, t, _s in links(text)]
        assert any(t.startswith("Hexes/") for t in targets), path
        assert any(f"{t}.md" in kinds["npc"] for t in targets), path
    # Rooms of the sites are there too, under their site's folder.
    assert all(p.startswith("Sites/") for p in kinds.get("room", {}))
    # A site's address (saltmarch@radius=2/hex/0403/site) stays one word to copy: no link in it.
    for path, text in kinds["site"].items():
        meta, _ = front_matter(text)
        assert f"Rebuild: delve site --seed {meta['seed']}" in text, path
        assert f"Address: {meta['seed']}" in text, path


# Table text a referee's own tables (or a shared pack) may hold: Obsidian's links, embeds,
# tags, comments, highlights, block ids, code and maths, HTML, Foundry's enrichers, and a
# backslash that would undo an escape made without escaping backslashes too. Every part is in a
# field a room prints: the feature's name, its result and its use.
HOSTILE_FEATURES = """\
title: Hostile features
fields:
  name: str
  use: str
entries:
  - name: 'Idol [[Nowhere]] | <script>alert(1)</script> #nametag'
    result: 'A ]] bracket, [[/r 1d6]] and ![[embed.png]], a #tag, %% a comment, ==a highlight==,
      a block ^blockid, `code`, $maths$, a \\#fake tag and @UUID[Actor.y]{{evil}} & more'
    use: 'Use [[Nowhere|x]] or @Check[dex]{{roll}} <img src=x onerror=alert(1)>'
"""
HOSTILE_NAME = "Crypt [[Nowhere]] ![[x.png]] #tag %% ==hi== ^id `c` $m$ <b>b</b> [[/r 1d6]]"


def hostile_tables(tmp_path: Path) -> Path:
    folder = tmp_path / "tables"
    (folder / "site").mkdir(parents=True)
    (folder / "site" / "features.yaml").write_text(HOSTILE_FEATURES, encoding="utf-8")
    return folder


# Obsidian syntax that is live unless an odd number of backslashes stands before it.
LIVE = {
    "a link or an embed": r"\[\[",
    "a tag": r"(?<![\w&])#[^\s#]",
    "a comment": r"%%",
    "a highlight": r"==",
    "a block id": r"\^\w",
    "code": r"`",
    "maths": r"\$",
    "HTML": r"<[a-z/]",
}


def live_syntax(found: dict[str, str]) -> list[str]:
    """What in the notes' bodies would act as Obsidian syntax, our own links aside."""
    out = []
    for path, text in found.items():
        body = front_matter(text)[1]
        shown = []
        for m in reversed(list(LINK.finditer(body))):  # our links, which check_vault resolved
            if not escaped(body, m.start()):
                _target, _, text = m.group(2).replace("\\|", "|").partition("|")
                assert "|" not in text, f"{path}: a second | in {m.group(0)}"
                shown.append(text)
                body = body[: m.start()] + body[m.end() :]
        body = re.sub(r"^#+ ", "", body, flags=re.M)  # headings are ours
        for part in [body, *shown]:
            for what, pattern in LIVE.items():
                for m in re.finditer(pattern, part):
                    if not escaped(part, m.start()):
                        where = part[max(0, m.start() - 30) : m.end() + 30]
                        out.append(f"{path}: {what}: {where!r}")
    return out


def escaped(text: str, at: int) -> bool:
    n = 0
    while at - n - 1 >= 0 and text[at - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def test_hostile_table_text_stays_text(tmp_path, run_cli):
    """The feature's name, result and use reach the room notes, escaped: every link is ours and
    resolves, and no tag, comment, highlight, block id, code, maths or HTML is live."""
    args = ("--tables", hostile_tables(tmp_path), "site", "--seed", "hostile")
    res = run_cli(*args, "--format", "vault", "-o", tmp_path / "v")
    assert res.code == 0, res.err
    found = check_vault(tmp_path / "v")
    assert not live_syntax(found)
    text = "".join(found.values())
    for shown in (
        "Idol \\[\\[Nowhere\\]\\] | &lt;script&gt;",
        "\\#nametag",
        "!\\[\\[embed.png\\]\\]",
        "a \\#tag, \\%\\% a comment, \\=\\=a highlight\\=\\=",
        "a block \\^blockid, \\`code\\`, \\$maths\\$, a \\\\\\#fake tag",
        "Use \\[\\[Nowhere|x\\]\\]",
        "&lt;img src=x",
    ):
        assert shown in text, shown  # printed, and escaped


def test_hostile_names_stay_text(tmp_path, builtin_tables):
    """A room's and a magic item's names print in titles, file names, exits and links."""
    for n in range(50):
        site = generate_site(builtin_tables, Rng(f"hostile{n}"), rooms=12)
        rooms = [r for r in site.rooms if r.hoard and magic_in(r.hoard)]
        if rooms:
            break
    site.rooms[1].name = HOSTILE_NAME
    name_item(magic_in(rooms[0].hoard)[0], HOSTILE_NAME + " (2)")
    writer = FolderWriter(tmp_path / "v")
    export_vault(site, writer)
    writer.commit()
    found = check_vault(tmp_path / "v")
    assert not live_syntax(found)
    escaped_name = "Crypt \\[\\[Nowhere\\]\\] !\\[\\[x.png\\]\\] \\#tag \\%\\% \\=\\=hi\\=\\="
    titles = [t for t in found.values() if f"# 2. {escaped_name}" in t]
    assert len(titles) == 1  # the room's own note
    # In a link's shown text, brackets are parentheses: the first ]] must close the link.
    shown = "Crypt ((Nowhere)) !((x.png)) \\#tag \\%\\% \\=\\=hi\\=\\="
    exits = [t for t in found.values() if f"|2. {shown}" in t]
    assert exits  # the rooms beside it link it, its name escaped in the link
    assert any(f"|{shown}" in t and "[[Items/" in t for t in found.values())


def test_refuses_a_folder_of_other_files_and_writes_nothing(tmp_path, run_cli):
    target = tmp_path / "notes"
    target.mkdir()
    (target / "diary.md").write_text("mine")
    res = run_cli("site", "--seed", "x", "--format", "vault", "-o", target)
    assert res.code == 1
    assert res.err.count("\n") == 1 and "Delve did not write" in res.err
    assert sorted(p.name for p in target.iterdir()) == ["diary.md"]


def test_rewrite_needs_force_and_keeps_the_referees_own_notes(tmp_path, run_cli):
    target = tmp_path / "vault"
    assert run_cli("site", "--seed", "x", "--format", "vault", "-o", target).code == 0
    (target / "My session notes.md").write_text("mine")
    res = run_cli("site", "--seed", "x", "--format", "vault", "-o", target)
    assert res.code == 1 and "--force" in res.err
    res = run_cli("site", "--seed", "y", "--format", "vault", "-o", target, "--force")
    assert res.code == 0, res.err
    assert (target / "My session notes.md").read_text() == "mine"
    assert MANIFEST in {p.name for p in target.iterdir()}


def test_a_disk_full_during_force_keeps_the_old_vault_and_the_next_force_works(
    tmp_path, monkeypatch, run_cli
):
    """The audit's case: a full disk on the fifth move of a --force rewrite (site x into
    site y) used to leave notes of both sites and a folder the next --force refused."""
    import os

    target = tmp_path / "vault"
    assert run_cli("site", "--seed", "x", "--format", "vault", "-o", target).code == 0
    (target / "My session notes.md").write_text("mine")
    before = {p: t for p, t in notes(target).items()}
    real, calls = os.replace, []

    def full(*args):
        calls.append(args)
        if len(calls) == 5:
            raise OSError(28, "No space left on device")
        return real(*args)

    monkeypatch.setattr(os, "replace", full)
    res = run_cli("site", "--seed", "y", "--format", "vault", "-o", target, "--force")
    monkeypatch.undo()
    assert res.code == 1 and res.err.count("\n") == 1, res.err
    assert "No space left on device" in res.err
    assert notes(target) == before  # site x, whole, and the referee's notes
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".vault.")]
    res = run_cli("site", "--seed", "y", "--format", "vault", "-o", target, "--force")
    assert res.code == 0, res.err
    assert run_cli("site", "--seed", "y", "--format", "vault", "-o", tmp_path / "y").code == 0
    mine = {"My session notes.md": "mine"}
    assert notes(target) == {**notes(tmp_path / "y"), **mine}


def test_output_that_is_a_file_is_one_line_and_exit_1(tmp_path, run_cli):
    target = tmp_path / "file.md"
    target.write_text("x")
    res = run_cli("site", "--seed", "x", "--format", "vault", "-o", target)
    assert res.code == 1 and "is a file" in res.err and res.err.count("\n") == 1
    assert target.read_text() == "x"


def test_a_failing_export_leaves_nothing_behind(tmp_path, monkeypatch, run_cli):
    import generator.export.vault as vault

    def boom(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(vault.SiteNotes, "monster_notes", boom)
    result = run_cli("site", "--seed", "x", "--format", "vault", "-o", tmp_path / "vault")
    # An error Delve did not foresee is still one line (and a bug), and writes nothing.
    assert result.code == 1 and "internal error: RuntimeError: disk on fire" in result.err
    assert list(tmp_path.iterdir()) == []


def test_render_of_a_saved_document_makes_the_same_vault(tmp_path, run_cli):
    doc = tmp_path / "site.json"
    assert run_cli("site", "--seed", "again", "--format", "json", "-o", doc).code == 0
    assert run_cli("render", doc, "--format", "vault", "-o", tmp_path / "a").code == 0
    assert run_cli("site", "--seed", "again", "--format", "vault", "-o", tmp_path / "b").code == 0
    assert notes(tmp_path / "a") == notes(tmp_path / "b")


FEW = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FEW
@given(
    seed=st.from_regex(r"[a-z0-9]([a-z0-9/ -]{0,10}[a-z0-9])?", fullmatch=True),
    rooms=st.sampled_from([6, 12, 18]),
    system=st.sampled_from(["fmc", "fortmayn", "f4c", "fantasy-core"]),
)
def test_any_site_makes_a_vault_whose_links_resolve(
    builtin_tables, tmp_path_factory, seed, rooms, system
):
    site = generate_site(builtin_tables, Rng(seed), rooms=rooms)
    target = tmp_path_factory.mktemp("any") / "vault"
    writer = FolderWriter(target)
    with using_system(get_system(builtin_tables, system)):
        export_vault(site, writer)
    writer.commit()
    check_vault(target)


# --------------------------------------------------------------------------- namesakes


def namesake_region(tables):
    """A region where things share names, as generated regions sometimes do (two Nicos, two
    havens called The Wandering Goose): two havens of one name, three people of one name (two
    of them in one haven, one a faction's leader, and a river named after them), two sites of
    one name and two lairs' magic items of one name."""
    from generator.build.region import generate_region

    region = generate_region(tables, Rng("twins"), radius=2)
    havens = [h.haven for h in region.hexes if h.haven]
    crowded = next(hv for hv in havens if len(hv.npcs) >= 2)
    other = next(hv for hv in havens if hv is not crowded)
    sites = [h.site for h in region.hexes if h.site]
    hoards = [
        h.lair.hoard
        for h in region.hexes
        if h.lair and h.lair.form == "room" and h.lair.hoard and magic_in(h.lair.hoard)
    ]
    assert len(havens) >= 2 and len(sites) >= 2 and len(hoards) >= 2, "pick another seed"
    other.name = crowded.name
    name = crowded.npcs[0].name
    crowded.npcs[1].name = other.npcs[0].name = region.factions[0].leader.name = name
    sites[1].name = sites[0].name
    region.rivers[0].name = f"the Tumbling {name}"  # a river is no one's note
    for hoard in hoards[:2]:
        name_item(magic_in(hoard)[0], "Arcane focus (1 energy)")
    return region


def near(region, label: str) -> set[str]:
    """A hex, and the hex its haven's rumour is about: the places its text may name."""
    haven = region.hex(label).haven
    return {label} | ({haven.rumour.about} if haven and haven.rumour else set())


def magic_in(hoard):
    return [i for i in hoard.items if i.magic]


def name_item(item, name):
    if item.weapon is not None:
        item.weapon.name = name
    item.name = name


def by_kind(found):
    out: dict[str, dict[str, tuple[dict, str]]] = {}
    for path, text in found.items():
        meta, _ = front_matter(text)
        out.setdefault(meta["kind"], {})[path] = (meta, text)
    return out


def test_namesakes_each_link_their_own_note(tmp_path, builtin_tables):
    region = namesake_region(builtin_tables)
    writer = FolderWriter(tmp_path / "v")
    export_vault(region, writer)
    writer.commit()
    found = check_vault(tmp_path / "v")  # no orphans: each namesake is linked from somewhere
    kinds = by_kind(found)

    def meta(target):
        return front_matter(found[f"{target}.md"])[0]

    bases = {fa.key: fa.base for fa in region.factions}
    checked = {"People": 0, "Havens": 0, "Sites": 0, "Items": 0}
    for path, (hexmeta, text) in kinds["hex"].items():
        label = hexmeta["label"]
        for _e, target, _s in links(text):
            top = target.split("/")[0]
            if top == "People":  # a person of this hex's haven, or of a faction based here
                person = meta(target)
                assert person.get("hex") == label or bases.get(person.get("faction")) == label, (
                    path,
                    target,
                )
            elif top == "Havens":
                assert meta(target)["hex"] in near(region, label), (path, target)
            elif top == "Sites" and meta(target)["kind"] == "site":
                seed = meta(target)["seed"]
                assert any(f"/hex/{lab}/" in seed for lab in near(region, label)), (path, target)
            elif top == "Items":  # a lair's magic item: it lies in this hex
                assert f"[[{path[:-3]}|" in found[f"{target}.md"], (path, target)
            else:
                continue
            checked[top] += 1
    for path, (havenmeta, text) in kinds["haven"].items():
        for _e, target, _s in links(text):
            if target.startswith("People/"):
                assert meta(target)["hex"] == havenmeta["hex"], (path, target)
                checked["People"] += 1
    assert all(checked.values()), checked
    # The river named after them links no one.
    river = [line for t in found.values() for line in t.splitlines() if "the Tumbling " in line]
    assert river and not [line for line in river if "People/" in line]
    # The two people of one name in one haven are both linked from its note, each from the
    # line about them.
    crowded = next(h for h in region.hexes if h.haven and len(h.haven.npcs) >= 2)
    (haven,) = [t for p, (m, t) in kinds["haven"].items() if m["hex"] == crowded.label]
    twins = [t for _e, t, _s in links(haven) if t.startswith("People/")]
    assert len(twins) == len(set(twins)) == len(crowded.haven.npcs)
    for npc, target in zip(crowded.haven.npcs, twins, strict=True):
        assert npc.role in found[f"{target}.md"]


def test_namesake_items_in_a_site_link_their_own_rooms(tmp_path, builtin_tables):
    """Two rooms' magic items of one name: each room links its own, and the link shows the
    whole name, closing bracket and all."""
    for n in range(50):
        site = generate_site(builtin_tables, Rng(f"namesakes{n}"), rooms=18)
        rooms = [r for r in site.rooms if r.hoard and magic_in(r.hoard)]
        if len(rooms) >= 2:
            break
    else:
        raise AssertionError("no site with magic items in two rooms")
    for room in rooms:
        name_item(magic_in(room.hoard)[0], "Arcane focus (1 energy)")
    writer = FolderWriter(tmp_path / "v")
    export_vault(site, writer)
    writer.commit()
    found = check_vault(tmp_path / "v")
    targets = set()
    for path, (_meta, text) in by_kind(found)["room"].items():
        for _e, target, shown in links(text):
            if target.startswith("Items/"):
                assert f"[[{path[:-3]}|" in found[f"{target}.md"], (path, target)
            if target.startswith("Items/Arcane focus (1 energy)"):
                targets.add(target)
                assert shown == "Arcane focus (1 energy)", shown
    assert len(targets) == len(rooms)
