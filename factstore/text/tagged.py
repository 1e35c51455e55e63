"""Where each tagged figure of an inline XBRL filing stands in its parsed text: the content of every ix:nonFraction
is marked in the HTML (one private-use character before it, one after), the marked HTML is parsed as any filing,
and the marks are taken out of the parsed text, leaving each figure's span by its element id. The text, sections
and blocks are those of the unmarked parse."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from factstore.text.blocks import Document
from factstore.text.html import parse_filing

_START, _END = 0xF0000, 0x100000  # mark i: chr(_START + i) before a figure, chr(_END + i) after it (planes 15, 16)
_MOST = 0xFFFE  # marks each plane holds
_TAG = re.compile(r"<(/?)[\w.-]+:nonFraction\b([^>]*?)(/?)>")
_TEXT = re.compile(r"<[^>]*>")
_ID = re.compile(r"""\bid\s*=\s*["']([^"']+)["']""")
_MARKS = re.compile("[\U000f0000-\U0010fffd]")
# a space the marks left where a parse has none: beside another space or a line break, or at either end
_SPARE = re.compile(r"(?<=[ \n]) |\A | (?= *(?:\n|\Z))")


def mark(html: str) -> tuple[str, list[str]]:
    """The HTML with each ix:nonFraction's content between marks, and the ids of the elements marked, in order
    (an element without id or without text, or past the marks a plane holds, is not marked)."""
    inserts: list[tuple[int, str]] = []
    ids: list[str] = []
    open_: list[tuple[str | None, int]] = []
    for m in _TAG.finditer(html):
        closing, attributes, empty = m.groups()
        if empty:
            continue
        if not closing:
            found = _ID.search(attributes)
            open_.append((found.group(1) if found else None, m.end()))
        elif open_:
            fact_id, start = open_.pop()
            if fact_id is not None and len(ids) < _MOST and _TEXT.sub("", html[start:m.start()]).strip():
                inserts += [(start, chr(_START + len(ids))), (m.start(), chr(_END + len(ids)))]
                ids.append(fact_id)
    pieces, last = [], 0
    for position, character in sorted(inserts):
        pieces += [html[last:position], character]
        last = position
    pieces.append(html[last:])
    return "".join(pieces), ids


def parse_tagged(html: str) -> Document:
    """An inline XBRL filing parsed, with `tagged`: each figure's span in the text by its element id (a figure
    the text leaves out, hidden or page furniture, has none)."""
    marked, ids = mark(html)
    if not ids:
        return parse_filing(html)
    return unmark(parse_filing(marked), ids)


def unmark(doc: Document, ids: list[str]) -> Document:
    """A document parsed from marked HTML, its marks (and the spaces they left) taken out, offsets moved."""
    text = doc.text
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    keep = codes < _START
    bare = _MARKS.sub("", text)
    spare = [m.start() for m in _SPARE.finditer(bare)]
    keep[np.flatnonzero(keep)[spare]] = False
    before = np.concatenate(([0], np.cumsum(keep)))  # kept characters before each offset

    def moved(offset: int) -> int:
        return int(before[offset])

    spans: dict[str, list[int]] = {}
    for position in np.flatnonzero(codes >= _START):
        code = int(codes[position])
        number, end = (code - _END, True) if code >= _END else (code - _START, False)
        span = spans.setdefault(ids[number], [-1, -1])
        if end and span[1] < 0:
            span[1] = moved(position)
        elif not end and span[0] < 0:
            span[0] = moved(position)
    clean = bare if not spare else codes[keep].tobytes().decode("utf-32-le")
    return replace(doc, text=clean,
                   sections=[replace(s, start=moved(s.start), end=moved(s.end)) for s in doc.sections],
                   blocks=[replace(b, start=moved(b.start), end=moved(b.end)) for b in doc.blocks],
                   tagged={i: _trimmed(clean, s, e) for i, (s, e) in spans.items() if 0 <= s <= e})


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """A span without the whitespace at its ends (a figure's element may hold spaces around it)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
