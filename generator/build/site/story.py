"""A site's story: its history and the d6 of wandering groups drawn from its ecosystem."""

from __future__ import annotations

from generator.build.site.deck import draw
from generator.build.site.rules import ENCOUNTER_SHARE, LOOP
from generator.build.site.themes import Theme
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.model.site import Encounter


def _inhabitants(theme: Theme) -> str:
    leaders = [m.monster for m in theme.roster if m.role == "leader"]
    ranks = [m.monster for m in theme.roster if m.role != "leader"]
    if leaders and ranks:
        return f"the {ranks[0].plural} and their {leaders[0].name.lower()} master"
    kinds = leaders or ranks
    return f"the {kinds[0].plural}"


def history(tables: TableSet, rng: Rng, theme: Theme) -> tuple[dict[str, str], str, str]:
    rolls = {
        k: tables.roll(f"site/history/{k}", rng, {"inhabitants": _inhabitants(theme)})
        for k in ("who", "what", "when", "where", "why", "how")
    }
    h = {k: r.text.strip() for k, r in rolls.items()}
    who = h["who"][:1].upper() + h["who"][1:]
    text = f"{who} {h['what']} {h['when']}, {h['where']}. {h['why']} {h['how']}"
    place = rolls["what"].get("place") or (theme.places[0] if theme.places else "place")
    return h, text, place


def encounters(tables: TableSet, rng: Rng, theme: Theme, budget: int) -> list[Encounter]:
    """d6 wandering groups drawn from the site's own ecosystem."""
    doings = draw(tables, "site/encounter-activities", rng, LOOP)
    wanderers = [m for m in theme.roster if m.role != "leader"] or list(theme.roster)
    leaders = [m for m in theme.roster if m.role == "leader"]
    picks = [wanderers[i % len(wanderers)] for i in range(LOOP - 1)]
    rng.shuffle(picks)
    picks.append(leaders[0] if leaders else wanderers[0])  # a 6 brings out the master
    out = []
    for i, member in enumerate(picks, start=1):
        m = member.monster
        n = max(1, round(budget * ENCOUNTER_SHARE / m.xp))
        count = "1" if n == 1 else f"1d{n}+{n // 2}" if n > 2 else "1d2+1"
        out.append(Encounter(i, m.name, count, doings[i - 1].text, m.xp))
    return out
