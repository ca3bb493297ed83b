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

from generator.render import blocks as b

Escape = Callable[[str], str]
Format = Callable[[str, str], str]  # (target, shown text, already escaped) -> link


class Linker:
    """Finds phrases word by word: a region names thousands of notes, and one regular expression
    of them all (or a scan of every phrase at every word) would be slow on every line.

    A phrase is its words (letters and digits; 'Man-at-Arms' is man, at, arms), matched
    case-insensitively at word boundaries, leftmost and longest first; a phrase's own leading or
    trailing punctuation ('Arcane focus (1 energy)') joins the link when the text has it too.
    A linker may sit over a `parent`, whose phrases it adds to (its own win): a region's names
    under each site's, or a haven's own people over the region's, so that when two things
    share a name each note links the one it means.
    """

    def __init__(
        self,
        phrases: Iterable[tuple[str, str]],
        fmt: Format,
        escape: Escape,
        parent: Linker | None = None,
    ) -> None:
        """`phrases`: (phrase, target) pairs; a longer phrase wins over a shorter one inside it.
        A target of "" names no note: the phrase is left as text, and so are the names inside
        it (the river called the Tumbling Nell links no one called Nell)."""
        self.fmt, self.escape = fmt, escape
        self.parent = parent
        self.targets: dict[tuple[str, ...], str] = {}
        self.edges: dict[tuple[str, ...], tuple[str, str, str]] = {}  # (lead, trail, whole)
        for phrase, target in phrases:
            if len(phrase.strip()) >= 3:  # shorter names would link half the words of a page
                words = tuple(_WORD.findall(phrase.lower()))
                if words and words not in self.targets:
                    self.targets[words] = target
                    self.edges[words] = _edges(phrase)
        self.lengths = sorted({len(k) for k in self.targets}, reverse=True)
        self.firsts = {k[0] for k in self.targets}
        if parent is not None:
            self.lengths = sorted(set(self.lengths) | set(parent.lengths), reverse=True)
            self.firsts |= parent.firsts

    def _target(self, words: tuple[str, ...]) -> tuple[str, tuple[str, str, str]] | None:
        found = self.targets.get(words)
        if found is None:
            return self.parent._target(words) if self.parent is not None else None
        return found, self.edges[words]

    def _matches(self, text: str) -> Iterable[tuple[int, int, str]]:
        """(start, end, target) of each phrase, leftmost-longest, never overlapping, and never
        inside a seed address or a path (saltmarch/hex/0403/site names no hex: it is one word
        to copy)."""
        tokens = list(_WORD.finditer(text.lower()))
        words = [t.group(0) for t in tokens]
        i, n = 0, len(tokens)
        while i < n:
            if words[i] in self.firsts:
                for size in self.lengths:
                    if i + size <= n:
                        found = self._target(tuple(words[i : i + size]))
                        start, end = tokens[i].start(), tokens[i + size - 1].end()
                        if found is None:
                            continue
                        target, (lead, trail, whole) = found
                        if lead and text[:start].endswith(lead):
                            start -= len(lead)
                        if trail and text.startswith(trail, end):
                            end += len(trail)
                        if not _in_address(text, start, end, whole):
                            yield start, end, target
                            i += size
                            break
                else:
                    i += 1
            else:
                i += 1

    def link(self, text: str, done: set[str] | None = None, skip: str = "") -> str:
        """`text` escaped, with its first mention of each target not in `done` (updated) and
        not `skip` (the note itself) made a link."""
        done = set() if done is None else done
        out: list[str] = []
        pos = 0
        for start, end, target in self._matches(text) if self.firsts else ():
            if not target or target in done or target == skip:
                continue
            done.add(target)
            out.append(self.escape(text[pos:start]))
            out.append(self.fmt(target, self.escape(text[start:end])))
            pos = end
        out.append(self.escape(text[pos:]))
        return "".join(out)


_WORD = re.compile(r"[^\W_]+")


def _edges(phrase: str) -> tuple[str, str, str]:
    """The punctuation a phrase opens or closes with, '(' or ')' say, which belongs to the
    name; and the whole phrase as written (lower case)."""
    words = list(_WORD.finditer(phrase))
    lead = phrase[: words[0].start()].strip()
    trail = phrase[words[-1].end() :].strip()
    return lead, trail, phrase.strip().lower()


_ADDRESS = "/@=+"  # the characters that join the parts of a seed address


def _in_address(text: str, start: int, end: int, whole: str) -> bool:
    """Whether text[start:end] is part of a seed address; a name's own '/' or '=' (written as
    the name writes them) does not make it one."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before in _ADDRESS or after in _ADDRESS:
        return True
    inside = text[start:end]
    return inside.lower() != whole and any(c in _ADDRESS for c in inside)


# Characters that open Obsidian (or CommonMark) syntax wherever they stand: a link or embed
# ([[, ![[ once [ is escaped), code (`), a tag (#word), a block id (^id), maths ($) and the
# escape itself; and runs that open syntax only when doubled: a comment (%%), a highlight (==)
# and a strike-through (~~). A backslash before any ASCII punctuation shows it as it is.
_MD_SPECIAL = re.compile(r"([\\\[\]`#^$])")
_MD_RUNS = re.compile(r"%{2,}|={2,}|~{2,}")


def escape_markdown(text: str) -> str:
    """Table text made inert in Obsidian markdown: no links, embeds, tags, block ids, comments,
    highlights, code, maths or HTML of its own; it reads the same once rendered.

    < and > become entities (Obsidian renders inline HTML)."""
    text = _MD_SPECIAL.sub(r"\\\1", text)
    text = _MD_RUNS.sub(lambda m: "".join("\\" + c for c in m.group(0)), text)
    return text.replace("<", "&lt;").replace(">", "&gt;")


def escape_html(text: str) -> str:
    from html import escape

    # Foundry enriches text: [[...]] is an inline roll and @Word[...] a link, so table text
    # must not be able to write either (nor close a link's {label}). Brackets and braces become
    # entities, which the browser shows as the characters.
    out = escape(text, quote=False)
    for char, entity in (("[", "&#91;"), ("]", "&#93;"), ("{", "&#123;"), ("}", "&#125;")):
        out = out.replace(char, entity)
    return out.replace("@", "&#64;")


EXIT = re.compile(r"^Exit to (\d+)\b")
Marker = Callable[["b.Block"], "b.Block"]


def linked(
    blocks: Iterable[b.Block],
    linker: Linker,
    skip: str = "",
    rooms: dict[int, tuple[str, str]] | None = None,
    done: set[str] | None = None,
    marker: Marker | None = None,
    own: Callable[[b.Block], Linker | None] | None = None,
) -> list[b.Block]:
    """Blocks with their text escaped and the first mention of every other target linked.

    `rooms` (room id -> (target, '4. Name')) turns each 'Exit to 4' into a link to room 4;
    table cells link every mention, row by row; `marker` turns the marker blocks of
    :mod:`generator.export.split` into the exporter's own link items; `own` may give a block
    a linker of its own (a line about one of two people who share a name links that one).
    """
    done = set() if done is None else done
    out = []
    base = linker
    for block in blocks:
        linker = (own(block) if own is not None else None) or base
        if block.kind not in KINDS:
            if marker is not None:
                out.append(marker(block))
            continue
        if block.kind == "table" and block.rows:
            head, *rows = block.rows
            out.append(
                b.table(
                    [[linker.escape(c) for c in head]]
                    + [[linker.link(c, set(), skip) for c in row] for row in rows]
                )
            )
            continue
        text = block.text
        if block.kind in ("h1", "h2", "h3"):
            out.append(b.Block(block.kind, linker.escape(text)))
            continue
        m = EXIT.match(text) if rooms else None
        if m and rooms and int(m.group(1)) in rooms:
            target, shown = rooms[int(m.group(1))]
            rest = linker.link(text[m.end() :], done, skip)
            exit_link = linker.fmt(target, linker.escape(shown))
            out.append(b.Block(block.kind, f"Exit to {exit_link}{rest}"))
            continue
        out.append(b.Block(block.kind, linker.link(text, done, skip)))
    return out


KINDS = ("h1", "h2", "h3", "p", "li", "table", "rule")
