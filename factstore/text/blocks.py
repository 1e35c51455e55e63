"""What every parser produces: a plain text that the store keeps, and blocks and sections that point
into it by character offsets (``text[start:end]``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Section:
    """A headed section: ``text[start:end]`` runs from its heading to the next heading of the same or a
    higher level. ``part``/``item`` are set for SEC Items ("II", "1A"); ``path`` is the heading path."""

    heading: str
    level: int
    start: int
    end: int
    part: str | None = None
    item: str | None = None
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Block:
    """A unit of the text: a heading, a paragraph, a list, a table (kept whole) or a note.

    ``section`` indexes ``Document.sections`` (None before the first heading); ``notes`` are the marks
    this block cites ("1", "²"...) and ``note_mark`` is the mark a note block defines.
    """

    kind: str
    start: int
    end: int
    section: int | None = None
    notes: tuple[str, ...] = ()
    note_mark: str | None = None


@dataclass
class Document:
    """A parsed filing or report: the stored text, its sections and blocks (blank-line separated)."""

    text: str
    sections: list[Section] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    tagged: dict[str, tuple[int, int]] = field(default_factory=dict)  # an inline XBRL figure's span by its id

    def slice(self, start: int, end: int) -> str:
        return self.text[start:end]
