"""Parse stored documents into text, sections and blocks: HTML filings and Markdown reports alike."""

from __future__ import annotations

import pandas as pd

from factstore.progress import progress_bar
from factstore.text.blocks import Document
from factstore.text.html import parse_filing
from factstore.text.markdown import parse_report
from factstore.text.tagged import parse_tagged
from factstore.xbrl.inline import declares_inline


def parse_document(kind: str, raw: str) -> Document:
    """A filing's HTML (with its tagged figures' spans where it is inline XBRL) or a report's Markdown as a
    parsed Document."""
    if kind != "filing":
        return parse_report(raw)
    return parse_tagged(raw) if declares_inline(raw) else parse_filing(raw)


def parse_rows(documents: pd.DataFrame, progress: bool | None = None
               ) -> tuple[list[str], pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Texts, section rows, block rows and tagged figures' spans for a frame of documents (doc_id, kind, raw)."""
    texts, sections, blocks, tagged = [], [], [], []
    for doc_id, kind, raw in progress_bar(zip(documents["doc_id"], documents["kind"], documents["raw"], strict=True),
                                          total=len(documents), desc="parse documents", unit="doc",
                                          progress=progress, leave=False):
        doc = parse_document(kind, raw or "")
        texts.append(doc.text)
        sections += [(doc_id, i, s.heading, s.level, s.start, s.end, s.part, s.item, list(s.path))
                     for i, s in enumerate(doc.sections)]
        blocks += [(doc_id, i, b.kind, b.start, b.end, b.section, list(b.notes), b.note_mark)
                   for i, b in enumerate(doc.blocks)]
        tagged += [(doc_id, fact_id, start, end) for fact_id, (start, end) in doc.tagged.items()]
    section_frame = pd.DataFrame(sections, columns=["doc_id", "section_no", "heading", "level", "start_char",
                                                    "end_char", "part", "item", "path"])
    block_frame = pd.DataFrame(blocks, columns=["doc_id", "block_no", "kind", "start_char", "end_char",
                                                "section_no", "notes", "note_mark"])
    spans = pd.DataFrame(tagged, columns=["doc_id", "fact_id", "start_char", "end_char"])
    return texts, section_frame, block_frame, spans
