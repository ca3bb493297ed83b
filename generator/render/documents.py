"""Documents by kind: read a saved JSON document back, and render a model in a format.

Each kind (site, region...) lists its formats here, so `delve render` works on any saved
document and the generator commands share one path to the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.errors import DelveError, DocumentError

Renderer = Callable[[Any], "str | bytes"]

# format -> (renderer, writes a file by default rather than stdout)
FILE_FORMATS = {"svg", "png", "uvtt", "graphml", "html", "pdf"}
EXTENSIONS = {"md": "md", "text": "txt", "uvtt": "dd2vtt"}  # the rest: the format's name


def to_json(model: Any) -> str:
    return json.dumps(model.to_dict(), indent=2, ensure_ascii=False) + "\n"


def graphml(site: Any) -> str:
    import networkx as nx

    return "\n".join(nx.generate_graphml(site.graph())) + "\n"


# kind -> format -> "module:function". Renderers are imported only when their format is asked
# for, so `delve site --format json` never loads Jinja, WeasyPrint or the map code.
_BOOKLETS = {
    "html": "generator.render.booklet:booklet_html",
    "pdf": "generator.render.booklet:booklet_pdf",
}
# Formats that write a folder of files (-o DIR) through generator/export/: (model, FolderWriter).
FOLDER_FORMATS = {
    "foundry": "generator.export.foundry:export_foundry",
    "vault": "generator.export.vault:export_vault",
}
_FORMATS: dict[str, dict[str, str]] = {
    "site": {
        "text": "generator.render.site_key:site_text",
        "md": "generator.render.site_key:site_markdown",
        "json": "generator.render.documents:to_json",
        "svg": "generator.render.site_map:site_svg",
        "png": "generator.render.site_map:site_png",
        "uvtt": "generator.render.site_map:site_uvtt",
        "graphml": "generator.render.documents:graphml",
        **_BOOKLETS,
        **FOLDER_FORMATS,
    },
    "region": {
        "text": "generator.render.region_key:region_text",
        "md": "generator.render.region_key:region_markdown",
        "json": "generator.render.documents:to_json",
        "svg": "generator.render.region_svg:region_svg",
        **_BOOKLETS,
        **FOLDER_FORMATS,
    },
}


def formats_for(kind: str) -> list[str]:
    return list(_FORMATS[kind])


# File suffixes that name a format (`-o tonight.pdf` without --format): each format's own
# extension, as Delve names its files, and the other names a file of it goes by.
SUFFIXES = {
    **{
        f".{EXTENSIONS.get(f, f)}": f
        for t in _FORMATS.values()
        for f in t
        if f not in FOLDER_FORMATS
    },
    ".uvtt": "uvtt",
    ".htm": "html",
}


def renderer(kind: str, fmt: str) -> Renderer:
    """The function that renders a `kind` document in `fmt` (imported on first use)."""
    import importlib

    table = _FORMATS[kind]
    if fmt not in table:
        raise DelveError(f"--format {fmt}: not available for a {kind}; use {', '.join(table)}")
    module, _, name = table[fmt].partition(":")
    return getattr(importlib.import_module(module), name)


def render(model: Any, fmt: str) -> str | bytes:
    return renderer(model.kind, fmt)(model)


def from_dict(data: Any) -> Any:
    from generator.model.doc import check_plain

    if not isinstance(data, dict):
        raise DocumentError("document: must be a JSON object with a 'kind'")
    kind = data.get("kind")
    check_plain(data, kind if kind in ("site", "region") else "document")
    if kind == "site":
        from generator.model.site import Site
        from generator.plan.contract import complete_plan

        site = Site.from_dict(data)
        complete_plan(site)  # route what the document lacks; check what it has
        return site
    if kind == "region":
        from generator.model.region import Region  # type: ignore[import-not-found]
        from generator.plan.contract import complete_plan

        region = Region.from_dict(data)
        for i, h in enumerate(region.hexes):
            if h.site is not None:
                complete_plan(h.site, f"region.hexes[{i}].site")
        return region
    raise DocumentError(f"document.kind: must be 'site' or 'region', not {kind!r}")


def _int(text: str) -> int:
    from generator.model.doc import too_big

    digits = len(text.lstrip("-"))
    # Not int() of 5,000 digits (work, and refused by Python): a marker check_plain reports.
    return too_big(digits) if digits > 15 else int(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number Delve can use")


def load(path: Path) -> Any:
    """Read a saved document; errors name the file and the JSON path."""
    from generator.model.limits import MAX_DOCUMENT_BYTES
    from generator.reading import Unreadable, read_text

    try:  # a regular file only: a FIFO would block the read forever
        text = read_text(path, MAX_DOCUMENT_BYTES, "a document")
    except Unreadable as err:
        raise DelveError(f"{path}: {err}") from None
    try:
        data = json.loads(text, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise DelveError(f"{path}:{err.lineno}: not valid JSON: {err.msg}") from None
    except RecursionError:
        raise DelveError(f"{path}: not a document: nested thousands deep") from None
    except ValueError as err:
        raise DelveError(f"{path}: not a document Delve can read: {err}") from None
    try:
        return from_dict(data)
    except DocumentError as err:
        raise DocumentError(f"{path}: {err}") from None
