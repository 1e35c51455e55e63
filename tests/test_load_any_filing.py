"""Any SEC primary document loads: its company and filing from its inline XBRL cover, its cover page's text or
its file name where the store does not know them (expected values read from the raw HTML and JSON by regular
expressions here); contradictions are refused; a company the store does not hold gets no passage."""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

import factstore
from factstore.errors import LoadError, NotFound
from factstore.loaders.cover import facts_cover, read_cover, read_file_name
from factstore.xbrl.files import inline_document
from tests.helpers import submissions_for

pytestmark = pytest.mark.real
WFC = "WFC_10-K_2025-02-25.html"
MEDICIS = "10-K_1999_0000950153-99-001234.html"


def _dei(path, name):
    """A dei: fact's first value in the raw inline XBRL (tags inside it dropped)."""
    raw = path.read_text(errors="replace")
    m = re.search(rf'name="dei:{name}"[^>]*>(.*?)</ix:nonNumeric>(?:[^<]*</ix:nonNumeric>)?', raw, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>|&#160;", " ", m.group(0).split(">", 1)[1])).replace(
        "</ix:nonNumeric", "").strip(" >").replace("&amp;", "&")


def _end_of_day(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 23, 59, 59, tzinfo=ZoneInfo("America/New_York")).astimezone(
        ZoneInfo("UTC")).replace(tzinfo=None)


def test_wells_fargo_loads_from_the_document_alone(real):
    path = real / "filings" / WFC
    with factstore.open() as s:
        report = s.load_filing(path, progress=False)
        entity = s.sql("SELECT * FROM entities").iloc[0]
        filing = s.sql("SELECT * FROM filings").iloc[0]
        assert report.documents == report.filings == report.entities == 1
        assert entity["cik"] == int(_dei(path, "EntityCentralIndexKey"))
        assert entity["entity_id"] == _dei(path, "EntityCentralIndexKey")
        assert entity["name"] == _dei(path, "EntityRegistrantName") and "WFC" in list(entity["tickers"])
        assert filing["form"] == _dei(path, "DocumentType") == "10-K"
        assert str(filing["period_end"])[:10] == "2024-12-31"  # DocumentPeriodEndDate: December 31, 2024
        assert filing["accepted_at"] == _end_of_day(date(2025, 2, 25))  # the file name's day, end of day
        assert filing["accepted_note"] == "filing date only (file name): end of day, New York"
        again = s.load_filing(path, progress=False)
        assert (again.documents, again.filings, again.entities) == (0, 0, 0)
        hits = s.search("consent orders asset cap", strategy="scoped", filters={"company": "Wells Fargo"})
        assert hits and {h.doc_id for h in hits} == {WFC}
        assert s.ask("How many employees does Wells Fargo have?").kind == "passages"


@pytest.mark.parametrize(("given", "field", "says"), [
    ({"cik": "320193"}, "cik", "CIK 72971"),
    ({"form": "10-Q"}, "form", "says form 10-K, not 10-Q"),
    ({"period_end": "2024-09-30"}, "period_end", "says period_end 2024-12-31"),
    ({"cik": "12x"}, "cik", "not a CIK"),
])
def test_what_contradicts_the_document_is_refused(real, given, field, says):
    with factstore.open() as s:
        if "cik" in given and given["cik"].isdigit():
            s.load_companyfacts(real / "companyfacts" / "CIK0000320193.json", progress=False)
        with pytest.raises(LoadError, match=says) as caught:
            s.load_filing(real / "filings" / WFC, progress=False, **given)
        assert caught.value.field == field
        assert not s.sql("SELECT count(*) AS n FROM documents")["n"][0]


def test_another_company_in_the_store_is_refused_naming_both(real):
    with factstore.open() as s:
        s.load_companyfacts(real / "companyfacts" / "CIK0000320193.json", progress=False)
        with pytest.raises(LoadError, match=r"CIK 72971 .*CIK 320193") as caught:
            s.load_filing(real / "filings" / WFC, "Apple", progress=False)
        assert caught.value.field == "entity"


def _stored(s):
    return (s.sql("SELECT entity_id, cik, name, tickers FROM entities").to_dict("records"),
            s.sql("SELECT filing_id, entity_id, form, period_end, accepted_at FROM filings").to_dict("records"))


def test_a_company_not_in_the_store_is_taken_as_its_cover_names_it(real):
    path = real / "filings" / WFC
    ticker, cik = _dei(path, "TradingSymbol"), int(_dei(path, "EntityCentralIndexKey"))
    with factstore.open() as s:
        s.load_filing(path, progress=False)
        alone = _stored(s)
    for given in (ticker, ticker.lower(), "Wells Fargo", str(cik), f"CIK{cik:010d}"):
        with factstore.open() as s:
            report = s.load_filing(path, given, progress=False)
            assert report.entities == report.documents == 1, given
            assert _stored(s) == alone, given


@pytest.mark.parametrize("given", ["Apple", "XYZQ", "NVDA"])
def test_a_company_not_in_the_store_the_cover_does_not_name_is_refused_naming_both(real, given):
    path = real / "filings" / WFC
    with factstore.open() as s:
        with pytest.raises(LoadError, match=rf"says {re.escape(_dei(path, 'EntityRegistrantName'))} "
                                            rf"\({_dei(path, 'TradingSymbol')}\), not '{given}'") as caught:
            s.load_filing(path, given, progress=False)
        assert caught.value.field == "entity"
        assert not s.sql("SELECT count(*) AS n FROM entities")["n"][0]


def test_a_cover_page_names_its_company_too(real, tmp_path):
    path = real / "filings" / MEDICIS
    with factstore.open() as s:
        s.load_filing(path, "Medicis Pharmaceutical", accepted_at="1999-09-28", progress=False)
        assert s.sql("SELECT name FROM entities")["name"][0].startswith("MEDICIS PHARMACEUTICAL")
        with pytest.raises(LoadError, match="not 'Apple'"):
            s.load_filing(path, "Apple", accepted_at="1999-09-28", progress=False)
    bare = tmp_path / "note.html"
    bare.write_text("<html><body><p>Nothing here says whose document this is.</p></body></html>")
    with factstore.open() as s, pytest.raises(NotFound, match="unknown entity 'XYZQ'"):
        s.load_filing(bare, "XYZQ", accepted_at="1999-09-28", progress=False)


def test_a_stored_filing_is_found_by_the_file_names_form_and_day(real):
    nvidia = "CIK0001045810.json"
    recent = json.loads((real / "submissions" / nvidia).read_text())["filings"]["recent"]
    i = next(i for i, (f, d) in enumerate(zip(recent["form"], recent["filingDate"], strict=True))
             if f == "10-K" and d == "2025-02-26")
    with factstore.open() as s:
        s.load_companyfacts(real / "companyfacts" / nvidia, submissions_for(real, nvidia), progress=False)
        s.load_filing(real / "filings" / "NVDA_10-K_2025-02-26.html", progress=False)
        doc = s.sql("SELECT d.doc_id, f.accepted_at FROM documents d JOIN filings f ON f.filing_id = d.doc_id").iloc[0]
    assert doc["doc_id"] == recent["accessionNumber"][i]
    assert doc["accepted_at"] == datetime.fromisoformat(recent["acceptanceDateTime"][i].replace("Z", ""))


def test_a_pre_xbrl_filing_reads_its_cover_page(real):
    path = real / "filings" / MEDICIS
    raw = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text(errors="replace")))
    name = re.search(r"([A-Z][A-Z ]+?) \(Exact name of registrant", raw).group(1).strip()
    with factstore.open() as s:
        with pytest.raises(LoadError, match="acceptance time") as caught:
            s.load_filing(path, progress=False)  # nothing says when it was filed
        assert caught.value.field == "accepted_at"
        s.load_filing(path, accepted_at="1999-09-28", progress=False)
        row = s.sql("SELECT e.name, e.cik, f.form, f.period_end, f.filing_id FROM filings f "
                    "JOIN entities e USING (entity_id)").iloc[0]
    assert row["name"] == name and row["cik"] is None or str(row["cik"]) == "<NA>"
    assert row["form"] == "10-K" and str(row["period_end"])[:10] == "1999-06-30"  # "fiscal year ended June 30, 1999"
    assert row["filing_id"] == "0000950153-99-001234"


def test_a_company_not_in_the_store_gets_no_passage(real):
    with factstore.open() as s:
        s.load_companyfacts(real / "companyfacts" / "CIK0000320193.json", progress=False)
        s.load_filing(real / "filings" / "AAPL_10-K_2024-11-01_0000320193-24-000123.html", progress=False)
        for question in ("How many employees does Wells Fargo have?", "¿Cuántos empleados tiene Wells Fargo?",
                         "What does Quillmark Holdings say about its consent orders?"):
            answer = s.ask(question)
            assert answer.kind == "unanswerable" and not answer.citations, question
            assert "not in the store" in answer.explanation
        for company in ("Wells Fargo", "Quillmark"):
            with pytest.raises(NotFound, match="not in the store|unknown entity"):
                s.search("employees", filters={"company": company})
        with pytest.raises(NotFound, match="no documents of issuer"):
            s.search("employees", filters={"issuer": "Wells Fargo"})
        s.load_companyfacts(real / "companyfacts" / "CIK0001045810.json", progress=False)  # facts, no document
        with pytest.raises(NotFound, match="not in the store: no documents of NVIDIA CORP$"):
            s.search("employees", filters={"company": "1045810"})
        with pytest.raises(NotFound, match="no documents of '1045810'"):  # a strategy by name: the filter says it
            s.search("employees", strategy="scoped", filters={"company": "1045810"})
        assert s.search("employees", filters={"company": "Apple"})


def test_read_cover_and_file_name():
    context = ('<xbrli:context id="c"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000012345'
               '</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate>'
               '<xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>')
    dei = ('<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="c" format="ixt:date-day-monthname-year-en">'
           '<ix:nonNumeric name="dei:CurrentFiscalYearEndDate" contextRef="c" format="ixt:date-day-monthname-en">'
           '31 December</ix:nonNumeric> 2024</ix:nonNumeric>'
           '<ix:nonNumeric name="dei:DocumentType" contextRef="c">10-K</ix:nonNumeric>'
           '<ix:nonNumeric name="dei:AmendmentFlag" contextRef="c">true</ix:nonNumeric>'
           '<ix:nonNumeric name="dei:TradingSymbol" contextRef="c">ABC</ix:nonNumeric>'
           '<ix:nonNumeric name="dei:TradingSymbol" contextRef="c">ABC.PRA</ix:nonNumeric>')
    nested = ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" '
              'xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" '
              'xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:dei="http://xbrl.sec.gov/dei/2024"><body>'
              f'<ix:header><ix:resources>{context}</ix:resources></ix:header>{dei}</body></html>')
    document = inline_document(nested.encode(), "cover.htm")
    cover = facts_cover(document)
    # the CIK, absent from the dei: facts, is the contexts' identifier
    assert (cover.cik, cover.form, cover.period_end, cover.tickers, cover.source) == (
        12345, "10-K/A", date(2024, 12, 31), ("ABC",), "inline XBRL")
    assert inline_document(b"<html><body><p>FORM 10-K</p></body></html>", "plain.htm") is None
    text = read_cover("<p>FORM 10-Q</p><p>For the quarterly period ended March 31, 2003</p>"
                      "<p>ACME WIDGETS INC.</p><p>(Exact name of registrant as specified in its charter)</p>")
    assert (text.form, text.period_end, text.name, text.cik) == ("10-Q", date(2003, 3, 31), "ACME WIDGETS INC.",
                                                                 None)
    assert read_cover("<p>nothing here</p>") == type(cover)()
    assert read_file_name("NVDA_10-K_2025-02-26.html") == type(read_file_name("x"))("NVDA", "10-K", date(2025, 2, 26))
    assert read_file_name("10-Q_2024-05-02_x.htm").form == "10-Q"
    assert read_file_name("AAPL_10-K_2024-13-01.html").day is None and read_file_name("10-K_1999_x.html").day is None
