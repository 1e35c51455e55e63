"""HTML filings to text, blocks and sections (factstore.text.html): offsets, real 10-K/10-Q Items, the
course's HTML, tables and notes."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html

from factstore.demo.data import generate
from factstore.text.blocks import Document
from factstore.text.html import linearize_table, parse_filing
from tests.helpers import REAL
from tests.real_filings import EXPECTED, FILINGS, TENK_MODERN, assert_well_formed, items_of, parsed, section_of

SECTIONS = REAL / "sections"

RISK_FACTORS_LONG = ["AAPL_10-K_2024-11-01_0000320193-24-000123.html", "GOOGL_10-K_2025-02-05.html",
                     "NVDA_10-K_2025-02-26.html"]
# edgartools' parser corpus fixture -> our copy (same documents)
EDGARTOOLS = {
    "aapl/10k/aapl-10-k-2024-11-01.html": "AAPL_10-K_2024-11-01_0000320193-24-000123.html",
    "aapl/10q/aapl-10-q-2025-08-01.html": "AAPL_10-Q_2025-08-01_Q3FY25.html",
    "googl/10k/googl-10-k-2025-02-05.html": "GOOGL_10-K_2025-02-05.html",
    "nvda/10k/nvda-10-k-2025-02-26.html": "NVDA_10-K_2025-02-26.html",
    "nvda/10q/nvda-10-q-2025-08-27.html": "NVDA_10-Q_2025-08-27.html",
}
ROMAN = {"i": "I", "ii": "II", "iii": "III", "iv": "IV"}


# --- real filings -----------------------------------------------------------------------------------

@pytest.mark.real
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_filing_is_well_formed(name: str) -> None:
    assert_well_formed(parsed(name))


@pytest.mark.real
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_filing_items_in_order_once(name: str) -> None:
    doc = parsed(name)
    form, expected = EXPECTED[name]
    found = items_of(doc)
    assert len(found) == len(set(found)), "an Item came out twice (a table-of-contents copy?)"
    starts = [s.start for s in doc.sections if s.item]
    assert starts == sorted(starts)
    if form == "10-K":
        assert [item for _, item in found] == expected
        layout = {**dict.fromkeys(["1", "1A", "1B", "1C", "2", "3", "4"], "I"),
                  **dict.fromkeys(["5", "6", "7", "7A", "8", "9", "9A", "9B", "9C"], "II"),
                  **dict.fromkeys(["10", "11", "12", "13"], "III"), "14": "III", "15": "IV", "16": "IV"}
        if "1999" in name:
            layout["14"] = "IV"  # the exhibits Item of the pre-2003 layout
        assert [part for part, _ in found] == [layout[item] for _, item in found]
        assert {"1", "2", "3", "5", "7", "7A", "8", "9"} <= {item for _, item in found}
    else:
        assert found == expected, "10-Q Items must keep their Part"
        assert {("I", "1"), ("I", "2"), ("I", "3"), ("I", "4"), ("II", "1"), ("II", "1A")} <= set(found)


@pytest.mark.real
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_filing_parts_hold_their_items(name: str) -> None:
    doc = parsed(name)
    parts = [s for s in doc.sections if s.level == 1]
    unheaded = {"III"} if "2016" in name else set()  # that 10-K has no PART III heading
    assert [p.part for p in parts] == [p for p in dict.fromkeys(part for part, _ in items_of(doc)) if p not in unheaded]
    for s in doc.sections:
        if s.item and s.part not in unheaded:
            part = next(p for p in parts if p.part == s.part)
            assert part.start < s.start and s.end <= part.end
            assert s.path == (part.heading, s.heading)


@pytest.mark.real
@pytest.mark.parametrize("name", RISK_FACTORS_LONG)
def test_real_10k_risk_factors_are_whole(name: str) -> None:
    doc = parsed(name)
    risk = section_of(doc, "I", "1A")
    body = doc.text[risk.start:risk.end]
    assert len(body) > 20_000
    assert re.match(r"item\s+1a\.?\s+risk factors", body, re.I)
    assert "Item 1B" not in body and "ITEM 1B" not in body
    # sub-headings inside the Item carry it in their path
    inner = [s for s in doc.sections if s.level == 3 and risk.start < s.start < risk.end]
    assert inner and all(s.path[:2] == risk.path for s in inner)


@pytest.mark.real
def test_real_10q_items_keep_their_part() -> None:
    doc = parsed("NVDA_10-Q_2025-08-27.html")
    statements, legal = section_of(doc, "I", "1"), section_of(doc, "II", "1")
    assert "financial statements" in statements.heading.lower()
    assert "legal proceedings" in legal.heading.lower()
    assert section_of(doc, "II", "1A").end - section_of(doc, "II", "1A").start > 20_000


@pytest.mark.real
def test_real_items_match_edgartools_lengths() -> None:
    """Item lengths within 20% of edgartools' for its Items over 5,000 characters (not marked bad)."""
    path = SECTIONS / "edgartools_parser_corpus_manifest.json"
    if not path.exists():
        pytest.skip(f"edgartools manifest not found at {path}")
    compared = 0
    for filing in json.loads(path.read_text())["filings"]:
        name = EDGARTOOLS.get(filing["fixture"])
        if name is None:
            continue
        doc = parsed(name)
        bad = {b.split("item_")[-1].upper() for b in filing["known_bad"]}
        for item, info in filing["items"].items():
            if info["text_len"] < 5_000 or item in bad:
                continue
            part = ROMAN[info["section_name"].split("_item_")[0].removeprefix("part_")]
            s = section_of(doc, part, item)
            assert 0.8 < (s.end - s.start) / info["text_len"] < 1.25, (name, part, item)
            compared += 1
    assert compared >= 15


@pytest.mark.real
def test_real_item_headings_match_edgartools_patterns() -> None:
    """Modern filings: each Item heading matches edgartools' golden heading pattern for that Item."""
    path = SECTIONS / "edgartools_section_patterns_golden.json"
    if not path.exists():
        pytest.skip(f"edgartools patterns not found at {path}")
    golden = json.loads(path.read_text())
    patterns: dict[tuple[str, str | None, str], list[str]] = {}
    for form in ("10-K", "10-Q"):
        for name, pairs in golden[form].items():
            item = re.search(r"\\s\+(\d+[A-C]?)", pairs[0][0]).group(1)
            part = ROMAN[name.split("_item_")[0].removeprefix("part_")] if form == "10-Q" else None
            patterns[form, part, item] = [p for p, _ in pairs]
    for name in [*RISK_FACTORS_LONG, "WFC_10-K_2025-02-25.html", "NVDA_10-Q_2025-08-27.html",
                 "AAPL_10-Q_2025-08-01_Q3FY25.html"]:
        form = EXPECTED[name][0]
        for s in parsed(name).sections:
            key = (form, s.part if form == "10-Q" else None, s.item)
            if s.item and key in patterns:
                assert any(re.match(p, s.heading, re.I) for p in patterns[key]), (name, s.heading)


@pytest.mark.real
def test_real_tables_and_notes() -> None:
    doc = parsed("AAPL_10-K_2024-11-01_0000320193-24-000123.html")
    tables = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "table"]
    statement = next(t for t in tables if "Total net sales | 391,035 | 383,285 | 394,328" in t)
    assert "Net income | $93,736 | $96,995 | $99,803" in statement
    assert "Other income/(expense), net | 269 | (565) | (334)" in statement
    assert "Total net sales: Years ended September 28, 2024 = 391,035;" in linearize_table(statement)
    assert not any(re.search(r"(^| \| )(\$|\)|%)( \| |$)", t, re.M) for t in tables), "a lone $ ) or % cell"
    toc = next(t for t in tables if "Item 1A. | Risk Factors" in t)
    assert doc.text.index(toc) < section_of(doc, "I", "1").start
    googl = parsed("GOOGL_10-K_2025-02-05.html")
    notes = [b for b in googl.blocks if b.kind == "note"]
    assert notes and all(googl.text[b.start] == "⁽" for b in notes)
    cited = {n for b in googl.blocks if b.kind == "table" for n in b.notes}
    assert {"1", "2"} <= cited


@pytest.mark.real
def test_real_hidden_xbrl_header_is_skipped() -> None:
    doc = parsed("AAPL_10-Q_2025-05-02_aapl-20250329.htm")
    assert "iso4217" not in doc.text and "xbrli" not in doc.text
    assert doc.text.startswith("UNITED STATES")


@pytest.mark.real
def test_a_filing_twice_over_keeps_one_chain_of_items() -> None:
    """A 10-K's body repeated (its Items twice): the items are one chain in order, not both copies."""
    path = FILINGS / "GOOGL_10-K_2025-02-05.html"
    if not path.exists():
        pytest.skip(f"real filings not found at {FILINGS}")
    page = path.read_text(encoding="utf-8")
    body = page[page.index("<body"):page.rindex("</body>")]
    big = page[:page.index("<body")] + body + body.replace("<body", "<div", 1) + "</div></body></html>"
    assert len(items_of(parse_filing(big))) == len(TENK_MODERN)


# --- the course's HTML ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def course() -> list[tuple[str, str, Document]]:
    docs = generate(companies=3).documents
    return [(form, page, parse_filing(page)) for form, page in zip(docs["tipo"], docs["texto"], strict=True)]


def test_course_is_well_formed(course) -> None:
    for _, _, doc in course:
        assert_well_formed(doc)


def test_course_sections_are_the_h2_items(course) -> None:
    tenk_parts = {"1": "I", "1A": "I", "7": "II", "8": "II"}
    for form, page, doc in course:
        h2 = [html_lib.unescape(h) for h in re.findall(r"<h2>(.*?)</h2>", page)]
        assert [s.heading for s in doc.sections] == h2
        assert all(s.level == 2 and s.path == (s.heading,) for s in doc.sections)
        for s in doc.sections:
            explicit = re.match(r"Part (\w+) — Item (\w+)\.", s.heading)
            if explicit:
                assert (s.part, s.item) == explicit.groups()
            else:
                assert form.startswith("10-K")
                assert s.item == re.match(r"Item (\w+)\.", s.heading).group(1)
                assert s.part == tenk_parts[s.item]
        title = doc.blocks[0]
        assert title.kind == "heading" and title.section is None


def test_course_part_ii_item_1a(course) -> None:
    quarterly = [doc for form, _, doc in course if form == "10-Q"]
    assert quarterly
    for doc in quarterly:
        assert items_of(doc) == [("I", "1"), ("I", "2"), ("II", "1A")]


def test_course_tables_are_whole_blocks(course) -> None:
    for _, page, doc in course:
        tables = [b for b in doc.blocks if b.kind == "table"]
        html_tables = lxml_html.fromstring(page).findall(".//table")
        assert len(tables) == len(html_tables)
        for block, table in zip(tables, html_tables, strict=True):
            body = doc.text[block.start:block.end]
            rows = table.findall(".//tr")
            assert len(body.split("\n")) == len(rows)
            for cell in table.iter("td", "th"):
                sup = cell.find("sup")
                value = (cell.text or "") + ("¹²"[int(sup.text) - 1] if sup is not None else "")
                assert value in body


def test_course_notes_are_cited(course) -> None:
    annual = [doc for form, _, doc in course if form == "10-K"]
    assert annual
    for doc in annual:
        notes = [b for b in doc.blocks if b.kind == "note"]
        assert [b.note_mark for b in notes] == ["1", "2"]
        assert [doc.text[b.start] for b in notes] == ["¹", "²"]
        citing = [b for b in doc.blocks if b.notes]
        assert len(citing) == 1 and citing[0].kind == "table" and citing[0].notes == ("1", "2")
        key_figures = doc.text[citing[0].start:citing[0].end]
        assert re.search(r"^Revenue \| [\d,.()]+¹ \| [\d,.()]+¹$", key_figures, re.M)
        assert notes[0].section == citing[0].section == 2  # both in Item 7


# --- small HTML -------------------------------------------------------------------------------------

def test_hidden_content_scripts_and_styles_are_skipped() -> None:
    doc = parse_filing(
        "<html><head><title>t</title><style>p {}</style></head><body>"
        "<div style='display:none'><ix:header>dei facts</ix:header></div>"
        "<script>var x;</script><p>Visible<span style='display: none'> hidden</span> text.</p></body></html>"
    )
    assert doc.text == "Visible text."


def test_item_heading_variants_and_contents() -> None:
    page = (
        "<p><a href='#a'>Item 1. Business</a></p><p><a href='#b'>Item 1A. Risk Factors</a></p>"
        "<table><tr><td>Item 7.</td><td>MD&amp;A</td><td>12</td></tr><tr><td>Item 8.</td><td>Statements</td>"
        "<td>20</td></tr></table>"
        "<div><b>PART&#160;I</b></div>"
        "<div><span style='font-weight:700'>ITEM&#160;1.</span><span style='padding-left:9pt'>BUSINESS</span></div>"
        "<p>We make things.</p>"
        "<div><b>Item 1A:</b></div><div><b>Risk Factors</b></div><p>Risky.</p>"
        "<table><tr><td><b>PART II</b></td></tr></table>"
        "<table><tr><td><b>Item 7 —</b></td><td><b>Management's Discussion</b></td></tr></table><p>Talk.</p>"
        "<p>Item 8 of this report refers to the statements.</p>"
        "<p><b>ITEM 8. FINANCIAL STATEMENTS</b></p><p>Numbers.</p>"
        "<p><b>Item 14(a)(1):</b></p><p>List.</p>"
    )
    doc = parse_filing(page)
    assert_well_formed(doc)
    assert [(s.level, s.part, s.item, s.heading) for s in doc.sections] == [
        (1, "I", None, "PART I"),
        (2, "I", "1", "ITEM 1. BUSINESS"),
        (2, "I", "1A", "Item 1A: Risk Factors"),
        (1, "II", None, "PART II"),
        (2, "II", "7", "Item 7 — Management's Discussion"),
        (2, "II", "8", "ITEM 8. FINANCIAL STATEMENTS"),
    ]
    assert doc.slice(doc.sections[2].start, doc.sections[2].end) == "Item 1A: Risk Factors\n\nRisky.\n\n"


def test_quarterly_items_take_their_part_heading() -> None:
    doc = parse_filing(
        "<p><b>PART I — FINANCIAL INFORMATION</b></p><p><b>Item 1. Financial Statements</b></p><p>Tables.</p>"
        "<p>Part II, Item 1A of this report lists the risks.</p>"
        "<p><b>Item 2. Management's Discussion</b></p><p>Talk.</p>"
        "<p><b>PART II — OTHER INFORMATION</b></p><p><b>Item 1. Legal Proceedings</b></p><p>None.</p>"
        "<p><b>Item 1A. Risk Factors</b></p><p>Risks.</p>"
    )
    assert_well_formed(doc)
    assert items_of(doc) == [("I", "1"), ("I", "2"), ("II", "1"), ("II", "1A")]
    assert [s.heading for s in doc.sections if s.level == 1] == ["PART I — FINANCIAL INFORMATION",
                                                                 "PART II — OTHER INFORMATION"]


def test_presentational_cells_merge() -> None:
    doc = parse_filing(
        "<table><tr><td></td><td colspan='2'>2024</td><td></td><td colspan='2'>2023</td></tr>"
        "<tr><td>Net sales</td><td>$</td><td>1,200</td><td></td><td>$</td><td>1,000</td></tr>"
        "<tr><td>Other</td><td></td><td>(35</td><td>)</td><td></td><td>12</td><td>%</td></tr></table>"
    )
    assert doc.text == "2024 | 2023\nNet sales | $1,200 | $1,000\nOther | (35) | 12%"
    assert [b.kind for b in doc.blocks] == ["table"]


def test_lists_notes_and_raised_marks() -> None:
    doc = parse_filing(
        "<p>Revenue grew<span style='font-size:6pt;position:relative;top:-3pt'>(1)</span> and Mac"
        "<sup>®</sup> sold.</p><ul><li>first</li><li>second<br/>line</li></ul><ol><li>one</li></ol>"
        "<table><tr><td>•</td><td>bullet a</td></tr><tr><td>•</td><td>bullet b</td></tr></table>"
        "<p><span style='position:relative;top:-3pt'>(1)</span>&#160;&#160;Constant currency.</p>"
    )
    assert doc.text == ("Revenue grew⁽¹⁾ and Mac® sold.\n\n- first\n- second line\n\n1. one\n\n"
                        "- bullet a\n- bullet b\n\n⁽¹⁾ Constant currency.")
    assert [(b.kind, b.notes, b.note_mark) for b in doc.blocks] == [
        ("paragraph", ("1",), None), ("list", (), None), ("list", (), None), ("list", (), None),
        ("note", (), "1"),
    ]


def test_line_breaks_and_plain_text() -> None:
    doc = parse_filing("<p>Line one<br>line&#160;&#160;two </p><p> </p><p>Next</p>")
    assert doc.text == "Line one\nline two\n\nNext"
    plain = parse_filing("COVER\n\nITEM 1.  BUSINESS\n   We sell.\n\n  Item 7 of this report is long.\n")
    assert plain.text == "COVER\n\nITEM 1.  BUSINESS\n\nWe sell.\n\nItem 7 of this report is long."
    assert [(s.item, s.heading) for s in plain.sections] == [("1", "ITEM 1. BUSINESS")]
    assert parse_filing("").text == "" and parse_filing("<!-- nothing -->").blocks == []


def test_deeply_nested_old_html() -> None:
    unclosed = "<html><body>" + "<font size=2><p>x " * 3000 + "<p>the end</body></html>"
    doc = parse_filing(unclosed)
    assert len(doc.blocks) == 3001 and doc.text.endswith("x\n\nthe end")
    assert parse_filing("<div>" * 1500 + "deep" + "</div>" * 1500 + "<p>after</p>").text == "deep\n\nafter"


@pytest.mark.parametrize("depth", [5_000, 20_000])
def test_text_at_any_nesting_depth_is_kept(depth: int) -> None:
    words = [f"w{i}" for i in range(depth)]
    blocks = parse_filing("<html><body>" + "".join(f"<div>{w} " for w in words) + "</div>" * depth
                          + "<p>after</p></body></html>")
    assert blocks.text.split("\n\n") == [*words, "after"]
    assert_well_formed(blocks)
    inline = parse_filing("<p>" + "".join(f"<span><b>{w} " for w in words) + "</b></span>" * depth + "</p>x")
    assert inline.text == " ".join(words) + "\n\nx"


def test_items_deep_in_the_tree_are_found() -> None:
    titles = {"1": "Business", "1A": "Risk Factors", "2": "Properties"}
    body = "".join(f"<p><b>Item {item}. {title}</b></p><p>{'Some text. ' * 50}</p>" for item, title in titles.items())
    doc = parse_filing("<div>" * 3_000 + body + "</div>" * 3_000)
    assert [(s.part, s.item, s.heading) for s in doc.sections] == [
        ("I", item, f"Item {item}. {title}") for item, title in titles.items()
    ]


def test_nested_raised_text_and_marks_over_several_nodes() -> None:
    words = [f"r{i}" for i in range(3_000)]
    doc = parse_filing("<p>" + "".join(f"<sup>{w} " for w in words) + "</sup>" * len(words) + "</p>")
    assert doc.text.split() == words
    doc = parse_filing("<p>Sales<sup><a href='#n'><span>(</span><span>2</span><span>)</span></a></sup> rose.</p>")
    assert doc.text == "Sales⁽²⁾ rose." and doc.blocks[0].notes == ("2",)


PART_I = ["1", "1A", "1B", "1C", "2", "3", "4"]


@settings(deadline=None, max_examples=80)
@given(st.lists(st.tuples(st.sampled_from(PART_I), st.integers(0, 30)), min_size=1, max_size=10))
def test_items_are_the_longest_chain_in_order_with_most_body(headings: list[tuple[str, int]]) -> None:
    """Brute force over every subset of the Item headings: the Items kept are a longest chain increasing in
    document and Item order, and among those one with the most text from its headings to the next heading."""
    blocks, starts = [], []
    for item, body in headings:
        starts.append(sum(len(b) + 2 for b in blocks))
        blocks += [f"Item {item}. Title"] + (["b" * body] if body else [])
    ends = starts[1:] + [sum(len(b) + 2 for b in blocks)]
    doc = parse_filing("".join(f"<p>{b}</p>" for b in blocks))
    assert doc.text == "\n\n".join(blocks)
    best: set[tuple[int, ...]] = set()
    best_score = (0, 0)
    for mask in range(1, 2 ** len(headings)):
        chain = tuple(i for i in range(len(headings)) if mask >> i & 1)
        ranks = [PART_I.index(headings[i][0]) for i in chain]
        if all(a < b for a, b in zip(ranks, ranks[1:], strict=False)):
            score = (len(chain), sum(ends[i] - starts[i] for i in chain))
            if score > best_score:
                best, best_score = {chain}, score
            elif score == best_score:
                best.add(chain)
    kept = tuple(starts.index(s.start) for s in doc.sections)
    assert kept in best and all(s.item == headings[i][0] for s, i in zip(doc.sections, kept, strict=True))


def test_heading_tags_without_items() -> None:
    doc = parse_filing("<h1>Report</h1><h2>Overview</h2><p>a</p><h3>Detail</h3><p>b</p><h2>Outlook</h2><p>c</p>")
    assert [(s.heading, s.level, s.path) for s in doc.sections] == [
        ("Overview", 2, ("Overview",)), ("Detail", 3, ("Overview", "Detail")), ("Outlook", 2, ("Outlook",)),
    ]
    assert [b.section for b in doc.blocks] == [None, 0, 0, 1, 1, 2, 2]


def test_linearize_table() -> None:
    assert linearize_table("Metric | 2024 | 2023\nRevenue | 10 | 9\nCost | 4 | 3") == (
        "Revenue: 2024 = 10; 2023 = 9\nCost: 2024 = 4; 2023 = 3"
    )
    table = "Years ended\nSep 2024 | Sep 2023\nNet sales:\nProducts | $294,866 | $298,085\nTotal | 1"
    assert linearize_table(table) == (
        "Net sales:\nProducts: Years ended Sep 2024 = $294,866; Years ended Sep 2023 = $298,085\n"
        "Total: Years ended Sep 2023 = 1"
    )
