"""Rules systems: every monster in FMC Basic, (Fortmayn), f4c and Fantasy Core terms, checked
against the numbers the four seed texts give; a fifth system from YAML alone; bad input."""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from generator.build.monsters import bestiary, monster_table_ids
from generator.build.site import generate_site
from generator.engine.rng import Rng
from generator.engine.tables import TableSet
from generator.model.monster import Monster
from generator.model.site import OBSTACLES, Trap
from generator.systems import (
    TERM_KEYS,
    StatBlock,
    classify,
    default_system,
    get_system,
    is_deadly,
    special_kinds,
    system_keys,
)

SYSTEMS = ("fmc", "fortmayn", "f4c", "fantasy-core")

# FMC Basic, Example Monsters: name, XP, DC, HP, SP, AT, DM exactly as the text's table has them.
FMC_EXAMPLES = [
    ("Basilisk", "800", 14, 16, '6"', "+4", "d10"),
    ("Bear", "400", 12, 16, '12"', "+4", "d10"),
    ("Dragon, Young", "500", 16, 8, '8/24"', "+2", "d8"),
    ("Dragon, Adult", "1,000", 16, 16, '8/24"', "+4", "d10"),
    ("Dragon, Elder", "2,000", 16, 32, '8/24"', "+8", "d12"),
    ("Ghoul", "300", 12, 8, '8"', "+2", "d8"),
    ("Giant", "1,200", 14, 32, '10"', "+8", "d12"),
    ("Griffon", "800", 16, 16, '12/24"', "+4", "d10"),
    ("Hoblin", "75", 14, 2, '8"', "+0", "d4"),
    ("Lycanthrope", "300", 14, 8, '12"', "+2", "d8"),
    ("Medusa", "600", 12, 16, '8"', "+4", "d10"),
    ("Ogre", "600", 14, 16, '8"', "+4", "d10"),
    ("Pegasus", "300", 14, 8, '24/48"', "+2", "d8"),
    ("Porc", "150", 14, 4, '8"', "+1", "d6"),
    ("Skeleton", "50", 12, 2, '6"', "+0", "d4"),
    ("Treant", "800", 12, 32, '6"', "+8", "d12"),
    ("Troll", "800", 14, 16, '6"', "+4", "d10"),
    ("Vampire", "2,000", 16, 32, '12/18"', "+8", "d12"),
    ("Wraith", "600", 12, 16, '12/24"', "+4", "d10"),
    ("Zombie", "100", 12, 4, '6"', "+1", "d6"),
]

# Words that belong to FMC Basic alone, and the systems allowed to use each.
FMC_ONLY = {
    r"\bDC\b": {"fmc", "fantasy-core"},  # Fantasy Core has DCs of its own
    r"\btempts? fate\b|\btempting fate\b": {"fmc"},
    r"\bdefense class\b": {"fmc"},
    r"\bXP\b": {"fmc"},
}


def monster(builtin_tables: TableSet, name: str) -> Monster:
    found = bestiary(builtin_tables).find(name)
    assert found is not None, name
    return found


def block_text(block: StatBlock) -> str:
    return "\n".join(
        [block.line, *(f"{label}: {value}" for label, value in block.fields), *block.notes]
    )


def field(block: StatBlock, label: str) -> str:
    return dict(block.fields)[label]


def write(folder: Path, rel: str, text: str) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def trap(effect: str, save: str = "dodge") -> Trap:
    return Trap("Test trap", "A trap.", "A plate.", effect, "Look.", "Step over.", save=save)


# --------------------------------------------------------------------------- the registry


def test_the_four_systems_are_offered_in_order(builtin_tables: TableSet) -> None:
    assert system_keys(builtin_tables) == list(SYSTEMS)
    assert default_system(builtin_tables) == "fmc"
    names = [get_system(builtin_tables, k).name for k in SYSTEMS]
    assert names == ["FMC Basic", "(Fortmayn)", "f4c", "Fantasy Core"]
    assert get_system(builtin_tables).key == "fmc"


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_monster_converts(builtin_tables: TableSet, key: str) -> None:
    system = get_system(builtin_tables, key)
    beasts = bestiary(builtin_tables)
    assert len(beasts.monsters) > 100
    for m in beasts.monsters:
        block = system.stat_block(m)
        assert block.name == m.name and block.bracket == m.bracket
        assert block.fields and all(label and value.strip() for label, value in block.fields)
        assert block.line == system.stat_line(m)
        text = block_text(block)
        assert "{" not in text and "}" not in text, (m.name, text)
        assert all(note.strip() for note in block.notes)
        json.dumps(block.to_dict())


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_term_is_defined_and_words_every_obstacle(builtin_tables: TableSet, key: str) -> None:
    system = get_system(builtin_tables, key)
    for k in TERM_KEYS:
        assert system.has_term(k), k
    for kind in special_kinds(builtin_tables):
        assert system.has_term(f"special.{kind}"), kind
    for obstacle in OBSTACLES:
        assert system.obstacle_text(obstacle).strip()
    assert system.term("reading").strip()
    assert system.term("weapon_bonus", bonus=2).strip()
    assert [k for k, _ in system.procedures()][:5] == [
        "roll",
        "surprise",
        "initiative",
        "morale",
        "reaction",
    ]


def test_every_builtin_special_is_sorted_into_a_kind(builtin_tables: TableSet) -> None:
    """So no system falls back to printing FMC's own sentence with its procedures in it."""
    for m in bestiary(builtin_tables).monsters:
        if m.special:
            kinds, by_text = classify(builtin_tables, m)
            assert kinds and by_text, m.name


@pytest.mark.parametrize("key", SYSTEMS)
def test_no_fmc_only_term_in_another_system(builtin_tables: TableSet, key: str) -> None:
    system = get_system(builtin_tables, key)
    texts = [e.result for e in builtin_tables.entries(f"systems/{key}/terms")]
    texts += [block_text(system.stat_block(m)) for m in bestiary(builtin_tables).monsters]
    site = generate_site(builtin_tables, Rng("systems/words"), level=2, rooms=12)
    texts += [e.text for e in system.random_events(site) or []]
    texts += [system.trap_text(r.trap) for r in site.rooms if r.trap]
    texts += [system.obstacle_text(c.obstacle) for c in site.connections]
    for pattern, allowed in FMC_ONLY.items():
        if key in allowed:
            continue
        hits = [t for t in texts if re.search(pattern, t, re.I)]
        assert hits == [], (pattern, hits[:3])


def test_an_unsorted_special_is_reworded(builtin_tables: TableSet) -> None:
    odd = Monster(
        "Mirror Imp", "mirror imps", 2, 100, 12, 4, '8"', 1, "d6", 1.0,
        special="Anyone who sees its reflection must tempt fate or swap places with it.",
    )  # fmt: skip
    assert classify(builtin_tables, odd) == ([], False)
    fmc = get_system(builtin_tables, "fmc").stat_block(odd)
    assert odd.special in fmc.notes
    for key in ("fortmayn", "f4c", "fantasy-core"):
        block = get_system(builtin_tables, key).stat_block(odd)
        assert any("swap places" in n for n in block.notes)
        assert not re.search("tempt", block_text(block), re.I), key
    fc = get_system(builtin_tables, "fantasy-core").stat_block(odd)
    assert any("saving throw (DC 12)" in n for n in fc.notes)


# --------------------------------------------------------------------------- FMC Basic


def test_fmc_stat_lines_are_the_models_own(builtin_tables: TableSet) -> None:
    """FMC Basic prints the model as it is, in the Example Monsters table's columns."""
    fmc = get_system(builtin_tables, "fmc")
    for m in bestiary(builtin_tables).monsters:
        assert fmc.stat_line(m) == (
            f"XP {m.xp:,}, DC {m.dc}, HP {m.hp}, SP {m.speed}, AT {m.attack:+d}, DM {m.damage}"
        )


@pytest.mark.parametrize("name,xp,dc,hp,sp,at,dm", FMC_EXAMPLES)
def test_fmc_reproduces_the_twenty_examples(
    builtin_tables: TableSet, name: str, xp: str, dc: int, hp: int, sp: str, at: str, dm: str
) -> None:
    block = get_system(builtin_tables, "fmc").stat_block(monster(builtin_tables, name))
    assert block.fields == (
        ("XP", xp),
        ("DC", str(dc)),
        ("HP", str(hp)),
        ("SP", sp),
        ("AT", at),
        ("DM", dm),
    )
    assert block.line == f"XP {xp}, DC {dc}, HP {hp}, SP {sp}, AT {at}, DM {dm}"


def test_fmc_specials_print_in_the_monsters_own_words(builtin_tables: TableSet) -> None:
    fmc = get_system(builtin_tables, "fmc")
    for name in ("Young dragon", "Ghoul", "Troll", "Medusa", "Basilisk", "Vampire"):
        m = monster(builtin_tables, name)
        assert fmc.stat_block(m).notes[0] == m.special
    assert "half" in fmc.stat_block(monster(builtin_tables, "Skeleton")).notes[-1]


def test_fmc_procedures_follow_the_text(builtin_tables: TableSet) -> None:
    fmc = get_system(builtin_tables, "fmc")
    assert "1-2" in fmc.term("reaction") and "3-4" in fmc.term("reaction")
    assert "5-6" in fmc.term("reaction")
    assert "leader or half its number" in fmc.term("morale")
    assert "tempts fate" in fmc.term("locked_door")
    assert "tempts fate" in fmc.trap_text(trap("1d6 damage."))
    assert "no roll" in fmc.term("hidden_door")
    assert fmc.random_events(generate_site(builtin_tables, Rng("fmc"))) is None


# --------------------------------------------------------------------------- (Fortmayn)


def test_fortmayn_ghoul_has_the_examples_two_difficulty_dice(builtin_tables: TableSet) -> None:
    fortmayn = get_system(builtin_tables, "fortmayn")
    ghoul = fortmayn.stat_block(monster(builtin_tables, "Ghoul"))
    assert field(ghoul, "Difficulty Dice") == "2"
    dice = {
        b: fortmayn.stat_block(m).fields[0][1]
        for b, m in ((1, "Skeleton"), (2, "Zombie"), (4, "Ogre"), (5, "Giant"))
        for m in [monster(builtin_tables, m)]
    }
    assert dice == {1: "1", 2: "1", 4: "4", 5: "8"}  # one per hit die, never fewer than one


def test_fortmayn_armour_and_shields_are_the_texts_usage_dice(builtin_tables: TableSet) -> None:
    fortmayn = get_system(builtin_tables, "fortmayn")
    # (Fortmayn), Sample characters: small shield d4, gambeson d4, leather armour d6.
    assert fortmayn.usage_die("shield") == "d4"
    assert fortmayn.usage_die("gambeson") == "d4"
    assert fortmayn.usage_die("leather") == "d6"
    # Carried on up the chain d12 > d8 > d6 > d4.
    assert fortmayn.usage_die("chainmail") == "d8"
    assert fortmayn.usage_die("plate") == "d12"
    assert fortmayn.usage_die("torches") == "d4"
    assert fortmayn.usage_die("oil flask") == "d6"
    assert fortmayn.usage_die("a hat") is None
    hoblin = fortmayn.stat_block(monster(builtin_tables, "Hoblin"))
    assert field(hoblin, "Armour") == "chain mail (usage d8)"
    cutthroat = fortmayn.stat_block(monster(builtin_tables, "Cutthroat"))
    assert field(cutthroat, "Shield") == "usage d4"
    assert "Armour" not in dict(fortmayn.stat_block(monster(builtin_tables, "Ghoul")).fields)
    assert get_system(builtin_tables, "f4c").usage_die("torches") is None


CHAIN = ("d12", "d8", "d6", "d4")  # (Fortmayn), Usage die


def usage_life(die: str) -> Fraction:
    """Expected rolls before a usage die is spent: each die drops a size on 1-2."""
    chain = CHAIN[CHAIN.index(die) :]
    return sum((Fraction(int(d[1:]), 2) for d in chain), Fraction(0))


def test_fortmayn_light_lasts_as_long_as_fmcs(builtin_tables: TableSet) -> None:
    """FMC Basic, Site Exploration: a pack of torches burns an hour, a lantern four hours on a
    flask of oil. Rolled once an Hour, each gets the usage die whose chain lasts nearest that."""
    assert [usage_life(d) for d in ("d4", "d6", "d8", "d12")] == [2, 5, 9, 15]
    fortmayn = get_system(builtin_tables, "fortmayn")
    for item, hours in (("torches", 1), ("oil flask", 4)):
        nearest = min(CHAIN, key=lambda d: (abs(usage_life(d) - hours), usage_life(d)))
        assert fortmayn.usage_die(item) == nearest, item
    light = " ".join(fortmayn.term("light").split())
    assert "torches has a usage die of d4" in light and "lantern oil one of d6" in light


def test_docs_give_the_usage_dice_of_the_table(builtin_tables: TableSet) -> None:
    """docs/systems.md names each consumable's usage die as tables/systems/fortmayn/usage has it."""
    docs = (Path(__file__).parents[1] / "docs" / "systems.md").read_text(encoding="utf-8")
    bullet = " ".join(docs[docs.index("- **Usage dice**") :].split("\n- ")[0].split())
    fortmayn = get_system(builtin_tables, "fortmayn")
    named = 0
    for e in builtin_tables.entries("systems/fortmayn/usage"):
        item = e["item"]
        # "torches d4", or an item listed in a group: "a draught or a handful d4 (wine, ...)".
        direct = re.search(rf"\b{re.escape(item)} (d\d+)", bullet)
        grouped = re.search(rf"(d\d+) \([^)]*\b{re.escape(item)}\b[^)]*\)", bullet)
        found = direct or grouped
        assert found, f"docs/systems.md gives no usage die for {item}"
        assert found.group(1) == fortmayn.usage_die(item), item
        named += 1
    assert named >= 10


def test_fortmayn_tests_are_body_and_head_rolls(builtin_tables: TableSet) -> None:
    fortmayn = get_system(builtin_tables, "fortmayn")
    assert "Brainy" in fortmayn.term("locked_door") and "HEAD" in fortmayn.term("locked_door")
    assert "2 Difficulty Dice" in fortmayn.term("locked_door")  # the text's bars
    dodge = fortmayn.trap_text(trap("1d6 damage."))
    assert "BODY Dice" in dodge and "2 Difficulty Dice" in dodge and "advantage" in dodge
    assert "3 Difficulty Dice" in fortmayn.trap_text(trap("3d6 damage."))
    assert "HEAD Dice" in fortmayn.trap_text(trap("Madness.", save="resolve"))
    assert "disadvantage in the first exchange" in fortmayn.term("surprise")
    assert "once an Hour" in fortmayn.term("light")
    medusa = fortmayn.stat_block(monster(builtin_tables, "Medusa"))
    assert any(n.startswith("Petrifying") and "BODY Dice" in n for n in medusa.notes)


def test_fortmayn_writes_five_random_events_for_each_site(builtin_tables: TableSet) -> None:
    fortmayn = get_system(builtin_tables, "fortmayn")
    site = generate_site(builtin_tables, Rng("events"), level=1)
    events = fortmayn.random_events(site)
    assert events is not None
    assert [e.die for e in events] == [1, 2, 3, 4, 5]
    assert all(e.title and e.text and "{" not in e.text for e in events)
    plurals = {site.bestiary[e.name].plural for e in site.encounters}
    assert all(p in events[0].text for p in plurals)
    lair = next(r for r in site.rooms if r.contents == "monsters_with_treasure")
    assert f"room {lair.id}" in events[3].text
    assert "usage die" in events[1].text
    assert "five d6" in fortmayn.term("random_events")
    assert get_system(builtin_tables, "f4c").random_events(site) is None


# --------------------------------------------------------------------------- f4c


def test_f4c_ghoul_resists_pierce_as_the_text_says(builtin_tables: TableSet) -> None:
    f4c = get_system(builtin_tables, "f4c")
    ghoul = f4c.stat_block(monster(builtin_tables, "Ghoul"))
    assert field(ghoul, "Defence") == "8"
    pierce = next(n for n in ghoul.notes if n.startswith("Resists pierce"))
    assert "4-2-2-2-2" in pierce and "50%" in pierce


def test_f4c_armoured_goblin_is_the_hoblin(builtin_tables: TableSet) -> None:
    """The text's goblin: defence 11, armour 0-3-4-2-0; FMC's goblin in mail is the hoblin."""
    hoblin = get_system(builtin_tables, "f4c").stat_block(monster(builtin_tables, "Hoblin"))
    assert field(hoblin, "Defence") == "11"
    assert field(hoblin, "Armour").startswith("0-3-4-2-0")


def test_f4c_numbers(builtin_tables: TableSet) -> None:
    f4c = get_system(builtin_tables, "f4c")
    porc = f4c.stat_block(monster(builtin_tables, "Porc"))  # FMC d6: the text's spear
    assert field(porc, "Damage") == "2-6-5-5-4 slash"
    assert field(porc, "Attack") == "+1"
    assert field(porc, "HP") == "14"
    assert field(porc, "Speed") == "6 m"
    skeleton = f4c.stat_block(monster(builtin_tables, "Skeleton"))
    assert field(skeleton, "Fatigue") == "none (never tires)"
    assert field(porc, "Fatigue") == "4"
    # A resisted type is blocked by the better of the two profiles, coin by coin.
    knight = f4c.stat_block(monster(builtin_tables, "Empty Knight"))
    assert field(knight, "Armour") == "1-4-5-3-2 (plate)"  # the shield is in its defence
    assert field(knight, "Defence") == "15 (with shield)"
    assert any("4-4-5-3-2" in n for n in knight.notes if n.startswith("Resists pierce"))
    roll = f4c.term("roll")
    assert "5" in roll and "RBY" in roll and "oooo" in roll and "Four heads" in roll
    assert "above 10" in f4c.trap_text(trap("2d6 damage."))
    assert "above 7" in f4c.trap_text(trap("1d6 damage."))
    assert "R coin" in f4c.term("fatigue")


# --------------------------------------------------------------------------- Fantasy Core


def test_fantasy_core_traps_and_doors_use_dc_12_and_18(builtin_tables: TableSet) -> None:
    fc = get_system(builtin_tables, "fantasy-core")
    assert fc.trap_text(trap("1d6 damage.")).startswith("Reflex save, DC 12")
    assert fc.trap_text(trap("The floor drops for 3d6 damage.")).startswith("Reflex save, DC 18")
    assert fc.trap_text(trap("Turns the victim to stone.")).startswith("Reflex save, DC 18")
    assert fc.trap_text(trap("A choking gas, 1d4.", "endure")).startswith("Fort save, DC 12")
    assert fc.trap_text(trap("Whispers.", "resolve")).startswith("Will save, DC 12")
    door = fc.term("locked_door")
    assert "Strength check" in door and "DC 12" in door and "DC 18" in door


def test_deadly_traps(builtin_tables: TableSet) -> None:
    assert not is_deadly(builtin_tables, trap("Darts for 1d6 damage, and 1d4 more from poison."))
    assert is_deadly(builtin_tables, trap("1d6 from the fall and 1d6 from the spikes."))
    assert is_deadly(builtin_tables, trap("The water rises; those trapped drown."))


def test_fantasy_core_stat_blocks(builtin_tables: TableSet) -> None:
    fc = get_system(builtin_tables, "fantasy-core")
    ghoul = fc.stat_block(monster(builtin_tables, "Ghoul"))
    assert field(ghoul, "AC") == "12"
    assert field(ghoul, "Hit dice") == "2 (9 hp)"
    assert field(ghoul, "Attack") == "+2"
    assert field(ghoul, "Saves") == "Fort +3, Ref +0, Will +0 (as a fighter)"
    drain = next(n for n in ghoul.notes if n.startswith("Energy drain"))
    assert "Will save" in drain and "negative hit points" in drain
    centipede = fc.stat_block(monster(builtin_tables, "Giant Centipede"))
    assert field(centipede, "Damage") == "d6 poison"
    venom = next(n for n in centipede.notes if n.startswith("Venom"))
    assert "not a lethal poison" in venom and "0 hp" not in venom  # Poison: lethal ones only
    dragon = fc.stat_block(monster(builtin_tables, "Young dragon"))  # magical: saves as a wizard
    assert field(dragon, "Saves").endswith("(as a wizard)")
    assert field(dragon, "Speed") == "20 ft, fly 60 ft"
    breath = next(n for n in dragon.notes if n.startswith("Breath"))
    assert "Reflex save" in breath and "for half" in breath and "DC 18" in breath
    wolf = fc.stat_block(monster(builtin_tables, "Wolf"))  # quick: Dex +3, saves as a thief
    assert "Dex +3" in field(wolf, "Initiative") and field(wolf, "Saves").endswith("a thief)")
    boss = fc.stat_block(monster(builtin_tables, "Giant"))
    assert field(boss, "Hit dice") == "8 (36 hp)" and any("10 negative" in n for n in boss.notes)
    hoblin = fc.stat_block(monster(builtin_tables, "Hoblin"))
    assert field(hoblin, "Hit dice") == "1/2 (2 hp)" and field(hoblin, "AC") == "14"
    init = fc.term("initiative")
    assert "+3" in init and "d20" in init


def test_a_monster_off_its_brackets_numbers_keeps_the_difference(builtin_tables: TableSet) -> None:
    tough = Monster("Brute", "brutes", 3, 300, 12, 16, '8"', 3, "d8", 2.0)
    assert get_system(builtin_tables, "f4c").stat_block(tough).fields[1] == ("HP", "56")
    assert field(get_system(builtin_tables, "f4c").stat_block(tough), "Attack") == "+3"
    assert field(get_system(builtin_tables, "fantasy-core").stat_block(tough), "Hit dice") == (
        "2 (18 hp)"
    )
    assert field(get_system(builtin_tables, "fortmayn").stat_block(tough), "Difficulty Dice") == (
        "4"
    )


# --------------------------------------------------------------------------- shields


def table_dc(tables: TableSet, name: str) -> int:
    """The `dc` a monster table gives (its armour or hide, before a shield)."""
    for table_id in monster_table_ids(tables):
        for e in tables.entries(table_id):
            if e.get("name") == name:
                return e.get("dc", 12)
    raise AssertionError(name)


def test_a_shield_gives_one_point_of_defense(builtin_tables: TableSet) -> None:
    """FMC Basic, Armor & Speed: chainmail 14, a shield +1, so a cutthroat has DC 15."""
    cutthroat = monster(builtin_tables, "Cutthroat")
    assert (cutthroat.armor, cutthroat.shield, cutthroat.dc) == ("chainmail", True, 15)
    # Monster Types: +50% XP at 14 and +100% at 16 is +25% a point; the shield's point too.
    assert cutthroat.xp == 175
    assert monster(builtin_tables, "Porc Warlord").dc == 17  # plate and shield
    beasts = bestiary(builtin_tables).monsters
    assert sum(m.shield for m in beasts) >= 10
    for m in beasts:
        assert m.dc == table_dc(builtin_tables, m.name) + (1 if m.shield else 0), m.name


def test_a_monster_table_gives_the_defense_before_the_shield(run_cli, tmp_path: Path) -> None:
    write(
        tmp_path,
        "monsters/mine.yaml",
        "title: Mine\nfields: {name: str, plural: str, bracket: int, dc: int, speed: str,"
        " damage_type: str, shield: bool?}\nentries:\n"
        "  - {name: Shield Maid, plural: shield maids, bracket: 2, dc: 15, speed: '8\"',"
        " damage_type: slash, shield: true}\n",
    )
    result = run_cli("--tables", tmp_path, "monsters")
    assert result.code == 1
    assert re.search(r"mine\.yaml:\d+: .*Shield Maid: dc must be 12, 14 or 16 .*shield", result.err)


def without_shield(m: Monster) -> Monster:
    return dataclasses.replace(m, shield=False, dc=m.dc - 1)


# What a shield changes in each system's stat block, and nothing else: it counts once.
SHIELD_CHANGES = {
    "fmc": {"DC"},
    "fortmayn": {"Shield"},
    "f4c": {"Defence"},
    "fantasy-core": {"AC", "Armour"},
}


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_shield_counts_once_in_every_system(builtin_tables: TableSet, key: str) -> None:
    system = get_system(builtin_tables, key)
    shielded = [m for m in bestiary(builtin_tables).monsters if m.shield]
    for m in shielded:
        block, bare = system.stat_block(m), system.stat_block(without_shield(m))
        have, had = dict(block.fields), dict(bare.fields)
        changed = {k for k in have.keys() | had.keys() if have.get(k) != had.get(k)}
        assert changed == SHIELD_CHANGES[key], (m.name, have, had)
        text = block_text(block).lower()
        assert "shield" in text and "shield" not in block_text(bare).lower(), m.name
        if key == "fmc":
            assert int(have["DC"]) == int(had["DC"]) + 1
            assert any("+1 is in its DC" in n for n in block.notes)
        elif key == "f4c":  # one point of defence, nothing in the armour profile
            assert have["Defence"] == f"{int(had['Defence']) + 1} (with shield)"
        elif key == "fantasy-core":
            assert int(have["AC"]) == int(had["AC"]) + 1
            assert "shield" in have["Armour"] and "in its AC" in have["Armour"]
        else:  # (Fortmayn): the small shield's usage die; Difficulty Dice unchanged
            assert have["Shield"] == "usage d4"
    cutthroat = system.stat_block(monster(builtin_tables, "Cutthroat"))
    expected = {"fmc": ("DC", "15"), "f4c": ("Defence", "12 (with shield)"), "fantasy-core": (
        "AC", "15")}  # fmt: skip
    if key in expected:
        label, value = expected[key]
        assert field(cutthroat, label) == value


# --------------------------------------------------------------------------- delve monsters


@pytest.mark.parametrize("key", SYSTEMS)
def test_delve_monsters_lists_the_whole_bestiary(
    run_cli, builtin_tables: TableSet, key: str
) -> None:
    result = run_cli("monsters", "--system", key)
    assert result.code == 0, result.err
    for m in bestiary(builtin_tables).monsters:
        assert f"{m.name} ({m.bracket_name}):" in result.out
    for n, name in enumerate(("mooks", "grunts", "elites", "lieutenants", "bosses"), 1):
        assert f"Bracket {n}: {name}" in result.out
    data = json.loads(run_cli("monsters", "--system", key, "--format", "json").out)
    assert data["system"] == key
    assert [b["bracket"] for b in data["brackets"]] == [1, 2, 3, 4, 5]
    assert len(data["monsters"]) == len(bestiary(builtin_tables).monsters)


def test_delve_monsters_defaults_to_fmc(run_cli) -> None:
    result = run_cli("monsters")
    assert result.code == 0
    assert 'Ghoul (elite): XP 300, DC 12, HP 8, SP 8", AT +2, DM d8.' in result.out


def test_unknown_system_is_one_line(run_cli) -> None:
    result = run_cli("monsters", "--system", "gurps")
    assert result.code == 1
    assert result.err.splitlines() == [
        "delve: error: unknown system 'gurps'; systems: fmc, fortmayn, f4c, fantasy-core"
    ]
    assert run_cli("monsters", "--format", "yaml").code == 1


def test_user_monsters_are_converted(run_cli, tmp_path: Path) -> None:
    write(
        tmp_path,
        "monsters/mine.yaml",
        "title: Mine\nfields: {name: str, plural: str, bracket: int, dc: int, speed: str,"
        " damage_type: str, resist: list?}\nentries:\n"
        "  - {name: Bone Owl, plural: bone owls, bracket: 3, dc: 16, speed: '3/24\"',"
        " damage_type: pierce, resist: [pierce], tags: [undead, flying]}\n",
    )
    for key in SYSTEMS:
        result = run_cli("--tables", tmp_path, "monsters", "--system", key)
        assert result.code == 0, result.err
        assert "Bone Owl (elite):" in result.out
    out = run_cli("--tables", tmp_path, "monsters", "--system", "f4c").out
    assert "Bone Owl (elite): Def 14, HP 28" in out


BROKEN = {
    "a number written as text": (
        "systems/f4c/brackets.yaml",
        lambda t: t.replace("hp: 28", "hp: many"),
        r"brackets\.yaml:\d+: table 'systems/f4c/brackets': field 'hp' must be int",
    ),
    "a number left out": (
        "systems/f4c/brackets.yaml",
        lambda t: t.replace("    hp: 28\n", ""),
        r"brackets\.yaml:\d+: table 'systems/f4c/brackets': entry is missing required field 'hp'",
    ),
    "a bracket left out": (
        "systems/fantasy-core/brackets.yaml",
        lambda t: t[: t.index("  - bracket: 3")] + t[t.index("  - bracket: 4") :],
        r"brackets\.yaml:\d+: table 'systems/fantasy-core/brackets': no entry for bracket 3",
    ),
    "a field the stat block needs, gone": (
        "systems/fantasy-core/defense.yaml",
        lambda t: re.sub(r"\n +ac: \w+", "", t),
        r"stat-block\.yaml:\d+: table 'systems/fantasy-core/stat-block': \{\$ac\} is not a value",
    ),
    "a shield's defense class left out": (
        "systems/fantasy-core/defense.yaml",
        lambda t: t.replace("  - dc: 15\n    ac: 15\n", ""),
        r"defense\.yaml:\d+: table 'systems/fantasy-core/defense': no entry for defense class 15 "
        r"\(14 and a shield\)",
    ),
    "a bad ARGBY profile": (
        "systems/f4c/dice.yaml",
        lambda t: t.replace("argby: 2-6-5-5-4", "argby: 2-6-5"),
        r"dice\.yaml:\d+: table 'systems/f4c/dice': argby '2-6-5' must be an ARGBY profile",
    ),
    "a missing term": (
        "systems/fortmayn/terms.yaml",
        lambda t: t.replace("  - key: morale\n", "  - key: morals\n"),
        r"terms\.yaml:\d+: table 'systems/fortmayn/terms': system 'fortmayn' needs the term morale",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_system_table_is_one_file_line_error(run_cli, tmp_path: Path, case: str) -> None:
    rel, change, expected = BROKEN[case]
    original = (Path(__file__).parents[1] / "tables" / rel).read_text(encoding="utf-8")
    changed = change(original)
    assert changed != original
    write(tmp_path, rel, changed)
    key = rel.split("/")[1]
    result = run_cli("--tables", tmp_path, "monsters", "--system", key)
    assert result.code == 1
    lines = result.err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("delve: error: ")
    assert re.search(expected, lines[0]), lines[0]


# --------------------------------------------------------------------------- a fifth system

MINI_STAT_BLOCK = """\
title: Mini stat block
fields: {label: str, value: str, short: str?, when: str?, note: bool?}
entries:
  - {label: Threat, value: "{$threat}"}
  - {label: Guard, value: "{$guard}"}
  - {label: Moves, value: "{$speed}"}
  - {label: Gear, value: "wears {$armor}", when: armor}
"""
MINI_BRACKETS = """\
title: Mini threat by bracket
fields: {bracket: int, threat: int}
entries:
  - {bracket: 1, threat: 1}
  - {bracket: 2, threat: 2}
  - {bracket: 3, threat: 3}
  - {bracket: 4, threat: 5}
  - {bracket: 5, threat: 8}
"""
MINI_DEFENSE = """\
title: Mini guard by defense class
fields: {dc: int, guard: str}
entries:
  - {dc: 12, guard: low}
  - {dc: 13, guard: low and a shield}
  - {dc: 14, guard: middling}
  - {dc: 15, guard: middling and a shield}
  - {dc: 16, guard: high}
  - {dc: 17, guard: high and a shield}
"""
MINI_UNITS = """\
title: Mini distances
fields: {per_inch: float, round: float}
entries:
  - {per_inch: 1, round: 1, result: "{$value} steps"}
"""


def mini_terms(builtin_tables: TableSet) -> str:
    keys = ["name", *TERM_KEYS, *(f"special.{k}" for k in special_kinds(builtin_tables))]
    words = {
        "name": "Mini",
        "reading": "Threat is how many hits it takes.",
        "special": "{$special}",
        "speed.walk": "{$walk}",
        "speed.fly": "{$walk}, flying {$fly}",
    }
    lines = ["title: Mini terms", "fields: {key: str}", "entries:"]
    for key in keys:
        text = words.get(key, f"Mini words for {key}.")
        lines.append(f"  - key: {key}\n    result: {json.dumps(text)}")
    return "\n".join(lines) + "\n"


def test_a_fifth_system_needs_only_yaml(run_cli, builtin_tables: TableSet, tmp_path: Path) -> None:
    write(tmp_path, "systems/mini/terms.yaml", mini_terms(builtin_tables))
    write(tmp_path, "systems/mini/stat-block.yaml", MINI_STAT_BLOCK)
    write(tmp_path, "systems/mini/brackets.yaml", MINI_BRACKETS)
    write(tmp_path, "systems/mini/defense.yaml", MINI_DEFENSE)
    write(tmp_path, "systems/mini/units.yaml", MINI_UNITS)
    result = run_cli("--tables", tmp_path, "monsters", "--system", "mini")
    assert result.code == 0, result.err
    assert "BESTIARY IN MINI TERMS" in result.out
    assert "Ghoul (elite): Threat 3, Guard low, Moves 8 steps." in result.out
    assert "Hoblin (mook): Threat 1, Guard middling, Moves 8 steps, Gear wears chainmail." in (
        result.out
    )
    data = json.loads(
        run_cli("--tables", tmp_path, "monsters", "--system", "mini", "-f", "json").out
    )
    assert data["name"] == "Mini"
    unknown = run_cli("--tables", tmp_path, "monsters", "--system", "gurps")
    assert unknown.err.strip().endswith("systems: fmc, fortmayn, f4c, fantasy-core, mini")
    ts = TableSet.load([tmp_path], use_env=False)
    assert system_keys(ts)[-1] == "mini"
    assert get_system(ts, "mini").trap_text(trap("1d6")) == "Mini words for trap.dodge."


def test_a_fifth_system_prints_whole_sites_and_booklets(
    run_cli, builtin_tables: TableSet, tmp_path: Path
) -> None:
    """The same YAML folder, plus an optional template fragment, runs through every renderer."""
    write(tmp_path, "systems/mini/terms.yaml", mini_terms(builtin_tables))
    write(tmp_path, "systems/mini/stat-block.yaml", MINI_STAT_BLOCK)
    write(tmp_path, "systems/mini/brackets.yaml", MINI_BRACKETS)
    write(tmp_path, "systems/mini/defense.yaml", MINI_DEFENSE)
    write(tmp_path, "systems/mini/units.yaml", MINI_UNITS)
    text = run_cli("--tables", tmp_path, "site", "--seed", "five", "--system", "mini")
    assert text.code == 0, text.err
    assert "Monsters (Mini)" in text.out and "Threat" in text.out
    fragment = tmp_path / "tpl" / "parts" / "statblock-mini.html.j2"
    fragment.parent.mkdir(parents=True)
    fragment.write_text('<p class="mini-block">{{ m.name }}: {{ stat_line(m) }}</p>\n')
    out = tmp_path / "five.html"
    html = run_cli(
        "--tables",
        tmp_path,
        "site",
        "--seed",
        "five",
        "--system",
        "mini",
        "-f",
        "html",
        "--templates",
        tmp_path / "tpl",
        "-o",
        out,
    )
    assert html.code == 0, html.err
    page = out.read_text()
    assert 'class="mini-block"' in page and "Threat" in page
