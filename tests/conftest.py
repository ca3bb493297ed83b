"""Shared fixtures: a guard on the global random state, the built-in tables, and a CLI runner."""

from __future__ import annotations

import contextlib
import os
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.rich_utils  # noqa: F401  (rich draws from global random on first import)

import generator.cli
from generator.cli.common import state
from generator.engine.tables import TableSet

# Helper modules beside the tests (foundry_docs.py) import by name in pytest's importlib mode too,
# which CI uses and which puts no test folder on sys.path.
sys.path.insert(0, str(Path(__file__).parent))

# The suite keeps its own tables cache, so it neither reads nor fills the user's.
os.environ["DELVE_CACHE_DIR"] = tempfile.mkdtemp(prefix="delve-test-cache-")


@pytest.fixture(autouse=True)
def _global_random_untouched(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail any test that draws from (or reseeds) the global `random` module.

    Delve passes an Rng down everywhere; a draw from the module-level generator would make
    output depend on whatever else ran first (the same guard Hypothesis keeps on itself).
    """
    before = random.getstate()
    yield
    if random.getstate() != before:
        random.setstate(before)
        pytest.fail(f"{request.node.nodeid} changed the global random state", pytrace=False)


@pytest.fixture(autouse=True)
def _no_user_tables_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A DELVE_TABLES set in the shell must not leak into tests (tests set it when they mean to)."""
    monkeypatch.delenv("DELVE_TABLES", raising=False)


@pytest.fixture(scope="session")
def builtin_tables() -> TableSet:
    """The built-in tables alone (DELVE_TABLES ignored), loaded once for the session."""
    return TableSet.load(use_env=False)


@pytest.fixture(scope="session")
def site_doc(builtin_tables: TableSet) -> dict:
    """A saved site (12 rooms) for the hostile-document tests to edit."""
    from generator.build.site import generate_site
    from generator.engine.rng import Rng

    return generate_site(builtin_tables, Rng("hostile-site"), rooms=12).to_dict()


@pytest.fixture(scope="session")
def region_doc(builtin_tables: TableSet) -> dict:
    """A saved region (the default radius) for the hostile-document tests to edit."""
    from generator.build.region import generate_region
    from generator.engine.rng import Rng

    return generate_region(builtin_tables, Rng("hostile-region")).to_dict()


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def _reset_state() -> None:
    state.tables_dirs = []
    state.seed = None
    state.debug = False
    state._tables = None


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Iterator[Callable[..., CliResult]]:
    """Run `delve ARGS...` in process: run_cli("tables", "roll", "site/obstacles").

    Returns .code (0 when main() returns), .out and .err. The CLI's global state is reset
    before and after every run so runs never see each other's --tables or --seed.
    """

    def run(*args: str) -> CliResult:
        _reset_state()
        capsys.readouterr()  # drop anything printed before this run
        try:
            generator.cli.main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            if exc.code is None:
                code = 0
            elif isinstance(exc.code, int):
                code = exc.code
            else:  # sys.exit("message") prints the message and exits 1
                code = 1
        finally:
            _reset_state()
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    yield run
    _reset_state()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        help="Rewrite the golden files under tests/golden/ from the current output.",
    )


def _address_space() -> int:
    """Bytes of address space this process uses now (0 where /proc cannot tell)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@pytest.fixture
def bounded() -> Callable[..., contextlib.AbstractContextManager[None]]:
    """with bounded(seconds=30, memory_mb=1024): a harmful probe (an alias bomb, a huge die, a
    runaway template) fails this test at once past either bound, in this process, instead of
    hanging CI or eating the machine: memory past the bound raises MemoryError, time past it
    raises TimeoutError from a SIGALRM."""
    import resource
    import signal

    @contextlib.contextmanager
    def limit(seconds: float = 30, memory_mb: int = 1024) -> Iterator[None]:
        old_as = resource.getrlimit(resource.RLIMIT_AS)
        used = _address_space()
        if used:
            wanted = used + memory_mb * 1024 * 1024
            if old_as[1] == resource.RLIM_INFINITY or wanted < old_as[1]:
                resource.setrlimit(resource.RLIMIT_AS, (wanted, old_as[1]))

        def too_long(signum: int, frame: object) -> None:
            raise TimeoutError(f"the probe took more than {seconds} s")

        old_handler = signal.signal(signal.SIGALRM, too_long)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
            resource.setrlimit(resource.RLIMIT_AS, old_as)

    return limit
