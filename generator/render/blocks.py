"""A tiny document form shared by the text and markdown renderers.

Renderers build a list of blocks once; `to_text` and `to_markdown` only format them, so the two
outputs never drift apart.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

WIDTH = 88


@dataclass
class Block:
    kind: str  # h1 h2 h3 p li table rule
    text: str = ""
    rows: list[list[str]] | None = None  # for tables: the first row is the header
    depth: int = 0  # for list items: 1 is an item under the one before it
    whole: bool = False  # a paragraph never wrapped in text (a command to copy back)


def h1(text: str) -> Block:
    return Block("h1", text)


def h2(text: str) -> Block:
    return Block("h2", text)


def h3(text: str) -> Block:
    return Block("h3", text)


def p(text: str) -> Block:
    return Block("p", text)


def command(text: str) -> Block:
    """A paragraph holding a command, kept on one line in text: a command wrapped at a hyphen
    ('--no-' / 'danger', 'bog-' / 'barrow') does not read back."""
    return Block("p", text, whole=True)


def li(text: str) -> Block:
    return Block("li", text)


def sub(text: str) -> Block:
    """A list item under the item before it (a hoard's valuables under its treasure line)."""
    return Block("li", text, depth=1)


def table(rows: list[list[str]]) -> Block:
    return Block("table", rows=rows)


def to_markdown(blocks: list[Block]) -> str:
    out: list[str] = []
    prev = ""
    for b in blocks:
        if b.kind != "li" and prev == "li":
            out.append("")
        if b.kind == "h1":
            out += [f"# {b.text}", ""]
        elif b.kind == "h2":
            out += [f"## {b.text}", ""]
        elif b.kind == "h3":
            out += [f"### {b.text}", ""]
        elif b.kind == "p":
            out += [b.text, ""]
        elif b.kind == "li":
            out.append(f"{'  ' * b.depth}- {b.text}")
        elif b.kind == "table" and b.rows:
            head, *body = b.rows
            out.append("| " + " | ".join(_md_cell(c) for c in head) + " |")
            out.append("|" + "|".join("---" for _ in head) + "|")
            out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in body]
            out.append("")
        prev = b.kind
    return "\n".join(out).rstrip() + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_text(blocks: list[Block]) -> str:
    out: list[str] = []
    prev = ""
    for b in blocks:
        if b.kind != "li" and prev == "li":
            out.append("")
        if b.kind == "h1":
            out += [b.text.upper(), "=" * min(WIDTH, len(b.text)), ""]
        elif b.kind == "h2":
            out += [b.text, "-" * min(WIDTH, len(b.text)), ""]
        elif b.kind == "h3":
            out += [b.text, ""]
        elif b.kind == "p":
            out += [b.text if b.whole else textwrap.fill(b.text, WIDTH), ""]
        elif b.kind == "li":
            pad = "    " * b.depth
            out.append(
                textwrap.fill(
                    b.text,
                    WIDTH,
                    initial_indent=pad + ("  * " if not b.depth else "  - "),
                    subsequent_indent=pad + "    ",
                )
            )
        elif b.kind == "table" and b.rows:
            widths = [max(len(row[i]) for row in b.rows) for i in range(len(b.rows[0]))]
            widths[-1] = min(widths[-1], max(20, WIDTH - sum(widths[:-1]) - 2 * len(widths)))
            for n, row in enumerate(b.rows):
                cells = [c.ljust(w) for c, w in zip(row[:-1], widths[:-1], strict=True)]
                lead = "  ".join(cells)
                last = textwrap.wrap(row[-1], widths[-1]) or [""]
                out.append((lead + "  " + last[0]).rstrip())
                pad = " " * (len(lead) + 2)
                out += [pad + more for more in last[1:]]
                if n == 0:
                    out.append("  ".join("-" * w for w in widths))
            out.append("")
        prev = b.kind
    return "\n".join(out).rstrip() + "\n"


def to_html(blocks: list[Block], escape: bool = True) -> str:
    """The blocks as an HTML fragment (for documents other apps show, such as Foundry journal
    pages). Text is escaped unless the caller has escaped it already (escape=False)."""
    from html import escape as esc

    def text(s: str) -> str:
        return esc(s, quote=False) if escape else s

    out: list[str] = []
    in_list = False
    for b in blocks:
        if b.kind != "li" and in_list:
            out.append("</ul>")
            in_list = False
        if b.kind in ("h1", "h2", "h3"):
            out.append(f"<{b.kind}>{text(b.text)}</{b.kind}>")
        elif b.kind == "p":
            out.append(f"<p>{text(b.text)}</p>")
        elif b.kind == "li":
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{text(b.text.strip())}</li>")
        elif b.kind == "table" and b.rows:
            head, *body = b.rows
            out.append("<table><thead><tr>")
            out += [f"<th>{text(c)}</th>" for c in head]
            out.append("</tr></thead><tbody>")
            for row in body:
                out.append("<tr>" + "".join(f"<td>{text(c)}</td>" for c in row) + "</tr>")
            out.append("</tbody></table>")
    if in_list:
        out.append("</ul>")
    return "".join(out)
