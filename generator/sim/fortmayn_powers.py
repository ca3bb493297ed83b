"""The foes' powers in a (Fortmayn) fight, as a (Fortmayn) booklet words them
(`systems/fortmayn/terms`, special.*), and the morale that booklet prints.

A mixin of :class:`generator.sim.fortmayn.Fight`, whose state arrays it works on. (Fortmayn)
itself converts saves into rolls of BODY or HEAD dice (How to play, Converting saves) and gives
the roll against a foe's Difficulty Dice (Combat); each power below is that roll, worded in the
booklet, and docs/danger.md gives every reading.
"""

from __future__ import annotations

import numpy as np

from generator.sim.fortmayn_figures import NONE

BIG = 1 << 30
REGROWS_EVERY = 4  # special.regeneration: one Difficulty Die every four Ounces


class FoePowers:
    """Breath, bursts, clouds, nets, curses, petrifying gazes and regrowth; and morale."""

    # ------------------------------------------------------------------ once a fight

    def powers(self, acting: np.ndarray) -> np.ndarray:
        """Once-an-hour powers (once a fight), in the first round each such foe acts, as its
        action (FMC Basic, Example Monsters, *: it counts as casting a spell). Returns the foes
        (rows x foes) whose action this round was a power."""
        busy = np.zeros_like(acting)
        for j, k in enumerate(self.kinds):
            if not (k.area or k.curse):
                continue
            can = acting[:, j] & ~self.used[:, j]
            if not can.any():
                continue
            self.used[:, j] |= can
            busy[:, j] = can
            if k.area:
                self._area(j, can)
            if k.curse:
                self._curse(j, can)
        return busy

    def _area(self, j: int, can: np.ndarray) -> None:
        """special.breath, blast, cloud: everyone in the area rolls BODY dice as if it attacked
        them alone, read as being shot at (Combat, Ranged combat: wounds, nothing stripped); a
        cloud's wounds armour cannot save. Our reading: the area covers a party fighting in one
        room. special.hold: a net or a song also catches, and our reading of who it catches is
        the rewrite of FMC's tempt fate: whoever rolls no die over 4."""
        k = self.kinds[j]
        for i in range(self.P):
            on = can & (self.body[:, i] > 0)
            if not on.any():
                continue
            good = self.shot_at(i, j, on, armour=k.area != "cloud")
            if k.area == "hold":
                # caught at once: from this round it can do nothing but struggle
                self.held[:, i] |= on & (good == 0) & (self.body[:, i] > 0)

    def _curse(self, j: int, can: np.ndarray) -> None:
        """special.curse: its victim rolls HEAD dice against its Difficulty Dice, and each die
        lost stays lost. Our reading, as in FMC Basic's fight: the victim is the strongest
        standing character (most unwounded BODY dice)."""
        ar = self.ar
        t = np.where(self.body > 0, self.body, -1).argmax(1)
        on = can & (self.body[ar, t] > 0)
        size = np.clip(self.head_size[t] - self.damaged_at(t), 0, 3)
        _good, bad = self.roll(np.where(on, self.head[ar, t], 0), size)
        lost = np.minimum(bad, self.dd[:, j]) * on
        self.head[ar, t] -= lost

    def petrify(self) -> None:
        """special.petrify: as the fight opens, everyone facing a petrifying foe rolls BODY
        dice and turns to stone if no die shows more than 4 (out of the fight, a drop); after
        that they fight it with eyes averted, at disadvantage (see `averted`)."""
        for j, k in enumerate(self.kinds):
            if not k.petrify:
                continue
            for i in range(self.P):
                on = self.present[:, j] & (self.body[:, i] > 0)
                size = np.clip(self.size[i] - self.damaged(i), 0, 3)
                good, _ = self.roll(np.where(on, self.body[:, i], 0), size)
                self.body[:, i] = np.where(on & (good == 0), 0, self.body[:, i])
        self.settle()

    # ------------------------------------------------------------------ each round

    def regrow(self, number: int) -> None:
        """special.regeneration: a standing regenerating foe gets back one lost Difficulty Die
        every four Ounces, never those taken by fire. Our reading, as in FMC Basic's fight: one
        that fell stays down (the party keeps it down, and burns it after)."""
        if (number + 1) % REGROWS_EVERY or not self.regen.any():
            return
        top = self.dd0[None, :] - self.burned
        grown = np.minimum(self.dd + 1, np.maximum(top, self.dd))
        self.dd = np.where(self.up_f & self.regen[None, :], grown, self.dd)

    # ------------------------------------------------------------------ morale

    def cow(self, mask: np.ndarray) -> np.ndarray:
        """systems/fortmayn/terms, morale: a character tries to cow the foes with a HEAD roll,
        and any die over 4 sends them running. Our reading: the standing character with the
        most HEAD dice tries."""
        ar = self.ar
        t = np.where(self.body > 0, self.head, -1).argmax(1)
        on = mask & (self.body[ar, t] > 0)
        size = np.clip(self.head_size[t] - self.damaged_at(t), 0, 3)
        good, _ = self.roll(np.where(on, self.head[ar, t], 0), size)
        return on & (good > 0)

    def morale(self) -> None:
        """When foes lose their leader or half their number, or a big foe half its Difficulty
        Dice, the party tries to cow them (`cow`); mindless foes never break. Which foes run is
        the FMC fight's reading (docs/danger.md, Morale): a big foe's test is its own, and the
        leader does not run with its followers, so a boss never flees because its last hoblin
        fell. Checked at the end of each round, once for each cause."""
        follows = self.thinking & ~self.big
        if self.leader >= 0:
            follows[self.leader] = False
        thinking = self.act & (self.up_f & follows[None, :]).any(1)
        if thinking.any():
            size = self.present.sum(1)
            lost = size - (self.up_f & self.present).sum(1)
            test = thinking & ~self.half_checked & (size >= 2) & (2 * lost >= size)
            self.half_checked |= test
            if self.leader >= 0:
                gone = self.present[:, self.leader] & ~self.up_f[:, self.leader]
                lead = thinking & ~self.leader_checked & gone
                self.leader_checked |= lead
                test |= lead
            if test.any():
                breaks = self.cow(test)
                self.up_f &= ~(breaks[:, None] & follows[None, :])
        for j in np.flatnonzero(self.big & self.thinking):
            hurt = self.act & self.up_f[:, j] & ~self.big_checked[:, j]
            hurt &= 2 * self.dd[:, j] <= self.dd0[j]
            if hurt.any():
                self.big_checked[:, j] |= hurt
                self.up_f[:, j] &= ~self.cow(hurt)

    # ------------------------------------------------------------------ helpers

    def damaged_at(self, t: np.ndarray) -> np.ndarray:
        """Whether the armour of character t (one per row) is below its own usage die."""
        worn = self.armour[self.ar, t]
        return ((worn < self.armour0[t]) & (self.armour0[t] != NONE)).astype(np.int32)
