"""The filters and globals every booklet template sees: Delve's text helpers, and no more.

The text and markdown renderers use the same helpers, so the booklet and the key never
disagree; render/templating.py gives templates these and nothing else.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from generator import __version__


def stop(text: Any) -> str:
    """Table text ended with a full stop, unless it already ends a sentence."""
    from generator.engine import words

    return words.stop(str(text))


def anchor(text: Any) -> str:
    """A safe fragment id from any text: letters, digits and dashes."""
    out = "".join(c.lower() if c.isalnum() else "-" for c in str(text))
    return "-".join(part for part in out.split("-") if part) or "x"


def whole(text: Any) -> Markup:
    """An address or a word of a command, escaped and marked so the booklet prints it as it
    is: the finalize step (templating.breakable) breaks any other word longer than 100
    characters with zero-width spaces, and text typed back in must not hold them. The CSS
    never hyphenates these (.seed, .seedline), so WeasyPrint lays them out quickly."""
    return escape(str(text))


def filters() -> dict[str, Any]:
    from generator.engine import words
    from generator.render import treasure_text

    return {
        "num": lambda n: f"{n:,}",
        "cp": treasure_text.worth,
        "signed": lambda n: f"{n:+d}",
        "cap": lambda s: words.capital(str(s)),
        "sentence": lambda s: stop(words.capital(str(s).strip())),
        "article": lambda s: words.with_article(str(s)),
        "stop": stop,
        "anchor": anchor,
        "whole": whole,
    }


def globals_() -> dict[str, Any]:
    from generator.engine import words
    from generator.render import site_key, treasure_text

    return {
        "delve_version": __version__,
        "loop_order": site_key.loop_order,
        "exits": site_key.exits,
        "exit_text": site_key.exit_text,
        "plural": site_key.plural,
        "count": words.count,
        "noun": words.noun,
        "agree": words.agree,
        "summary_text": site_key.summary_text,
        "content_labels": site_key.CONTENT_LABELS,
        "obstacle_labels": site_key.OBSTACLE_LABELS,
        "check_rule": site_key.CHECK_RULE,
        "coins_phrase": treasure_text.coins_phrase,
    }
