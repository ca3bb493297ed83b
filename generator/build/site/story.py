"""A site's story: its name, its history, who lives there now, and its wandering groups.

Everything here is told from what the site really holds: the history's "what" is a place the
theme's rooms are made of (its tags steer the room types), the inhabitants it names are the
monsters in the rooms, the ecosystem paragraph prints the eco lines of the roster members that
are in the rooms or on the encounter table, and nothing names a master who is not there
without saying why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from generator.build.site import activities
from generator.build.site.deck import Deck, fits_places, pool
from generator.build.site.master import Absence, MasterPlan
from generator.build.site.rules import ENCOUNTER_SHARE, LOOP
from generator.build.site.themes import RosterMember, Theme
from generator.engine import words
from generator.engine.rng import Rng
from generator.engine.table import Entry, Rolled
from generator.engine.tables import TableSet
from generator.model.monster import Monster
from generator.model.site import Encounter, Room

HISTORY_PARTS = ("who", "what", "when", "where", "why", "how")
RANK_ORDER = {"rank": 0, "guard": 1, "beast": 2, "leader": 3}


def _pick(
    tables: TableSet,
    table_id: str,
    rng: Rng,
    fit: tuple[str, ...],
    weigh: Callable[[Entry], float] | None = None,
    vars: dict[str, str] | None = None,
) -> Rolled:
    """An entry fitting the site's places (or moods): untagged, `any`, or sharing one; the
    whole table when none does (a referee's theme of places no entry knows)."""
    found = pool(tables, table_id, ("weigh" if weigh else "fit", fit), weigh or fits_places(fit))
    if not found:
        found = pool(tables, table_id, "all", lambda _: True)
    entry = found.pick(rng, set())
    assert entry is not None
    return tables.resolve(table_id, entry, rng, vars)


def pick_what(tables: TableSet, rng: Rng, theme: Theme) -> Rolled:
    """What the builders made: a place that shares a place word with the theme, likeliest
    when it is the theme's first place (a dragon's lair is a lair before it is a cave). It
    is the history stream's first roll, so its tags can steer the room types before anything
    else is rolled."""
    places = theme.places

    def weigh(e: Entry) -> float:
        tags = e.tags
        shared = sum(1 for t in tags if t in places)
        if not shared:
            return 0.0
        return shared / len(tags) * (3.0 if places[0] in tags else 1.0)

    found = pool(tables, "site/history/what", ("what", places), weigh)
    if not found:
        found = pool(tables, "site/history/what", "all", lambda _: True)
    entry = found.pick(rng, set())
    assert entry is not None
    return tables.resolve("site/history/what", entry, rng)


def history(
    tables: TableSet,
    rng: Rng,
    theme: Theme,
    what: Rolled,
    inhabitants: str,
    absence: Absence | None,
) -> tuple[dict[str, str], str]:
    """The six answers, each fitting the theme's places, told as one story."""
    vars = {"inhabitants": inhabitants}
    h = {"what": what.text.strip()}
    for part in ("who", "when", "where", "why", "how"):
        h[part] = _pick(tables, f"site/history/{part}", rng, theme.places, vars=vars).text.strip()
    who = words.capital(h["who"])
    text = f"{who} {h['what']} {h['when']}, {h['where']}. {h['why']} {h['how']}"
    if absence is not None:
        text += f" {absence.history}"
    return {k: h[k] for k in HISTORY_PARTS}, text


def site_name(tables: TableSet, rng: Rng, theme: Theme, place: str) -> str:
    """The adjective and noun picked by the theme's places and mood words (a dragon's lair and
    a salt mine are not both 'The Wailing Crypt'); the pattern by the same words."""
    fit = theme.places + theme.moods
    wanted = frozenset(fit)

    def weigh(e: Entry) -> float:
        tags = e.tags
        if not tags:
            return 1.0
        if not wanted.isdisjoint(tags):
            return 3.0  # a word made for the place is likelier than one that fits anywhere
        return 1.0 if "any" in tags else 0.0

    vars = {
        "adjective": _pick(tables, "site/name-adjectives", rng, fit, weigh).text,
        "noun": _pick(tables, "site/name-nouns", rng, fit, weigh).text,
        "place": place.title(),
    }
    return _pick(tables, "site/name-patterns", rng, fit, vars=vars).text


# --------------------------------------------------------------------------- who lives here


def heads(rooms: list[Room]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for r in rooms:
        for g in r.monsters:
            counts[g.name] += g.count
    return counts


def the(m: Monster, count: int) -> str:
    """'the ghouls', 'the ogre' (a proper name, its plural capitalised, stands alone)."""
    if m.plural[:1].isupper():
        return m.name if count == 1 else m.plural
    return f"the {m.name.lower() if count == 1 else m.plural}"


def inhabitants(theme: Theme, rooms: list[Room], master_here: bool) -> tuple[str, str, str]:
    """(who holds the site, its ranks, the ranks' kind): 'the ashlings and the dragon they
    serve', 'the ashlings', 'dragon'. Only creatures in the rooms are named; the master only
    when it is there."""
    counts = heads(rooms)
    by_name = {m.monster.name: m.monster for m in theme.roster}
    roles = {m.monster.name: m.role for m in theme.roster}
    master = theme.master.monster.name if theme.master else None
    # The ranks: the most numerous of the roster's ranks in the rooms, else its guards, its
    # beasts, its leaders (the servants a history speaks of, not the rats in the walls).
    ranked = sorted(
        (n for n, _ in counts.most_common() if n != master and n in by_name),
        key=lambda n: RANK_ORDER.get(roles[n], 1),
    )
    if not ranked:
        ranked = [n for n, _ in counts.most_common()]
    ranks_name = ranked[0] if ranked else theme.roster[0].monster.name
    ranks_monster = by_name.get(ranks_name) or theme.roster[0].monster
    ranks = the(ranks_monster, 2)
    kind = ranks_monster.kind
    if theme.master is not None:
        if master_here:
            return f"{ranks} and {theme.master.title} they serve", ranks, kind
        return ranks, ranks, kind
    leaders = [
        m.monster
        for m in theme.roster
        if m.role == "leader" and m.monster.name in counts and m.monster.name != ranks_name
    ]
    if leaders:
        top = max(leaders, key=lambda m: m.xp)
        return f"{ranks} and {the(top, counts[top.name])} they serve", ranks, kind
    return ranks, ranks, kind


def ecosystem(theme: Theme, present: set[str], plan: MasterPlan | None) -> str:
    """The theme's opening, then the eco line of each roster member in the site. An absent
    master's own line is left out, and while it is dead or gone, every line naming it."""
    lines = [theme.ecosystem.strip()]
    seen: set[str] = set()
    master = theme.master
    for m in theme.roster:
        name = m.monster.name
        if not m.eco or name not in present or name in seen:
            continue
        seen.add(name)
        if master is not None and plan is not None and not plan.present:
            if name == master.monster.name:
                continue
            if plan.key != "away" and master.title.lower() in m.eco.lower():
                continue
        lines.append(m.eco)
    return " ".join(line for line in lines if line)


# --------------------------------------------------------------------------- wandering


def _count(budget: int, m: Monster) -> str:
    n = max(1, round(budget * ENCOUNTER_SHARE / m.xp))
    return "1" if n == 1 else f"1d{n}+{n // 2}" if n > 2 else "1d2+1"


def encounters(
    tables: TableSet,
    rng: Rng,
    theme: Theme,
    budget: int,
    plan: MasterPlan | None,
    absence: Absence | None,
) -> list[Encounter]:
    """d6 wandering groups drawn from the site's own ecosystem. The master never wanders from
    its lair onto the table, except one that is away: it comes home on a 1."""
    deck = Deck(tables, theme.places)
    master = theme.master.monster.name if theme.master else None
    roster = [m for m in theme.roster if m.monster.name != master] or list(theme.roster)
    wanderers = [m for m in roster if m.role != "leader"] or roster
    leaders = [m for m in roster if m.role == "leader"]
    home = theme.master is not None and plan is not None and plan.key == "away"
    picks: list[RosterMember] = [wanderers[i % len(wanderers)] for i in range(LOOP - 1)]
    rng.shuffle(picks)
    # A 6 brings out the strongest of them; with the master away, a 1 brings it home.
    picks.append(leaders[0] if leaders else max(wanderers, key=lambda m: m.monster.xp))
    out = []
    for i, member in enumerate(picks, start=1):
        m = member.monster
        count = _count(budget, m)
        what = activities.doing(deck, activities.WANDERING, rng, m, 1 if count == "1" else 2)
        out.append(Encounter(i, m.name, count, what, m.xp))
    if home:
        assert theme.master is not None and absence is not None
        m = theme.master.monster
        what = absence.encounter or activities.doing(deck, activities.WANDERING, rng, m, 1)
        out[0] = Encounter(1, m.name, "1", what, m.xp)
    return out
