"""Chunkers: pure functions from a parsed document to chunks that remember their exact spans.

`fixed`, `recursive` and `structure` are the course's baselines; `scoped` is ours (structure chunks,
and every note also indexed on its own; its search side narrows by the issuer and year a question
names). A chunk's text is its spans' slices joined by a blank line; a header never changes the spans.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from factstore.text.blocks import Document

Span = tuple[int, int]
DEFAULT_SIZE = 500
DEFAULT_OVERLAP = 100
SEPARATORS = ("\n\n", "\n", ". ", " ")


@dataclass(frozen=True)
class Chunk:
    """One retrievable unit: spans into the document's text, the section it belongs to, its kind."""

    spans: tuple[Span, ...]
    section: int | None
    kind: str  # 'window', 'text', 'table', 'note'


def chunk_text(doc: Document, chunk: Chunk) -> str:
    """The chunk's body: its spans' slices, joined by a blank line."""
    return "\n\n".join(doc.text[s:e] for s, e in chunk.spans)


def header_for(title: str, doc: Document, chunk: Chunk) -> str:
    """The course's context header, 'title > section' (the innermost heading; for filings the title is
    'issuer > form period', so 'issuer > form period > section')."""
    section = doc.sections[chunk.section].heading if chunk.section is not None else title
    return f"{title} > {section}"


def section_at(doc: Document, offset: int) -> int | None:
    """The innermost section containing an offset."""
    found = None
    for i, s in enumerate(doc.sections):
        if s.start <= offset < s.end and (found is None or s.level >= doc.sections[found].level):
            found = i
    return found


def _strip(text: str, start: int, end: int) -> Span:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def fixed(doc: Document, size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP) -> list[Chunk]:
    """Windows of `size` characters, each starting `size - overlap` after the previous one."""
    if not 0 <= overlap < size:
        raise ValueError("fixed: need 0 <= overlap < size")
    out, n = [], len(doc.text)
    for start in range(0, n, size - overlap):
        span = _strip(doc.text, start, min(start + size, n))
        if span[0] < span[1]:
            out.append(Chunk((span,), section_at(doc, span[0]), "window"))
        if start + size >= n:
            break
    return out


def _pieces(text: str, start: int, end: int, size: int, separators: tuple[str, ...]) -> list[Span]:
    """Split text[start:end] on the coarsest separator, recursing into pieces still above size."""
    if end - start <= size:
        return [(start, end)]
    if not separators:
        return [(s, min(s + size, end)) for s in range(start, end, size)]
    sep, finer = separators[0], separators[1:]
    keep = sep.rstrip()  # a sentence keeps its full stop; blank lines and spaces are dropped
    out, cursor = [], start
    while cursor < end:
        hit = text.find(sep, cursor, end)
        stop = end if hit < 0 else hit + len(keep)
        if stop > cursor:
            out.extend(_pieces(text, cursor, stop, size, finer))
        cursor = end if hit < 0 else hit + len(sep)
    return out


def recursive(doc: Document, size: int = DEFAULT_SIZE, separators: tuple[str, ...] = SEPARATORS) -> list[Chunk]:
    """Split on the coarsest separator first (blank line, line, sentence, space), then merge
    neighbouring pieces while the merged span stays within `size` characters."""
    out: list[Chunk] = []
    group: Span | None = None
    for s, e in _pieces(doc.text, 0, len(doc.text), size, separators):
        s, e = _strip(doc.text, s, e)
        if s >= e:
            continue
        if group is not None and e - group[0] <= size:
            group = (group[0], e)
            continue
        if group is not None:
            out.append(Chunk((group,), section_at(doc, group[0]), "text"))
        group = (s, e)
    if group is not None:
        out.append(Chunk((group,), section_at(doc, group[0]), "text"))
    return out


def note_spans(doc: Document) -> dict[int, list[Span]]:
    """For each block that cites notes, the spans of the note blocks it cites (the nearest note with
    that mark after the block, else before it)."""
    notes = [(i, b) for i, b in enumerate(doc.blocks) if b.kind == "note"]
    out: dict[int, list[Span]] = {}
    for i, block in enumerate(doc.blocks):
        for mark in block.notes:
            same = [(j, n) for j, n in notes if n.note_mark == mark]
            after = [n for j, n in same if j > i]
            before = [n for j, n in same if j < i]
            target = after[0] if after else (before[-1] if before else None)
            if target is not None and (target.start, target.end) not in out.get(i, []):
                out.setdefault(i, []).append((target.start, target.end))
    return out


def structure(doc: Document, size: int = DEFAULT_SIZE, *, lists_with_lead: bool = False) -> list[Chunk]:
    """Headings set the section and are not chunks; a table is one chunk even above `size`; a block
    that cites a note carries the note as a further span; consecutive paragraphs and lists of a
    section merge up to `size` characters. Notes that something cites travel with it. With
    `lists_with_lead`, a list always joins the paragraph that introduces it, whatever the size."""
    cites = note_spans(doc)
    cited = {span for spans in cites.values() for span in spans}
    out: list[Chunk] = []
    group: list[int] = []

    def flush() -> None:
        if group:
            first, last = doc.blocks[group[0]], doc.blocks[group[-1]]
            extra = [s for i in group for s in cites.get(i, [])]
            spans = ((first.start, last.end), *dict.fromkeys(extra))
            out.append(Chunk(spans, first.section, "text"))
            group.clear()

    for i, block in enumerate(doc.blocks):
        if block.kind == "heading" or (block.kind == "note" and (block.start, block.end) in cited):
            flush()
            continue
        if block.kind == "table":
            flush()
            spans = ((block.start, block.end), *cites.get(i, []))
            out.append(Chunk(spans, block.section, "table"))
            continue
        lead = lists_with_lead and block.kind == "list" and group and doc.blocks[group[-1]].kind == "paragraph"
        if group and (doc.blocks[group[0]].section != block.section
                      or (block.end - doc.blocks[group[0]].start > size and not lead)):
            flush()
        group.append(i)
    flush()
    return out


def scoped(doc: Document, size: int = DEFAULT_SIZE) -> list[Chunk]:
    """Ours: structure chunks whose lists stay with the sentence that introduces them, plus every note
    block indexed again on its own, so a question about what a figure includes finds the note even
    when its table scores low."""
    notes = [Chunk(((b.start, b.end),), b.section, "note") for b in doc.blocks if b.kind == "note"]
    return structure(doc, size, lists_with_lead=True) + notes


Chunker = Callable[..., list[Chunk]]
STRATEGIES: dict[str, Chunker] = {"fixed": fixed, "recursive": recursive, "structure": structure,
                                  "scoped": scoped}
BASELINES = ("fixed", "recursive", "structure")


def chunk(doc: Document, strategy: str, **params: int) -> list[Chunk]:
    """Chunk a document with a named strategy."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    return STRATEGIES[strategy](doc, **params)
