"""(Fortmayn)'s own fights: BODY dice against Difficulty Dice, armour as usage dice.

(Fortmayn)'s combat text is complete enough to fight by (docs/danger.md, "Other rules
systems"): in melee a character rolls all its unwounded BODY dice against each opponent; each
die over 4 removes one of the opponent's Difficulty Dice (DD); for each DD the opponent still
has, one die under 3 is wounded unless armour saves it; armour saves by rolling its usage die,
which steps down on a roll under 3; damaged armour gives disadvantage. A ranged attack rolls
HEAD dice, risk-free. An opponent out of DD, or a character out of unwounded BODY dice, is out
of action. There is no initiative: exchanges are simultaneous.

What it takes from Delve's own conversion, each our reading: the character behind an FMC
character (a fighter is a Brawny with 3 BODY and 1 HEAD, like the text's Linda; an expert a
Brainy with 2 and 2, like Vincent; a mage a Brainy with 1 and 3, like Jasper; a die more per
level above 1), the monsters' DD from `systems/fortmayn/brackets`, evasive foes fought at
disadvantage (`systems/fortmayn/defense`), and FMC Basic's morale (the booklet prints it in
(Fortmayn)'s words).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.engine import needs
from generator.engine.tables import TableSet
from generator.model.danger import Danger
from generator.sim.engine import FLEE, WIN, WIPED, Outcome
from generator.sim.foes import FoeGroup, FoeKind
from generator.sim.party import Character
from generator.sim.rules import Tactics, tactics

SIZES = np.array([4, 6, 8, 12])  # the usage and advantage chain, d4 << d6 << d8 << d12
D4, D6, D8, D12 = range(4)
NONE = -1
ARMOUR = {"none": NONE, "leather": D6, "chainmail": D8, "plate": D12}  # systems/fortmayn/armour
SHIELD = D4  # a small shield
START = {"fighter": (3, 1), "expert": (2, 2), "mage": (1, 3)}  # (BODY, HEAD) dice at level 1
BRAWNY = {"fighter"}


@dataclass(frozen=True)
class Figure:
    body: int
    head: int
    size: int  # BODY die size index
    head_size: int
    armour: int
    shield: int
    advantage: int  # +1 when the text's advantage applies to its melee roll


def figure(c: Character) -> Figure:
    body, head = START[c.cls]
    extra = max(0, c.level - 1)
    if c.cls == "fighter":
        body += extra
    elif c.cls == "mage":
        head += extra
    else:
        body += (extra + 1) // 2
        head += extra // 2
    brawny = c.cls in BRAWNY
    # (Fortmayn), Combat: a Brawny's larger weapon, a Brainy's smaller one, well narrated,
    # give advantage; our reading: the great maul and the expert's short sword do.
    advantage = int((brawny and c.weapon == "two-handed") or c.cls == "expert")
    return Figure(
        body=body,
        head=head,
        size=D8 if brawny else D6,
        head_size=D6 if brawny else D8,
        armour=ARMOUR.get(_armour_name(c), D6),
        shield=SHIELD if c.shield else NONE,
        advantage=advantage,
    )


def _armour_name(c: Character) -> str:
    base = c.defense - (1 if c.shield else 0)
    return {10: "none", 12: "leather", 14: "chainmail", 16: "plate"}.get(base, "leather")


# Every row needs its dice (engine/needs.py: `delve tables check` checks a referee's copy).
BRACKETS = needs.declare(
    "systems/fortmayn/brackets",
    "the (Fortmayn) simulation",
    fields={"bracket": "int", "dd": "int"},
    values={"bracket": (1, 2, 3, 4, 5)},
)


def difficulty(tables: TableSet, kind: FoeKind) -> int:
    """DD by bracket (systems/fortmayn/brackets), scaled by hit points as the table says."""
    from generator.build.monsters import brackets

    rows = {e["bracket"]: e["dd"] for e in needs.require(tables, BRACKETS).entries}
    dd = rows.get(kind.bracket, 1)
    base_hp = brackets(tables)[kind.bracket].hp
    return max(1, round(dd * kind.hp / base_hp))


class Fight:
    """One (Fortmayn) fight for n trials at once."""

    def __init__(
        self,
        tables: TableSet,
        party: list[Character],
        groups: list[FoeGroup],
        tac: Tactics,
        trials: int,
        seed: int,
    ) -> None:
        self.gen = np.random.Generator(np.random.PCG64(seed))
        self.tactics = tac
        n = self.n = trials
        figs = [figure(c) for c in party]
        self.P = len(figs)
        kinds: list[FoeKind] = []
        dds: list[int] = []
        for g in groups:
            dd = difficulty(tables, g.kind)
            # systems/fortmayn/brackets: two mooks count as one foe with 1 DD.
            most = (g.most + 1) // 2 if g.kind.bracket == 1 else g.most
            kinds += [g.kind] * most
            dds += [dd] * most
        self.kinds = kinds
        self.M = len(kinds)
        i32 = np.int32
        self.body = np.tile(np.array([f.body for f in figs], dtype=i32), (n, 1))
        self.body0 = self.body.copy()
        self.size = np.array([f.size for f in figs], dtype=i32)
        self.head = np.array([f.head for f in figs], dtype=i32)
        self.head_size = np.array([f.head_size for f in figs], dtype=i32)
        self.adv = np.array([f.advantage for f in figs], dtype=i32)
        self.armour0 = np.array([f.armour for f in figs], dtype=i32)
        self.armour = np.tile(self.armour0, (n, 1))
        self.shield = np.tile(np.array([f.shield for f in figs], dtype=i32), (n, 1))
        self.caster = np.array([c.cls == "mage" for c in party])
        self.back = np.array([not c.front for c in party])
        self.dd0 = np.array(dds, dtype=i32)
        self.dd = np.tile(self.dd0, (n, 1))
        self.present = self._present(groups)
        self.dd = np.where(self.present, self.dd, 0)
        self.up_f = self.dd > 0
        self.evasive = np.array([k.dc >= 16 and not k.shield for k in kinds])
        self.thinking = np.array([not k.mindless for k in kinds])
        self.big = np.array([k.big for k in kinds])
        self.half_checked = np.zeros(n, dtype=bool)
        self.big_checked = np.zeros((n, self.M), dtype=bool)
        self.act = np.ones(n, dtype=bool)
        self.outcome = np.zeros(n, dtype=np.int8)
        self.rounds = np.zeros(n, dtype=np.int16)
        self.dropped = np.zeros(n, dtype=bool)

    def _present(self, groups: list[FoeGroup]) -> np.ndarray:
        cols = []
        for g in groups:
            most = (g.most + 1) // 2 if g.kind.bracket == 1 else g.most
            dist = g.distribution()
            values = np.array([v for v, _ in dist])
            if g.kind.bracket == 1:
                values = (values + 1) // 2
            cum = np.cumsum([p for _, p in dist])
            pick = np.minimum(np.searchsorted(cum, self.gen.random(self.n)), len(values) - 1)
            cols.append(np.arange(most)[None, :] < values[pick][:, None])
        return np.concatenate(cols, axis=1)

    def _coin(self) -> np.ndarray:
        return self.gen.random(self.n) < 0.5

    def _roll(self, count: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(dice over 4, dice under 3) of `count` dice of `size` (index), per row. On a d4 a 4
        counts as over 4 ((Fortmayn), Advantage & disadvantage)."""
        most = int(count.max()) if count.size else 0
        if most == 0:
            zero = np.zeros(self.n, dtype=np.int32)
            return zero, zero
        sides = SIZES[size]
        faces = (self.gen.random((most, self.n)) * sides).astype(np.int32) + 1
        used = np.arange(most)[:, None] < count[None, :]
        good = ((faces > 4) | ((sides == 4) & (faces == 4))) & used
        bad = (faces < 3) & used
        return good.sum(0), bad.sum(0)

    def _exchange(self, i: int, j: np.ndarray, on: np.ndarray, shift: np.ndarray) -> None:
        """Character i against foe j (per row) in melee: both sides' losses at once."""
        ar = np.arange(self.n)
        damaged = (self.armour[:, i] < self.armour0[i]).astype(np.int32)
        size = np.clip(self.size[i] + self.adv[i] + shift - damaged - self.evasive[j], 0, 3)
        count = np.where(on, self.body[:, i], 0)
        good, bad = self._roll(count, size)
        dd = self.dd[ar, j]
        dd_left = np.maximum(dd - good, 0) * on + dd * ~on
        self.dd[ar, j] = dd_left
        self._wound(i, np.minimum(bad, dd_left) * on)

    def _wound(self, i: int, wounds: np.ndarray) -> None:
        """Wounds to character i, each saved by its shield, then its armour, while they last;
        each save rolls the usage die, which steps down on a roll under 3."""
        for _ in range(int(wounds.max()) if wounds.size else 0):
            left = wounds > 0
            if not left.any():
                break
            u = self.gen.random(self.n)
            by_shield = left & (self.shield[:, i] >= 0)
            by_armour = left & ~by_shield & (self.armour[:, i] >= 0)
            use = np.where(by_shield, self.shield[:, i], self.armour[:, i])
            worn = (u * SIZES[np.maximum(use, 0)]).astype(np.int32) + 1 < 3
            self.shield[:, i] -= by_shield & worn
            self.armour[:, i] -= by_armour & worn
            hurt = left & ~by_shield & ~by_armour
            self.body[:, i] -= hurt
            wounds = wounds - left
        self.body[:, i] = np.maximum(self.body[:, i], 0)

    def round(self, shift_party: np.ndarray) -> None:
        n = self.n
        ar = np.arange(n)
        up_c = self.body > 0
        front = up_c & ~self.back[None, :]
        holds = front.sum(1) * self.tactics.front_holds
        rank = np.cumsum(self.up_f, 1)
        engaged = np.zeros((n, self.P), dtype=bool)
        # Each standing foe engages the weakest character it can reach (tactics).
        for j in range(self.M):
            on = self.act & self.up_f[:, j]
            if not on.any():
                continue
            past = (rank[:, j] > holds) | ~front.any(1)
            reach = up_c & (~self.back[None, :] | past[:, None])
            target = np.where(reach, self.body, 1 << 20).argmin(1)
            ok = on & reach[ar, target]
            for i in range(self.P):
                mine = ok & (target == i) & (self.body[:, i] > 0)
                if mine.any():
                    engaged[:, i] |= mine
                    self._exchange(i, np.full(n, j), mine, shift_party)
            self.up_f &= self.dd > 0
        # Characters no foe engaged: the front rank attacks the weakest foe (an exchange with
        # its risks); the mage shoots with HEAD dice, risk-free ((Fortmayn), Ranged combat).
        for i in range(self.P):
            free = self.act & (self.body[:, i] > 0) & ~engaged[:, i]
            if not free.any():
                continue
            weakest = np.where(self.up_f, self.dd, 1 << 20).argmin(1)
            free &= self.up_f[ar, weakest]
            if self.caster[i]:
                count = np.where(free, self.head[i], 0)
                size = np.clip(self.head_size[i] + shift_party, 0, 3)
                good, _ = self._roll(count, np.broadcast_to(size, (n,)).copy())
                self.dd[ar, weakest] = np.maximum(self.dd[ar, weakest] - good, 0)
            elif not self.back[i]:
                self._exchange(i, weakest, free, shift_party)
            self.up_f &= self.dd > 0
        self.rounds += self.act
        self._settle()

    def _settle(self) -> None:
        up_c = (self.body > 0).any(1)
        foes = self.up_f.any(1)
        done = self.act & ~(up_c & foes)
        self.outcome[done] = np.where(up_c[done], WIN, WIPED)
        self.act &= ~done

    def _morale(self) -> None:
        """FMC Basic's morale, as the (Fortmayn) booklet words it (half the number lost, or a
        big foe at half its DD: tempt fate or flee)."""
        thinking = self.act & (self.up_f & self.thinking).any(1)
        size = self.present.sum(1)
        lost = size - (self.up_f & self.present).sum(1)
        half = thinking & ~self.half_checked & (size >= 2) & (2 * lost >= size)
        breaks = half & self._coin()
        self.half_checked |= half
        self.up_f &= ~(breaks[:, None] & self.thinking[None, :])
        hurt = self.act[:, None] & self.up_f & ~self.big_checked & (2 * self.dd <= self.dd0)
        hurt &= (self.big & self.thinking)[None, :]
        if hurt.any():
            self.big_checked |= hurt
            flee = hurt & (self.gen.random((self.n, self.M)) < 0.5)
            self.up_f &= ~flee
        self._settle()

    def _breaks(self) -> None:
        down = (self.body0 > 0).sum(1) - (self.body > 0).sum(1)
        losing = (self.dd * self.up_f).sum(1) > self.body.sum(1)
        runs = self.act & (down >= self.P * self.tactics.party_breaks_at) & losing
        self.outcome[runs] = FLEE
        self.act &= ~runs

    def run(self) -> Outcome:
        n = self.n
        party_caught = self._coin()
        foes_caught = self._coin()
        party_only = party_caught & ~foes_caught
        foes_only = foes_caught & ~party_caught
        # (Fortmayn), Initiative: the surprised fight the first exchange at disadvantage,
        # those who surprise at advantage.
        shift = foes_only.astype(np.int32) - party_only.astype(np.int32)
        self._petrify()
        for number in range(self.tactics.max_rounds):
            if not self.act.any():
                break
            self.round(shift if number == 0 else np.zeros(n, dtype=np.int32))
            self._morale()
            self._breaks()
        self.outcome[self.act] = FLEE
        lost = (self.body0 - self.body).sum(1) / np.maximum(self.body0.sum(1), 1)
        self.dropped = ((self.body == 0) & (self.body0 > 0)).any(1)
        zeros = np.zeros((n, self.P), dtype=np.int32)
        return Outcome(
            outcome=self.outcome,
            rounds=self.rounds,
            dropped=self.dropped,
            hp_lost=lost,
            hp=self.body,
            max_hp=self.body0,
            energy=zeros,
            shield=self.shield >= 0,
            up=self.body > 0,
        )

    def _petrify(self) -> None:
        """A petrifying gaze: each character rolls BODY dice and needs one over 4, or turns to
        stone (Delve's (Fortmayn) wording of FMC's tempt fate, systems/fortmayn/rewrites)."""
        for j, k in enumerate(self.kinds):
            if not k.petrify:
                continue
            for i in range(self.P):
                on = self.present[:, j] & (self.body[:, i] > 0)
                count = np.where(on, self.body[:, i], 0)
                good, _ = self._roll(count, np.full(self.n, self.size[i]))
                self.body[:, i] = np.where(on & (good == 0), 0, self.body[:, i])
        self._settle()


def estimate(
    tables: TableSet, party: list[Character], against: object, address: str, trials: int
) -> Danger:
    """The (Fortmayn) estimate of a fight, summarised like FMC Basic's."""
    from generator.sim.danger import seed_for, summarise

    groups = list(against.groups)  # type: ignore[attr-defined]
    seed = seed_for(f"{address}/fortmayn")
    out = Fight(tables, party, groups, tactics(tables), trials, seed).run()
    notes: list[str] = []
    specials = sorted(
        {
            word
            for g in groups
            for word, on in (
                ("energy drain", g.kind.drain),
                ("regeneration", bool(g.kind.regen)),
                ("breath, bursts and clouds", bool(g.kind.area)),
                ("curses", g.kind.curse),
                ("sweeping attacks", g.kind.sweep or g.kind.engulf),
            )
            if on
        }
    )
    if specials:
        notes.append("in (Fortmayn)'s fight: " + ", ".join(specials))
    return summarise(tables, out, party, "fortmayn", notes)
