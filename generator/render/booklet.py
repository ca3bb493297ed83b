"""Printable booklets: a site or a region as HTML through the user's Jinja templates.

The templates and their CSS live in ``templates/`` (``generator/_data/templates`` in the wheel).
A referee's folders (``--templates DIR``, repeatable) are searched first, so one file copied
there and changed overrides just that part; ``!builtin/NAME`` always names the shipped file, so
an override can extend the template it replaces. Templates see the model itself plus the text
helpers the text and markdown renderers use, so the booklet and the key never disagree.

Rendering is strict: a template that uses a missing value, or does not parse, raises
:class:`~generator.errors.TemplateError` naming the file and line; autoescaping is on, so
table text prints as text whatever it holds. :mod:`generator.render.pdf` makes the PDF.

Options (paper, template folders, progress) reach the renderers registered with
:mod:`generator.render.documents` through :func:`using`, so ``documents.render(model, "pdf")``
keeps its one-argument shape; library callers can pass them directly to :func:`booklet_html`.
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import typer

from generator.errors import DelveError, TemplateError
from generator.render.recipe import document_note, edited_document, rebuild_args, root_address

BUILTIN_PREFIX = "!builtin/"
TOP_TEMPLATES = {"site": "site.html.j2", "region": "region.html.j2"}
SYSTEM_NAMES = {"fmc": "FMC Basic"}  # when no rules system can be looked up


@dataclass(frozen=True)
class Paper:
    """A page size and the measures the CSS template derives from it (all in millimetres)."""

    name: str
    size: str  # the CSS @page size
    width: float
    height: float
    margin_top: float
    margin_bottom: float
    margin_inner: float
    margin_outer: float
    columns: int  # room key columns
    font_pt: float

    @property
    def content_width(self) -> float:
        return self.width - self.margin_inner - self.margin_outer

    @property
    def content_height(self) -> float:
        return self.height - self.margin_top - self.margin_bottom

    @property
    def map_height(self) -> float:
        """The tallest a map may be drawn: the page less its heading and caption."""
        return round(self.content_height - 24, 1)


PAPERS = {
    "a4": Paper("a4", "A4", 210, 297, 17, 17, 17, 14, 2, 9.5),
    "letter": Paper("letter", "letter", 215.9, 279.4, 16, 16, 17, 14, 2, 9.5),
    "a5": Paper("a5", "A5", 148, 210, 13, 14, 13, 11, 1, 8.5),
}

PT_PER_MM = 72 / 25.4
LEGEND_LINE_MM = 6.8  # one line of the region map's legend

Progress = Callable[[str, float], None]
"""progress(stage, done): stage is "html" or "pdf", done runs from 0.0 to 1.0."""

Warn = Callable[[str], None]


@dataclass(frozen=True)
class Options:
    paper: Paper = PAPERS["a4"]
    templates: tuple[Path, ...] = ()  # the user's folders, searched in this order
    progress: Progress | None = None
    warn: Warn | None = None  # what to do with a refused URL or a WeasyPrint complaint


def paper(name: str) -> Paper:
    key = name.strip().lower()
    if key not in PAPERS:
        raise DelveError(f"--paper {name}: must be one of {', '.join(PAPERS)}")
    return PAPERS[key]


def check_templates(folders: Sequence[Path | str] | None) -> tuple[Path, ...]:
    """The user's template folders, each checked to exist, in search order."""
    out = []
    for folder in folders or ():
        path = Path(folder)
        if not path.exists():
            raise TemplateError(f"--templates {folder}: no such folder")
        if not path.is_dir():
            raise TemplateError(f"--templates {folder}: is a file, not a folder")
        out.append(path)
    return tuple(out)


def make_options(
    paper_name: str = "a4",
    templates: Sequence[Path | str] | None = None,
    progress: Progress | None = None,
    warn: Warn | None = None,
) -> Options:
    return Options(paper(paper_name), check_templates(templates), progress, warn)


_current: ContextVar[Options | None] = ContextVar("booklet_options", default=None)


def current() -> Options:
    """The options set by the innermost :func:`using` block, else the defaults."""
    return _current.get() or Options()


@contextlib.contextmanager
def using(options: Options) -> Iterator[Options]:
    """Booklet options for every html/pdf render inside the block."""
    token = _current.set(options)
    try:
        yield options
    finally:
        _current.reset(token)


def builtin_templates_dir() -> Path:
    """The templates shipped with Delve: inside the wheel, or at the top of a source checkout."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_data" / "templates"
    return packaged if packaged.is_dir() else here.parent / "templates"


def search_path(options: Options) -> list[Path]:
    """Every folder a booklet may read from: the user's first, the built-in folder last."""
    return [*options.templates, builtin_templates_dir()]


# --------------------------------------------------------------------------- the CLI's options
# Shared by `delve site`, `delve region` and `delve render` so the three spell them alike.


@contextlib.contextmanager
def cli_session(
    paper_name: str,
    templates: list[Path] | None,
    out: Path | None,
    fmt: str,
    progress_label: str | None = None,
    generates: bool = True,
) -> Iterator[Progress]:
    """The body of a command that may write a booklet.

    Checks --paper, --templates and -o before any slow work, then renders html and pdf with
    those options inside the block. With a `progress_label` (region booklets), a bar on stderr
    follows generation (when `generates`: the command reports it through the yielded
    callback as report("generation", fraction)), then the HTML and the PDF.
    """
    options = make_options(paper_name, templates, warn=_warn_stderr)
    check_target(out)
    show = progress_label is not None and fmt in ("html", "pdf")
    stages = (
        {"generation": 20, "html": 10, "pdf": 70}
        if fmt == "pdf"
        else {"generation": 60, "html": 40}
    )
    if not generates:
        stages.pop("generation")
    with progress_bar(progress_label or "", stages, enabled=show) as report:
        with using(replace(options, progress=report if show else None)):
            yield report


def _warn_stderr(message: str) -> None:
    typer.echo(f"delve: warning: {message}", err=True)


def check_target(out: Path | None) -> None:
    """Refuse an output path that cannot be written before spending time on a booklet."""
    if out is None:
        return
    from generator.output import check_target as check

    check(out)
    folder = out.parent if str(out.parent) else Path(".")
    if not os.access(folder, os.W_OK):
        raise DelveError(f"{out}: cannot write in {folder}")


@contextlib.contextmanager
def progress_bar(
    label: str, stages: dict[str, int] | None = None, enabled: bool = True
) -> Iterator[Progress]:
    """A progress bar on stderr over named stages (name: its share of the bar), in order, each
    reported from 0.0 to 1.0. It closes as soon as the last stage is done, so whatever the
    command prints next ("wrote ...") starts on a line of its own."""
    if not enabled:
        yield lambda stage, done: None
        return

    shares = stages or {"generation": 20, "html": 10, "pdf": 70}
    names = list(shares)
    total = sum(shares.values())
    with contextlib.ExitStack() as stack:
        bar = stack.enter_context(
            typer.progressbar(
                length=total, label=label, file=typer.get_text_stream("stderr"), show_eta=False
            )
        )
        reached = 0

        def report(stage: str, done: float) -> None:
            nonlocal reached
            if stage not in shares or reached >= total:
                return
            base = sum(shares[s] for s in names[: names.index(stage)])
            target = base + round(shares[stage] * max(0.0, min(1.0, done)))
            if target > reached:
                bar.update(target - reached)
                reached = target
                if reached >= total:
                    stack.close()

        yield report
        if reached < total:
            bar.update(total - reached)


# --------------------------------------------------------------------------- templates


def render_template(name: str, context: dict[str, Any], options: Options) -> str:
    """Render one template by name in the sandbox (see render/templating.py)."""
    from generator.render.templating import render_template as render

    return render(name, context, options.templates)


def _rules_context(model: Any, context: dict[str, Any]) -> dict[str, Any]:
    """The rules system the booklet speaks: its stat blocks, procedures and words.

    `rules` is the System (templates call rules.stat_block(m), rules.trap_text(t),
    rules.procedures()...), `words` rewords table text written in FMC Basic's terms, and `xp`
    says whether the system counts experience points at all ((Fortmayn) does not).
    """
    from generator.render import danger_text, site_key
    from generator.render.context import system_for
    from generator.render.rules_used import procedures
    from generator.render.treasure_text import bonus_text, xp_in_play

    rules = system_for(model)
    extra: dict[str, Any] = {
        "rules": rules,
        "system": rules.key,
        "words": rules.reword,
        "xp": xp_in_play(rules),
        "check_rule": site_key.check_rule(rules),
        "stat_line": rules.stat_line,
        "bonus_text": lambda bonus: bonus_text(bonus, rules),
        "random_events": rules.random_events(model) if model.kind == "site" else None,
        # Only the procedures this site's or region's rooms, monsters and traps call for.
        "procedures": procedures(model, rules),
        **danger_text.template_helpers(rules),
    }
    if model.kind == "region" and rules.has_term("reaction"):
        extra["reaction_rule"] = rules.term("reaction")
    for ctx in context.get("sites", []):
        ctx["system"] = rules.key
    return extra


def _system_namer(model: Any) -> Callable[[str], str]:
    """system_name(key) for the templates: the rules system's own name ("FMC Basic")."""
    try:
        from generator.render.context import system_for

        active = system_for(model)
    except ImportError:  # pragma: no cover - rules systems are optional to the booklet
        active = None

    def name(key: str) -> str:
        if active is not None and getattr(active, "key", None) == key:
            return str(active.name)
        return SYSTEM_NAMES.get(key, key)

    return name


# --------------------------------------------------------------------------- contexts


def site_context(site: Any, paper: Paper | None = None, chapter: bool = False) -> dict[str, Any]:
    """What the site templates see: the model, plus its rooms grouped for the key and a map
    of each level sized for the page."""
    from generator.render.site_key import loop_order
    from generator.render.site_map import booklet_maps

    rooms = loop_order(site)
    levels = [
        {"depth": d, "party_level": site.level_of(d), "rooms": [r for r in rooms if r.level == d]}
        for d in range(1, site.levels + 1)
    ]
    hoards = [r for r in rooms if r.hoard]
    monsters = [site.bestiary[k] for k in sorted(site.bestiary)]
    return {
        "site": site,
        "rooms": rooms,
        "levels": levels,
        "hoard_rooms": hoards,
        "magic_items": [(r, i) for r in hoards for i in r.hoard.items if i.magic],
        "monsters": monsters,
        "site_maps": booklet_maps(site, paper or current().paper, chapter),
        "system": site.system,
        "prefix": "",
        "chapter": False,
    }


def _svg_markup(svg: str, ids: str, style: str = "") -> Any:
    """Our own SVG (its text escaped by the map renderer), sized by the CSS instead of pixels
    (and `style`, when given), with its ids prefixed so several maps in one booklet never share
    an id."""
    import re

    from markupsafe import Markup

    head, sep, rest = svg.partition(">")
    for attr in ("width", "height"):
        head = re.sub(rf'\s{attr}="[^"]*"', "", head, count=1)
    if style:
        head += f' style="{style}"'
    rest = re.sub(r'\bid="([^"]+)"', rf'id="{ids}\1"', rest)
    rest = re.sub(r'(href="#|url\(#)', rf"\g<1>{ids}", rest)
    return Markup(head + sep + rest)


def region_context(region: Any, paper: Paper | None = None) -> dict[str, Any]:
    """What the region templates see: the model, its hexes by kind, and each site's own context
    (anchors prefixed with the hex label, so a site's rooms never clash with another's). The map
    is drawn for the paper's map box, so none of its text prints under 6 pt; a map too big for
    that on one page prints its hex labels on sheets after it."""
    from generator.render import region_key as rk
    from generator.render.region_svg import legend_items, region_svg, sheet_windows

    paper = paper or PAPERS["a4"]
    legend = legend_items(region)
    # The map page holds the map, its caption and its legend (LEGEND_COLUMNS to a line).
    columns = 3 if paper.columns > 1 else 2
    legend_mm = 12 + LEGEND_LINE_MM * -(-len(legend) // columns)
    box_mm = round(paper.map_height - legend_mm, 1)
    fit = (paper.content_width * PT_PER_MM, box_mm * PT_PER_MM)
    # A sheet has the page to itself: its heading, then the map.
    sheet_fit = (paper.content_width * PT_PER_MM, (paper.map_height - 6) * PT_PER_MM)

    hexes = sorted(region.hexes, key=lambda h: h.label)
    monsters: dict[str, Any] = dict(rk._monsters_by_name(region))
    sites = []
    for h in hexes:
        if h.site is None:
            continue
        for name, m in h.site.bestiary.items():
            monsters.setdefault(name, m)
        ctx = site_context(h.site, paper, chapter=True)
        ctx.update(hex=h, prefix=f"h{h.label}-")
        sites.append(ctx)
    bases: dict[str, list[Any]] = {}
    for fa in region.factions:
        bases.setdefault(fa.base, []).append(fa)
    counts: dict[str, int] = {}
    sample: dict[str, Any] = {}
    for h in hexes:
        counts[h.terrain] = counts.get(h.terrain, 0) + 1
        sample.setdefault(h.terrain, h)
    terrain = [
        {
            "biome": b,
            "hexes": counts[k],
            "days": sample[k].travel_days,
            "odds": sample[k].encounter_odds,
        }
        for k, b in region.biomes.items()
        if k in sample
    ]
    names = {fa.key: fa.name for fa in region.factions}
    ordered = {k: monsters[k] for k in sorted(monsters)}
    return {
        "region": region,
        "hexes": hexes,
        "start": region.hex(region.start),
        "havens": [h for h in hexes if h.haven],
        "sites": sites,
        "site_hexes": {ctx["hex"].label for ctx in sites},
        "lairs": [h for h in hexes if h.lair],
        "landmarks": [h for h in hexes if h.landmark],
        "terrain": terrain,
        "paths": rk._paths_through(region),
        "bases": bases,
        "faction_names": names,
        "monsters": list(ordered.values()),
        "system": getattr(region, "system", None) or "fmc",
        "map_svg": _svg_markup(region_svg(region, fit), "region-map-", f"max-height:{box_mm}mm"),
        "legend_columns": columns,
        "legend": [
            (_svg_markup(svg, f"legend-{i}-"), text) for i, (svg, text) in enumerate(legend, 1)
        ],
        "map_sheets": [
            {
                "window": w,
                "svg": _svg_markup(region_svg(region, sheet_fit, w), f"region-sheet-{i}-"),
            }
            for i, w in enumerate(sheet_windows(region, fit, sheet_fit), 1)
        ],
        "travel_rule": rk._check_rule(region),
        "wander_rule": rk.WANDER_RULE,
        "reaction_rule": rk.REACTION_RULE,
        "compass": [(i + 1, side, rk.SIDE_WORDS[side]) for i, side in enumerate(rk.SIDES)],
        "days_text": rk.days_text,
        "stocking_names": rk.STOCKING_NAMES,
        "attitude_names": rk.ATTITUDE_NAMES,
        "mood_notes": rk.MOOD_NOTES,
        "rplural": lambda name, count: rk.plural(ordered, name, count),
        "rumour_text": region.rumour_text,
        "faction_ties": lambda fa: rk._faction_line(region, fa),
        "prefix": "",
    }


def booklet_html(model: Any, options: Options | None = None, fmt: str = "html") -> str:
    """The booklet for a site or region as one self-contained HTML page (CSS inline); `fmt`
    is what the cover's rebuild command makes (the PDF is made from this page). With user
    templates, made in a child process with limits (render/isolate.py)."""
    from generator.render import isolate

    return isolate.run(_html, options or current(), model, fmt)


def booklet_pdf(model: Any, options: Options | None = None) -> bytes:
    from generator.render import isolate

    return isolate.run(_pdf, options or current(), model)


def _pdf(options: Options, model: Any) -> bytes:
    from generator.render.pdf import html_to_pdf

    return html_to_pdf(_html(options, model, "pdf"), options)


def _html(options: Options, model: Any, fmt: str) -> str:
    kind = getattr(model, "kind", None)
    if kind not in TOP_TEMPLATES:
        raise DelveError(f"no booklet for a {kind!r} document")
    report = options.progress or (lambda stage, done: None)
    report("html", 0.0)
    if kind == "site":
        context = site_context(model, options.paper)
    else:
        context = region_context(model, options.paper)
    context["paper"] = options.paper
    context["system_name"] = _system_namer(model)
    context.update(_rules_context(model, context))
    args = rebuild_args(model, fmt, context["rules"], options.paper.name, options.templates)
    context["edited_document"] = edited_document()  # its cover says so; the command renders it
    context["document_note"] = document_note()  # and why its seed does not make it
    context["region_address"] = root_address(model)  # with a re-rolled region's --reroll
    # The command as one string, and word by word (a cover keeps each word whole on paper).
    context["rebuild"] = shlex.join(args)
    context["rebuild_words"] = [shlex.quote(a) for a in args]
    html = render_template(TOP_TEMPLATES[kind], context, options)
    report("html", 1.0)
    return html
