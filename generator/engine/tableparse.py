"""Reading one table file: a loaded YAML document becomes a Table, every problem collected.

Each problem is `FILE:LINE: table 'ID': what is wrong`, and one run reports them all
(docs/tables.md), so a referee fixes a table in one pass.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from generator.engine.dice import MAX_FACES, Formula, parse
from generator.engine.spans import Span, merge, minus, parse_rolls, ranges, runs
from generator.engine.table import Entry, Table
from generator.engine.texts import ID_RE, REF_SCAN, entry_templates
from generator.engine.yamlload import LDict, LList, Raw, plain
from generator.errors import DelveError, DiceError

MAX_ENTRIES = 10_000  # entries in one table (the biggest built-in has 207)

TOP_KEYS = {"title", "die", "id", "source", "description", "fields", "entries"}
ENTRY_KEYS = {"roll", "weight", "result", "tags"}
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "list": (list,),
    "dict": (dict,),
}


def _type_ok(value: Any, type_name: str) -> bool:
    if type_name == "str" and isinstance(value, Raw):
        # A number written in a text field (`answer: 1.50`) is text as written (see _typed).
        return isinstance(value.value, (int, float)) and not isinstance(value.value, bool)
    value = plain(value)
    if type_name == "str":
        return isinstance(value, str)
    if type_name in ("int", "float") and isinstance(value, bool):
        return False
    return isinstance(value, FIELD_TYPES[type_name])


def _typed(value: Any, type_name: str) -> Any:
    """The value as the table author meant it: text fields keep their written text."""
    if isinstance(value, Raw):
        return str(value) if type_name == "str" else value.value
    if isinstance(value, LDict):
        return {k: _typed(v, "any") for k, v in value.items()}
    if isinstance(value, LList):
        return [_typed(v, "any") for v in value]
    return value


class FileParser:
    """Turns one loaded YAML document into a Table, collecting every problem."""

    def __init__(self, path: Path, label: str, table_id: str, folder: str) -> None:
        self.path, self.label, self.id, self.folder = path, label, table_id, folder
        self.problems: list[str] = []
        # Kept from every entry, good or not, so one run reports every problem: the rolls
        # each covers (None if its roll did not parse) and each {@ref} with its line.
        self.rolls: list[tuple[Span, ...] | None] = []
        self.refs: list[tuple[int, str]] = []

    def err(self, line: int, message: str) -> None:
        self.problems.append(f"{self.label}:{line}: table '{self.id}': {message}")

    def parse(self, doc: Any) -> Table | None:
        if not isinstance(doc, LDict):
            value = plain(doc)
            kinds = ((list, "a list"), (str, "text"), (bool, "true/false"), (int, "a number"))
            kind = "empty" if doc is None else "a number"
            kind = next((k for t, k in kinds if isinstance(value, t)), kind)
            self.err(getattr(doc, "line", 1), f"a table file must be a mapping, not {kind}")
            return None
        if "id" in doc:
            tid = plain(doc["id"])
            if not isinstance(tid, str) or not ID_RE.match(tid):
                self.err(doc.line_of("id"), f"id {tid!r} must look like 'group/name'")
            else:
                self.id = tid
        for key in doc:
            if key not in TOP_KEYS:
                hint = difflib.get_close_matches(key, TOP_KEYS, 1)
                more = f" (did you mean '{hint[0]}'?)" if hint else ""
                self.err(doc.line_of(key), f"unknown key '{key}'{more}")
        title = doc.get("title")
        if title is None:
            self.err(doc.line, "missing 'title'")
        elif not isinstance(title, str) or isinstance(title, Raw):
            self.err(doc.line_of("title"), "'title' must be text")
        for key in ("source", "description"):
            if key in doc and isinstance(doc[key], (LDict, LList)):
                self.err(doc.line_of(key), f"'{key}' must be text")
        die = None
        if "die" in doc:
            try:
                die = parse(str(doc["die"]))
                if die.exact:
                    die.outcomes()
                elif not die.uniform:
                    raise DiceError(
                        f"{die} is too big to check: a table's die has at most "
                        f"{MAX_FACES:,} faces in all, unless it is one die (such as d1000000)"
                    )
            except DiceError as err:
                self.err(doc.line_of("die"), f"die: {err}")
                die = None
        fields = self.parse_fields(doc)
        entries_raw = doc.get("entries")
        entries: list[Entry] = []
        if entries_raw is None:
            self.err(doc.line, "missing 'entries'")
        elif not isinstance(entries_raw, LList):
            self.err(doc.line_of("entries"), "'entries' must be a list")
        elif not entries_raw:
            self.err(doc.line_of("entries"), "'entries' is empty")
        elif len(entries_raw) > MAX_ENTRIES:
            self.err(
                doc.line_of("entries"),
                f"{len(entries_raw):,} entries; a table holds at most {MAX_ENTRIES:,} "
                "(split it, or roll a die on tables of their own)",
            )
        else:
            for item, line in zip(entries_raw, entries_raw.item_lines, strict=True):
                entry = self.parse_entry(item, line, fields, die is not None or "die" in doc)
                if entry is not None:
                    entries.append(entry)
        if die is not None and entries_raw and None not in self.rolls:
            self.check_coverage(die, self.rolls, doc.line_of("die"))
        table = Table(
            id=self.id,
            title=str(title) if isinstance(title, str) else self.id,
            path=self.path,
            folder=self.folder,
            die=die,
            entries=entries,
            fields=fields,
            source=str(doc.get("source", "") or ""),
            description=str(doc.get("description", "") or ""),
            line=doc.line,
        )
        return table

    def parse_fields(self, doc: LDict) -> dict[str, tuple[str, bool]]:
        out: dict[str, tuple[str, bool]] = {}
        spec = doc.get("fields")
        if spec is None:
            return out
        if not isinstance(spec, LDict):
            self.err(doc.line_of("fields"), "'fields' must map field names to types")
            return out
        for name, type_spec in spec.items():
            t = str(type_spec).strip()
            required = not t.endswith("?")
            t = t.rstrip("?")
            if name in ENTRY_KEYS:
                self.err(spec.line_of(name), f"field '{name}' is built in; do not declare it")
            elif t not in FIELD_TYPES:
                self.err(
                    spec.line_of(name),
                    f"field '{name}': unknown type '{t}' (use {', '.join(FIELD_TYPES)})",
                )
            else:
                out[name] = (t, required)
        return out

    def parse_entry(
        self, item: Any, line: int, fields: dict[str, tuple[str, bool]], has_die: bool
    ) -> Entry | None:
        if isinstance(item, (str, Raw)) and not isinstance(item, LDict):
            item_dict = LDict({"result": str(item)})
            item_dict.line, item_dict.key_lines = line, {"result": line}
            item = item_dict
        if not isinstance(item, LDict):
            self.err(line, "an entry must be a mapping (with 'result' and/or fields) or text")
            self.rolls.append(None)  # what it covers is unknown: no coverage report
            return None
        data: dict[str, Any] = {}
        for key, value in item.items():
            kline = item.line_of(key)
            if key in ("roll", "weight"):
                continue
            if key == "result":
                if isinstance(value, (LDict, LList)):
                    self.err(kline, "'result' must be text")
                else:
                    data["result"] = "" if plain(value) is None else str(value)
            elif key == "tags":
                if not isinstance(value, LList) or not all(
                    isinstance(v, str) and not isinstance(v, Raw) for v in value
                ):
                    self.err(kline, "'tags' must be a list of words")
                else:
                    data["tags"] = list(value)
            elif key in fields:
                type_name = fields[key][0]
                if not _type_ok(value, type_name):
                    shown = plain(value)
                    self.err(kline, f"field '{key}' must be {type_name}, not {shown!r}")
                else:
                    data[key] = _typed(value, type_name)
            else:
                known = sorted(ENTRY_KEYS | {"roll", "weight"} | set(fields))
                hint = difflib.get_close_matches(key, known, 1)
                more = f" (did you mean '{hint[0]}'?)" if hint else ""
                self.err(kline, f"unknown key '{key}'{more}")
        for name, (_t, required) in fields.items():
            if required and name not in item:
                self.err(item.line, f"entry is missing required field '{name}'")
        if "result" not in data and not any(f in data for f in fields):
            self.err(item.line, "entry has neither 'result' nor any field")
        rolls: tuple[Span, ...] = ()
        rolls_ok = True
        weight = 1.0
        if "roll" in item and "weight" in item:
            self.err(item.line, "entry has both 'roll' and 'weight' (a table uses one or other)")
        elif "roll" in item:
            if not has_die:
                self.err(item.line_of("roll"), "entry has 'roll' but the table has no 'die'")
            else:
                try:
                    rolls = tuple(parse_rolls(item["roll"]))
                except ValueError as err:
                    self.err(item.line_of("roll"), str(err))
                    rolls_ok = False
        elif "weight" in item:
            if has_die:
                self.err(item.line_of("weight"), "entry has 'weight' but the table rolls a die")
            w = plain(item["weight"])
            if isinstance(w, bool) or not isinstance(w, (int, float)) or w <= 0:
                self.err(item.line_of("weight"), f"weight must be a positive number, not {w!r}")
            else:
                weight = float(w)
        elif has_die:
            self.err(item.line, "entry has no 'roll' (the table rolls a die)")
            rolls_ok = False
        if has_die:
            self.rolls.append(rolls if rolls_ok else None)
        errors: list[tuple[str, DelveError]] = []
        template, templates = entry_templates(data, errors)
        for key, err in errors:
            self.err(item.line_of(key), f"{key}: {err}")
            # The text's other references are still checked, in the same run.
            self.refs += [(item.line, r.strip()) for r in REF_SCAN.findall(data[key])]
        for tpl in [template, *templates.values()]:
            self.refs += [(item.line, ref) for ref in tpl.refs]
        # An entry with problems still carries what parsed, so `delve tables check` can check
        # it against the generators in the same run; its table is never used (see _read).
        return Entry(data, item.line, template, templates, weight, spans=tuple(merge(rolls)))

    def check_coverage(
        self, die: Formula, covered: list[tuple[Span, ...] | None], line: int
    ) -> None:
        """Every roll the die can give is covered by one entry, and no entry covers a roll it
        cannot give; worked on runs, so a d1000000 costs what a d6 does."""
        possible = runs(die.outcomes()) if die.exact else [(die.min, die.max)]
        every = sorted(span for spans in covered for span in spans or ())
        twice: list[Span] = []
        reach = None
        for lo, hi in every:
            if reach is not None and lo <= reach:
                twice.append((lo, min(hi, reach)))
            reach = hi if reach is None else max(reach, hi)
        union = merge(every)
        missing = minus(possible, union)
        impossible = minus(union, possible)
        if missing:
            self.err(line, f"rolls not covered by any entry on {die}: {ranges(missing)}")
        if twice:
            self.err(line, f"rolls covered twice: {ranges(merge(twice))}")
        if impossible:
            self.err(line, f"rolls that {die} cannot give: {ranges(impossible)}")


def unknown_references(refs: list[tuple[FileParser, int, str]], ids: set[str]) -> list[str]:
    """Every {@ref} in every file names a table (one that loaded, or one with problems of its
    own, already reported)."""
    problems: list[str] = []
    for fp, line, ref in refs:
        if ref not in ids:
            near = difflib.get_close_matches(ref, sorted(ids), 1, 0.5)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            problems.append(
                f"{fp.label}:{line}: table '{fp.id}': reference to unknown table '{ref}'{hint}"
            )
    return list(dict.fromkeys(problems))
