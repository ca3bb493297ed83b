"""The d6 encounter table of each biome, with a line for the members of each faction based
there (the factions themselves are placed by holds.py)."""

from __future__ import annotations

from generator.build.monsters import bestiary
from generator.build.region.rules import MEMBER_COUNTS
from generator.build.region.tables import RegionTables
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.model.faction import EncounterEntry, Faction, RegionEncounter
from generator.model.monster import Monster


def biome_encounters(
    tables: TableSet,
    look: RegionTables,
    present: list[str],
    factions: list[Faction],
    base_biome: dict[str, str],
    rng: Rng,
) -> tuple[list[RegionEncounter], dict[str, Monster]]:
    beasts = bestiary(tables)
    used: dict[str, Monster] = {}
    out: list[RegionEncounter] = []
    for biome in present:
        tid = f"region/encounters/{biome}"
        table = tables.get(tid)
        erng = rng.child(biome)
        entries = []
        for roll, (e, m) in enumerate(
            zip(table.lookup, look.encounter_monsters[biome], strict=True), start=1
        ):
            reaction = tables.roll("npc/reaction", erng.child(f"{roll}/reaction"))
            # The dice in a line's text ({1d4+2} wagons) are rolled for that line itself, in its
            # own stream; rolling the table again would print another line's text.
            text = (
                e.template.static
                if e.template.static is not None
                else tables._rolled(table, e, erng.child(f"{roll}/text"), None).text
            )
            entries.append(
                EncounterEntry(
                    roll=roll,
                    monster=m.name,
                    count=e["count"],
                    doing=e["doing"],
                    description=text,
                    xp_each=m.xp,
                    reaction=reaction["key"],
                    reaction_roll=reaction.value or 0,
                )
            )
            used[m.name] = m
        out.append(RegionEncounter(biome, table.title, entries))
    by_biome = {t.terrain: t for t in out}
    for fa in factions:
        table = by_biome.get(base_biome[fa.key])
        if table is None:
            continue
        free = [e for e in table.entries if not e.faction]
        if not free:
            continue
        frng = rng.child(f"faction/{fa.key}")
        slot = frng.choice(free)
        m = beasts.find(fa.members)
        assert m is not None  # checked with the tables
        reaction = tables.roll("npc/reaction", frng)
        slot.monster = m.name
        slot.count = MEMBER_COUNTS.get(m.bracket, "1d6")
        slot.doing = f"are out on the business of {fa.name}, who mean {fa.goal}"
        slot.description = fa.description
        slot.xp_each = m.xp
        slot.reaction = reaction["key"]
        slot.reaction_roll = reaction.value or 0
        slot.faction = fa.key
        used[m.name] = m
    for fa in factions:
        m = beasts.find(fa.members)
        if m is not None:
            used[m.name] = m
    return out, {k: used[k] for k in sorted(used)}
