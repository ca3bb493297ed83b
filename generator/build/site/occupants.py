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


FREE = Rule()


@lru_cache(maxsize=65536)
def _options(
    roster: tuple[tuple[int, str], ...],
    target: int,
    lair: bool,
    lead: int | None = None,
    alone: bool = False,
    shun: frozenset[int] = frozenset(),
) -> tuple[Group, ...]:
    """Compositions of one room's occupants worth `target` XP, within 10%.

    `roster` is ((xp, role), ...) so results can be cached. A room holds one kind of monster,
    or leaders (1-4) with followers of another kind no stronger than they are. The lair
    prefers compositions led by a roster 'leader'; the guards prefer everyone else. `lead`
    names the one member who must lead (`alone`: just one of it), and no member of `shun`
    takes part. (Written out flat: the guards of a level ask for a new target nearly every
    time.)
    """
    members = range(len(roster))
    if lead is not None:
        heads = [lead]
    else:
        leaders = [i for i in members if roster[i][1] == "leader"]
        others = [i for i in members if roster[i][1] != "leader"] or list(members)
        heads = [i for i in ((leaders or list(members)) if lair else others) if i not in shun]
    xp = [x for x, _ in roster]
    tolerance = target * XP_TOLERANCE
    most_alone = 1 if alone else MAX_HEADS
    out: list[Group] = []  # (no two alike: each differs in its head, counts or follower)
    for head in heads:
        xl = xp[head]
        n = round(target / xl)
        for count in (n - 1, n, n + 1):
            if 1 <= count <= most_alone and abs(xl * count - target) <= tolerance:
                out.append(((head, count),))
        # Who can follow it: another member, no stronger, not shunned (the same for every count).
        followers = [(f, xp[f]) for f in members if f != head and xp[f] <= xl and f not in shun]
        for n_lead in (1,) if alone else (1, 2, 3, 4):
            rest = target - xl * n_lead
            if rest <= 0:
                break
            most = MAX_HEADS - n_lead
            for follower, xf in followers:
                n = round(rest / xf)
                for count in (n - 1, n, n + 1):
                    if 2 <= count <= most and abs(xf * count - rest) <= tolerance:
                        out.append(((head, n_lead), (follower, count)))
    return tuple(out)


def _lair_options(sig: tuple[tuple[int, str], ...], target: int, rule: Rule) -> tuple[Group, ...]:
    if rule.lead is not None:  # every composition it can lead, leaders' or not
        return _options(sig, target, True, rule.lead, rule.alone, rule.shun)
    return _options(sig, target, True, None, False, rule.shun) or _options(
        sig, target, False, None, False, rule.shun
    )


def _guard_options(sig: tuple[tuple[int, str], ...], rest: int, rule: Rule) -> tuple[Group, ...]:
    # Guards within 10% of what the lair left: the level's total is then within 10% too.
    shun = rule.shun if rule.lead is None else rule.shun | {rule.lead}
    return _options(sig, rest, False, None, False, shun) or _options(
        sig, rest, True, None, False, shun
    )


def _signature(theme: Theme) -> tuple[tuple[int, str], ...]:
    return theme.signature


def _worth(sig: tuple[tuple[int, str], ...], group: Group) -> int:
    return sum(sig[j][0] * n for j, n in group)


def can_compose(theme: Theme, budget: int, rule: Rule) -> bool:
    """Whether some lair and guards fit the budget under the rule (no dice rolled)."""
    sig = _signature(theme)
    for share in SHARES:
        target = round(budget * share / 10) * 10
        for lair in _lair_options(sig, target, rule):
            rest = budget - _worth(sig, lair)
            if rest > 0 and _guard_options(sig, rest, rule):
                return True
    return False


def compose_occupants(
    theme: Theme, budget: int, rng: Rng, rule: Rule = FREE
) -> tuple[list[tuple[Monster, int]], list[tuple[Monster, int]]]:
    """Split the level's XP budget between the lair and the guards, within 10% in total."""
    sig = _signature(theme)
    for share in rng.shuffle(list(SHARES)):
        target = round(budget * share / 10) * 10
        lair_opts = _lair_options(sig, target, rule)
        # The options in a random order, drawn one at a time (the first usually serves).
        order = list(range(len(lair_opts)))
        for k in range(len(order)):
            j = k + int(rng.random() * (len(order) - k))
            order[k], order[j] = order[j], order[k]
            lair = lair_opts[order[k]]
            rest = budget - _worth(sig, lair)
            if rest <= 0:
                continue
            guard_opts = _guard_options(sig, rest, rule)
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
