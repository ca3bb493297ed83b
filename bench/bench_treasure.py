"""Treasure speed: hoards and magic weapons rolled per second, in one process.

Each thing is rolled from its own child address (as `delve hoard --count N` does), so the
figures include deriving that Rng. Prints one JSON line per figure: the median of 5 runs.

    python bench/bench_treasure.py [N]
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from generator.build.treasure import POWER_DICE, roll_hoard, roll_weapon
from generator.engine.rng import Rng
from generator.engine.tables import TableSet  # noqa: E402

RUNS = 5


def bench_hoards(ts: TableSet, n: int, run: int) -> float:
    root = Rng(f"bench/hoards/{run}")
    start = time.perf_counter()
    for i in range(n):
        level = 1 + i % 10
        # One of a level-L site's two hoards, its holders' die cycling mook to boss.
        roll_hoard(ts, root.child(f"hoard/{i}"), 500 * level, level, POWER_DICE[i % 5])
    return n / (time.perf_counter() - start)


def bench_weapons(ts: TableSet, n: int, run: int) -> float:
    root = Rng(f"bench/weapons/{run}")
    start = time.perf_counter()
    for i in range(n):
        roll_weapon(ts, root.child(f"weapon/{i}"), POWER_DICE[i % 5])
    return n / (time.perf_counter() - start)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    ts = TableSet.load(use_env=False)
    roll_hoard(ts, Rng("warm"), 1000)  # build the per-TableSet lookups outside the timing
    roll_weapon(ts, Rng("warm"), "d12")
    for name, fn in (("hoards_per_s", bench_hoards), ("weapons_per_s", bench_weapons)):
        rates = [fn(ts, n, run) for run in range(RUNS)]
        print(
            json.dumps(
                {
                    "bench": "treasure",
                    "metric": name,
                    "median": round(statistics.median(rates)),
                    "runs": [round(r) for r in rates],
                    "n": n,
                }
            )
        )


if __name__ == "__main__":
    main()
