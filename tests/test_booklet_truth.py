"""Issue 12's booklet defects, each with a test that would have caught it: the cover's rebuild
command, the history told twice, treasure away from its room, a page holding only a Totals box,
the same rules page everywhere, passage clues printed nowhere, and broken words."""

from __future__ import annotations

import html as htmllib
import io
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pypdf
import pytest

from generator.build import address
from generator.engine import words
from generator.engine.tables import TableSet
from generator.render import booklet, documents
from generator.render.context import using_system
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
    # The text key wraps lines at a word's own hyphens ("war-" / "beasts"): keep them.
    text = documents.render(site, "text").replace("-\n", "- ")
    assert norm(text).replace("- ", "-").count(norm(site.history_text)) == 1


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


@dataclass
class Page:
    """A page's body text: its rows as pypdf lays them out on a grid of characters (blank rows
    standing for blank space), the grid's width, and how low its text goes (0 at the top of the
    body, 1 at the bottom), read from the baselines themselves. The running head and the page
    number are left out."""

    rows: list[str]
    width: int
    depth: float

    def fill(self) -> float:
        """How much of the page its text takes, its two halves measured apart and averaged: a
        key whose last page fills one column of two is half full. The grid tells how far each
        half goes against the other; the baselines, how far the longer goes."""
        middle = self.width // 2
        reach = []
        for half in (slice(None, middle), slice(middle, None)):
            used = [i for i, r in enumerate(self.rows) if r[half].strip()]
            reach.append(used[-1] + 1 if used else 0)
        if not max(reach):
            return 0.0
        return self.depth * (1 + min(reach) / max(reach)) / 2


def pages_of(data: bytes) -> list[Page]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    lows, grids = [], []
    for page in reader.pages:
        height = float(page.mediabox.height)
        ys: list[float] = []

        def visit(text, cm, tm, font, size, ys=ys, height=height):  # noqa: ANN001
            if text.strip():
                ys.append((tm[4] * cm[1] + tm[5] * cm[3] + cm[5]) / height)  # the baseline

        page.extract_text(visitor_text=visit)
        body = [y for y in ys if 0.06 < y < 0.935]  # not the running head or page number
        lows.append((max(body), min(body)) if body else None)
        rows = [r.rstrip() for r in page.extract_text(extraction_mode="layout").split("\n")]
        written = [i for i, r in enumerate(rows) if r.strip()]
        grid = rows[written[0] + 1 : written[-1]] if len(written) > 2 else []
        grids.append((grid, max((len(r) for r in rows), default=0)))
    top = max(hi for hi, _ in filter(None, lows[1:]))  # the cover aside
    bottom = min(lo for _, lo in filter(None, lows[1:]))
    return [
        Page(grid, width, (top - low[1]) / (top - bottom) if low else 0.0)
        for (grid, width), low in zip(grids, lows, strict=True)
    ]


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _heading_at(pages: list[Page], heading: str) -> tuple[int, bool]:
    """The page a part's heading is on, and whether it opens that page. A heading is a row that
    says just that (with the rules system after it in brackets), not a row of the contents."""
    for n, page in enumerate(pages):
        for i, row in enumerate(page.rows):
            if re.sub(r"\(.*\)$", "", _squash(row)) == _squash(heading):
                return n, not any(r.strip() for r in page.rows[:i])
    raise AssertionError(f"no heading {heading!r} in the PDF")


def wasted_pages(
    model, paper: str, parts: dict[str, str], full: float = 2 / 3, css: str = ""
) -> list[str]:
    """The parts (heading: the CSS selector of its section) that open a page while the page
    before is less than `full` filled, and would have fitted on it: laid out again with the
    part asked not to break before it, it starts part-way down a page. (A part's first block
    that may not split, a d6 table or a row of stat blocks with its heading, can take half an
    A5 page; a page that could not hold it is not wasted.) `css` is added to the booklet's."""
    from generator.render.pdf import html_to_pdf

    options = booklet.make_options(paper)
    html = booklet.booklet_html(model, options, "pdf").replace("</style>", f"{css}</style>", 1)
    pages = pages_of(html_to_pdf(html, options))
    wasted = []
    for heading, selector in parts.items():
        n, opens = _heading_at(pages, heading)
        if not opens or pages[n - 1].fill() >= full:
            continue
        held = f"{selector} {{ break-before: avoid !important; }}</style>"
        again = pages_of(html_to_pdf(html.replace("</style>", held, 1), options))
        if not _heading_at(again, heading)[1]:
            fill = pages[n - 1].fill()
            wasted.append(f"{heading}: page {n + 1} opens with it; page {n} is {fill:.0%} full")
    return wasted


SITE_PARTS = {
    "Random encounters": "section.part.encounters",
    "Monsters": "section.part.monsters",
    "Rules at the table": "section.part.rules",
    "Treasure": "section.part.treasure",
    "Referee summary": "section.part.summary",
}
REGION_PARTS = {
    "Travel and wandering": "section.part.travel",
    "Hex key": "section.part.hex-key",
    "Havens": "section.part.havens",
    "Factions": "section.part.factions",
    "Encounter tables": "section.part.encounters",
    # Chapters too: the lairs and the stat blocks each opened a page after a site's last page,
    # which often holds only its danger route (18% of an A4 page in saltmarch radius 2).
    "Lairs": "#lairs > h1.chapter",
    "Stat blocks": "#stat-blocks > h1.chapter",
}


@pytest.mark.parametrize("paper", ["a4", "a5"])
def test_the_site_booklet_flows_from_part_to_part(site, paper):
    """Issue 12: half-empty rules and summary pages. Read from the PDF: the encounters, the
    stat blocks, the rules, the treasure list and the summary open a page only when the page
    before could not hold them."""
    assert wasted_pages(site, paper, SITE_PARTS) == []


@pytest.fixture(scope="module")
def region2(tables):
    """A region of radius 2: sites, lairs and a stat-block appendix of several pages."""
    return address.build(tables, "saltmarch", "region", {"radius": 2}).thing


@pytest.mark.parametrize("paper", ["a4", "a5"])
def test_the_region_booklet_flows_from_part_to_part(region2, paper):
    """Issue 12's audit: the travel rules, the hex key, the havens, the factions and the
    encounter tables each opened a page, one of them after a page 37% full; the lairs and the
    stat blocks opened one after a page 18% full. They flow now, and the hex key's columns
    share its last page (one column filled left the other half empty). A site chapter still
    opens a page: its heading, lead and map fill one."""
    assert any(h.lair for h in region2.hexes)
    assert wasted_pages(region2, paper, REGION_PARTS) == []


def test_a_site_chapter_opens_on_the_page_of_its_map(region2):
    """A chapter that goes on down a page keeps its heading and lead with its map: on A5 the
    heading of saltmarch's 0305 once ended a page whose map began the next."""
    data = booklet.booklet_pdf(region2, booklet.make_options("a5"))
    text = [norm(t) for t in pages(data)]
    chapters = [h for h in region2.hexes if h.site]
    assert chapters
    for h in chapters:
        heading = norm(f"{h.label}: {h.site.name}")
        opened = [n for n, t in enumerate(text) if heading in t and "map:" in t]
        assert opened, f"{h.label}: its heading and its map are on different pages"


def test_a_part_forced_onto_a_new_page_is_found(site):
    """The check above can fail: rules made to open a page of their own are caught."""
    forced = "section.part.rules { break-before: page !important; }"
    assert wasted_pages(site, "a4", SITE_PARTS, css=forced) != []


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


# What a site calls for, derived here from the site itself and FMC Basic's rules, not from the
# renderer's rules_used.py: every encounter may come to talk, blows or flight; underground the
# wandering check, light and supplies; each kind of way and a trap to find; and each monster's
# special ability as its own text says it (a gaze that turns to stone, a hit that lowers maximum
# hit points, a cure each round, an area of effect, poison or venom).
EVERY_SITE = {"roll", "surprise", "initiative", "morale", "reaction", "fatigue"}
UNDERGROUND = {"wandering_site", "light", "consumables"}
SPECIAL_WORDS = {
    "petrify": r"stone|petrif",
    "energy_drain": r"maximum hit points by half the damage",
    "regeneration": r"\bcures?\b.*\b(each|every) round",
    "breath": r"\bradius\b|\bcone\b|\bacross\b",
    "poison": r"poison|venom",
}


def rules_this_site_calls_for(site) -> set[str]:
    keys = EVERY_SITE | UNDERGROUND | {c.obstacle for c in site.connections} - {"none"}
    traps = [r.trap for r in site.rooms if r.trap]
    if traps:
        keys.add("trap.find")
    if any(
        re.search(SPECIAL_WORDS["poison"], f"{t.effect} {t.description}".lower()) for t in traps
    ):
        keys.add("poison")
    met = {g.name for r in site.rooms for g in r.monsters} | {e.name for e in site.encounters}
    for name in met:
        monster = site.bestiary[name]
        keys |= {k for k, w in SPECIAL_WORDS.items() if re.search(w, monster.special.lower())}
        if monster.damage_type == "poison":
            keys.add("poison")
    return keys


def _printed_rules(system, page: str) -> set[str]:
    return {key for key, text in system.procedures() if norm(text) in page}


def test_rules_at_the_table_are_the_ones_each_theme_calls_for(tables):
    """Issue 12: the rules page was the same in every site. A site of every theme prints the
    rules its rooms, monsters and traps call for, and no others."""
    system = get_system(tables, "fmc")
    known = {key for key, _ in system.procedures()} - {"random_events"}
    seen: set[str] = set()
    with using_system(system):
        for i, theme in enumerate(e["key"] for e in tables.entries("site/themes")):
            site = address.build(tables, f"rules-{i}", "site", {"rooms": 12, "theme": theme}).thing
            text = norm(documents.render(site, "text"))
            page = text[text.index("rules at the table") : text.rindex("totals")]
            wanted = rules_this_site_calls_for(site) & known
            assert _printed_rules(system, page) == wanted, theme
            seen |= wanted
    # The themes call for every rule a site can need: each was checked printed and left out.
    assert known - {"wandering_region"} <= seen, sorted(known - seen)


@pytest.mark.parametrize("theme", ["salt-mine", "troll-lair", "spider-ruin", "ooze-aqueduct"])
def test_the_booklet_prints_the_rules_the_site_calls_for(tables, theme):
    site = address.build(tables, f"rules-{theme}", "site", {"rooms": 12, "theme": theme}).thing
    system = get_system(tables, "fmc")
    html = booklet.booklet_html(site, booklet.make_options())
    rules = plain(html[html.index('id="rules"') : html.index('id="treasure"')])
    wanted = rules_this_site_calls_for(site) & {k for k, _ in system.procedures()}
    assert _printed_rules(system, rules) == wanted
    assert "wandering_region" not in wanted


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
    # (Unescaped: an activity may hold an apostrophe, which the page writes as &#39;.)
    page = htmllib.unescape(booklet.booklet_html(site, booklet.make_options()))
    for room in site.rooms:
        for g in room.monsters:
            m = site.bestiary[g.name]
            label = words.count(g.count, g.name, m.plural)
            assert f"{label}</span> {words.agree(g.activity, g.count)}" in page
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
