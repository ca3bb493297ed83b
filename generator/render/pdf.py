"""The booklet PDF: WeasyPrint over the booklet HTML, reading nothing but the template folders.

Two promises are kept here rather than in the templates:

- Safety. WeasyPrint fetches every image, stylesheet and font through :class:`FolderFetcher`,
  which serves files from the user's template folders and the built-in one and refuses
  everything else: network URLs, and ``file://`` paths outside those folders (symlinks and
  ``..`` are resolved first), and any file over MAX_ASSET_BYTES. A refused URL leaves a gap in
  the page and a warning, never a read.
- Same seed, same bytes. The PDF carries no dates, its identifier is a digest of the HTML, and
  the font subsets (whose ``head`` table fontTools stamps with "now") are stamped with a fixed
  time through ``SOURCE_DATE_EPOCH``, the reproducible-builds convention fontTools follows.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import mimetypes
import os
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import weasyprint
from weasyprint.urls import URLFetcher, URLFetcherResponse

from generator.render.booklet import Options, search_path

MAX_ASSET_BYTES = 64 * 1024 * 1024  # an image or font of a booklet; a bigger file is refused
FIXED_EPOCH = "315532800"  # 1980-01-01T00:00:00Z, the earliest date a ZIP (and many tools) hold
SUBSET_SHORTCUT = True  # see font_subsetting (the bench turns it off to measure it)
_STEP = re.compile(r"Step (\d)")
_STEPS = 7  # WeasyPrint's progress log counts "Step 1" to "Step 7"
_lock = threading.Lock()
# WeasyPrint complaints that are not the template author's to fix: refusals (reported once
# each by html_to_pdf), the maps' SVG properties met in HTML style attributes (the SVG renderer
# reads them), and the advice to install HarfBuzz-Subset (the README gives it).
_QUIET = re.compile(
    r"RefusedURL|HarfBuzz-Subset|Ignored `(stroke|fill|marker|paint-order|stop-|text-anchor|"
    r"dominant-baseline|vector-effect)[\w-]*\s*:"
)


class RefusedURL(ValueError):
    """A URL the booklet may not load (WeasyPrint reports it and leaves the image out)."""


class FolderFetcher(URLFetcher):
    """Serve files from `folders` only; a path under any of them is looked up in each in turn.

    Relative URLs in a template resolve against the built-in folder (the base URL), then this
    fetcher looks for the same relative path in the user's folders first, so a user's
    ``logo.png`` overrides the built-in one exactly as a template does.
    """

    def __init__(self, folders: Sequence[Path]) -> None:
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.folders = [Path(f).resolve() for f in folders]
        self.refused: list[str] = []  # every URL turned away, in order
        self.why: dict[str, str] = {}  # and the reason
        self.served: list[Path] = []  # every file read

    def fetch(self, url: str, headers: Any = None) -> Any:
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme == "data":  # inline data: nothing is read from anywhere
            return super().fetch(url, headers)
        if scheme != "file":
            return self._refuse(url, "templates may read their own folders, never the network")
        path = self._find(Path(url2pathname(urlsplit(url).path)))
        if path is None:
            return self._refuse(url, "templates may only read files in their own folders")
        size = path.stat().st_size
        if size > MAX_ASSET_BYTES:
            limit = MAX_ASSET_BYTES // (1024 * 1024)
            return self._refuse(url, f"{size:,} bytes is too big for an image or font ({limit} MB)")
        self.served.append(path)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        with path.open("rb") as fh:
            data = fh.read(MAX_ASSET_BYTES + 1)
        return URLFetcherResponse(path.as_uri(), data, {"Content-Type": kind})

    def _find(self, wanted: Path) -> Path | None:
        try:
            wanted = wanted.resolve()
        except (OSError, RuntimeError):
            return None
        relative = None
        for root in self.folders:
            if wanted.is_relative_to(root):
                relative = wanted.relative_to(root)
                break
        if relative is None:
            return None
        for root in self.folders:
            candidate = (root / relative).resolve()
            if candidate.is_relative_to(root) and candidate.is_file():
                return candidate
        return None

    def _refuse(self, url: str, why: str) -> Any:
        self.refused.append(url)
        self.why.setdefault(url, why)
        raise RefusedURL(f"{url}: {why}")


@contextlib.contextmanager
def font_subsetting(shortcut: bool = True) -> Iterator[None]:
    """Font subsets that are the same on every run, and made without wasted work.

    - fontTools stamps a subset's `head.modified` with the time, unless SOURCE_DATE_EPOCH is
      set: we set FIXED_EPOCH for the duration (a caller's own SOURCE_DATE_EPOCH wins).
    - fontTools (4.6x) decompiles GSUB and GPOS before subsetting even when told to drop them,
      which is most of the time a PDF takes to write with DejaVu. WeasyPrint does tell it to
      drop them, so we drop them first (with 'kern', which the subsetter drops whenever GPOS
      is present): the bytes come out identical, in about two thirds of the time.

    Only used when WeasyPrint subsets with fontTools (it prefers HarfBuzz when installed).
    """
    with _lock:
        own_epoch = "SOURCE_DATE_EPOCH" not in os.environ
        if own_epoch:
            os.environ["SOURCE_DATE_EPOCH"] = FIXED_EPOCH
        subsetter = _fonttools_subsetter() if shortcut else None
        original = getattr(subsetter, "subset", None)
        if original is not None:
            subsetter.subset = _dropping_first(original)
        try:
            yield
        finally:
            if original is not None:
                subsetter.subset = original
            if own_epoch:
                os.environ.pop("SOURCE_DATE_EPOCH", None)


def _fonttools_subsetter() -> Any:
    try:
        from fontTools.subset import Subsetter
    except ImportError:  # pragma: no cover - WeasyPrint depends on fontTools
        return None
    return Subsetter


def _dropping_first(original: Any) -> Any:
    def subset(self: Any, font: Any) -> Any:
        options = self.options
        drop = set(getattr(options, "drop_tables", ()))
        if {"GSUB", "GPOS"} <= drop:
            if "GPOS" in font and not getattr(options, "legacy_kern", True) and "kern" in font:
                del font["kern"]
            for tag in ("GSUB", "GPOS"):
                if tag in font:
                    del font[tag]
        return original(self, font)

    return subset


class _Relay(logging.Handler):
    """WeasyPrint's log: progress steps to the progress callback, complaints to `warn`."""

    def __init__(self, options: Options) -> None:
        super().__init__(logging.INFO)
        self.options = options
        self.seen: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.name == "weasyprint.progress":
            step = _STEP.search(message)
            if step and self.options.progress:
                self.options.progress("pdf", int(step.group(1)) / _STEPS)
            return
        if record.levelno < logging.WARNING or _QUIET.search(message):
            return
        if message not in self.seen and self.options.warn:
            self.seen.add(message)
            self.options.warn(f"booklet: {message}")


@contextlib.contextmanager
def _relay_logs(options: Options) -> Iterator[None]:
    relay = _Relay(options)
    loggers = [logging.getLogger("weasyprint"), logging.getLogger("weasyprint.progress")]
    levels = [lg.level for lg in loggers]
    loggers[0].setLevel(logging.WARNING)
    loggers[1].setLevel(logging.INFO)
    loggers[0].addHandler(relay)  # progress records reach it by propagation
    try:
        yield
    finally:
        loggers[0].removeHandler(relay)
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def html_to_pdf(html: str, options: Options, fetcher: Any = None) -> bytes:
    """The PDF of a booklet's HTML; `fetcher` (a FolderFetcher) may be passed to inspect it."""
    folders = search_path(options)
    fetcher = fetcher if fetcher is not None else FolderFetcher(folders)
    base_url = folders[-1].resolve().as_uri() + "/"  # the built-in folder: see FolderFetcher
    digest = hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")
    with _relay_logs(options), font_subsetting(SUBSET_SHORTCUT):
        document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        data = document.write_pdf(pdf_identifier=digest)
    if options.warn:
        for url in dict.fromkeys(fetcher.refused):
            options.warn(f"booklet: refused to load {url}: {fetcher.why.get(url, 'not allowed')}")
    if options.progress:
        options.progress("pdf", 1.0)
    return data
