"""XBRL read from real SEC files, against what others extracted from the same filings: the SEC's own instance of an
inline 10-Q, companyfacts rows of the accession, and FSDS's num.txt (both read here with json and csv alone)."""

from __future__ import annotations

import calendar
import csv
import json
from collections import Counter
from datetime import date, timedelta
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest

import factstore
from factstore.cli import main
from factstore.errors import LoadError
from factstore.show import fact_lines
from factstore.xbrl.files import read_xbrl
from factstore.xbrl.model import Document, Fact
from tests.helpers import REAL, submissions_for

APPLE_10K = "filings/AAPL_10-K_2024-11-01_0000320193-24-000123.html"
APPLE_10Q = "filings/AAPL_10-Q_2025-05-02_aapl-20250329.htm"
STANDARD = ("us-gaap", "dei", "srt", "ifrs-full")


@cache
def _read(name: str) -> Document:
    path = REAL / name
    if not path.exists():
        pytest.skip(f"real SEC data not found at {path} (it lives beside the repository in shared/real)")
    return read_xbrl(path)


def _stated(fact: Fact) -> tuple:
    """A fact as both documents state it: numbers by value, texts with whitespace collapsed."""
    value = fact.value
    if value is not None:
        value = Decimal(value) if fact.numeric else " ".join(value.split())
    return fact.concept, fact.context.key, fact.unit, value, fact.decimals


def test_the_inline_10q_gives_exactly_the_facts_of_its_sec_instance(real):
    inline, instance = _read(APPLE_10Q), _read("xbrl/aapl-20250329_htm.xml")
    assert (inline.kind, instance.kind) == ("inline", "instance")
    for numeric in (True, False):
        ours = Counter(_stated(f) for f in inline.facts if f.numeric == numeric)
        sec = Counter(_stated(f) for f in instance.facts if f.numeric == numeric)
        assert ours == sec
    assert sum(f.numeric for f in inline.facts) == 614 and sum(not f.numeric for f in inline.facts) == 86
    # the document's duplicates (a figure tagged in a statement and again in a note) are one fact each
    assert len({f.key for f in inline.facts}) == len(inline.facts)


def _companyfacts(real: Path, accession: str) -> set[tuple]:
    facts = json.loads((real / "companyfacts" / "CIK0000320193.json").read_text())["facts"]
    return {(f"{taxonomy}:{name}", unit, row.get("start"), row["end"], Decimal(str(row["val"])))
            for taxonomy, concepts in facts.items() for name, concept in concepts.items()
            for unit, rows in concept["units"].items() for row in rows if row["accn"] == accession}


def _plain_standard(document: Document) -> set[tuple]:
    return {(f.concept, f.unit, f.context.start and f.context.start.isoformat(), f.context.end.isoformat(),
             Decimal(f.value)) for f in document.facts
            if f.numeric and f.value is not None and not f.context.dims and f.concept.split(":")[0] in STANDARD}


@pytest.mark.parametrize(("name", "accession", "count"), [
    (APPLE_10K, "0000320193-24-000123", 431),
    ("xbrl/aapl-20230930_htm.xml", "0000320193-23-000106", 457),
    (APPLE_10Q, "0000320193-25-000057", 247)])
def test_every_plain_standard_fact_is_a_companyfacts_row_of_the_accession_and_back(real, name, accession, count):
    ours, sec = _plain_standard(_read(name)), _companyfacts(real, accession)
    assert ours == sec and len(ours) == count


def _month_end(day: date) -> date:
    """The month end FSDS's ddate rounds a period's end to (the nearest)."""
    if day.day <= 15:
        day = day.replace(day=1) - timedelta(days=1)
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def _fsds(real: Path, folder: str) -> Counter:
    with open(real / "fsds" / folder / "num.txt", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return Counter((f"{r['version'].split('/')[0]}:{r['tag']}", r["ddate"], int(r["qtrs"]), r["uom"],
                    ";".join(sorted(p for p in (r.get("segments") or "").split(";") if p)), Decimal(r["value"]))
                   for r in rows if r["value"] and r["version"] != r["adsh"] and not r.get("coreg"))


def _as_fsds(document: Document) -> set[tuple]:
    """Our facts as FSDS states them: the period's end rounded to a month end, its length in quarters, per-share
    units by their numerator, values to four places, dimensions as 'Axis=Member' without prefixes or suffixes."""
    out = set()
    for f in document.facts:
        if not f.numeric or f.value is None or f.concept.split(":")[0] not in STANDARD:
            continue
        c = f.context
        quarters = 0 if c.start is None else round(((c.end - c.start).days + 1) / 91.3)
        dims = ";".join(sorted(f"{a.rpartition(':')[2].removesuffix('Axis').removeprefix('Statement')}="
                               f"{m.rpartition(':')[2].removesuffix('Member')}" for a, m in c.dims))
        out.add((f.concept, _month_end(c.end).strftime("%Y%m%d"), quarters, f.unit.removesuffix("/shares"), dims,
                 Decimal(f.value).quantize(Decimal("0.0001"))))
    return out


@pytest.mark.parametrize(("name", "folder", "dimensional"), [
    ("xbrl/aapl-20200926_htm.xml", "apple_10k_2020", 0), (APPLE_10K, "apple_10k_2024", 192)])
def test_every_fsds_row_of_the_filing_is_one_of_our_facts(real, name, folder, dimensional):
    fsds = _fsds(real, folder)
    assert set(fsds) <= _as_fsds(_read(name))
    assert sum(n for k, n in fsds.items() if k[4]) >= dimensional


def test_a_classic_2010_instance_loads_and_its_balance_sheets_balance(real):
    netflix = _read("xbrl/nflx-20100930.xml")
    values = {(f.concept, f.context.end): Decimal(f.value) for f in netflix.facts
              if f.numeric and f.value is not None and not f.context.dims and f.context.start is None}
    ends = {end for concept, end in values if concept == "us-gaap:Assets"}
    assert len(ends) == 2
    for end in ends:
        assert values["us-gaap:Assets", end] == values["us-gaap:LiabilitiesAndStockholdersEquity", end]
        assert values["us-gaap:Assets", end] > values["us-gaap:AssetsCurrent", end] > 0
    assert {f.concept for f in netflix.facts if f.concept.startswith("dei:")} >= {"dei:DocumentType",
                                                                                   "dei:EntityCentralIndexKey"}


@pytest.fixture(scope="module")
def apple(real, tmp_path_factory):
    """A store with Apple's companyfacts and submissions."""
    store = factstore.open(tmp_path_factory.mktemp("xbrl") / "apple.duckdb")
    store.load_companyfacts(real / "companyfacts" / "CIK0000320193.json",
                            submissions_for(real, "CIK0000320193.json"), progress=False)
    yield store
    store.close()


def test_loading_the_filings_xbrl_adds_only_what_companyfacts_lacks_and_again_nothing(real, apple):
    before = apple.sql("SELECT count(*) AS n FROM reports WHERE concept NOT LIKE '%|%'")["n"][0]
    (report,) = apple.load_xbrl(REAL / APPLE_10Q, progress=False)
    assert (report.filings, report.revisions, report.xbrl_facts) == (0, 0, 700)
    # its plain standard figures were companyfacts' already: only dimensional and Apple's own ones are new
    added = apple.sql("SELECT concept FROM reports WHERE filing_id = '0000320193-25-000057' AND (concept LIKE '%|%' "
                      "OR concept LIKE 'aapl:%')")
    assert report.reports == len(added) > 0
    assert apple.sql("SELECT count(*) AS n FROM reports WHERE concept NOT LIKE '%|%'")["n"][0] == before + sum(
        c.startswith("aapl:") and "|" not in c for c in added["concept"])
    again = apple.load_xbrl(REAL / APPLE_10Q, progress=False)
    assert (again[0].reports, again[0].xbrl_facts, again[0].filings) == (0, 0, 0)
    # the SEC's instance of the same filing is the same facts
    (instance,) = apple.load_xbrl(REAL / "xbrl/aapl-20250329_htm.xml", progress=False)
    assert (instance.reports, instance.xbrl_facts, instance.revisions) == (0, 0, 0)


def test_a_segment_figure_is_kept_apart_from_the_total(apple):
    apple.load_xbrl(REAL / APPLE_10Q, progress=False)
    rows = apple.sql("""SELECT concept, value FROM reports WHERE filing_id = '0000320193-25-000057'
        AND period_start = '2024-12-29' AND period_end = '2025-03-29' AND unit = 'USD'
        AND concept LIKE 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax%'""")
    values = dict(zip(rows["concept"], rows["value"], strict=True))
    total = values.pop("us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax")
    assert total == 95_359_000_000
    products = values["us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax|ProductOrService=Product"]
    services = values["us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax|ProductOrService=Service"]
    assert products + services == total
    assert apple.fact("AAPL", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
                      start="2024-12-29", end="2025-03-29", as_of="2025-05-03").value == total


def test_text_facts_and_exact_values_are_kept_as_stated(apple):
    apple.load_xbrl(REAL / APPLE_10Q, progress=False)
    row = apple.sql("""SELECT value, decimals, dims FROM xbrl_facts WHERE filing_id = '0000320193-25-000057'
        AND concept = 'us-gaap:EarningsPerShareDiluted' AND period_start = '2024-12-29'""")
    assert (row["value"][0], row["decimals"][0]) == ("1.65", "2")
    cover = apple.sql("""SELECT concept, value FROM xbrl_facts WHERE filing_id = '0000320193-25-000057'
        AND concept IN ('dei:DocumentType', 'dei:EntityRegistrantName', 'dei:DocumentPeriodEndDate')""")
    assert dict(zip(cover["concept"], cover["value"], strict=True)) == {
        "dei:DocumentType": "10-Q", "dei:EntityRegistrantName": "Apple Inc.",
        "dei:DocumentPeriodEndDate": "2025-03-29"}


@pytest.mark.parametrize(("name", "cik", "company", "numbers"), [
    pytest.param("NVDA_10-K_2025-02-26.html", 1045810, "NVIDIA CORP", 900, marks=pytest.mark.slow),
    pytest.param("GOOGL_10-K_2025-02-05.html", 1652044, "Alphabet Inc.", 1000, marks=pytest.mark.slow),
    ("WFC_10-K_2025-02-25.html", 72971, "WELLS FARGO & COMPANY/MN", 5)])
def test_a_10k_loads_its_facts_and_its_company_from_the_cover_alone(real, tmp_path, name, cik, company, numbers):
    with factstore.open(tmp_path / "fresh.duckdb") as store:
        (report,) = store.load_xbrl(REAL / "filings" / name, progress=False)
        assert (report.entities, report.filings) == (1, 1) and report.reports >= numbers
        entity = store.sql("SELECT cik, name FROM entities")
        assert (entity["cik"][0], entity["name"][0]) == (cik, company)
        filing = store.sql("SELECT form, accepted_precision FROM filings")
        assert (filing["form"][0], filing["accepted_precision"][0]) == ("10-K", "date")


def test_what_contradicts_the_store_is_refused_naming_both(real, apple):
    with pytest.raises(LoadError, match="stored as one of 0000320193, not of 0001045810"):
        apple.load_xbrl(REAL / "filings/NVDA_10-K_2025-02-26.html", accession="0000320193-25-000057",
                        progress=False)
    with pytest.raises(LoadError, match="accepted .* in the store, not"):
        apple.load_xbrl(REAL / APPLE_10Q, accepted_at="2025-05-09", progress=False)


def test_load_filing_of_an_inline_document_loads_its_facts_with_its_text(real, tmp_path):
    with factstore.open(tmp_path / "filing.duckdb") as store:
        report = store.load_filing(REAL / APPLE_10Q, accession="0000320193-25-000057",
                                   accepted_at="2025-05-02T20:31:14Z", progress=False)
        assert (report.documents, report.filings, report.xbrl_facts) == (1, 1, 700)
        assert report.reports == store.sql("SELECT count(*) AS n FROM reports")["n"][0] > 600
        eps = store.fact("AAPL", "us-gaap:EarningsPerShareDiluted", start="2024-12-29", end="2025-03-29")
        assert (eps.value, eps.source) == (1.65, "0000320193-25-000057")
        again = store.load_xbrl(REAL / APPLE_10Q, progress=False)
        assert (again[0].reports, again[0].xbrl_facts, again[0].filings) == (0, 0, 0)


def test_the_cli_loads_xbrl_as_the_api_does(real, tmp_path, capsys):
    db = str(tmp_path / "cli.duckdb")
    assert main(["load", "xbrl", str(REAL / "filings/WFC_10-K_2025-02-25.html"), "--db", db]) == 0
    printed = capsys.readouterr().out
    with factstore.open(db, read_only=True) as store:
        facts = store.sql("SELECT count(*) AS n FROM xbrl_facts")["n"][0]
        reports = store.sql("SELECT count(*) AS n FROM reports")["n"][0]
    assert f"added {facts} XBRL facts ({reports} new reports), 1 entities, 1 filings" in printed
    assert main(["load", "xbrl", str(REAL / APPLE_10Q), "--db", db, "--accepted-at", "2025-05-02"]) == 0
    assert main(["load", "xbrl", str(REAL / APPLE_10Q), str(REAL / APPLE_10K), "--db", db,
                 "--accession", "0000320193-25-000057"]) == 1
    assert "accession and accepted_at are one filing's" in capsys.readouterr().err


def test_a_figure_is_cited_to_the_exact_span_of_its_tag_primary_statement_first(real, apple):
    apple.load_filing(REAL / APPLE_10K, progress=False)
    cited = apple.sql("""SELECT element_id, start_char, end_char, shown, block_kind, item, occurrence, value
        FROM fact_citations WHERE filing_id = '0000320193-24-000123'
        AND concept = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax' AND dims IS NULL
        AND period_start = '2023-10-01' AND period_end = '2024-09-28' ORDER BY occurrence""")
    assert len(cited) >= 2 and set(cited["shown"]) == {"391,035"} and set(cited["value"]) == {"391035000000"}
    first = cited.iloc[0]
    assert (first["block_kind"], first["item"], first["occurrence"]) == ("table", "8", 1)
    text = apple.sql("SELECT text FROM documents WHERE doc_id = '0000320193-24-000123'")["text"][0]
    assert text[first["start_char"]:first["end_char"]] == "391,035"
    statement = text[text.rfind("\n\n", 0, first["start_char"]):first["start_char"]]
    assert "CONSOLIDATED STATEMENTS OF OPERATIONS" in statement.upper() or "Total net sales" in statement
    # a figure printed first in a note's text ("$22.0 billion") and then in its table: the table's is cited first
    benefits = apple.sql("""SELECT shown, block_kind FROM fact_citations WHERE filing_id = '0000320193-24-000123'
        AND concept = 'us-gaap:UnrecognizedTaxBenefits' AND dims IS NULL AND period_end = '2024-09-28'
        ORDER BY occurrence""")
    assert benefits.values.tolist() == [["22,038", "table"], ["22.0", "paragraph"]]


def test_the_secs_zip_of_a_filing_reads_its_inline_document_else_its_instance(real, tmp_path):
    import zipfile

    with_inline, instance_only = tmp_path / "0000320193-25-000057-xbrl.zip", tmp_path / "instance-xbrl.zip"
    with zipfile.ZipFile(with_inline, "w") as z:
        z.write(REAL / APPLE_10Q, "aapl-20250329.htm")
        z.write(REAL / "xbrl/aapl-20250329_htm.xml", "aapl-20250329_htm.xml")
        z.writestr("aapl-20250329_cal.xml", '<link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase"/>')
    with zipfile.ZipFile(instance_only, "w") as z:
        z.write(REAL / "xbrl/aapl-20250329_htm.xml", "aapl-20250329_htm.xml")
        z.writestr("aapl-20250329.xsd", '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>')
    read = read_xbrl(with_inline)
    assert read.kind == "inline" and Counter(map(_stated, read.facts)) == Counter(map(_stated, _read(APPLE_10Q).facts))
    alone = read_xbrl(instance_only)
    assert alone.kind == "instance" and len(alone.facts) == 700
    with factstore.open(tmp_path / "zip.duckdb") as store:
        (report,) = store.load_xbrl(with_inline, accepted_at="2025-05-02T10:00:46Z", progress=False)
        assert report.filings == 1 and report.xbrl_facts == 700
        assert store.sql("SELECT filing_id FROM filings")["filing_id"][0] == "0000320193-25-000057"


@pytest.mark.parametrize("xbrl_first", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_fsds_and_the_filings_xbrl_are_the_same_facts_in_either_order(real, tmp_path, xbrl_first):
    with factstore.open(tmp_path / "both.duckdb") as store:
        store.load_companyfacts(real / "companyfacts" / "CIK0000320193.json",
                                submissions_for(real, "CIK0000320193.json"), progress=False)
        loads = [lambda: store.load_fsds(real / "fsds" / "apple_10k_2024", progress=False),
                 lambda: store.load_xbrl(REAL / APPLE_10K, progress=False)]
        first, second = (loads[1], loads[0]) if xbrl_first else loads
        (a,), (b,) = first(), second()
        assert a.revisions == b.revisions == 0
        # every FSDS row is one of the filing's facts: after the XBRL, FSDS adds nothing
        assert (b.reports == 0) if xbrl_first else (a.reports == 192)
        keys = store.sql("""SELECT count(*) AS n, count(DISTINCT (concept, unit, period_start, period_end)) AS k
            FROM reports WHERE filing_id = '0000320193-24-000123'""")
        assert keys["n"][0] == keys["k"][0]


def test_a_fact_says_where_its_figure_is_printed(real, apple):
    apple.load_filing(REAL / APPLE_10K, progress=False)
    revenue = apple.fact("AAPL", "revenue", period="FY2024", as_of="2024-11-02")
    printed = revenue.printed
    assert (revenue.source, printed["doc_id"], printed["shown"]) == ("0000320193-24-000123",) * 2 + ("391,035",)
    text = apple.sql("SELECT text FROM documents WHERE doc_id = '0000320193-24-000123'")["text"][0]
    assert text[printed["start_char"]:printed["end_char"]] == "391,035"
    assert "printed as '391,035' in 0000320193-24-000123" in fact_lines(revenue)
    # a later filing repeating the figure, its XBRL not loaded: the one that first reported it is cited
    later = apple.fact("AAPL", "revenue", period="FY2024")
    assert later.source != "0000320193-24-000123" and later.printed == printed
    # a derived figure is printed nowhere; its parts are
    assert apple.fact("AAPL", "revenue", period="2024Q4", as_of="2024-11-02").printed is None


def test_ask_cites_a_figure_at_its_tag_where_its_filing_was_loaded_with_it(real, apple):
    apple.load_filing(REAL / APPLE_10K, progress=False)
    answer = apple.ask("What was Apple's revenue in fiscal 2024?", as_of="2024-11-02")
    (cite,) = answer.citations
    tag = apple.sql("""SELECT start_char, end_char, shown FROM fact_citations WHERE filing_id = ? AND occurrence = 1
        AND concept = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax' AND dims IS NULL
        AND period_start = '2023-10-01' AND period_end = '2024-09-28'""", ["0000320193-24-000123"]).iloc[0]
    assert (cite.doc, cite.start, cite.end, cite.text) == ("0000320193-24-000123", tag["start_char"],
                                                           tag["end_char"], "391,035")
    # each part of a derived figure is cited at its own tag: Q4 = FY - 9M, the year from the 10-K
    q4 = apple.ask("What was Apple's revenue in Q4 fiscal 2024?", as_of="2024-11-02")
    year = [c for c in q4.citations if c.doc == "0000320193-24-000123"]
    assert [(c.start, c.text) for c in year] == [(tag["start_char"], "391,035")]


def test_a_figure_is_cited_at_the_tag_its_first_filing_used(real, tmp_path):
    """Alphabet's FY2024 revenue is us-gaap:Revenues as known now (the FY2025 10-K re-tagged it), first reported by
    the FY2024 10-K as RevenueFromContract...: the citation is that filing's tag, found under that filing's concept."""
    with factstore.open(tmp_path / "googl.duckdb") as store:
        store.load_companyfacts(real / "companyfacts" / "CIK0001652044.json",
                                submissions_for(real, "CIK0001652044.json"), progress=False)
        store.load_filing(REAL / "filings/GOOGL_10-K_2025-02-05.html", progress=False)
        answer = store.ask("What was Alphabet's revenue in fiscal 2024?")
        (part,), (cite,) = answer.parts, answer.citations
        assert (part["concept"], part["filing_id"], part["cited_concept"]) == (
            "us-gaap:Revenues", "0001652044-25-000014", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax")
        tag = store.sql("""SELECT start_char, end_char FROM fact_citations WHERE filing_id = ? AND occurrence = 1
            AND concept = ? AND dims IS NULL AND period_start = '2024-01-01' AND period_end = '2024-12-31'""",
                        [part["filing_id"], part["cited_concept"]]).iloc[0]
        assert (cite.doc, cite.start, cite.end, cite.text) == (part["filing_id"], tag["start_char"], tag["end_char"],
                                                               "350,018")


@pytest.mark.parametrize("given", ["2010/10/25", "10/25/2010", "20101025", "Oct 25 2010", "10/09/2010"])
def test_an_acceptance_not_written_in_iso_is_refused_not_read_as_midnight_utc(real, tmp_path, given):
    with factstore.open(tmp_path / "nflx.duckdb") as store:
        with pytest.raises(LoadError, match="give a day as YYYY-MM-DD") as err:
            store.load_xbrl(REAL / "xbrl/nflx-20100930.xml", accession="0001193125-10-235785", accepted_at=given,
                            progress=False)
        assert err.value.field == "accepted_at"
        assert store.sql("SELECT count(*) AS n FROM filings")["n"][0] == 0
        (report,) = store.load_xbrl(REAL / "xbrl/nflx-20100930.xml", accession="0001193125-10-235785",
                                    accepted_at="2010-10-25", progress=False)
        filing = store.sql("SELECT accepted_at, accepted_precision, accepted_note FROM filings").iloc[0]
        # a day alone is public from the end of that day in New York, never from its midnight UTC
        assert (str(filing["accepted_at"]), filing["accepted_precision"]) == ("2010-10-26 03:59:59", "date")
        assert "(given)" in filing["accepted_note"]


def test_a_company_held_before_gains_the_covers_ticker(real, tmp_path):
    with factstore.open(tmp_path / "fsds.duckdb") as store:
        store.load_fsds([real / "fsds" / "2009q3", real / "fsds" / "2010q2"], progress=False)
        assert store.sql("SELECT count(*) AS n FROM entities WHERE cik = 1065280")["n"][0] == 1
        store.load_xbrl(REAL / "xbrl/nflx-20100930.xml", accession="0001193125-10-235785",
                        accepted_at="2010-10-25T20:05:00Z", progress=False)
        assert store.resolve_entity("NFLX") == "0001065280"
