"""Tagged figures' spans in the parsed text of inline XBRL filings: the marked parse gives the plain parse's text,
sections and blocks, and each span shows exactly what its ix:nonFraction element shows."""

from __future__ import annotations

import pytest
from lxml import etree

from factstore.text.html import parse_filing
from factstore.text.tagged import mark, parse_tagged
from tests.real_filings import EXPECTED, FILINGS

IX = "{http://www.xbrl.org/2013/inlineXBRL}nonFraction"
HEADER = "{http://www.xbrl.org/2013/inlineXBRL}header"


# two in the default run (an inline 10-Q, a 1999 page without XBRL); the other filings under the slow marker
QUICK = ("AAPL_10-Q_2025-05-02_aapl-20250329.htm", "10-K_1999_0000950153-99-001234.html")


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in QUICK else pytest.mark.slow)
                                  for n in sorted(EXPECTED)])
def test_the_marked_parse_is_the_plain_parse_with_every_figure_located(real, name):
    html = (FILINGS / name).read_text(encoding="utf-8", errors="replace")
    plain, tagged = parse_filing(html), parse_tagged(html)
    assert (tagged.text, tagged.sections, tagged.blocks) == (plain.text, plain.sections, plain.blocks)
    if "inlineXBRL" not in html[:20_000]:
        assert tagged.tagged == {}
        return
    elements = [e for e in etree.fromstring(html.encode()).iter(IX) if e.get("id")]
    shown = {e.get("id"): " ".join("".join(e.itertext()).split()) for e in elements}
    # every figure printed (not hidden in ix:header) is located, save a few in page furniture
    printed = [e for e in elements if shown[e.get("id")] and next(e.iterancestors(HEADER), None) is None]
    assert len(tagged.tagged) >= 0.95 * len(printed) > 0
    for fact_id, (start, end) in tagged.tagged.items():
        assert " ".join(tagged.text[start:end].split()) == shown[fact_id]


def test_marks_go_round_empty_and_nested_figures_as_written():
    html = ('<div><ix:nonFraction id="a" name="x">1,234</ix:nonFraction> and <ix:nonFraction id="b" name="x">'
            '<b>5</b></ix:nonFraction> <ix:nonFraction id="nil" name="x"></ix:nonFraction>'
            '<ix:nonFraction name="x">7</ix:nonFraction></div>')
    marked, ids = mark(html)
    assert ids == ["a", "b"]
    assert marked.count("\U000f0000") == marked.count("\U00100000") == 1
    assert marked.replace("\U000f0000", "").replace("\U00100000", "").replace("\U000f0001", "") \
        .replace("\U00100001", "") == html


def test_spaces_inside_a_figure_leave_the_text_as_the_plain_parse_has_it():
    html = ('<html><body><p>Revenue was <ix:nonFraction id="a" name="x"> 391 </ix:nonFraction> million.</p>'
            '<p><ix:nonFraction id="b" name="x"> 7 </ix:nonFraction> stores</p><table><tr><td>Sales</td><td>'
            '<ix:nonFraction id="c" name="x"> 5 </ix:nonFraction></td></tr><tr><td>Cost</td><td>3 </td></tr>'
            '</table></body></html>')
    plain, tagged = parse_filing(html), parse_tagged(html)
    assert tagged.text == plain.text and tagged.blocks == plain.blocks
    assert {k: tagged.text[s:e] for k, (s, e) in tagged.tagged.items()} == {"a": "391", "b": "7", "c": "5"}
