"""Delve's benchmarks: figures as JSON lines, each the median of 5 runs.

    python bench/run.py            # the engine's figures, then every bench/bench_*.py, each
                                   # in a process of its own
    python bench/run.py --quick    # fewer iterations (a smoke run)
    python bench/run.py --only     # the engine's figures alone

Each line is {"bench": name, "value": number, "unit": unit}. The issue's targets for the engine:
at least 300,000 rolls/s on a d6 table (site/obstacles) and 100,000 rolls/s on a table nested
two levels deep. Benchmarks print figures; they assert nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent

try:
    import generator  # noqa: F401
except ImportError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(HERE.parent))

from generator.engine.dice import parse  # noqa: E402
from generator.engine.rng import Rng  # noqa: E402
from generator.engine.tables import TableSet  # noqa: E402

RUNS = 5

# Three tables, each result of one referring to the next: rolling `bench/top` rolls two nested
# tables beneath it, a die table and a weighted one, as content tables do.
NESTED = {
    "bench/top.yaml": """\
        title: Bench top
        die: d6
        entries:
          - roll: 1-3
            result: "In the room: {@bench/mid}."
          - roll: 4-6
            result: "Beyond the door: {@bench/mid}."
        """,
    "bench/mid.yaml": """\
        title: Bench middle
        entries:
          - result: "a chest holding {@bench/leaf}"
            weight: 2
          - result: "a sack of {@bench/leaf}"
        """,
    "bench/leaf.yaml": """\
        title: Bench leaf
        die: d6
        entries:
          - roll: 1-2
            result: gold
          - roll: 3-4
            result: silver
          - roll: 5-6
            result: old bones
        """,
}


def emit(bench: str, value: float, unit: str) -> None:
    print(json.dumps({"bench": bench, "value": round(value, 6), "unit": unit}), flush=True)


def median_rate(make_loop: Callable[[int], Callable[[], None]], n: int) -> float:
    """Median calls per second over RUNS timed runs of n calls each."""
    rates = []
    for run in range(RUNS):
        loop = make_loop(run)
        start = time.perf_counter()
        loop()
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def dice_rate(formula: str, n: int) -> float:
    roll = parse(formula).roll

    def make(run: int) -> Callable[[], None]:
        rng = Rng(f"bench/dice/{formula}/{run}")

        def loop() -> None:
            for _ in range(n):
                roll(rng)

        return loop

    return median_rate(make, n)


def table_rate(ts: TableSet, table_id: str, n: int) -> float:
    roll = ts.roll
    roll(table_id, Rng("warm"))

    def make(run: int) -> Callable[[], None]:
        rng = Rng(f"bench/table/{table_id}/{run}")

        def loop() -> None:
            for _ in range(n):
                roll(table_id, rng)

        return loop

    return median_rate(make, n)


def load_seconds(cached: bool) -> float:
    """Median time to load the built-ins: parsing every file, or from the tables cache."""
    saved = os.environ.get("DELVE_NO_CACHE")
    if cached:
        os.environ.pop("DELVE_NO_CACHE", None)
        TableSet.load(use_env=False)  # fill the cache
    else:
        os.environ["DELVE_NO_CACHE"] = "1"
    try:
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            TableSet.load(use_env=False)
            times.append(time.perf_counter() - start)
    finally:
        if saved is None:
            os.environ.pop("DELVE_NO_CACHE", None)
        else:
            os.environ["DELVE_NO_CACHE"] = saved
    return statistics.median(times)


def engine(quick: bool) -> None:
    scale = 10 if quick else 1
    emit("dice_d6_rolls_per_s", dice_rate("d6", 500_000 // scale), "rolls/s")
    emit("dice_3d6x10_rolls_per_s", dice_rate("3d6x10", 200_000 // scale), "rolls/s")
    builtins = TableSet.load(use_env=False)
    emit(
        "table_d6_rolls_per_s",
        table_rate(builtins, "site/obstacles", 300_000 // scale),
        "rolls/s",
    )
    with tempfile.TemporaryDirectory(prefix="delve-bench-") as tmp:
        for rel, text in NESTED.items():
            path = Path(tmp) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        nested = TableSet.load([tmp], use_env=False)
    emit(
        "table_nested2_rolls_per_s",
        table_rate(nested, "bench/top", 200_000 // scale),
        "rolls/s",
    )
    emit("load_builtin_tables_s", load_seconds(cached=False), "s")
    emit("load_builtin_tables_cached_s", load_seconds(cached=True), "s")


def others(quick: bool) -> int:
    """Run every other bench/bench_*.py, each in a fresh interpreter of its own, as pyperf does:
    a bench run after another in one process inherits its heap (WeasyPrint's fonts, thousands of
    sites) and read 5 to 8% slower than alone. A failing one is reported; the rest go on."""
    failures = 0
    for path in sorted(HERE.glob("bench_*.py")):
        cmd = [sys.executable, str(path), *(["--quick"] if quick else [])]
        done = subprocess.run(cmd, check=False)  # (its figures straight to our stdout)
        if done.returncode != 0:
            failures += 1
            print(f"bench: {path.name} failed (exit {done.returncode})", file=sys.stderr)
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Delve benchmarks (JSON lines on stdout).")
    parser.add_argument("--quick", action="store_true", help="a tenth of the iterations")
    parser.add_argument("--only", action="store_true", help="the engine's figures alone")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="delve-bench-cache-") as cache:
        # A tables cache of the bench's own: the user's is neither read nor filled.
        os.environ.setdefault("DELVE_CACHE_DIR", cache)
        engine(args.quick)
        if args.only:
            return 0
        return 1 if others(args.quick) else 0


if __name__ == "__main__":
    sys.exit(main())
