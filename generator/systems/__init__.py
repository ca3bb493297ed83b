"""Rules systems: every stat block and procedure in FMC Basic, (Fortmayn), f4c or Fantasy Core.

The model stays in FMC Basic terms; a system converts it. Its numbers and words are tables under
``tables/systems/KEY/`` (docs/systems.md), so a referee can tune them and a fifth system is only
YAML. Renderers use it like this::

    system = get_system(tables, "f4c")         # DelveError listing the systems if unknown
    block = system.stat_block(monster)         # StatBlock: .fields [(label, value)], .notes, .line
    system.stat_line(monster)                  # 'Def 8, HP 28, Atk +2, ...'
    system.term("locked_door")                 # the system's words for a procedure
    system.obstacle_text(connection.obstacle)  # locked_door, hidden_door, long_corridor, none
    system.trap_text(trap)                     # by the trap's save (dodge, endure, resolve)
    system.random_events(site)                 # [RandomEvent] for (Fortmayn), else None
    system.procedures()                        # [(key, text)]: the general rules, for a page
"""

from generator.systems.core import System
from generator.systems.registry import (
    all_systems,
    default_system,
    get_system,
    system_keys,
    unknown_system_message,
)
from generator.systems.results import RandomEvent, StatBlock
from generator.systems.spec import PROCEDURE_KEYS, TERM_KEYS
from generator.systems.specials import classify, is_deadly, special_kinds

__all__ = [
    "PROCEDURE_KEYS",
    "TERM_KEYS",
    "RandomEvent",
    "StatBlock",
    "System",
    "all_systems",
    "classify",
    "default_system",
    "get_system",
    "is_deadly",
    "special_kinds",
    "system_keys",
    "unknown_system_message",
]
