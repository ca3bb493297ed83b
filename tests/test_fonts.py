"""Nothing in a booklet prints under 6 pt, at any paper size (issue 12: labels on the A5 map
were about 3 pt).

Font sizes are read out of the PDF: pypdf's text visitor gives each run's font size, its text
matrix and the current transformation, and the size on paper is the font size times the
vertical scale of the two together. The booklet's own text is set in DejaVu's condensed faces;
text in any other face is drawn by a map's SVG: on a region's hex-map pages that is the region
map (checked like everything else), elsewhere it is a site map, which the maps work replaces
(its check is marked below, to switch on when the new map lands).
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from functools import cache

import pypdf
import pytest

from generator.build import address
from generator.engine.tables import TableSet
from generator.render import booklet

FLOOR_PT = 6.0
PAPERS = ("a4", "letter", "a5")


@dataclass(frozen=True)
class Run:
    size: float  # points on paper
    page: int
    face: str
    text: str

    @property
    def in_a_map(self) -> bool:
        return "Condensed" not in self.face


def _times(m: list[float], n: list[float]) -> list[float]:
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return [
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    ]


def runs(data: bytes) -> tuple[list[Run], list[str]]:
    """Every run of text with its printed size, and each page's text."""
    out: list[Run] = []
    texts: list[str] = []
    for number, page in enumerate(pypdf.PdfReader(io.BytesIO(data)).pages, 1):

        def visit(text, cm, tm, font, size, number=number):  # noqa: ANN001
            if not text.strip() or not font:
                return
            m = _times(list(tm), list(cm))
            printed = size * math.hypot(m[2], m[3])
            face = str(font.get("/BaseFont", ""))
            out.append(Run(round(printed, 2), number, face, text.strip()[:40]))

        texts.append(page.extract_text(visitor_text=visit))
    return out, texts


@cache
def _tables() -> TableSet:
    return TableSet.load(use_env=False)


@cache
def booklet_runs(kind: str, paper: str) -> tuple[list[Run], list[str]]:
    """The booklet as `delve site|region --format pdf` makes it: with its danger estimates
    (their verdicts in small capitals were once under 6 pt on A5)."""
    from generator.sim.danger import estimate_region, estimate_site

    seed = "harrowdeep" if kind == "site" else "saltmarch"
    model = address.build(_tables(), seed, kind).thing
    (estimate_site if kind == "site" else estimate_region)(_tables(), model, trials=200)
    return runs(booklet.booklet_pdf(model, booklet.make_options(paper)))


def hex_map_pages(texts: list[str]) -> set[int]:
    return {
        i
        for i, text in enumerate(texts, 1)
        if re.search(r"hex map", text, re.I) and not re.search(r"contents", text, re.I)
    }


def too_small(found: list[Run]) -> list[Run]:
    return sorted((r for r in found if r.size < FLOOR_PT), key=lambda r: r.size)[:10]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("kind", ["site", "region"])
def test_no_booklet_text_under_6_pt(kind, paper):
    found, texts = booklet_runs(kind, paper)
    maps = hex_map_pages(texts)
    checked = [r for r in found if not r.in_a_map or r.page in maps]
    assert len(checked) > 200
    verdicts = ("deadly", "hard", "fair", "easy", "trivial")
    assert any(r.text.lower().startswith(verdicts) for r in found), "danger is printed"
    assert too_small(checked) == []
    if kind == "region":
        assert any(r.in_a_map and r.page in maps for r in found), "the hex map's text is read"


@pytest.mark.parametrize("paper", PAPERS)
def test_no_site_map_text_under_6_pt(paper):
    """The site maps' own text (room numbers, legend, scale), read and measured: a map whose
    labels were paths or a picture would leave nothing to measure, and fails here."""
    small: list[Run] = []
    for kind in ("site", "region"):
        found, texts = booklet_runs(kind, paper)
        maps = hex_map_pages(texts)
        site_maps = [r for r in found if r.in_a_map and r.page not in maps]
        numbers = {r.text for r in site_maps if r.text.isdigit()}
        assert {"1", "2", "3", "4", "5", "6"} <= numbers, (kind, "the rooms' numbers are read")
        small += too_small(site_maps)
    assert small == []


def test_a_campaign_map_prints_its_labels_on_sheets_at_6_pt_or_more():
    """A region too big to label on one page (radius 6 on A5): the overview leaves its labels
    to sheets, and the sheets' labels print at 6 pt or more."""
    region = address.build(_tables(), "saltmarch", "region", {"radius": 6}).thing
    options = booklet.make_options("a5")
    html = booklet.booklet_html(region, options)
    # Only the map pages, to keep the test quick: the rest is checked above.
    cut = html[: html.rindex("<section", 0, html.index('id="travel"'))] + "</body></html>"
    from generator.render.pdf import html_to_pdf

    found, texts = runs(html_to_pdf(cut, options))
    sheets = [i for i, t in enumerate(texts, 1) if re.search(r"sheet \d+", t, re.I)]
    assert len(sheets) >= 2
    labels = [r for r in found if r.in_a_map and re.fullmatch(r"\d{4}", r.text)]
    assert {r.page for r in labels} <= set(sheets)  # labels only on the sheets
    assert len({r.text for r in labels}) == len(region.hexes)  # every hex labelled
    assert too_small(found) == []
