"""Factions with leaders, bases and relations; the d6 encounter table of each biome."""

from __future__ import annotations

from generator.build.monsters import bestiary
from generator.build.region.rules import FACTIONS, MEMBER_COUNTS
from generator.build.region.stocking import person
from generator.build.region.tables import RegionTables
from generator.engine.hexes import (
    Grid,
)
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.model.faction import EncounterEntry, Faction, Leader, RegionEncounter
from generator.model.monster import Monster


def roll_factions(
    tables: TableSet,
    grid: Grid,
    first: list[str],
    rng: Rng,
) -> list[Faction]:
    archetypes = len(tables.entries("region/factions"))
    count = min(FACTIONS[0] + int(rng.random() * (FACTIONS[1] - FACTIONS[0] + 1)), archetypes)
    drawn = tables.draw("region/factions", rng.child("archetypes"), count)
    n = len(grid)
    strong = [i for i in range(n) if first[i] in ("haven", "site", "lair")]
    weak = [i for i in range(n) if first[i] == "landmark"]
    brng = rng.child("bases")
    bases = brng.sample(strong, min(count, len(strong)))
    if len(bases) < count:
        bases += brng.sample(weak, min(count - len(bases), len(weak)))
    while len(bases) < count:
        bases.append(grid.center)
    out: list[Faction] = []
    for rolled, base in zip(drawn, bases, strict=True):
        key = rolled["key"]
        frng = rng.child(key)
        out.append(
            Faction(
                key=key,
                name=tables.render_field(rolled, "name", frng),
                description=rolled.text,
                goal=tables.render_field(rolled, "goal", frng),
                leader=Leader(person(tables, frng.child("leader")), rolled["leader"]),
                base=grid.labels[base],
                members=bestiary(tables).find(rolled["members"]).name,  # type: ignore[union-attr]
                relations={},
                seed=frng.address,
            )
        )
    for a_i, a in enumerate(out):
        for b in out[a_i + 1 :]:
            rel = tables.roll("region/faction-relations", rng.child(f"relations/{a.key}/{b.key}"))
            a.relations[b.key] = rel["key"]
            b.relations[a.key] = rel["key"]
    for fa in out:
        fa.relations = {k: fa.relations[k] for k in sorted(fa.relations)}
    return out


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
