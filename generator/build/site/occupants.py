"""Who is in a level's rooms: the lair and the guards, worth the level's XP budget.

FMC Basic, Site Design: a loop's occupants are worth about 1,000 XP x the party level. The lair
takes half to two thirds of it (it holds the leaders); the guards make up the rest. A theme's
master is one creature: it leads the lair of one level at most (master.py decides which), and
no other room of the site holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from generator.build.site.rules import MAX_HEADS, XP_TOLERANCE
from generator.build.site.themes import Theme
from generator.engine.rng import Rng
from generator.errors import DelveError
from generator.model.monster import Monster

Group = tuple[tuple[int, int], ...]  # (index into the roster, head count)
SHARES = (0.5, 0.55, 0.6, 0.65)  # the lair's share of the level's budget


@dataclass(frozen=True)
class Rule:
    """What a level's occupants must be: its lair led by roster member `lead` (alone when
    `alone`), and nobody of `shun` anywhere else in it."""

    lead: int | None = None
    alone: bool = False
    shun: frozenset[int] = frozenset()

    def lair_ok(self, group: Group) -> bool:
        if self.lead is not None:
            first, count = group[0]
            if first != self.lead or (self.alone and count != 1):
                return False
            return not any(i in self.shun for i, _ in group[1:])
        return not any(i in self.shun for i, _ in group)

    def guards_ok(self, group: Group) -> bool:
        return not any(i in self.shun or i == self.lead for i, _ in group)


FREE = Rule()


@lru_cache(maxsize=65536)
def _options(
    roster: tuple[tuple[int, str], ...], target: int, lair: bool, slack: int
) -> tuple[Group, ...]:
    """Compositions of one room's occupants worth `target` XP give or take `slack`.

    `roster` is ((xp, role), ...) so results can be cached. A room holds one kind of monster,
    or leaders (1-4) with followers of another kind no stronger than they are. The lair
    prefers compositions led by a roster 'leader'; the guards prefer everyone else.
    """
    members = list(range(len(roster)))
    leaders = [i for i in members if roster[i][1] == "leader"]
    others = [i for i in members if roster[i][1] != "leader"] or members
    heads = (leaders or members) if lair else others
    xp = [x for x, _ in roster]
    out: list[Group] = []
    seen: set[Group] = set()

    def add(group: Group) -> None:
        total = sum(xp[i] * n for i, n in group)
        count = sum(n for _, n in group)
        if (
            count <= MAX_HEADS
            and abs(total - target) <= target * XP_TOLERANCE
            and group not in seen
        ):
            seen.add(group)
            out.append(group)

    for lead in heads:
        n = round(target / xp[lead])
        for count in (n - 1, n, n + 1):
            if 1 <= count <= MAX_HEADS:
                add(((lead, count),))
        for n_lead in (1, 2, 3, 4):
            rest = target - xp[lead] * n_lead
            if rest <= 0:
                break
            for follower in members:
                if follower == lead or xp[follower] > xp[lead]:
                    continue
                n = round(rest / xp[follower])
                for count in (n - 1, n, n + 1):
                    if 2 <= count <= MAX_HEADS - n_lead:
                        add(((lead, n_lead), (follower, count)))
    return tuple(out)


@lru_cache(maxsize=65536)
def _lair_options(sig: tuple[tuple[int, str], ...], target: int, rule: Rule) -> tuple[Group, ...]:
    slack = round(target * XP_TOLERANCE)
    if rule.lead is not None:
        # A lair led by one member: every composition it can lead, leaders' or not.
        every = _options(sig, target, True, slack) + _options(sig, target, False, slack)
        return tuple(g for g in dict.fromkeys(every) if rule.lair_ok(g))
    found = tuple(g for g in _options(sig, target, True, slack) if rule.lair_ok(g))
    return found or tuple(g for g in _options(sig, target, False, slack) if rule.lair_ok(g))


@lru_cache(maxsize=65536)
def _guard_options(
    sig: tuple[tuple[int, str], ...], rest: int, slack: int, rule: Rule
) -> tuple[Group, ...]:
    # Guards within 10% of the budget of what the lair left: the level's total then is
    # within 10% of the budget too.
    for leaders in (False, True):
        found = tuple(g for g in _options(sig, rest, leaders, slack) if rule.guards_ok(g))
        if found:
            return found
    return ()


def _signature(theme: Theme) -> tuple[tuple[int, str], ...]:
    return tuple((m.monster.xp, m.role) for m in theme.roster)


def _worth(sig: tuple[tuple[int, str], ...], group: Group) -> int:
    return sum(sig[j][0] * n for j, n in group)


def can_compose(theme: Theme, budget: int, rule: Rule) -> bool:
    """Whether some lair and guards fit the budget under the rule (no dice rolled)."""
    sig = _signature(theme)
    slack_total = round(budget * XP_TOLERANCE)
    for share in SHARES:
        target = round(budget * share / 10) * 10
        for lair in _lair_options(sig, target, rule):
            rest = budget - _worth(sig, lair)
            if rest > 0 and _guard_options(sig, rest, slack_total, rule):
                return True
    return False


def compose_occupants(
    theme: Theme, budget: int, rng: Rng, rule: Rule = FREE
) -> tuple[list[tuple[Monster, int]], list[tuple[Monster, int]]]:
    """Split the level's XP budget between the lair and the guards, within 10% in total."""
    sig = _signature(theme)
    slack_total = round(budget * XP_TOLERANCE)
    for share in rng.shuffle(list(SHARES)):
        target = round(budget * share / 10) * 10
        lair_opts = _lair_options(sig, target, rule)
        for i in rng.shuffle(list(range(len(lair_opts)))):
            lair = lair_opts[i]
            rest = budget - _worth(sig, lair)
            if rest <= 0:
                continue
            guard_opts = _guard_options(sig, rest, slack_total, rule)
            if guard_opts:
                guards = rng.choice(guard_opts)
                return (
                    [(theme.roster[j].monster, n) for j, n in lair],
                    [(theme.roster[j].monster, n) for j, n in guards],
                )
    raise DelveError(
        f"theme '{theme.key}': its roster cannot make {budget:,} XP of occupants within 10%; "
        "give it monsters of more brackets"
    )
