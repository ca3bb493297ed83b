"""Who is in a level's rooms: the lair and the guards, worth the level's XP budget."""

from __future__ import annotations

from functools import lru_cache

from generator.build.site.rules import MAX_HEADS, XP_TOLERANCE
from generator.build.site.themes import Theme
from generator.engine.rng import Rng
from generator.errors import DelveError
from generator.model.monster import Monster

Group = tuple[tuple[int, int], ...]  # (index into the roster, head count)


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


def compose_occupants(
    theme: Theme, budget: int, rng: Rng
) -> tuple[list[tuple[Monster, int]], list[tuple[Monster, int]]]:
    """Split the level's XP budget between the lair and the guards, within 10% in total.

    The lair takes half to two thirds (it holds the leaders); the guards make up the rest.
    """
    sig = tuple((m.monster.xp, m.role) for m in theme.roster)
    xp = [x for x, _ in sig]

    def worth(group: Group) -> int:
        return sum(xp[j] * n for j, n in group)

    for share in rng.shuffle([0.5, 0.55, 0.6, 0.65]):
        lair_target = round(budget * share / 10) * 10
        slack = round(lair_target * XP_TOLERANCE)
        lair_opts = _options(sig, lair_target, True, slack) or _options(
            sig, lair_target, False, slack
        )
        for i in rng.shuffle(list(range(len(lair_opts)))):
            lair = lair_opts[i]
            rest = budget - worth(lair)
            if rest <= 0:
                continue
            # Guards within 10% of the budget of what the lair left: the site's total then is
            # within 10% of the budget too.
            slack_total = round(budget * XP_TOLERANCE)
            fits = [_options(sig, rest, leaders, slack_total) for leaders in (False, True)]
            guard_opts = fits[0] or fits[1]
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
