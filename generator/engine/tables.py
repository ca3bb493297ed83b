"""The table engine: YAML random tables, loaded, validated, layered and rolled.

See docs/tables.md for the format. A :class:`TableSet` is built once from the built-in folder
plus the referee's folders (later folders sit over earlier ones) and handed to generators, which
know table ids, never table contents.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from generator.engine.refs import MAX_DEPTH, check_references
from generator.engine.rng import Rng
from generator.engine.table import Entry, Rolled, Table
from generator.engine.tableparse import FileParser, unknown_references
from generator.engine.texts import Template, counted
from generator.engine.yamlload import Budget, load_yaml
from generator.errors import DelveError, TableError
from generator.reading import not_a_file

MAX_FOLDER_FILES = 2_000  # table files in one folder (the built-ins are 126)
MAX_FOLDER_BYTES = 20 * 1024 * 1024  # bytes of table files in one folder (the built-ins: 856 KB)


def builtin_tables_dir() -> Path:
    """The tables shipped with Delve: inside the wheel, or at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "_data" / "tables"
    return packaged if packaged.is_dir() else package.parent / "tables"


def folder_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The table files of a folder, sorted, and its problems: a folder of more than
    MAX_FOLDER_FILES files or MAX_FOLDER_BYTES bytes is refused whole (from stat, before any
    file is read), and a file that is a symbolic link out of the folder is left out (as a
    template's would be: a shared pack must not read the referee's other files)."""
    root = folder.resolve()
    found = sorted(folder.rglob("*.yaml")) + sorted(folder.rglob("*.yml"))
    files, problems, total = [], [], 0
    for path in found:
        if len(files) >= MAX_FOLDER_FILES:
            return [], [f"{folder}: more than {MAX_FOLDER_FILES:,} table files in one folder"]
        try:
            real = path.resolve()
            st = real.stat()
        except (OSError, RuntimeError):
            continue  # a broken link: not a table file
        if not real.is_relative_to(root):
            problems.append(
                f"{path}: a symbolic link out of its folder; tables are read only "
                "inside their folder"
            )
            continue
        wrong = not_a_file(st.st_mode)
        if wrong:  # a folder named x.yaml holds tables of its own; anything else is refused
            if not stat.S_ISDIR(st.st_mode):
                problems.append(f"{path}: {wrong}")
            continue
        files.append(path)
        total += st.st_size
        if total > MAX_FOLDER_BYTES:
            limit = MAX_FOLDER_BYTES // (1024 * 1024)
            return [], [f"{folder}: more than {limit} MB of table files in one folder"]
    return files, problems


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
        refs: list[tuple[FileParser, int, str]] = []  # every {@ref}, from good files or not
        broken: set[str] = set()
        for index, folder in enumerate(folders):
            folder_label = "built-in" if index == 0 else str(folder)
            if not folder.is_dir():
                what = "is not a folder" if folder.exists() else "does not exist"
                problems.append(f"{folder}: tables folder {what}")
                continue
            files, wrong = folder_files(folder)
            problems += wrong
            if not files and index > 0 and not wrong:
                problems.append(f"{folder}: tables folder holds no .yaml files")
                continue
            seen_here: dict[str, Path] = {}
            budget = Budget(str(folder)) if index > 0 else None  # the built-ins are trusted
            for path in files:
                if budget is not None and budget.spent:
                    break
                rel = path.relative_to(folder)
                table_id = rel.with_suffix("").as_posix()
                label = str(path if index > 0 else Path("tables") / rel)
                try:
                    doc = load_yaml(path, label, budget)
                except TableError as err:
                    problems.extend(err.problems)
                    continue
                fp = FileParser(path, label, table_id, folder_label)
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
        problems.extend(unknown_references(refs, set(tables) | broken))
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

    def resolve(
        self, table_id: str, entry: Entry, rng: Rng, vars: Mapping[str, str] | None = None
    ) -> Rolled:
        """An entry the caller chose (a deck, a filter) as if rolled: its text resolved."""
        return self._rolled(self.get(table_id), entry, rng, vars)

    def fill(
        self, table_id: str, tpl: Template, rng: Rng, vars: Mapping[str, str] | None = None
    ) -> str:
        """A text compiled from inside one of the table's entries (an item of a list field),
        its placeholders resolved as the table's own texts are."""
        if tpl.static is not None:
            return tpl.static
        return self._render(tpl, rng, vars, self.get(table_id), 0)

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
                out.append(counted(part[1].roll(rng), part[2], part[3]))
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
