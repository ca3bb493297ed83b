"""Spells and monsters' powers in a fight: the mage's Lullaby, Captivate, Heal and arcane
blasts, and the foes' breath, curses and petrifying gaze (FMC Basic, Mages and Example
Monsters). A mixin of :class:`generator.sim.engine.Fight`, whose state arrays it works on; the
rules each rests on are in docs/danger.md.
"""

from __future__ import annotations

import numpy as np

from generator.sim.rows import any_rows

BIG = 1 << 30
SLEEP_SPELL, CHARM_SPELL, HEAL_SPELL = "lullaby", "captivate", "heal"


class Powers:
    """Magic of both sides, for Fight (which holds the arrays these methods read and write)."""

    # ------------------------------------------------------------------ the party's spells

    def party_magic(self, mask: np.ndarray) -> None:
        """Mages cast (tactics: the best spell first): Lullaby once a fight when its dice can
        put a foe to sleep, then Captivate, then Heal for a wounded friend, else arcane blasts
        (FMC Basic, Mages and Spell Scrolls)."""
        for i, c in enumerate(self.party):
            if not c.energy:
                continue
            can = mask[:, i] & self.c_up[:, i] & ~self.held_now[:, i] & self.act
            can &= self.c_energy[:, i] > 0
            if not can.any():
                continue
            if SLEEP_SPELL in c.spells:
                can &= ~self._lullaby(i, can)
            if CHARM_SPELL in c.spells and can.any():
                can &= ~self._captivate(i, can)
            if HEAL_SPELL in c.spells and can.any():
                can &= ~self._heal(i, can)
            if can.any():
                self._blast(i, can)

    def _lullaby(self, i: int, can: np.ndarray) -> np.ndarray:
        """Lullaby: 1d6 hit dice of creatures fall asleep, a die more for each extra energy.
        The mage spends enough that the average covers the awake foes' hit dice; the dice put
        the strongest foes that fit to sleep first (our reading: the text leaves the order)."""
        awake_hd = (self.f_up * self.f_hd).sum(1)
        dice = np.clip(np.ceil(awake_hd / self.tactics.lullaby_average), 1, self.c_energy[:, i])
        dice = dice.astype(np.int32)
        weakest = np.where(self.f_up, self.f_hd, np.inf).min(1)
        cast = can & ~self.lull_cast[:, i] & (6 * dice >= weakest)
        if not cast.any():
            return cast
        most = int(dice[cast].max())
        faces = (self._u(most) * 6).astype(np.int32) + 1
        total = (faces * (np.arange(most)[:, None] < dice[None, :])).sum(0) * cast
        self.c_energy[:, i] -= dice * cast
        self.lull_cast[:, i] |= cast
        left = total.astype(float)
        for j in np.argsort(-self.f_hd, kind="stable"):
            sleeps = cast & self.f_up[:, j] & (self.f_hd[j] <= left)
            self.f_up[:, j] &= ~sleeps
            left -= self.f_hd[j] * sleeps
        return cast

    def _captivate(self, i: int, can: np.ndarray) -> np.ndarray:
        """Captivate: one intelligent foe, the strongest standing, is charmed for the fight."""
        smart = self.f_up & self.f_smart[None, :]
        cast = can & ~self.charm_cast[:, i] & any_rows(smart)
        if cast.any():
            t = np.where(smart, self.f_hp, -1).argmax(1)
            self.f_up[self.ar[cast], t[cast]] = False
            self.c_energy[:, i] -= cast
            self.charm_cast[:, i] |= cast
        return cast

    def _heal(self, i: int, can: np.ndarray) -> np.ndarray:
        """Heal: erase 1d6 damage from the most hurt standing friend at or below fall_back_at."""
        hurt = self.c_up & (self.c_hp <= self.c_max * self.tactics.fall_back_at)
        cast = can & any_rows(hurt)
        if cast.any():
            t = np.where(hurt, self.c_hp, BIG).argmin(1)
            amount = (self._u(1)[0] * 6).astype(np.int32) + 1
            ar = self.ar
            healed = np.minimum(self.c_hp[ar, t] + amount * cast, self.c_max[ar, t])
            self.c_hp[ar, t] = np.where(cast, healed, self.c_hp[ar, t])
            self.c_energy[:, i] -= cast
        return cast

    def _blast(self, i: int, can: np.ndarray) -> None:
        """Arcane damage, 1 energy: 1d6 to a foe and those adjacent (FMC Basic, Mages). Our
        reading: the weakest foe and the next two weakest beside it, no friend in the blast."""
        cast = can & any_rows(self.f_up)
        if not cast.any():
            return
        dmg = ((self._u(1)[0] * 6).astype(np.int32) + 1) * cast
        order = np.argsort(np.where(self.f_up, self.f_hp, BIG), axis=1, kind="stable")
        for k in range(min(3, self.M)):
            t = order[:, k]
            self._wound_foes(t, cast & self.f_up[self.ar, t], dmg)
        self.c_energy[:, i] -= cast

    # ------------------------------------------------------------------ the foes' powers

    def foe_magic(self, mask: np.ndarray) -> None:
        """Once-an-hour powers, used in the first round the foe acts (the magic phase)."""
        for j, k in enumerate(self.kinds):
            if not self.f_casts[j]:
                continue
            can = mask & self.f_up[:, j] & self.act & ~self.f_used[:, j]
            if not can.any():
                continue
            self.f_used[:, j] |= can
            if k.area:
                self._area(j, can)
            if k.curse:
                self._curse(can)

    def _area(self, j: int, can: np.ndarray) -> None:
        """Breath, cloud, burst: the damage die against every character (our reading: a
        3 x 9" cone or a 2" burst covers a party fighting in one room); a net also holds."""
        k = self.kinds[j]
        u = self._u(self.P + 1)
        for i in range(self.P):
            caught = can & self.c_up[:, i]
            dmg = (u[i] * k.damage).astype(np.int32) + 1
            self._wound_chars(j, np.full(self.n, i), caught, dmg)
            if k.area == "hold":
                self.held_next[:, i] |= caught & self.c_up[:, i] & self._coin()

    def _curse(self, can: np.ndarray) -> None:
        """Curse: the strongest character tempts fate or loses half its maximum hit points."""
        ar = self.ar
        t = np.where(self.c_up, self.c_max, -1).argmax(1)
        struck = can & self.c_up[ar, t] & self._coin()
        loss = (self.c_max[ar, t] // 2) * struck
        self.c_max[ar, t] -= loss
        self.c_hp[ar, t] -= loss
        down = struck & (self.c_hp[ar, t] <= 0)
        self.c_up[ar[down], t[down]] = False
        self.c_drop[ar[down], t[down]] = True

    def petrify(self) -> None:
        """FMC Basic, Example Monsters (§): those facing a medusa tempt fate or are petrified;
        each character once per petrifying foe, as the fight opens."""
        for j, k in enumerate(self.kinds):
            if not k.petrify:
                continue
            for i in range(self.P):
                stone = self.f_present[:, j] & self.c_up[:, i] & self._coin()
                self.c_up[:, i] &= ~stone
                self.c_drop[:, i] |= stone
        self.settle()
