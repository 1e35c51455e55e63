"""Implausible acceptance times never leak a value early (issue #23, items 1 and 2), whatever the source.

One rule (`factstore.timing.resolve_acceptances`) for submissions, FSDS, the course's files and a local filing:
a stamp that fits neither reading of its filing date under EDGAR's hours falls back to the end of the filing day
in New York (precision 'date', a note of what was given and why it was not used), or stays later where it is
later still; a stamp before 1993-01-01 or after the time of loading is refused, naming file, accession and field.
Each example goes through the real loading path (`load_companyfacts` with submissions, `load_fsds`,
`load_course`, `load_filing`, the SEC ingest's listing); a hypothesis property draws stamps around a filing date.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd
import pytest
from conftest import submissions_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import factstore
from factstore.errors import LoadError
from factstore.loaders.companyfacts import read_submissions
from factstore.sec.ingest import listed_filings

NEW_YORK = ZoneInfo("America/New_York")
REVENUE = "RevenueFromContractWithCustomerExcludingAssessedTax"
APPLE_10K, APPLE_CIK, FY2024 = "0000320193-24-000123", 320193, 391_035_000_000
END_OF_NOV_1 = pd.Timestamp("2024-11-02 03:59:59", tz="UTC")  # 2024-11-01 23:59:59 New York (EDT)
SECOND = timedelta(seconds=1)


@pytest.fixture(scope="module")
def shared():
    """One store for the module (opening one per test or example costs more than the test)."""
    with factstore.open() as store:
        yield store


def reset(store: factstore.FactStore) -> None:
    """Empty every table of a store (its schema and version stay), and what its readers remembered."""
    tables = store.sql("SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
                       "AND table_name <> 'schema_version'")["table_name"]
    for table in tables:
        store.con.execute(f"DELETE FROM {table}")  # table: the store's own
    store.db.forget()


@pytest.fixture
def store(shared):
    """The module's store, emptied."""
    reset(shared)
    return shared


def _filing(store: factstore.FactStore, accession: str) -> dict:
    return store.sql("SELECT accepted_at, accepted_precision, accepted_note FROM filings WHERE filing_id = ?",
                     [accession]).iloc[0].to_dict()


def _count(store: factstore.FactStore, table: str) -> int:
    return int(store.sql(f"SELECT count(*) AS n FROM {table}")["n"][0])  # table: ours


# ----------------------------------------------------------------- submissions: Apple's real files, one stamp edited
@pytest.fixture(scope="module")
def apple_files(real: Path) -> tuple[str, str]:
    """Apple's companyfacts (its revenue only) and its submissions, as JSON text."""
    facts = json.loads((real / "companyfacts" / "CIK0000320193.json").read_text())
    facts["facts"] = {"us-gaap": {REVENUE: facts["facts"]["us-gaap"][REVENUE]}}
    (main,) = submissions_for(real, "CIK0000320193.json")
    return json.dumps(facts), main.read_text()


@pytest.fixture
def apple(apple_files: tuple[str, str], tmp_path: Path):
    """write(stamp=..., filed=...): Apple's companyfacts (its revenue only) and its submissions with the FY2024
    10-K's acceptanceDateTime (and filingDate) replaced, written to tmp_path; returns (facts, submissions, index)."""
    facts, main = apple_files

    def write(stamp: str | None = None, filed: str | None = None) -> tuple[Path, Path, int]:
        subs = json.loads(main)
        recent = subs["filings"]["recent"]
        i = recent["accessionNumber"].index(APPLE_10K)
        if stamp is not None:
            recent["acceptanceDateTime"][i] = stamp
        if filed is not None:
            recent["filingDate"][i] = filed
        paths = tmp_path / "CIK0000320193-facts.json", tmp_path / "CIK0000320193.json"
        paths[0].write_text(facts)
        paths[1].write_text(json.dumps(subs))
        return paths[0], paths[1], i

    return write


def test_the_true_stamp_is_kept_to_the_second(apple, store):
    facts, subs, _ = apple()
    store.load_companyfacts(facts, subs, progress=False)
    at = pd.Timestamp("2024-11-01 10:01:36", tz="UTC")  # 06:01:36 New York, labelled Z: repaired
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=at - SECOND) is None
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=at).value == FY2024
    assert _filing(store, APPLE_10K)["accepted_precision"] == "second"


def test_a_1970_stamp_is_refused_naming_file_accession_and_field(apple, store):
    facts, subs, i = apple(stamp="1970-01-01T00:00:00.000Z")
    with pytest.raises(LoadError) as refused:
        store.load_companyfacts(facts, subs, progress=False)
    e = refused.value
    assert (e.source, e.field) == (str(subs), f"filings.recent.acceptanceDateTime[{i}]")
    assert APPLE_10K in str(e) and "'1970-01-01T00:00:00.000Z'" in str(e) and "before 1993-01-01" in str(e)
    assert _count(store, "filings") == _count(store, "reports") == 0  # nothing loaded


def test_a_stamp_a_month_before_the_filing_date_falls_back_to_the_end_of_the_filing_day(apple, store):
    facts, subs, _ = apple(stamp="2024-10-01T06:01:36.000Z")
    store.load_companyfacts(facts, subs, progress=False)
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of="2000-01-01") is None  # was 391,035,000,000
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of="2024-11-01 10:01:36") is None
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=END_OF_NOV_1 - SECOND) is None
    fact = store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=END_OF_NOV_1)
    assert (fact.value, fact.source, fact.accepted_at) == (FY2024, APPLE_10K, END_OF_NOV_1)
    row = _filing(store, APPLE_10K)
    assert (row["accepted_at"], row["accepted_precision"]) == (END_OF_NOV_1.tz_localize(None), "date")
    note = row["accepted_note"]  # what was given, and why it was not used
    assert note.startswith("given '2024-10-01T06:01:36.000Z': fits neither reading of filing date 2024-11-01")
    assert "as UTC: 2024-10-01 02:01:36 New York, outside 06:00-22:00" in note
    assert "as New York time: 2024-10-01 06:01:36 New York, a filing dated 2024-10-01" in note
    assert note.endswith("end of filing day, New York")


def test_a_stamp_after_hours_for_its_filing_date_falls_back_too(apple, store):
    # 23:30 "Z" is 19:30 New York (a filing then is dated Monday 11-04) or 23:30 New York (EDGAR is closed)
    facts, subs, _ = apple(stamp="2024-11-01T23:30:00.000Z")
    store.load_companyfacts(facts, subs, progress=False)
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=END_OF_NOV_1 - SECOND) is None
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=END_OF_NOV_1).value == FY2024
    assert _filing(store, APPLE_10K)["accepted_precision"] == "date"


def test_a_2099_stamp_is_refused_rather_than_hiding_the_filing(apple, store):
    facts, subs, i = apple(stamp="2099-11-01T10:01:36.000Z")
    with pytest.raises(LoadError) as refused:  # was: FY2024 unknown until the next 10-K repeated it
        store.load_companyfacts(facts, subs, progress=False)
    e = refused.value
    assert (e.source, e.field) == (str(subs), f"filings.recent.acceptanceDateTime[{i}]")
    assert APPLE_10K in str(e) and "after this load's time" in str(e)
    assert _count(store, "filings") == 0


def test_a_stamp_later_than_its_filing_day_is_kept_never_made_earlier(apple, store):
    # four months after the filing date (but before now): the end of the filing day would be earlier than the stamp says
    facts, subs, _ = apple(stamp="2025-03-03T15:00:00.000Z")
    store.load_companyfacts(facts, subs, progress=False)
    later = pd.Timestamp("2025-03-03 20:00:00", tz="UTC")  # its later reading: 15:00 New York (EST)
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=later - SECOND) is None
    assert store.fact(APPLE_CIK, REVENUE, period="FY2024", as_of=later).value == FY2024
    row = _filing(store, APPLE_10K)
    assert row["accepted_at"] == later.tz_localize(None) and row["accepted_precision"] == "second"
    assert "kept, its later reading being after the end of the filing day" in row["accepted_note"]


def test_a_filing_date_before_1993_is_refused_naming_its_field(apple, store):
    facts, subs, i = apple(filed="1990-01-02")
    with pytest.raises(LoadError, match="filed 1990-01-02, before 1993-01-01") as refused:
        store.load_companyfacts(facts, subs, progress=False)
    assert (refused.value.source, refused.value.field) == (str(subs), f"filings.recent.filingDate[{i}]")


def test_without_submissions_a_filing_date_before_1993_is_refused_naming_the_facts_field(store):
    facts = {"cik": 3, "entityName": "Three", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [
        {"accn": "0000000003-24-000001", "start": "2023-01-01", "end": "2023-12-31", "val": 5, "form": "10-K",
         "filed": "1990-01-02"}]}}}}}
    with pytest.raises(LoadError, match="accession 0000000003-24-000001: filed 1990-01-02") as refused:
        store.load_companyfacts(facts, progress=False)
    assert refused.value.field == "filed"


def test_the_sec_ingests_listing_refuses_a_bad_stamp_naming_its_place(apple):
    _, subs, i = apple(stamp="1970-01-01T00:00:00.000Z")
    with pytest.raises(LoadError) as refused:
        listed_filings(read_submissions(subs))
    assert (refused.value.source, refused.value.field) == (str(subs), f"filings.recent.acceptanceDateTime[{i}]")
    assert APPLE_10K in str(refused.value)


# ----------------------------------------------------------------- FSDS: New York minutes in sub.txt
def _fsds(folder: Path, accepted: str, filed: str = "20241101") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sub.txt").write_text("\n".join([
        "adsh\tcik\tname\tform\tperiod\tfiled\taccepted\tprevrpt",
        f"{APPLE_10K}\t{APPLE_CIK}\tAPPLE INC\t10-K\t20240930\t{filed}\t{accepted}\t0"]) + "\n")
    (folder / "num.txt").write_text("\n".join([
        "adsh\ttag\tversion\tddate\tqtrs\tuom\tsegments\tcoreg\tvalue",
        f"{APPLE_10K}\t{REVENUE}\tus-gaap/2024\t20240930\t4\tUSD\t\t\t{FY2024}.0000"]) + "\n")
    return folder


def _fsds_fact(store: factstore.FactStore, as_of: object):
    return store.fact(APPLE_CIK, REVENUE, start="2023-10-01", end="2024-09-30", as_of=as_of)


def test_fsds_minute_that_fits_is_kept(tmp_path, store):
    store.load_fsds(_fsds(tmp_path / "q", "2024-11-01 06:02:00.0"), progress=False)
    at = pd.Timestamp("2024-11-01 10:02", tz="UTC")
    assert _fsds_fact(store, at - SECOND) is None and _fsds_fact(store, at).value == FY2024
    assert _filing(store, APPLE_10K)["accepted_precision"] == "minute"


@pytest.mark.parametrize("accepted, early", [("1990-01-02 10:00:00.0", True), ("2099-01-02 10:00:00.0", False)])
def test_fsds_stamps_before_1993_or_in_the_future_are_refused_naming_file_row_accession_and_field(
        tmp_path, store, accepted, early):
    folder = _fsds(tmp_path / "q", accepted)
    with pytest.raises(LoadError) as refused:
        store.load_fsds(folder, progress=False)
    e = refused.value
    assert (e.source, e.row, e.field) == (f"{folder}: sub.txt", 1, "accepted")
    assert APPLE_10K in str(e) and ("before 1993-01-01" if early else "after this load's time") in str(e)
    assert _count(store, "filings") == _count(store, "reports") == 0


@pytest.mark.parametrize("accepted", ["2024-10-01 10:00:00.0",    # a month early
                                      "2024-11-01 18:30:00.0",    # after 17:30, yet dated that day
                                      "2024-11-01 03:00:00.0"])   # before EDGAR opens
def test_fsds_stamps_that_do_not_fit_the_filing_date_fall_back_to_its_end(tmp_path, store, accepted):
    store.load_fsds(_fsds(tmp_path / "q", accepted), progress=False)
    assert _fsds_fact(store, "2000-01-01") is None
    assert _fsds_fact(store, END_OF_NOV_1 - SECOND) is None and _fsds_fact(store, END_OF_NOV_1).value == FY2024
    row = _filing(store, APPLE_10K)
    assert (row["accepted_at"], row["accepted_precision"]) == (END_OF_NOV_1.tz_localize(None), "date")
    assert row["accepted_note"].startswith(f"given {accepted[:16]}:00 New York")
    assert "does not fit filing date 2024-11-01 under EDGAR's hours" in row["accepted_note"]


def test_fsds_filing_date_before_1993_is_refused(tmp_path, store):
    folder = _fsds(tmp_path / "q", "2024-11-01 06:02:00.0", filed="19900102")
    with pytest.raises(LoadError, match="filed 1990-01-02") as refused:
        store.load_fsds(folder, progress=False)
    assert (refused.value.row, refused.value.field) == (1, "filed")


# ----------------------------------------------------------------- the course's files: no filing date, bounds only
def _course(folder: Path, stamp: str, doc_stamp: str | None = None) -> tuple[Path, Path]:
    docs = pd.DataFrame({"id_doc": ["D1"], "ticker": ["RPS"], "emisor": ["Rapsa"], "tipo": ["10-K"],
                         "periodo_fin": [pd.Timestamp("2019-12-31")], "texto": ["Annual report."]})
    if doc_stamp is not None:
        docs["ts_presentacion"] = [pd.Timestamp(doc_stamp)]
    xbrl = pd.DataFrame({"id_doc": ["D1", "D1"], "concepto": ["Revenues", "NetIncomeLoss"],
                         "periodo_inicio": [pd.Timestamp("2019-01-01")] * 2,
                         "periodo_fin": [pd.Timestamp("2019-12-31")] * 2, "valor": [100.0, 10.0],
                         "ts_presentacion": [pd.Timestamp(stamp)] * 2, "forma": ["10-K"] * 2})
    paths = folder / "filings6_documentos.parquet", folder / "filings6_xbrl.parquet"
    docs.to_parquet(paths[0])
    xbrl.to_parquet(paths[1])
    return paths


@pytest.mark.parametrize("stamp, early", [("1990-01-02T15:00:00Z", True), ("2099-03-14T15:00:00Z", False)])
def test_course_stamps_before_1993_or_in_the_future_are_refused_naming_file_row_and_field(
        tmp_path, store, stamp, early):
    docs, xbrl = _course(tmp_path, stamp)
    with pytest.raises(LoadError) as refused:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
    e = refused.value
    assert (e.source, e.row, e.field) == (str(xbrl), 1, "ts_presentacion")
    assert "accession D1" in str(e) and ("before 1993-01-01" if early else "after this load's time") in str(e)
    assert _count(store, "filings") == 0


def test_a_course_documents_stamp_before_1993_is_refused_naming_the_documents_file(tmp_path, store):
    docs, _ = _course(tmp_path, "2020-03-14T15:00:00Z", doc_stamp="1991-05-01T15:00:00Z")
    with pytest.raises(LoadError, match="accession D1: accepted .*before 1993-01-01") as refused:
        store.load_course(documents=docs, progress=False)
    assert (refused.value.source, refused.value.row, refused.value.field) == (str(docs), 1, "ts_presentacion")


def test_a_course_stamp_is_the_truth_within_the_bounds(tmp_path, store):
    # no filing date to check it against: even 04:00 New York is kept as given
    docs, xbrl = _course(tmp_path, "2020-03-14T08:00:00Z")
    store.load_course(xbrl=xbrl, documents=docs, progress=False)
    at = pd.Timestamp("2020-03-14 08:00", tz="UTC")
    assert store.fact("RPS", "Revenues", period="FY2019", as_of=at - SECOND) is None
    assert store.fact("RPS", "Revenues", period="FY2019", as_of=at).value == 100.0
    assert _filing(store, "D1") | {"accepted_at": None} == {"accepted_at": None, "accepted_precision": "second",
                                                              "accepted_note": "as given (UTC)"}


# ----------------------------------------------------------------- a local filing's accepted_at
@pytest.mark.parametrize("accepted_at, early", [("1990-01-02", True), ("1992-12-31T23:59:59Z", True),
                                                ("2099-01-02T15:00:00Z", False)])
def test_a_local_filings_accepted_at_before_1993_or_in_the_future_is_refused(tmp_path, store, accepted_at, early):
    store.load_companyfacts({"cik": 3, "entityName": "Three", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [
        {"accn": "0000000003-24-000001", "end": "2023-12-31", "start": "2023-01-01", "val": 5, "form": "10-K",
         "filed": "2024-02-01"}]}}}}}, progress=False)
    path = tmp_path / "THREE_10-K_0000000003-24-000009.html"
    path.write_text("<html><body><p>Annual report.</p></body></html>")
    with pytest.raises(LoadError) as refused:
        store.load_filing(path, "3", form="10-K", accepted_at=accepted_at, progress=False)
    e = refused.value
    assert (e.source, e.field) == (str(path), "accepted_at") and "0000000003-24-000009" in str(e)
    assert ("before 1993-01-01" if early else "after this load's time") in str(e)
    assert _count(store, "documents") == 0


# ----------------------------------------------------------------- the property: random stamps around a filing date
CIK, ACCESSION, VALUE = 7, "0000000007-24-000001", 1234.0
FACTS = {"cik": CIK, "entityName": "Seven", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [
    {"accn": ACCESSION, "start": "2009-01-01", "end": "2009-12-31", "val": VALUE, "form": "10-K",
     "filed": "2010-02-01"}]}}}}}
CUTOFF, OPENS, CLOSES = time(17, 30), time(6, 0), time(22, 0)
LOADED = datetime.now(UTC).replace(tzinfo=None)  # before any load in this module: later stamps are the future


def _business_day_after(day: date) -> date:
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _edgar_date(at: datetime) -> date:
    """The date EDGAR gives a filing accepted at this UTC moment (no holidays)."""
    local = at.replace(tzinfo=UTC).astimezone(NEW_YORK)
    return local.date() if local.time() <= CUTOFF and local.weekday() < 5 else _business_day_after(local.date())


def _fits(at: datetime, filed: date) -> bool:
    """The oracle's EDGAR: open 06:00-22:00 New York; after 17:30 dated the next business day (or up to 4 days on)."""
    local = at.replace(tzinfo=UTC).astimezone(NEW_YORK)
    if not OPENS <= local.time() <= CLOSES:
        return False
    if local.time() <= CUTOFF:
        return filed == local.date()
    return _business_day_after(local.date()) <= filed <= local.date() + timedelta(days=4)


def _end_of_day(filed: date) -> datetime:
    return datetime.combine(filed, time(23, 59, 59), NEW_YORK).astimezone(UTC).replace(tzinfo=None)


def _zulu(wall: datetime) -> str:
    return wall.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _wall_in_new_york(at: datetime) -> datetime:
    return at.replace(tzinfo=UTC).astimezone(NEW_YORK).replace(tzinfo=None)


moments = st.datetimes(datetime(2010, 1, 4), datetime(2025, 12, 31)).map(lambda t: t.replace(microsecond=0))


@st.composite
def cases(draw):
    """(true acceptance, filing date, the stamp given, the filing date given, kind): the truth is a moment EDGAR
    was open, dated by EDGAR's rule; the stamp is the truth in either zone, or wrong in one of the ways filers'
    stamps are wrong."""
    day = draw(moments).date()
    while day.weekday() >= 5:  # EDGAR is closed at weekends
        day += timedelta(days=1)
    wall = datetime.combine(day, time(6)) + timedelta(seconds=draw(st.integers(0, 16 * 3600)))
    truth = datetime.combine(day, wall.time(), NEW_YORK).astimezone(UTC).replace(tzinfo=None)
    filed = _edgar_date(truth)
    kind = draw(st.sampled_from(["utc", "new york", "far past", "month early", "after hours", "late", "future",
                                 "filed long ago", "filed in the future"]))
    shift = timedelta(seconds=draw(st.integers(0, 86_399)))
    given_filed = filed
    if kind == "utc":
        stamp = _zulu(truth)
    elif kind == "new york":  # New York wall time labelled Z, as some filers' stamps are
        stamp = _zulu(_wall_in_new_york(truth))
    elif kind == "far past":
        stamp = _zulu(draw(st.datetimes(datetime(1900, 1, 1), datetime(1992, 12, 31, 23, 59, 59))))
    elif kind == "month early":
        stamp = _zulu(truth - timedelta(days=draw(st.integers(20, 40))) + shift - timedelta(hours=12))
    elif kind == "after hours":  # 03:01-05:59 as written: outside EDGAR's hours as UTC and as New York time
        stamp = _zulu(datetime.combine(filed - timedelta(days=draw(st.integers(0, 1))), time(3, 1))
                      + timedelta(seconds=draw(st.integers(0, 3 * 3600 - 61))))
    elif kind == "late":  # two days or more after the filing date, yet before now
        stamp = _zulu(min(datetime.combine(filed + timedelta(days=draw(st.integers(2, 400))), time()) + shift,
                          LOADED - timedelta(days=1)))
    elif kind == "future":
        stamp = _zulu(draw(st.datetimes(LOADED + timedelta(days=1), datetime(2200, 1, 1))))
    else:
        stamp = _zulu(truth)
        given_filed = (draw(st.dates(date(1900, 1, 1), date(1992, 12, 31))) if kind == "filed long ago"
                       else draw(st.dates(date.today() + timedelta(days=10), date(2200, 1, 1))))
    return truth, filed, stamp, given_filed, kind


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases())
def test_no_value_is_answerable_before_the_truth_or_the_end_of_day_fallback(store, case):
    """Through load_companyfacts with submissions, one store reset between examples: a stamp before 1993 or in the
    future, or such a filing date, is refused naming its field; otherwise the value is unknown until the moment
    the oracle expects and known from it, never before the true acceptance, and a stamp that fits neither reading
    of its filing date is public no earlier than the end of the filing day."""
    truth, filed, stamp, given_filed, kind = case
    submissions = {"cik": f"{CIK:010d}", "name": "Seven", "tickers": [], "filings": {"recent": {
        "accessionNumber": [ACCESSION], "filingDate": [given_filed.isoformat()], "form": ["10-K"],
        "acceptanceDateTime": [stamp], "reportDate": ["2009-12-31"], "primaryDocument": ["x.htm"], "isXBRL": [1]}}}
    as_utc = datetime.fromisoformat(stamp[:-1])
    as_new_york = datetime.combine(as_utc.date(), as_utc.time(), NEW_YORK).astimezone(UTC).replace(tzinfo=None)
    try:
        if kind in ("far past", "future", "filed long ago", "filed in the future"):
            with pytest.raises(LoadError) as refused:
                store.load_companyfacts(FACTS, submissions, progress=False)
            field = "acceptanceDateTime" if kind in ("far past", "future") else "filingDate"
            assert refused.value.field == f"filings.recent.{field}[0]" and ACCESSION in str(refused.value)
            assert store.sql("SELECT count(*) AS n FROM filings WHERE entity_id = ?", [f"{CIK:010d}"])["n"][0] == 0
            return
        store.load_companyfacts(FACTS, submissions, progress=False)
        fit = [r for r in (as_utc, as_new_york) if _fits(r, filed)]
        expected = max(fit) if fit else max(_end_of_day(filed), as_utc, as_new_york)
        assert bool(fit) == (kind in ("utc", "new york")), "a wrong stamp of these kinds fits no reading"
        got = store.sql("SELECT accepted_at, accepted_precision FROM filings WHERE filing_id = ?", [ACCESSION])
        assert got["accepted_at"][0] == pd.Timestamp(expected)
        assert expected >= truth  # never public earlier than in reality
        if not fit:
            assert expected >= _end_of_day(filed)
            assert got["accepted_precision"][0] == ("date" if expected == _end_of_day(filed) else "second")
        before = store.fact(CIK, "Revenues", period="FY2009", as_of=pd.Timestamp(expected) - pd.Timedelta("1us"))
        assert before is None
        assert store.fact(CIK, "Revenues", period="FY2009", as_of=expected).value == VALUE
    finally:  # the next example starts from an empty store (only these tables hold the company)
        for table in ("reports", "revisions", "filings", "entities", "entity_aliases", "entity_periods"):
            store.con.execute(f"DELETE FROM {table} WHERE entity_id = ?", [f"{CIK:010d}"])  # table: ours
        store.db.forget()
