"""Hostile documents for `delve render`: each is one located line and exit 1, or a good render.

The probes of issue 11, one by one; the fuzz over whole documents is test_hostile_fuzz.py.
"""

from __future__ import annotations

import copy
import os
import re
from pathlib import Path

import pytest
from hostile import assert_one_line, edit, render, write

from generator.errors import DocumentError
from generator.render import documents

# --------------------------------------------------------------------------- the probes


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ('{"kind": "site", "level": ' + "9" * 5000 + "}", "site.level: a number of 5,000 digits"),
        ('{"kind": "site", "level": NaN}', "NaN"),
        ('{"kind": "site", "level": 1e400}', "site.level"),
    ],
    ids=["nested-100000", "5000-digits", "nan", "1e400"],
)
def test_unreadable_json_is_one_line(tmp_path, bounded, raw, says):
    with bounded(seconds=60, memory_mb=1024):
        code, _, err = render(write(tmp_path, None, raw), "text")
    assert_one_line(code, err, says)


@pytest.mark.parametrize(
    ("where", "value", "says"),
    [
        ("name", "\ud800", "site.name: text holds a lone surrogate"),
        ("name", "Crypt\x00", "site.name: text holds a control character (U+0000)"),
        ("history_text", "a\x1b[31m", "control character (U+001B)"),
        ("rooms.0.map.x", 10**400, "site.rooms[0].map.x"),
        ("rooms.0.map.x", 5000, "too far out"),
        ("rooms.0.level", 0, "site.rooms[0].level: must be 1 to 6, not 0"),
        ("rooms.0.level", 1_000_000, "site.rooms[0].level: must be 1 to 6"),
        ("level", 0, "site.level: must be 1 to 30"),
        ("level", 1_000_000, "site.level: must be 1 to 30"),
        ("rooms.1.monsters", [{"name": "x", "count": 10**9, "xp_each": 1}], "count"),
        # Each XP within bounds, their total (written back as totals.monster_xp) past them.
        (
            "rooms.1.monsters",
            [{"name": "x", "count": 100, "xp_each": 10**12}],
            "site.rooms: the monsters' XP add up to a number of 15 digits, more than 1,000,000,",
        ),
        ("seed", "x" * 200_000, "site.seed: a seed of 200,000 characters (at most 1,100)"),
        ("history_text", "x" * 200_000, "site.history_text: text of 200,000 characters"),
    ],
)
def test_a_site_past_what_the_generator_makes_is_one_line(
    tmp_path, bounded, site_doc, where, value, says
):
    doc = edit(site_doc, where, value)
    with bounded(seconds=60, memory_mb=1024):
        code, _, err = render(write(tmp_path, doc), "svg", tmp_path / "map.svg")
    assert_one_line(code, err, says)
    assert not (tmp_path / "map.svg").exists()


def test_a_room_moved_far_away_is_refused_before_any_search(tmp_path, bounded, site_doc):
    doc = copy.deepcopy(site_doc)
    moved = doc["rooms"][1]
    moved["map"]["x"] = moved["map"]["y"] = 990
    for c in doc["connections"]:
        if moved["id"] in (c["from"], c["to"]):
            for key in ("path", "door", "at", "to_at"):
                c.pop(key, None)
    with bounded(seconds=60, memory_mb=1024):
        code, _, err = render(write(tmp_path, doc), "svg", tmp_path / "map.svg")
    assert_one_line(code, err, "spans", "at most 250 x 250")


def test_a_bestiary_tag_that_is_a_number(tmp_path, site_doc):
    name = next(iter(site_doc["bestiary"]))
    doc = edit(site_doc, f"bestiary.{name}.tags", [7])
    code, _, err = render(write(tmp_path, doc), "text")
    assert_one_line(code, err, f"site.bestiary.{name}.tags[0]")


@pytest.mark.parametrize("what", ["rivers", "roads"])
@pytest.mark.parametrize("fmt", ["text", "svg", "html"])
def test_an_empty_river_or_road_path_is_one_line(tmp_path, region_doc, what, fmt):
    assert region_doc[what], f"the region fixture needs a {what[:-1]}"
    doc = edit(region_doc, f"{what}.0.path", [])
    code, _, err = render(write(tmp_path, doc), fmt, tmp_path / f"r.{fmt}")
    assert_one_line(code, err, f"region.{what}[0].path: must name at least one hex")


SCRIPT = '"/><script>alert(1)</script><g class="'


@pytest.mark.parametrize(
    ("where", "value", "says"),
    [
        ("biomes.plains.color", SCRIPT, "region.biomes.plains.color: "),
        ("biomes.plains.color", "red}</style><script>alert(1)</script>", "#rgb or #rrggbb"),
        ("biomes.plains.color", "red", "#rgb or #rrggbb"),
        ("hexes.1.label", "<script>alert(2)</script>", "region.hexes[1].label: must be four"),
        ("hexes.1.label", "0001", "region.hexes[1].label"),
        ("hexes.1.label", "١٢٣٤", "region.hexes[1].label"),
        ("hexes.1.q", 10**9, "region.hexes[1].q: must be -200 to 200"),
    ],
)
@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_a_document_cannot_write_markup_into_the_region_map(
    tmp_path, region_doc, where, value, says, fmt
):
    doc = edit(region_doc, where, value)
    code, _, err = render(write(tmp_path, doc), fmt, tmp_path / f"r.{fmt}")
    assert_one_line(code, err, says)
    assert not (tmp_path / f"r.{fmt}").exists()


@pytest.mark.parametrize(
    ("where", "value", "says"),
    [
        ("level", 10**12, "region.level: must be 1 to 30"),  # was blamed on --level
        ("hexes.0.level", 10**12, "region.hexes[0].level: must be 1 to 30"),
        ("reroll", {"0101": 10**12}, "region.reroll.0101: must be a count of 1 to 999"),
        ("reroll", {"x": 1}, "region.reroll: 'x' is not a hex label"),
        ("reroll", {"0909": 1}, "region.reroll.0909: no hex '0909'"),
        ("hexes.0.rerolled", 10**6, "region.hexes[0].rerolled: must be 0 to 999"),
    ],
)
def test_region_numbers_past_what_the_generator_makes_are_one_line(
    tmp_path, bounded, region_doc, where, value, says
):
    """A re-roll count of 10**12 made the booklet's recipe a list of 10**12 arguments."""
    doc = edit(region_doc, where, value)
    with bounded(seconds=60, memory_mb=512):
        code, _, err = render(write(tmp_path, doc), "html", tmp_path / "r.html")
    assert_one_line(code, err, says)


def test_a_lair_whose_monsters_add_up_past_any_number_is_one_line(tmp_path, bounded, region_doc):
    """Each group's XP within bounds, the lair's total (which the document carries) past them:
    Delve wrote it and then could not read it back."""
    at = next(
        i
        for i, h in enumerate(region_doc["hexes"])
        if (h.get("lair") or {}).get("form") == "room" and h["lair"]["monsters"]
    )
    group = dict(region_doc["hexes"][at]["lair"]["monsters"][0], count=100, xp_each=10**12)
    doc = edit(region_doc, f"hexes.{at}.lair.monsters", [group])
    with bounded(seconds=60, memory_mb=512):
        code, _, err = render(write(tmp_path, doc), "json", tmp_path / "r.json")
    assert_one_line(code, err, f"region.hexes[{at}].lair.monsters: the monsters' XP add up to")
    assert not (tmp_path / "r.json").exists()


def test_a_seed_longer_than_the_cli_takes_is_one_line_not_minutes_of_layout(
    tmp_path, bounded, region_doc
):
    """The fuzz's find: a region seed grown to 7,000 characters took a PDF 141 s of CPU time
    (WeasyPrint lays it out on every page). A seed is what --seed takes, with an address."""
    doc = edit(region_doc, "seed", region_doc["seed"] * 500)
    with bounded(seconds=60, memory_mb=512):
        code, _, err = render(write(tmp_path, doc), "pdf", tmp_path / "r.pdf")
    assert_one_line(code, err, "region.seed: a seed of 7,000 characters (at most 1,100)")
    site = edit(region_doc, "hexes.0.seed", "s" * 1_101)
    code, _, err = render(write(tmp_path, site), "text")
    assert_one_line(code, err, "region.hexes[0].seed: a seed of 1,101 characters")


# A word pyphen finds hyphenation points in all along (a run of one letter has none, and lays
# out fast either way).
LONG_WORD = "supercalifragilistic" * 250


def test_a_word_of_five_thousand_letters_makes_a_pdf_in_seconds(tmp_path, bounded, site_doc):
    """WeasyPrint hyphenates a long word in time that grows steeply with its length (a
    3,000-letter word in a stat block took 514 s of CPU; this document more than 60 s). A word
    longer than 100 characters prints with a zero-width space every 100 (templating.breakable);
    the maps' SVG, which is Markup, is left as it is."""
    doc = edit(site_doc, "name", LONG_WORD)
    doc = edit(doc, "theme_name", LONG_WORD)  # the fuzz's find: the map's second line
    doc = edit(doc, "rooms.0.name", LONG_WORD)
    doc = edit(doc, "rooms.1.description", f"A long hall. {LONG_WORD} Then a door.")
    path = write(tmp_path, doc)
    with bounded(seconds=60, memory_mb=1024):
        code, _, err = render(path, "pdf", tmp_path / "long.pdf")
    assert code == 0, err
    assert (tmp_path / "long.pdf").read_bytes().startswith(b"%PDF-")
    code, _, err = render(path, "html", tmp_path / "long.html")
    assert code == 0, err
    html = (tmp_path / "long.html").read_text(encoding="utf-8")
    broken = "\u200b".join(LONG_WORD[i : i + 100] for i in range(0, len(LONG_WORD), 100))
    assert f"A long hall. {broken} Then a door." in html  # broken every 100, nothing lost
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    # The map's title lines, their name and theme cut to 64 characters (a wider drawing
    # shrinks on the page and its labels search ever more squares: over a minute), hold words
    # the finalize leaves whole; so do the page heads, which hold one line.
    assert svgs and all(f"{LONG_WORD[:61]}..." in svg for svg in svgs)
    assert f'data-running-title="{LONG_WORD[:61]}..."' in html
    assert not any("\u200b" in svg for svg in svgs)


def test_a_long_stat_block_description_makes_a_pdf_in_seconds(tmp_path, bounded, site_doc):
    """The fuzz's find: a monster's description grown to 50,000 characters took a region PDF
    minutes, as WeasyPrint measured the stat block's least width in a row of two (a flex item's
    automatic minimum) by breaking its text line by line, in time that grows with the square
    of its length. The booklet's CSS gives stat blocks a least width of 0."""
    name = next(iter(site_doc["bestiary"]))
    sentence = "Quiet folk who travel by night with muffled oars and hooded lanterns. "
    doc = edit(site_doc, f"bestiary.{name}.description", (sentence * 800)[:50_000])
    with bounded(seconds=90, memory_mb=1024):
        code, _, err = render(write(tmp_path, doc), "pdf", tmp_path / "long.pdf")
    assert code == 0, err


@pytest.mark.parametrize("system", ["fmc", "fortmayn", "f4c", "fantasy-core"])
def test_the_built_in_booklets_hold_no_zero_width_space(tmp_path, run_cli, system):
    """Delve's own text has no word near 100 characters, so the breaks never show in it; nor
    in an address or the rebuild command (typed back in), however long the seed."""
    long_seed = "harrowdeep" * 16  # 160 characters, no space: --seed takes up to 1,000
    for command, seed, extra in [
        ("site", "harrowdeep", []),
        ("site", long_seed, []),
        ("region", "saltmarch", ["--radius", "1"]),
    ]:
        out = tmp_path / f"{command}-{system}-{len(seed)}.html"
        result = run_cli(
            command, "--seed", seed, "--system", system, "-f", "html", "-o", out, *extra
        )
        assert result.code == 0, result.err
        html = out.read_text(encoding="utf-8")
        assert "\u200b" not in html, (command, seed)
        if seed == long_seed:
            assert f'<span class="word">{long_seed}</span>' in html  # the rebuild command


@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_a_biome_key_or_terrain_that_is_not_a_key_is_one_line(tmp_path, region_doc, fmt):
    doc = copy.deepcopy(region_doc)
    doc["biomes"][SCRIPT] = doc["biomes"].pop("plains")
    for h in doc["hexes"]:
        if h["terrain"] == "plains":
            h["terrain"] = SCRIPT
    code, _, err = render(write(tmp_path, doc), fmt, tmp_path / f"r.{fmt}")
    assert_one_line(code, err, "region.biomes: the key", "lower-case letters")


def test_the_region_map_checks_what_it_writes_even_unread(region_doc):
    """A region made in memory (never read from a document) still cannot write markup."""
    from generator.errors import DelveError
    from generator.render.region_svg import region_svg

    region = documents.from_dict(region_doc)
    region.biomes["plains"].color = SCRIPT
    with pytest.raises(DelveError, match="colour"):
        region_svg(region)
    region = documents.from_dict(region_doc)
    region.hexes[0].terrain = region.biomes["plains"].key = SCRIPT
    region.biomes[SCRIPT] = region.biomes.pop("plains")
    with pytest.raises(DelveError, match="biome key"):
        region_svg(region)


@pytest.mark.parametrize(
    ("where", "value", "says", "fmt"),
    [
        ("name", "", "site.name: must not be empty", "svg"),
        ("name", "   ", "site.name: must not be empty", "png"),
        ("name", "", "site.name: must not be empty", "html"),
        ("encounters.0.name", "Nobody", "site.encounters[0].name: 'Nobody' has no stat", "text"),
        ("encounters.0.count", "d1000000000", "site.encounters[0].count:", "text"),
        ("encounters.0.count", "1d6*100", "a group is 0 to 100 monsters", "md"),
        ("encounters.0.count", "x", "site.encounters[0].count: dice 'x'", "html"),
        ("bestiary.Skeleton.dc", 10**12, "site.bestiary.Skeleton.dc: must be 0 to 30", "text"),
    ],
)
def test_edits_that_broke_a_renderer_or_the_simulation_are_one_line(
    tmp_path, site_doc, where, value, says, fmt
):
    doc = edit(site_doc, where, value)
    out = tmp_path / f"out.{fmt}" if fmt in documents.FILE_FORMATS else None
    code, _, err = render(write(tmp_path, doc), fmt, out, danger=True)
    assert_one_line(code, err, says)


def test_an_encounter_missing_from_the_bestiary_stops_the_sim_too(tmp_path, site_doc, run_cli):
    doc = edit(site_doc, "encounters.0.name", "Nobody")
    result = run_cli("sim", write(tmp_path, doc), "--trials", "10")
    assert_one_line(result.code, result.err, "site.encounters[0].name")


def test_an_edited_document_that_stays_in_bounds_still_renders(tmp_path, site_doc):
    doc = edit(site_doc, "history_text", "Built by <b>Tabs</b>\tand\nlines, & more.")
    code, out, err = render(write(tmp_path, doc), "text")
    assert code == 0, err
    assert "Built by <b>Tabs</b>" in out


def test_from_dict_checks_in_memory_documents_too(site_doc):
    with pytest.raises(DocumentError, match=r"site\.rooms\[0\]\.level"):
        documents.from_dict(edit(site_doc, "rooms.0.level", 0))


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
@pytest.mark.parametrize("command", ["render", "sim"])
def test_a_document_that_is_not_a_file_is_refused_unread(tmp_path, bounded, run_cli, kind, command):
    """`mkfifo doc.json; delve render doc.json` blocked forever on the read."""
    path = tmp_path / "doc.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path = Path("/dev/zero")  # endless, were it read
    args = ["-f", "text", "--no-danger"] if command == "render" else ["--trials", "10"]
    with bounded(seconds=15, memory_mb=256):
        result = run_cli(command, path, *args)
    says = {"fifo": "is a pipe (FIFO)", "folder": "is a folder", "device": "is a device"}[kind]
    assert_one_line(result.code, result.err, f"{path}: {says}")


def test_a_second_entrance_is_one_line(tmp_path, site_doc):
    """The long fuzz's find: a room made an entrance by hand beside the site's own was given a
    way in that did not touch it, so `render -f json` wrote a document `render` refused."""
    doc = edit(site_doc, "rooms.1.entrance", True)
    code, _, err = render(write(tmp_path, doc), "json", tmp_path / "out.json")
    assert_one_line(code, err, "site.rooms[1].entrance: a site has one way in from outside")
