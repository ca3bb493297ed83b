"""The generators: pure functions from (parameters, TableSet, Rng) to a model.

Sites, regions, treasure and the bestiary. They never print, read files or render.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.engine.tables import TableSet


def table_problems(tables: TableSet) -> list[str]:
    """Everything the generators need of these tables that is not so, all at once: each
    generator's declared needs (engine/needs.py), then what each reads across tables (a
    theme's monsters in the bestiary, a biome's encounter tables...). `delve tables check`.

    Every module that declares a need is imported first, the rules systems' and the danger
    simulation's too: a need nobody imported is a need nobody checks."""
    import generator.sim.danger  # noqa: F401  (the simulation's needs: party, tactics, verdicts)
    import generator.systems.specials  # noqa: F401  (systems/deadly-traps)
    from generator.build import monsters, site, treasure
    from generator.build.region import tables as region
    from generator.engine import needs
    from generator.errors import TableError
    from generator.sim import foes, fortmayn, party, rules  # noqa: F401  (their needs)

    problems = needs.check_all(tables)
    for build in (
        monsters.bestiary,
        site.themes,
        treasure.check_tables,
        region.region_tables,
    ):
        try:
            build(tables)
        except TableError as err:
            problems += err.problems
    return list(dict.fromkeys(problems))
