"""The table engine: YAML random tables, loaded, validated, layered and rolled.

See docs/tables.md for the format. A :class:`TableSet` is built once from the built-in folder
plus the referee's folders (later folders sit over earlier ones) and handed to generators, which
know table ids, never table contents.
"""

from __future__ import annotations

import difflib
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.engine.dice import MAX_FACES, Formula, parse
from generator.engine.refs import MAX_DEPTH, check_references
from generator.engine.rng import Rng
from generator.engine.spans import (
    MAX_LOOKUP,
    Span,
    SpanLookup,
    merge,
    minus,
    parse_rolls,
    ranges,
    runs,
)
from generator.engine.yamlload import LDict, LList, Raw, load_yaml, plain
from generator.errors import DelveError, DiceError, TableError

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

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_\-]*(/[a-z0-9][a-z0-9_\-]*)*$")
_PLACE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_REF_SCAN = re.compile(r"\{@([^{}]*)\}")  # the references of a text that did not compile


def builtin_tables_dir() -> Path:
    """The tables shipped with Delve: inside the wheel, or at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "_data" / "tables"
    return packaged if packaged.is_dir() else package.parent / "tables"


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class Template:
    """Result text split into literal text and placeholders."""

    parts: tuple[Any, ...]  # str | ("dice", Formula) | ("ref", id) | ("var", name)
    static: str | None  # the whole text when it has no placeholders

    @property
    def refs(self) -> list[str]:
        return [p[1] for p in self.parts if isinstance(p, tuple) and p[0] == "ref"]


def compile_template(text: str) -> Template:
    """Parse `{2d6}`, `{@table/id}`, `{$name}`; `{{`/`}}` are literal braces."""
    if "{" not in text and "}" not in text:  # most texts: no placeholders (and the cache's
        return Template((), text)  # rebuild of a table compiles every one of them again)
    parts: list[Any] = []
    buf: list[str] = []
    pos = 0
    for m in _PLACE.finditer(text):
        buf.append(text[pos : m.start()])
        pos = m.end()
        tok = m.group(0)
        if tok == "{{":
            buf.append("{")
        elif tok == "}}":
            buf.append("}")
        elif tok in ("{", "}"):
            raise DelveError(f"unbalanced {tok!r} in text (write {tok * 2} for a literal brace)")
        else:
            inner = m.group(1).strip()
            if buf:
                parts.append("".join(buf))
                buf = []
            if inner.startswith("@"):
                ref = inner[1:].strip()
                if not _ID_RE.match(ref):
                    raise DelveError(f"bad table reference {{@{ref}}}")
                parts.append(("ref", ref))
            elif inner.startswith("$"):
                name = inner[1:].strip()
                if not name.isidentifier():
                    raise DelveError(f"bad placeholder {{${name}}}")
                parts.append(("var", name))
            else:
                try:
                    parts.append(("dice", parse(inner)))
                except DiceError as err:
                    shown = inner if len(inner) <= 40 else inner[:40] + "..."
                    raise DelveError(f"bad inline dice {{{shown}}}: {err}") from None
    buf.append(text[pos:])
    if buf and "".join(buf):
        parts.append("".join(buf))
    if all(isinstance(p, str) for p in parts):
        return Template((), "".join(parts))
    return Template(tuple(parts), None)


def entry_templates(
    data: Mapping[str, Any], errors: list[tuple[str, DelveError]] | None = None
) -> tuple[Template, dict[str, Template]]:
    """An entry's compiled texts: its `result`, and each other text field with placeholders.
    A text that does not compile is added to `errors` (or raised when none is given)."""
    template = Template((), "")
    templates: dict[str, Template] = {}
    for key, value in data.items():
        if not isinstance(value, str):
            continue
        try:
            tpl = compile_template(value)
        except DelveError as err:
            if errors is None:
                raise
            errors.append((key, err))
            continue
        if key == "result":
            template = tpl
        elif tpl.static is None:
            templates[key] = tpl
    return template, templates


# --------------------------------------------------------------------------- model


@dataclass
class Entry:
    """One line of a table: its result text, tags and structured fields."""

    data: dict[str, Any]
    line: int
    template: Template
    templates: dict[str, Template]  # other text fields that hold placeholders
    weight: float = 1.0
    rolls: tuple[int, ...] = ()  # every roll it covers (tables whose die lists its odds)
    spans: tuple[Span, ...] = ()  # the same as runs (every die table)

    @property
    def result(self) -> str:
        return self.data.get("result", "")

    @property
    def tags(self) -> list[str]:
        return self.data.get("tags", [])

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass
class Table:
    id: str
    title: str
    path: Path
    folder: str
    die: Formula | None
    entries: list[Entry]
    fields: dict[str, tuple[str, bool]]  # name -> (type name, required)
    source: str = ""
    description: str = ""
    line: int = 1
    # Rolling aids, filled by _prepare():
    lookup: list[Entry] = field(default_factory=list)
    low: int = 0
    cumulative: list[float] = field(default_factory=list)

    def _prepare(self) -> None:
        if self.die is not None:
            self.low, high = self.die.min, self.die.max
            for e in self.entries:
                if not e.spans:
                    e.spans = tuple(runs(e.rolls))
            if self.die.exact and high - self.low < MAX_LOOKUP:
                counts = self.die._counts()
                by_roll: dict[int, Entry] = {}
                for e in self.entries:
                    e.rolls = tuple(
                        v for lo, hi in e.spans for v in range(max(lo, self.low), min(hi, high) + 1)
                    )
                    by_roll.update((r, e) for r in e.rolls)
                    e.weight = float(sum(counts.get(r, 0) for r in e.rolls))
                self.lookup = [by_roll.get(v) for v in range(self.low, high + 1)]  # type: ignore[misc]
            else:  # one big die (checked at load): every value as likely, found by its run
                for e in self.entries:
                    e.weight = float(sum(hi - lo + 1 for lo, hi in e.spans))
                self.lookup = SpanLookup(self.low, high, self.entries)  # type: ignore[assignment]
        total = 0.0
        self.cumulative = []
        for e in self.entries:
            total += e.weight
            self.cumulative.append(total)

    def pick(self, rng: Rng) -> tuple[Entry, int | None]:
        """One roll on the table: the entry and the number rolled (None when weighted)."""
        if self.die is not None:
            value = self.die.roll(rng)
            return self.lookup[value - self.low], value
        return self.entries[bisect_right(self.cumulative, rng.random() * self.cumulative[-1])], None

    @property
    def label(self) -> str:
        return f"{self.path}"


class Rolled:
    """What one roll on a table gave: the entry, the number rolled (die tables) and its text."""

    __slots__ = ("table", "entry", "value", "text")

    def __init__(self, table: str, entry: Entry, value: int | None, text: str) -> None:
        self.table, self.entry, self.value, self.text = table, entry, value, text

    def __getitem__(self, key: str) -> Any:
        return self.entry.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.entry.data.get(key, default)

    def __repr__(self) -> str:
        return f"Rolled({self.table!r}, {self.value!r}, {self.text!r})"


# --------------------------------------------------------------------------- parsing


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


class _FileParser:
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
            if not isinstance(tid, str) or not _ID_RE.match(tid):
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
            self.refs += [(item.line, r.strip()) for r in _REF_SCAN.findall(data[key])]
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


# --------------------------------------------------------------------------- the set


def table_folders(user_dirs: Iterable[str | Path] = (), use_env: bool = True) -> list[Path]:
    """Built-in folder, then DELVE_TABLES folders, then --tables folders (last wins)."""
    dirs: list[Path] = [builtin_tables_dir()]
    if use_env and os.environ.get("DELVE_TABLES"):
        dirs += [Path(p) for p in os.environ["DELVE_TABLES"].split(os.pathsep) if p]
    dirs += [Path(d) for d in user_dirs]
    return dirs


class TableSet:
    """All tables by id, layered. Build with :meth:`load`."""

    def __init__(self, tables: dict[str, Table], folders: list[Path]) -> None:
        self.tables = tables
        self.folders = folders
        # Tables with problems, as far as they parsed (TableSet.check only).
        self.partial: dict[str, Table] = {}
        # Data that generators derive from tables once (a bestiary, lookups), keyed by name.
        self.derived: dict[str, Any] = {}

    # ---- loading

    @classmethod
    def load(cls, user_dirs: Iterable[str | Path] = (), use_env: bool = True) -> TableSet:
        """Load and validate the built-ins layered with the given folders; raise TableError.

        A set that loaded cleanly is cached (see generator/engine/tablecache.py) and reused while no
        file in its folders changes, which keeps every command's start-up short.
        """
        from generator.engine import tablecache

        folders = table_folders(user_dirs, use_env)
        key = tablecache.fingerprint(folders)
        cached = tablecache.read(key)
        if cached is not None:
            return cls(cached, folders)
        result = cls._load(folders)
        tablecache.write(key, result.tables)
        return result

    @classmethod
    def check(
        cls, user_dirs: Iterable[str | Path] = (), use_env: bool = True
    ) -> tuple[TableSet, list[str]]:
        """Every problem of the layered folders at once, and the set of the tables that loaded
        cleanly (for `delve tables check`, which goes on to check them against the generators)."""
        partial: dict[str, Table] = {}
        tables, problems = cls._read(table_folders(user_dirs, use_env), partial)
        for t in tables.values():
            t._prepare()
        checked = cls(tables, table_folders(user_dirs, use_env))
        checked.partial = partial
        return checked, problems

    @classmethod
    def _load(cls, folders: list[Path]) -> TableSet:
        tables, problems = cls._read(folders)
        if problems:
            raise TableError(problems)
        for t in tables.values():
            t._prepare()
        return cls(tables, folders)

    @classmethod
    def _read(
        cls, folders: list[Path], partial: dict[str, Table] | None = None
    ) -> tuple[dict[str, Table], list[str]]:
        """The tables that parse cleanly, and every problem of every file; `partial` receives
        what parsed of each table with problems (so its other faults can be found too)."""
        problems: list[str] = []
        tables: dict[str, Table] = {}
        refs: list[tuple[_FileParser, int, str]] = []  # every {@ref}, from good files or not
        broken: set[str] = set()
        for index, folder in enumerate(folders):
            folder_label = "built-in" if index == 0 else str(folder)
            if not folder.is_dir():
                what = "is not a folder" if folder.exists() else "does not exist"
                problems.append(f"{folder}: tables folder {what}")
                continue
            files = sorted(p for p in folder.rglob("*.yaml") if p.is_file())
            files += sorted(p for p in folder.rglob("*.yml") if p.is_file())
            if not files and index > 0:
                problems.append(f"{folder}: tables folder holds no .yaml files")
                continue
            seen_here: dict[str, Path] = {}
            for path in files:
                rel = path.relative_to(folder)
                table_id = rel.with_suffix("").as_posix()
                label = str(path if index > 0 else Path("tables") / rel)
                try:
                    doc = load_yaml(path, label)
                except TableError as err:
                    problems.extend(err.problems)
                    continue
                fp = _FileParser(path, label, table_id, folder_label)
                table = fp.parse(doc)
                problems.extend(fp.problems)
                refs += [(fp, line, ref) for line, ref in fp.refs]
                if table is None or fp.problems:
                    broken.add(fp.id)
                    if table is not None and partial is not None:
                        partial[table.id] = table
                    continue
                if table.id in seen_here:
                    problems.append(
                        f"{label}:{table.line}: table '{table.id}': "
                        f"id also used by {seen_here[table.id]}"
                    )
                    continue
                seen_here[table.id] = path
                tables[table.id] = table
        problems.extend(_unknown_references(refs, set(tables) | broken))
        problems.extend(check_references(tables))
        return tables, problems

    # ---- lookup

    def ids(self) -> list[str]:
        return sorted(self.tables)

    def has(self, table_id: str) -> bool:
        return table_id in self.tables

    def get(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise DelveError(self.unknown_message(table_id)) from None

    def unknown_message(self, table_id: str) -> str:
        near = difflib.get_close_matches(table_id, self.ids(), 3, 0.5)
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        return f"unknown table '{table_id}'{hint}; `delve tables list` shows them all"

    def entries(self, table_id: str) -> list[Entry]:
        return self.get(table_id).entries

    def require_fields(self, table_id: str, needed: Mapping[str, str]) -> Table:
        """Fail with FILE:LINE if a (user) table lacks fields a generator relies on."""
        table = self.get(table_id)
        problems = []
        for name, type_name in needed.items():
            declared = table.fields.get(name)
            if declared is None or declared[0] != type_name or not declared[1]:
                problems.append(
                    f"{table.path}:{table.line}: table '{table_id}': needs a required "
                    f"field '{name}: {type_name}' on every entry"
                )
        if problems:
            raise TableError(problems)
        return table

    # ---- rolling

    def roll(self, table_id: str, rng: Rng, vars: Mapping[str, str] | None = None) -> Rolled:
        """Roll once: the die (or the weights) picks an entry; its text is resolved."""
        table = self.tables.get(table_id) or self.get(table_id)
        entry, value = table.pick(rng)
        return Rolled(table.id, entry, value, self._text(table, entry, rng, vars))

    def roll_avoiding(
        self,
        table_id: str,
        rng: Rng,
        avoid: set[int],
        vars: Mapping[str, str] | None = None,
        tries: int = 24,
    ) -> Rolled:
        """Roll, rerolling while the entry is one of `avoid` (ids of entries already dealt),
        at most `tries` times; the entry rolled is added to `avoid`. Only the kept roll's text
        is resolved, so a deck of a site's rooms costs little more than plain rolls."""
        table = self.tables.get(table_id) or self.get(table_id)
        for _ in range(tries + 1):
            entry, value = table.pick(rng)
            if id(entry) not in avoid:
                break
        avoid.add(id(entry))
        return Rolled(table.id, entry, value, self._text(table, entry, rng, vars))

    def roll_many(
        self,
        table_id: str,
        rng: Rng,
        times: int,
        vars: Mapping[str, str] | None = None,
        reroll_duplicates: bool = False,
    ) -> list[Rolled]:
        """Roll N times; with reroll_duplicates, an entry already rolled is rolled again."""
        if times < 1:
            raise DelveError(f"times must be at least 1, not {times}")
        if not reroll_duplicates:
            return [self.roll(table_id, rng, vars) for _ in range(times)]
        return self.draw(table_id, rng, times, vars)

    def draw(
        self, table_id: str, rng: Rng, count: int, vars: Mapping[str, str] | None = None
    ) -> list[Rolled]:
        """Draw N different entries (like rerolling duplicates, without wasted rolls)."""
        table = self.get(table_id)
        if count > len(table.entries):
            raise DelveError(
                f"{table.path}: table '{table_id}' has {len(table.entries)} entries; "
                f"cannot draw {count} different ones"
            )
        pool = list(table.entries)
        weights = [e.weight for e in pool]
        out: list[Rolled] = []
        for _ in range(count):
            idx = rng.weighted(range(len(pool)), weights)
            entry = pool.pop(idx)
            weights.pop(idx)
            out.append(self._rolled(table, entry, rng, vars))
        return out

    def pick(
        self,
        table_id: str,
        rng: Rng,
        where: Mapping[str, Any] | None = None,
        tags: Iterable[str] = (),
        vars: Mapping[str, str] | None = None,
    ) -> Rolled:
        """Roll among the entries matching field values and/or any of the tags (by weight)."""
        table = self.get(table_id)
        wanted = set(tags)
        pool = [
            e
            for e in table.entries
            if all(e.data.get(k) == v for k, v in (where or {}).items())
            and (not wanted or wanted & set(e.tags))
        ]
        if not pool:
            raise DelveError(
                f"{table.path}: table '{table_id}' has no entry matching {dict(where or {})}"
                + (f" with tags {sorted(wanted)}" if wanted else "")
            )
        entry = rng.weighted(pool, [e.weight for e in pool])
        return self._rolled(table, entry, rng, vars)

    def _rolled(
        self, table: Table, entry: Entry, rng: Rng, vars: Mapping[str, str] | None
    ) -> Rolled:
        value = entry.spans[0][0] if entry.spans else None
        return Rolled(table.id, entry, value, self._text(table, entry, rng, vars))

    def _text(
        self,
        table: Table,
        entry: Entry,
        rng: Rng,
        vars: Mapping[str, str] | None,
        depth: int = 0,
    ) -> str:
        """The entry's result text, its placeholders resolved (static text costs nothing)."""
        tpl = entry.template
        return tpl.static if tpl.static is not None else self._render(tpl, rng, vars, table, depth)

    def render_field(
        self, rolled: Rolled, name: str, rng: Rng, vars: Mapping[str, str] | None = None
    ) -> str:
        """Resolve placeholders in a text field other than `result`."""
        tpl = rolled.entry.templates.get(name)
        if tpl is None:
            return str(rolled.entry.data.get(name, ""))
        return self._render(tpl, rng, vars, self.tables[rolled.table], 0)

    def _render(
        self,
        tpl: Template,
        rng: Rng,
        vars: Mapping[str, str] | None,
        table: Table,
        depth: int,
    ) -> str:
        out: list[str] = []
        for part in tpl.parts:
            if isinstance(part, str):
                out.append(part)
            elif part[0] == "dice":
                out.append(str(part[1].roll(rng)))
            elif part[0] == "ref":
                inner = self.tables[part[1]]
                if depth >= MAX_DEPTH:
                    raise DelveError(f"table '{table.id}': references nest too deeply")
                entry, _ = inner.pick(rng)
                out.append(self._text(inner, entry, rng, vars, depth + 1))
            else:
                if vars is None or part[1] not in vars:
                    raise DelveError(
                        f"{table.path}: table '{table.id}': placeholder {{${part[1]}}} "
                        "has no value here"
                    )
                out.append(str(vars[part[1]]))
        return "".join(out)


def _unknown_references(refs: list[tuple[_FileParser, int, str]], ids: set[str]) -> list[str]:
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
