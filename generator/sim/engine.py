"""The fight engine: FMC Basic's skirmish rules, thousands of trials side by side in numpy.

Every trial is one row of the state arrays (characters in columns of the party arrays, foes in
columns of the foe arrays); each step of the rules runs on all rows at once, masked to the rows
where it applies. The rules and tactics, each with the line it rests on, are in docs/danger.md;
comments here cite them briefly.

Randomness: one PCG64 stream per fight, seeded by the caller (from a room's address), read only
through ``Generator.random`` (doubles built from the raw 64-bit stream, which numpy keeps stable),
so the same seed gives the same figures. A die is ``floor(u * sides) + 1``, and a d20 attack
hits when ``floor(u * 20) + 1 + bonus >= defense``, i.e. ``u * 20 >= defense - bonus - 1``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from generator.sim.foes import FoeGroup, leader_index
from generator.sim.party import Character
from generator.sim.powers import BIG, Powers
from generator.sim.rows import any_rows, count_rows, sum_rows
from generator.sim.rules import Tactics

WIN, FLEE, WIPED = 1, 2, 3
COMPACT_BELOW = 0.6  # drop finished rows when fewer than this share are still fighting


@dataclass
class Outcome:
    """Per-trial results of one fight (arrays of length `trials`)."""

    outcome: np.ndarray  # WIN, FLEE or WIPED
    rounds: np.ndarray
    dropped: np.ndarray  # at least one character dropped (or was turned to stone)
    hp_lost: np.ndarray  # share of the party's hit points lost
    # the party at the end, for the next fight of a chain
    hp: np.ndarray
    max_hp: np.ndarray
    energy: np.ndarray
    shield: np.ndarray
    up: np.ndarray


@dataclass
class Start:
    """The party's state entering a fight (arrays (trials, party)); None means fresh."""

    hp: np.ndarray
    max_hp: np.ndarray
    energy: np.ndarray
    shield: np.ndarray
    up: np.ndarray


def _slots(c: Character) -> tuple[int, ...]:
    """FMC Basic, Fighters: prowess split among attacks; +1 each when above +1 (docs/danger.md)."""
    if c.prowess > 1:
        return (1,) * c.prowess
    return (c.prowess,)


_STATE = (
    "ids c_hp c_max c_up c_back c_shield c_def c_energy c_drop held_now held_next "
    "lull_cast charm_cast f_hp f_up f_present f_dc f_shield f_used f_big_checked "
    "half_checked leader_checked act outcome rounds start_n start_hp start_total"
).split()


class Fight(Powers):
    """One fight, run for n trials at once. Build, then call run()."""

    def __init__(
        self,
        party: list[Character],
        groups: list[FoeGroup],
        tactics: Tactics,
        trials: int,
        seed: int,
        start: Start | None = None,
    ) -> None:
        self.party = party
        self.tactics = tactics
        self.gen = np.random.Generator(np.random.PCG64(seed))
        n = self.n = trials
        P = self.P = len(party)
        kinds = [g.kind for g in groups for _ in range(g.most)]
        M = self.M = len(kinds)
        self.kinds = kinds
        self.leader = leader_index(groups)
        i32 = np.int32
        # --- the party, static
        self.c_slots = [_slots(c) for c in party]
        self.c_sides = [6] * P  # FMC Basic, Combat: a typical figure deals 1d6
        self.c_best = [2 if c.weapon == "two-handed" else 1 for c in party]
        self.c_adv = ["attack" in c.skills for c in party]
        self.c_ranged = [c.weapon == "ranged" for c in party]
        self.c_halves = [
            np.array([c.damage_type in k.resist for k in kinds], dtype=bool) for c in party
        ]
        # --- the foes, static
        self.f_hp0 = np.array([k.hp for k in kinds], dtype=i32)
        self.f_hd = np.array([k.hit_dice for k in kinds], dtype=float)
        self.f_mind = np.array([not k.mindless for k in kinds], dtype=bool)
        self.f_big = np.array([k.big for k in kinds], dtype=bool)
        self.f_smart = np.array([k.intelligent for k in kinds], dtype=bool)
        self.f_regen = np.array([k.regen for k in kinds], dtype=i32)
        self.f_casts = [bool(k.area or k.curse) for k in kinds]
        # --- state
        rows = np.arange(n)
        self.ids = rows
        if start is None:
            self.c_hp = np.tile(np.array([c.hp for c in party], dtype=i32), (n, 1))
            self.c_max = np.tile(np.array([c.max_hp for c in party], dtype=i32), (n, 1))
            self.c_energy = np.tile(np.array([c.energy for c in party], dtype=i32), (n, 1))
            self.c_shield = np.tile(np.array([c.shield for c in party], dtype=bool), (n, 1))
            self.c_up = self.c_hp > 0
        else:
            self.c_hp, self.c_max = start.hp.astype(i32), start.max_hp.astype(i32)
            self.c_energy, self.c_shield = start.energy.astype(i32), start.shield.copy()
            self.c_up = start.up & (self.c_hp > 0)
        base_def = np.array([c.defense - (1 if c.shield else 0) for c in party], dtype=i32)
        self.c_def = base_def[None, :] + self.c_shield.astype(i32)
        self.c_back = np.tile(np.array([not c.front for c in party], dtype=bool), (n, 1))
        self.c_drop = np.zeros((n, P), dtype=bool)
        self.held_now = np.zeros((n, P), dtype=bool)
        self.held_next = np.zeros((n, P), dtype=bool)
        self.lull_cast = np.zeros((n, P), dtype=bool)
        self.charm_cast = np.zeros((n, P), dtype=bool)
        self.start_n = count_rows(self.c_up)
        self.start_hp = np.where(self.c_up, self.c_hp, 0)
        self.start_total = np.maximum(np.where(self.c_up, self.c_max, 0).sum(1), 1)
        self.f_present = self._present(groups)
        self.f_up = self.f_present.copy()
        self.f_hp = np.tile(self.f_hp0, (n, 1))
        self.f_dc = np.tile(np.array([k.dc for k in kinds], dtype=i32), (n, 1))
        self.f_shield = np.tile(np.array([k.shield for k in kinds], dtype=bool), (n, 1))
        self.f_used = np.zeros((n, M), dtype=bool)
        self.f_big_checked = np.zeros((n, M), dtype=bool)
        self.half_checked = np.zeros(n, dtype=bool)
        self.leader_checked = np.zeros(n, dtype=bool)
        self.act = any_rows(self.c_up)
        self.outcome = np.where(self.act, 0, WIPED).astype(np.int8)
        self.rounds = np.zeros(n, dtype=np.int16)
        self.out = Outcome(
            outcome=np.zeros(n, dtype=np.int8),
            rounds=np.zeros(n, dtype=np.int16),
            dropped=np.zeros(n, dtype=bool),
            hp_lost=np.zeros(n, dtype=float),
            hp=np.zeros((n, P), dtype=i32),
            max_hp=np.zeros((n, P), dtype=i32),
            energy=np.zeros((n, P), dtype=i32),
            shield=np.zeros((n, P), dtype=bool),
            up=np.zeros((n, P), dtype=bool),
        )
        self.ar = rows

    # ------------------------------------------------------------------ helpers

    def _u(self, k: int) -> np.ndarray:
        return self.gen.random((k, self.n))

    def _coin(self) -> np.ndarray:
        """Tempting fate: a coin toss (FMC Basic, Part I: heads or tails)."""
        return self.gen.random(self.n) < 0.5

    def _present(self, groups: list[FoeGroup]) -> np.ndarray:
        """Which foe slots are in the fight: all of a fixed count, or so many as the group's
        dice roll in each trial (a wandering group of 1d4+2)."""
        cols = []
        for g in groups:
            dist = g.distribution()
            if len(dist) == 1:
                cols.append(np.ones((self.n, g.most), dtype=bool))
                continue
            values = np.array([v for v, _ in dist])
            cum = np.cumsum([p for _, p in dist])
            counts = values[
                np.minimum(np.searchsorted(cum, self.gen.random(self.n)), len(values) - 1)
            ]
            cols.append(np.arange(g.most)[None, :] < counts[:, None])
        return np.concatenate(cols, axis=1)

    def settle(self) -> None:
        """A fight ends when no foe or no character is left standing."""
        foes = any_rows(self.f_up)
        chars = any_rows(self.c_up)
        done = self.act & ~(foes & chars)
        if done.any():
            self.outcome[done] = np.where(chars[done], WIN, WIPED)
            self.act &= ~done

    def _front(self) -> tuple[np.ndarray, np.ndarray]:
        """The standing front rank and how many foes it holds (tactics: front_holds each)."""
        front = self.c_up & ~self.c_back
        return front, count_rows(front) * self.tactics.front_holds

    # ------------------------------------------------------------------ party actions

    def _hit_foe(
        self, i: int, bonus: int, can: np.ndarray, targets: np.ndarray, magic: int = 0
    ) -> None:
        """One attack of character i at the weakest foe among `targets` (tactics: focus the
        weakest reachable foe): d20 + bonus against its defense, then the weapon's damage."""
        ar = self.ar
        masked = np.where(targets, self.f_hp, BIG)
        t = masked.argmin(1)
        ok = can & (masked[ar, t] < BIG)
        if not ok.any():
            return
        u = self._u(3)
        roll = np.maximum(u[0], u[1]) if self.c_adv[i] else u[0]
        hit = ok & (roll * 20 >= self.f_dc[ar, t] - bonus - magic - 1)
        # FMC Basic, Combat: two-handed weapons take the best of 2 dice.
        dmg_u = np.maximum(u[1], u[2]) if self.c_best[i] == 2 else u[2]
        dmg = (dmg_u * self.c_sides[i]).astype(np.int32) + 1 + magic
        # FMC Basic, Combat: ineffective weapons deal half their damage (rounded down).
        dmg = np.where(self.c_halves[i][t], dmg // 2, dmg)
        self._wound_foes(t, hit, dmg)

    def _wound_foes(self, t: np.ndarray, hit: np.ndarray, dmg: np.ndarray) -> None:
        ar = self.ar
        hp = self.f_hp[ar, t]
        # FMC Basic, Armor & Speed: a shield may be destroyed to negate a hit; a foe does so
        # when the hit would kill it (our reading, as for the characters).
        saved = hit & self.f_shield[ar, t] & (dmg >= hp)
        if saved.any():
            self.f_shield[ar[saved], t[saved]] = False
            self.f_dc[ar[saved], t[saved]] -= 1
            hit = hit & ~saved
        hp = hp - dmg * hit
        self.f_hp[ar, t] = hp
        # FMC Basic, Fighters: a +1 weapon "auto-kills any mook (2 h.p.)": damage equal to the
        # hit points drops a figure.
        killed = hit & (hp <= 0)
        if killed.any():
            self.f_up[ar[killed], t[killed]] = False

    def party_melee(self, mask: np.ndarray, missiles: bool = False) -> None:
        """Every character in `mask` (rows x characters) makes its attacks. Front-rank figures
        reach every foe; the back rank only foes that got past the front (tactics)."""
        front, holds = self._front()
        rank = np.cumsum(self.f_up, 1)
        past = self.f_up & (rank > holds[:, None])
        for i, c in enumerate(self.party):
            can = mask[:, i] & self.c_up[:, i] & ~self.held_now[:, i] & self.act
            if missiles:
                # FMC Basic, Skirmishes: shooting into a melee is a stupid idea, so archers
                # shoot in the first round's missile phase, before the lines meet.
                if not self.c_ranged[i]:
                    continue
                targets = self.f_up
            else:
                if c.energy:  # a mage with energy casts instead (FMC Basic: attack, or cast)
                    can &= self.c_energy[:, i] == 0
                targets = self.f_up & (past | ~self.c_back[:, i][:, None])
            if not can.any():
                continue
            for bonus in self.c_slots[i]:
                self._hit_foe(i, bonus, can, targets, c.weapon_bonus)
                targets = targets & self.f_up

    # ------------------------------------------------------------------ foe actions

    def _hit_char(self, j: int, bonus: int, can: np.ndarray, targets: np.ndarray) -> None:
        """One attack of foe j at the weakest character among `targets`."""
        ar = self.ar
        masked = np.where(targets, self.c_hp, BIG)
        t = masked.argmin(1)
        ok = can & (masked[ar, t] < BIG)
        if not ok.any():
            return
        u = self._u(2)
        hit = ok & (u[0] * 20 >= self.c_def[ar, t] - bonus - 1)
        dmg = (u[1] * self.kinds[j].damage).astype(np.int32) + 1
        self._wound_chars(j, t, hit, dmg)

    def _wound_chars(self, j: int, t: np.ndarray, hit: np.ndarray, dmg: np.ndarray) -> None:
        ar = self.ar
        drain = self.kinds[j].drain
        # FMC Basic, Example Monsters (†): the undead also cut maximum hit points by half the
        # damage (rounded down), so a hit costs half as much again before the victim drops.
        lost = dmg + dmg // 2 if drain else dmg
        hp = self.c_hp[ar, t]
        # FMC Basic, Armor & Speed: the shield is destroyed to stop a hit that would drop its
        # bearer (tactics).
        saved = hit & self.c_shield[ar, t] & (lost >= hp)
        if saved.any():
            self.c_shield[ar[saved], t[saved]] = False
            self.c_def[ar[saved], t[saved]] -= 1
            hit = hit & ~saved
        hp = hp - lost * hit
        self.c_hp[ar, t] = hp
        if drain:
            self.c_max[ar, t] -= (dmg // 2) * hit
        down = hit & (hp <= 0)
        if down.any():
            self.c_up[ar[down], t[down]] = False
            self.c_drop[ar[down], t[down]] = True

    def _reach(self, rank: np.ndarray) -> np.ndarray:
        """Characters a foe of this `rank` among the standing foes can reach: the front rank,
        or anyone once it is past the front (more foes than the front holds) or there is no
        front rank left."""
        front, holds = self._front()
        past = (rank > holds) | ~any_rows(front)
        return self.c_up & (~self.c_back | past[:, None])

    def foe_melee(self, mask: np.ndarray) -> None:
        ranks = np.cumsum(self.f_up, 1)  # foes do not fall during their own side's turn
        for j, k in enumerate(self.kinds):
            can = mask & self.f_up[:, j] & self.act
            if self.f_casts[j]:
                can &= self.f_used[:, j]  # it casts this round instead (FMC Basic, *)
            if not can.any():
                continue
            reach = self._reach(ranks[:, j])
            if k.sweep or k.engulf:
                self._sweep(j, can, reach)
                continue
            for bonus in k.attacks:
                self._hit_char(j, bonus, can, reach)
                reach = reach & self.c_up

    def _sweep(self, j: int, can: np.ndarray, reach: np.ndarray) -> None:
        """Sweep: one attack at its full bonus against every character in reach; engulf adds:
        those hit tempt fate or lose their next turn (our reading of the bestiary's words)."""
        k = self.kinds[j]
        ar = self.ar
        for i in range(self.P):
            who = can & reach[:, i]
            if not who.any():
                continue
            u = self._u(2)
            t = np.full(self.n, i)
            hit = who & (u[0] * 20 >= self.c_def[:, i] - k.attack - 1)
            self._wound_chars(j, t, hit, (u[1] * k.damage).astype(np.int32) + 1)
            if k.engulf:
                self.held_next[:, i] |= hit & self.c_up[ar, t] & self._coin()

    # ------------------------------------------------------------------ the fight

    def round(self, p_mask: np.ndarray, f_mask: np.ndarray, first: bool) -> None:
        """One round: initiative by toss (50-50), then movement, missiles, melee and magic,
        each phase the winners' side first (FMC Basic, Skirmishes)."""
        self.held_now, self.held_next = self.held_next, np.zeros_like(self.held_next)
        fighting = self.act & (any_rows(p_mask) | f_mask)
        party_first = self._coin()
        self._fall_back()
        pa = p_mask & party_first[:, None]
        pb = p_mask & ~party_first[:, None]
        if first and any(self.c_ranged):
            self.party_melee(pa, missiles=True)
            self.party_melee(pb, missiles=True)
            self.settle()
        for party_step, foe_step in (
            (self.party_melee, self.foe_melee),
            (self.party_magic, self.foe_magic),
        ):
            party_step(pa)
            self.settle()
            foe_step(f_mask)
            self.settle()
            party_step(pb)
            self.settle()
        self.rounds += fighting

    def _fall_back(self) -> None:
        """Movement: a wounded front-rank character steps behind the line if a friend who is not
        wounded still stands in front (tactics: fall_back_at)."""
        front = self.c_up & ~self.c_back
        wounded = front & (self.c_hp <= self.c_max * self.tactics.fall_back_at)
        covered = any_rows(front & ~wounded)
        self.c_back |= wounded & covered[:, None]

    def end_of_round(self) -> None:
        if self.f_regen.any():
            # FMC Basic, Example Monsters (‡): trolls cure 1 point a round (standing ones;
            # our reading: a fallen troll is kept down, and burned, by the party).
            healed = np.minimum(self.f_hp + self.f_regen, self.f_hp0)
            self.f_hp = np.where(self.f_up, healed, self.f_hp)
        self._morale()
        self._party_breaks()
        self.settle()

    def _morale(self) -> None:
        """FMC Basic, Skirmishes (line 165): a side that loses its leader or half its number
        tempts fate or "break[s] rank and flee[s]"; a big monster does so at half its hit
        points. Our reading (docs/danger.md, Morale): the big monster's test is its own, in place
        of its side's, and the leader does not break rank with its followers: the rank and file
        run, the leader fights on as it would alone. So a boss never flees because its last
        hoblin fell. Checked at the end of the round, once for each cause; foes that cannot
        think fight on."""
        follows = self.f_mind & ~self.f_big
        if self.leader >= 0:
            follows[self.leader] = False
        thinking = any_rows(self.f_up & follows) & self.act
        if thinking.any():
            size = count_rows(self.f_present)
            lost = size - count_rows(self.f_up & self.f_present)
            half = thinking & ~self.half_checked & (size >= 2) & (2 * lost >= size)
            breaks = half & ~self._coin()
            self.half_checked |= half
            if self.leader >= 0:
                gone = self.f_present[:, self.leader] & ~self.f_up[:, self.leader]
                lead = thinking & ~self.leader_checked & gone
                breaks |= lead & ~self._coin()
                self.leader_checked |= lead
            if breaks.any():
                self.f_up &= ~(breaks[:, None] & follows[None, :])
        for j, k in enumerate(self.kinds):
            if not k.big or k.mindless:
                continue
            hurt = self.act & self.f_up[:, j] & ~self.f_big_checked[:, j]
            hurt &= 2 * self.f_hp[:, j] <= self.f_hp0[j]
            if hurt.any():
                self.f_big_checked[:, j] |= hurt
                self.f_up[:, j] &= ~(hurt & ~self._coin())

    def _party_breaks(self) -> None:
        """The party runs when party_breaks_at of it is down and the standing foes have more hit
        points left than it has (tactics); breaking off, it takes one more round of the foes'
        blows (FMC Basic: foes in 1" are stuck in melee until it is resolved)."""
        down = self.start_n - count_rows(self.c_up)
        losing = sum_rows(self.f_hp * self.f_up) > sum_rows(self.c_hp * self.c_up)
        runs = self.act & (down >= self.start_n * self.tactics.party_breaks_at) & losing
        if not runs.any():
            return
        self.held_now = np.zeros_like(self.held_now)
        self.foe_melee(runs)
        escaped = runs & any_rows(self.c_up)
        self.outcome[runs] = np.where(escaped[runs], FLEE, WIPED)
        self.act &= ~runs

    def surprise(self) -> None:
        """FMC Basic, Skirmishes: each side tempts fate against surprise; if both are surprised
        neither is. A surprised side loses its first turn while the other acts as a group; an
        expert skilled at avoiding surprise tempts fate to act anyway."""
        party_caught = self._coin()
        foes_caught = self._coin()
        party_only = party_caught & ~foes_caught
        foes_only = foes_caught & ~party_caught
        wary = np.array(["avoid_surprise" in c.skills for c in self.party], dtype=bool)
        awake = (party_only[:, None] & wary[None, :] & self._coin()[:, None]) | foes_only[:, None]
        awake = np.broadcast_to(awake, (self.n, self.P)).copy()
        f_mask = party_only
        if party_only.any() or foes_only.any():
            self.round(awake, f_mask, first=True)
            self.end_of_round()

    def run(self) -> Outcome:
        self.petrify()
        self.surprise()
        for number in range(self.tactics.max_rounds):
            if not self.act.any():
                break
            every = np.ones((self.n, self.P), dtype=bool)
            self.round(every, np.ones(self.n, dtype=bool), first=number == 0)
            self.end_of_round()
            if self.act.sum() < COMPACT_BELOW * self.n and self.n > 64:
                self._flush(self.act)
        # Still fighting after max_rounds: the party walks away (tactics).
        self.outcome[self.act] = FLEE
        self.act[:] = False
        self._flush(np.zeros(self.n, dtype=bool))
        return self.out

    def _flush(self, keep: np.ndarray) -> None:
        """Write the finished rows' results out and drop them from the state."""
        gone = ~keep
        ids = self.ids[gone]
        o = self.out
        o.outcome[ids] = self.outcome[gone]
        o.rounds[ids] = self.rounds[gone]
        o.dropped[ids] = self.c_drop[gone].any(1)
        left = np.where(self.c_up[gone], np.maximum(self.c_hp[gone], 0), 0).sum(1)
        lost = self.start_hp[gone].sum(1) - left
        o.hp_lost[ids] = np.maximum(lost, 0) / self.start_total[gone]
        o.hp[ids] = self.c_hp[gone]
        o.max_hp[ids] = self.c_max[gone]
        o.energy[ids] = self.c_energy[gone]
        o.shield[ids] = self.c_shield[gone]
        o.up[ids] = self.c_up[gone]
        if keep.any():
            for name in _STATE:
                value = getattr(self, name)
                setattr(self, name, value[keep])
            self.n = int(keep.sum())
            self.ar = np.arange(self.n)
        else:
            self.n = 0


CHUNK = 50_000  # trials fought at once: 60 foes x 50,000 trials stay well under 100 MB


def fight(
    party: list[Character],
    groups: list[FoeGroup],
    tactics: Tactics,
    trials: int,
    seed: int,
    start: Start | None = None,
) -> Outcome:
    """Run one fight `trials` times; the same seed gives the same outcome arrays.

    More than CHUNK trials are fought CHUNK at a time (the first on `seed`, the rest on seeds
    derived from it), so a million trials against 60 foes need no gigabytes of state."""
    if trials <= CHUNK:
        return Fight(party, groups, tactics, trials, seed, start).run()
    parts = []
    for i, low in enumerate(range(0, trials, CHUNK)):
        high = min(low + CHUNK, trials)
        part = None
        if start is not None:
            part = Start(*(getattr(start, k)[low:high] for k in Start.__dataclass_fields__))
        parts.append(Fight(party, groups, tactics, high - low, _chunk_seed(seed, i), part).run())
    return Outcome(
        *(np.concatenate([getattr(o, k) for o in parts]) for k in Outcome.__dataclass_fields__)
    )


def _chunk_seed(seed: int, i: int) -> int:
    if i == 0:
        return seed
    digest = hashlib.sha256(f"{seed}/chunk/{i}".encode()).digest()
    return int.from_bytes(digest[:16], "big")
