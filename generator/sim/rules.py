"""The tables under sim/: tactics, verdict thresholds, foes that cannot think, the default party.

Each is read once per TableSet and checked, so a referee's edited copy fails with a line naming
the file, not halfway through a booklet.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine import needs
from generator.engine.table import Table
from generator.engine.tables import TableSet
from generator.errors import TableError

TACTICS = "sim/tactics"
VERDICTS = "sim/verdicts"
MINDLESS = "sim/mindless"
PARTY = "sim/party"

# key -> (lowest, highest) a referee may set it to
TACTIC_BOUNDS = {
    "front_holds": (0, 20),
    "fall_back_at": (0.0, 1.0),
    "party_breaks_at": (0.0, 1.0),
    "max_rounds": (1, 1000),
    "lullaby_average": (1.0, 6.0),
}
# verdict bound -> the figure it bounds
BOUNDS = {
    "win_at_least": "win",
    "drop_at_most": "drop",
    "wiped_at_most": "wiped",
    "hp_lost_at_most": "hp_lost",
}


def _where(table: Table, line: int) -> str:
    return f"{table.path}:{line}: table '{table.id}'"


@dataclass(frozen=True)
class Tactics:
    front_holds: int
    fall_back_at: float
    party_breaks_at: float
    max_rounds: int
    lullaby_average: float


def tactics(tables: TableSet) -> Tactics:
    cached = tables.derived.get(TACTICS)
    if cached is not None:
        return cached
    table = tables.require_fields(TACTICS, {"key": "str", "value": "float"})
    values: dict[str, float] = {}
    problems = []
    for e in table.entries:
        key, value = e["key"], float(e["value"])
        if key not in TACTIC_BOUNDS:
            problems.append(
                f"{_where(table, e.line)}: unknown key {key!r} (known: {', '.join(TACTIC_BOUNDS)})"
            )
            continue
        low, high = TACTIC_BOUNDS[key]
        if not low <= value <= high:
            problems.append(f"{_where(table, e.line)}: {key} must be {low} to {high}, not {value}")
        values[key] = value
    missing = [k for k in TACTIC_BOUNDS if k not in values]
    if missing:
        problems.append(f"{_where(table, table.line)}: missing {', '.join(missing)}")
    if problems:
        raise TableError(problems)
    cached = Tactics(
        front_holds=int(values["front_holds"]),
        fall_back_at=values["fall_back_at"],
        party_breaks_at=values["party_breaks_at"],
        max_rounds=int(values["max_rounds"]),
        lullaby_average=values["lullaby_average"],
    )
    tables.derived[TACTICS] = cached
    return cached


@dataclass(frozen=True)
class Verdict:
    key: str
    bounds: dict[str, float]  # BOUNDS name -> threshold
    text: str

    def fits(self, figures: dict[str, float]) -> bool:
        for name, limit in self.bounds.items():
            value = figures[BOUNDS[name]]
            if name.endswith("at_least") and value < limit:
                return False
            if name.endswith("at_most") and value > limit:
                return False
        return True


def verdicts(tables: TableSet) -> list[Verdict]:
    """The verdict rows in order; the last has no bounds, so every fight gets a word."""
    cached = tables.derived.get(VERDICTS)
    if cached is not None:
        return cached
    table = tables.require_fields(VERDICTS, {"key": "str"})
    problems = []
    out: list[Verdict] = []
    seen: set[str] = set()
    for e in table.entries:
        where = _where(table, e.line)
        key = e["key"]
        if not key.strip() or key in seen:
            problems.append(f"{where}: verdict key {key!r} is empty or used twice")
        seen.add(key)
        bounds = {}
        for name in BOUNDS:
            value = e.get(name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                problems.append(f"{where}: {name} must be a number from 0 to 1")
            elif not 0 <= value <= 1:
                problems.append(f"{where}: {name} must be from 0 to 1 (a share), not {value}")
            else:
                bounds[name] = float(value)
        out.append(Verdict(key, bounds, e.result))
    if not out:
        problems.append(f"{_where(table, table.line)}: needs at least one verdict")
    elif out[-1].bounds:
        problems.append(
            f"{_where(table, table.entries[-1].line)}: the last verdict ({out[-1].key}) must "
            "have no bounds, so that every fight gets one"
        )
    if problems:
        raise TableError(problems)
    tables.derived[VERDICTS] = out
    return out


def verdict(tables: TableSet, figures: dict[str, float]) -> str:
    """The first verdict whose bounds hold for {win, drop, wiped, hp_lost}."""
    for v in verdicts(tables):
        if v.fits(figures):
            return v.key
    return verdicts(tables)[-1].key  # unreachable: the last row has no bounds


def mindless(tables: TableSet) -> tuple[frozenset[str], frozenset[str]]:
    """(tags, lower-case names) of monsters that cannot think for themselves."""
    cached = tables.derived.get(MINDLESS)
    if cached is None:
        table = tables.get(MINDLESS)
        tags = frozenset(str(e["tag"]) for e in table.entries if e.get("tag"))
        names = frozenset(str(e["name"]).lower() for e in table.entries if e.get("name"))
        cached = tables.derived[MINDLESS] = (tags, names)
    return cached


# What `delve tables check` checks of these tables for the simulation (engine/needs.py): the
# same checks as the first fight makes, so an edited copy fails there, not halfway through.
BY = "the combat simulation"
TACTICS_TABLE = needs.declare(
    TACTICS, BY, fields={"key": "str", "value": "float"}, check=needs.by_reading(tactics)
)
VERDICTS_TABLE = needs.declare(
    VERDICTS, BY, fields={"key": "str"}, check=needs.by_reading(verdicts)
)
