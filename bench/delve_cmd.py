"""The `delve` a benchmark runs: this interpreter's (the venv's script, else the package run as
a module), never whatever `delve` comes first on the PATH, which may be another checkout's or
missing (a bench that found none used to skip its figures without a word)."""

from __future__ import annotations

import sys
from pathlib import Path


def delve_command() -> list[str]:
    script = Path(sys.executable).with_name("delve")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "generator"]
