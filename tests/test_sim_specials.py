"""Monsters' specials in a fight: how the fight reads every bestiary special, and the ones it
simulates doing what their text says (docs/danger.md, The foes)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from generator.build.monsters import bestiary
from generator.sim import engine
from generator.sim.foes import FoeGroup, foe_kind
from generator.sim.party import default_party
from generator.sim.rules import tactics
from generator.sim.stats import wilson


def monster(tables, name):
    m = bestiary(tables).find(name)
    assert m is not None, name
    return m


# Every bestiary monster with a special, as the fight reads it: "poison" is listed as not
# simulated (FMC Basic gives it no numbers). Checked by reading each monster's text; a new
# monster with a special must be read and added here.
FIGHT_VIEW = {
    "Giant Centipede": "poison",
    "Tunnel Spider": "poison",
    "Salt Wight": "drain",
    "Weeping Shade": "drain",
    "Spore Elder": "cloud, poison",
    "Cult Adept": "blast",
    "Eelfolk Oracle": "blast",
    "Cult Hierophant": "drain",
    "Rat King": "sweep",
    "Web Mother": "hold, poison",
    "Gallows Hag": "curse",
    "Brass Warden": "breath",
    "Glass Ooze": "engulf",
    "Bloom Mother": "regen 1",
    "Peat King": "drain",
    "Deathless Magus": "blast",
    "Ember Fiend": "breath",
    "Tide Horror": "sweep",
    "Thorn Queen": "blast",
    "Giant Wasp": "poison",
    "Wreck Siren": "hold",
    "Kobold Trapwright": "blast",
    "Serpent-folk Priest": "breath, poison",
    "Wrapped Dead": "drain",
    "Scalding Mist": "blast",
    "Wasp Warrior": "poison",
    "Drowned Captain": "drain",
    "Plague Bearer": "cloud, poison",
    "Ghost Archivist": "blast",
    "Hollow King": "drain",
    "Ice Witch": "blast",
    "Hanging Judge": "curse",
    "Serpent Hierarch": "cloud, poison",
    "Fallen Abbot": "drain",
    "Mad Wizard": "blast",
    "Plague Saint": "drain",
    "Wasp Queen": "blast, poison",
    "Crone of the Hill": "curse",
    "Sorcerer-King": "breath",
    "Grinding Engine": "sweep",
    "Flood Ooze": "engulf",
    "Basilisk": "petrify",
    "Young dragon": "breath",
    "Adult dragon": "breath",
    "Elder dragon": "breath",
    "Ghoul": "drain",
    "Medusa": "petrify",
    "Troll": "regen 1",
    "Vampire": "drain",
    "Wraith": "drain",
    "Giant Spider": "poison",
    "Giant Scorpion": "poison",
    "Wyvern": "poison",
    "Grave Hound": "drain",
    "Bog Hag": "cloud, poison",
    "River Troll": "regen 1",
    "Will-o'-Wisp": "drain",
    "Hedge Witch": "blast",
}


def _fight_view(kind):
    parts = ["drain"] if kind.drain else []
    parts += [kind.area] if kind.area else []
    parts += [f"regen {kind.regen}"] if kind.regen else []
    parts += [f for f in ("sweep", "engulf", "petrify", "curse") if getattr(kind, f)]
    parts += ["poison" if "poison" in n else f"?{n}" for n in kind.notes]
    return ", ".join(parts)


def test_every_monsters_specials_are_read_as_a_reader_would(builtin_tables):
    from generator.systems.specials import classify

    beasts = bestiary(builtin_tables)
    seen = {}
    for name in beasts.names():
        m = beasts.find(name)
        view = _fight_view(foe_kind(builtin_tables, m))
        if view or m.special:
            seen[name] = view
    assert seen == FIGHT_VIEW
    # The wrapped dead "draw the breath out of the living" by touch: no breath weapon, in the
    # fight or in any system's stat block.
    assert classify(builtin_tables, beasts.find("Wrapped Dead"))[0] == ["energy_drain"]


def test_a_net_or_a_song_holds(builtin_tables):
    # The Web Mother's net: a burst whose victims tempt fate or lose their next turn. The hold
    # costs the party more than the burst alone would.
    kind = foe_kind(builtin_tables, monster(builtin_tables, "Web Mother"))
    party = default_party(builtin_tables, 2)
    wins = {}
    for area in ("hold", "blast"):
        out = engine.fight(
            party, [FoeGroup(replace(kind, area=area), "1")], tactics(builtin_tables), 20_000, 5
        )
        wins[area] = wilson(int(np.count_nonzero(out.outcome == engine.WIN)), 20_000)
    assert kind.area == "hold"
    assert wins["hold"][1] < wins["blast"][0], wins
