"""Export figures, end to end through the CLI as a referee runs it (median of paired runs):

- `delve site --rooms 36 --format foundry` beside the same site `--format png` (the issue's
  yardstick: within 1.5 x).
- `delve region --radius 3 --format vault` (the issue's target: under 5 s here), and the same
  region `--format foundry`.

Run alone with `python bench/bench_export.py` (`--quick`: three runs, not seven) or through
bench/run.py. Delve is run as the Python running this file has it: the `delve` script beside
that interpreter (a venv's), else `python -m generator`; never whatever `delve` is first on the
PATH, which may be another checkout's. A run that fails stops the bench with its error.
"""

from __future__ import annotations

import json
import os
import shutil
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


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"bench": name, "value": round(value, 3), "unit": unit, **extra}), flush=True)


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    res = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    took = time.perf_counter() - start
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({res.returncode}): {res.stderr.strip()}")
    return took


def main(quick: bool = False) -> None:
    delve = delve_command()
    print(f"bench_export: running {' '.join(delve)}", file=sys.stderr, flush=True)
    runs = 3 if quick else 7
    cache = tempfile.mkdtemp(prefix="delve-bench-")
    env = dict(os.environ, DELVE_CACHE_DIR=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    work = Path(tempfile.mkdtemp(prefix="delve-bench-export-"))
    site = [*delve, "site", "--seed", "bench/export", "--rooms", "36"]
    yard = "png"
    n = 0

    def fresh() -> str:
        nonlocal n
        n += 1
        return str(work / f"out{n}")

    wall([*site, "--format", "json"], env)  # fills the tables cache, as any first run does
    pairs = []
    for _ in range(runs):
        base = wall([*site, "--format", yard, "-o", fresh() + f".{yard}"], env)
        pairs.append((base, wall([*site, "--format", "foundry", "-o", fresh()], env)))
    emit(f"delve site --rooms 36 --format {yard}", statistics.median(p[0] for p in pairs), "s")
    emit("delve site --rooms 36 --format foundry", statistics.median(p[1] for p in pairs), "s")
    emit(
        f"site foundry / {yard} (median of paired runs)",
        statistics.median(p[1] / p[0] for p in pairs),
        "x",
        target=1.5,
    )
    region = [*delve, "region", "--seed", "bench/export", "--radius", "3"]
    times = [wall([*region, "--format", "vault", "-o", fresh()], env) for _ in range(runs)]
    emit("delve region --radius 3 --format vault", statistics.median(times), "s", target=5.0)
    times = [wall([*region, "--format", "foundry", "-o", fresh()], env) for _ in range(runs)]
    emit("delve region --radius 3 --format foundry", statistics.median(times), "s")
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
