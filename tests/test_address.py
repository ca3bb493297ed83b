"""Addresses: every part's recorded address gives that part back, from the address alone.

Issue 12: `delve hoard --seed harrowdeep/level/1/room/4/hoard --value 600` did not give room 4's
hoard (worth 500 c.p., held by d4 monsters); now the address alone does, for every part of every
kind, whatever options its root was made with.
"""

from __future__ import annotations

import html as htmllib
import json
import re
import shlex
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build import address
from generator.engine.tables import TableSet
from generator.errors import DelveError

FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = (
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
        min_size=1,
        max_size=12,
    )
    .map(str.strip)
    .filter(bool)
)


@cache
def _tables() -> TableSet:
    return TableSet.load(use_env=False)


def every_part_comes_back(part: address.Part) -> int:
    """Each part of the model under `part`, rebuilt from its address alone, is the same part."""
    checked = 0
    for thing in address.parts(part.thing):
        kind = address.KINDS.get(type(thing).__name__)
        if kind is None or not thing.seed:
            continue
        if kind == "lair" and thing.form != "room":
            # A lair of several rooms is its hex's site: its address says so and names it.
            with pytest.raises(DelveError, match=r"is a site of \d+ rooms; try `delve site"):
                address.build(_tables(), thing.seed, "region")
            continue
        again = address.build(_tables(), thing.seed, address.COMMAND_OF[kind])
        assert again.kind == kind
        assert again.thing.to_dict() == thing.to_dict(), thing.seed
        checked += 1
    return checked


@FEW
@given(
    seed=SEEDS,
    level=st.integers(1, 6),
    rooms=st.sampled_from([6, 12]),
    theme=st.sampled_from([None, "bog-barrow", "Dragon's lair"]),
)
def test_every_part_of_a_site_comes_back_from_its_address(seed, level, rooms, theme):
    site = address.build(_tables(), seed, "site", {"level": level, "rooms": rooms, "theme": theme})
    assert site.address == site.thing.seed
    # Rooms, hoards and weapons: 6 rooms and 2 hoards a level at least.
    assert every_part_comes_back(site) >= 8 * (rooms // 6) + 1


@FEW
@given(seed=SEEDS, radius=st.integers(0, 2), miles=st.sampled_from([None, 6]))
def test_every_part_of_a_region_comes_back_from_its_address(seed, radius, miles):
    region = address.build(_tables(), seed, "region", {"radius": radius, "miles": miles})
    assert every_part_comes_back(region) >= len(region.thing.hexes)


def test_the_readme_hoard_comes_back_with_its_worth_and_holders(run_cli):
    site = address.build(_tables(), "harrowdeep", "site").thing
    room = next(r for r in site.rooms if r.seed == "harrowdeep/level/1/room/4")
    res = run_cli("hoard", "--seed", "harrowdeep/level/1/room/4/hoard", "-f", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out) == room.hoard.to_dict()
    text = run_cli("hoard", "--seed", "harrowdeep/level/1/room/4/hoard").out
    assert f"Hoard worth {room.hoard.value_cp:,} c.p." in text
    assert f"holders' damage die {room.hoard.holder_die}" in text
    # An option beside a part's address could only disagree with it: refused.
    wrong = run_cli("hoard", "--seed", "harrowdeep/level/1/room/4/hoard", "--value", "600")
    assert wrong.code == 1 and "--value" in wrong.err and "\n" == wrong.err[-1]


def test_options_are_written_in_the_address_and_read_back(run_cli):
    made = run_cli(
        "site", "--seed", "harrowdeep", "--level", "3", "--theme", "Bog Barrow", "-f", "json"
    )
    doc = json.loads(made.out)
    assert doc["seed"] == "harrowdeep@level=3+theme=bog-barrow"
    again = run_cli("site", "--seed", doc["seed"], "-f", "json")
    assert again.out == made.out
    # Options the address carries may be given again if they agree, never if they differ.
    same = run_cli("site", "--seed", doc["seed"], "--level", "3", "-f", "json")
    assert same.out == made.out
    differ = run_cli("site", "--seed", doc["seed"], "--level", "2")
    assert differ.code == 1 and "level=3" in differ.err


def test_defaults_are_left_out_so_plain_seeds_keep_their_worlds():
    ts = _tables()
    assert address.build(ts, "harrowdeep", "site", {"level": 1, "rooms": 6}).address == "harrowdeep"
    assert address.build(ts, "harrowdeep@level=1", "site").address == "harrowdeep"
    assert address.build(ts, "x", "region", {"radius": 1, "miles": 18}).address == "x"
    assert address.build(ts, "x", "hoard", {"level": 2, "value": 2000}).address == "x@level=2"


@pytest.mark.parametrize(
    ("text", "seed", "options", "path"),
    [
        ("harrowdeep", "harrowdeep", {}, ""),
        ("me@home", "me@home", {}, ""),  # not options: a plain seed with an @
        ("a/b@level=2/level/1/room/4/hoard", "a/b", {"level": "2"}, "level/1/room/4/hoard"),
        ("x/level/2/y/level/1/room/4", "x/level/2/y", {}, "level/1/room/4"),
        ("s/hex/0302/reroll/2/lair/hoard/weapon", "s", {}, "hex/0302/reroll/2/lair/hoard/weapon"),
        ("e/hoard/3/weapon", "e", {}, "hoard/3/weapon"),
        ("e/weapon/3", "e", {}, "weapon/3"),
        ("dungeon/level/1", "dungeon/level/1", {}, ""),  # names no part: a plain seed
    ],
)
def test_parse_finds_the_shortest_root(text, seed, options, path):
    a = address.parse(text)
    assert (a.seed, a.options, a.path) == (seed, options, path)


def test_an_address_of_another_kind_names_the_command_that_makes_it(run_cli):
    res = run_cli("site", "--seed", "harrowdeep/level/1/room/4/hoard")
    assert res.code == 1 and "delve hoard --seed harrowdeep/level/1/room/4/hoard" in res.err
    res = run_cli("site", "--seed", "saltmarch/hex/0302/site")
    assert res.code == 1 and "haven" in res.err
    res = run_cli("site", "--seed", "harrowdeep@colour=red")
    assert res.code == 1 and "'colour' is not an option of a site" in res.err


def test_a_part_prints_as_text_md_or_json_only(run_cli):
    res = run_cli("region", "--seed", "saltmarch/hex/0302", "-f", "pdf")
    assert res.code == 1 and "text, md, json" in res.err
    for fmt in ("text", "md"):
        res = run_cli("region", "--seed", "saltmarch/hex/0302", "-f", fmt)
        assert res.code == 0 and "Address: saltmarch/hex/0302" in res.out


def test_a_rerolled_hex_implies_its_reroll(run_cli):
    region = address.build(_tables(), "twice", "region", reroll=["0302", "0302"]).thing
    h = region.hex("0302")
    assert h.seed == "twice/hex/0302/reroll/2"
    again = address.build(_tables(), h.seed, "region")
    assert again.thing.to_dict() == h.to_dict()


def test_count_children_carry_their_root_options(run_cli):
    res = run_cli("hoard", "--seed", "ember", "--level", "2", "--count", "2", "-f", "json")
    hoards = json.loads(res.out)
    assert [h["seed"] for h in hoards] == ["ember@level=2/hoard/1", "ember@level=2/hoard/2"]
    one = run_cli("hoard", "--seed", hoards[1]["seed"], "-f", "json")
    assert json.loads(one.out) == hoards[1]
    refused = run_cli("hoard", "--seed", hoards[1]["seed"], "--count", "2")
    assert refused.code == 1 and "--count" in refused.err


def test_a_bad_option_value_is_one_line():
    with pytest.raises(DelveError, match="level=x"):
        address.build(_tables(), "harrowdeep@level=x", "site")


@pytest.mark.parametrize(
    ("wrong", "says"),
    [
        ("harrowdeep/level/2/room/1", "the site harrowdeep has 1 level, so no level 2"),
        ("harrowdeep/level/1/room/9", "level 1 of harrowdeep has rooms 1 to 6, so no room 9"),
        ("harrowdeep/level/1/room/1/hoard", "room 1 of level 1 holds no treasure (HELD)"),
        ("harrowdeep/level/1/room/4/hoard/weapon", "room 4 of level 1 holds no magic weapon"),
    ],
)
def test_an_address_of_nothing_says_what_is_there(run_cli, wrong, says):
    """Issue 12: a room that is not there was 'no such part (its hoards are in its JSON)'.
    A room without treasure names the rooms that hold some (read from the site here: which
    they are changes with the room tables)."""
    if "HELD" in says:
        site = address.build(_tables(), "harrowdeep", "site").thing
        held = [r.seed.rsplit("/", 1)[1] for r in site.rooms if r.level == 1 and r.hoard]
        assert "1" not in held and len(held) > 1
        says = says.replace("HELD", f"rooms {' and '.join(held)} hold this level's")
    command = "hoard" if wrong.endswith("hoard") else "weapon" if "weapon" in wrong else "site"
    res = run_cli(command, "--seed", wrong)
    assert res.code == 1 and says in res.err and "JSON" not in res.err


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_a_rerolled_region_prints_an_address_that_gives_it_back(run_cli, tmp_path, fmt):
    """Issue 12: a re-rolled region printed 'Address: saltmarch', which alone makes the region
    before its re-rolls. Its address prints with them, and gives the region back."""
    out = ["-o", tmp_path / "r.html"] if fmt == "html" else []
    made = run_cli(
        "region", "--seed", "twice", "--reroll", "0302", "--reroll", "0302", "-f", fmt, *out
    )
    assert made.code == 0, made.err
    text = (tmp_path / "r.html").read_text() if out else made.out
    if fmt == "html":
        shown = re.search(r'<th>Address</th><td class="seed">(.*?)</td>', text).group(1)
    else:
        shown = re.search(r"Address: (.*?)\n\n", text, re.S).group(1)
    words = shlex.split(htmllib.unescape(re.sub(r"\s+", " ", shown)))
    assert words == ["twice", "--reroll", "0302", "--reroll", "0302"]
    again = run_cli("region", "--seed", *words, "-f", "json")
    rerolled = address.build(_tables(), "twice", "region", reroll=["0302", "0302"]).thing
    assert json.loads(again.out)["hexes"] == rerolled.to_dict()["hexes"]
