"""Region speed and memory: radius 10, 20, 30 and 40, each run in a fresh process.

Every site and lair is generated in full (a radius-40 region has 4,921 hexes and about 1,100
six-room sites). Each run is a child process, so its peak resident memory (ru_maxrss) is that
region's alone; the figures are medians of 3 runs (seeds differ per run). Prints one JSON line
per radius:

    python bench/bench_region.py            # radius 10, 20, 30, 40
    python bench/bench_region.py 10 20      # just these radii

`generate_s` is generate_region() in a process that has only loaded the tables (so it includes
building the per-TableSet lookups), `json_s` is writing the document as JSON; `tables_rss_mb` is
the child's memory once the tables were loaded, `generate_rss_mb` its peak after generating and
`peak_rss_mb` its peak after the JSON too.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RADII = (10, 20, 30, 40)
RUNS = 3


def child(radius: int, seed: str) -> None:
    """One measured run (in its own process)."""
    from generator.build.region import generate_region
    from generator.engine.rng import Rng
    from generator.engine.tables import TableSet
    from generator.render.documents import to_json

    start = time.perf_counter()
    ts = TableSet.load(use_env=False)
    load_s = time.perf_counter() - start
    tables_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    region = generate_region(ts, Rng(seed), radius=radius)
    generate_s = time.perf_counter() - start
    generate_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    text = to_json(region)
    json_s = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    print(
        json.dumps(
            {
                "hexes": len(region.hexes),
                "sites": sum(1 for h in region.hexes if h.site),
                "load_s": load_s,
                "generate_s": generate_s,
                "json_s": json_s,
                "json_mb": len(text.encode()) / 1e6,
                "tables_rss_mb": tables_rss / scale,
                "generate_rss_mb": generate_rss / scale,
                "peak_rss_mb": peak / scale,
            }
        )
    )


def measure(radius: int, run: int) -> dict:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(radius), f"bench-{run}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--child"]:
        child(int(args[1]), args[2])
        return
    radii = [int(a) for a in args] or list(RADII)
    for radius in radii:
        runs = [measure(radius, run) for run in range(RUNS)]

        def med(key: str, runs: list[dict] = runs) -> float:
            return round(statistics.median(r[key] for r in runs), 3)

        print(
            json.dumps(
                {
                    "bench": "region",
                    "radius": radius,
                    "hexes": runs[0]["hexes"],
                    "sites": med("sites"),
                    "generate_s": med("generate_s"),
                    "json_s": med("json_s"),
                    "json_mb": med("json_mb"),
                    "load_s": med("load_s"),
                    "tables_rss_mb": med("tables_rss_mb"),
                    "generate_rss_mb": med("generate_rss_mb"),
                    "peak_rss_mb": med("peak_rss_mb"),
                    "runs": RUNS,
                    "generate_s_runs": [round(r["generate_s"], 3) for r in runs],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
