"""Booklet figures: site and region booklet PDFs end to end, and what our code adds on top of
WeasyPrint's own rendering of the same HTML.

    python bench/bench_booklet.py           # or through bench/run.py
    python bench/bench_booklet.py --quick   # fewer runs

Targets from issue 6: a six-room site booklet PDF under 3 s end to end (`delve site ... --format
pdf`, a fresh process), a seven-hex region booklet under 10 s, and under 15 % added on top of
WeasyPrint (Jinja, the URL fetcher, the log relay and the reproducible-font step, against
`weasyprint.HTML(string=html).write_pdf()` of the very same HTML, paired runs in one process).
Medians of several runs; the figures assert nothing.
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
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import generator  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent))

from delve_cmd import delve_command  # noqa: E402  (bench/ is on sys.path)

from generator.build.region import generate_region  # noqa: E402
from generator.build.site import generate_site  # noqa: E402
from generator.engine.rng import Rng  # noqa: E402
from generator.engine.tables import TableSet  # noqa: E402
from generator.render import booklet, pdf, templating  # noqa: E402

SEED = "harrowdeep"


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"bench": name, "value": round(value, 3), "unit": unit, **extra}), flush=True)


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


WEASYPRINT_ALONE = (
    "import sys, weasyprint; "
    "weasyprint.HTML(string=open(sys.argv[1], encoding='utf-8').read()).write_pdf(sys.argv[2])"
)


def end_to_end(runs: int) -> None:
    """`delve ... --format pdf` in a fresh process, paired with WeasyPrint alone turning the same
    booklet's HTML into a PDF in a fresh process: on a busy machine both slow down together,
    and the difference is what Delve adds (start-up, tables, generation, templates)."""
    delve = delve_command()
    out = Path(tempfile.mkdtemp(prefix="delve-bench-booklet-"))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode written once, reused
    for kind, target, count in (("site", 3, runs), ("region", 10, max(1, runs - 2))):
        cmd = [*delve, kind, "--seed", SEED, "--format", "pdf", "-o", str(out / f"{kind}.pdf")]
        html = out / f"{kind}.html"
        wall([*delve, kind, "--seed", SEED, "--format", "html", "-o", str(html)], env)
        alone = [sys.executable, "-c", WEASYPRINT_ALONE, str(html), str(out / "alone.pdf")]
        wall(cmd, env)  # warm: bytecode and the tables cache, as any first run leaves them
        pairs = [(wall(cmd, env), wall(alone, env)) for _ in range(count)]
        ours = [p[0] for p in pairs]
        what = "6 rooms" if kind == "site" else "7 hexes"
        emit(
            f"{kind} booklet pdf ({what}), end to end",
            statistics.median(ours),
            "s",
            target=target,
            runs=count,
            min=round(min(ours), 3),
        )
        emit(
            f"{kind} booklet: weasyprint alone on its html, fresh process",
            statistics.median(p[1] for p in pairs),
            "s",
            runs=count,
        )
        emit(
            f"{kind} booklet: delve end to end minus weasyprint alone",
            statistics.median(p[0] - p[1] for p in pairs),
            "s",
            runs=count,
        )
    shutil.rmtree(out, ignore_errors=True)


def overhead(name: str, model: object, runs: int) -> None:
    """Our whole path (HTML from the templates, compiled afresh as in a new process, then our
    PDF step) against WeasyPrint alone on the HTML we made, in pairs so a busy machine slows
    both alike; and the same without our font-subsetting shortcut, to show what the rest costs."""
    import weasyprint

    options = booklet.make_options()
    html = booklet.booklet_html(model, options)
    weasyprint.HTML(string="<p>warm</p>").write_pdf()

    def ours(shortcut: bool) -> float:
        templating.environment.cache_clear()  # templates compiled again, as a fresh `delve` does
        pdf.SUBSET_SHORTCUT = shortcut
        try:
            return timed(lambda: pdf.html_to_pdf(booklet.booklet_html(model, options), options))
        finally:
            pdf.SUBSET_SHORTCUT = True

    rows: dict[str, list[float]] = {"plain": [], "ours": [], "ours, no shortcut": []}
    for _ in range(runs):
        rows["plain"].append(timed(lambda: weasyprint.HTML(string=html).write_pdf()))
        rows["ours"].append(ours(True))
        rows["ours, no shortcut"].append(ours(False))
    templating.environment.cache_clear()
    cold_html = timed(lambda: booklet.booklet_html(model, options))
    plain = statistics.median(rows["plain"])
    emit(f"{name}: weasyprint alone on our html", plain, "s", runs=runs)
    emit(f"{name}: html from the templates (compiled afresh)", cold_html, "s")
    for key in ("ours", "ours, no shortcut"):
        ratios = [o / p - 1 for o, p in zip(rows[key], rows["plain"], strict=True)]
        emit(f"{name}: {key}, html + pdf", statistics.median(rows[key]), "s", runs=runs)
        emit(
            f"{name}: {key}, added on top of weasyprint",
            100 * statistics.median(ratios),
            "%",
            target=15,
            runs=runs,
        )


def main(quick: bool = False) -> None:
    runs = 3 if quick else 5
    end_to_end(runs)
    tables = TableSet.load(use_env=False)
    overhead("site booklet", generate_site(tables, Rng(SEED)), runs)
    overhead("region booklet", generate_region(tables, Rng(SEED)), max(2, runs - 2))


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
