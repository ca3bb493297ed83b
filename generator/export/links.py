"""Links from a note's text to the notes it names, in any link syntax.

A :class:`Linker` knows the phrases that name other notes (a monster's name and plural, a magic
item, a haven, a faction...) and turns the first mention of each target in a note into a link:
``[[Monsters/Ghoul|ghouls]]`` in a vault, ``@UUID[.pageId]{ghouls}`` in a Foundry journal. The
text around the links is escaped for the target format by the caller's `escape`, so nothing a
table says can open a link, a tag or an HTML element of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

Escape = Callable[[str], str]
Format = Callable[[str, str], str]  # (target, shown text, already escaped) -> link


class Linker:
    def __init__(self, phrases: Iterable[tuple[str, str]], fmt: Format, escape: Escape) -> None:
        """`phrases`: (phrase, target) pairs; a longer phrase wins over a shorter one inside it."""
        self.fmt, self.escape = fmt, escape
        self.targets: dict[str, str] = {}
        for phrase, target in phrases:
            phrase = phrase.strip()
            if len(phrase) >= 3:  # shorter names would link half the words of a page
                self.targets.setdefault(phrase.lower(), target)
        ordered = sorted(self.targets, key=lambda p: (-len(p), p))
        self._re = (
            re.compile(
                r"(?<![\w])(" + "|".join(re.escape(p) for p in ordered) + r")(?![\w])",
                re.IGNORECASE,
            )
            if ordered
            else None
        )

    def link(self, text: str, done: set[str] | None = None, skip: str = "") -> str:
        """`text` escaped, with its first mention of each target not in `done` (updated) and
        not `skip` (the note itself) made a link."""
        done = set() if done is None else done
        if self._re is None:
            return self.escape(text)
        out: list[str] = []
        pos = 0
        for m in self._re.finditer(text):
            target = self.targets[m.group(1).lower()]
            if target in done or target == skip:
                continue
            done.add(target)
            out.append(self.escape(text[pos : m.start()]))
            out.append(self.fmt(target, self.escape(m.group(1))))
            pos = m.end()
        out.append(self.escape(text[pos:]))
        return "".join(out)


_MD_SPECIAL = re.compile(r"([\\\[\]])")


def escape_markdown(text: str) -> str:
    """Table text made inert in Obsidian markdown: no links, code or HTML of its own.

    Brackets (and backslashes) are escaped with a backslash; < and > become entities (Obsidian
    renders inline HTML); a # or a leading list marker stays, as it is harmless mid-line.
    """
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return text.replace("<", "&lt;").replace(">", "&gt;")


def escape_html(text: str) -> str:
    from html import escape

    # Foundry enriches text: [[...]] is an inline roll and @Word[...] a link, so table text
    # must not be able to write either. Brackets become entities, which the browser shows as is.
    out = escape(text, quote=False)
    return out.replace("[", "&#91;").replace("]", "&#93;").replace("@", "&#64;")
