"""Registration of the generator commands (site, hoard, region...), one module each."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add each generator's command to the app. New command modules add one line here."""
    from generator.cli import site_cmd

    app.command("site")(site_cmd.site)
    app.command("render")(site_cmd.render)

    from generator.cli import treasure_cmd

    app.command("hoard")(treasure_cmd.hoard)
    app.command("weapon")(treasure_cmd.weapon)

    from generator.cli import region_cmd

    app.command("region")(region_cmd.region)

    from generator.cli import monsters_cmd

    app.command("monsters")(monsters_cmd.monsters)

    from generator.cli import sim_cmd

    app.command("sim")(sim_cmd.sim)
