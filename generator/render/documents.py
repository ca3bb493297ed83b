"""Documents by kind: read a saved JSON document back, and render a model in a format.

Each kind (site, region...) registers its formats here, so `delve render` works on any saved
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
FILE_FORMATS = {"svg", "graphml", "html", "pdf"}


def to_json(model: Any) -> str:
    return json.dumps(model.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _site_formats() -> dict[str, Renderer]:
    import networkx as nx

    from generator.render.site_key import site_markdown, site_text
    from generator.render.site_svg import site_svg

    def graphml(site: Any) -> str:
        return "\n".join(nx.generate_graphml(site.graph())) + "\n"

    return {
        "text": site_text,
        "md": site_markdown,
        "json": to_json,
        "svg": site_svg,
        "graphml": graphml,
    }


def _region_formats() -> dict[str, Renderer]:
    from generator.render.region_key import region_formats

    return region_formats()


_FORMATS: dict[str, Callable[[], dict[str, Renderer]]] = {
    "site": _site_formats,
    "region": _region_formats,
}


def formats_for(kind: str) -> dict[str, Renderer]:
    import generator.render.booklet  # noqa: F401  (adds html and pdf on first use)

    return _FORMATS[kind]()


def render(model: Any, fmt: str) -> str | bytes:
    table = formats_for(model.kind)
    if fmt not in table:
        raise DelveError(
            f"--format {fmt}: not available for a {model.kind}; use {', '.join(table)}"
        )
    return table[fmt](model)


def register(kind: str, formats: Callable[[], dict[str, Renderer]]) -> None:
    """Later kinds (regions) and formats (booklets) add themselves here."""
    previous = _FORMATS.get(kind)
    if previous is None:
        _FORMATS[kind] = formats
    else:
        _FORMATS[kind] = lambda: {**previous(), **formats()}


def from_dict(data: Any) -> Any:
    if not isinstance(data, dict):
        raise DocumentError("document: must be a JSON object with a 'kind'")
    kind = data.get("kind")
    if kind == "site":
        from generator.model.site import Site

        return Site.from_dict(data)
    if kind == "region":
        from generator.model.region import Region  # type: ignore[import-not-found]

        return Region.from_dict(data)
    raise DocumentError(f"document.kind: must be 'site' or 'region', not {kind!r}")


def load(path: Path) -> Any:
    """Read a saved document; errors name the file and the JSON path."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DelveError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise DelveError(f"{path}: cannot read: {err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise DelveError(f"{path}:{err.lineno}: not valid JSON: {err.msg}") from None
    try:
        return from_dict(data)
    except DocumentError as err:
        raise DocumentError(f"{path}: {err}") from None
