"""Issue #44, time and order: a periodic report accepted before its period ended is refused; the XBRL feed refuses an
accession listed twice differently; one order of filings (time, original before amendment, accession) serves every
reading; a more precise time from a later source replaces a fallback, in either order of loading."""

from __future__ import annotations

from datetime import date, datetime

import pandas as pd
import pytest

import factstore
from factstore.errors import LoadError
from factstore.loaders.batch import Batch
from tests import oracle
from tests.helpers import EIGHT_COMPANIES, REAL, submissions_for
from tests.test_xbrl_feed import feed

AT = datetime(2020, 2, 20, 21, 0, 0)  # a 10-K and its 10-K/A, accepted in the same second
ORIGINAL, AMENDMENT = "0000000001-20-000009", "0000000001-20-000002"  # (the amendment's accession sorts first)
APPLE_Q3_2009 = "0001193125-09-153165"  # Apple's 10-Q for fiscal Q3 2009: FSDS says 16:42 New York, nothing else


def _listing(accession: str = "0000000001-24-000001", form: str = "10-K", period: str = "2024-12-31",
             accepted_at: datetime = datetime(2025, 2, 20, 21, 0), cik: int = 1, filed: str = "2025-02-20") -> dict:
    return {"company": "Aaa Corp", "form": form, "filed": filed, "cik": cik, "accession": accession,
            "period": period, "accepted_at": accepted_at}


# --- a periodic report accepted before its period ended

def test_a_10q_given_a_time_before_its_period_ended_is_refused(tmp_path):
    with factstore.open() as store:
        with pytest.raises(LoadError) as err:
            store.load_xbrl(REAL / "xbrl/aapl-20250329_htm.xml", accession="0000320193-25-000057",
                            accepted_at="2025-03-01T15:00:00", progress=False)
        assert err.value.field == "accepted_at" and "0000320193-25-000057" in str(err.value)
        assert "before its period ended" in str(err.value)
        assert store.sql("SELECT count(*) AS n FROM filings")["n"][0] == 0
        # the same document, accepted after its period: loads
        (report,) = store.load_xbrl(REAL / "xbrl/aapl-20250329_htm.xml", accession="0000320193-25-000057",
                                    accepted_at="2025-05-02T10:00:46", progress=False)
        assert report.filings == 1


def test_the_feed_refuses_a_periodic_report_listed_before_its_period_ended_but_not_an_8k(tmp_path):
    path = tmp_path / "xbrlrss.xml"
    early = datetime(2024, 6, 3, 15, 0)
    path.write_text(feed([_listing(form="8-K", accession="0000000001-24-000002", filed="2024-06-03",
                                   accepted_at=early),
                          _listing(accepted_at=early, filed="2024-06-03")]))
    with factstore.open() as store:
        with pytest.raises(LoadError) as err:
            store.load_xbrl_feed(path, progress=False)
        assert (err.value.row, err.value.field) == (2, "edgar:acceptanceDatetime")
        assert "0000000001-24-000001" in str(err.value) and str(path) in str(err.value)
        assert store.sql("SELECT count(*) AS n FROM xbrl_feed")["n"][0] == 0


def test_the_real_files_hold_no_report_accepted_before_its_period(real):
    with factstore.open() as store:
        for name in EIGHT_COMPANIES:  # with their submissions, and companyfacts alone (periods from the facts)
            store.load_companyfacts(real / "companyfacts" / name, submissions_for(real, name), progress=False)
        store.load_fsds([real / "fsds/2009q3", real / "fsds/2010q2"], progress=False)
        alone = factstore.open()
        for name in EIGHT_COMPANIES:
            alone.load_companyfacts(real / "companyfacts" / name, progress=False)
        for s in (store, alone):
            assert s.sql("SELECT count(*) AS n FROM filings WHERE accepted_before_period(form, period_end, "
                         "accepted_at)")["n"][0] == 0
        alone.close()


# --- the XBRL feed: an accession listed twice

def test_an_accession_the_feed_lists_twice_differently_is_refused_naming_both_items(tmp_path):
    same, other = _listing(), _listing(cik=2, accepted_at=datetime(2025, 2, 20, 21, 5))
    path = tmp_path / "xbrlrss-2025-02.xml"
    path.write_text(feed([same, _listing(accession="0000000001-25-000009"), other]))
    with factstore.open() as store:
        with pytest.raises(LoadError) as err:
            store.load_xbrl_feed(path, progress=False)
        assert (err.value.row, err.value.field) == (3, "edgar:cikNumber")
        assert "item 1" in str(err.value) and "item 3" in str(err.value)
        assert store.sql("SELECT count(*) AS n FROM xbrl_feed")["n"][0] == 0


def test_a_later_load_listing_a_stored_accession_differently_is_refused_and_alike_is_silent(tmp_path):
    february, march, again = (tmp_path / f"{n}.xml" for n in ("february", "march", "again"))
    february.write_text(feed([_listing(), _listing()]))  # listed twice alike: once
    again.write_text(feed([_listing()]))
    march.write_text(feed([_listing(accession="0000000001-25-000009"),
                           _listing(accepted_at=datetime(2025, 2, 20, 22, 0))]))
    with factstore.open() as store:
        assert store.load_xbrl_feed(february, progress=False)[0].listed == 1
        assert store.load_xbrl_feed(again, progress=False)[0].listed == 0
        with pytest.raises(LoadError) as err:
            store.load_xbrl_feed(march, progress=False)
        assert (err.value.row, err.value.field) == (2, "edgar:acceptanceDatetime")
        assert str(february) in str(err.value) and str(march) in str(err.value)
        assert store.sql("SELECT count(*) AS n FROM xbrl_feed")["n"][0] == 1


# --- one order of filings

def _same_second_store() -> tuple[factstore.FactStore, list[oracle.Report]]:
    rows, docs = [], []

    def filing(doc: str, form: str, at: datetime, facts: list[tuple[date, date, float]]) -> None:
        docs.append({"id_doc": doc, "ticker": "AAA", "emisor": "Aaa", "tipo": form, "periodo_fin": date(2019, 12, 31),
                     "texto": ""})
        rows.extend({"id_doc": doc, "concepto": "us-gaap:Revenues", "periodo_inicio": s, "periodo_fin": e,
                     "valor": v, "ts_presentacion": pd.Timestamp(at, tz="UTC"), "forma": form} for s, e, v in facts)

    year, before = (date(2019, 1, 1), date(2019, 12, 31)), (date(2018, 1, 1), date(2018, 12, 31))
    filing("0000000001-19-000050", "10-Q", datetime(2019, 10, 30, 20, 0),
           [(date(2019, 1, 1), date(2019, 9, 30), 60.0), (date(2019, 7, 1), date(2019, 9, 30), 20.0)])
    filing(ORIGINAL, "10-K", AT, [(*year, 100.0), (*before, 90.0)])
    filing(AMENDMENT, "10-K/A", AT, [(*year, 120.0), (*before, 90.0)])
    store = factstore.open()
    xbrl, documents = pd.DataFrame(rows), pd.DataFrame(docs)
    store.load_course(xbrl, documents, progress=False)
    return store, oracle.course_reports(xbrl, documents)


def test_an_original_comes_before_its_amendment_of_the_same_second_in_every_reading():
    store, reports = _same_second_store()
    with store:
        year = dict(period="FY2019")
        first = store.fact("AAA", "us-gaap:Revenues", **year, mode="first")
        assert (first.value, first.source) == (100.0, ORIGINAL)
        for moment in (AT, None):
            now = store.fact("AAA", "us-gaap:Revenues", **year, as_of=moment, mode="as_of" if moment else "latest")
            assert (now.value, now.source) == (120.0, AMENDMENT)
        for mode, want in (("first", 100.0), ("as_of", 120.0), ("latest", 120.0)):
            asked = pd.DataFrame([{"entity": "AAA", "concept": "us-gaap:Revenues", "period_start": date(2019, 1, 1),
                                   "period_end": date(2019, 12, 31), "as_of": AT}])
            assert store.facts(asked, mode=mode)["value"][0] == want
            assert oracle.lookup(reports, "AAA", "us-gaap:Revenues", date(2019, 1, 1), date(2019, 12, 31), AT,
                                 mode).value == want
        assert list(store.history("AAA", "us-gaap:Revenues", **year)["filing_id"]) == [ORIGINAL, AMENDMENT]
        mry = store.fundamentals("AAA", ["revenue"], dimension="MRY").set_index("fiscal_period")
        assert (mry.loc["FY2019", "revenue"], mry.loc["FY2019", "accession"]) == (120.0, ORIGINAL)  # first reported by
        cell = store.panel(["AAA"], ["revenue"], [AT.replace(second=1)], period="year").iloc[0]
        assert (cell["value"], cell["filing_id"]) == (120.0, AMENDMENT)
        restated = store.sql("SELECT old_filing_id, new_filing_id FROM restatements").iloc[0]
        assert (restated["old_filing_id"], restated["new_filing_id"]) == (ORIGINAL, AMENDMENT)


def test_as_first_reported_years_take_the_original_of_a_same_second_amendment():
    store, _ = _same_second_store()
    with store:
        ary = store.fundamentals("AAA", ["revenue"], dimension="ARY").set_index("fiscal_period")
        assert (ary.loc["FY2019", "revenue"], ary.loc["FY2019", "accession"]) == (100.0, ORIGINAL)


# --- a more precise time replaces a fallback, in either order

def _apple_and_fsds(real, order: tuple[str, ...]) -> factstore.FactStore:
    store = factstore.open()
    for step in order:
        if step == "companyfacts":
            store.load_companyfacts(real / "companyfacts/CIK0000320193.json",
                                    submissions_for(real, "CIK0000320193.json"), progress=False)
        else:
            store.load_fsds(real / "fsds/2009q3", progress=False)
    return store


def test_fsds_minute_improves_a_filing_day_fallback_in_either_order(real):
    rows, answers = [], []
    for order in (("companyfacts", "fsds"), ("fsds", "companyfacts")):
        with _apple_and_fsds(real, order) as store:
            rows.append(store.sql(f"SELECT * FROM filings WHERE filing_id = '{APPLE_Q3_2009}'").to_dict("records"))
            # (FSDS first: its facts are placed in calendar months, and Apple's own quarter is known a year later)
            times = store.sql(f"""SELECT DISTINCT accepted_at FROM reports WHERE filing_id = '{APPLE_Q3_2009}'
                UNION SELECT first_accepted_at FROM entity_periods WHERE entity_id = '0000320193'
                    AND period_end = '2009-06-27' AND period_start = '2009-03-29' AND {order[0] == 'companyfacts'}""")
            fact = store.fact("AAPL", "revenue", period="2009Q3", as_of="2009-07-22T18:00:00-04:00")
            answers.append((fact.value, fact.source) if fact else None)
            assert store.fact("AAPL", "revenue", period="2009Q3", as_of="2009-07-22T16:41:00-04:00") is None
            assert list(times["accepted_at"]) == [pd.Timestamp("2009-07-22 20:42")]
    assert rows[0] == rows[1] and rows[0][0]["accepted_precision"] == "minute"
    assert answers[0] == answers[1] == (8337000000.0, APPLE_Q3_2009)


def _filing_batch(at: datetime, precision: str, filed: str, source: str) -> Batch:
    batch = Batch(source=source, kind="sec", stored_wins=True)
    batch.filings = pd.DataFrame([{
        "filing_id": "0000000001-19-000001", "entity_id": "0000000001", "form": "8-K", "period_end": None,
        "filed": pd.Timestamp(filed), "accepted_at": pd.Timestamp(at).as_unit("us"), "accepted_precision": precision,
        "accepted_note": precision, "source": source}])
    return batch


@pytest.mark.parametrize("stored_first", [True, False])
def test_a_precise_time_contradicting_the_stored_fallback_is_refused_in_either_order(stored_first):
    fallback = _filing_batch(datetime(2019, 5, 3, 3, 59, 59), "date", "2019-05-02", "companyfacts")
    elsewhere = _filing_batch(datetime(2019, 5, 6, 14, 0, 0), "second", "2019-05-06", "submissions")
    first, then = (fallback, elsewhere) if stored_first else (elsewhere, fallback)
    with factstore.open() as store:
        store.apply(first)
        with pytest.raises(LoadError) as err:
            store.apply(then)
        assert err.value.field == "accepted_at" and "0000000001-19-000001" in str(err.value)
        assert "2019-05-03 03:59:59" in str(err.value) and "2019-05-06 14:00:00" in str(err.value)
        stored = store.sql("SELECT accepted_at, accepted_precision FROM filings").iloc[0]
        assert stored["accepted_precision"] == first.filings["accepted_precision"][0]


def test_a_second_within_the_stored_minute_replaces_it_but_not_the_reverse():
    minute = _filing_batch(datetime(2019, 5, 2, 20, 42, 0), "minute", "2019-05-02", "fsds")
    second = _filing_batch(datetime(2019, 5, 2, 20, 42, 37), "second", "2019-05-02", "submissions")
    for order in ((minute, second), (second, minute)):
        with factstore.open() as store:
            for batch in order:
                store.apply(batch)
            stored = store.sql("SELECT accepted_at, accepted_precision, source FROM filings").iloc[0]
            assert (stored["accepted_at"], stored["accepted_precision"], stored["source"]) == (
                pd.Timestamp("2019-05-02 20:42:37"), "second", "submissions")


def test_two_seconds_of_one_filing_are_refused_in_either_order():
    """Two sources giving one filing two times to the second cannot both be right: refused, whichever came first
    (the first was kept without a word)."""
    one = _filing_batch(datetime(2019, 5, 2, 20, 42, 37), "second", "2019-05-02", "submissions")
    other = _filing_batch(datetime(2019, 5, 2, 20, 42, 38), "second", "2019-05-02", "a feed")
    for first, then in ((one, other), (other, one)):
        with factstore.open() as store:
            store.apply(first)
            with pytest.raises(LoadError, match="cannot both be right") as err:
                store.apply(then)
            assert err.value.field == "accepted_at"


def _apple_like(tmp_path, stamp: str | None) -> tuple[dict, list[dict] | None]:
    """A 10-K of CIK 1 for 2024, filed 2025-02-20: its companyfacts, and submissions stamping it `stamp` (or none)."""
    fact = {"start": "2024-01-01", "end": "2024-12-31", "val": 5, "accn": "0000000001-25-000001", "form": "10-K",
            "filed": "2025-02-20"}
    doc = {"cik": 1, "entityName": "Aaa Corp", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [fact]}}}}}
    if stamp is None:
        return doc, None
    listing = {"accessionNumber": [fact["accn"]], "filingDate": [fact["filed"]], "form": ["10-K"],
               "acceptanceDateTime": [stamp], "reportDate": ["2024-12-31"], "primaryDocument": ["a.htm"],
               "isXBRL": [1]}
    return doc, [{"cik": "0000000001", "name": "Aaa Corp", "filings": {"recent": listing, "files": []}}]


@pytest.mark.parametrize("feed_first", [True, False])
def test_the_feeds_second_improves_a_stored_fallback_in_either_order(tmp_path, feed_first):
    """companyfacts without submissions gives the filing day's end; the feed's second replaces it whichever came
    first (loaded after, it was kept only in the feed's index)."""
    path = tmp_path / "xbrlrss-2025-02.xml"
    path.write_text(feed([_listing("0000000001-25-000001", accepted_at=datetime(2025, 2, 20, 21, 5, 33))]))
    doc, _ = _apple_like(tmp_path, None)
    with factstore.open() as store:
        steps = [lambda: store.load_xbrl_feed(path, progress=False), lambda: store.load_companyfacts(doc)]
        for step in (steps if feed_first else reversed(steps)):
            step()
        row = store.sql("SELECT accepted_at, accepted_precision FROM filings").iloc[0]
        assert (row["accepted_at"], row["accepted_precision"]) == (pd.Timestamp("2025-02-20 21:05:33"), "second")
        assert store.sql("SELECT DISTINCT accepted_at FROM reports")["accepted_at"].tolist() == [row["accepted_at"]]


def test_the_feed_listing_a_stored_filing_as_another_companys_or_form_is_refused(tmp_path):
    doc, subs = _apple_like(tmp_path, "2025-02-20T16:05:33.000Z")
    with factstore.open() as store:
        store.load_companyfacts(doc, subs)
        for listing, field in ((_listing("0000000001-25-000001", cik=2), "edgar:cikNumber"),
                               (_listing("0000000001-25-000001", form="10-Q"), "edgar:formType")):
            path = tmp_path / f"xbrlrss-{field[6:]}.xml"
            path.write_text(feed([listing]))
            with pytest.raises(LoadError, match="the store holds it as 0000000001's 10-K") as err:
                store.load_xbrl_feed(path, progress=False)
            assert (err.value.row, err.value.field) == (1, field)
        assert store.sql("SELECT count(*) AS n FROM xbrl_feed")["n"][0] == 0
