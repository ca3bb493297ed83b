"""Map figures (issue 10's budget): layout plus SVG of a six-room level (target 20 ms or less,
median), of a whole 36-room site (200 ms or less), six-room sites with their plan generated per
second in one process (1,000 or more), and `delve site --rooms 36 --format png` end to end
beside the same command with `--format json` (within 2 x; paired runs, median of the ratios).
Run alone with `python bench/bench_maps.py` or through bench/run.py.
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
from generator.plan import plan_site  # noqa: E402
from generator.render.map_draw import level_drawing  # noqa: E402
from generator.render.map_svg import drawing_svg  # noqa: E402


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"bench": name, "value": round(value, 3), "unit": unit, **extra}))


def layout_and_svg_ms(sites: list, clock=time.perf_counter) -> list[float]:  # noqa: ANN001
    """Per site: lay every level out afresh and draw every level as SVG."""
    out = []
    for site in sites:
        start = clock()
        plan_site(site, Rng(site.seed).child("plan"))
        for depth in range(1, site.levels + 1):
            drawing_svg(level_drawing(site, depth))
        out.append((clock() - start) * 1000)
    return out


def sites_per_second(tables: TableSet, count: int, clock=time.perf_counter) -> float:  # noqa: ANN001
    start = clock()
    for i in range(count):
        generate_site(tables, Rng(f"bench/maps/{i}"), level=1 + i % 10)
    return count / (clock() - start)


def reference_rate(clock=time.perf_counter) -> float:  # noqa: ANN001
    """Thousands of steps a second of a fixed pure-Python loop (tuples into a dict and a set,
    as the planner works): the machine's own speed at the moment, measured beside the sites.
    These machines are shared and their speed swings by half from hour to hour; the ratio of
    sites to this loop holds still where the raw figure does not."""
    start = clock()
    seen: dict[tuple[int, int], int] = {}
    near: set[tuple[int, int]] = set()
    for i in range(100_000):
        cell = (i % 97, i % 89)
        seen[cell] = seen.get(cell, 0) + 1
        near.add((cell[0] + 1, cell[1]))
    return 100 / (clock() - start)


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main(quick: bool = False) -> None:
    tables = TableSet.load(use_env=False)
    n = 20 if quick else 100
    six = [generate_site(tables, Rng(f"bench/six/{i}"), level=1 + i % 10) for i in range(n)]
    big = [generate_site(tables, Rng(f"bench/big/{i}"), rooms=36) for i in range(n // 5)]
    layout_and_svg_ms(six[:10])  # warm
    # Wall clock, and the process's own CPU time beside it: on a machine shared with other
    # work the first counts the waiting too, the second what the work itself costs.
    cpu = time.process_time
    emit("layout + SVG, six-room level", statistics.median(layout_and_svg_ms(six)), "ms", target=20)
    emit("  the same, CPU time", statistics.median(layout_and_svg_ms(six, cpu)), "ms", target=20)
    emit("layout + SVG, 36-room site", statistics.median(layout_and_svg_ms(big)), "ms", target=200)
    emit("  the same, CPU time", statistics.median(layout_and_svg_ms(big, cpu)), "ms", target=200)
    count = 200 if quick else 1000
    walls, refs = [], []
    for _ in range(5):  # each run beside the reference loop, so both see the same machine
        refs.append(reference_rate())
        walls.append(sites_per_second(tables, count))
    emit("six-room sites with their plan", statistics.median(walls), "sites/s", target=1000)
    runs = [sites_per_second(tables, count, cpu) for _ in range(5)]
    emit("  the same, CPU time", statistics.median(runs), "sites/s", target=1000)
    emit("  reference loop (machine speed)", statistics.median(refs), "k steps/s")
    ratio = statistics.median(w / f for w, f in zip(walls, refs, strict=True))
    emit("  sites per k reference steps", ratio, "ratio")

    delve = delve_command()
    env = dict(os.environ, DELVE_CACHE_DIR=tempfile.mkdtemp(prefix="delve-bench-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = Path(tempfile.mkdtemp(prefix="delve-bench-maps-"))
    base = [*delve, "site", "--seed", "harrowdeep", "--rooms", "36", "--format", "json"]
    png = [*base[:-1], "png", "-o", str(out / "map.png")]
    wall(base, env)  # fill the tables cache and compile, as any first run does
    wall(png, env)
    pairs = [(wall(base, env), wall(png, env)) for _ in range(3 if quick else 9)]
    emit("delve site --rooms 36 --format json", statistics.median(p[0] for p in pairs), "s")
    emit("delve site --rooms 36 --format png", statistics.median(p[1] for p in pairs), "s")
    ratio = statistics.median(p[1] / p[0] for p in pairs)
    emit("36-room png / json (median of paired runs)", ratio, "x", target=2.0)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
