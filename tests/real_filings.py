"""The real 10-K and 10-Q filings in shared/real/filings, each parsed once per process, the Items each has, and
the well-formedness every parsed document must have (offsets, blocks, sections)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from factstore.text.blocks import Document
from factstore.text.html import parse_filing
from tests.helpers import REAL

FILINGS = REAL / "filings"

TENK_MODERN = ["1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B", "9C",
               "10", "11", "12", "13", "14", "15", "16"]
TENQ_APPLE = [("I", "1"), ("I", "2"), ("I", "3"), ("I", "4"), ("II", "1"), ("II", "1A"), ("II", "2"),
              ("II", "3"), ("II", "4"), ("II", "5"), ("II", "6")]
# (form, the Items the document has in order) for each file in shared/real/filings
EXPECTED = {
    "AAPL_10-K_2024-11-01_0000320193-24-000123.html": ("10-K", TENK_MODERN),
    "GOOGL_10-K_2025-02-05.html": ("10-K", TENK_MODERN),
    "NVDA_10-K_2025-02-26.html": ("10-K", TENK_MODERN),
    "WFC_10-K_2025-02-25.html": ("10-K", TENK_MODERN),
    "AAPL_10-Q_2025-05-02_aapl-20250329.htm": ("10-Q", TENQ_APPLE),
    "AAPL_10-Q_2025-08-01_Q3FY25.html": ("10-Q", TENQ_APPLE),
    "NVDA_10-Q_2025-08-27.html": ("10-Q", [("I", "1"), ("I", "2"), ("I", "3"), ("I", "4"), ("II", "1"),
                                           ("II", "1A"), ("II", "2"), ("II", "5"), ("II", "6")]),
    # pre-2005: no Item 1A; Item 14 was then the exhibits item
    "10-K_1999_0000950153-99-001234.html": ("10-K", ["1", "2", "3", "4", "5", "6", "7", "7A", "8", "9",
                                                     "10", "11", "12", "13", "14"]),
    "10-K_2016_0001376474-16-000635.html": ("10-K", ["1", "1A", "1B", "2", "3", "4", "5", "6", "7", "7A",
                                                     "8", "9", "9A", "9B", "10", "11", "12", "13", "14", "15"]),
}


@cache
def parsed(name: str) -> Document:
    path = FILINGS / name
    if not path.exists():
        pytest.skip(f"real filings not found at {FILINGS} (they live beside the repository in shared/real)")
    return parse_filing(path.read_text(encoding="utf-8", errors="replace"))


def items_of(doc: Document) -> list[tuple[str, str]]:
    return [(s.part, s.item) for s in doc.sections if s.item]


def section_of(doc: Document, part: str, item: str):
    return next(s for s in doc.sections if (s.part, s.item) == (part, item))


def assert_well_formed(doc: Document) -> None:
    """Offsets round-trip, blocks tile the text with one blank line between them, sections nest."""
    text = doc.text
    assert "\n\n\n" not in text
    assert not re.search(r"[^\S\n]\n|\s$|^\s", text), "whitespace at a line end or around the text"
    previous_end = None
    for block in doc.blocks:
        assert 0 <= block.start < block.end <= len(text)
        body = text[block.start:block.end]
        assert body == body.strip()
        assert text[previous_end:block.start] == "\n\n" if previous_end is not None else block.start == 0
        previous_end = block.end
        assert all(n.isdigit() for n in block.notes)
        assert (block.kind == "note") == (block.note_mark is not None)
        if block.section is not None:
            inner = doc.sections[block.section]
            assert inner.start <= block.start < inner.end
            assert all(s.level <= inner.level for s in doc.sections if s.start <= block.start < s.end)
        else:
            assert not any(s.start <= block.start < s.end for s in doc.sections)
    assert previous_end == len(text) or not doc.blocks
    heading_starts = {b.start: b for b in doc.blocks if b.kind == "heading"}
    for s in doc.sections:
        assert 0 <= s.start < s.end <= len(text)
        assert s.start in heading_starts
        assert " ".join(text[s.start:heading_starts[s.start].end].split()) == s.heading
        assert s.path[-1] == s.heading
        assert s.level in (1, 2, 3)
        later = [t.start for t in doc.sections if t.start > s.start and t.level <= s.level]
        assert s.end == (min(later) if later else len(text))
