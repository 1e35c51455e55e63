"""Chunkers and the Markdown parser: spans round-trip, and the course's seed examples hold."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.demo.reports import generate_reports
from factstore.text.chunkers import LEAD_CHARS, STRATEGIES, chunk, chunk_text, fixed, recursive, scoped, structure
from factstore.text.markdown import parse_report, segment


@pytest.fixture(scope="module")
def corpus():
    return generate_reports()


@pytest.fixture(scope="module")
def parsed(corpus):
    return {r.id_doc: parse_report(r.texto) for r in corpus.documents.itertuples()}


def test_markdown_blocks_are_the_canonical_passages(corpus, parsed):
    for doc_id, doc in parsed.items():
        passages = corpus.passages[corpus.passages["id_doc"] == doc_id]
        assert [(b.start, b.end) for b in doc.blocks] == list(zip(passages["inicio"], passages["fin"], strict=True))


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_every_span_slices_the_stored_text_to_the_chunk_body(parsed, strategy):
    for doc in parsed.values():
        chunks = chunk(doc, strategy)
        assert chunks
        for c in chunks:
            assert all(0 <= s < e <= len(doc.text) for s, e in c.spans)
            assert chunk_text(doc, c) == "\n\n".join(doc.text[s:e] for s, e in c.spans)
            if strategy != "fixed":  # the course's windows cut anywhere; its blocks keep a final newline
                assert chunk_text(doc, c).strip() == chunk_text(doc, c).rstrip("\n")


def _key_figures(doc):
    """The annual reports' key-figures tables (section 'Principales magnitudes'), which cite notes."""
    return [b for b in doc.blocks if b.kind == "table" and b.notes and b.section is not None
            and "magnitudes" in doc.sections[b.section].heading.lower()]


def test_fixed_cuts_a_key_figures_table_structure_keeps_it_whole_with_notes(parsed):
    cut = kept = 0
    for doc in parsed.values():
        for table in _key_figures(doc):
            windows = [c.spans[0] for c in fixed(doc)]
            cut += not any(s <= table.start and table.end <= e for s, e in windows)
            chunks = [c for c in structure(doc) if c.spans[0] == (table.start, table.end)]
            assert len(chunks) == 1, "the table is not one structure chunk"
            notes = [b for b in doc.blocks if b.kind == "note" and b.note_mark in table.notes]
            assert notes and all((n.start, n.end) in chunks[0].spans[1:] for n in notes)
            kept += 1
    assert kept >= 10 and cut == kept


def test_structure_merges_paragraphs_within_a_section_up_to_size(parsed):
    for doc in parsed.values():
        for c in structure(doc, size=400):
            (s, e), *_ = c.spans
            inside = [b for b in doc.blocks if s <= b.start and b.end <= e]
            assert len({b.section for b in inside}) == 1
            assert all(b.kind != "heading" for b in inside)
            if len(inside) > 1:
                assert e - s <= 400


def test_scoped_joins_a_run_in_heading_to_the_paragraph_it_leads():
    """A 10-K's bold run-in heading ('Epic Games') is a block of its own: alone it would be a chunk saying nothing,
    and its words would not be with the paragraph they name. A table takes no lead (its budget; '(In millions)'
    stays a chunk of its own)."""
    body = ("The Company is defending itself in a lawsuit brought by a developer over its store rules. " * 7).strip()
    text = (f"## Legal Proceedings\n\nEpic Games\n\n{body}\n\nOther Legal Proceedings\n\n{body}\n\n"
            f"(In millions)\n\n| a | b |\n| 1 | 2 |\n\n## Risks\n\nA short block\n")
    doc = parse_report(text)
    texts = [chunk_text(doc, c) for c in scoped(doc)]
    assert len(body) > 500 and len("Other Legal Proceedings") <= LEAD_CHARS
    assert texts == [f"Epic Games\n\n{body}", f"Other Legal Proceedings\n\n{body}", "(In millions)",
                     "| a | b |\n| 1 | 2 |", "A short block"]


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab .\n|#¹-")), max_size=600),
       size=st.integers(20, 200))
def test_recursive_and_fixed_cover_all_text_within_size(text, size):
    doc = parse_report(text)
    for c in recursive(doc, size=size):
        (s, e), = c.spans
        assert e - s <= size
    covered = set()
    for c in recursive(doc, size=size):
        covered |= set(range(*c.spans[0]))
    assert {i for i, ch in enumerate(text) if not ch.isspace()} <= covered
    windows = fixed(doc, size=size, overlap=size // 4)
    assert all(e - s <= size for c in windows for s, e in c.spans)


def test_segment_kinds():
    text = "# T\n\npara\n\n| a | b |\n| 1 | 2 |\n\n- x\n- y\n\n² nota\n"
    assert [k for _, _, k in segment(text)] == ["titulo", "texto", "tabla", "lista", "nota"]
