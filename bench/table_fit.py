"""How well the site's content tables fit the themes' places (issue 13's content check).

For the room-dressing tables (features, traps, hiding places) it counts, per place word and per
theme, the entries that fit: tagged with one of the theme's places ("specific") or with `any`.
For the short tables many rooms share (sounds, smells, lights, hoard places, trapped hoards)
it prints the longest entry in words, since no sentence over 20 words may repeat in more than
2% of rooms. It lists every text that appears twice in one table or across tables, tags that
are neither a place, a build nor a known flavour word, and how the map's light code reads
each light (generator/plan/lights.py): a light that reads as dark must say so.

    python bench/table_fit.py            # summary
    python bench/table_fit.py --places   # every place's counts, table by table
    python bench/table_fit.py --lights   # every light text and what the map makes of it

Themes come from tables/site/themes.yaml; the eighteen issue-13 themes not yet in that file
are taken from the lead's plan (their places below), so the check runs on every branch.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
TABLES = HERE.parent / "tables" / "site"
try:
    import generator  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent))

from generator.plan.lights import DARK_START, source  # noqa: E402

PLACES = (
    "cave mine tomb temple fort vault sewer hall tower manor lair grove cistern shrine warren "
    "barrow dock ship library forge ice prison cloister hospice hive bath cellar"
).split()
BUILDS = "hewn natural masonry brick timber earth ice wreck organic".split()
MODIFIERS = {"occupied", "any"}
KINDS = "social beast vermin mindless undead ooze plant construct dragon spirit".split()
FLAVOUR = set(
    "water religious grim arcane natural mechanical art military fire giant clue cold mundane "
    "magical".split()
)
PLAN_THEMES = {  # issue 13's new themes (the lead's plan), used when themes.yaml lacks them
    "smugglers-cove": ["dock", "cave", "cellar"],
    "wreck-hulk": ["ship", "dock", "cave"],
    "haunted-library": ["library", "tower", "manor"],
    "dwarf-hold": ["hall", "forge", "mine"],
    "frost-caves": ["ice", "cave", "tower"],
    "old-prison": ["prison", "fort", "vault"],
    "serpent-ziggurat": ["temple", "shrine", "sewer"],
    "fallen-monastery": ["cloister", "temple", "hall"],
    "wizard-tower": ["tower", "library", "vault"],
    "werewolf-lodge": ["manor", "lair", "grove"],
    "plague-hospice": ["hospice", "temple", "cellar"],
    "wasp-hive": ["hive", "cave", "grove"],
    "witch-coven": ["grove", "cave", "cellar"],
    "sorcerer-tomb": ["tomb", "temple", "vault"],
    "kobold-trapworks": ["warren", "mine", "vault"],
    "imperial-baths": ["bath", "cistern", "hall"],
    "deserter-keep": ["fort", "tower", "hall"],
    "ooze-aqueduct": ["cistern", "sewer", "vault"],
}
DRESSING = {"features": 12, "traps": 6, "hiding-places": 5}  # the least each theme must find
SHARED = ("room-sounds", "room-smells", "room-lights", "hoard-places", "trapped-hoards")
PASSAGES = ("passages/open", "passages/locked-door", "passages/hidden-door")
PASSAGES += ("passages/long-corridor", "level-links")
WORD = re.compile(r"[A-Za-z0-9'-]+")


def load(name: str) -> list[dict]:
    return yaml.safe_load((TABLES / f"{name}.yaml").read_text())["entries"]


def themes() -> dict[str, list[str]]:
    out = {e["key"]: list(e.get("places") or []) for e in load("themes")}
    for key, places in PLAN_THEMES.items():
        out.setdefault(key, places)
    return out


def sentences(entry: dict) -> list[str]:
    texts = [str(entry.get(f) or "") for f in ("result", "pass")]
    return [s for t in texts for s in re.split(r"(?<=[.!?])\s+", t) if s]


def words(text: str) -> int:
    return len(WORD.findall(text))


def fits(entry: dict, places: list[str], with_any: bool = True) -> bool:
    tags = set(entry.get("tags") or [])
    return bool(tags & set(places)) or (with_any and "any" in tags)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--places", action="store_true", help="print every place's counts")
    ap.add_argument("--lights", action="store_true", help="print how each light reads")
    args = ap.parse_args()
    problems: list[str] = []
    all_themes = themes()
    tables = {name: load(name) for name in (*DRESSING, *SHARED, *PASSAGES)}

    print("== sizes")
    for name, entries in tables.items():
        size = (TABLES / f"{name}.yaml").stat().st_size
        print(f"  {name:24} {len(entries):4} entries {size / 1000:6.1f} KB")

    print("\n== per place (entries tagged with the place; `any` counted apart)")
    print(f"  {'place':10}" + "".join(f"{n:>15}" for n in DRESSING))
    for place in ["any", *PLACES]:
        row = [sum(place in (e.get("tags") or []) for e in tables[n]) for n in DRESSING]
        if args.places or place == "any" or min(row) < 3:
            print(f"  {place:10}" + "".join(f"{c:>15}" for c in row))
    if not args.places:
        print("  (places with at least 3 of each left out; --places prints them all)")

    print("\n== per theme: specific (its places) + any; the least each theme must find")
    print("  " + ", ".join(f"{n} {least}" for n, least in DRESSING.items()))
    lows = {
        n: min(all_themes, key=lambda k, n=n: _count(tables[n], all_themes[k], False))
        for n in DRESSING
    }
    for key, places in sorted(all_themes.items()):
        counts = {n: _count(tables[n], places, False) for n in DRESSING}
        totals = {n: _count(tables[n], places) for n in DRESSING}
        short = [n for n, least in DRESSING.items() if counts[n] < least]
        flag = "  <-- short of specific " + ", ".join(short) if short else ""
        if args.places or short:
            cells = "  ".join(f"{n} {counts[n]}+{totals[n] - counts[n]}" for n in DRESSING)
            print(f"  {key:22} {cells}{flag}")
        for n in short:
            problems.append(f"theme {key}: {counts[n]} specific {n}, needs {DRESSING[n]}")
    for n, k in lows.items():
        print(f"  fewest {n}: {k} ({_count(tables[n], all_themes[k], False)} specific)")

    print("\n== shared tables: words per entry (at most 20)")
    for name in SHARED:
        lens = [words(e["result"]) for e in tables[name]]
        longest = max(lens)
        print(f"  {name:16} max {longest:3}  mean {sum(lens) / len(lens):5.1f}")
        for e, n in zip(tables[name], lens, strict=True):
            if n > 20:
                problems.append(f"{name}: {n} words: {e['result']}")
    # A connection's look and its way through print in the rooms at both ends, and a third to a
    # half of all connections draw on one table: every sentence there stays at 20 words or fewer.
    for name in PASSAGES:
        lens = [words(s) for e in tables[name] for s in sentences(e)]
        print(f"  {name:24} longest sentence {max(lens):3} words")
        problems += [
            f"{name}: {words(s)} words: {s}"
            for e in tables[name]
            for s in sentences(e)
            if words(s) > 20
        ]

    print("\n== shared tables and passages per theme: entries open to an empty room of it")
    print("  (untagged, `any`, or tagged with one of the theme's places; builds and kinds aside)")
    for name in (*SHARED, *PASSAGES):
        fit = {k: sum(_open_to(e, p) for e in tables[name]) for k, p in all_themes.items()}
        low = min(fit, key=fit.get)
        print(f"  {name:24} fewest {fit[low]:3} ({low}), most {max(fit.values()):3}")
        if fit[low] < 8:
            problems.append(f"{name}: theme {low} finds only {fit[low]} entries")

    print("\n== tags")
    counts: Counter[str] = Counter()
    for entries in tables.values():
        for e in entries:
            counts.update(e.get("tags") or [])
    unknown = sorted(t for t in counts if t not in {*PLACES, *BUILDS, *MODIFIERS, *FLAVOUR, *KINDS})
    print(f"  {len(counts)} distinct tags; unknown: {', '.join(unknown) or 'none'}")
    problems += [f"unknown tag {t!r}" for t in unknown]
    for name in DRESSING:
        untagged = [e.get("name", e["result"][:30]) for e in tables[name] if not e.get("tags")]
        placeless = [
            e.get("name", e["result"][:30])
            for e in tables[name]
            if not set(e.get("tags") or []) & {*PLACES, "any"}
        ]
        problems += [f"{name}: {x!r} has no place tag" for x in placeless]
        print(f"  {name}: untagged {len(untagged)}, without a place or any {len(placeless)}")

    print("\n== duplicates")
    seen: dict[str, str] = {}
    names: dict[str, list[str]] = defaultdict(list)
    for name, entries in tables.items():
        for e in entries:
            for field in ("result", "use", "effect", "find", "pass"):
                text = e.get(field)
                if not text:
                    continue
                key = re.sub(r"\W+", " ", str(text).lower()).strip()
                if key in seen:
                    problems.append(f"duplicate text in {name} and {seen[key]}: {text[:60]}")
                seen[key] = name
            if e.get("name"):
                names[f"{name}:{e['name'].lower()}"].append(e["name"])
    dup_names = [k for k, v in names.items() if len(v) > 1]
    problems += [f"duplicate name {k}" for k in dup_names]
    print(f"  {len(seen)} texts, {len(problems)} problems so far, duplicate names {dup_names}")

    print("\n== lights, as the map reads them")
    dark = [e["result"] for e in tables["room-lights"] if source(e["result"]) is None]
    print(f"  {len(tables['room-lights']) - len(dark)} lit, {len(dark)} dark")
    for e in tables["room-lights"]:
        lit = source(e["result"])
        says_dark = bool(DARK_START.search(e["result"]))
        if args.lights:
            print(f"  {'dark' if lit is None else 'lit ':4} {e['result']}")
        if lit is None and not says_dark:
            problems.append(f"light reads as dark but does not open with darkness: {e['result']}")
        if "occupied" in (e.get("tags") or []) and lit is None:
            problems.append(f"an occupied light that lights nothing: {e['result']}")

    print(f"\n== {len(problems)} problems")
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


def _open_to(entry: dict, places: list[str]) -> bool:
    """Whether a shared entry may be dealt to an unoccupied room of a theme with these places:
    it needs no occupants, and it names no place or names one of them (builds and occupant
    kinds are the room's business, so they are left aside here)."""
    tags = set(entry.get("tags") or [])
    if "occupied" in tags:
        return False
    named = tags & set(PLACES)
    return not named or "any" in tags or bool(named & set(places))


def _count(entries: list[dict], places: list[str], with_any: bool = True) -> int:
    return sum(fits(e, places, with_any) for e in entries)


if __name__ == "__main__":
    raise SystemExit(main())
