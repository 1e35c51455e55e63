"""load_filing: a local SEC document joins the company and the filing the store holds facts of (expected
filings read from the raw submissions and companyfacts JSON); contradictions are refused; documents added
after an index was built are chunked into every strategy in use."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

import factstore
from factstore.cli import main
from factstore.demo.data import generate
from factstore.errors import LoadError
from factstore.text.chunkers import chunk
from tests.helpers import submissions_for

APPLE = "CIK0000320193.json"
AAPL_10K = "AAPL_10-K_2024-11-01_0000320193-24-000123.html"


def _listed(real, accession):
    """The submissions JSON's row of an accession."""
    recent = json.loads((real / "submissions" / APPLE).read_text())["filings"]["recent"]
    i = recent["accessionNumber"].index(accession)
    return {k: v[i] for k, v in recent.items()}


@pytest.fixture(scope="module")
def apple(real):
    with factstore.open() as s:
        s.load_companyfacts(real / "companyfacts" / APPLE, submissions_for(real, APPLE), progress=False)
        yield s


def test_a_filing_joins_the_company_and_filing_of_its_facts(apple, real):
    filings, entities = (apple.sql(f"SELECT count(*) AS n FROM {t}")["n"][0] for t in ("filings", "entities"))
    report = apple.load_filing(real / "filings" / AAPL_10K, entity="Apple", progress=False)
    accession = "0000320193-24-000123"  # in the file's name
    listed = _listed(real, accession)
    doc = apple.sql("SELECT * FROM documents WHERE doc_id = ?", [accession]).iloc[0]
    filing = apple.sql("SELECT * FROM filings WHERE filing_id = ?", [accession]).iloc[0]
    assert report.documents == 1 and report.filings == 0 and report.entities == 0
    assert apple.sql("SELECT count(*) AS n FROM filings")["n"][0] == filings
    assert apple.sql("SELECT count(*) AS n FROM entities")["n"][0] == entities
    assert doc["entity_id"] == "0000320193" and doc["kind"] == "filing" and doc["form"] == listed["form"]
    assert str(doc["period_end"].date()) == listed["reportDate"] and doc["accepted_at"] == filing["accepted_at"]
    assert str(filing["filed"].date()) == listed["filingDate"]
    items = {s.item for s in apple.document(accession).sections}
    assert {"1A", "7"} <= items  # sectioned as a 10-K
    again = apple.load_filing(real / "filings" / AAPL_10K, entity="AAPL", form="10-K", accepted_at="2024-11-01",
                              progress=False)
    assert again.documents == 0 and again.filings == 0


def test_a_document_added_after_an_index_is_chunked_into_it(apple, real):
    apple.load_filing(real / "filings" / AAPL_10K, entity="Apple", progress=False)
    apple.index("fixed", progress=False)
    facts = json.loads((real / "companyfacts" / APPLE).read_text())
    accession, = {f["accn"] for tax in facts["facts"].values() for concept in tax.values()
                  for values in concept["units"].values() for f in values
                  if f["form"] == "10-Q" and f["filed"] == "2025-08-01"}
    apple.load_filing(real / "filings" / "AAPL_10-Q_2025-08-01_Q3FY25.html", entity="Apple", form="10-Q",
                      accepted_at="2025-08-01", progress=False)
    stored = apple.sql("SELECT count(*) AS n FROM chunks WHERE doc_id = ? AND strategy = 'fixed'", [accession])["n"][0]
    assert stored == len(chunk(apple.document(accession), "fixed")) > 0
    hits = apple.search("iPhone net sales", strategy="fixed", filters={"doc_id": accession})
    assert hits and all(h.doc_id == accession for h in hits)


@pytest.mark.parametrize(("given", "field"), [
    ({"form": "10-Q"}, "form"), ({"accepted_at": "2024-10-31"}, "accepted_at"),
    ({"accepted_at": "2024-11-01 12:00:00"}, "accepted_at"), ({"period_end": "2024-06-29"}, "period_end"),
    ({"accession": "0000320193-24-00012"}, "accession"), ({"accession": "0000320193-24-000124"}, "accession"),
])
def test_what_contradicts_the_stored_filing_is_refused(apple, real, given, field):
    with pytest.raises(LoadError) as caught:
        apple.load_filing(real / "filings" / AAPL_10K, entity="Apple", progress=False, **given)
    assert caught.value.field == field and caught.value.source.endswith(AAPL_10K)


def test_a_report_the_store_holds_is_never_added_again_under_another_name(real, tmp_path):
    """A copy of Apple's FY2024 10-K without the accession in its name: under a wrong accession, or filed on another
    day, it would be a second 10-K for the period (its facts known again, later); refused, naming the stored filing,
    with the store unchanged. With nothing given it is the stored filing (the cover's form and period); its XBRL
    loaded under a wrong accession is refused too."""
    copy = tmp_path / "apple-annual-report.html"
    copy.write_bytes((real / "filings" / AAPL_10K).read_bytes())
    stored = "filing 0000320193-24-000123 [(]accepted 2024-11-01 10:01:36 UTC[)]"
    with factstore.open() as s:
        s.load_companyfacts(real / "companyfacts" / APPLE, submissions_for(real, APPLE), progress=False)
        counts = "SELECT (SELECT count(*) FROM filings) AS f, (SELECT count(*) FROM reports) AS r"
        before = s.sql(counts).values.tolist()
        for given in ({"accession": "0000320193-99-999999"}, {"accession": "0000320193-99-999999",
                      "accepted_at": "2024-11-01"}, {"accepted_at": "2024-11-05"}):
            with pytest.raises(LoadError, match=f"holds the 10-K of 0000320193 .* 2024-09-28 as {stored}") as caught:
                s.load_filing(copy, progress=False, **given)
            assert caught.value.field == "accession"
        with pytest.raises(LoadError, match=f"as {stored}, not as 0000320193-99-999999"):
            s.load_xbrl(copy, accession="0000320193-99-999999", accepted_at="2024-11-05", progress=False)
        assert s.sql(counts).values.tolist() == before and s.sql("SELECT count(*) AS n FROM documents")["n"][0] == 0
        report = s.load_filing(copy, progress=False)
        assert (report.filings, report.documents) == (0, 1) and s.sql(counts).values.tolist()[0][0] == before[0][0]
        assert s.sql("SELECT doc_id FROM documents")["doc_id"].tolist() == ["0000320193-24-000123"]
    with factstore.open() as empty:  # an accession given is checked against the file name's, store or not
        with pytest.raises(LoadError, match="the file's name says accession 0000320193-24-000123, not "
                                            "0000320193-99-999999") as caught:
            empty.load_filing(real / "filings" / AAPL_10K, accession="0000320193-99-999999", progress=False)
        assert caught.value.field == "accession" and empty.sql("SELECT count(*) AS n FROM filings")["n"][0] == 0


def test_another_companys_accession_and_non_sec_companies_are_refused(real, tmp_path):
    with factstore.open() as s:
        s.load_companyfacts(real / "companyfacts" / APPLE, submissions_for(real, APPLE), progress=False)
        nvidia = "CIK0001045810.json"
        s.load_companyfacts(real / "companyfacts" / nvidia, submissions_for(real, nvidia), progress=False)
        with pytest.raises(LoadError, match="the document is CIK 320193 .* but NVDA is CIK 1045810"):
            s.load_filing(real / "filings" / AAPL_10K, entity="NVDA", progress=False)
        renamed = tmp_path / AAPL_10K.replace("AAPL", "NVDA")  # another's accession in the name of a 10-K
        renamed.write_bytes((real / "filings" / "NVDA_10-K_2025-02-26.html").read_bytes())
        with pytest.raises(LoadError, match="stored as one of 0000320193"):
            s.load_filing(renamed, entity="NVDA", progress=False)
        with pytest.raises(LoadError, match="not an HTML document"):
            s.load_filing(real / "companyfacts" / APPLE, entity="AAPL", form="10-K", accepted_at="2024-11-01",
                          progress=False)
        course = generate(companies=1)
        s.load_course(documents=course.documents, progress=False)
        ticker = course.documents["ticker"].iloc[0]
        with pytest.raises(LoadError, match="not an SEC company"):
            s.load_filing(real / "filings" / AAPL_10K, entity=ticker, progress=False)


def test_without_an_accession_the_filing_is_found_by_form_and_day(real):
    alphabet = real / "companyfacts" / "CIK0001652044.json"
    facts = json.loads(alphabet.read_text())
    wanted = {f["accn"] for tax in facts["facts"].values() for concept in tax.values()
              for values in concept["units"].values() for f in values
              if f["form"] == "10-K" and f["filed"] == "2025-02-05"}
    assert len(wanted) == 1
    with factstore.open() as s:
        s.load_companyfacts(alphabet, progress=False)  # no submissions
        path = real / "filings" / "GOOGL_10-K_2025-02-05.html"
        report = s.load_filing(path, entity="Google", form="10-K", accepted_at="2025-02-05", progress=False)
        assert s.load_filing(path, progress=False).documents == 0  # the cover and the file name say the same
        assert report.documents == 1 and report.filings == 0
        docs = s.sql("SELECT doc_id, entity_id FROM documents")
        assert list(docs["doc_id"]) == list(wanted) and list(docs["entity_id"]) == [f"{facts['cik']:010d}"]
        assert list(s.sql("SELECT entity_id FROM entities")["entity_id"]) == [f"{facts['cik']:010d}"]


def test_a_filing_the_store_does_not_know_gets_its_own_row(real):
    path = real / "filings" / "AAPL_10-Q_2025-05-02_aapl-20250329.htm"
    with factstore.open() as s:
        s.load_companyfacts(real / "companyfacts" / "vintage" / "CIK0000320193_asof_2024-11-01.json", progress=False)
        with pytest.raises(LoadError, match="says form 10-Q, not 10-K"):
            s.load_filing(path, entity="Apple", form="10-K", accepted_at="2025-05-02", progress=False)
        report = s.load_filing(path, entity="Apple", form="10-Q", accepted_at="2025-05-02", period_end="2025-03-29",
                               progress=False)
        row = s.sql("SELECT * FROM filings WHERE filing_id = ?", [path.name]).iloc[0]
    end_of_day = datetime(2025, 5, 2, 23, 59, 59, tzinfo=ZoneInfo("America/New_York")).astimezone(ZoneInfo("UTC"))
    assert report.documents == 1 and report.filings == 1
    assert (row["entity_id"], row["form"], str(row["period_end"].date()), str(row["filed"].date())) == (
        "0000320193", "10-Q", "2025-03-29", "2025-05-02")
    assert row["accepted_at"] == end_of_day.replace(tzinfo=None) and row["accepted_precision"] == "date"


def test_documents_added_later_join_every_strategy_in_use():
    documents = generate(companies=2).documents
    first, later = documents.iloc[: len(documents) // 2], documents.iloc[len(documents) // 2:]
    with factstore.open() as s:
        s.load_course(documents=first, progress=False)
        for strategy in ("structure", "fixed"):
            s.index(strategy, progress=False)
        s.load_course(documents=later, progress=False)
        for doc_id in later["id_doc"]:
            for strategy in ("structure", "fixed"):
                n = s.sql("SELECT count(*) AS n FROM chunks WHERE doc_id = ? AND strategy = ?", [doc_id, strategy])
                assert n["n"][0] == len(chunk(s.document(doc_id), strategy)) > 0
        assert not s.sql("SELECT count(*) AS n FROM chunks WHERE strategy = 'recursive'")["n"][0]


def test_cli_load_filing(real, tmp_path, capsys):
    db = tmp_path / "s.duckdb"
    with factstore.open(db) as s:
        s.load_companyfacts(real / "companyfacts" / APPLE, submissions_for(real, APPLE), progress=False)
    path = str(real / "filings" / AAPL_10K)
    assert main(["load", "filing", path, "--entity", "AAPL", "--db", str(db)]) == 0
    assert "added 1 documents" in capsys.readouterr().out
    assert main(["load", "filing", path, "--entity", "AAPL", "--form", "10-Q", "--db", str(db)]) == 1
    assert "inline XBRL says form 10-K, not 10-Q" in capsys.readouterr().err
    # ask opens the store read-only: the text index it needs is built in memory, nothing is written
    assert main(["ask", "What are Apple's risk factors related to China?", "--json", "--db", str(db)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["kind"] == "passages" and {c["doc"] for c in printed["citations"]} == {"0000320193-24-000123"}
    with factstore.open(db, read_only=True) as s:
        assert not s.sql("SELECT count(*) AS n FROM chunks")["n"][0]
