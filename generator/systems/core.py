"""The generic converter: an FMC Basic monster looked up in a system's tables, put in its words.

A rules system is a folder of tables under ``systems/KEY/`` (see docs/systems.md). Nothing here
knows any one system: numbers come from lookup tables keyed by what the monster is (its bracket,
defense class, damage die, armour, speed, tags), words from its ``terms`` and ``stat-block``
tables, and the little that cannot be data from a named hook (:mod:`generator.systems.hooks`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.build.monsters import brackets
from generator.engine import words
from generator.engine.table import Entry, Table
from generator.engine.tables import TableSet
from generator.engine.texts import Template
from generator.errors import DelveError, TableError
from generator.model.monster import Monster
from generator.systems.checks import lookup_problems, placeholder_problems
from generator.systems.fill import (
    Missing,
    fill,
    hit_dice_text,
    number_text,
    round_half_up,
    row_values,
    speeds,
    when,
    where,
)
from generator.systems.results import RandomEvent, StatBlock
from generator.systems.spec import (
    CLASSES,
    LOOKUPS,
    OTHER_KEYS,
    PROCEDURE_KEYS,
    SAVES,
    TERM_KEYS,
)
from generator.systems.specials import classify, is_deadly, special_kinds

if TYPE_CHECKING:
    from generator.model.site import Site, Trap
    from generator.systems.hooks import Hook

_NUM = r"(\d+(?:\.\d+)?)"
_INCH = r"\s*[\"”″]"
_CONE = re.compile(_NUM + r"\s*[x×]\s*" + _NUM + r"(?:" + _INCH + r")?\s*cone", re.I)
_RADIUS = re.compile(_NUM + _INCH + r"\s*radius", re.I)
_ACROSS = re.compile(_NUM + _INCH + r"\s*across", re.I)
_WITHIN = re.compile(r"within\s*" + _NUM + _INCH, re.I)
_HOUR = re.compile(r"once (?:per|an|a|each|every) hour", re.I)
_ROUND = re.compile(r"(?:each|every|per) round", re.I)


class System:
    """One rules system, loaded from its tables and checked. Build with :func:`get_system`."""

    def __init__(
        self,
        tables: TableSet,
        key: str,
        name: str,
        default: bool = False,
        hook: Hook | None = None,
    ) -> None:
        self.tables = tables
        self.key = key
        self.name = name
        self.default = default
        self.hook = hook
        self.problems: list[str] = []
        self._terms: dict[str, Entry] = {}
        self._lookups: dict[str, Table] = {}
        self._load()

    # ---- loading and checking

    def table_id(self, name: str) -> str:
        return f"systems/{self.key}/{name}"

    def table(self, name: str) -> Table | None:
        """The system's table `systems/KEY/<name>`, or None when the system has none."""
        table_id = self.table_id(name)
        return self.tables.get(table_id) if self.tables.has(table_id) else None

    def _require(self, name: str, needed: Mapping[str, str]) -> Table | None:
        table = self.table(name)
        if table is None:
            return None
        try:
            self.tables.require_fields(table.id, needed)
        except TableError as err:
            self.problems.extend(err.problems)
            return None
        return table

    def _load(self) -> None:
        for required in ("terms", "stat-block"):
            if self.table(required) is None:
                self.problems.append(
                    f"system '{self.key}': no table {self.table_id(required)} "
                    f"(a system needs systems/{self.key}/terms.yaml and stat-block.yaml)"
                )
        terms = self._require("terms", OTHER_KEYS["terms"])
        stat = self._require("stat-block", OTHER_KEYS["stat-block"])
        for lookup in (*LOOKUPS, CLASSES):
            needed = {lookup.key: lookup.key_type}
            if lookup is CLASSES:
                needed["bracket"] = "int"
            table = self._require(lookup.name, needed)
            if table is not None:
                self._lookups[lookup.name] = table
        for name, needed in OTHER_KEYS.items():
            if name not in ("terms", "stat-block"):
                table = self._require(name, needed)
                if table is not None:
                    self._lookups[name] = table
        if terms is not None:
            self._load_terms(terms)
        if not self.problems:
            self.problems.extend(lookup_problems(self.tables, self._lookups))
        if not self.problems and stat is not None:
            self.problems.extend(
                placeholder_problems(
                    self.key, stat, self.table("terms"), self._terms, self._lookups, self.hook
                )
            )
        if not self.problems and self.hook is not None:
            self.problems.extend(self.hook.check(self))
        if self.problems:
            raise TableError(self.problems)

    def _load_terms(self, table: Table) -> None:
        for e in table.entries:
            key = e["key"]
            if key in self._terms:
                first = self._terms[key].line
                self.problems.append(
                    f"{where(table, e.line)}: term '{key}' is also at line {first}"
                )
            else:
                self._terms[key] = e
        wanted = list(TERM_KEYS) + [f"special.{k}" for k in special_kinds(self.tables)]
        missing = [k for k in wanted if k not in self._terms]
        if missing:
            self.problems.append(
                f"{where(table)}: system '{self.key}' needs the "
                f"{words.noun(len(missing), 'term')} {', '.join(missing)}"
            )
        if "name" in self._terms and not self.name:
            self.name = self._terms["name"].result

    # ---- words

    def has_term(self, key: str) -> bool:
        return key in self._terms

    def term(self, key: str, **values: Any) -> str:
        """The system's words for a procedure, with `{$name}` filled from the keyword arguments."""
        if key == "name" and key not in self._terms:
            return self.name
        entry = self._terms.get(key)
        if entry is None:
            raise DelveError(
                f"system '{self.key}' has no term '{key}' (add it to {self.table_id('terms')})"
            )
        return self._fill(entry.template, values, self._terms_table(), entry.line)

    def _terms_table(self) -> Table:
        table = self.table("terms")
        assert table is not None
        return table

    def _fill(
        self, template: Template | str, values: Mapping[str, Any], table: Table, line: int
    ) -> str:
        try:
            return fill(template, values)
        except Missing as err:
            who = values.get("name")
            for_whom = f" for {who}" if isinstance(who, str) and who else ""
            raise DelveError(
                f"{where(table, line)}: {{${err.name}}} has no value{for_whom}"
            ) from None

    def procedures(self) -> list[tuple[str, str]]:
        """The general rules as (key, text), in PROCEDURE_KEYS order, for a reference page."""
        out = []
        for key in PROCEDURE_KEYS:
            entry = self._terms.get(key)
            if entry is not None and entry.template.static is not None and entry.result.strip():
                out.append((key, entry.result))
        return out

    def obstacle_text(self, obstacle: str) -> str:
        """How the system resolves a connection's obstacle (site/obstacles keys; none = open)."""
        return self.term("open_way" if obstacle == "none" else obstacle)

    def trap_text(self, trap: Trap) -> str:
        """How the system resolves a trap: by what resists it (its save) and how deadly it is."""
        save = trap.save if trap.save in SAVES else "dodge"
        severity = self.term("trap.deadly" if is_deadly(self.tables, trap) else "trap.ordinary")
        return self.term(f"trap.{save}", severity=severity, trap=trap.name)

    def usage_die(self, item: str) -> str | None:
        """The usage die of a consumable or a kind of armour, for systems that have them."""
        wanted = item.strip().lower()
        usage = self._lookups.get("usage")
        for e in usage.entries if usage is not None else ():
            if e["item"].lower() == wanted:
                return e["die"]
        armour = self._lookups.get("armour")
        if armour is not None and "usage" in armour.fields:
            for e in armour.entries:
                if e["armor"].lower() == wanted and e.get("usage"):
                    return e["usage"]
        return None

    def distance(self, inches: float) -> str:
        """An FMC distance in tabletop inches in the system's terms (a range, metres, feet)."""
        ranges = self._lookups.get("ranges")
        if ranges is not None:
            for e in ranges.entries:
                if inches <= e["up_to"]:
                    return e.result
            return ranges.entries[-1].result
        units = self._lookups.get("units")
        if units is not None:
            e = units.entries[0]
            value = max(e["round"], round_half_up(inches * e["per_inch"], e["round"]))
            return self._fill(e.template, {"value": value}, units, e.line)
        return f'{number_text(inches)}"'

    def _speed_text(self, inches: float) -> str:
        speeds = self._lookups.get("speeds")
        if speeds is not None and all(e.result for e in speeds.entries):
            for e in speeds.entries:
                if inches <= e["up_to"]:
                    return e.result
            return speeds.entries[-1].result
        if "units" in self._lookups:
            return self.distance(inches)
        return f'{number_text(inches)}"'

    def speed(self, speed: str) -> str:
        """An FMC speed such as 8/24" (walking, then flying) in the system's terms."""
        numbers = speeds(speed)
        if not numbers:
            return speed
        walk = self._speed_text(numbers[0])
        if len(numbers) > 1:
            return self.term("speed.fly", walk=walk, fly=self._speed_text(numbers[1]))
        return self.term("speed.walk", walk=walk)

    # ---- monsters

    def values(self, monster: Monster) -> dict[str, Any]:
        """Every value a stat block or note of this system may name, for one monster."""
        m = monster
        values: dict[str, Any] = {
            "name": m.name,
            "plural": m.plural,
            "bracket": m.bracket,
            "bracket_name": m.bracket_name,
            "fmc_xp": m.xp,
            "fmc_dc": m.dc,
            "fmc_hp": m.hp,
            "fmc_speed": m.speed,
            "fmc_attack": m.attack,
            "fmc_damage": m.damage,
            "fmc_hit_dice": hit_dice_text(m.hit_dice),
            "damage_type": m.damage_type,
            "damage_word": self._damage_word(m.damage_type),
            "resist": words.join(m.resist),
            "resist_or": words.join(m.resist, "or"),
            "resist_words": words.join([self._damage_word(t) for t in m.resist]),
            "armor": m.armor or "",
            "shield": m.shield,
            "tags": ", ".join(m.tags),
            "special": m.special,
            "formidable": m.formidable,
        }
        notes: list[tuple[Table, Entry]] = []
        norm = brackets(self.tables).get(m.bracket)
        numbers = speeds(m.speed) or [0.0]
        keys: dict[str, Any] = {
            "brackets": m.bracket,
            "defense": m.dc,
            "dice": m.damage,
            "armour": m.armor or "none",
        }
        for lookup in LOOKUPS:
            table = self._lookups.get(lookup.name)
            if table is None:
                continue
            if lookup.name == "speeds":
                fastest = max(numbers)
                rows = [
                    next((e for e in table.entries if fastest <= e["up_to"]), table.entries[-1])
                ]
            elif lookup.name == "tags":
                rows = [e for e in table.entries if e["tag"] in m.tags]
            else:
                wanted = keys[lookup.name]
                rows = [e for e in table.entries if e[lookup.key] == wanted][:1]
                if not rows:
                    if lookup.name == "armour" and wanted == "none":
                        rows = []
                    else:
                        raise DelveError(
                            f"{where(table)}: no entry for {lookup.key} {wanted!r} "
                            f"(needed by {m.name})"
                        )
            taken: set[str] = set()
            for e in rows:
                row = row_values(e, skip=(lookup.key,))
                if lookup.name == "tags":  # the first matching tag row wins each field
                    row = {k: v for k, v in row.items() if k not in taken}
                    taken |= set(row)
                if lookup.name == "brackets" and norm is not None:
                    row = follow_monster(row, m, norm.hp, norm.attack)
                values.update(row)
                if "note" in e.data:
                    notes.append((table, e))
            if lookup.name == "armour":
                self._shield(table, m, values)
        classes = self._lookups.get("classes")
        if classes is not None:
            cls = values.get("class") or classes.entries[0]["class"]
            row = next(
                (e for e in classes.entries if e["class"] == cls and e["bracket"] == m.bracket),
                None,
            )
            if row is None:
                raise DelveError(
                    f"{where(classes)}: no entry for class {cls!r} at bracket {m.bracket} "
                    f"(needed by {m.name})"
                )
            values.update(row_values(row, skip=("bracket",)))
        if isinstance(values.get("hp"), (int, float)) and m.hp:
            values["regen"] = max(1, int(round_half_up(values["hp"] / m.hp)))
        else:
            values["regen"] = 1
        values["walk"] = self._speed_text(numbers[0])
        values["fly"] = self._speed_text(numbers[1]) if len(numbers) > 1 else ""
        values["speed"] = self.speed(m.speed)
        values.update(self._special_values(m.special))
        if self.hook is not None:
            self.hook.monster_vars(self, m, values)
        values["_notes"] = notes
        return values

    def _damage_word(self, damage_type: str) -> str:
        key = f"damage.{damage_type}"
        return self.term(key) if key in self._terms else damage_type

    def _shield(self, table: Table, m: Monster, values: dict[str, Any]) -> None:
        """The armour table's `shield` row, read as shield_<field>; blank when there is none."""
        row = next((e for e in table.entries if e["armor"] == "shield"), None)
        if m.shield and row is None:
            raise DelveError(f"{where(table)}: no entry for armor 'shield' (needed by {m.name})")
        for name, (type_name, _required) in table.fields.items():
            if name == "armor":
                continue
            if m.shield and row is not None:
                values[f"shield_{name}"] = row.templates.get(name, row.get(name, ""))
            else:
                values[f"shield_{name}"] = 0 if type_name in ("int", "float") else ""

    def _special_values(self, special: str) -> dict[str, Any]:
        """Area, reach and frequency of a special ability, read from its FMC text."""
        out: dict[str, Any] = {}
        reach = _WITHIN.search(special)
        out["reach"] = self.distance(float(reach.group(1)) if reach else 1.0)
        cone, radius, across = (
            _CONE.search(special),
            _RADIUS.search(special),
            _ACROSS.search(special),
        )
        out["width"] = out["length"] = out["radius"] = ""
        if cone:
            out["width"] = self.distance(float(cone.group(1)))
            out["length"] = self.distance(float(cone.group(2)))
            out["area"] = self.term("area.cone", width=out["width"], length=out["length"])
        elif radius or across:
            r = float(radius.group(1)) if radius else float(across.group(1)) / 2  # type: ignore[union-attr]
            out["radius"] = self.distance(r)
            out["area"] = self.term("area.radius", radius=out["radius"])
        elif reach:
            out["area"] = self.term("area.within", reach=out["reach"])
        else:
            out["area"] = self.term("area.none")
        if _HOUR.search(special):
            out["frequency"] = self.term("frequency.hour")
        elif _ROUND.search(special):
            out["frequency"] = self.term("frequency.round")
        else:
            out["frequency"] = self.term("frequency.any")
        return out

    def special_notes(self, monster: Monster, values: Mapping[str, Any] | None = None) -> list[str]:
        """The monster's special abilities and resistances in the system's words."""
        v = values if values is not None else self.values(monster)
        terms = self._terms_table()
        out: list[str] = []
        kinds, by_text = classify(self.tables, monster)
        for kind in kinds:
            entry = self._terms[f"special.{kind}"]
            out.append(self._fill(entry.template, v, terms, entry.line))
        if monster.special and not by_text:
            entry = self._terms["special"]
            out.append(
                self._fill(entry.template, {**v, "special": self._reword(v)}, terms, entry.line)
            )
        if monster.resist:
            out += self._resist_notes(monster, v)
        return out

    def reword(self, text: str, **values: Any) -> str:
        """Table text written in FMC Basic's words (a trap's effect, a door's passage) in this
        system's words, by its `rewrites` table; ordinary hazards resist at the easier grade."""
        return self._reword({"save_dc": "DC 12", **values, "special": text})

    def _reword(self, values: Mapping[str, Any]) -> str:
        text = str(values.get("special", ""))
        table = self._lookups.get("rewrites")
        for e in table.entries if table is not None else ():
            replace = self._fill(e.templates.get("replace", e["replace"]), values, table, e.line)
            text = re.sub(re.escape(e["find"]), lambda _m, r=replace: r, text, flags=re.I)
        return text

    def _resist_notes(self, monster: Monster, values: Mapping[str, Any]) -> list[str]:
        table = self._lookups.get("resist")
        if table is None:
            entry = self._terms["resist"]
            return [self._fill(entry.template, values, self._terms_table(), entry.line)]
        # Types that share a row (and the same hook values) share one note.
        groups: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Entry, dict, list[str]]] = {}
        for damage_type in monster.resist:
            row = next((e for e in table.entries if e["type"] == damage_type), None)
            row = row or next((e for e in table.entries if e["type"] == "*"), None)
            if row is None:
                continue  # no row for this type and no catch-all: nothing to say
            here = {**values, **row_values(row, skip=("type",)), "type": damage_type}
            extra = self.hook.resist_vars(self, values, here) if self.hook else {}
            key = (row.line, tuple(sorted((k, str(v)) for k, v in extra.items())))
            groups.setdefault(key, (row, extra, []))[2].append(damage_type)
        out = []
        for row, extra, types in groups.values():
            here = {**values, **row_values(row, skip=("type",)), **extra}
            here["type"] = words.join(list(types))
            out.append(self._fill(row.template, here, table, row.line))
        return out

    def stat_block(self, monster: Monster) -> StatBlock:
        """The monster's stat block in this system: ordered (label, value) lines and notes."""
        values = self.values(monster)
        stat = self.table("stat-block")
        assert stat is not None
        fields: list[tuple[str, str]] = []
        short: list[str] = []
        stat_notes: list[str] = []
        for e in stat.entries:
            if not when(str(e.get("when") or ""), values):
                continue
            text = self._fill(e.templates.get("value", e["value"]), values, stat, e.line)
            if e.get("note"):
                stat_notes.append(text)
                continue
            fields.append((e["label"], text))
            short.append(f"{e.get('short') or e['label']} {text}")
        notes = self.special_notes(monster, values) + stat_notes
        for table, e in values["_notes"]:
            notes.append(self._fill(e.templates.get("note", e["note"]), values, table, e.line))
        unique = [n for n in dict.fromkeys(n.strip() for n in notes) if n]
        return StatBlock(
            system=self.key,
            name=monster.name,
            bracket=monster.bracket,
            bracket_name=monster.bracket_name,
            fields=tuple(fields),
            notes=tuple(unique),
            parts=tuple(short),
        )

    def stat_line(self, monster: Monster) -> str:
        """The compact stat line ('Def 8, HP 28, Atk +2, ...'); FMC's is the example table's."""
        return self.stat_block(monster).line

    # ---- sites

    def random_events(self, site: Site) -> list[RandomEvent] | None:
        """The site's random events for systems that roll them each turn, else None."""
        table = self._lookups.get("events")
        if table is None:
            return None
        from generator.systems.events import site_values

        values = site_values(site)
        return [
            RandomEvent(e["die"], e["title"], self._fill(e.template, values, table, e.line))
            for e in sorted(table.entries, key=lambda e: e["die"])
        ]

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "default": self.default}


def follow_monster(
    row: dict[str, Any], m: Monster, norm_hp: int, norm_attack: int
) -> dict[str, Any]:
    """A monster tougher or weaker than its bracket keeps that difference in the system:
    `hp` and `dd` scale with its hit points, `attack` shifts by its attack's difference."""
    out = dict(row)
    if norm_hp and m.hp != norm_hp:
        for name in ("hp", "dd"):
            if isinstance(out.get(name), int) and not isinstance(out.get(name), bool):
                out[name] = max(1, int(round_half_up(out[name] * m.hp / norm_hp)))
    if isinstance(out.get("attack"), int) and not isinstance(out.get("attack"), bool):
        out["attack"] = out["attack"] + (m.attack - norm_attack)
    return out
