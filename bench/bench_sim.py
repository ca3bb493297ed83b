"""Simulated-combat figures: fights a second of a typical room (four level-1 characters against
six hoblins) at the default 2,000 trials and in big batches, and what danger adds to a six-room
site, in process and end to end (`delve site` with and without --no-danger, paired runs).
The issue's targets: at least 50,000 fights/s in one process; under 0.3 s added to a site.
Run alone with `python bench/bench_sim.py [--quick]` or through bench/run.py.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import generator  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent))

from delve_cmd import delve_command  # noqa: E402  (bench/ is on sys.path)

from generator.build.monsters import bestiary  # noqa: E402
from generator.build.site import generate_site  # noqa: E402
from generator.engine.rng import Rng  # noqa: E402
from generator.engine.tables import TableSet  # noqa: E402
from generator.sim.danger import estimate_site, foes  # noqa: E402
from generator.sim.engine import fight  # noqa: E402
from generator.sim.party import default_party  # noqa: E402
from generator.sim.rules import tactics  # noqa: E402

RUNS = 5


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"bench": name, "value": round(value, 3), "unit": unit, **extra}), flush=True)


def fights_per_second(
    tables: TableSet, monster: str, count: int, trials: int, batches: int
) -> tuple[float, float]:
    """Median fights a second by wall clock and by the process's CPU time (on a shared machine
    the second is the better guess at what a quiet one gives)."""
    party = default_party(tables, 1)
    m = bestiary(tables).find(monster)
    groups = list(foes(tables, [(m, str(count))]).groups)
    t = tactics(tables)
    rates, cpu_rates = [], []
    for run in range(RUNS):
        start, cpu = time.perf_counter(), time.process_time()
        for b in range(batches):
            fight(party, groups, t, trials, 1000 * run + b)
        rates.append(trials * batches / (time.perf_counter() - start))
        cpu_rates.append(trials * batches / max(time.process_time() - cpu, 1e-9))
    return statistics.median(rates), statistics.median(cpu_rates)


def site_danger_seconds(tables: TableSet, sites: int) -> tuple[float, float]:
    """Median seconds of one site's danger, by wall clock and by CPU time."""
    times, cpu_times = [], []
    for i in range(sites):
        site = generate_site(tables, Rng(f"bench/danger/{i}"), level=1 + i % 5)
        start, cpu = time.perf_counter(), time.process_time()
        estimate_site(tables, site)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu)
    return statistics.median(times), statistics.median(cpu_times)


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main(quick: bool = False) -> None:
    tables = TableSet.load(use_env=False)
    fight(
        default_party(tables, 1),
        list(foes(tables, [(bestiary(tables).find("Hoblin"), "6")]).groups),
        tactics(tables),
        100,
        0,
    )
    wall_rate, cpu_rate = fights_per_second(tables, "Hoblin", 6, 2000, 5 if quick else 20)
    emit(
        "fights/s, 4 level-1 characters vs 6 hoblins, 2,000 trials a call",
        wall_rate,
        "fights/s",
        target=50_000,
        cpu_time=round(cpu_rate),
    )
    wall_rate, cpu_rate = fights_per_second(tables, "Porc", 6, 2000, 5 if quick else 20)
    emit(
        "fights/s, 4 level-1 characters vs 6 porcs, 2,000 trials a call",
        wall_rate,
        "fights/s",
        target=50_000,
        cpu_time=round(cpu_rate),
    )
    wall_rate, cpu_rate = fights_per_second(tables, "Hoblin", 6, 100_000, 1 if quick else 3)
    emit(
        "fights/s, 4 level-1 characters vs 6 hoblins, 100,000 trials a call",
        wall_rate,
        "fights/s",
        cpu_time=round(cpu_rate),
    )
    wall_s, cpu_s = site_danger_seconds(tables, 5 if quick else 21)
    emit(
        "danger of a six-room site (rooms, encounters, route), in process",
        wall_s,
        "s",
        target=0.3,
        cpu_time=round(cpu_s, 3),
    )
    delve = delve_command()
    env = dict(os.environ, DELVE_CACHE_DIR=tempfile.mkdtemp(prefix="delve-bench-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with_danger = [*delve, "site", "--seed", "harrowdeep", "--format", "text"]
    without = [*with_danger, "--no-danger"]
    wall(with_danger, env)
    pairs = [(wall(without, env), wall(with_danger, env)) for _ in range(5 if quick else 11)]
    emit(
        "delve site --format text --no-danger, end to end",
        statistics.median(p[0] for p in pairs),
        "s",
    )
    emit(
        "delve site --format text (with danger), end to end",
        statistics.median(p[1] for p in pairs),
        "s",
    )
    emit(
        "danger added to delve site --format text (median of paired runs)",
        statistics.median(p[1] - p[0] for p in pairs),
        "s",
        target=0.3,
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
