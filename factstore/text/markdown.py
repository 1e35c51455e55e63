"""Markdown reports to blocks: headings set the section, tables (lines starting with |) stay whole,
note blocks (starting with ¹²³…) are found and linked to the blocks that cite them.

The stored text is the Markdown itself, so reference passages (offsets into it) need no mapping.
"""

from __future__ import annotations

import re

from factstore.text.blocks import Block, Document, Section

SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_TO_DIGIT = str.maketrans(SUPERSCRIPTS, "0123456789")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def segment(text: str) -> list[tuple[int, int, str]]:
    """The canonical segmentation: one (start, end, kind) per blank-line-separated block (whitespace-only
    lines are blank; a block excludes surrounding newlines and trailing spaces), kind one of the course's
    passage types: titulo, tabla, lista, nota, texto."""
    blocks: list[tuple[int, int, str]] = []
    start: int | None = None
    end = pos = 0
    for line in text.split("\n"):
        if line.strip():
            if start is None:
                start = pos
            end = pos + len(line.rstrip())
        elif start is not None:
            blocks.append((start, end, _block_kind(text[start:end])))
            start = None
        pos += len(line) + 1
    if start is not None:
        blocks.append((start, end, _block_kind(text[start:end])))
    return blocks


def _block_kind(block: str) -> str:
    lines = block.split("\n")
    if block.startswith("#"):
        return "titulo"
    if all(line.startswith("|") for line in lines):
        return "tabla"
    if all(_LIST_ITEM.match(line) for line in lines):
        return "lista"
    if block[0] in SUPERSCRIPTS:
        return "nota"
    return "texto"


_KINDS = {"titulo": "heading", "tabla": "table", "lista": "list", "nota": "note", "texto": "paragraph"}


def parse_report(text: str) -> Document:
    """Blocks and sections of a Markdown report; `Block.notes` lists the note marks a block cites."""
    doc = Document(text=text)
    open_sections: list[int] = []  # indexes into doc.sections, outermost first
    ends: dict[int, int] = {}
    raw: list[tuple[int, int, str, int | None, tuple[str, ...], str | None]] = []
    for start, end, kind in segment(text):
        body = text[start:end]
        mark = None
        if kind == "titulo":
            heading = _HEADING.match(body.split("\n")[0])
            level = len(heading.group(1)) if heading else 1
            title = heading.group(2) if heading else body.lstrip("#").strip()
            while open_sections and doc.sections[open_sections[-1]].level >= level:
                ends[open_sections.pop()] = start
            path = tuple(doc.sections[i].heading for i in open_sections) + (title,)
            doc.sections.append(Section(heading=title, level=level, start=start, end=len(text), path=path))
            open_sections.append(len(doc.sections) - 1)
        elif kind == "nota":
            mark = body[0].translate(_TO_DIGIT)  # the course's: a note is known by its first character
        cites = () if kind == "nota" else tuple(dict.fromkeys(
            c.translate(_TO_DIGIT) for c in body if c in SUPERSCRIPTS))
        raw.append((start, end, _KINDS[kind], open_sections[-1] if open_sections else None, cites, mark))
    for i, end in ends.items():
        s = doc.sections[i]
        doc.sections[i] = Section(s.heading, s.level, s.start, end, s.part, s.item, s.path)
    doc.blocks = [Block(kind=k, start=s, end=e, section=sec, notes=n, note_mark=m) for s, e, k, sec, n, m in raw]
    return doc
