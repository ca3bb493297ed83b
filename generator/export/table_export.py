"""Any random table, built-in or the referee's, as a Foundry RollTable, CSV or markdown.

Every entry gets its range of the roll. A die table keeps its die (``2d6`` ranges 2-12; a d66
becomes Foundry's ``(1d6*10+1d6)``, which rolls the same numbers); a weighted table rolls
``1dN`` over its weights made whole numbers, each entry taking as many numbers as its weight.

What a result says inside it:

- Inline dice ``{2d6}``: an inline roll ``[[2d6]]`` in Foundry, rolled at each draw; the formula
  as written in CSV and markdown.
- A reference ``{@site/features}``: in Foundry, an entry that is nothing but one reference becomes
  a linked draw (a result of type document pointing at that RollTable, which Foundry draws from
  in turn) when the table it names is exported alongside (``--all``). Any other reference is
  rolled at export, fresh for each result, from a stream named by the table and entry, so the
  same tables export the same bytes; exported alongside its table, the words rolled link it
  (``@UUID[RollTable.id]{words}``), so the referee can draw again. CSV and markdown name the
  table to roll on instead.
- A placeholder ``{$place}`` a generator fills: shown as ``[place]``.

The same holds in an entry's name and its other text fields. A keyed lookup table's entry with
no text (a rules system that words nothing for that key) shows its key.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from generator.engine.rng import Rng
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.engine.texts import Template, as_written, counted
from generator.export.files import FolderWriter
from generator.export.foundry.docs import dumps, roll_table, table_result
from generator.export.foundry.rolltable import foundry_formula
from generator.export.links import escape_html, escape_markdown

FORMATS = ("foundry", "csv", "md")
EXTENSIONS = {"foundry": "json", "csv": "csv", "md": "md"}


def _runs(values: list[int]) -> list[tuple[int, int]]:
    """Sorted values as (low, high) runs of neighbours: [1,2,3,5] -> [(1,3), (5,5)]."""
    out: list[tuple[int, int]] = []
    for v in sorted(values):
        if out and v == out[-1][1] + 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


def ranges(table: Table) -> tuple[str, list[list[tuple[int, int]]]]:
    """The formula to roll and, for each entry, its ranges of that roll (most have one)."""
    die = table.die
    if die is not None:
        formula = foundry_formula(str(die))
        if not die.exact:  # one big die (see TableSet): every value as likely, runs as written
            return formula or f"1d{die.max - die.min + 1}", [list(e.spans) for e in table.entries]
        outcomes = sorted(die.outcomes())
        if formula is not None:
            # Ranges over the rolls the die can give: d66's 16 and 21 are neighbours.
            rank = {v: i for i, v in enumerate(outcomes)}
            out = []
            for e in table.entries:
                runs = _runs([rank[r] for r in e.rolls if r in rank])
                out.append([(outcomes[lo], outcomes[hi]) for lo, hi in runs])
            return formula, out
        counts = die._counts()
        weights = [Fraction(sum(counts.get(r, 0) for r in e.rolls)) for e in table.entries]
    else:
        weights = [Fraction(e.weight).limit_denominator(1000) for e in table.entries]
    return _weighted(weights)


def _weighted(weights: list[Fraction]) -> tuple[str, list[list[tuple[int, int]]]]:
    scale = lcm(*(w.denominator for w in weights))
    whole = [int(w * scale) for w in weights]
    common = 0
    for w in whole:
        common = gcd(common, w)
    whole = [w // (common or 1) for w in whole]
    out, low = [], 1
    for w in whole:
        out.append([(low, low + w - 1)] if w > 0 else [])
        low += w
    return f"1d{low - 1}", out


def _range_text(runs: list[tuple[int, int]]) -> str:
    return ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in runs)


HIDDEN = ("result", "tags", "name", "key", "id")  # the text itself, its lead, and ids


def _plain(ts: TableSet, tpl: Template) -> str:
    """A template as CSV and markdown print it: dice as written, a reference as the table to
    roll on, a placeholder as [name]."""
    if tpl.static is not None:
        return tpl.static
    parts = []
    for part in tpl.parts:
        if isinstance(part, str):
            parts.append(part)
        elif part[0] == "dice":
            parts.append(as_written(part))
        elif part[0] == "ref":
            title = ts.tables[part[1]].title if ts.has(part[1]) else part[1]
            parts.append(f"(roll on {title})")
        else:
            parts.append(f"[{part[1]}]")
    return "".join(parts)


def _lead(ts: TableSet, entry: Entry) -> str:
    """An entry's own name (a `name` field), which leads its text."""
    tpl = entry.templates.get("name")
    if tpl is not None:
        return _plain(ts, tpl).strip()
    name = entry.data.get("name")
    return name.strip() if isinstance(name, str) else ""


def _fields(ts: TableSet, entry: Entry) -> str:
    """The other plain fields a referee reads ('xp: 50; dc: 12'); ids and nested data left out."""
    extras = [
        f"{k}: {_plain(ts, entry.templates[k]) if k in entry.templates else v}"
        for k, v in entry.data.items()
        if k not in HIDDEN and isinstance(v, (str, int, float)) and not isinstance(v, bool)
    ]
    return "; ".join(extras)


def _key(entry: Entry) -> str:
    """A lookup table's key ('trap.ordinary'): the row's text when it has no other (a rules
    system that words nothing for that key)."""
    key = entry.data.get("key")
    return str(key) if isinstance(key, (str, int)) else ""


def plain_text(ts: TableSet, entry: Entry) -> str:
    """The entry for CSV and markdown: dice as written, a reference as the table to roll on."""
    text = _plain(ts, entry.template)
    lead = _lead(ts, entry)
    if lead and lead != text:
        text = f"{lead}: {text}" if text else lead
    extras = _fields(ts, entry)
    if extras:
        text = f"{text} ({extras})" if text else extras
    return text or _key(entry)


def table_uuid(table_id: str) -> str:
    from generator.export.foundry.docs import doc_id

    return f"RollTable.{doc_id('RollTable', f'tables/{table_id}')}"


class _Html:
    """Templates as Foundry HTML for one entry: inline rolls for dice Foundry can roll, and
    references rolled at export from the entry's own stream (see the module docstring)."""

    def __init__(self, ts: TableSet, table: Table, index: int, linked: set[str] | None) -> None:
        self.ts, self.linked = ts, linked
        self.rng = Rng(f"tables-export/{table.id}/{index}")
        self.rolled: list[str] = []

    def __call__(self, tpl: Template) -> str:
        out = []
        for part in tpl.parts if tpl.static is None else (tpl.static,):
            if isinstance(part, str):
                out.append(escape_html(part))
            elif part[0] == "dice":
                formula = foundry_formula(str(part[1]))
                if formula:  # Foundry rolls it at each draw: the noun for more, as written
                    out.append(f"[[{formula}]]" + (f" {escape_html(part[3])}" if part[2] else ""))
                else:
                    out.append(escape_html(counted(part[1].roll(self.rng), part[2], part[3])))
            elif part[0] == "ref":
                self.rolled.append(part[1])
                rng = self.rng.child(str(len(self.rolled)))
                text = escape_html(self.ts.roll(part[1], rng, _Blanks()).text)
                # Exported together, the words rolled link their table: a click draws again.
                if self.linked is not None and part[1] in self.linked:
                    text = f"@UUID[{table_uuid(part[1])}]{{{text}}}"
                out.append(text)
            else:
                out.append(escape_html(f"[{part[1]}]"))
        return "".join(out)


def foundry_text(
    ts: TableSet, table: Table, index: int, entry: Entry, linked: set[str] | None = None
) -> tuple[str, list[str]]:
    """The entry as Foundry HTML: inline rolls for dice Foundry can roll, references rolled
    fresh (see the module docstring), each a link to its table when `linked` holds it; returns
    the HTML and the tables it rolled on."""
    html = _Html(ts, table, index, linked)
    text = html(entry.template)  # first: its rolls keep their streams whatever the lead holds
    tpl = entry.templates.get("name")
    lead = html(tpl).strip() if tpl is not None else escape_html(_lead(ts, entry))
    if lead and text:
        text = f"<strong>{lead}</strong>: {text}"
    elif lead:
        text = lead
    extras = _fields(ts, entry)
    if extras:
        text = f"{text} ({escape_html(extras)})" if text else escape_html(extras)
    return text or escape_html(_key(entry)), html.rolled


class _Blanks(dict):
    """A generator's placeholders ({$place}) print as [place] when a table is rolled alone."""

    def __contains__(self, key: object) -> bool:
        return True

    def __missing__(self, key: str) -> str:
        return f"[{key}]"


def _only_ref(entry: Entry) -> str | None:
    parts = [p for p in entry.template.parts if p != ""]
    if entry.template.static is None and len(parts) == 1 and parts[0][0] == "ref":
        return parts[0][1]
    return None


def to_foundry(ts: TableSet, table: Table, linked: set[str] | None = None) -> dict[str, Any]:
    """A RollTable. `linked`: ids of the tables exported alongside, which an entry that is only
    a reference draws from (a linked draw); without it every reference is rolled fresh."""
    formula, spans = ranges(table)
    results = []
    for i, (entry, runs) in enumerate(zip(table.entries, spans, strict=True)):
        ref = _only_ref(entry)
        for j, (lo, hi) in enumerate(runs):
            key = f"tables/{table.id}/{i}/{j}"
            if ref is not None and linked is not None and ref in linked:
                title = ts.tables[ref].title
                result = table_result(key, title, lo, hi, "", table_uuid(ref))
                result["flags"] = {"delve": {"draw": "linked", "table": ref}}
            else:
                html, rolled = foundry_text(ts, table, i, entry, linked)
                name = _lead(ts, entry) or plain_text(ts, entry)
                result = table_result(key, name, lo, hi, f"<p>{html}</p>")
                if rolled:
                    result["flags"] = {"delve": {"draw": "rolled-fresh", "tables": rolled}}
            results.append(result)
    about = " ".join(
        x for x in (table.description, table.source and f"Source: {table.source}") if x
    )
    return roll_table(
        f"tables/{table.id}",
        table.title,
        formula,
        results,
        f"<p>{escape_html(about)}</p>" if about else "",
        table=table.id,
    )


def to_csv(ts: TableSet, table: Table) -> str:
    """roll, result: a row per range (an entry with two ranges gets two rows)."""
    _formula, spans = ranges(table)
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["roll", "result"])
    for entry, runs in zip(table.entries, spans, strict=True):
        out.writerow([_range_text(runs), plain_text(ts, entry)])
    return buf.getvalue()


def to_markdown(ts: TableSet, table: Table) -> str:
    from generator.render import blocks as b

    formula, spans = ranges(table)
    die = (
        str(table.die)
        if table.die is not None and formula == foundry_formula(str(table.die))
        else formula
    )
    out = [b.h2(escape_markdown(table.title))]
    about = " ".join(
        x for x in (table.description, table.source and f"Source: {table.source}") if x
    )
    if about:
        out.append(b.p(escape_markdown(about)))
    rows = [[die, "Result"]]
    for entry, runs in zip(table.entries, spans, strict=True):
        rows.append([_range_text(runs), escape_markdown(plain_text(ts, entry))])
    out.append(b.table(rows))
    out.append(b.p(f"Table `{table.id}`."))
    return b.to_markdown(out)


def export_one(ts: TableSet, table_id: str, fmt: str) -> str:
    table = ts.get(table_id)
    if fmt == "foundry":
        return dumps(to_foundry(ts, table))
    if fmt == "csv":
        return to_csv(ts, table)
    return to_markdown(ts, table)


def export_all(ts: TableSet, fmt: str, writer: FolderWriter) -> int:
    """Every table into the folder as ID.json / ID.csv / ID.md (the id's folders kept); for
    Foundry also delve-foundry.json, the list the import macro reads."""
    ids = ts.ids()
    linked = set(ids)
    docs = []
    for table_id in ids:
        table = ts.tables[table_id]
        rel = f"{table_id}.{EXTENSIONS[fmt]}"
        if fmt == "foundry":
            doc = to_foundry(ts, table, linked)
            writer.add(rel, dumps(doc))
            docs.append({"type": "RollTable", "file": rel, "_id": doc["_id"], "name": doc["name"]})
        elif fmt == "csv":
            writer.add(rel, to_csv(ts, table))
        else:
            writer.add(rel, to_markdown(ts, table))
    if fmt == "foundry":
        from generator.export.foundry import INDEX
        from generator.export.foundry.docs import FOUNDRY_VERSION

        index = {
            "format": "delve-foundry",
            "foundry": FOUNDRY_VERSION,
            "path": f"delve/{writer.target.name}",
            "documents": docs,
        }
        writer.add(INDEX, json.dumps(index, indent=2, ensure_ascii=False) + "\n")
    return len(ids)
