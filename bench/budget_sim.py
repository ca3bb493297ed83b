"""How FMC Basic's site budget plays under simulated combat (issue 15's closing report).

A site holds monsters worth 1,000 XP x the party's level (FMC Basic, Site Design). For each
level from 1 to 10 this generates `--sites` six-room sites (default 500), fights each occupied
room alone and the whole route (the lair and the guards in key order, without a rest, as the
referee summary does) with the default party of that level, and prints per level:

- through: the share of all trials, over all sites, that won every fight of the route;
- sites >= 50%: the share of sites a party gets through at least half the time;
- site verdict: how the sites split by the verdict of their hardest room;
- room verdicts: how the occupied rooms split by verdict.

    python bench/budget_sim.py                 # 500 sites a level, 400 trials a fight
    python bench/budget_sim.py --sites 50 --trials 200 --json

Fewer trials than a booklet's 2,000 keep the run to minutes; each figure is a mean over
hundreds of sites, so the noise of one estimate washes out.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import generator  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent))

from generator.build.site import generate_site  # noqa: E402
from generator.engine.rng import Rng  # noqa: E402
from generator.engine.tables import TableSet  # noqa: E402
from generator.sim.danger import estimate, foes, route  # noqa: E402
from generator.sim.party import default_party  # noqa: E402
from generator.sim.rules import verdicts  # noqa: E402


def level_figures(tables: TableSet, level: int, sites: int, trials: int) -> dict[str, object]:
    order = [v.key for v in verdicts(tables)]
    party = default_party(tables, level)
    through = []
    site_verdicts: Counter[str] = Counter()
    room_verdicts: Counter[str] = Counter()
    wins = []
    for i in range(sites):
        site = generate_site(tables, Rng(f"budget/{level}/{i}"), level=level)
        worst = 0
        for room in site.rooms:
            if not room.monsters:
                continue
            pairs = [(site.bestiary[g.name], str(g.count)) for g in room.monsters]
            d = estimate(tables, party, foes(tables, pairs), room.seed, trials)
            room_verdicts[d.verdict] += 1
            worst = max(worst, order.index(d.verdict))
            wins.append(d.win)
        site_verdicts[order[worst]] += 1
        through.append(route(tables, site, 1, party, trials).steps[-1].through)
    return {
        "level": level,
        "sites": sites,
        "trials": trials,
        "through": sum(through) / len(through),
        "sites_half_through": sum(t >= 0.5 for t in through) / len(through),
        "room_win": sum(wins) / len(wins),
        "site_verdict": {k: site_verdicts[k] / sites for k in order},
        "room_verdicts": {k: room_verdicts[k] / sum(room_verdicts.values()) for k in order},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=500)
    parser.add_argument("--trials", type=int, default=400)
    parser.add_argument("--levels", default="1-10")
    parser.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    args = parser.parse_args(argv)
    low, _, high = args.levels.partition("-")
    tables = TableSet.load(use_env=False)
    order = [v.key for v in verdicts(tables)]
    if not args.json:
        head = "".join(f"{k:>9}" for k in order)
        print(f"level  through  >=50%  room win | sites by hardest room:{head}")
    for level in range(int(low), int(high or low) + 1):
        start = time.perf_counter()
        fig = level_figures(tables, level, args.sites, args.trials)
        fig["seconds"] = round(time.perf_counter() - start, 1)
        if args.json:
            print(json.dumps(fig), flush=True)
            continue
        shares = "".join(f"{fig['site_verdict'][k]:>9.0%}" for k in order)  # type: ignore[index]
        rooms = " ".join(f"{k} {fig['room_verdicts'][k]:.0%}" for k in order)  # type: ignore[index]
        print(
            f"{level:>5}  {fig['through']:>7.0%}  {fig['sites_half_through']:>5.0%}  "
            f"{fig['room_win']:>8.0%} | {'':>22}{shares}   (rooms: {rooms})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
