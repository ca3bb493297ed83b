"""A room's name and description, composed from the tables (docs/rooms.md).

The description: a first sentence from a frame (site/rooms/frames) holding the type's form, a
build phrase (site/rooms/builds) and what the room was for; two or three telling details from
the type's and the theme's details (none a condition rules out); the room's condition now
(site/rooms/conditions, fitting its place, its build and its occupants); and what its
occupants have done to it (site/rooms/marks, by their kind, one or many). Python fills the
tables' {$vars} and capitalises a sentence's first letter; all other grammar is in the tables.

The name: a pattern of site/rooms/names whose every {$var} the room knows. A room that holds no
hoard is never given a name that promises one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from generator.build.site.deck import Deck, Pool, pool
from generator.build.site.rules import BY, EXCLUSIVE, EXCLUSIVE_BUILDS, HOARD_WORDS
from generator.build.site.story import the
from generator.build.site.themes import Detail, Theme
from generator.build.site.types import TYPES_TABLE, RoomType
from generator.engine import needs, words
from generator.engine.rng import Rng
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.model.monster import Monster

BUILDS = "site/rooms/builds"
FRAMES = "site/rooms/frames"
CONDITIONS = "site/rooms/conditions"
MARKS = "site/rooms/marks"
NAMES = "site/rooms/names"
THEMES_TABLE = "site/themes"
MIN_DETAILS = 2  # a room shows at least two details (when its type has them)
THREE_DETAILS = 0.3  # ... and three rather than two this often
THEME_DETAIL = 0.5  # ... and one of them is the theme's this often
EMPTY_MARK = 0.3  # an empty room shows what the level's commonest creatures did there this often
DRAWS = 12  # draws from the site's conditions for one that fits the room, before making its pool
NAME_TRIES = 4  # patterns tried for a name no other room of the site has
LOOTED = "looted"  # a room that holds a hoard is never looted
FRAME_VARS = frozenset({"form", "Form", "build", "was"})
NAME_VARS = frozenset({"Name", "name", "noun", "Noun", "adjective", "of", "owners", "they"})


MARK_VARS = frozenset({"they", "They", "their"})
OF = re.compile(r"\bof\b", re.I)
WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # a word of a form, hyphens kept: "sea-cave"


def _vars_of(e: Entry, name: str = "result") -> frozenset[str]:
    tpl = e.template if name == "result" else e.templates.get(name)
    if tpl is None:
        return frozenset()
    return frozenset(p[1] for p in tpl.parts if isinstance(p, tuple) and p[0] == "var")


def _only(
    known: frozenset[str], what: str, fields: tuple[str, ...] = ("result",)
) -> Callable[[TableSet, Table], list[str]]:
    """A check that every entry's {$vars} are ones the composer fills."""

    def check(tables: TableSet, table: Table) -> list[str]:
        shown = ", ".join("{$" + v + "}" for v in sorted(known))
        return [
            f"{needs.where(table, e.line)}: {{${v}}} is not a {what} placeholder (use {shown})"
            for e in table.entries
            for f in fields
            for v in sorted(_vars_of(e, f) - known)
        ]

    return check


NEEDS = (
    needs.declare(BUILDS, BY, fields={"key": "str"}, check=lambda t, table: _word_lists(table)),
    needs.declare(FRAMES, BY, check=_only(FRAME_VARS, "frame")),
    needs.declare(CONDITIONS, BY, fields={"key": "str"}, check=lambda t, table: _word_lists(table)),
    needs.declare(
        MARKS,
        BY,
        fields={"one": "str", "many": "str"},
        check=_only(MARK_VARS, "mark", ("one", "many")),
    ),
    needs.declare(NAMES, BY, check=_only(NAME_VARS, "room name")),
)


def _word_lists(table: Table) -> list[str]:
    """`not` and `forms` (builds, conditions) must be lists of words."""
    return [
        f"{needs.where(table, e.line)}: {name} must be a list of words"
        for e in table.entries
        for name in ("not", "forms")
        if e.get(name) is not None
        and not (isinstance(e.get(name), list) and all(isinstance(w, str) for w in e.get(name)))
    ]


def _words(e: Entry, name: str) -> frozenset[str]:
    value = e.get(name)
    return frozenset(str(w).lower() for w in value) if isinstance(value, list) else frozenset()


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


# A condition as its fit reads it: (entry, weight, its places and builds or None for every
# room, the kinds it needs, its `not`, its world, its key).
_Row = tuple[Entry, float, frozenset[str] | None, frozenset[str], frozenset[str], str, str]


@dataclass(frozen=True)
class _Condition:
    """What composition reads of a condition entry (once per TableSet)."""

    key: str
    adjective: str  # "" when it has none, or when it promises treasure
    name: str  # likewise


@dataclass(frozen=True)
class _Type:
    """What composition reads of a room type in one theme (once per theme and TableSet)."""

    builds: tuple[str, ...]  # the builds it can have here, likeliest first
    cumulative: tuple[float, ...]  # their weights, added up
    vars: dict[str, str]  # its name and noun, for names
    blocked: frozenset[str]  # conditions that would leave it fewer than two details
    form_words: frozenset[str]  # the words of its form and name: what a build phrase follows


@dataclass
class Composer:
    """One site's composition: what its rooms have used, so no two read alike."""

    tables: TableSet
    theme: Theme
    deck: Deck
    names: set[str] = field(default_factory=set)
    details: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        tables = self.tables
        cache = tables.derived.get("compose")
        if cache is None:
            # Once per TableSet: the tables checked against what the composer needs.
            for need in NEEDS:
                if tables.has(need.table):
                    needs.require(tables, need)
            cache = tables.derived["compose"] = {
                "has": {t: tables.has(t) for t in (BUILDS, FRAMES, CONDITIONS, MARKS, NAMES)}
            }
        self.cache: dict = cache  # type: ignore[type-arg]
        self.has: dict[str, bool] = cache["has"]
        theme = self.theme
        self.types: dict[int, _Type] = cache.setdefault(("types", theme.key, theme.builds), {})
        self._worlds: frozenset[str] | None = None  # the theme's worlds some condition is of
        self._site: tuple[Pool, dict[int, _Row]] | None = None  # its conditions (every room's)

    # ---------------------------------------------------------------- what is read once

    def _pool(self, table_id: str, key: object, fits: Callable[[Entry], bool]) -> Pool:
        if not self.has[table_id]:
            return EMPTY
        return pool(self.tables, table_id, key, fits)

    def _type(self, rt: RoomType) -> _Type:
        found = self.types.get(id(rt.entry))
        if found is None:
            # The builds it can have, the theme's where they agree, likeliest first.
            # An ice or a wreck build only in a theme of ice or ships (docs/rooms.md).
            theme = self.theme
            allowed = tuple(
                b
                for b in rt.builds
                if b not in EXCLUSIVE_BUILDS
                or b in theme.builds
                or EXCLUSIVE_BUILDS[b] in theme.places
            )
            both = tuple(b for b in allowed if b in theme.builds)
            options = both or allowed or theme.builds[:1]
            weights = [float(len(options) - i + 1) for i in range(len(options))]
            cumulative = tuple(sum(weights[: i + 1]) for i in range(len(weights)))
            vars = {"Name": rt.name, "name": rt.name[:1].lower() + rt.name[1:]}
            if rt.noun:
                vars["noun"] = rt.noun
                vars["Noun"] = _capital(rt.noun)
            blocked = frozenset(
                k for k in rt.ruled if sum(k not in d.not_ for d in rt.details) < MIN_DETAILS
            )
            # Only the words some build phrase names (in `not` or `forms`) tell forms apart.
            form_words = self._build_words() & frozenset(
                WORD.findall(f"{rt.form} {rt.name}".lower())
            )
            found = self.types[id(rt.entry)] = _Type(options, cumulative, vars, blocked, form_words)
        return found

    def _build_words(self) -> frozenset[str]:
        found = self.cache.get("build-words")
        if found is None:
            found = self.cache["build-words"] = (
                frozenset(
                    w
                    for e in self.tables.entries(BUILDS)
                    for w in _words(e, "not") | _words(e, "forms")
                )
                if self.has[BUILDS]
                else frozenset()
            )
        return found

    def _condition(self, e: Entry) -> _Condition:
        key = ("condition", id(e))
        found = self.cache.get(key)
        if found is None:
            adjective = str(e.get("adjective") or "")
            name = str(e.get("name") or "")
            found = self.cache[key] = _Condition(
                str(e.get("key", "")),
                "" if HOARD_WORDS.search(adjective) else adjective,
                "" if HOARD_WORDS.search(name) else name,
            )
        return found

    def _frames(self, build: bool, was: bool) -> Pool:
        """Frames naming exactly the parts the room has (a form, a build, what it was)."""
        found = self.cache.get(("frames", build, was))
        if found is not None:
            return found
        known = frozenset(("form",) + (("build",) if build else ()) + (("was",) if was else ()))

        def parts(e: Entry) -> frozenset[str]:
            return frozenset(v.lower() for v in _vars_of(e))

        found = self._pool(FRAMES, ("exact", known), lambda e: parts(e) == known)
        if not found:
            found = self._pool(
                FRAMES, ("within", known), lambda e: "form" in parts(e) and parts(e) <= known
            )
        self.cache["frames", build, was] = found
        return found

    def _condition_rows(self) -> list[_Row]:
        """Each condition as the fit reads it (once per TableSet): (entry, weight, its places
        and builds or None for every room, the kinds it needs, its `not`, its world, its key)."""
        rows = self.cache.get("condition-rows")
        if rows is None:
            rows = self.cache["condition-rows"] = [
                (
                    e,
                    e.weight,
                    None if not e.tags or "any" in e.tags else frozenset(e.tags),
                    frozenset(e.get("kinds") or ()),
                    _words(e, "not"),
                    e.tags[0] if e.tags and e.tags[0] in EXCLUSIVE else "",
                    str(e.get("key", "")),
                )
                for e in (self.tables.entries(CONDITIONS) if self.has[CONDITIONS] else ())
            ]
            self.cache["condition-worlds"] = frozenset(r[5] for r in rows if r[5])
            self.cache["condition-kinds"] = frozenset(k for r in rows for k in r[3])
        return rows

    def _conditions(
        self, rt: RoomType, info: _Type, build: str, kinds: frozenset[str], hoard: bool
    ) -> Pool:
        """Conditions that can happen in its place and build, to its occupants, and leave it
        two details (a burnt fungus grotto has nothing left to show)."""
        rows = self._condition_rows()
        # Only the mood words some condition cannot stand beside, and the worlds some
        # condition is of, make two themes' conditions differ.
        moods = self._mood_words()
        worlds = self._worlds
        if worlds is None:
            worlds = self._worlds = self.cache["condition-worlds"].intersection(self.theme.places)
        # (Only the kinds some condition needs tell rooms apart: fewer pools to make.)
        kinds = kinds & self.cache["condition-kinds"]
        key = ("conditions", rt.places, build, kinds, hoard, info.blocked, moods, worlds)
        found = self.cache.get(key)
        if found is not None:
            return found
        places = rt.places | {build}
        blocked = info.blocked
        # What it cannot stand beside: the theme's mood words and the room's build (no frost
        # in a fiery lair, no dust in a drowned temple, no flood in a room built of ice).
        beside = moods | {build}
        kept: list[Entry] = []
        cumulative: list[float] = []
        total = 0.0
        for e, w, tags, need, not_, world, condition in rows:
            if w <= 0 or (tags is not None and places.isdisjoint(tags)):
                continue
            if need and kinds.isdisjoint(need):
                continue
            if not beside.isdisjoint(not_) or (world and world not in worlds):
                continue  # (clear ice in a crystal grotto only where there is ice)
            if condition in blocked or (hoard and condition.startswith(LOOTED)):
                continue
            total += w
            kept.append(e)
            cumulative.append(total)
        found = self.cache[key] = Pool(CONDITIONS, tuple(kept), tuple(cumulative))
        return found

    def _site_conditions(self) -> tuple[Pool, dict[int, _Row]]:
        """The conditions the theme's moods and worlds allow, and each one's row by id."""
        if self._site is not None:  # (read once a site, not once a room)
            return self._site
        rows = self._condition_rows()
        moods = self._mood_words()
        worlds = self._worlds
        if worlds is None:
            worlds = self._worlds = self.cache["condition-worlds"].intersection(self.theme.places)
        key = ("site-conditions", moods, worlds)
        found = self.cache.get(key)
        if found is None:
            kept = [
                r
                for r in rows
                if r[1] > 0 and moods.isdisjoint(r[4]) and not (r[5] and r[5] not in worlds)
            ]
            found = self.cache[key] = (
                Pool.of(CONDITIONS, (r[0] for r in kept), lambda e: e.weight),
                {id(r[0]): r for r in kept},
            )
        self._site = found
        return found

    def _deal_condition(
        self, rng: Rng, rt: RoomType, info: _Type, build: str, kinds: frozenset[str], hoard: bool
    ) -> Entry | None:
        """A condition for the room, none twice in the site while there are others.

        Drawn by weight from the theme's conditions and kept only when it fits the room: the
        same odds as the room's own pool (_conditions), which is made only when a dozen draws
        find nothing (a pool for every kind of room costs more than a few draws)."""
        if not self.has[CONDITIONS]:
            return None
        site, rows = self._site_conditions()
        used = self.deck.used.get(CONDITIONS)
        if used is None:
            used = self.deck.used[CONDITIONS] = set()
        places = rt.places
        blocked = info.blocked
        for _ in range(DRAWS):
            e = site.pick(rng, used)
            if e is None:
                break
            _, _, tags, need, not_, _, condition = rows[id(e)]
            if tags is not None and places.isdisjoint(tags) and build not in tags:
                continue
            if (need and kinds.isdisjoint(need)) or build in not_:
                continue
            if condition in blocked or (hoard and condition.startswith(LOOTED)):
                continue
            used.add(id(e))
            return e
        conditions = self._conditions(rt, info, build, kinds, hoard)
        if not conditions.entries:
            return None
        return self.deck.entry(CONDITIONS, rng, conditions, strict=True)

    def _mood_words(self) -> frozenset[str]:
        found = self.cache.get(("moods", self.theme.mood))
        if found is None:
            every = self.cache.get("not-words")
            if every is None:
                every = self.cache["not-words"] = (
                    frozenset(w for e in self.tables.entries(CONDITIONS) for w in _words(e, "not"))
                    if self.has[CONDITIONS]
                    else frozenset()
                )
            found = self.cache["moods", self.theme.mood] = every.intersection(self.theme.moods)
        return found

    def _marks(self, kind: str) -> Pool:
        found = self.cache.get(("marks", kind))
        if found is None:
            found = self.cache["marks", kind] = self._pool(
                MARKS, ("kind", kind), lambda e: not e.tags or "any" in e.tags or kind in e.tags
            )
        return found

    def _names(self, known: frozenset[str]) -> Pool:
        found = self.cache.get(("names", known))
        if found is None:
            found = self.cache["names", known] = self._pool(
                NAMES, ("known", known), lambda e: _vars_of(e) <= known
            )
        return found

    def _builds(self, build: str, form: frozenset[str]) -> Pool:
        """The build's phrases that can follow this form: none whose `not` names a word of it
        (no chisel marks in a cave), none whose `forms` it lacks (rock salt only in salt)."""
        key = ("builds", build, form)
        found = self.cache.get(key)
        if found is None:

            def fits(e: Entry) -> bool:
                if e.get("key") != build or not form.isdisjoint(_words(e, "not")):
                    return False
                forms = _words(e, "forms")
                return not forms or not form.isdisjoint(forms)

            found = self.cache[key] = self._pool(BUILDS, key, fits)
        return found

    # ---------------------------------------------------------------- parts

    def _first(self, rng: Rng, rt: RoomType, build: str, form: frozenset[str]) -> str:
        tables = self.tables
        if not rt.form:  # a referee's type of the old kind: its result is the sentence
            return words.sentence(tables.resolve(TYPES_TABLE, rt.entry, rng).text)
        phrase = ""
        if build:
            # Each phrase once a site: when the build's are spent, the room goes without.
            chosen = self._fresh(BUILDS, self._builds(build, form), rng)
            if chosen is not None:
                static = chosen.template.static
                phrase = (
                    static if static is not None else tables.fill(BUILDS, chosen.template, rng)
                ).strip()
        frames = self._frames(bool(phrase), bool(rt.was))
        if not frames.entries:
            return words.sentence(f"{rt.form} {phrase}".strip())
        entry = self.deck.entry(FRAMES, rng, frames, strict=True)
        vars = {"form": rt.form, "Form": _capital(rt.form), "build": phrase, "was": rt.was}
        return _capital(tables.fill(FRAMES, entry.template, rng, vars))

    def _details(self, rng: Rng, rt: RoomType, condition: str) -> list[tuple[Detail, str]]:
        """Two or three details, the type's and now and then the theme's, none twice in the
        site while there are others, none the room's condition rules out."""
        if not rt.details:
            return []
        want = 3 if rng.random() < THREE_DETAILS else 2
        used = self.details

        def fresh(
            ds: tuple[Detail, ...], ruled: frozenset[str]
        ) -> list[Detail] | tuple[Detail, ...]:
            # (Most conditions are ruled out by no detail: nothing to filter.)
            ok = [d for d in ds if condition not in d.not_] if condition in ruled else ds
            if not used:
                return ok
            unused = [d for d in ok if id(d) not in used]
            return unused or ok

        chosen: list[tuple[Detail, str]] = []
        if self.theme.details and rng.random() < THEME_DETAIL:
            theirs = fresh(self.theme.details, self.theme.ruled)
            if theirs:
                chosen.append((rng.choice(theirs), THEMES_TABLE))
        own = fresh(rt.details, rt.ruled)
        chosen[:0] = [(d, TYPES_TABLE) for d in rng.sample(own, min(want - len(chosen), len(own)))]
        for d, _ in chosen:
            used.add(id(d))
        return chosen

    def _mark(
        self, rng: Rng, groups: list[tuple[Monster, int]], level: list[tuple[Monster, int]]
    ) -> str:
        if groups:
            m, n = max(groups, key=lambda g: g[1])
        elif level and rng.random() < EMPTY_MARK:
            m, n = max(level, key=lambda g: g[1])
            n = max(n, 2)  # the level's commonest creatures, always several ('many')
        else:
            return ""
        entry = self._fresh(MARKS, self._marks(m.kind), rng)  # none twice in a site
        if entry is None:
            return ""
        field_name = "one" if n == 1 else "many"
        tpl = entry.templates.get(field_name)
        if tpl is None:
            return _capital(str(entry.get(field_name, "")))
        they = self._they(m, n)
        vars = {"they": they, "They": _capital(they), "their": "its" if n == 1 else "their"}
        return _capital(self.tables.fill(MARKS, tpl, rng, vars))

    def _fresh(self, table_id: str, fitting: Pool, rng: Rng) -> Entry | None:
        """An entry the site has not had yet, or None."""
        used = self.deck.used.setdefault(table_id, set())
        entry = fitting.pick(rng, used)
        if entry is not None:
            used.add(id(entry))
        return entry

    def _promises(self, entry: Entry) -> bool:
        """Whether a name pattern's own words promise treasure (its vars are checked apart)."""
        key = ("promises", id(entry))
        found = self.cache.get(key)
        if found is None:
            parts = entry.template.parts or (entry.template.static or "",)
            words_ = " ".join(p for p in parts if isinstance(p, str))
            found = self.cache[key] = bool(HOARD_WORDS.search(words_))
        return found

    def _they(self, m: Monster, n: int) -> str:
        master = self.theme.master
        if master is not None and n == 1 and m.name == master.monster.name:
            return master.title
        return the(m, n)

    # ---------------------------------------------------------------- the room

    def room(
        self,
        rng: Rng,
        rt: RoomType,
        groups: list[tuple[Monster, int]],
        hoard: bool,
        level: list[tuple[Monster, int]],
    ) -> tuple[str, str]:
        """(name, description) of a room of type `rt` holding `groups` (and a hoard)."""
        tables = self.tables
        info = self._type(rt)
        build = info.builds[rng.weighted_index(info.cumulative)] if info.builds else ""
        sentences = [self._first(rng, rt, build, info.form_words)]
        kinds = frozenset(m.kind for m, _ in groups)
        entry = self._deal_condition(rng, rt, info, build, kinds, hoard)
        condition = self._condition(entry) if entry is not None else None
        details = self._details(rng, rt, condition.key if condition else "")
        for d, table_id in details:
            static = d.text.static
            sentences.append(static if static is not None else tables.fill(table_id, d.text, rng))
        if entry is not None:
            static = entry.template.static
            sentences.append(
                static if static is not None else tables.resolve(CONDITIONS, entry, rng).text
            )
        mark = self._mark(rng, groups, level)
        if mark:
            sentences.append(mark)
        description = " ".join(sentences)
        return self._name(rng, info, groups, hoard, details, condition), description

    def _name(
        self,
        rng: Rng,
        info: _Type,
        groups: list[tuple[Monster, int]],
        hoard: bool,
        details: list[tuple[Detail, str]],
        condition: _Condition | None,
    ) -> str:
        vars = dict(info.vars)
        tails = [d.name for d, _ in details if d.name and (hoard or not d.promises)]
        if condition is not None:
            if condition.adjective:
                vars["adjective"] = condition.adjective
            if condition.name:
                tails.append(condition.name)
        if tails:
            vars["of"] = rng.choice(tails)
        if groups:
            m, n = groups[0]  # the room's first group leads it
            they = self._they(m, n)
            vars["they"] = they
            vars["owners"] = they + ("'" if they.endswith("s") else "'s")
        name = vars["Name"]
        names = self._names(frozenset(vars))
        for _ in range(NAME_TRIES if names.entries else 0):
            entry = names.pick(rng, _NONE)
            assert entry is not None
            if not hoard and self._promises(entry):
                continue
            text = _capital(self.tables.fill(NAMES, entry.template, rng, vars).strip())
            if not text or (text.lower().count("of") > 1 and len(OF.findall(text)) > 1):
                continue  # (not "The hall of frozen figures of the shadowed figure")
            name = text
            if text not in self.names:
                break
        self.names.add(name)
        return name


_NONE: frozenset[int] = frozenset()
EMPTY = Pool("", (), ())
