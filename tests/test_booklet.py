"""Booklets: HTML through the user's templates, PDF through WeasyPrint, read back with pypdf.

PDF rendering is slow, so each PDF is made once per module (fixtures) and read by many tests.
"""

from __future__ import annotations

import io
import os
import re
import socket
import time
import urllib.request
from pathlib import Path

import pypdf
import pytest
from markupsafe import escape

from generator.build.site import generate_site
from generator.engine.rng import Rng
from generator.errors import TemplateError
from generator.render import booklet, documents, isolate, pdf

SEED = "harrowdeep"
ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- helpers


def norm(text: str) -> str:
    """Extracted PDF text, lower case, hyphenation undone, whitespace collapsed.

    Lower case because WeasyPrint's synthesized small caps come back in mixed case."""
    text = re.sub(r"[\u2010\u00ad-]\n", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def pages_text(data: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def toc_entries(page_text: str) -> list[tuple[str, int]]:
    """(title, page) for each contents line 'Title ........ 7'."""
    out = []
    for line in page_text.splitlines():
        m = re.match(r"^(.*?)\s*\.{4,}\s*(\d+)\s*$", line.strip())
        if m:
            out.append((m.group(1), int(m.group(2))))
    return out


def heading_on(page_text: str, title: str) -> bool:
    """Whether a line of the page is the heading `title` (a room's heading may end in a tag,
    and a long room name wraps onto a second line)."""
    want = norm(title.replace(". ", " ", 1) if re.match(r"^\d+\. ", title) else title)
    lines = page_text.splitlines()
    for i, line in enumerate(lines):
        for got in (norm(line), norm(" ".join(lines[i : i + 2]))):
            if got == want or got.startswith(want + " "):
                return True
    return False


def without_cover(html: str) -> str:
    return re.sub(r'<section class="cover" id="cover">.*?</section>', "", html, flags=re.S)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def site(builtin_tables):
    return generate_site(builtin_tables, Rng(SEED))


@pytest.fixture(scope="module")
def site_html(site) -> str:
    return booklet.booklet_html(site, booklet.make_options())


@pytest.fixture(scope="module")
def site_pdf(site) -> bytes:
    return booklet.booklet_pdf(site, booklet.make_options())


@pytest.fixture(scope="module")
def site_pages(site_pdf) -> list[str]:
    return pages_text(site_pdf)


@pytest.fixture(scope="module")
def region(builtin_tables):
    from generator.build.region import generate_region

    return generate_region(builtin_tables, Rng(SEED))


@pytest.fixture(scope="module")
def region_run(region):
    """The region booklet's PDF, with every progress report made while rendering it."""
    reports: list[tuple[str, float]] = []
    options = booklet.make_options(progress=lambda stage, done: reports.append((stage, done)))
    return booklet.booklet_pdf(region, options), reports


@pytest.fixture(scope="module")
def region_pages(region_run) -> list[str]:
    return pages_text(region_run[0])


# --------------------------------------------------------------------------- the site booklet


def test_site_pdf_holds_every_room_monster_and_hoard(site, site_pages):
    text = norm(" ".join(site_pages))
    for room in site.rooms:
        assert norm(room.name) in text, room.name
    for name in site.bestiary:
        assert norm(name) in text, name
    for room in site.rooms:
        if room.hoard:
            assert f"{room.hoard.value_cp:,} c.p." in text
            for item in room.hoard.items:
                assert f"{item.value_cp:,} c.p." in text
    assert norm(site.seed) in text
    assert "fmc basic" in text
    assert norm(site.history_text[:60]) in text
    for e in site.encounters:
        assert norm(e.doing) in text  # written for its count by the tables


def test_site_pdf_page_count_is_sensible(site_pages):
    # Cover and contents, map, history and key, encounters and monsters, treasure, summary.
    assert 5 <= len(site_pages) <= 12


def test_contents_page_numbers_are_where_the_headings_are(site, site_pages):
    entries = toc_entries(site_pages[0])
    titles = [norm(t) for t, _ in entries]
    for want in ("map", "history", "room key", "random encounters", "treasure", "referee summary"):
        assert want in titles
    assert len(entries) >= 7 + len(site.rooms)
    for title, page in entries:
        assert 1 < page <= len(site_pages), (title, page)
        assert heading_on(site_pages[page - 1], title), f"{title!r} is not on page {page}"
    numbers = [n for _, n in entries]
    assert numbers == sorted(numbers)


def test_pages_carry_numbers_and_running_heads(site, site_pages):
    for number, text in enumerate(site_pages[1:], start=2):
        assert text.strip().splitlines()[-1].strip() == str(number)
        assert norm(site.name) in norm(text)  # the running head names the booklet


def test_the_summary_ends_the_booklet_with_the_totals(site, site_pages):
    """The summary flows on from the treasure list (issue 12: no half-empty pages before it)
    and ends the booklet; its pages hold the totals."""
    after_the_contents = site_pages[1:]
    start = next(i for i, page in enumerate(after_the_contents) if "referee summary" in norm(page))
    summary = norm(" ".join(after_the_contents[start:]))
    assert f"{site.monster_xp:,}" in summary and f"{site.treasure_cp:,}" in summary
    assert f"{site.monster_xp + site.treasure_cp:,}" in summary


def test_same_seed_same_pdf_bytes(site, site_pdf, monkeypatch):
    # An hour later, in the same process: no date, no random identifier, no font timestamp.
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 3600)
    again = booklet.booklet_pdf(site, booklet.make_options())
    assert again == site_pdf
    reader = pypdf.PdfReader(io.BytesIO(site_pdf))
    meta = reader.metadata or {}
    assert "/CreationDate" not in meta and "/ModDate" not in meta
    assert meta.get("/Title") == site.name


def test_a5_pages_are_a5_with_one_column(site):
    options = booklet.make_options("a5")
    html = booklet.booklet_html(site, options)
    assert "size: A5" in html and "columns: 1" in html
    data = pdf.html_to_pdf(html, options)
    box = pypdf.PdfReader(io.BytesIO(data)).pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)


def test_letter_paper_in_the_css(site):
    html = booklet.booklet_html(site, booklet.make_options("letter"))
    assert "size: letter" in html and "columns: 2" in html


def test_html_is_one_self_contained_page(site_html, site):
    assert site_html.startswith("<!DOCTYPE html>")
    assert "<style>" in site_html and "@page" in site_html
    assert "<svg" in site_html  # the map, inline
    assert 'href="http' not in site_html and 'src="' not in site_html
    ids = re.findall(r'\sid="([^"]+)"', site_html)
    assert len(ids) == len(set(ids))


# --------------------------------------------------------------------------- the region booklet


def test_region_booklet_holds_hexes_sites_lairs_and_stat_blocks(region, region_pages):
    text = norm(" ".join(region_pages))
    assert norm(region.name) in text
    for h in region.hexes:
        assert h.label in text
        if h.haven:
            assert norm(h.haven.name) in text
            for npc in h.haven.npcs:
                assert norm(npc.name) in text
        if h.site:
            for room in h.site.rooms:
                assert norm(room.name) in text
        if h.lair and h.lair.hoard:
            assert f"{h.lair.hoard.value_cp:,} c.p." in text
    for fa in region.factions:
        assert norm(fa.name) in text
    for name in region.bestiary:
        assert norm(name) in text
    assert 8 <= len(region_pages) <= 60


def test_region_contents_page_numbers(region, region_pages):
    entries = toc_entries(region_pages[0])
    titles = [norm(t) for t, _ in entries]
    for want in ("hex map", "hex key", "havens", "factions", "encounter tables", "stat blocks"):
        assert want in titles
    for title, page in entries:
        if title.lower() == "sites":  # points at the first site chapter
            continue
        assert heading_on(region_pages[page - 1], title), f"{title!r} is not on page {page}"


def test_region_html_has_unique_ids_and_each_site_as_a_chapter(region):
    html = booklet.booklet_html(region, booklet.make_options())
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    for h in region.hexes:
        assert f'id="hex-{h.label}"' in html
        if h.site:
            assert f'id="site-{h.label}"' in html
            assert f'id="h{h.label}-room-1"' in html
    labels = re.findall(r'<article class="hex room" id="hex-(\d+)"', html)
    assert labels == sorted(labels)


def test_region_progress_goes_through_html_and_pdf(region_run):
    _, reports = region_run
    stages = [s for s, _ in reports]
    assert stages[0] == "html" and stages[-1] == "pdf"
    assert ("html", 1.0) in reports and ("pdf", 1.0) in reports
    pdf_done = [d for s, d in reports if s == "pdf"]
    assert pdf_done == sorted(pdf_done)


# --------------------------------------------------------------------------- templates


def test_builtin_templates_are_where_the_wheel_expects_them():
    folder = booklet.builtin_templates_dir()
    for name in ("base.html.j2", "site.html.j2", "region.html.j2", "booklet.css"):
        assert (folder / name).is_file()
    assert (folder / "parts" / "cover.html.j2").is_file()
    assert '"templates" = "generator/_data/templates"' in (ROOT / "pyproject.toml").read_text()


def test_a_user_cover_changes_only_the_cover(site, site_html, tmp_path):
    write(tmp_path, "parts/cover.html.j2", "<h1>My own cover for {{ site.name }}</h1>\n")
    html = booklet.booklet_html(site, booklet.make_options(templates=[tmp_path]))
    assert f"My own cover for {escape(site.name)}" in html  # as the template escapes it
    assert "My own cover" not in site_html
    assert without_cover(html) == without_cover(site_html)


def test_user_folders_layer_in_order_and_can_extend_the_builtin(site, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    write(first, "parts/cover.html.j2", "<p>first cover</p>")
    write(second, "parts/cover.html.j2", "<p>second cover</p>")
    write(
        second,
        "site.html.j2",
        '{% extends "!builtin/site.html.j2" %}{% block style %}.x { color: red; }{% endblock %}',
    )
    html = booklet.booklet_html(site, booklet.make_options(templates=[first, second]))
    assert "first cover" in html and "second cover" not in html
    assert ".x { color: red; }" in html and "Room key" in html


def test_a_user_stylesheet_replaces_the_builtin_one(site, tmp_path):
    write(tmp_path, "booklet.css", "/* mine */ @page { size: {{ paper.size }}; }")
    html = booklet.booklet_html(site, booklet.make_options(templates=[tmp_path]))
    assert "/* mine */ @page { size: A4; }" in html
    assert "string-set" not in html


def test_undefined_value_names_the_template_and_line(site, tmp_path):
    cover = "<h1>{{ site.name }}</h1>\n<p>{{ site.motto }}</p>\n"
    path = write(tmp_path, "parts/cover.html.j2", cover)
    with pytest.raises(TemplateError) as err:
        booklet.booklet_html(site, booklet.make_options(templates=[tmp_path]))
    message = str(err.value)
    assert f"{path}:2:" in message and "motto" in message
    assert "\n" not in message


def test_syntax_error_names_the_template_and_line(site, tmp_path):
    path = write(tmp_path, "parts/history.html.j2", "<h2>History</h2>\n\n{% if %}\n")
    with pytest.raises(TemplateError) as err:
        booklet.booklet_html(site, booklet.make_options(templates=[tmp_path]))
    assert f"{path}:3:" in str(err.value) and "syntax" in str(err.value)


def test_a_missing_include_names_who_asked_for_it(site, tmp_path):
    path = write(tmp_path, "parts/cover.html.j2", '{% include "parts/nowhere.html.j2" %}')
    with pytest.raises(TemplateError) as err:
        booklet.booklet_html(site, booklet.make_options(templates=[tmp_path]))
    assert "parts/nowhere.html.j2" in str(err.value) and str(path) in str(err.value)


def test_table_text_is_escaped(site):
    doc = documents.from_dict(site.to_dict())
    doc.rooms[0].name = "<script>alert(1)</script> & Sons"
    doc.rooms[0].description = '<img src="file:///etc/passwd"> <b>bold</b>'
    html = booklet.booklet_html(doc, booklet.make_options())
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons" in html
    assert '<img src="file:///etc/passwd">' not in html and "&lt;b&gt;bold&lt;/b&gt;" in html


# --------------------------------------------------------------------------- what may be read


class Recorder:
    """Watches every way a fetch could leave the template folders."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fetchers: list[pdf.FolderFetcher] = []
        self.opened: list[str] = []
        self.connected: list[object] = []
        recorder = self

        class Watched(pdf.FolderFetcher):
            def __init__(self, folders):
                super().__init__(folders)
                recorder.fetchers.append(self)

        real_open = urllib.request.OpenerDirector.open

        def opener(director, url, *args, **kwargs):
            full = url if isinstance(url, str) else url.full_url
            recorder.opened.append(full)
            return real_open(director, url, *args, **kwargs)

        def connect(sock, address):
            recorder.connected.append(address)
            raise OSError("no network in tests")

        monkeypatch.setattr(pdf, "FolderFetcher", Watched)
        monkeypatch.setattr(urllib.request.OpenerDirector, "open", opener)
        monkeypatch.setattr(socket.socket, "connect", connect)

    @property
    def refused(self) -> list[str]:
        return [u for f in self.fetchers for u in f.refused]

    @property
    def served(self) -> list[Path]:
        return [p for f in self.fetchers for p in f.served]


def test_fetcher_serves_the_template_folders_and_refuses_the_rest(tmp_path, monkeypatch):
    rec = Recorder(monkeypatch)
    user = tmp_path / "mine"
    write(user, "logo.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')
    write(tmp_path, "secret.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')
    (user / "link.svg").symlink_to(tmp_path / "secret.svg")
    html = (
        '<img src="logo.svg"><img src="file:///etc/passwd"><img src="http://example.com/a.png">'
        '<img src="https://example.com/b.png"><img src="../secret.svg"><img src="link.svg">'
        f'<img src="{(tmp_path / "secret.svg").as_uri()}"><img src="ftp://example.com/c">'
        "<style>@import url(http://example.com/x.css);</style>"
    )
    warnings: list[str] = []
    options = booklet.make_options(templates=[user], warn=warnings.append)
    data = pdf.html_to_pdf(html, options)
    assert data.startswith(b"%PDF")
    assert rec.served == [(user / "logo.svg").resolve()]
    refused = " ".join(rec.refused)
    for bad in (
        "file:///etc/passwd",
        "http://example.com/a.png",
        "https://example.com/b.png",
        "secret.svg",
        "link.svg",
        "ftp://example.com/c",
        "http://example.com/x.css",
    ):
        assert bad in refused, bad
    assert rec.opened == [] and rec.connected == []
    assert any("file:///etc/passwd" in w for w in warnings)


def test_a_user_template_and_table_text_cannot_reach_out(site, tmp_path, monkeypatch):
    rec = Recorder(monkeypatch)
    # In this process, so the recorder sees every fetch (user templates otherwise render in a
    # child process: tests/test_hostile_templates.py covers that path).
    monkeypatch.setattr(isolate, "run", lambda fn, options, *args: fn(options, *args))
    write(
        tmp_path,
        "parts/cover.html.j2",
        '<h1>{{ site.name }}</h1><img src="file:///etc/passwd"><img src="http://example.com/t.png">'
        '<div style="background: url(http://example.com/bg.png)">x</div>',
    )
    doc = documents.from_dict(site.to_dict())
    doc.rooms[0].description = '<img src="http://example.com/table.png"> & <script>x</script>'
    data = booklet.booklet_pdf(doc, booklet.make_options(templates=[tmp_path]))
    refused = " ".join(rec.refused)
    assert "file:///etc/passwd" in refused and "http://example.com/t.png" in refused
    assert "http://example.com/bg.png" in refused
    assert "table.png" not in refused  # table text is text, never markup: nothing to fetch
    assert rec.served == [] and rec.opened == [] and rec.connected == []
    text = re.sub(r"\s+", " ", " ".join(pages_text(data)))
    assert '<img src="http://example.com/table.png"> & <script>x</script>' in text


# --------------------------------------------------------------------------- the command line


def test_cli_site_pdf_goes_to_output_by_default(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("site", "--seed", SEED, "--format", "pdf")
    assert result.code == 0, result.err
    path = Path("output") / f"site-{SEED}.pdf"
    assert f"wrote {path}" in result.err
    assert path.read_bytes().startswith(b"%PDF")
    assert [p.name for p in Path("output").iterdir()] == [path.name]  # no temporary left


def test_cli_render_html_from_a_saved_document_and_a_region_shows_progress(run_cli, tmp_path, site):
    doc = tmp_path / "site.json"
    doc.write_text(documents.to_json(site), encoding="utf-8")
    out = tmp_path / "site.html"
    result = run_cli("render", doc, "--format", "html", "--paper", "a5", "-o", out)
    assert result.code == 0, result.err
    assert "size: A5" in out.read_text(encoding="utf-8")
    region_out = tmp_path / "region.html"
    result = run_cli("region", "--seed", SEED, "--format", "html", "-o", region_out)
    assert result.code == 0, result.err
    assert "region booklet" in result.err
    assert region_out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--paper", "b7"], "--paper b7: must be one of a4, letter, a5"),
        (["--templates", "/no/such/folder"], "--templates /no/such/folder: no such folder"),
        (["-o", "/no/such/folder/site.pdf"], "folder /no/such/folder does not exist"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_1(run_cli, args, says):
    result = run_cli("site", "--seed", SEED, "--format", "pdf", *args)
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and lines[0].startswith("delve: error:")


def test_cli_output_into_a_file_not_a_folder(run_cli, tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    result = run_cli("site", "--seed", SEED, "--format", "html", "-o", blocker / "site.html")
    assert result.code == 1 and "does not exist" in result.err
    assert blocker.read_text() == "x"


@pytest.mark.parametrize(
    ("template", "says"),
    [
        ("<h1>{{ site.name }}</h1>\n{{ site.nope }}\n", "cover.html.j2:2: template uses an"),
        ("<h1>{% if %}</h1>\n", "cover.html.j2:1: template syntax error"),
    ],
)
def test_cli_broken_template_leaves_no_file(run_cli, tmp_path, template, says):
    folder = tmp_path / "tpl"
    write(folder, "parts/cover.html.j2", template)
    out = tmp_path / "site.pdf"
    result = run_cli("site", "--seed", SEED, "-f", "pdf", "--templates", folder, "-o", out)
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0]
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["tpl"]
    out.write_text("old")
    assert run_cli("site", "--seed", SEED, "-f", "pdf", "--templates", folder, "-o", out).code == 1
    assert out.read_text() == "old"  # a failed render never touches the file already there


def test_cli_output_into_a_folder_that_cannot_be_written(run_cli, tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        result = run_cli("site", "--seed", SEED, "-f", "pdf", "-o", locked / "site.pdf")
    finally:
        locked.chmod(0o755)
    assert result.code == 1 and "cannot write in" in result.err
    assert list(locked.iterdir()) == []
