"""The wheel carries the built-in tables and the schema; `python -m generator` runs."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import generator
from generator.engine.tables import builtin_tables_dir

ROOT = Path(__file__).resolve().parent.parent


def _build_wheel(out: Path) -> tuple[Path | None, str]:
    """Build the project's wheel: offline first (hatchling from the test extras), then with
    pip's build isolation (which downloads hatchling). Returns (wheel, why not)."""
    attempts = [["--no-build-isolation"], []]
    why = ""
    for extra in attempts:
        cmd = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)]
        proc = subprocess.run(
            [*cmd, *extra],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        )
        wheels = sorted(out.glob("delve-*.whl"))
        if proc.returncode == 0 and wheels:
            return wheels[0], ""
        why += f"\n$ {' '.join(cmd + extra)}\n{proc.stderr.strip()[-1500:]}"
    return None, why


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("not run from a source checkout")
    built, why = _build_wheel(tmp_path_factory.mktemp("wheel"))
    if built is None:
        if "hatchling" in why.lower() or "network" in why.lower() or "connection" in why.lower():
            pytest.skip(f"cannot build a wheel here (no hatchling, no network):{why}")
        pytest.fail(f"pip wheel failed:{why}")
    return built


def test_wheel_ships_the_tables_and_schema(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "generator/_data/tables/site/obstacles.yaml" in names
    assert "generator/_data/tables/schema/table.schema.json" in names
    assert "generator/engine/tables.py" in names
    # Every built-in table of the checkout is in the wheel.
    source = ROOT / "tables"
    for path in source.rglob("*.yaml"):
        rel = path.relative_to(source).as_posix()
        assert f"generator/_data/tables/{rel}" in names, rel


def test_wheel_declares_the_console_script(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        entry_points = next(n for n in zf.namelist() if n.endswith("entry_points.txt"))
        text = zf.read(entry_points).decode()
    assert "delve = generator.cli:main" in text


def test_python_dash_m_generator_version(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"delve {generator.__version__}\n"
    assert proc.stderr == ""


def test_builtin_tables_are_found_from_anywhere(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "tables", "roll", "site/obstacles", "--seed", "x"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={**os.environ, "DELVE_TABLES": ""},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("[")
    assert (builtin_tables_dir() / "schema" / "table.schema.json").is_file()


@pytest.mark.skipif(
    not os.environ.get("DELVE_EXPECT_INSTALLED"), reason="set by .ci/run, which tests the wheel"
)
def test_ci_tests_the_installed_package_not_the_checkout() -> None:
    here = Path(generator.__file__).resolve()
    assert here.parent != ROOT / "generator", f"imported the checkout: {here}"
    assert "site-packages" in here.parts, here
    assert builtin_tables_dir().parts[-2:] == ("_data", "tables")


def test_no_module_imports_click_directly():
    """typer 0.28+ carries its own click and does not install the real one: `import click`
    works on a developer's machine that happens to have it and fails on a fresh install."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "generator"
    offenders = [
        str(p.relative_to(root.parent))
        for p in root.rglob("*.py")
        if re.search(r"^\s*(import click|from click\b)", p.read_text(), re.MULTILINE)
    ]
    assert offenders == []


def test_a_site_as_json_loads_none_of_the_heavy_libraries():
    """Issue 10 and 13: `delve site --format json` starts within 1.3 x the import of its
    libraries (bench/bench_site.py). It reaches that by importing what it uses: no networkx
    (only graphml and the tests build a graph), no numpy (the simulation), no jinja2,
    weasyprint or PIL (the booklets and pictures)."""
    code = (
        "import sys, generator.cli as c\n"
        "try:\n    c.main(['site', '--seed', 'harrowdeep', '-f', 'json'])\n"
        "except SystemExit:\n    pass\n"
        "heavy = {'networkx', 'numpy', 'jinja2', 'weasyprint', 'PIL'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout[-300:]
