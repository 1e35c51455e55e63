"""Chunkers: pure functions from a parsed document to chunks that remember their exact spans.

`fixed`, `recursive` and `structure` are the course's three chunkers, as its lesson defines them and with its
parameters (windows of 500 characters overlapping by 50; the coarsest separator that fits 500 characters;
structure-aware chunks merged up to 800 characters), so they give the course's chunks to the character.
`scoped` is ours (see its docstring). A chunk's text is its spans' slices joined by a blank line; the context
header ('title > section') is indexed with it but never changes the spans.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from factstore.text.blocks import Document

Span = tuple[int, int]
FIXED_SIZE, FIXED_OVERLAP = 500, 50
RECURSIVE_SIZE = 500
STRUCTURE_SIZE = 800
# scoped: blocks this short in all lead the text block after them (a 10-K's run-in heading, 'Epic Games', was a chunk
# alone); a table takes no lead (on the demo corpus it costs the 1,400-character budget a passage)
LEAD_CHARS = 100
SEPARATORS = ("\n\n", "\n", ". ", " ")


@dataclass(frozen=True)
class Chunk:
    """One retrievable unit: spans into the document's text, the section it belongs to (an index into
    Document.sections), its kind, and the heading its context header names."""

    spans: tuple[Span, ...]
    section: int | None
    kind: str  # 'window', 'text', 'table', 'note'
    heading: str = ""


def chunk_text(doc: Document, chunk: Chunk) -> str:
    """The chunk's body: its spans' slices, joined by a blank line."""
    return "\n\n".join(doc.text[s:e] for s, e in chunk.spans)


def header_for(title: str, chunk: Chunk) -> str:
    """The course's context header, 'title > section' (for filings the title is 'issuer > form period')."""
    return f"{title} > {chunk.heading}"


def section_at(doc: Document, offset: int) -> int | None:
    """The innermost section containing an offset."""
    found = None
    for i, s in enumerate(doc.sections):
        if s.start <= offset < s.end and (found is None or s.level >= doc.sections[found].level):
            found = i
    return found


_MARKDOWN_HEADING = re.compile(r"^##+ (.*)$", re.M)
_RUN = re.compile(r"[^\n](?:.|\n(?!\n))*")  # a block: non-blank lines up to a blank line


class Headings:
    """The heading in effect at an offset, by the course's rule: the last '##' heading line (any level from 2)
    of the text up to and including that offset (a line the offset cuts short counts as far as it goes).
    A document without Markdown headings (a parsed filing) takes the last of its sections started by then."""

    def __init__(self, doc: Document) -> None:
        self.text = doc.text
        found = list(_MARKDOWN_HEADING.finditer(doc.text))
        if found:
            self.starts = [m.start(1) for m in found]
            self.ends = [m.end(1) for m in found]
            self.names: list[str] | None = None
        else:
            self.starts = [s.start for s in doc.sections]
            self.names = [s.heading for s in doc.sections]

    def at(self, offset: int) -> str:
        if self.names is not None:
            j = bisect_right(self.starts, offset) - 1
            return self.names[j] if j >= 0 else ""
        j = bisect_right(self.starts, offset + 1) - 1
        return self.text[self.starts[j]:min(self.ends[j], offset + 1)] if j >= 0 else ""


def _chunk(doc: Document, headings: Headings, spans: tuple[Span, ...], kind: str) -> Chunk:
    return Chunk(spans, section_at(doc, spans[0][0]), kind, headings.at(spans[0][0]))


def fixed(doc: Document, size: int = FIXED_SIZE, overlap: int = FIXED_OVERLAP) -> list[Chunk]:
    """Windows of `size` characters, each starting `overlap` characters before the previous one ends; the last
    ends with the text (the course's `fijo`: cuts fall anywhere, whitespace included)."""
    if not 0 <= overlap < size:
        raise ValueError("fixed: need 0 <= overlap < size")
    n, headings, out, start = len(doc.text), Headings(doc), [], 0
    while n:
        end = min(start + size, n)
        out.append(_chunk(doc, headings, ((start, end),), "window"))
        if end == n:
            break
        start = end - overlap
    return out


def _cuts(text: str, start: int, end: int, separators: tuple[str, ...], size: int) -> list[Span]:
    """text[start:end] as spans of at most `size`: split after each occurrence of the coarsest separator (a piece
    keeps its separator), pieces still too long split by the finer ones (with none left, every `size`
    characters), then neighbours merged while they fit."""
    if end - start <= size:
        return [(start, end)]
    if not separators:
        return [(k, min(k + size, end)) for k in range(start, end, size)]
    sep, bounds = separators[0], [start]
    hit = text.find(sep, start, end)
    while hit != -1:
        bounds.append(hit + len(sep))
        hit = text.find(sep, hit + len(sep), end)
    bounds.append(end)
    merged: list[Span] = []
    for a, b in pairwise(bounds):
        for s, e in _cuts(text, a, b, separators[1:], size) if b > a else []:
            if merged and e - merged[-1][0] <= size:
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
    return merged


def _strip(text: str, start: int, end: int) -> Span:
    piece = text[start:end]
    start += len(piece) - len(piece.lstrip())
    return start, end - (len(text[start:end]) - len(text[start:end].rstrip()))


def recursive(doc: Document, size: int = RECURSIVE_SIZE, separators: tuple[str, ...] = SEPARATORS) -> list[Chunk]:
    """The course's `recursivo`: split on the coarsest separator that works (blank line, line, sentence, space),
    recursing into pieces above `size` and merging neighbours while they fit; each span trimmed of whitespace."""
    headings, out = Headings(doc), []
    for s, e in _cuts(doc.text, 0, len(doc.text), separators, size):
        s, e = _strip(doc.text, s, e)
        if e > s:
            out.append(_chunk(doc, headings, ((s, e),), "text"))
    return out


def structure(doc: Document, size: int = STRUCTURE_SIZE) -> list[Chunk]:
    """The course's `estructura`: headings set the section and are not chunks; a table is one chunk whatever its
    size; a block that cites notes is a chunk of its own carrying each note as a further span (a mark names the
    last note of the document with that mark); other consecutive blocks of one section merge up to `size`."""
    headings, notes = Headings(doc), {}
    # a block runs to the end of its run of non-blank lines, as the course reads blocks (a final newline included)
    ends = {m.start(): m.end() for m in _RUN.finditer(doc.text)}
    for b in doc.blocks:
        if b.kind == "note" and b.note_mark:
            notes[b.note_mark] = (b.start, ends.get(b.start, b.end))
    out: list[Chunk] = []
    pinned = False  # whether the last chunk takes no more blocks
    for b in doc.blocks:
        if b.kind in ("heading", "note"):
            continue
        span = (b.start, ends.get(b.start, b.end))
        marks = tuple(dict.fromkeys(notes[m] for m in b.notes if m in notes))
        pins = b.kind == "table" or bool(marks)
        last = out[-1].spans[0] if out else None
        if (last and not pins and not pinned and headings.at(b.start) == out[-1].heading
                and span[1] - last[0] <= size):
            out[-1] = Chunk(((last[0], span[1]),), out[-1].section, out[-1].kind, out[-1].heading)
            continue
        out.append(_chunk(doc, headings, (span, *marks), "table" if b.kind == "table" else "text"))
        pinned = pins
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


def scoped(doc: Document, size: int = RECURSIVE_SIZE) -> list[Chunk]:
    """Ours: blocks grouped by section up to `size` (a list stays with the sentence that introduces it, a run-in
    heading with the paragraph it leads: LEAD_CHARS), each table whole with the notes it cites (the nearest note
    of each mark), and every note block indexed again on its own, so a question about what a figure includes
    finds the note even when its table scores low; its search side narrows by the issuer and year a question
    names."""
    headings, cites = Headings(doc), note_spans(doc)
    cited = {span for spans in cites.values() for span in spans}
    out: list[Chunk] = []
    group: list[int] = []

    def flush() -> None:
        if group:
            first, last = doc.blocks[group[0]], doc.blocks[group[-1]]
            extra = [s for i in group for s in cites.get(i, [])]
            out.append(_chunk(doc, headings, ((first.start, last.end), *dict.fromkeys(extra)), "text"))
            group.clear()

    for i, block in enumerate(doc.blocks):
        if block.kind == "heading" or (block.kind == "note" and (block.start, block.end) in cited):
            flush()
            continue
        if block.kind == "table":
            flush()
            out.append(_chunk(doc, headings, ((block.start, block.end), *cites.get(i, [])), "table"))
            continue
        short = bool(group) and doc.blocks[group[-1]].end - doc.blocks[group[0]].start <= LEAD_CHARS
        lead = short or (block.kind == "list" and group and doc.blocks[group[-1]].kind == "paragraph")
        if group and (doc.blocks[group[0]].section != block.section
                      or (block.end - doc.blocks[group[0]].start > size and not lead)):
            flush()
        group.append(i)
    flush()
    return out + [_chunk(doc, headings, ((b.start, b.end),), "note") for b in doc.blocks if b.kind == "note"]


Chunker = Callable[..., list[Chunk]]
STRATEGIES: dict[str, Chunker] = {"fixed": fixed, "recursive": recursive, "structure": structure,
                                  "scoped": scoped}
BASELINES = ("fixed", "recursive", "structure")


def chunk(doc: Document, strategy: str, **params: int) -> list[Chunk]:
    """Chunk a document with a named strategy (params: its size, fixed's overlap; defaults: the course's)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    return STRATEGIES[strategy](doc, **{k: v for k, v in params.items() if v is not None})
