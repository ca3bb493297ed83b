"""A region holds together (issue 13): each faction's base is its hold, with its leader and its
members in it; no landmark twice; no name part in more than a few names; rumours name real
places that fit what they say; every encounter line names one stat block.

Over many seeds (thirty radius-3 regions, smaller and larger ones, and hypothesis's own), the
invariants of build/region/holds.py, names.py and rumours.py."""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build.monsters import bestiary, brackets, rule_xp
from generator.build.region import generate_region
from generator.build.region.holds import MIN_MEMBERS
from generator.build.region.names import NameBook, part_cap
from generator.build.region.rules import RUMOUR_REACH
from generator.engine import hexes, words
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.errors import DocumentError
from generator.model.region import Region
from generator.render.documents import from_dict
from generator.render.region_key import plural, region_blocks

FEW = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SEEDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-0123456789", min_size=1, max_size=12)


@cache
def _tables() -> TableSet:
    return TableSet.load(use_env=False)


@lru_cache(maxsize=128)
def region_for(seed: str, radius: int = 3, tables: TableSet | None = None) -> Region:
    return generate_region(tables or _tables(), Rng(seed), radius=radius)


def thirty() -> list[Region]:
    """Thirty radius-3 regions, as the issue measures them."""
    return [region_for(f"together-{i}") for i in range(30)]


def landmark_uses(region: Region) -> list[tuple[str, str]]:
    """(biome, name) of every landmark dealt: landmarks, and one-room lairs' dens."""
    out = [(h.terrain, h.landmark.name) for h in region.hexes if h.landmark]
    out += [
        (h.terrain, h.lair.name.split(",")[0])
        for h in region.hexes
        if h.lair and h.lair.form == "room" and not h.landmark
    ]
    return out


def names_of(region: Region) -> list[str]:
    """Every place name of the region a referee reads."""
    out = [region.name, *(r.name for r in region.rivers), *(fa.name for fa in region.factions)]
    for h in region.hexes:
        out += [t.name for t in (h.haven, h.site, h.landmark) if t is not None]
        if h.lair and h.lair.form == "room" and not h.landmark:
            out.append(h.lair.name.split(",")[0])  # its den: "lair of the wolves" is no name
    return out


# --------------------------------------------------------------------------- faction holds


def check_holds(region: Region) -> None:
    tables = _tables()
    beasts = bestiary(tables)
    archetypes = {e["key"]: e for e in tables.entries("region/factions")}
    bases = [fa.base for fa in region.factions]
    assert len(set(bases)) == len(bases)
    for fa in region.factions:
        h = region.hex(fa.base)
        # A lair hex, or a landmark the faction camps at: never a haven, never a site.
        assert h.stocking in ("lair", "landmark") and h.haven is None and h.site is None
        lair = h.lair
        assert lair is not None and lair.form == "room" and lair.faction == fa.key
        groups = {g.name: g for g in lair.monsters}
        assert set(groups) == {fa.leader.monster, fa.members}
        assert groups[fa.leader.monster].count == 1
        assert MIN_MEMBERS <= groups[fa.members].count <= 16
        leader, members = lair.bestiary[fa.leader.monster], lair.bestiary[fa.members]
        assert members.to_dict() == beasts.find(fa.members).to_dict()
        boss = archetypes[fa.key].get("boss")
        if boss:  # the archetype's own leader, or it would not have settled here
            assert leader.to_dict() == beasts.find(boss).to_dict()
        else:
            # One of the members raised a bracket (FMC Basic, Monster Types), by the XP rule.
            b = brackets(tables)[leader.bracket]
            assert leader.bracket > members.bracket or leader.bracket == 5
            assert (leader.hp, leader.attack, leader.damage) == (b.hp, b.attack, b.damage)
            assert leader.xp == rule_xp(b, leader.dc, leader.formidable)
            assert (leader.dc, leader.speed, leader.tags) == (
                members.dc,
                members.speed,
                members.tags,
            )
        # FMC Basic, Hex Stocking: 500 x d6 in monsters (within 10%), as much in treasure.
        assert lair.xp_budget == 500 * lair.budget_roll and 1 <= lair.budget_roll <= 6
        assert abs(lair.monster_xp - lair.xp_budget) <= 0.1 * lair.xp_budget
        assert lair.hoard.value_cp == lair.xp_budget
        assert lair.name.endswith(fa.name.removeprefix("The ")), (lair.name, fa.name)
        if h.stocking == "landmark":
            # A camp only when every lair hex is a base already.
            assert lair.name.startswith(h.landmark.name)
            assert all(x.lair.faction for x in region.hexes if x.stocking == "lair")
    for h in region.hexes:
        if h.lair and h.lair.faction:
            assert region.faction(h.lair.faction).base == h.label
    # The faction's text, the hex key and the JSON agree.
    text = " ".join(block.text for block in region_blocks(region)) + " "
    for fa in region.factions:
        h = region.hex(fa.base)
        assert f"Base: hex {fa.base}, {h.place}." in text
        assert f"(stat block: {fa.leader.monster})" in text
        block = text[text.index(f" {fa.base} {region.biomes[h.terrain].name}: ") :]
        block = block[: block.index(f"Address: {h.seed} ")]
        assert f"Base of {fa.name}" in block and f"{fa.leader.name}, {fa.leader.title} (" in block
    again = from_dict(json.loads(json.dumps(region.to_dict())))
    assert again.to_dict() == region.to_dict()


def test_every_faction_base_is_its_hold_in_thirty_regions() -> None:
    regions = thirty()
    for region in regions:
        check_holds(region)
    factions = [fa for r in regions for fa in r.factions]
    assert len(factions) >= 60 and all(2 <= len(r.factions) <= 4 for r in regions)
    # Leaders of both kinds: an archetype's boss, and members raised a bracket.
    named = {bestiary(_tables()).find(fa.leader.monster) is not None for fa in factions}
    assert named == {True, False}


@pytest.mark.parametrize("radius", [1, 2, 5])
def test_holds_in_small_and_large_regions(radius: int) -> None:
    for i in range(6):
        region = region_for(f"holds-{radius}-{i}", radius)
        check_holds(region)
    # Small regions run short of lair hexes: factions camp at landmarks.
    if radius == 1:
        camps = [
            fa
            for i in range(6)
            for fa in region_for(f"holds-1-{i}", 1).factions
            if region_for(f"holds-1-{i}", 1).hex(fa.base).stocking == "landmark"
        ]
        assert camps


@FEW
@given(seed=SEEDS)
def test_holds_over_any_seed(seed: str) -> None:
    check_holds(generate_region(_tables(), Rng(seed), radius=2))


def test_a_rerolled_base_stays_the_factions_hold() -> None:
    region = region_for("together-3")
    fa = region.factions[0]
    again = generate_region(_tables(), Rng("together-3"), radius=3, reroll=[fa.base])
    check_holds(again)
    old, new = region.hex(fa.base), again.hex(fa.base)
    assert new.seed.endswith("/reroll/1") and new.stocking == old.stocking
    assert new.lair.to_dict() != old.lair.to_dict()
    assert [f.to_dict() for f in again.factions] == [f.to_dict() for f in region.factions]
    for a, b in zip(region.hexes, again.hexes, strict=True):
        assert a.to_dict() == b.to_dict() or a.label == fa.base


def test_an_edited_hold_that_loses_its_leader_is_refused(run_cli, tmp_path: Path) -> None:
    data = region_for("together-4").to_dict()
    at = next(i for i, h in enumerate(data["hexes"]) if h.get("lair", {}).get("faction"))
    fa = next(
        i
        for i, f in enumerate(data["factions"])
        if f["key"] == data["hexes"][at]["lair"]["faction"]
    )
    cases = [
        (lambda d: d["hexes"][at]["lair"]["monsters"].pop(0), f"region.factions[{fa}].base"),
        (
            lambda d: d["hexes"][at]["lair"].update(faction="nobody"),
            f"region.hexes[{at}].lair.faction",
        ),
    ]
    for edit, where in cases:
        broken = json.loads(json.dumps(data))
        edit(broken)
        with pytest.raises(DocumentError, match=re.escape(where)):
            from_dict(broken)
        doc = tmp_path / "bad.json"
        doc.write_text(json.dumps(broken))
        res = run_cli("render", str(doc), "-f", "text")
        assert res.code == 1 and where in res.err and len(res.err.strip().splitlines()) == 1
    # A document made before holds (no leader's stat block) still renders.
    old = json.loads(json.dumps(data))
    for f in old["factions"]:
        del f["leader"]["monster"]
    for h in old["hexes"]:
        h.get("lair", {}).pop("faction", None)
    assert isinstance(from_dict(old), Region)


# --------------------------------------------------------------------------- landmarks


def test_no_landmark_twice_in_a_region() -> None:
    tables = _tables()
    checked = 0
    for region in thirty() + [region_for(f"lm-{i}", 2) for i in range(10)]:
        uses = landmark_uses(region)
        counts = Counter(name for _, name in uses)
        need = Counter(biome for biome, _ in uses)
        for biome, name in uses:
            table = {e["name"] for e in tables.entries(f"region/landmarks/{biome}")}
            if counts[name] > 1:
                # Only once every landmark of the biome's table is out.
                assert need[biome] > len(table) and table <= set(counts), (name, biome)
        checked += all(need[b] <= len(tables.entries(f"region/landmarks/{b}")) for b in need)
    assert checked >= 25


def _letters(i: int) -> str:
    out = ""
    i += 26 * 27  # three letters at least
    while i:
        i, r = divmod(i, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[r] + out
    return out


@cache
def wide_landmarks(tmp: str) -> TableSet:
    """Every biome with 40 landmarks of names that share no part, and one likely landmark,
    'The Shared Stone', in both the forest's and the plains' tables."""
    folder = Path(tmp)
    biomes = [e["key"] for e in _tables().entries("region/biomes")]
    for n, biome in enumerate(biomes):
        entries = "".join(
            f"  - name: Zq{_letters(40 * n + k).capitalize()}\n"
            f"    stage: Something waits here.\n    result: A place.\n"
            for k in range(40)
        )
        if biome in ("forest", "plains"):  # and likely: dealt in most regions, if it could be
            entries += (
                "  - name: The Shared Stone\n    weight: 40\n    stage: A stone.\n"
                "    result: A stone.\n"
            )
        path = folder / "region" / "landmarks" / f"{biome}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"title: {biome} landmarks\nfields:\n  name: str\n  stage: str\nentries:\n{entries}"
        )
    return TableSet.load([folder], use_env=False)


def test_landmarks_shared_by_two_tables_are_dealt_once(tmp_path_factory) -> None:
    tables = wide_landmarks(str(tmp_path_factory.mktemp("wide")))
    shared = 0
    for i in range(25):
        region = region_for(f"wide-{i}", 3, tables)
        counts = Counter(name for _, name in landmark_uses(region))
        assert max(counts.values()) == 1, counts.most_common(2)
        shared += counts["The Shared Stone"]
    assert shared >= 15  # dealt in most regions, once


# --------------------------------------------------------------------------- name parts


def test_name_parts_are_words_and_the_halves_of_compounds() -> None:
    book = NameBook(_tables(), 37)
    assert book.parts_of("The Old Ashford Mill") == {"ashford", "ash", "ford", "mill"}
    assert book.parts_of("Hollow Hill") == {"hollow", "hill"}  # not Hol + low
    assert {"earldom", "wolfmarch", "wolf"} <= book.parts_of("The Old Earldom of Wolfmarch")
    assert book.parts_of("The Giant's Stair") == {"giant", "stair"}
    assert (part_cap(7), part_cap(37), part_cap(91), part_cap(331)) == (2, 2, 5, 18)


def _worst(region: Region, book: NameBook) -> tuple[int, str]:
    counts = Counter(p for name in names_of(region) for p in book.parts_of(name))
    part, n = counts.most_common(1)[0]
    return n, part


def test_no_name_part_in_more_than_two_names_of_a_radius_3_region(tmp_path_factory) -> None:
    # With landmark tables wide enough, the cap holds in every region.
    tables = wide_landmarks(str(tmp_path_factory.mktemp("wide")))
    book = NameBook(tables, 37)
    for i in range(25):
        n, part = _worst(region_for(f"wide-{i}", 3, tables), book)
        assert n <= 2, (i, part)
    # With the built-in tables too, wherever each biome's landmarks leave a choice (two left
    # over at least: a table dealt to its last entry has no name left to choose).
    tables = _tables()
    book = NameBook(tables, 37)
    checked = 0
    for region in thirty():
        need = Counter(biome for biome, _ in landmark_uses(region))
        if all(k + 2 <= len(tables.entries(f"region/landmarks/{b}")) for b, k in need.items()):
            n, part = _worst(region, book)
            assert n <= 2, (region.seed, part)
            checked += 1
    assert checked >= 10


def test_larger_regions_share_parts_in_proportion() -> None:
    for i in range(3):
        region = region_for(f"big-names-{i}", 6)
        book = NameBook(_tables(), len(region.hexes))
        n, part = _worst(region, book)
        assert n <= part_cap(len(region.hexes)) + 1, part


# --------------------------------------------------------------------------- rumours


def test_rumours_name_a_site_lair_or_landmark_near_the_haven() -> None:
    told = 0
    for region in thirty():
        for h in region.hexes:
            if h.haven is None or h.haven.rumour is None:
                continue
            told += 1
            about = region.hex(h.haven.rumour.about)
            assert about.haven is None and about.label != region.start
            assert about.site or about.lair or about.landmark
            far = hexes.distance((h.q, h.r), (about.q, about.r))
            assert 1 <= far
            near = [
                x
                for x in region.hexes
                if 1 <= hexes.distance((h.q, h.r), (x.q, x.r)) <= RUMOUR_REACH and x.haven is None
            ]
            assert far <= RUMOUR_REACH or not near
            assert about.place in region.rumour_text(h.haven.rumour)
    assert told >= 150


RUMOURS = """\
    title: Rumours
    fields:
      "true": bool
      about: list?
    entries:
      - "true": true
        tags: [undead]
        result: "UNDEAD: the dead walk at {$place} (hex {$hex})."
      - "true": false
        tags: [dragon]
        result: "DRAGON: a dragon sleeps under {$place} (hex {$hex})."
      - "true": true
        about: [haven]
        result: "HAVEN: they brew good ale at {$place} (hex {$hex})."
      - "true": true
        result: "FACTION: {$faction} keep a watch from {$place} (hex {$hex})."
      - "true": true
        tags: [river]
        about: [landmark]
        result: "RIVER: eels as long as a man in the water by {$place} (hex {$hex})."
"""


def test_rumours_agree_with_the_place_they_name(tmp_path: Path) -> None:
    path = tmp_path / "region" / "rumours.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(textwrap.dedent(RUMOURS))
    tables = TableSet.load([tmp_path], use_env=False)
    said = Counter()
    for i in range(25):
        region = region_for(f"said-{i}", 3, tables)
        bases = {fa.base: fa for fa in region.factions}
        on_river = {lab for r in region.rivers for lab in r.path}
        for h in region.hexes:
            if h.haven is None or h.haven.rumour is None:
                continue
            rumour = h.haven.rumour
            about = region.hex(rumour.about)
            kind = rumour.text.split(":")[0]
            said[kind] += 1
            beasts = {**(about.site.bestiary if about.site else {})}
            if about.lair and about.lair.form == "room":
                beasts.update(about.lair.bestiary)
            tags = {t for m in beasts.values() for t in m.tags}
            if kind == "UNDEAD":
                assert "undead" in tags and not about.haven
            elif kind == "DRAGON":
                assert "dragon" not in tags and not about.haven
            elif kind == "HAVEN":
                assert about.haven is not None and about.label != h.label
            elif kind == "FACTION":
                assert about.label in bases
                assert bases[about.label].name in region.rumour_text(rumour)
            else:
                assert about.landmark is not None and about.label in on_river
    assert set(said) == {"UNDEAD", "DRAGON", "HAVEN", "FACTION", "RIVER"}, said


def test_a_rumour_about_an_unknown_kind_of_place_is_a_table_problem(run_cli, tmp_path) -> None:
    path = tmp_path / "region" / "rumours.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(textwrap.dedent(RUMOURS).replace("about: [haven]", "about: [castle]"))
    res = run_cli("tables", "check", str(tmp_path))
    assert res.code == 1 and "rumours.yaml:" in res.err and "castle" in res.err


# --------------------------------------------------------------------------- encounters


def test_every_encounter_line_names_one_stat_block() -> None:
    """The referee finds a line's creature by the name printed: a young, an adult and an elder
    dragon are not all "Dragons"."""
    beasts = bestiary(_tables())
    seen = set()
    for region in thirty() + [region_for("dragons", 8)]:
        monsters = dict(region.bestiary)
        for table in region.encounters:
            for e in table.entries:
                n = 1 if e.count == "1" else 2
                shown = words.capital(plural(monsters, e.monster, n))
                assert beasts.find(shown).name == e.monster, (shown, e.monster)
                seen.add(shown)
        for h in region.hexes:
            for e in h.site.encounters if h.site else []:
                found = beasts.find(h.site.bestiary[e.name].plural)
                assert found.name == e.name
    assert any("dragons" in s.lower() for s in seen)
