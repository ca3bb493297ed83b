"""Site figures: 36-room sites per second (generation only; six-room sites are timed in
bench_maps.py, beside the machine's reference loop), and `delve site --format json` end to end
beside `python -c "import typer, networkx, yaml"` (the issue's yardstick: within 1.3 x). Run
alone with `python bench/bench_site.py` or through bench/run.py.
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

from generator.build.site import generate_site  # noqa: E402
from generator.engine.rng import Rng  # noqa: E402
from generator.engine.tables import TableSet  # noqa: E402


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"bench": name, "value": round(value, 3), "unit": unit, **extra}))


def sites_per_second(tables: TableSet, rooms: int, count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        generate_site(tables, Rng(f"bench/{rooms}/{i}"), level=1 + i % 10, rooms=rooms)
    return count / (time.perf_counter() - start)


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main(quick: bool = False) -> None:
    tables = TableSet.load(use_env=False)
    for i in range(50):
        generate_site(tables, Rng(f"warm/{i}"))
    n = 30 if quick else 300
    runs = [sites_per_second(tables, 36, n) for _ in range(5)]
    emit("site generation, 36 rooms", statistics.median(runs), "sites/s", runs=5)

    delve = delve_command()
    env = dict(os.environ, DELVE_CACHE_DIR=tempfile.mkdtemp(prefix="delve-bench-"))
    # As installed for a user: compiled bytecode is written once and reused, on both sides.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    base_cmd = [sys.executable, "-c", "import typer, networkx, yaml"]
    site_cmd = [*delve, "site", "--seed", "harrowdeep", "--format", "json"]
    wall(site_cmd, env)  # fills the tables cache, as any first run does
    pairs = [(wall(base_cmd, env), wall(site_cmd, env)) for _ in range(5 if quick else 11)]
    base = statistics.median(p[0] for p in pairs)
    site = statistics.median(p[1] for p in pairs)
    ratios = statistics.median(p[1] / p[0] for p in pairs)
    emit("import typer, networkx, yaml", base, "s")
    emit("delve site --format json, end to end", site, "s")
    emit("site json / import baseline (median of paired runs)", ratios, "x", target=1.3)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
