"""Loads in any order give the same store: companyfacts with submissions, FSDS quarters, the filings' XBRL and the
XBRL feed of the real files, loaded in every order, leave the same reports, filings and entities, times and names
included, and the same periods learned from them (issue #44: what it must show)."""

from __future__ import annotations

import itertools
from datetime import datetime
from pathlib import Path

import pandas as pd
import pytest

import factstore
from tests.helpers import submissions_for
from tests.test_xbrl_feed import feed

APPLE = "CIK0000320193.json"
# Apple's XBRL instances in shared/real/xbrl, with their accessions
INSTANCES = {"aapl-20200926_htm.xml": "0000320193-20-000096", "aapl-20230930_htm.xml": "0000320193-23-000106",
             "aapl-20250329_htm.xml": "0000320193-25-000057"}
# 2009q3 holds Apple's Q3 FY2009 10-Q, which submissions lack, and 2010q2 a hundred other filers (a company renamed
# between them); apple_10k_2020 is left out: its sub.txt lacks its own filing, so it loads only after that filing
FSDS = ("2009q3", "2010q2", "apple_10k_2024")
SOURCES = ("companyfacts", "fsds", "xbrl", "feed")
# the store's tables as loads leave them (`source` and `accepted_note` say which file came first, so they may differ)
TABLES = {
    "filings": "SELECT filing_id, entity_id, form, period_end, filed, accepted_at, accepted_precision FROM filings",
    "reports": "SELECT * EXCLUDE (accepted_at), accepted_at FROM reports",
    "entities": "SELECT entity_id, cik, name, list_sort(tickers) AS tickers, list_sort(other_names) AS other_names "
                "FROM entities",
    # what fiscal calendars and FSDS's placing are learned from
    "entity_periods": "SELECT * FROM entity_periods",
    "approximate_periods": "SELECT * EXCLUDE (source) FROM approximate_periods",
}


@pytest.fixture(scope="module")
def times(real, tmp_path_factory) -> dict[str, datetime]:
    """The acceptance of each instance's filing as the store reads it from Apple's submissions: what a user gives
    load_xbrl, and what the feed lists."""
    with factstore.open(tmp_path_factory.mktemp("times") / "t.duckdb") as store:
        store.load_companyfacts(real / "companyfacts" / APPLE, submissions_for(real, APPLE), progress=False)
        rows = store.sql("SELECT filing_id, accepted_at, form, period_end, filed FROM filings "
                         "WHERE filing_id IN (SELECT unnest(?))", [list(INSTANCES.values())])
    assert len(rows) == len(INSTANCES)
    return {r.filing_id: r for r in rows.itertuples(index=False)}


def _load(store, source: str, real, times, tmp_path) -> None:
    if source == "companyfacts":
        store.load_companyfacts(real / "companyfacts" / APPLE, submissions_for(real, APPLE), progress=False)
    elif source == "fsds":
        store.load_fsds([real / "fsds" / name for name in FSDS], progress=False)
    elif source == "feed":
        path = tmp_path / "xbrlrss-apple.xml"
        path.write_text(feed([{"company": "Apple Inc.", "form": r.form, "filed": r.filed, "cik": 320193,
                               "accession": r.filing_id, "period": r.period_end, "accepted_at": r.accepted_at}
                              for r in times.values()]))
        store.load_xbrl_feed(path, progress=False)
    else:
        for name, accession in INSTANCES.items():
            store.load_xbrl(real / "xbrl" / name, accession=accession,
                            accepted_at=f"{times[accession].accepted_at.isoformat()}Z", progress=False)


def _tables(store) -> dict[str, pd.DataFrame]:
    return {name: store.sql(f"{query} ORDER BY ALL").reset_index(drop=True) for name, query in TABLES.items()}


@pytest.fixture(scope="module")
def reference(real, times, tmp_path_factory) -> dict[str, pd.DataFrame]:
    return _built(SOURCES, real, times, tmp_path_factory)


def _built(sources, real, times, tmp_path_factory) -> dict[str, pd.DataFrame]:
    folder = tmp_path_factory.mktemp("order")
    with factstore.open(folder / "s.duckdb") as store:
        for source in sources:
            _load(store, source, real, times, folder)
        return _tables(store)


@pytest.mark.parametrize("order", [o for o in itertools.permutations(SOURCES) if o != SOURCES], ids="-".join)
def test_every_order_of_loads_gives_the_same_store(real, times, reference, tmp_path_factory, order):
    found = _built(order, real, times, tmp_path_factory)
    for name in TABLES:
        pd.testing.assert_frame_equal(found[name], reference[name], obj=name)
    assert len(reference["reports"]) > 40_000 and len(reference["filings"]) > 100


# --- the same rules on generated filings (no real data needed)
SUB = ["adsh", "cik", "name", "form", "period", "filed", "accepted", "prevrpt", "fye"]
NUM = ["adsh", "tag", "version", "ddate", "qtrs", "uom", "segments", "coreg", "value"]


def _fsds(folder: Path, adsh: str, form: str, period: str, nums: list[tuple[str, str, str, str]]) -> Path:
    """An FSDS quarter of one submission of CIK 3 (filed 2019-11-01 at 16:30 New York): nums (tag, ddate, qtrs,
    value)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sub.txt").write_text("\n".join("\t".join(r) for r in [
        SUB, [adsh, "3", "THREE CORP", form, period, "20191101", "2019-11-01 16:30:00.0", "0", "0928"]]))
    (folder / "num.txt").write_text("\n".join("\t".join(r) for r in [
        NUM, *([adsh, tag, "us-gaap/2019", ddate, qtrs, "USD", "", "", value] for tag, ddate, qtrs, value in nums)]))
    return folder


def _companyfacts(facts: list[tuple[str, str | None, str, float, str, str]]) -> dict:
    """CIK 3's companyfacts: facts (us-gaap concept's name, start, end, value, accession, form), filed 2019-11-01."""
    by: dict[str, list] = {}
    for concept, start, end, value, accn, form in facts:
        by.setdefault(concept, []).append({**({"start": start} if start else {}), "end": end, "val": value,
                                           "accn": accn, "form": form, "filed": "2019-11-01"})
    return {"cik": 3, "entityName": "Three Corp", "facts": {"us-gaap": {c: {"units": {"USD": v}} for c, v in
                                                                         by.items()}}}


def test_an_fsds_month_end_takes_the_day_its_filing_reports_most_facts_at(tmp_path):
    """A 10-K's balance sheet at 2019-09-28 and an equity statement's opening at 2019-09-29: FSDS's 20190930 is the
    balance sheet's day (the nearest day had taken it, so that a comparative sat beside its own fact)."""
    accn = "0000000003-19-000001"
    balances = [(c, None, "2019-09-28", 1.0, accn, "10-K") for c in ("Assets", "Liabilities",
                                                                      "Cash")]
    cf = _companyfacts([*balances, ("StockholdersEquity", None, "2019-09-29", 7.0, accn, "10-K")])
    with factstore.open() as store:
        store.load_companyfacts(cf)
        store.load_fsds(_fsds(tmp_path / "q", accn, "10-K", "20190930", [("AccountsPayableCurrent", "20190930", "0",
                                                                             "5.0")]), progress=False)
        placed = store.sql("SELECT period_end FROM reports WHERE concept = 'us-gaap:AccountsPayableCurrent'")
        assert placed["period_end"].tolist() == [pd.Timestamp("2019-09-28")]


@pytest.mark.parametrize("fsds_before", [True, False])
def test_an_exact_value_replaces_the_one_fsds_rounded_whichever_came_first(tmp_path, fsds_before):
    """A 10-K/A's EPS of 1.23456, which FSDS keeps as 1.2346: the store holds 1.23456 whichever came first (FSDS
    first, the fill of companyfacts had left FSDS's rounded value)."""
    year = ("Revenues", "2018-09-30", "2019-09-28", 100.0, "0000000003-19-000001", "10-K")
    eps = ("EarningsPerShareBasic", "2018-09-30", "2019-09-28", 1.23456, "0000000003-19-000002", "10-K/A")
    first, both = _companyfacts([year]), _companyfacts([year, eps])
    quarter = _fsds(tmp_path / "q", eps[4], "10-K/A", "20190930", [("EarningsPerShareBasic", "20190930", "4",
                                                                    "1.2346")])
    with factstore.open() as store:
        store.load_companyfacts(first)  # the company's year, known before FSDS places the amendment's
        steps = [lambda: store.load_fsds(quarter, progress=False), lambda: store.load_companyfacts(both)]
        for step in (steps if fsds_before else reversed(steps)):
            step()
        values = store.sql("SELECT value FROM reports WHERE concept = 'us-gaap:EarningsPerShareBasic'")["value"]
        assert values.tolist() == [1.23456]
