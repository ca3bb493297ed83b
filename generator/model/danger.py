"""Danger estimates as the documents keep them: figures from simulated fights, no numpy here.

A room, a wandering group or a lair with monsters may carry a :class:`Danger`; a site may carry
a :class:`Route`, the chance of getting through its occupied rooms in order without a rest.
Both are written by ``generator.sim`` and read back from JSON like the rest of the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.errors import DocumentError
from generator.model import doc

SHARES = ("win", "flee", "wiped", "drop", "hp_lost")
FIGURES = (*SHARES, "rounds")
MAX_TRIALS = 1_000_000


def _number(data: Any, key: str, path: str, low: float, high: float) -> float:
    value = doc.field(data, key, (int, float), path)
    if not low <= value <= high:
        raise DocumentError(f"{path}.{key}: must be from {low:g} to {high:g}, not {value!r}")
    return float(value)


def _interval(data: Any, key: str, path: str) -> tuple[float, float]:
    pair = doc.field(data, key, list, path)
    if len(pair) != 2 or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in pair
    ):
        raise DocumentError(f"{path}.{key}: must be [low, high]")
    return float(pair[0]), float(pair[1])


@dataclass
class Danger:
    """How a fight goes, from `trials` simulated fights: shares of trials (0-1) the party wins,
    flees, is wiped out, loses at least one character; mean rounds; mean share of the party's
    hit points lost; a 95% interval for each; and the verdict word (tables/sim/verdicts)."""

    win: float
    flee: float
    wiped: float
    drop: float
    rounds: float
    hp_lost: float
    trials: int
    verdict: str
    ci95: dict[str, tuple[float, float]] = field(default_factory=dict)
    party: str = ""  # "four level-1 characters"
    rules: str = "fmc"  # the rules system whose combat was simulated
    notes: list[str] = field(default_factory=list)  # what the simulation left out
    others: dict[str, Danger] = field(default_factory=dict)  # system key -> its own estimate
    # a fingerprint of the monsters fought (sim.danger.against_key): a kept estimate is used
    # again only while its room still holds the same fight
    against: str = ""

    def figures(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in FIGURES}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: round(getattr(self, k), 4) for k in SHARES}
        out["rounds"] = round(self.rounds, 2)
        out["trials"] = self.trials
        out["verdict"] = self.verdict
        out["ci95"] = {
            k: [round(lo, 4 if k in SHARES else 2), round(hi, 4 if k in SHARES else 2)]
            for k, (lo, hi) in self.ci95.items()
        }
        out["party"] = self.party
        out["rules"] = self.rules
        if self.notes:
            out["notes"] = list(self.notes)
        if self.others:
            out["others"] = {k: d.to_dict() for k, d in self.others.items()}
        if self.against:
            out["against"] = self.against
        return out

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Danger:
        f = doc.field
        ci = f(data, "ci95", dict, path, {})
        others = f(data, "others", dict, path, {})
        return cls(
            **{k: _number(data, k, path, 0, 1) for k in SHARES},
            rounds=_number(data, "rounds", path, 0, 10_000),
            trials=int(_number(data, "trials", path, 1, MAX_TRIALS)),
            verdict=f(data, "verdict", str, path),
            ci95={k: _interval(ci, k, f"{path}.ci95") for k in ci if k in FIGURES},
            party=f(data, "party", str, path, ""),
            rules=f(data, "rules", str, path, "fmc"),
            notes=doc.strings(data, "notes", path) if "notes" in data else [],
            others={k: Danger.from_dict(v, f"{path}.others.{k}") for k, v in others.items()},
            against=f(data, "against", str, path, ""),
        )


@dataclass
class RouteStep:
    """One occupied room on the way through a site, and the share of trials still going."""

    room: int
    through: float  # chance the party has won every fight so far, this one included
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "room": self.room,
            "through": round(self.through, 4),
            "ci95": [round(self.low, 4), round(self.high, 4)],
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> RouteStep:
        low, high = _interval(data, "ci95", path) if "ci95" in data else (0.0, 1.0)
        return cls(
            room=doc.field(data, "room", int, path),
            through=_number(data, "through", path, 0, 1),
            low=low,
            high=high,
        )


@dataclass
class Route:
    """One level's occupied rooms in key order, fought one after another without a rest: hit
    points, spent energy, broken shields and fallen characters carry from fight to fight."""

    level: int  # the level of the site (its loop), 1 at the top
    steps: list[RouteStep]
    trials: int
    party: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "party": self.party,
            "trials": self.trials,
            "steps": [s.to_dict() for s in self.steps],
        }

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Route:
        return cls(
            level=doc.field(data, "level", int, path, 1),
            steps=[RouteStep.from_dict(v, p) for p, v in doc.items(data, "steps", path)],
            trials=int(_number(data, "trials", path, 1, MAX_TRIALS)),
            party=doc.field(data, "party", str, path, ""),
        )
