"""(Fortmayn)'s own fights: BODY dice against Difficulty Dice, armour as usage dice.

(Fortmayn)'s combat text is complete enough to fight by (docs/danger.md, "Other rules
systems"). In melee a character rolls all its unwounded BODY dice against each opponent it
fights; each die over 4 strips one of the opponent's Difficulty Dice (DD), and for each DD the
opponent has, one die under 3 is wounded unless armour saves it. Armour saves by rolling its
usage die, which steps down on a roll under 3; damaged armour gives disadvantage. A ranged
attack rolls HEAD dice and is risk-free; a spell is a HEAD roll whose dice under 3 are lost. An
opponent out of DD, or a character out of unwounded BODY dice, is out of action. There is no
initiative: melee is a flurry in which both sides' blows land.

The figures come from `fortmayn_figures` (the party by `sim/fortmayn`, the foes as their
(Fortmayn) stat blocks print them); the foes' powers and morale from `fortmayn_powers`, as the
(Fortmayn) booklet words them.
"""

from __future__ import annotations

import numpy as np

from generator.engine.tables import TableSet
from generator.model.danger import Danger
from generator.sim.engine import CHUNK, FLEE, WIN, WIPED, Outcome, _chunk_seed
from generator.sim.foes import FoeGroup, leader_index
from generator.sim.fortmayn_figures import NONE, SIZES, FoeFigure, figure, foe_figure
from generator.sim.fortmayn_powers import BIG, FoePowers
from generator.sim.party import Character
from generator.sim.rules import Tactics, tactics

# Specials whose FMC Basic note ("not simulated: poison") the (Fortmayn) fight does cover: the
# booklet's venom wounds dice that stay lost after the fight, and in it they are wounds.
FOUGHT_HERE = {"poison"}


class Fight(FoePowers):
    """One (Fortmayn) fight for n trials at once: each trial a row of the state arrays."""

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
        self.ar = np.arange(n)
        figs = [figure(tables, c) for c in party]
        self.P = len(figs)
        foes: list[FoeFigure] = []
        slots: list[int] = []
        for g in groups:
            f = foe_figure(tables, g.kind)
            # systems/fortmayn/brackets: two foes worth half a hit die count as one.
            slots.append((g.most + 1) // 2 if f.paired else g.most)
            foes += [f] * slots[-1]
        self.kinds = [f.kind for f in foes]
        self.M = len(foes)
        self.leader = _leader_slot(groups, slots)
        i32 = np.int32
        # --- the party, static
        self.size = np.array([f.size for f in figs], dtype=i32)
        self.head_size = np.array([f.head_size for f in figs], dtype=i32)
        self.adv = np.array([f.advantage for f in figs], dtype=bool)
        self.brawny = np.array([f.brawny for f in figs], dtype=bool)
        self.caster = [f.caster for f in figs]
        self.shooter = [f.shooter for f in figs]
        self.back = np.array([f.back for f in figs], dtype=bool)
        self.fire = [f.damage_type == "fire" for f in figs]
        # systems/fortmayn/terms, resist: weapons of a damage type it resists are at disadvantage
        self.resisted = np.array(
            [[f.damage_type in k.resist for k in self.kinds] for f in figs], dtype=bool
        ).reshape(self.P, self.M)
        self.armour0 = np.array([f.armour for f in figs], dtype=i32)
        # --- the party, state
        self.body = np.tile(np.array([f.body for f in figs], dtype=i32), (n, 1))
        self.body0 = self.body.copy()
        self.head = np.tile(np.array([f.head for f in figs], dtype=i32), (n, 1))
        self.armour = np.tile(self.armour0, (n, 1))
        self.shield = np.tile(np.array([f.shield for f in figs], dtype=i32), (n, 1))
        self.held = np.zeros((n, self.P), dtype=bool)
        self.caught = np.zeros((n, self.P), dtype=bool)
        # --- the foes, static
        self.dd0 = np.array([f.dd for f in foes], dtype=i32)
        self.evasive = np.array([f.evasive for f in foes], dtype=bool)
        # special.petrify: after the opening gaze it is fought with eyes averted
        self.averted = np.array([k.petrify for k in self.kinds], dtype=bool)
        self.thinking = np.array([not k.mindless for k in self.kinds], dtype=bool)
        self.big = np.array([k.big for k in self.kinds], dtype=bool)
        self.regen = np.array([bool(k.regen) for k in self.kinds], dtype=bool)
        # --- the foes, state
        self.present = self._present(groups, foes, slots)
        self.dd = np.where(self.present, self.dd0[None, :], 0).astype(i32)
        self.up_f = self.dd > 0
        self.burned = np.zeros((n, self.M), dtype=i32)
        self.used = np.zeros((n, self.M), dtype=bool)
        self.half_checked = np.zeros(n, dtype=bool)
        self.leader_checked = np.zeros(n, dtype=bool)
        self.big_checked = np.zeros((n, self.M), dtype=bool)
        self.act = np.ones(n, dtype=bool)
        self.outcome = np.zeros(n, dtype=np.int8)
        self.rounds = np.zeros(n, dtype=np.int16)

    def _present(self, groups: list[FoeGroup], foes: list[FoeFigure], slots: list[int]):
        """Which foe slots are in the fight: a fixed count, or a dice formula rolled afresh in
        each trial (paired foes halved, rounded up)."""
        cols = []
        first = 0
        for g, most in zip(groups, slots, strict=True):
            dist = g.distribution()
            values = np.array([v for v, _ in dist])
            if foes[first].paired:
                values = (values + 1) // 2
            cum = np.cumsum([p for _, p in dist])
            pick = np.minimum(np.searchsorted(cum, self.gen.random(self.n)), len(values) - 1)
            cols.append(np.arange(most)[None, :] < values[pick][:, None])
            first += most
        return np.concatenate(cols, axis=1)

    # ------------------------------------------------------------------ dice

    def roll(self, count: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(dice over 4, dice under 3) of `count` dice of `size` (a SIZES index), per row. On
        a d4 a 4 counts as over 4 ((Fortmayn), Advantage & disadvantage)."""
        most = int(count.max()) if count.size else 0
        if most == 0:
            zero = np.zeros(self.n, dtype=np.int32)
            return zero, zero
        sides = SIZES[np.broadcast_to(size, (self.n,))]
        faces = (self.gen.random((most, self.n)) * sides).astype(np.int32) + 1
        used = np.arange(most)[:, None] < count[None, :]
        good = ((faces > 4) | ((sides == 4) & (faces == 4))) & used
        bad = (faces < 3) & used
        return good.sum(0).astype(np.int32), bad.sum(0).astype(np.int32)

    def damaged(self, i: int) -> np.ndarray:
        """(Fortmayn), Armor: armour below its own usage die gives disadvantage to all tests."""
        if self.armour0[i] == NONE:
            return np.zeros(self.n, dtype=np.int32)
        return (self.armour[:, i] < self.armour0[i]).astype(np.int32)

    def _size(self, base: int, adv: np.ndarray, dis: np.ndarray) -> np.ndarray:
        """Our reading of (Fortmayn)'s advantage and disadvantage: one size up for any reason to
        roll with advantage, one down for any reason against; the two cancel."""
        return np.clip(base + adv.astype(np.int32) - dis.astype(np.int32), 0, 3)

    # ------------------------------------------------------------------ blows

    def exchange(
        self, i: int, j: np.ndarray, on: np.ndarray, start: np.ndarray, shift: np.ndarray
    ) -> np.ndarray:
        """Character i against foe j (one per row) in melee ((Fortmayn), Combat, Melee): its
        BODY dice over 4 strip the foe's DD; for each DD the foe had, a die under 3 is wounded.
        The flurry: the DD that wound are those the foe had as the round began, less those this
        very roll stripped (Combat's example: one DD left, one die wounded), not those others
        stripped this round (the long example: the ghoul Brawny strips still wounds Brainy). A
        held character only struggles: its dice over 4 free it and strip nothing. Returns its
        dice over 4."""
        ar = self.ar
        held = self.held[:, i]
        adv = self.adv[i] | (shift > 0)
        dis = (
            (self.damaged(i) > 0)
            | self.evasive[j]
            | self.resisted[i][j]
            | self.averted[j]
            | (shift < 0)
        )
        good, bad = self.roll(
            np.where(on, self.body[:, i], 0), self._size(int(self.size[i]), adv, dis)
        )
        strike = on & ~held
        dd = self.dd[ar, j]
        taken = np.minimum(good, dd) * strike
        self.dd[ar, j] = dd - taken
        if self.fire[i]:
            self.burned[ar, j] += taken
        cap = np.maximum(start[ar, j] - good * strike, 0)
        self.wound(i, np.minimum(bad, cap) * on)
        return good

    def shot_at(self, i: int, j: int, on: np.ndarray, armour: bool = True) -> np.ndarray:
        """Character i rolls BODY dice against foe j's DD as when shot at ((Fortmayn), Ranged
        combat): each DD wounds a die under 3 unless armour saves it; nothing is stripped.
        Returns its dice over 4."""
        good, bad = self.roll(
            np.where(on, self.body[:, i], 0), np.clip(self.size[i] - self.damaged(i), 0, 3)
        )
        self.wound(i, np.minimum(bad, self.dd[:, j]) * on, armour)
        return good

    def wound(self, i: int, wounds: np.ndarray, armour: bool = True) -> None:
        """Wounds to character i ((Fortmayn), Armor): each is saved by its shield, else its worn
        armour, while they last (our reading: the shield first, as damaged armour hampers every
        roll), each save rolling the usage die, which steps down on a roll under 3. Where armour
        cannot save (a cloud), a Brawny sunders its shield or armour rather than be put out of
        action (Making a character)."""
        for _ in range(int(wounds.max()) if wounds.size else 0):
            left = wounds > 0
            if not left.any():
                break
            if armour:
                by_shield = left & (self.shield[:, i] >= 0)
                by_armour = left & ~by_shield & (self.armour[:, i] >= 0)
                use = np.where(by_shield, self.shield[:, i], self.armour[:, i])
                faces = (self.gen.random(self.n) * SIZES[np.maximum(use, 0)]).astype(np.int32)
                worn = faces + 1 < 3
                self.shield[:, i] -= by_shield & worn
                self.armour[:, i] -= by_armour & worn
                hurt = left & ~by_shield & ~by_armour
            else:
                hurt = left
                if self.brawny[i]:
                    last = hurt & (self.body[:, i] == 1)
                    shield = last & (self.shield[:, i] >= 0)
                    worn = last & ~shield & (self.armour[:, i] >= 0)
                    self.shield[:, i] = np.where(shield, NONE, self.shield[:, i])
                    self.armour[:, i] = np.where(worn, NONE, self.armour[:, i])
                    hurt = hurt & ~shield & ~worn
            self.body[:, i] = np.maximum(self.body[:, i] - hurt, 0)
            wounds = wounds - left

    def _weakest_foe(self) -> tuple[np.ndarray, np.ndarray]:
        """(index, found) of the standing foe with the fewest DD left, per row (tactics: focus
        the weakest foe)."""
        standing = self.up_f & (self.dd > 0)
        t = np.where(standing, self.dd, BIG).argmin(1)
        return t, standing[self.ar, t]

    def _head_roll(self, i: int, free: np.ndarray, shift: np.ndarray, spell: bool) -> np.ndarray:
        """A ranged attack of character i at the weakest foe: HEAD dice, each over 4 stripping
        a DD, risk-free ((Fortmayn), Ranged combat). A spell's HEAD dice under 3 are lost for the
        fight (the long example's torch: "None lost!"); a spell is no blow, so a foe's evasion
        and resistances do not hamper it. Returns the rows where it attacked."""
        ar = self.ar
        t, found = self._weakest_foe()
        on = free & found & (self.head[:, i] > 0)
        if not on.any():
            return on
        dis = (self.damaged(i) > 0) | (shift < 0)
        if not spell:
            dis = dis | self.evasive[t] | self.resisted[i][t]
        good, bad = self.roll(
            np.where(on, self.head[:, i], 0), self._size(int(self.head_size[i]), shift > 0, dis)
        )
        dd = self.dd[ar, t]
        taken = np.minimum(good, dd) * on
        self.dd[ar, t] = dd - taken
        if self.fire[i] and not spell:
            self.burned[ar, t] += taken
        if spell:
            self.head[:, i] -= bad * on
        return on

    # ------------------------------------------------------------------ the round

    def _reach(self, rank: np.ndarray) -> np.ndarray:
        """Characters a foe of this `rank` among the standing foes can reach: the front rank,
        or anyone once it is past the front (tactics: front_holds each) or no front is left."""
        up = self.body > 0
        front = up & ~self.back[None, :]
        holds = front.sum(1) * self.tactics.front_holds
        past = (rank > holds) | ~front.any(1)
        return up & (~self.back[None, :] | past[:, None])

    def round(self, number: int, shift: np.ndarray) -> None:
        n, ar = self.n, self.ar
        start = self.dd.copy()
        acting = self.act[:, None] & self.up_f
        busy = self.powers(acting)
        rank = np.cumsum(self.up_f, 1)
        engaged = np.zeros((n, self.P), dtype=bool)
        freed = np.zeros((n, self.P), dtype=bool)
        # Each standing foe engages the weakest character it can reach (tactics); one that
        # sweeps or engulfs, everyone it can reach (special.sweep, special.engulf).
        for j, k in enumerate(self.kinds):
            on = acting[:, j] & ~busy[:, j]
            if not on.any():
                continue
            reach = self._reach(rank[:, j])
            if k.sweep or k.engulf:
                targets = reach
            else:
                t = np.where(reach, self.body, BIG).argmin(1)
                targets = np.zeros((n, self.P), dtype=bool)
                targets[ar, t] = reach[ar, t]
            jj = np.full(n, j)
            for i in range(self.P):
                mine = on & targets[:, i] & (self.body[:, i] > 0)
                if not mine.any():
                    continue
                engaged[:, i] |= mine
                was_held = self.held[:, i].copy()
                good = self.exchange(i, jj, mine, start, shift)
                freed[:, i] |= mine & was_held & (good > 0)
                if k.engulf:
                    # special.engulf: caught inside unless a die shows over 4 (our reading)
                    self.caught[:, i] |= mine & ~was_held & (good == 0) & (self.body[:, i] > 0)
        # Characters no foe engaged: the mage casts, an archer shoots, the front rank attacks
        # the weakest foe (an exchange with its risks); a held one struggles to get free.
        for i in range(self.P):
            standing = self.act & (self.body[:, i] > 0)
            alone = standing & ~engaged[:, i]
            struggling = alone & self.held[:, i]
            if struggling.any():
                size = np.clip(self.size[i] - self.damaged(i), 0, 3)
                good, _ = self.roll(np.where(struggling, self.body[:, i], 0), size)
                freed[:, i] |= struggling & (good > 0)
            free = alone & ~self.held[:, i]
            if not free.any():
                continue
            if self.caster[i]:
                free &= ~self._head_roll(i, free, shift, spell=True)
            if self.shooter[i]:
                self._head_roll(i, free, shift, spell=False)
            elif not self.back[i]:
                t, found = self._weakest_foe()
                self.exchange(i, t, free & found, start, shift)
        self.held = (self.held & ~freed) | self.caught
        self.caught = np.zeros_like(self.caught)
        self.up_f &= self.dd > 0
        self.rounds += self.act
        self.regrow(number)
        self.settle()

    def settle(self) -> None:
        """A fight ends when no foe or no character is left standing."""
        chars = (self.body > 0).any(1)
        done = self.act & ~(chars & self.up_f.any(1))
        self.outcome[done] = np.where(chars[done], WIN, WIPED)
        self.act &= ~done

    def _breaks(self) -> None:
        """The party runs when party_breaks_at of it is down and the standing foes' DD outnumber
        its unwounded BODY dice (tactics). Breaking off, each character a foe engages rolls as
        if shot at once more (it strikes no blow as it goes)."""
        down = (self.body0 > 0).sum(1) - (self.body > 0).sum(1)
        losing = (self.dd * self.up_f).sum(1) > self.body.sum(1)
        runs = self.act & (down >= self.P * self.tactics.party_breaks_at) & losing
        if not runs.any():
            return
        rank = np.cumsum(self.up_f, 1)
        for j in range(self.M):
            on = runs & self.up_f[:, j]
            reach = self._reach(rank[:, j])
            t = np.where(reach, self.body, BIG).argmin(1)
            for i in range(self.P):
                mine = on & (t == i) & reach[:, i]
                if mine.any():
                    self.shot_at(i, j, mine)
        self.outcome[runs] = np.where((self.body[runs] > 0).any(1), FLEE, WIPED)
        self.act &= ~runs

    def run(self) -> Outcome:
        n = self.n
        party_caught = self.gen.random(n) < 0.5
        foes_caught = self.gen.random(n) < 0.5
        # (Fortmayn), Initiative: the surprised fight the first exchange at disadvantage, those
        # who surprise at advantage (who is surprised: FMC Basic's toss; if both, neither).
        shift = (foes_caught & ~party_caught).astype(np.int32) - (
            party_caught & ~foes_caught
        ).astype(np.int32)
        none = np.zeros(n, dtype=np.int32)
        self.petrify()
        for number in range(self.tactics.max_rounds):
            if not self.act.any():
                break
            self.round(number, shift if number == 0 else none)
            self.morale()
            self.settle()
            self._breaks()
        # Still fighting after max_rounds: the party walks away (tactics).
        self.outcome[self.act] = FLEE
        lost = (self.body0 - self.body).sum(1) / np.maximum(self.body0.sum(1), 1)
        return Outcome(
            outcome=self.outcome,
            rounds=self.rounds,
            dropped=((self.body == 0) & (self.body0 > 0)).any(1),
            hp_lost=lost,
            hp=self.body,
            max_hp=self.body0,
            energy=np.zeros((n, self.P), dtype=np.int32),
            shield=self.shield >= 0,
            up=self.body > 0,
        )


def _leader_slot(groups: list[FoeGroup], slots: list[int]) -> int:
    """The leader's slot among the (Fortmayn) foes (paired foes take one slot for two): the
    first of the group that holds FMC Basic's leader (foes.leader_index), or -1."""
    index = leader_index(groups)
    if index < 0:
        return -1
    for g, group in enumerate(groups):
        if index < group.most:
            return sum(slots[:g])
        index -= group.most
    return -1


def fight(
    tables: TableSet,
    party: list[Character],
    groups: list[FoeGroup],
    tac: Tactics,
    trials: int,
    seed: int,
) -> Outcome:
    """Fight `trials` times, CHUNK at a time as the FMC engine does (the first chunk on `seed`),
    so a million trials against 60 foes need no gigabytes of state."""
    if trials <= CHUNK:
        return Fight(tables, party, groups, tac, trials, seed).run()
    parts = [
        Fight(tables, party, groups, tac, min(CHUNK, trials - low), _chunk_seed(seed, i)).run()
        for i, low in enumerate(range(0, trials, CHUNK))
    ]
    return Outcome(
        *(np.concatenate([getattr(o, k) for o in parts]) for k in Outcome.__dataclass_fields__)
    )


def notes(against: object) -> list[str]:
    """What the (Fortmayn) figures leave out: FMC Basic's notes for specials its fight cannot
    read (an unsorted special ability), less those the (Fortmayn) booklet gives a rule for."""
    return [
        note
        for note in against.notes  # type: ignore[attr-defined]
        if note.split(" (", 1)[0] not in FOUGHT_HERE
    ]


def estimate(
    tables: TableSet, party: list[Character], against: object, address: str, trials: int
) -> Danger:
    """The (Fortmayn) estimate of a fight, summarised like FMC Basic's."""
    from generator.sim.danger import seed_for, summarise

    groups = list(against.groups)  # type: ignore[attr-defined]
    out = fight(tables, party, groups, tactics(tables), trials, seed_for(f"{address}/fortmayn"))
    return summarise(tables, out, party, "fortmayn", notes(against))
