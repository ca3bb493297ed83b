"""What a render needs besides the model: the rules system whose words it prints.

The CLI resolves the system once (it owns the tables) and renders inside `using_system(...)`.
A renderer asks `system_for(model)`; used as a library with no system set, it falls back to the
model's own `system` key over the built-in tables.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the systems load only when a render prints rules (not for JSON)
    from generator.systems import System

_SYSTEM: ContextVar[System | None] = ContextVar("delve_render_system", default=None)


@contextmanager
def using_system(system: System | None) -> Iterator[None]:
    token = _SYSTEM.set(system)
    try:
        yield
    finally:
        _SYSTEM.reset(token)


def system_for(model: Any) -> System:
    chosen = _SYSTEM.get()
    if chosen is not None:
        return chosen
    from generator.engine.tables import TableSet
    from generator.systems import get_system

    return get_system(TableSet.load(), getattr(model, "system", None) or None)


# Print black on white: the region map's colours become white land and grey water (its terrain
# symbols still tell biomes apart), so a photocopy reads like the original. `--mono`.
_MONO: ContextVar[bool] = ContextVar("delve_render_mono", default=False)


@contextmanager
def in_mono(on: bool) -> Iterator[None]:
    token = _MONO.set(on)
    try:
        yield
    finally:
        _MONO.reset(token)


def mono() -> bool:
    return _MONO.get()
