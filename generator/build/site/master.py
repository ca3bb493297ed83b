"""A theme's master: in the lair of the deepest level that can pay for it, or away, dead or
gone with only its young left, and the site says which (docs/rooms.md, site/master-absent).

The master is one creature. It leads the lair of the deepest level whose budget buys it with
a court (its roster's other members make up the rest of that level: the lair's followers and
the guards); no other room holds it. Where no level can (a level-1 dragon's lair), the site
rolls why: it is `away` (it comes back on a 1 on the wandering die, and the encounter table
says so), its `young` hold the lair (only for a master with young a level can pay for), or it
is `dead` and its servants squabble over what it left. Either way the deepest level's lair
gets the reason's `lair` sentence and the history its `history` sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.build.site.deck import pool
from generator.build.site.occupants import FREE, Rule, can_compose
from generator.build.site.rules import BY, XP_PER_LEVEL
from generator.build.site.themes import Theme, reinforced
from generator.engine import needs, words
from generator.engine.rng import Rng
from generator.engine.table import Entry
from generator.engine.tables import TableSet

ABSENT_TABLE = "site/master-absent"
REASONS = ("away", "young", "dead")
ABSENT = needs.declare(
    ABSENT_TABLE,
    BY,
    fields={"key": "str", "history": "str", "lair": "str"},
    values={"key": REASONS},
    check=lambda tables, table: [
        f"{needs.where(table)}: no entry for key {key!r} (a master no level can pay for needs "
        "a reason to be away)"
        for key in ("away", "dead")
        if not any(e["key"] == key for e in table.entries)
    ],
)


@dataclass(frozen=True)
class MasterPlan:
    """Where the theme's master is: `depth` is the level whose lair holds it (when absent, the
    level whose lair is its own); `reason` the site/master-absent entry when it is absent."""

    depth: int
    reason: Entry | None = None

    @property
    def present(self) -> bool:
        return self.reason is None

    @property
    def key(self) -> str:
        return "" if self.reason is None else str(self.reason["key"])


@dataclass(frozen=True)
class Absence:
    """The absent master's sentences, written for the site's own creatures."""

    history: str
    lair: str
    encounter: str


def _index(theme: Theme, name: str) -> int | None:
    return next((i for i, m in enumerate(theme.roster) if m.monster.name == name), None)


def _master_only(theme: Theme) -> frozenset[int]:
    assert theme.master is not None
    i = _index(theme, theme.master.monster.name)
    return frozenset() if i is None else frozenset({i})


def _fits(tables: TableSet, theme: Theme, budget: int, rule: Rule) -> bool:
    key = f"master-fits/{theme.key}/{budget}/{rule}"
    found = tables.derived.get(key)
    if found is None:
        found = can_compose(theme, budget, rule) or can_compose(
            reinforced(tables, theme), budget, rule
        )
        tables.derived[key] = found
    return found


def _seat(theme: Theme) -> Rule:
    """The level that holds the master: it leads the lair, alone of its kind."""
    assert theme.master is not None
    only = _master_only(theme)
    return Rule(lead=_index(theme, theme.master.monster.name), alone=True, shun=only)


def _young(theme: Theme) -> Rule | None:
    master = theme.master
    if master is None or master.young is None:
        return None
    young = _index(theme, master.young.name)
    return None if young is None else Rule(lead=young, shun=_master_only(theme))


def rule_for(theme: Theme, plan: MasterPlan | None, depth: int) -> Rule:
    """What a level's occupants must be, given where the master is."""
    if theme.master is None or plan is None:
        return FREE
    if depth == plan.depth and plan.present:
        return _seat(theme)
    young = _young(theme)
    if depth == plan.depth and plan.key == "young" and young is not None:
        return young
    return Rule(shun=_master_only(theme))


def plan_master(
    tables: TableSet, rng: Rng, theme: Theme, level: int, depths: int
) -> MasterPlan | None:
    """Where the master is, or why it is not there (None for a theme without a master)."""
    if theme.master is None:
        return None
    seat = _seat(theme)
    for depth in range(depths, 0, -1):
        if _fits(tables, theme, XP_PER_LEVEL * (level + depth - 1), seat):
            return MasterPlan(depth)
    needs.require(tables, ABSENT)
    young = _young(theme)
    budget = XP_PER_LEVEL * (level + depths - 1)
    allowed = ("away", "dead") + (
        ("young",) if young is not None and _fits(tables, theme, budget, young) else ()
    )
    kind = theme.master.monster.kind
    reasons = pool(
        tables,
        ABSENT_TABLE,
        (allowed, kind),
        lambda e: e["key"] in allowed and _for_master(e, kind),
    ) or pool(tables, ABSENT_TABLE, allowed, lambda e: e["key"] in allowed)
    return MasterPlan(depths, reasons.pick(rng, set()))


def _for_master(e: Entry, kind: str) -> bool:
    """An entry's tags name the masters it fits by kind (untagged or `any`: every master)."""
    return not e.tags or "any" in e.tags or kind in e.tags


def _for_ranks(e: Entry, kind: str) -> bool:
    """`rank_kinds`, when given, names the kinds of servant the sentences fit."""
    wanted = e.get("rank_kinds")
    return not wanted or kind in wanted


def absence(
    tables: TableSet, rng: Rng, theme: Theme, plan: MasterPlan, ranks: str, rank_kind: str
) -> Absence:
    """The reason's sentences, {$master} the master's title and {$ranks} who serves it. The
    reason's key was settled with the plan; its sentences are those of that key that fit the
    servants the rooms really hold (mindless ranks keep their orders; they do not quarrel)."""
    assert theme.master is not None and plan.reason is not None
    reason = plan.reason
    if not _for_ranks(reason, rank_kind):
        kind = theme.master.monster.kind
        fitting = pool(
            tables,
            ABSENT_TABLE,
            (reason["key"], kind, rank_kind),
            lambda e: (
                e["key"] == reason["key"] and _for_master(e, kind) and _for_ranks(e, rank_kind)
            ),
        )
        if fitting.entries:
            reason = fitting.pick(rng, set())
    rolled = tables.resolve(ABSENT_TABLE, reason, rng)
    vars = {"master": theme.master.title, "ranks": ranks}

    def text(name: str) -> str:
        return words.sentence(tables.render_field(rolled, name, rng, vars))

    encounter = (
        tables.render_field(rolled, "encounter", rng, vars) if rolled.get("encounter") else ""
    )
    return Absence(text("history"), text("lair"), encounter.strip().rstrip("."))
