"""Hex regions follow FMC Basic, Overworld Exploration, Wandering, Region Design and Hex
Stocking: the d6 stocking odds, 500 x d6 lairs, sites by the site rules, travel days and
encounter odds, seeds that reproduce, re-rolls that touch one hex, and the documents."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from collections import Counter
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build.monsters import bestiary
from generator.build.region import generate_region
from generator.build.region.factions import biome_encounters
from generator.build.region.rules import LAIR_SITE_ROLLS, hex_level
from generator.build.region.tables import region_tables
from generator.build.site import MAX_LEVEL, XP_PER_LEVEL, generate_site
from generator.build.treasure import roll_hoard
from generator.engine import hexes
from generator.engine.dice import parse
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.errors import DelveError, DocumentError
from generator.model.faction import ATTITUDES, REACTIONS
from generator.model.region import Region
from generator.model.site import Site
from generator.render.documents import from_dict, render, to_json

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zs")), min_size=1
    )
    .map(str.strip)
    .filter(bool)
)
FEW = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
STOCKING_BY_ROLL = {1: "haven", 2: "site", 3: "lair", 4: "landmark", 5: "landmark", 6: "landmark"}


@cache
def _tables() -> TableSet:
    return TableSet.load(use_env=False)


@lru_cache(maxsize=64)
def region_for(seed: str, radius: int = 3, level: int = 1, hex_miles: int = 18) -> Region:
    """Regions are pure functions of their arguments, so tests share them."""
    return generate_region(_tables(), Rng(seed), radius=radius, level=level, hex_miles=hex_miles)


@lru_cache(maxsize=1)
def many_regions() -> tuple[Region, ...]:
    """Forty radius-4 regions: 2,400 stocked hexes for the odds and the budgets."""
    return tuple(region_for(f"odds-{i}", 4) for i in range(40))


def stocked(regions: tuple[Region, ...]) -> list:
    return [h for r in regions for h in r.hexes if h.stocking != "start"]


# --------------------------------------------------------------------------- hex geometry


def test_compass_sides_run_clockwise_from_north() -> None:
    origin = (0, 0)
    points = [hexes.center(*hexes.neighbour(origin, side), 1.0) for side in range(1, 7)]
    x, y = points[0]
    assert x == pytest.approx(0) and y < 0  # side 1 is due north (y grows downwards)
    assert points[3][0] == pytest.approx(0) and points[3][1] > 0  # side 4 is due south
    assert points[1][0] > 0 > points[1][1] and points[2][0] > 0 and points[2][1] > 0
    assert points[4][0] < 0 < points[4][1] and points[5][0] < 0 and points[5][1] < 0
    assert hexes.SIDES == ("N", "NE", "SE", "S", "SW", "NW")
    for side in range(1, 7):
        assert hexes.side_towards(origin, hexes.neighbour(origin, side)) == side


@pytest.mark.parametrize("radius", [0, 1, 2, 5, 10, 40, 49])
def test_radius_gives_one_plus_3r_r_plus_1_hexes(radius: int) -> None:
    grid = hexes.hexagon_grid(radius)
    assert len(grid) == 1 + 3 * radius * (radius + 1) == hexes.hexagon_count(radius)
    assert len(set(grid.labels)) == len(grid)
    assert all(len(lab) == 4 and lab.isdigit() for lab in grid.labels)
    assert grid.labels == sorted(grid.labels)
    assert grid.coords[grid.center] == (0, 0)
    assert min(c for c, _ in grid.cells) == 0 and min(r for _, r in grid.cells) == 0
    for i, (q, r) in enumerate(grid.coords):
        assert hexes.distance((0, 0), (q, r)) <= radius
        for side, j in enumerate(grid.near[i], start=1):
            if j is not None:
                assert grid.coords[j] == hexes.neighbour((q, r), side)


def test_rings_and_distances() -> None:
    for k in range(1, 8):
        ring = hexes.ring((2, -1), k)
        assert len(ring) == 6 * k == len(set(ring))
        assert all(hexes.distance((2, -1), h) == k for h in ring)
    assert hexes.distance((0, 0), (3, -1)) == 3
    # A ring starts due north and runs clockwise, like the compass.
    assert hexes.ring((0, 0), 1) == [hexes.neighbour((0, 0), side) for side in range(1, 7)]


def test_rectangle_labels_are_xxyy_from_0101() -> None:
    grid = hexes.rectangle_grid(4, 3)
    assert grid.labels == [f"{c:02d}{r:02d}" for c in range(1, 5) for r in range(1, 4)]
    assert grid.labels[grid.center] == "0202"
    for col in range(4):
        for row in range(3):
            assert hexes.to_offset(*hexes.from_offset(col, row)) == (col, row)
    # Even columns (counting from 01) sit half a hex lower, as on printed hex maps.
    y1 = hexes.center(*hexes.from_offset(0, 0), 1.0)[1]
    y2 = hexes.center(*hexes.from_offset(1, 0), 1.0)[1]
    assert y2 > y1
    assert hexes.parse_label("0302") == (2, 1)
    with pytest.raises(DelveError):
        hexes.parse_label("302")


# --------------------------------------------------------------------------- the default


def test_default_region_is_seven_hexes_round_a_haven() -> None:
    region = generate_region(_tables(), Rng("harrowdeep"))
    assert len(region.hexes) == 7
    start = region.hex(region.start)
    assert start.label == "0202" and (start.q, start.r) == (0, 0)
    assert start.stocking == "start" and start.haven is not None
    assert sum(h.stocking == "start" for h in region.hexes) == 1
    assert all(hexes.distance((0, 0), (h.q, h.r)) == 1 for h in region.hexes if h is not start)
    assert region.shape == {"radius": 1} and region.hex_miles == 18
    assert region.biomes[start.terrain].passable


@pytest.mark.parametrize("radius", [0, 1, 2, 4])
def test_radius_regions_have_the_hexagon_count(radius: int) -> None:
    region = region_for("rings", radius)
    assert len(region.hexes) == 1 + 3 * radius * (radius + 1)
    assert [h.label for h in region.hexes] == sorted(h.label for h in region.hexes)


def test_size_makes_a_rectangle_and_one_hex_maps_work() -> None:
    region = generate_region(_tables(), Rng("rect"), size=(5, 3))
    assert len(region.hexes) == 15 and region.shape == {"width": 5, "height": 3}
    assert region.start == "0302"
    lone = generate_region(_tables(), Rng("lone"), size=(1, 1))
    assert [h.stocking for h in lone.hexes] == ["start"]
    assert all(fa.base == "0101" for fa in lone.factions)
    assert Region.from_dict(lone.to_dict()).to_dict() == lone.to_dict()


# --------------------------------------------------------------------------- stocking


def test_hex_stocking_comes_up_at_the_d6_odds() -> None:
    hexes_ = stocked(many_regions())
    n = len(hexes_)
    assert n == 40 * 60
    counts = Counter(h.stocking for h in hexes_)
    # FMC Basic, Hex Stocking: 1 haven, 2 site, 3 lair, 4-6 landmark (bands of about 4 sigma).
    for key, p in (("haven", 1 / 6), ("site", 1 / 6), ("lair", 1 / 6), ("landmark", 3 / 6)):
        assert abs(counts[key] / n - p) < 0.04, (key, counts[key], n)
    rolls = Counter(h.stocking_roll for h in hexes_)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    for h in hexes_:
        assert STOCKING_BY_ROLL[h.stocking_roll] == h.stocking
        held = {k for k in ("haven", "site", "lair", "landmark") if getattr(h, k) is not None}
        if h.stocking == "lair" and h.lair.form == "site":
            assert held == {"lair", "site"}
        elif h.stocking == "landmark" and h.lair is not None:
            assert held == {"landmark", "lair"} and h.lair.faction  # a faction's camp
        else:
            assert held == {h.stocking}


def test_lair_budgets_are_500_x_d6_and_monsters_and_treasure_match() -> None:
    lairs = [h for h in stocked(many_regions()) if h.stocking == "lair"]
    forms = Counter(h.lair.form for h in lairs)
    assert forms["room"] > forms["site"] > 0
    budgets = Counter()
    for h in lairs:
        lair = h.lair
        if lair.form_roll in LAIR_SITE_ROLLS:
            assert lair.form == "site" and h.site is not None and lair.name == h.site.name
            continue
        assert lair.form == "room" and h.site is None
        assert lair.xp_budget == 500 * lair.budget_roll
        assert lair.xp_budget in (500, 1000, 1500, 2000, 2500, 3000)
        budgets[lair.xp_budget] += 1
        # Monsters worth the budget within 10%, the hoard worth it exactly.
        assert abs(lair.monster_xp - lair.xp_budget) <= 0.1 * lair.xp_budget
        assert lair.hoard.value_cp == lair.xp_budget
        assert lair.hoard.coins.value_cp + sum(i.value_cp for i in lair.hoard.items) == (
            lair.xp_budget
        )
        assert lair.hoard.level == h.level
        assert all(g.name in lair.bestiary for g in lair.monsters)
        holder = max(lair.bestiary.values(), key=lambda m: (m.bracket, m.xp))
        assert lair.hoard.holder_die == holder.damage
        # The hoard's seed address reproduces it.
        again = roll_hoard(_tables(), Rng(lair.hoard.seed), lair.xp_budget, h.level, holder.damage)
        assert again.to_dict() == lair.hoard.to_dict()
    assert set(budgets) == {500, 1000, 1500, 2000, 2500, 3000}


def check_site(site: Site, level: int) -> None:
    """FMC Basic, Site Design, as the site issue states it, for a six-room site."""
    assert site.level == level and len(site.rooms) == 6
    g = site.graph()
    ring = nx.Graph([(a, b) for a, b, d in g.edges(data=True) if not d["levels"]])
    assert ring.number_of_nodes() == 6 and ring.number_of_edges() == 6
    assert all(d == 2 for _, d in ring.degree()) and nx.is_connected(ring)
    assert Counter(r.contents for r in site.rooms) == {
        "monsters_with_treasure": 1,
        "monsters": 1,
        "hidden_treasure": 1,
        "feature": 3,
    }
    assert abs(site.monster_xp - XP_PER_LEVEL * level) <= 0.1 * XP_PER_LEVEL * level
    assert site.treasure_cp == 1000 * level
    assert sum(1 for r in site.rooms if r.hoard) == 2
    assert len(site.encounters) == 6


def test_every_site_inside_obeys_the_site_rules() -> None:
    sites = [(h.site, h.level) for r in many_regions() for h in r.hexes if h.site]
    assert len(sites) > 300
    for site, level in sites:
        check_site(site, level)
    far = region_for("far", 8, level=3)
    deep = [(h.site, h.level) for h in far.hexes if h.site]
    assert max(level for _, level in deep) > 3
    for site, level in deep:
        check_site(site, level)


def test_danger_rises_with_distance() -> None:
    for region, per in ((region_for("far", 8, level=3), 2), (region_for("small", 8, 2, 6), 6)):
        for h in region.hexes:
            assert h.distance == hexes.distance((0, 0), (h.q, h.r))
            assert h.level == min(MAX_LEVEL, region.level + h.distance // per)
            if h.site:
                assert h.site.level == h.level
    assert hex_level(1, 4, 18) == 3 and hex_level(1, 6, 6) == 2 and hex_level(29, 90, 18) == 30


def test_travel_days_and_encounter_odds() -> None:
    for region in (region_for("odds-1", 4), region_for("small", 8, 2, 6)):
        for h in region.hexes:
            biome = region.biomes[h.terrain]
            units = 2 if biome.difficult else 1
            if region.hex_miles == 18:
                # One day per 18-mile hex, one more if difficult; 1-in-6 per day.
                assert h.travel_days == units
                assert h.encounter_odds == f"{units}-in-6"
            else:
                # Three 6-mile hexes a day; difficult ground doubles the cost, a third more.
                assert Fraction(h.travel_days).limit_denominator(3) == Fraction(units, 3)
                assert h.encounter_odds == f"{units}-in-18"


def test_havens_have_people_and_a_rumour_about_a_real_place() -> None:
    region = region_for("odds-2", 4)
    havens = [h for h in region.hexes if h.haven]
    assert havens
    for h in havens:
        hv = h.haven
        assert hv.name and hv.kind and hv.offers and hv.runner and hv.seed.startswith(h.seed)
        assert 1 <= len(hv.npcs) <= 2
        for npc in hv.npcs:
            assert npc.name and npc.role and npc.trait
            assert npc.mood == {1: "hostile", 2: "hostile", 3: "neutral", 4: "neutral"}.get(
                npc.mood_roll, "friendly"
            )
        assert hv.rumour is not None and hv.rumour.about != h.label
        target = region.hex(hv.rumour.about)
        text = region.rumour_text(hv.rumour)
        assert target.place in text and target.label in text and "{" not in text


def test_landmarks_are_never_empty_and_come_from_their_biome() -> None:
    for h in stocked(many_regions()[:5]):
        if h.landmark:
            names = {e["name"] for e in _tables().entries(f"region/landmarks/{h.terrain}")}
            assert h.landmark.name in names and h.landmark.description


# --------------------------------------------------------------------------- the region


def test_terrain_clusters_believably() -> None:
    for seed in ("clump-1", "clump-2", "clump-3"):
        region = region_for(seed, 10)
        look = region_tables(_tables()).biomes
        where = {(h.q, h.r): h.terrain for h in region.hexes}
        lone = pairs = fitting = 0
        for (q, r), t in where.items():
            around = [where[n] for n in hexes.neighbours((q, r)) if n in where]
            lone += all(o != t for o in around)
            for o in around:
                pairs += 1
                fitting += o == t or o in look[t].neighbours or t in look[o].neighbours
        assert lone / len(where) < 0.05, "salt and pepper"
        assert fitting / pairs > 0.95
        assert len(set(where.values())) >= 4
        water = sum(not region.biomes[t].passable for t in where.values())
        assert water / len(where) <= 0.2


def test_rivers_and_roads_follow_the_hexes() -> None:
    region = region_for("clump-1", 10)
    coords = {h.label: (h.q, h.r) for h in region.hexes}
    assert region.rivers and region.roads
    for path in [r.path for r in region.rivers] + [r.path for r in region.roads]:
        assert len(path) >= 2
        for a, b in zip(path, path[1:], strict=False):
            assert hexes.distance(coords[a], coords[b]) == 1
    for road in region.roads:
        assert road.kind in ("road", "trail") and road.description
        assert all(region.biomes[region.hex(lab).terrain].passable for lab in road.path)
        assert region.hex(road.path[-1]).stocking == "haven"
    # Every haven reachable on foot is on the network.
    on_road = {lab for road in region.roads for lab in road.path}
    for h in region.hexes:
        if h.stocking == "haven" and h.label not in on_road:
            assert not region.biomes[h.terrain].passable or _cut_off(region, h.label)


def _cut_off(region: Region, label: str) -> bool:
    passable = {(h.q, h.r) for h in region.hexes if region.biomes[h.terrain].passable}
    start = region.hex(region.start)
    seen, todo = {(start.q, start.r)}, [(start.q, start.r)]
    while todo:
        for n in hexes.neighbours(todo.pop()):
            if n in passable and n not in seen:
                seen.add(n)
                todo.append(n)
    h = region.hex(label)
    return (h.q, h.r) not in seen


def test_factions_and_how_they_stand() -> None:
    for seed in ("odds-3", "odds-4", "odds-5", "odds-6"):
        region = region_for(seed, 4)
        assert 2 <= len(region.factions) <= 4
        keys = [fa.key for fa in region.factions]
        assert len(set(keys)) == len(keys)
        g = region.faction_graph()
        n = len(keys)
        assert g.number_of_nodes() == n and g.number_of_edges() == n * (n - 1) // 2
        for a, b, data in g.edges(data=True):
            assert data["attitude"] in ATTITUDES
            assert region.faction(a).relations[b] == region.faction(b).relations[a]
        bases = [fa.base for fa in region.factions]
        assert len(set(bases)) == len(bases)
        for fa in region.factions:
            assert fa.name and fa.goal and fa.leader.name and fa.leader.title
            assert region.hex(fa.base).stocking in ("lair", "landmark")
            assert fa.members in region.bestiary
            # Their members patrol the encounter table of their base's terrain.
            table = next(t for t in region.encounters if t.terrain == region.hex(fa.base).terrain)
            assert [e.monster for e in table.entries if e.faction == fa.key] == [fa.members]
    archetypes = {e["key"] for e in _tables().entries("region/factions")}
    assert len(archetypes) >= 20


def test_encounter_tables_one_per_biome_with_reactions() -> None:
    region = region_for("clump-2", 10)
    present = {h.terrain for h in region.hexes}
    assert {t.terrain for t in region.encounters} == present
    for table in region.encounters:
        assert [e.roll for e in table.entries] == [1, 2, 3, 4, 5, 6]
        for e in table.entries:
            parse(e.count)
            assert e.monster in region.bestiary and e.doing
            assert e.reaction in REACTIONS
            expect = {1: "negative", 2: "negative", 3: "uncertain", 4: "uncertain"}
            assert e.reaction == expect.get(e.reaction_roll, "affirmative")
    key = render(region, "text")
    assert "1-2 negative" in key and "3-4 uncertain" in key and "5-6 affirmative" in key


def _text_pattern(template) -> tuple[re.Pattern[str], list]:
    """A line's text with each {dice} part as a number: (pattern, the dice formulas)."""
    if template.static is not None:
        return re.compile(re.escape(template.static)), []
    regex, dice = [], []
    for part in template.parts:
        if isinstance(part, str):
            regex.append(re.escape(part))
        else:
            assert part[0] == "dice", part  # encounter lines hold text and dice, nothing else
            noun = f" (?:{re.escape(part[2])}|{re.escape(part[3])})" if part[2] else ""
            regex.append(r"(\d+)" + noun)
            dice.append(part[1])
    return re.compile("".join(regex)), dice


@pytest.mark.parametrize("seed", ["own-1", "own-2", "own-3", "own-4"])
def test_every_encounter_line_prints_its_own_text(seed: str) -> None:
    """Each line of each biome's table keeps its own words, and its dice roll within range."""
    tables = _tables()
    look = region_tables(tables)
    biomes = sorted(t.split("/")[-1] for t in tables.ids() if t.startswith("region/encounters/"))
    assert len(biomes) >= 10
    out, _ = biome_encounters(tables, look, biomes, [], {}, Rng(seed))
    with_dice = 0
    for table in out:
        lines = tables.get(f"region/encounters/{table.terrain}").lookup
        for e, line in zip(table.entries, lines, strict=True):
            named = bestiary(tables).find(line["monster"])
            assert named is not None and e.monster == named.name
            assert (e.count, e.doing) == (line["count"], line["doing"])
            pattern, dice = _text_pattern(line.template)
            found = pattern.fullmatch(e.description)
            assert found, (table.terrain, e.roll, e.description, line.result)
            for number, formula in zip(found.groups(), dice, strict=True):
                assert formula.min <= int(number) <= formula.max
            with_dice += bool(dice)
    assert with_dice >= 2  # plains' wagons and the desert's camels, at least


def test_progress_reports_every_hex() -> None:
    seen: list[tuple[int, int]] = []
    generate_region(_tables(), Rng("bar"), radius=2, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (19, 19) and len(seen) == 19


# --------------------------------------------------------------------------- seeds


def test_site_seed_addresses_reproduce_the_sites(run_cli) -> None:
    # The region's address carries its radius, as `delve region --radius 4` makes it.
    region = generate_region(_tables(), Rng("odds-7@radius=4"), radius=4)
    sited = [h for h in region.hexes if h.site]
    assert sited
    for h in sited:
        assert h.site.seed == f"odds-7@radius=4/hex/{h.label}/site" == f"{h.seed}/site"
        again = generate_site(_tables(), Rng(h.site.seed), level=h.site.level, rooms=6)
        # The same site; the region may have named it afresh, clear of its other names.
        assert {**again.to_dict(), "name": h.site.name} == h.site.to_dict()
    h = sited[0]
    # The address alone: `delve site` rebuilds the region's hex and takes its site.
    res = run_cli("site", "--seed", h.site.seed, "-f", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out) == h.site.to_dict()
    assert res.out == to_json(h.site)


@FEW
@given(seed=SEEDS, which=st.integers(0, 18))
def test_reroll_changes_that_hex_alone(seed: str, which: int) -> None:
    base = generate_region(_tables(), Rng(seed), radius=2)
    label = base.hexes[which].label
    again = generate_region(_tables(), Rng(seed), radius=2, reroll=[label])
    a, b = base.to_dict(), again.to_dict()
    assert b["reroll"] == {label: 1}
    changed = [i for i, (x, y) in enumerate(zip(a["hexes"], b["hexes"], strict=True)) if x != y]
    assert changed == [which]
    old, new = a["hexes"][which], b["hexes"][which]
    assert new["seed"] == f"{seed}/hex/{label}/reroll/1" and new["rerolled"] == 1
    for key in ("label", "q", "r", "terrain", "travel_days", "encounter_odds", "level"):
        assert old[key] == new[key]
    for key in a:
        if key not in ("hexes", "reroll"):
            assert a[key] == b[key], key
    # The re-rolled hex's site, if any, reproduces from its own address.
    if new.get("site"):
        site = generate_site(_tables(), Rng(new["site"]["seed"]), level=new["level"])
        assert {**site.to_dict(), "name": new["site"]["name"]} == new["site"]


def test_reroll_twice_and_on_the_cli(run_cli) -> None:
    once = generate_region(_tables(), Rng("twice"), reroll=["0302"])
    twice = generate_region(_tables(), Rng("twice"), reroll=["0302", "0302"])
    assert twice.hex("0302").seed == "twice/hex/0302/reroll/2" and twice.reroll == {"0302": 2}
    assert once.hex("0302").to_dict() != twice.hex("0302").to_dict()
    res = run_cli("region", "--seed", "twice", "--reroll", "0302", "-f", "json")
    assert res.code == 0, res.err
    assert res.out == to_json(once)
    start = generate_region(_tables(), Rng("twice"), reroll=["0202"])
    assert start.hex("0202").stocking == "start" and start.hex("0202").haven is not None


# --------------------------------------------------------------------------- documents


@FEW
@given(seed=SEEDS)
def test_json_round_trip_is_lossless(seed: str) -> None:
    region = generate_region(_tables(), Rng(seed), radius=2)
    data = region.to_dict()
    text = json.dumps(data)
    back = from_dict(json.loads(text))
    assert isinstance(back, Region) and back.to_dict() == data
    for fmt in ("text", "md", "svg", "json"):
        assert render(back, fmt) == render(region, fmt)


def test_delve_render_takes_a_region_document(run_cli, tmp_path) -> None:
    res = run_cli("region", "--seed", "paper", "--radius", "2", "-f", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["seed"] == "paper@radius=2"
    doc = tmp_path / "region.json"
    doc.write_text(res.out)
    for fmt in ("json", "md", "text"):
        direct = run_cli("region", "--seed", "paper", "--radius", "2", "-f", fmt).out
        assert run_cli("render", str(doc), "-f", fmt).out == direct
    svg = tmp_path / "map.svg"
    assert run_cli("render", str(doc), "-f", "svg", "-o", str(svg)).code == 0
    region = generate_region(_tables(), Rng("paper@radius=2"), radius=2)
    assert svg.read_text() == render(region, "svg")


def test_edited_documents_name_the_json_path(run_cli, tmp_path) -> None:
    data = region_for("odds-8", 2).to_dict()
    cases = [
        (("hexes", 2, "stocking"), "castle", "region.hexes[2].stocking"),
        (("hexes", 3, "terrain"), "glacier", "region.hexes[3].terrain"),
        (("factions", 0, "base"), "9999", "region.factions[0].base"),
        (("hex_miles",), 7, "region.hex_miles"),
    ]
    for path, value, where in cases:
        broken = json.loads(json.dumps(data))
        node = broken
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        with pytest.raises(DocumentError, match=re.escape(where)):
            from_dict(broken)
        doc = tmp_path / "bad.json"
        doc.write_text(json.dumps(broken))
        res = run_cli("render", str(doc), "-f", "text")
        assert res.code == 1 and where in res.err and len(res.err.strip().splitlines()) == 1


def test_svg_map_reads_in_black_and_white() -> None:
    region = region_for("odds-9", 4)
    svg = render(region, "svg")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    for h in region.hexes:
        assert f">{h.label}</text>" in svg
    for key, biome in region.biomes.items():
        assert f'id="s-{key}"' in svg and biome.color in svg
    for icon in ("start", "haven", "site", "lair", "landmark"):
        assert f'id="i-{icon}"' in svg
    assert 'class="river"' in svg and "stroke-dasharray" in svg
    assert "Legend" in svg and "miles" in svg and "d6" in svg
    for side in ("NE", "SE", "SW", "NW"):
        assert f">{side}</text>" in svg
    # Large maps stay lean: every hex is a <use> of a shared definition.
    big = render(region_for("big", 12), "svg")
    assert len(big) / 469 < 700


def test_text_key_lists_every_hex_in_label_order() -> None:
    region = region_for("odds-10", 2)
    text = render(region, "text")
    positions = [text.index(f"\n{h.label} ") for h in region.hexes]
    assert positions == sorted(positions)
    assert "Wandering" in text and "d6" in text and "NE" in text
    md = render(region, "md")
    assert md.startswith(f"# {region.name}") and "| d6 |" in md
    for h in region.hexes:
        assert f"Address: {h.seed}" in md
        if h.site:
            assert f"Address: {h.site.seed}" in md


# --------------------------------------------------------------------------- golden files


@pytest.mark.parametrize(
    "name, options",
    [
        ("harrowdeep", {}),
        ("saltmarch", {"size": (4, 3), "hex_miles": 6, "level": 2}),
    ],
)
@pytest.mark.parametrize("fmt", ["json", "svg"])
def test_golden(name, options, fmt, request) -> None:
    region = generate_region(_tables(), Rng(name), **options)
    data = render(region, fmt)
    path = GOLDEN / f"region-{name}.{fmt}"
    if request.config.getoption("--regen-golden"):
        path.write_text(data)
    assert path.exists(), f"missing golden file {path}; run pytest --regen-golden"
    assert data == path.read_text(), f"{path} differs; if the change is meant, --regen-golden"


def test_same_seed_same_bytes_across_processes(tmp_path) -> None:
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        env.pop("DELVE_TABLES", None)
        res = subprocess.run(
            [sys.executable, "-m", "generator", "region", "--seed", "bytes", "-f", "json"],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            check=True,
        )
        outputs.append(res.stdout)
    assert outputs[0] == outputs[1] == to_json(generate_region(_tables(), Rng("bytes")))


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args, message",
    [
        (["--radius", "-1"], "--radius -1"),
        (["--size", "0x5"], "--size 0x5"),
        (["--size", "9999x9999"], "at most 99x99"),
        (["--radius", "50"], "radius 49"),
        (["--hex-miles", "7"], "must be 18 or 6"),
        (["--size", "4by4"], "WIDTHxHEIGHT"),
        (["--radius", "2", "--size", "3x3"], "not both"),
        (["--reroll", "0909"], "no hex '0909'"),
        (["--level", "0"], "--level"),
        (["-f", "graphml"], "not available for a region"),
    ],
)
def test_bad_input_is_one_clear_line(run_cli, args, message) -> None:
    res = run_cli("region", "--seed", "bad", *args)
    assert res.code == 1
    lines = [line for line in res.err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("delve: error:") and message in lines[0]


def _user_tables(tmp_path: Path, rel: str, text: str) -> Path:
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return tmp_path


BIOMES_HEAD = """\
    title: Biomes
    fields:
      key: str
      name: str
      difficult: bool
      passable: bool
      color: str
      symbol: str
      neighbours: list
    entries:
      - key: plains
        name: Plains
        difficult: false
        passable: true
        color: "#c4d49a"
        symbol: grass
        neighbours: [forest]
        result: Grass.
      - key: forest
        name: Forest
        difficult: false
        passable: true
        color: "#87a66f"
        symbol: tree
"""


@pytest.mark.parametrize(
    "tail, message",
    [
        ("    neighbours: [plains, glacier]\n    result: Trees.\n", "unknown biome 'glacier'"),
        (
            "    neighbours: [plains]\n    result: Trees.\n"
            "  - key: tundra\n    name: Tundra\n    difficult: true\n    passable: true\n"
            '    color: "#ffffff"\n    symbol: grass\n    neighbours: [plains]\n'
            "    result: Cold.\n",
            "has no table 'region/landmarks/tundra'",
        ),
        (
            "    neighbours: [plains]\n    result: Trees.\n"
            "  - key: ice\n    name: Ice\n    difficult: true\n    passable: true\n"
            '    color: "#ffffff"\n    symbol: snowflake\n    neighbours: [plains]\n'
            "    result: Cold.\n",
            "symbol 'snowflake'",
        ),
    ],
)
def test_unknown_terrain_in_user_tables(run_cli, tmp_path, tail, message) -> None:
    folder = _user_tables(
        tmp_path, "region/biomes.yaml", BIOMES_HEAD + textwrap.indent(tail, "    ")
    )
    res = run_cli("--tables", str(folder), "region", "--seed", "t")
    assert res.code == 1, res.out
    assert message in res.err and "biomes.yaml:" in res.err
    assert all(line.startswith("delve: error:") for line in res.err.splitlines() if line)


def test_unknown_encounter_monster_in_user_tables(run_cli, tmp_path) -> None:
    folder = _user_tables(
        tmp_path,
        "region/encounters/plains.yaml",
        """\
        title: Plains encounters
        die: d6
        fields:
          monster: str
          count: str
          doing: str
        entries:
          - roll: 1-6
            monster: Snark
            count: 1d4
            doing: are hunting
            result: A snark.
        """,
    )
    res = run_cli("--tables", str(folder), "region", "--seed", "t")
    assert res.code == 1 and "unknown monster 'Snark'" in res.err and "plains.yaml:" in res.err


def test_library_errors_are_delve_errors() -> None:
    with pytest.raises(DelveError, match="18 or 6"):
        generate_region(_tables(), Rng("x"), hex_miles=7)
    with pytest.raises(DelveError, match="at most 99x99"):
        generate_region(_tables(), Rng("x"), size=(9999, 9999))
