"""Fuzzed documents for `delve render`: one located line and exit 1, or a good render.

A saved site and a saved region are edited, one field at a time (an empty list, an empty or
hostile text, a number one past its neighbour...) and structurally (fields dropped, retyped,
grown, nested), then rendered in every format, with the danger estimates (the simulation) on
and off. A good render must also be good output: SVG and GraphML parse as XML, HTML parses
with no script and its inline SVG parses as XML, JSON reads back as a document, PNG and PDF
open, and text holds no control characters.

DELVE_FUZZ_EXAMPLES sets how many Hypothesis examples (200 by default), and
DELVE_FUZZ_SWEEP=all renders every single-field edit in every format (CI renders a stride of
them): `DELVE_FUZZ_EXAMPLES=5000 DELVE_FUZZ_SWEEP=all pytest tests/test_hostile_fuzz.py` is
the long run by hand (hours: the sweep alone is 1,712 site edits in 8 formats and 3,420 region
edits in 5, about 31,000 renders, each bounded on its own).
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hostile import assert_one_line, render
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from generator.render import documents

EXAMPLES = int(os.environ.get("DELVE_FUZZ_EXAMPLES", "200"))
SWEEP_ALL = os.environ.get("DELVE_FUZZ_SWEEP") == "all"
FORMATS = {
    "site": ["text", "md", "json", "svg", "png", "html", "graphml", "uvtt"],
    "region": ["text", "md", "json", "svg", "html"],
}
PDF_SHARE = 40  # one example in this many is a PDF (a booklet takes seconds)


# --------------------------------------------------------------------------- good output

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")  # form feed too
_SVG_ROOT = "{http://www.w3.org/2000/svg}svg"


def _no_script(root: ET.Element, where: str) -> None:
    """No script element, no on* handler and no javascript: link anywhere under root."""
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""
        assert tag.lower() != "script", f"{where}: a <script> element"
        for name, value in el.attrib.items():
            local = name.rsplit("}", 1)[-1].lower()
            assert not local.startswith("on"), f"{where}: an {local} attribute"
            assert "javascript:" not in value.lower(), f"{where}: a javascript: link"


def check_output(fmt: str, stdout: str, path: Path | None) -> None:
    """What a render that succeeded wrote must be well-formed output of its format."""
    data = path.read_bytes() if path is not None else stdout.encode("utf-8")
    if fmt in ("svg", "graphml"):
        root = ET.fromstring(data)  # raises on anything not well-formed
        if fmt == "svg":
            assert root.tag == _SVG_ROOT
            _no_script(root, "svg")
    elif fmt == "html":
        import tinyhtml5

        text = data.decode("utf-8")
        _no_script(tinyhtml5.parse(text), "html")
        for n, svg in enumerate(re.findall(r"<svg\b.*?</svg>", text, re.S)):
            _no_script(ET.fromstring(svg), f"inline svg {n}")
    elif fmt == "json":
        documents.from_dict(json.loads(data))  # a document Delve writes, Delve reads
    elif fmt == "uvtt":
        assert isinstance(json.loads(data), dict)
    elif fmt == "png":
        from PIL import Image

        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        Image.open(io.BytesIO(data)).verify()
    elif fmt == "pdf":
        import pypdf

        assert data.startswith(b"%PDF-")
        assert len(pypdf.PdfReader(io.BytesIO(data)).pages) >= 1
    else:  # text and md go to a terminal: no escape sequences, no form feeds
        bad = _CONTROL.search(data.decode("utf-8"))
        assert bad is None, f"{fmt}: control character U+{ord(bad.group()):04X}"


def render_and_check(folder: Path, doc: Any, fmt: str, danger: bool) -> tuple[int, str]:
    """Render doc in fmt; a failure must be one line, a success good output. (code, err)"""
    path = folder / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = folder / f"out.{fmt}" if fmt in documents.FILE_FORMATS else None
    if out is not None:
        out.unlink(missing_ok=True)
    code, stdout, err = render(path, fmt, out, danger)
    # The CLI's last resorts are one line too, but each means a bound is missing somewhere.
    assert "ran out of memory" not in err and "nested too deeply" not in err, err
    if code:
        assert_one_line(code, err)
        assert out is None or not out.exists(), "a failed render left a file"
    else:
        assert "Traceback" not in err and "internal error" not in err, err
        check_output(fmt, stdout, out)
    return code, err


# --------------------------------------------------------------------------- edits


def paths(node: Any, prefix: tuple = (), items: int = 3) -> list[tuple]:
    """Every field's path in node (the first few items of each list)."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k), items)
    elif isinstance(node, list):
        for i, v in enumerate(node[:items]):
            out += paths(v, (*prefix, i), items)
    return out


def variants(value: Any) -> list[Any]:
    """Edits a referee (or an attacker) might make to one field, keeping or changing its type."""
    if isinstance(value, bool):
        return [not value, 1]
    if isinstance(value, int):
        return [0, -1, value + 1, value - 1, value * 100, 10**12, str(value)]
    if isinstance(value, float):
        return [0.0, -1.0, value * 100, 1e300]
    if isinstance(value, str):
        return ["", " ", "0000", value + "x", "<&>\"'", '"/><script>alert(1)</script>', "x" * 5000]
    if isinstance(value, list):
        return [[], value[:1], value + value[:1], value[::-1], value * 20, None]
    if isinstance(value, dict):
        return [{}, [], dict(list(value.items())[:1])]
    return [0, "", [], {}]


def edited(base: dict[str, Any], path: tuple, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(base)
    parent: Any = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = copy.deepcopy(value)
    return doc


WEIRD = [
    None,
    True,
    0,
    -1,
    7,
    10**400,
    10**13,
    1.5,
    float("inf"),
    "",
    "x",
    "\ud800",
    "a\x00b",
    "a\x1b[31mb",
    "\u202eevil",
    [],
    {},
    [[]],
    {"a": 1},
    "1d6",
    "d1000000000",
    "x" * 3000,
]


@st.composite
def single_edit(draw: Any, base: dict[str, Any]) -> dict[str, Any]:
    path = draw(st.sampled_from(paths(base)[1:]))
    parent: Any = base
    for key in path[:-1]:
        parent = parent[key]
    return edited(base, path, draw(st.sampled_from(variants(parent[path[-1]]))))


@st.composite
def structural_edit(draw: Any, base: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        every = paths(doc, items=6)[1:]
        if not every:
            break
        path = draw(st.sampled_from(every))
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        key, value = path[-1], parent[path[-1]]
        how = draw(st.sampled_from(["drop", "retype", "grow", "nest", "swap"]))
        if how == "drop":
            del parent[key]
        elif how == "retype":
            parent[key] = copy.deepcopy(draw(st.sampled_from(WEIRD)))
        elif how == "grow":
            if isinstance(value, list):
                parent[key] = value * draw(st.sampled_from([2, 10, 60]))
            elif isinstance(value, str):
                parent[key] = value * 500
            elif isinstance(value, bool):
                parent[key] = not value
            elif isinstance(value, (int, float)):
                parent[key] = value * draw(st.sampled_from([-1, 1000, 10**9]))
            elif isinstance(value, dict):
                value["extra"] = copy.deepcopy(value)
        elif how == "nest":
            parent[key] = draw(st.sampled_from([[value], {"x": value}, [[[[value]]]]]))
        else:  # swap in the value of another field of the document
            other = draw(st.sampled_from(every))
            source: Any = doc
            for k in other:
                source = source[k]
            parent[key] = copy.deepcopy(source)
    return doc


# --------------------------------------------------------------------------- the fuzz


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    phases=[Phase.generate],  # report every failure as it came: shrinking a render is slow
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_fuzzed_documents_render_or_fail_in_one_line(
    tmp_path_factory, bounded, site_doc, region_doc, data
):
    kind = data.draw(st.sampled_from(["site", "region"]))
    base = site_doc if kind == "site" else region_doc
    how = data.draw(st.sampled_from([single_edit, structural_edit]))
    doc = data.draw(how(base))
    pdf = data.draw(st.integers(1, PDF_SHARE)) == 1
    fmt = "pdf" if pdf else data.draw(st.sampled_from(FORMATS[kind]))
    danger = data.draw(st.booleans())
    with bounded(seconds=300, memory_mb=2048):
        render_and_check(tmp_path_factory.mktemp("fuzz"), doc, fmt, danger)


def _sweep(base: dict[str, Any]) -> list[tuple[tuple, Any]]:
    out = []
    for path in paths(base, items=2)[1:]:
        parent: Any = base
        for key in path[:-1]:
            parent = parent[key]
        out += [(path, v) for v in variants(parent[path[-1]])]
    return out


SWEEP_STRIDE = 1 if SWEEP_ALL else 9  # CI renders every 9th edit, each in one format


@pytest.mark.parametrize("kind", ["site", "region"])
def test_every_single_field_edit_renders_or_fails_in_one_line(
    tmp_path, bounded, site_doc, region_doc, kind
):
    base = site_doc if kind == "site" else region_doc
    edits = _sweep(base)
    assert len(edits) > 500  # the sweep reaches into rooms, hexes, sites, stat blocks
    formats = FORMATS[kind]
    failed = rendered = 0
    for n, (path, value) in enumerate(edits[::SWEEP_STRIDE]):
        doc = edited(base, path, value)
        for fmt in formats if SWEEP_ALL else [formats[n % len(formats)]]:
            danger = SWEEP_ALL or n % 4 == 0
            what = f"{kind} {path} = {str(value)[:60]!r}, {fmt}"
            try:  # each render bounded (the whole sweep of every edit takes hours)
                with bounded(seconds=300, memory_mb=2048):
                    code, _ = render_and_check(tmp_path, doc, fmt, danger)
            except (AssertionError, TimeoutError, MemoryError) as err:
                raise AssertionError(f"{what}: {type(err).__name__}: {err}") from None
            failed += code != 0
            rendered += 1
    # Most edits are refused, but many are harmless and must still render.
    assert 0 < failed < rendered
