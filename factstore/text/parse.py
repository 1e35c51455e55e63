"""Parse stored documents into text, sections and blocks: HTML filings and Markdown reports alike."""

from __future__ import annotations

import pandas as pd

from factstore.progress import progress_bar
from factstore.text.blocks import Document
from factstore.text.html import parse_filing
from factstore.text.markdown import parse_report


def parse_document(kind: str, raw: str) -> Document:
    """A filing's HTML or a report's Markdown as a parsed Document."""
    return parse_filing(raw) if kind == "filing" else parse_report(raw)


def parse_rows(documents: pd.DataFrame, progress: bool | None = None
               ) -> tuple[list[str], pd.DataFrame, pd.DataFrame]:
    """Texts, section rows and block rows for a frame of documents (doc_id, kind, raw)."""
    texts, sections, blocks = [], [], []
    for doc_id, kind, raw in progress_bar(zip(documents["doc_id"], documents["kind"], documents["raw"], strict=True),
                                          total=len(documents), desc="parse documents", unit="doc",
                                          progress=progress, leave=False):
        doc = parse_document(kind, raw or "")
        texts.append(doc.text)
        sections += [(doc_id, i, s.heading, s.level, s.start, s.end, s.part, s.item, list(s.path))
                     for i, s in enumerate(doc.sections)]
        blocks += [(doc_id, i, b.kind, b.start, b.end, b.section, list(b.notes), b.note_mark)
                   for i, b in enumerate(doc.blocks)]
    section_frame = pd.DataFrame(sections, columns=["doc_id", "section_no", "heading", "level", "start_char",
                                                    "end_char", "part", "item", "path"])
    block_frame = pd.DataFrame(blocks, columns=["doc_id", "block_no", "kind", "start_char", "end_char",
                                                "section_no", "notes", "note_mark"])
    return texts, section_frame, block_frame
