"""Inline XBRL read exactly: generated documents (random scale, sign, formats, nesting, ix:exclude, continuations
and duplicates) whose facts the generator knows, and the errors a malformed document gets."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings

import factstore
from factstore.errors import LoadError
from factstore.xbrl.files import read_body
from factstore.xbrl.model import markup_text, resolve_duplicates
from tests.helpers import budget
from tests.helpers import examples as hypothesis_budget
from tests.inline_documents import HEAD, documents


def _found(document: str) -> list[tuple]:
    read = read_body(document.encode(), "generated.htm")
    return [(f.concept, f.context.id, f.unit, Decimal(f.value) if f.numeric else f.value, f.decimals)
            for f in read.facts]


@budget(50, 150)
def test_generated_documents_give_the_generators_facts(examples: int) -> None:
    @settings(**hypothesis_budget(examples, 150), deadline=None)
    @given(documents())
    def agree(case: tuple[str, list[dict]]) -> None:
        document, facts = case
        want = [(f["concept"], f["context"], f["unit"], f["value"], f["decimals"]) for f in facts]
        assert Counter(_found(document)) == Counter(want)

    agree()


def _doc(body: str, hidden: str = "") -> str:
    return HEAD.format(hidden=hidden, body=body)


def _fraction(value: str, decimals: str, scale: int = 0, fid: str = "") -> str:
    return (f'<ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd" decimals="{decimals}" '
            f'scale="{scale}" format="ixt:num-dot-decimal" id="{fid}">{value}</ix:nonFraction>')


def test_duplicates_that_agree_at_the_lesser_precision_are_one_fact_the_most_precise() -> None:
    read = read_body(_doc(_fraction("1,235", "-6", 6, "c") + _fraction("1,234,567,000", "-3", 0, "b")
                          + _fraction("1,234.567", "0", 6, "a")).encode(), "dup.htm")
    kept = resolve_duplicates(read.facts)
    assert [(f.id, f.value, f.inconsistent) for f in kept] == [("a", "1234567000", False)]


def test_duplicates_that_disagree_are_all_kept_and_flagged() -> None:
    read = read_body(_doc(_fraction("1,234", "-6", 6, "a") + _fraction("1,240", "-6", 6, "b")
                          + '<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="d" unitRef="usd" '
                            'decimals="-6" scale="6" id="c">7</ix:nonFraction>').encode(), "dup.htm")
    kept = resolve_duplicates(read.facts)
    assert [(f.id, f.inconsistent) for f in kept] == [("a", True), ("b", True), ("c", False)]


def test_a_store_keeps_inconsistent_duplicates_flagged_and_out_of_reports(tmp_path) -> None:
    cover = ('<ix:nonNumeric name="dei:DocumentType" contextRef="d">10-K</ix:nonNumeric>'
             '<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="d">2024-12-31</ix:nonNumeric>'
             '<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="d">Acme Corp</ix:nonNumeric>')
    path = tmp_path / "acme.htm"
    path.write_text(_doc(cover + _fraction("1,234", "-6", 6, "a") + _fraction("1,240", "-6", 6, "b")
                         + _fraction("1,234", "-6", 6, "c").replace("us-gaap:Revenues", "us-gaap:Assets")
                         .replace('contextRef="d"', 'contextRef="i"')))
    with factstore.open(tmp_path / "acme.duckdb") as store:
        (report,) = store.load_xbrl(path, accession="0000000042-25-000001", accepted_at="2025-02-01T21:00:00Z",
                                    progress=False)
        assert (report.entities, report.filings, report.reports, report.xbrl_facts) == (1, 1, 1, 6)
        flagged = store.sql("SELECT fact_id FROM xbrl_facts WHERE inconsistent ORDER BY fact_id")
        assert list(flagged["fact_id"]) == ["a", "b"]
        stored = store.sql("SELECT concept, value, period_start FROM reports")
        assert list(stored["concept"]) == ["us-gaap:Assets"] and stored["value"][0] == 1_234_000_000
        assert store.sql("SELECT cik, name FROM entities").values.tolist() == [[42, "Acme Corp"]]


def test_a_standard_taxonomy_is_named_by_its_usual_prefix_whatever_the_document_declares() -> None:
    gaap = 'xmlns:gaap="http://xbrl.us/us-gaap/2009-01-31" xmlns:dei='
    document = _doc('<ix:nonFraction name="gaap:Revenues" contextRef="d" unitRef="usd" decimals="0">1'
                    '</ix:nonFraction>').replace("xmlns:dei=", gaap)
    (fact,) = read_body(document.encode(), "prefix.htm").facts
    assert (fact.concept, fact.namespace) == ("us-gaap:Revenues", "http://xbrl.us/us-gaap/2009-01-31")
    (own,) = read_body(_doc('<ix:nonNumeric name="acme:Policy" contextRef="d">x</ix:nonNumeric>').encode(),
                       "own.htm").facts
    assert (own.concept, own.namespace) == ("acme:Policy", "http://acme.example/20241231")


def test_a_prefix_declared_below_the_root_means_what_it_says_there() -> None:
    """Namespaces are looked up once for the document only where its root declares them all; a prefix declared
    again deeper (here acme, and ixt for a format) names that element's own namespaces."""
    inner = ('<div xmlns:acme="http://other.example/2024" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/'
             '2015-02-26"><ix:nonFraction name="acme:Backlog" contextRef="d" unitRef="usd" decimals="0" '
             'format="ixt:numdotdecimal">1,234</ix:nonFraction></div>'
             '<ix:nonFraction name="acme:Backlog" contextRef="d" unitRef="usd" decimals="0">5</ix:nonFraction>')
    deep, top = read_body(_doc(inner).encode(), "deep.htm").facts
    assert (deep.namespace, deep.value) == ("http://other.example/2024", "1234")
    assert (top.namespace, top.value) == ("http://acme.example/20241231", "5")


def test_an_instances_contexts_and_units_read_prefixes_declared_below_the_root() -> None:
    """The same rule in an instance: a context or unit declaring its own prefixes is read with them, and a document
    declaring nothing below its root reads every QName with the root's."""
    def instance(root_ns: str, context_ns: str, unit_ns: str) -> bytes:
        return ('<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" '
                f'xmlns:us-gaap="http://fasb.org/us-gaap/2024"{root_ns}>'
                f'<context id="c"{context_ns}><entity><identifier scheme="http://www.sec.gov/CIK">1</identifier>'
                '<segment><xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">acme:WidgetsMember'
                '</xbrldi:explicitMember></segment></entity><period><instant>2024-12-31</instant></period></context>'
                f'<unit id="u"{unit_ns}><measure>iso4217:USD</measure></unit>'
                '<us-gaap:Assets contextRef="c" unitRef="u" decimals="0">7</us-gaap:Assets></xbrl>').encode()

    acme, iso = ' xmlns:acme="http://acme.example/2024"', ' xmlns:iso4217="http://www.xbrl.org/2003/iso4217"'
    for body in (instance(acme + iso, "", ""), instance("", acme, iso)):  # at the root; on the context and unit
        fact = read_body(body, "instance.xml").facts[0]
        assert fact.context.dims == (("us-gaap:StatementBusinessSegmentsAxis", "acme:WidgetsMember"),)
        assert fact.unit == "USD"
    with pytest.raises(LoadError, match="'acme:WidgetsMember' is not a QName declared"):
        read_body(instance(iso, "", ""), "undeclared.xml")


BLOCKS = ["address", "article", "blockquote", "br", "dd", "div", "dl", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
          "li", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"]


@pytest.mark.parametrize("name", BLOCKS)
def test_a_block_element_separates_its_words_and_an_inline_one_joins_them(name) -> None:
    for tag in (name, name.upper(), f"xhtml:{name}"):
        assert markup_text(f"one<{tag} class='x'>two</{tag}>three<{tag}/>four") == "one two three four", tag
    inline = {"span", "b", "a", "font", "i", "sup", "ix:nonfraction", f"{name}x", f"x{name}"}
    for tag in inline - set(BLOCKS):
        assert markup_text(f"one<{tag} id='x'>two</{tag}>three") == "onetwothree", tag


def test_a_typed_dimension_is_its_value(tmp_path) -> None:
    typed = ('<xbrli:context id="t"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000042'
             '</xbrli:identifier><xbrli:segment><xbrldi:typedMember dimension="acme:LoanAxis"><acme:LoanId> L-7 '
             '</acme:LoanId></xbrldi:typedMember></xbrli:segment></xbrli:entity><xbrli:period>'
             '<xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>')
    document = _doc('<ix:nonFraction name="us-gaap:Assets" contextRef="t" unitRef="usd" decimals="0">9'
                    '</ix:nonFraction>').replace("</ix:resources>", typed + "</ix:resources>")
    (fact,) = read_body(document.encode(), "typed.htm").facts
    assert fact.context.dims == (("acme:LoanAxis", "L-7"),) and fact.value == "9"


def test_a_nil_fact_has_no_value_and_disagrees_with_a_number() -> None:
    nil = ('<ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd" xsi:nil="true" id="n"/>')
    read = read_body(_doc(nil + _fraction("5", "0", 0, "v")).encode(), "nil.htm")
    assert [(f.id, f.value) for f in read.facts] == [("n", None), ("v", "5")]
    assert all(f.inconsistent for f in resolve_duplicates(read.facts))


def test_an_instant_a_duration_and_dimensions_are_read_from_the_contexts() -> None:
    body = ('<ix:nonFraction name="us-gaap:Revenues" contextRef="s" unitRef="usd" decimals="0">1</ix:nonFraction>'
            '<ix:nonFraction name="us-gaap:Assets" contextRef="i" unitRef="usd" decimals="0">2</ix:nonFraction>')
    revenue, assets = read_body(_doc(body).encode(), "ctx.htm").facts
    assert (str(revenue.context.start), str(revenue.context.end)) == ("2024-01-01", "2024-12-31")
    assert revenue.context.dims == (("us-gaap:StatementBusinessSegmentsAxis", "acme:WidgetsMember"),)
    assert (assets.context.start, str(assets.context.end), assets.context.dims) == (None, "2024-12-31", ())


@pytest.mark.parametrize(("body", "field", "says"), [
    ('<ix:nonFraction name="us-gaap:Revenues" contextRef="nope" unitRef="usd">1</ix:nonFraction>', "contextRef",
     "context 'nope' is not defined"),
    ('<ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="eur">1</ix:nonFraction>', "unitRef",
     "unit 'eur' is not defined"),
    ('<ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd" format="ixt:num-wordy">1'
     '</ix:nonFraction>', "format", "num-wordy"),
    ('<ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd">1,234</ix:nonFraction>', "value",
     "'1,234' is not a decimal number"),
    ('<ix:nonFraction name="nope:Revenues" contextRef="d" unitRef="usd">1</ix:nonFraction>', "name",
     "not a QName declared"),
    ('<ix:nonNumeric name="acme:Policy" contextRef="d" continuedAt="gone">a</ix:nonNumeric>', "continuedAt",
     "continuation 'gone' is missing"),
    ('<ix:nonNumeric name="acme:Policy" contextRef="d" continuedAt="x">a</ix:nonNumeric>'
     '<ix:continuation id="x" continuedAt="x">b</ix:continuation>', "continuedAt", "is circular"),
])
def test_a_malformed_fact_is_an_error_naming_the_line_and_field(body: str, field: str, says: str) -> None:
    with pytest.raises(LoadError) as err:
        read_body(_doc(body).encode(), "bad.htm")
    assert err.value.field == field and says in str(err.value) and "bad.htm" in str(err.value)
    assert "line " in str(err.value)
