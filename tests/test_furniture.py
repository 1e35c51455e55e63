"""Page furniture (factstore.text.furniture): running headers and footers, contents back-links and page
numbers are left out of a filing's text, found by repetition and position at page breaks, never by
wording; content that merely repeats (twice, in mid-page, in tables, Item headings) stays."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.demo.data import generate
from factstore.text import html
from factstore.text.chunkers import chunk, chunk_text
from factstore.text.furniture import shape
from factstore.text.html import parse_filing
from tests.real_filings import EXPECTED, FILINGS, assert_well_formed, items_of, parsed

BREAKS = ['<hr style="page-break-after:always"/>', '<div style="page-break-before:always"></div>',
          '<p style="break-before: page"></p>', "<table style='page-break-after:always'></table>", "<hr/>"]
FOOTERS = ["{name} Corp — Annual Report — page {n}", "{name} Holdings | 2031 Form 10-K | {n}", "Page {n} of {total}",
           "- {n} -", "{n}.", "{roman}", "F-{n}"]
ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi",
         "xvii", "xviii", "xix", "xx", "xxi", "xxii", "xxiii", "xxiv", "xxv"]
WORDS = st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9)
# a page number alone on its line, as the test sees one
BARE_NUMBER = re.compile(r"(page )?[-–—(]? ?(\d{1,4}|[ivxlc]{1,7}|[a-z]-\d{1,3})( of \d{1,4})? ?[-–—)]?\.?", re.I)
REPEATED = 10  # a short line this many times in one filing is a running header or footer


def paragraph(words: list[str], page: int, k: int) -> str:
    """A content paragraph, long enough never to pass for furniture."""
    return f"On page {page} part {k} " + " ".join(words * (1 + 120 // (1 + len(" ".join(words)))))


def filing(pages: list[list[str]], top=None, bottom=None, brk: str = BREAKS[0]) -> str:
    """Pages of paragraphs; ``top``/``bottom`` give a page's header/footer HTML from its number (or None)."""
    out = []
    for n, paragraphs in enumerate(pages, 1):
        head, foot = (f(n) if f else None for f in (top, bottom))
        out.append("".join([f"<div>{head}</div>" if head else "", *(f"<p>{p}</p>" for p in paragraphs),
                            f"<div style='text-align:center'>{foot}</div>" if foot else ""]))
    return "<html><body>" + brk.join(out) + "</body></html>"


def body(pages: list[list[str]]) -> str:
    return "\n\n".join(p for paragraphs in pages for p in paragraphs)


@st.composite
def document(draw, min_pages: int = 4) -> list[list[str]]:
    words = draw(st.lists(WORDS, min_size=1, max_size=6))
    return [[paragraph(words, page, k) for k in range(draw(st.integers(1, 3)))]
            for page in range(1, draw(st.integers(min_pages, 25)) + 1)]


# --- made-up filings --------------------------------------------------------------------------------

@settings(max_examples=60)
@given(document(), WORDS, st.sampled_from(FOOTERS), st.sampled_from(BREAKS), st.booleans())
def test_running_footers_back_links_and_page_numbers_go(pages, name, footer, brk, back_link) -> None:
    """Whatever their wording, a footer with the page's number and a back-link at each page's top are
    left out, and every content paragraph stays, at exact offsets."""
    total = len(pages)
    doc = parse_filing(filing(
        pages, top=(lambda n: f"<a href='#index'>Back to the {name} index</a>") if back_link else None,
        bottom=lambda n: footer.format(name=name.title(), n=n, total=total, roman=ROMAN[n - 1]), brk=brk))
    assert doc.text == body(pages)
    assert_well_formed(doc)


@settings(max_examples=30)
@given(document(), WORDS)
def test_a_running_header_of_several_lines_goes_line_by_line(pages, name) -> None:
    lines = [f"<a href='#toc'>{name} contents</a>", f"{name.title()} and Subsidiaries", "Notes (Continued)"]
    doc = parse_filing(filing(pages, top=lambda n: "</div><div>".join(lines) if n > 1 else None,
                              bottom=lambda n: str(n)))
    assert doc.text == body(pages)


@settings(max_examples=30)
@given(document(min_pages=5), WORDS, st.data())
def test_a_short_line_at_the_edge_of_only_two_pages_stays(pages, name, data) -> None:
    """Repetition: a footer on two pages only (a short paragraph that happens to repeat) is kept."""
    two = data.draw(st.lists(st.integers(1, len(pages)), min_size=2, max_size=2, unique=True))
    line = f"{name.title()} Corp — Annual Report — page"
    doc = parse_filing(filing(pages, bottom=lambda n: f"{line} {n}" if n in two else None))
    assert len(re.findall(re.escape(line), doc.text)) == 2
    doc = parse_filing(filing(pages, bottom=lambda n: "Not applicable." if n in two else str(n)))
    assert doc.text.count("Not applicable.") == 2 and not re.search(r"^\d+$", doc.text, re.M)


@settings(max_examples=30)
@given(document(min_pages=20), st.data())
def test_a_line_at_the_edge_of_a_small_share_of_the_pages_stays(pages, data) -> None:
    """A line closing a few statement pages of a long filing is content; the page numbers still go."""
    few = data.draw(st.lists(st.integers(1, len(pages)), min_size=3, max_size=len(pages) // 4 - 1, unique=True))
    line = "See accompanying notes."
    doc = parse_filing(filing(pages, bottom=lambda n: f"{line}</div><div>{n}" if n in few else str(n)))
    assert doc.text.count(line) == len(few) and not re.search(r"^\d+$", doc.text, re.M)


@settings(max_examples=30)
@given(document(), WORDS)
def test_a_line_repeated_on_every_page_but_not_at_its_edges_stays(pages, name) -> None:
    """Position: the same short line on every page stays when it is in mid-page, or when the document
    marks no page breaks at all."""
    line = f"{name.title()} Corp — Annual Report"
    mid = [[paragraphs[0], line, *paragraphs[1:], "closing " + paragraphs[0]] for paragraphs in pages]
    assert parse_filing(filing(mid)).text == body(mid)
    unbroken = parse_filing(filing(pages, bottom=lambda n: f"{line} — page {n}", brk=""))
    assert len(re.findall(re.escape(line), unbroken.text)) == len(pages)


def test_table_rows_at_every_page_bottom_stay() -> None:
    pages = [[paragraph(["revenue", "grew"], n, 1)] for n in range(1, 9)]
    table = "<table><tr><td>Total</td><td>1,234</td></tr><tr><td>Other</td><td>5</td></tr></table>"
    doc = parse_filing(filing(pages, bottom=lambda n: f"{table}</div><div>{n}"))
    assert doc.text == "\n\n".join(f"{p}\n\nTotal | 1,234\nOther | 5" for (p,) in pages)
    assert [b.kind for b in doc.blocks] == ["paragraph", "table"] * len(pages)


def test_item_headings_at_every_page_top_stay() -> None:
    """Items that each start a page, their number alone on a line ("Item 1A."), stay Items."""
    titles = {"1": "Business", "1A": "Risk Factors", "1B": "Unresolved Staff Comments", "1C": "Cybersecurity",
              "2": "Properties", "3": "Legal Proceedings", "4": "Mine Safety Disclosures"}
    page = "<p><b>Item {item}.</b></p><p><b>{title}</b></p><p>{text}</p><div>{n}</div>"
    text = paragraph(["we", "make", "things"], 0, 0)
    doc = parse_filing("<html><body>" + BREAKS[0].join(
        page.format(item=item, title=title, text=text, n=n) for n, (item, title) in enumerate(titles.items(), 1))
        + "</body></html>")
    assert [(s.item, s.heading) for s in doc.sections] == [(i, f"Item {i}. {t}") for i, t in titles.items()]
    assert not re.search(r"^\d+$", doc.text, re.M)


def test_shapes_mask_numbers_and_page_numbers() -> None:
    assert {shape(t) for t in ["7", "7.", "- 7 -", "iv", "XIV", "F-7", "Page 7", "page 7 of 90", "S-1"]} == {"#"}
    footer = "foo corp | # form #-k | #"
    assert shape("Foo  Corp | 2031 Form 10-K | 12") == shape("foo corp | 2031 form 10-k | 3") == footer
    assert shape("civil") == "civil" and shape("Item 7.") == "item #."


def test_the_course_html_is_unchanged(monkeypatch) -> None:
    pages = generate(companies=3).documents["texto"]
    parsed_now = [parse_filing(page) for page in pages]
    monkeypatch.setattr(html, "furniture", lambda texts, breaks: set())
    assert parsed_now == [parse_filing(page) for page in pages]


# --- real filings -----------------------------------------------------------------------------------

@pytest.mark.real
@pytest.mark.parametrize(("name", "furniture"), [
    ("AAPL_10-K_2024-11-01_0000320193-24-000123.html", r"Apple Inc\. \| 2024 Form 10-K \| \d+"),
    ("NVDA_10-K_2025-02-26.html", r"Table of Contents"),
    ("GOOGL_10-K_2025-02-05.html", r"Table of Contents"),
])
def test_real_running_footer_and_back_links_are_gone(name: str, furniture: str) -> None:
    doc = parsed(name)
    page = (FILINGS / name).read_text(encoding="utf-8", errors="replace")
    assert len(re.findall(furniture, page, re.I)) > 50  # what the filing has
    assert len(re.findall(furniture, doc.text, re.I)) <= 2


@pytest.mark.real
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_short_blocks_and_chunks_hold_no_furniture(name: str) -> None:
    """No block, and no structure or scoped chunk, under 60 characters holds a page number alone on a
    line or a short line the filing repeats many times (a running header or footer, a back-link)."""
    doc = parsed(name)
    counts: dict[str, int] = {}
    for b in doc.blocks:
        if b.kind in ("paragraph", "heading") and b.end - b.start <= 100:
            key = re.sub(r"\d+", "#", doc.text[b.start:b.end].lower())
            counts[key] = counts.get(key, 0) + 1

    def furniture(text: str) -> list[str]:
        return [line for line in text.split("\n") if BARE_NUMBER.fullmatch(line.strip())
                or counts.get(re.sub(r"\d+", "#", line.lower()), 0) >= REPEATED]

    short = [doc.text[b.start:b.end] for b in doc.blocks if b.end - b.start < 60]
    short += [chunk_text(doc, c) for strategy in ("structure", "scoped") for c in chunk(doc, strategy)
              if len(chunk_text(doc, c)) < 60]
    assert short
    assert not [t for t in short if furniture(t)]
    assert_well_formed(doc)
    assert items_of(doc)
