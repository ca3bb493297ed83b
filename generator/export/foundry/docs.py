"""Foundry VTT version 13 documents as plain data: what every builder shares.

Field names and types follow Foundry's data model for version 13 (Scene, Wall, AmbientLight,
Note, JournalEntry and its text pages, RollTable and TableResult); tests/foundry/ holds a JSON
Schema of each and checks every exported file against it. Only fields we set are written: Foundry
fills the rest with its defaults when it imports a document.
"""

from __future__ import annotations

import json
from typing import Any

from generator.export.files import stable_id

FOUNDRY_VERSION = "13"
FLAG = "delve"  # our flags live under flags.delve, as a module's would

# CONST values of Foundry 13 (the names are Foundry's).
GRID_SQUARE = 1
GRID_HEXODDQ = 4  # flat-topped hexes, odd columns pushed half a hex down (our XXYY layout)
PAGE_HTML = 1  # JOURNAL_ENTRY_PAGE_FORMATS.HTML
OWNER_INHERIT, OWNER_NONE = -1, 0
DOOR_NONE, DOOR_DOOR, DOOR_SECRET = 0, 1, 2
DOOR_CLOSED, DOOR_OPEN, DOOR_LOCKED = 0, 1, 2
TEXT_ANCHOR_BOTTOM = 1


def doc_id(*parts: str) -> str:
    return stable_id("foundry", *parts)


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def flags(**values: Any) -> dict[str, Any]:
    return {FLAG: {k: v for k, v in values.items() if v not in (None, "")}}


def page_uuid(entry_id: str, page_id: str) -> str:
    return f"JournalEntry.{entry_id}.JournalEntryPage.{page_id}"


class Journal:
    """A JournalEntry under construction: text pages in order, ids stable by key."""

    def __init__(self, name: str, key: str, **flag_values: Any) -> None:
        self.name = name
        self.id = doc_id("JournalEntry", key)
        self.flags = flags(**flag_values)
        self.pages: list[dict[str, Any]] = []
        self._ids: set[str] = set()

    def page_id(self, key: str) -> str:
        return doc_id("JournalEntryPage", self.id, key)

    def uuid(self, key: str) -> str:
        return page_uuid(self.id, self.page_id(key))

    def add(self, key: str, name: str, html: str, level: int = 1) -> str:
        """Add a text page (HTML already escaped and linked); return its id."""
        pid = self.page_id(key)
        assert pid not in self._ids, key
        self._ids.add(pid)
        self.pages.append(
            {
                "_id": pid,
                "name": name.strip() or "Untitled",
                "type": "text",
                "title": {"show": True, "level": level},
                "text": {"content": html, "format": PAGE_HTML},
                "sort": (len(self.pages) + 1) * 100000,
                "ownership": {"default": OWNER_INHERIT},
                "flags": flags(page=key),  # what the page is: room/4, haven/0302...
            }
        )
        return pid

    def document(self) -> dict[str, Any]:
        return {
            "_id": self.id,
            "name": self.name.strip() or "Untitled",
            "pages": self.pages,
            "categories": [],
            "folder": None,
            "sort": 0,
            "ownership": {"default": OWNER_NONE},
            "flags": self.flags,
        }


def table_result(
    key: str, name: str, low: int, high: int, description: str = "", document: str | None = None
) -> dict[str, Any]:
    """A TableResult: its range of the roll, plain text, or a linked document (a draw)."""
    out: dict[str, Any] = {
        "_id": doc_id("TableResult", key),
        "type": "document" if document else "text",
        "name": name,
        "img": "icons/svg/d20-black.svg",
        "description": description,
        "weight": high - low + 1,
        "range": [low, high],
        "drawn": False,
        "flags": {},
    }
    if document:
        out["documentUuid"] = document
    return out


def roll_table(
    key: str,
    name: str,
    formula: str,
    results: list[dict[str, Any]],
    description: str = "",
    **flag_values: Any,
) -> dict[str, Any]:
    return {
        "_id": doc_id("RollTable", key),
        "name": name.strip() or "Untitled",
        "img": "icons/svg/d20-grey.svg",
        "description": description,
        "results": results,
        "formula": formula,
        "replacement": True,
        "displayRoll": True,
        "folder": None,
        "sort": 0,
        "ownership": {"default": OWNER_NONE},
        "flags": flags(**flag_values),
    }
