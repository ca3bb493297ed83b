"""Painting a map drawing (map_draw.py) as SVG text."""

from __future__ import annotations

from xml.sax.saxutils import escape

from generator.render.map_primitives import Circle, Drawing, Group, Poly, Primitive, Segments, Text

UNIT = 20  # SVG user units a square: whole numbers for most coordinates
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _n(v: float) -> str:
    """A coordinate in user units, short and exact enough (same input, same bytes)."""
    s = f"{v * UNIT:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pts(points: tuple) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def drawing_svg(d: Drawing, width: str | None = None, height: str | None = None) -> str:
    """The drawing as an SVG document. Its size is `width` x `height` (CSS lengths) when
    given, else 24 pixels a square."""
    w = width or f"{round(d.width * 24)}"
    h = height or f"{round(d.height * 24)}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(d.width)} {_n(d.height)}" '
        f'width="{w}" height="{h}" role="img" font-family="{FONT}">',
        f"<title>{escape(d.title)}</title>",
    ]
    for item in d.items:
        out.append(_item(item))
    out.append("</svg>")
    return "\n".join(x for x in out if x) + "\n"


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    parts = [f'fill="{fill or "none"}"']
    if stroke:
        parts.append(f'stroke="{stroke}" stroke-width="{_n(width)}"')
    return " ".join(parts)


def _item(p: Primitive) -> str:
    if isinstance(p, Group):
        inner = "".join(_item(q) for q in p.items)
        return f'<g transform="translate({_n(p.dx)},{_n(p.dy)})">{inner}</g>'
    if isinstance(p, Poly):
        tag = "polygon" if p.closed else "polyline"
        joins = ' stroke-linejoin="round" stroke-linecap="round"' if p.round and p.stroke else ""
        if not p.round and p.stroke:
            joins = ' stroke-linejoin="miter"'
        return f'<{tag} points="{_pts(p.points)}" {_paint(p.fill, p.stroke, p.width)}{joins}/>'
    if isinstance(p, Segments):
        if not p.lines:
            return ""
        d = "".join(f"M{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}" for a, b in p.lines)
        return (
            f'<path d="{d}" fill="none" stroke="{p.stroke}" stroke-width="{_n(p.width)}" '
            'stroke-linecap="round"/>'
        )
    if isinstance(p, Circle):
        return (
            f'<circle cx="{_n(p.centre[0])}" cy="{_n(p.centre[1])}" r="{_n(p.r)}" '
            f"{_paint(p.fill, p.stroke, p.width)}/>"
        )
    if isinstance(p, Text):
        anchor = f' text-anchor="{p.anchor}"' if p.anchor != "start" else ""
        style = (' font-weight="bold"' if p.bold else "") + (
            ' font-style="italic"' if p.italic else ""
        )
        at = f'x="{_n(p.pos[0])}" y="{_n(p.pos[1])}" font-size="{_n(p.size)}"{anchor}{style}'
        text = escape(p.text)
        out = ""
        if p.halo:
            # The white outline as text of its own: WeasyPrint ignores paint-order.
            out = (
                f'<text {at} fill="#ffffff" stroke="#ffffff" stroke-width="{_n(p.halo * 2)}" '
                f'stroke-linejoin="round">{text}</text>'
            )
        return out + f'<text {at} fill="{p.fill}">{text}</text>'
    return ""
