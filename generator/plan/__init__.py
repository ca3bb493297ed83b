"""Floor plans of sites: rooms to scale on a grid of 10-foot squares, corridors routed between
their doors, levels stacked so a staircase arrives under the square it leaves.

`plan_site(site, rng)` lays a whole site out (the generator calls it with the site's
``<seed>/plan`` stream); `complete_plan(site)` gives a loaded document whatever plan it lacks
and checks the plan it has (contract.py). `geometry.level_geometry` turns one level of a plan
into walls, doors and lights for the renderers and the exporters.

The package is pure and light: it imports nothing beyond the standard library and the model, so
`delve site --format json` pays almost nothing to carry a plan.
"""

from __future__ import annotations

from generator.plan.planner import plan_site

__all__ = ["plan_site"]
