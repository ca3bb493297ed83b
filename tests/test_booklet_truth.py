"""Issue 12's booklet defects, each with a test that would have caught it: the cover's rebuild
command, the history told twice, treasure away from its room, a page holding only a Totals box,
the same rules page everywhere, passage clues printed nowhere, and broken words."""

from __future__ import annotations

import html as htmllib
import io
import json
import re
import shlex
from pathlib import Path

import pypdf
import pytest

from generator.build import address
from generator.engine import words
from generator.engine.tables import TableSet
from generator.render import booklet, documents
from generator.render.context import using_system
from generator.render.rules_used import site_keys
from generator.render.treasure_text import hoard_text, weapon_text
from generator.systems import get_system

SEED = "harrowdeep"


def norm(text: str) -> str:
    text = re.sub(r"[\u2010\u00ad-]\n", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def pages(data: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def plain(markup: str) -> str:
    """The text of some HTML; table cells are kept apart with '|' (a row's '1' is a die roll),
    inline tags leave no space ('saint</b>, 25' reads 'saint, 25')."""
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S)
    markup = re.sub(r"</t[dh]>", " | ", markup)
    markup = re.sub(r"</?(b|i|em|strong|span|a|small|sup|sub|code)\b[^>]*>", "", markup)
    return norm(htmllib.unescape(re.sub(r"<[^>]+>", " ", markup)))


@pytest.fixture(scope="module")
def tables() -> TableSet:
    return TableSet.load(use_env=False)


@pytest.fixture(scope="module")
def site(tables):
    return address.build(tables, SEED, "site").thing


@pytest.fixture(scope="module")
def site_html(site) -> str:
    return booklet.booklet_html(site, booklet.make_options())


@pytest.fixture(scope="module")
def region(tables):
    return address.build(tables, SEED, "region").thing


@pytest.fixture(scope="module")
def region_pdf(region) -> bytes:
    return booklet.booklet_pdf(region, booklet.make_options())


# --------------------------------------------------------------------------- rebuild commands


def _command_after(text: str, start: str) -> list[str]:
    """The command printed after 'byte for byte:' on a cover, as arguments. The contents heading
    is set in small capitals, and the PDF's text layer may give any mix of cases for it (the
    glyphs it shares with capitals in the site's name decide), so it is matched in any case."""
    flat = re.sub(r"\s+", " ", text)
    found = re.search(r"byte for byte: (delve .*?)(?: (?i:contents)|$)", flat)
    assert found, flat[:600]
    args = shlex.split(found.group(1))
    assert args[:2] == ["delve", start]
    return args[1:]


def test_the_site_cover_command_makes_the_same_pdf(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = tmp_path / "first.pdf"
    made = run_cli(
        "site",
        "--seed",
        SEED,
        "--theme",
        "bog-barrow",
        "--rooms",
        "12",
        "--format",
        "pdf",
        "--paper",
        "a5",
        "--system",
        "f4c",
        "-o",
        first,
    )
    assert made.code == 0, made.err
    args = _command_after(pages(first.read_bytes())[0], "site")
    assert "--paper" in args and "--system" in args and "bog-barrow" in " ".join(args)
    again = run_cli(*args)
    assert again.code == 0, again.err
    written = re.search(r"wrote (\S+)", again.err).group(1)
    assert Path(written).read_bytes() == first.read_bytes()


def test_the_region_cover_command_makes_the_same_html(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "my-tables" / "site"
    mine.mkdir(parents=True)
    (mine / "room-smells.yaml").write_text("title: Smells\nentries:\n  - result: old rope\n")
    first = tmp_path / "first.html"
    made = run_cli(
        "--tables",
        "my-tables",
        "region",
        "--seed",
        SEED,
        "--level",
        "2",
        "--reroll",
        "0302",
        "--reroll",
        "0302",
        "--mono",
        "--paper",
        "letter",
        "--format",
        "html",
        "-o",
        first,
    )
    assert made.code == 0, made.err
    page = first.read_text(encoding="utf-8")
    shown = re.search(r'<span class="seed command">(.*?)</span></p>', page).group(1)
    args = shlex.split(htmllib.unescape(re.sub(r"<[^>]+>", "", shown)))
    assert args[:3] == ["delve", "--tables", "my-tables"]
    assert args.count("--reroll") == 2 and "--mono" in args and "harrowdeep@level=2" in args
    again = run_cli(*args[1:])
    assert again.code == 0, again.err
    written = re.search(r"wrote (\S+)", again.err).group(1)
    assert Path(written).read_text(encoding="utf-8") == page


def test_text_keys_print_their_rebuild_command(run_cli):
    res = run_cli("region", "--seed", SEED, "--reroll", "0302", "-f", "md")
    line = next(x for x in res.out.splitlines() if x.startswith("Rebuild: "))
    again = run_cli(*shlex.split(line[len("Rebuild: ") :])[1:])
    assert again.out == res.out


# --------------------------------------------------------------------------- addresses


def _addresses(root) -> list[str]:
    """The address of every part of a site or region that gives something back (a lair of
    several rooms is its hex's site, printed as that)."""
    return [
        t.seed
        for t in address.parts(root)
        if address.KINDS.get(type(t).__name__) and t.seed and getattr(t, "form", "room") == "room"
    ]


def _printed(wanted: list[str], text: str) -> set[str]:
    """The addresses that stand whole in the text, read without its spaces (a long address may
    break across lines): at each place the longest address that fits is the one printed, so
    room/1 inside room/1/hoard or room/12 does not count for room 1."""
    flat = re.sub(r"\s+", "", text)
    pattern = "|".join(re.escape(a) for a in sorted(set(wanted), key=len, reverse=True))
    return {m.group(0) for m in re.finditer(pattern, flat)}


def test_every_address_is_printed_in_every_format(site, region, region_pdf):
    """Issue 12: every part's address (site, room, hoard, weapon; region, hex, haven, lair, a
    hex's site and its rooms) prints in text, markdown, HTML and PDF, not only in the JSON."""
    kinds = set()
    site_pdf = booklet.booklet_pdf(site, booklet.make_options())
    for root, pdf in ((site, site_pdf), (region, region_pdf)):
        wanted = _addresses(root)
        kinds |= {type(t).__name__ for t in address.parts(root) if getattr(t, "seed", None)}
        outputs = {
            "text": documents.render(root, "text"),
            "md": documents.render(root, "md"),
            "html": htmllib.unescape(re.sub(r"<[^>]+>", " ", documents.render(root, "html"))),
            "pdf": " ".join(pages(pdf)),
        }
        for fmt, text in outputs.items():
            missing = sorted(set(wanted) - _printed(wanted, text))
            assert missing == [], (fmt, missing[:4])
    assert {"Room", "Hoard", "MagicWeapon", "Hex", "Haven", "Lair", "Site"} <= kinds, kinds


# --------------------------------------------------------------------------- the site booklet


def test_the_history_is_told_once(site, site_html):
    history = site_html[site_html.index('id="history"') : site_html.index('id="rooms"')]
    assert plain(history).count(norm(site.history_text)) == 1
    assert "<table" not in history  # the six answers are the story; no table repeating it
    text = documents.render(site, "text")
    assert norm(text).count(norm(site.history_text)) == 1


def test_treasure_prints_in_the_room_where_it_lies(site, site_html):
    assert "See the treasure list" not in site_html
    rooms = [r for r in site.rooms if r.hoard]
    assert rooms
    for room in rooms:
        start = site_html.index(f'id="room-{room.id}"')
        article = plain(site_html[start : site_html.index("</article>", start)])
        for item in room.hoard.items:
            assert norm(item.name) in article, item.name
        assert norm(room.hoard.seed) in article
        assert f"{room.hoard.value_cp:,} c.p." in article
    # The treasure list stays as a summary, each hoard with its address.
    listing = plain(site_html[site_html.index('id="treasure"') :])
    for room in rooms:
        assert norm(room.hoard.seed) in listing


def test_rules_summary_and_treasure_flow_instead_of_starting_pages(site_html):
    for part in ("rules", "treasure", "summary"):
        assert re.search(rf'<section class="part follows {part}"', site_html), part
    assert not re.search(r"section\.summary\s*\{[^}]*break-before:\s*page", site_html)


def test_no_region_page_holds_only_the_totals(region, region_pdf):
    assert any(h.site for h in region.hexes)
    for number, text in enumerate(pages(region_pdf), 1):
        body = text.strip().splitlines()[1:-1]  # without the running head and the page number
        flat = norm(" ".join(body))
        assert not (len(flat) < 400 and "stat blocks are at the back" in flat), number


def test_chapter_totals_open_the_chapter(region):
    html = booklet.booklet_html(region, booklet.make_options())
    for h in region.hexes:
        if h.site:
            start = html.index(f'id="site-{h.label}"')
            lead = html[start : html.index("</p>", start)]
            assert f"{h.site.treasure_cp:,} c.p." in lead and h.site.seed in lead


# --------------------------------------------------------------------------- rules used


@pytest.mark.parametrize("seed", [f"rules-{i}" for i in range(8)])
def test_rules_at_the_table_are_the_ones_this_site_uses(tables, seed):
    site = address.build(tables, seed, "site", {"rooms": 12}).thing
    system = get_system(tables, "fmc")
    html = booklet.booklet_html(site, booklet.make_options())
    rules = plain(html[html.index('id="rules"') : html.index('id="treasure"')])
    used = site_keys(site, system)
    for key, text in system.procedures():
        if key == "random_events":
            continue
        assert (norm(text) in rules) == (key in used), key
    obstacles = {c.obstacle for c in site.connections}
    assert ("locked_door" in used) == ("locked_door" in obstacles)
    assert "wandering_region" not in used and "wandering_site" in used


def test_a_region_prints_its_travel_rule(tables, region):
    system = get_system(tables, "fmc")
    html = booklet.booklet_html(region, booklet.make_options())
    rules = plain(html[html.index('id="rules"') :])
    assert norm(system.term("wandering_region")) in rules


# --------------------------------------------------------------------------- passages


def test_passage_clues_print_in_every_format(tables, site):
    system = get_system(tables, "fmc")
    with using_system(system):
        outputs = {
            "text": norm(documents.render(site, "text")),
            "md": norm(documents.render(site, "md")),
            "html": plain(documents.render(site, "html")),
        }
    pdf = norm(" ".join(pages(booklet.booklet_pdf(site, booklet.make_options()))))
    outputs["pdf"] = pdf.replace("- ", "")
    open_ways = [c for c in site.connections if c.obstacle == "none" and c.passage]
    assert open_ways, "the site has open ways whose clue must print"
    for c in site.connections:
        for fmt, text in outputs.items():
            clue = norm(system.reword(c.passage))
            assert clue in text or clue.replace("-", "") in text, (fmt, c.passage)


# --------------------------------------------------------------------------- words


ARTICLE = re.compile(r"\b(an?|An?) ([A-Za-z][\w'-]*)")
# Two marks where one belongs ("25 c.p..", "hoard,.", "door:;"); an abbreviation's full stop
# before a comma is English ("3 g.p., 12 s.p."), an ellipsis is three.
DOUBLED = re.compile(
    r"(?<![.\s])\s?\.\s?\.(?!\s?\.)|[,;:]\s*[,;:.!?]|[!?]\s*[.,;:]|(?<![A-Za-z]\.[A-Za-z])\.\s*[,;:]"
)
BROKEN = [
    (DOUBLED, "doubled punctuation"),
    (re.compile(r"\(\("), "double brackets"),
    (re.compile(r"\b1 [A-Za-z][\w' -]*? (are|have|were)\b"), "one of a kind with a plural verb"),
    (re.compile(r"\b1 (hit dice|levels|slots|hexes|days|rooms|sites)\b"), "1 with a plural"),
]


@pytest.mark.parametrize("system", ["fmc", "fortmayn"])
@pytest.mark.parametrize("seed", ["harrowdeep", "words-1", "words-2", "words-3"])
def test_no_broken_words_in_any_format(tables, seed, system):
    site = address.build(tables, seed, "site", {"rooms": 12}).thing
    region = address.build(tables, seed, "region").thing
    hoards = [r.hoard for r in site.rooms if r.hoard]
    with using_system(get_system(tables, system)):
        chosen = get_system(tables, system)
        texts = [
            documents.render(site, "text"),
            documents.render(site, "md"),
            plain(booklet.booklet_html(site, booklet.make_options())),
            documents.render(region, "text"),
            documents.render(region, "md"),
            plain(booklet.booklet_html(region, booklet.make_options())),
            *(hoard_text(h, chosen) for h in hoards),
            *(weapon_text(i.weapon, chosen) for h in hoards for i in h.items if i.weapon),
        ]
    _no_broken_words(texts)


def _no_broken_words(texts: list[str]) -> None:
    """No wrong article, doubled mark or broken count in any text. A plain-text table's row
    ('1  Mounted raiders  2d6  are riding...') reads as prose once its columns are flattened:
    the counts are checked on the prose alone."""
    for text in texts:
        flat = re.sub(r"\s+", " ", text)
        prose = re.sub(r"\s+", " ", re.sub(r"(?m)^.*\S {2,}\S.*$", "", text))
        for found in ARTICLE.finditer(flat):
            said, word = found.group(1).lower(), found.group(2)
            assert said == words.article(word), flat[found.start() - 60 : found.end() + 60]
        for pattern, what in BROKEN:
            read = flat if pattern is DOUBLED else prose
            found = pattern.search(read)
            assert found is None, (what, read[max(0, found.start() - 60) : found.end() + 60])


def test_one_monster_is_and_several_are(tables, site):
    lines = documents.render(site, "text")
    for room in site.rooms:
        for g in room.monsters:
            m = site.bestiary[g.name]
            label = words.count(g.count, g.name, m.plural)
            html = booklet.booklet_html(site, booklet.make_options())
            assert f"{label}</span> {words.agree(g.activity, g.count)}" in html
    assert "1 hit dice" not in lines


# --------------------------------------------------------------------------- black on white


def test_mono_draws_the_region_map_black_on_white(run_cli, tmp_path, region):
    from generator.render.region_svg import RIVER, ROAD, region_svg

    colours = {b.color.lower() for b in region.biomes.values()} | {RIVER.lower(), ROAD.lower()}
    coloured = region_svg(region).lower()
    assert any(c in coloured for c in colours)
    mono = region_svg(region, mono=True).lower()
    assert not any(c in mono for c in colours)
    out = tmp_path / "map.svg"
    assert run_cli("region", "--seed", SEED, "--mono", "-f", "svg", "-o", out).code == 0
    assert out.read_text(encoding="utf-8").lower() == mono


def test_no_broken_words_in_the_pdfs_and_the_exports(run_cli, tmp_path, site, region_pdf):
    """The PDFs (their text layer) and the folder exports (every note of a vault, every string
    of the Foundry documents) hold no doubled marks or broken words either."""
    texts = [" ".join(pages(booklet.booklet_pdf(site, booklet.make_options()))).replace("-\n", "")]
    texts.append(" ".join(pages(region_pdf)))
    for fmt in ("vault", "foundry"):
        out = tmp_path / fmt
        assert run_cli("site", "--seed", SEED, "--format", fmt, "-o", out).code == 0
        for path in sorted(out.rglob("*")):
            if path.suffix == ".md":  # the note without its front matter (`level: 1`)
                texts.append(
                    re.sub(r"\A---\n.*?\n---\n", "", path.read_text(encoding="utf-8"), flags=re.S)
                )
            elif path.suffix == ".json":
                texts += [plain(t) for t in _strings(json.loads(path.read_text(encoding="utf-8")))]
    _no_broken_words(texts)


def _strings(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        data = list(data.values())
    if isinstance(data, list):
        return [s for item in data for s in _strings(item)]
    return []
