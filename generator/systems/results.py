"""What a system gives a renderer: stat blocks and random events, ready to print."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class StatBlock:
    """One monster in one system: ordered (label, value) lines plus notes, for any renderer."""

    system: str
    name: str
    bracket: int
    bracket_name: str
    fields: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    parts: tuple[str, ...]  # the short form of each field ('Def 8'), in order

    @property
    def line(self) -> str:
        """The compact one-line form: 'Def 8, HP 28, Atk +2, ...'."""
        return ", ".join(self.parts)

    @property
    def title(self) -> str:
        return f"{self.name} ({self.bracket_name})"

    def text(self) -> str:
        """'Ghoul (elite): <line>.' then each note on its own indented line."""
        out = [f"{self.title}: {self.line}."]
        out += [f"  {note}" for note in self.notes]
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "name": self.name,
            "bracket": self.bracket,
            "bracket_name": self.bracket_name,
            "fields": [{"label": label, "value": value} for label, value in self.fields],
            "notes": list(self.notes),
            "line": self.line,
        }


@dataclass(frozen=True)
class RandomEvent:
    """One of a site's five random events ((Fortmayn)'s 5d6 procedure): its die, title and text."""

    die: int
    title: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"die": self.die, "title": self.title, "text": self.text}
