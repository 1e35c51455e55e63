"""Real companyfacts files: they all load, and hand-checked values come out right as of their dates."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import factstore
from tests.helpers import submissions_for

FILES = ["CIK0000320193.json", "CIK0001045810.json", "CIK0001046179.json", "CIK0001318605.json",
         "CIK0001640147.json", "CIK0001652044.json", "CIK0001835632.json", "CIK0001997711.json"]


@pytest.fixture(scope="module")
def sec(real):
    """One store with every real companyfacts file, each with its submissions where we have them."""
    store = factstore.open()
    for name in FILES:
        store.load_companyfacts(real / "companyfacts" / name, submissions_for(real, name))
    yield store
    store.close()


def _raw_count(path) -> int:
    facts = json.loads(path.read_text())["facts"]
    return sum(len(v) for c in facts.values() for body in c.values() for v in body["units"].values())


@pytest.mark.parametrize("name", FILES)
def test_every_file_loads_every_reported_value(sec, real, name):
    data = json.loads((real / "companyfacts" / name).read_text())
    entity = f"{int(data['cik']):010d}"
    stored = sec.sql("SELECT count(*) AS n FROM reports WHERE entity_id = ?", [entity])["n"][0]
    # none of the values any filing reported is dropped: one row per (fact, filing) as in the JSON
    assert stored == _raw_count(real / "companyfacts" / name)


def test_loading_twice_adds_nothing(real):
    with factstore.open() as store:
        path = real / "companyfacts" / "CIK0001640147.json"
        first = store.load_companyfacts(path)
        again = store.load_companyfacts(path)
        assert first.reports > 0 and again.reports == 0 and again.filings == 0


# Q4 = FY - 9M from the first-filed 10-K and Q3 10-Q (MANIFEST.md table, checked against the raw JSON).
Q4_CASES = [
    ("AAPL", "RevenueFromContractWithCustomerExcludingAssessedTax", "2025Q4", "2025-11-01", 102_466_000_000),
    ("AAPL", "NetIncomeLoss", "2025Q4", "2025-11-01", 27_466_000_000),
    ("NVDA", "Revenues", "2025Q4", "2025-02-27", 39_331_000_000),
    ("1652044", "RevenueFromContractWithCustomerExcludingAssessedTax", "2024Q4", "2025-02-07", 96_469_000_000),
    ("MRVL", "RevenueFromContractWithCustomerExcludingAssessedTax", "2025Q4", "2025-03-13", 1_817_400_000),
    ("1640147", "RevenueFromContractWithCustomerExcludingAssessedTax", "2025Q4", "2025-03-23", 986_770_000),
    ("TSLA", "Revenues", "2021Q4", "2022-02-08", 17_719_000_000),
]


@pytest.mark.parametrize(("entity", "concept", "period", "as_of", "expected"), Q4_CASES)
def test_derived_q4_matches_hand_computed(sec, entity, concept, period, as_of, expected):
    fact = sec.fact(entity, concept, period=period, as_of=as_of)
    assert fact is not None and fact.derived and fact.formula == "FY - 9M"
    assert fact.value == expected
    assert {p["form"] for p in fact.parts} == {"10-K", "10-Q"}
    assert fact.accepted_at <= pd.Timestamp(as_of, tz="UTC")


def test_q4_not_known_before_the_10k(sec):
    # NVDA's FY2025 10-K was accepted 2025-02-26; a day earlier only the 9 months were known
    assert sec.fact("NVDA", "Revenues", period="2025Q4", as_of="2025-02-25") is None
    with pytest.raises(factstore.NotFound, match="no annual figure"):
        sec.fact("NVDA", "Revenues", period="2025Q4", as_of="2025-02-25", strict=True)


def test_apple_10ka_restatement_before_and_after(sec):
    # 10-K filed 2009-10-27 said 36,537M; the 10-K/A filed 2010-01-25 restated it to 42,905M
    before = sec.fact("AAPL", "SalesRevenueNet", period="FY2009", as_of="2010-01-20")
    after = sec.fact("AAPL", "SalesRevenueNet", period="FY2009", as_of="2010-02-01")
    assert (before.value, before.form, before.source) == (36_537_000_000, "10-K", "0001193125-09-214859")
    assert (after.value, after.form, after.source) == (42_905_000_000, "10-K/A", "0001193125-10-012091")
    first = sec.fact("AAPL", "SalesRevenueNet", period="FY2009", mode="first")
    assert first.value == 36_537_000_000


def test_apple_q4_2009_mixed_basis_then_consistent(sec):
    q = [sec.fact("AAPL", "SalesRevenueNet", period="2009Q4", as_of=t)
         for t in ("2009-11-01", "2010-02-01", "2010-07-23")]
    assert [f.value for f in q] == [9_870_000_000, 16_238_000_000, 12_207_000_000]
    assert q[0].warnings == () and q[2].warnings == ()
    assert any("mixed basis" in w for w in q[1].warnings)


def test_ifrs_filer_restated_translation(sec):
    # TSMC reports USD convenience translations; the 2017 cash figure changed in the next 20-F
    args = ("TSM", "CashAndCashEquivalents")
    assert sec.fact(*args, end="2017-12-31", as_of="2018-05-01", unit="USD").value == 18_670_400_000
    assert sec.fact(*args, end="2017-12-31", as_of="2019-05-01", unit="USD").value == 18_078_800_000
    assert sec.fact(*args, end="2017-12-31", as_of="2018-04-01", unit="USD") is None


def test_acceptance_times_repaired_from_submissions(sec):
    row = sec.sql("SELECT accepted_at, accepted_note FROM filings WHERE filing_id = ?",
                  ["0000320193-25-000079"]).iloc[0]
    # stamped 2025-10-31T06:01:26.000Z: 06:01 UTC is 02:01 in New York, outside EDGAR's hours
    assert row["accepted_at"] == pd.Timestamp("2025-10-31 10:01:26")
    assert row["accepted_note"].startswith("repaired")
    # a filing absent from the submissions file is known from the end of its filing date (New York)
    row = sec.sql("SELECT accepted_at, accepted_precision FROM filings WHERE filing_id = ?",
                  ["0001193125-10-012091"]).iloc[0]
    assert (row["accepted_at"], row["accepted_precision"]) == (pd.Timestamp("2010-01-26 04:59:59"), "date")


def test_concept_list_bridges_a_tag_switch(sec):
    # Alphabet (no submissions file here, so by CIK) moved revenue from RevenueFromContract... to Revenues in 2025
    names = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax"]
    old = sec.fact("1652044", names, period="FY2023", as_of="2024-03-01")
    assert old.concept == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    assert old.value == sec.fact("1652044", names[1], period="FY2023", as_of="2024-03-01").value


def test_older_vintage_equals_newer_file_as_of_its_date(real):
    """The 2024-11-01 vintage of Apple's file, read as latest, equals the newer file read as of then."""
    older, newer = factstore.open(), factstore.open()
    older.load_companyfacts(real / "companyfacts" / "vintage" / "CIK0000320193_asof_2024-11-01.json",
                            real / "submissions" / "vintage" / "CIK0000320193_asof_2024-11.json")
    newer.load_companyfacts(real / "companyfacts" / "CIK0000320193.json",
                            real / "submissions" / "CIK0000320193.json")
    cutoff = "2024-11-02 12:00:00"
    query = """SELECT concept, unit, period_start, period_end, value, filing_id
               FROM facts_asof(?::TIMESTAMP, mode := ?)
               -- the SEC revised these par values in place (0 -> 1e-05) between the two vintages
               WHERE concept <> 'us-gaap:CommonStockParOrStatedValuePerShare'
               ORDER BY ALL"""
    a = older.sql(query, [None, "latest"])
    b = newer.sql(query, [cutoff, "as_of"])
    assert len(a) > 11_000
    pd.testing.assert_frame_equal(a, b)
    quarters = """SELECT concept, unit, fiscal_period, period_start, period_end, value, derived, formula,
                      filing_id, warnings, note FROM quarters_asof(?::TIMESTAMP, mode := ?)
                  WHERE concept <> 'us-gaap:CommonStockParOrStatedValuePerShare' ORDER BY ALL"""
    qa = older.sql(quarters, [None, "latest"])
    qb = newer.sql(quarters, [cutoff, "as_of"])
    assert qa["derived"].sum() > 100
    pd.testing.assert_frame_equal(qa, qb)
