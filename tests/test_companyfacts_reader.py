"""The companyfacts reader (DuckDB's JSON reader, checked in Arrow) and the group writes it feeds: every fact as
the JSON says, a bad file named alone among many, and several companies in one transaction exactly as if they
had been loaded one by one."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import factstore
from factstore.errors import LoadError
from factstore.loaders.companyfacts import (
    Named,
    Parsed,
    _check,
    _days_ok,
    _is_day,
    _is_stamp,
    _stamps_ok,
    companyfacts_batch,
    parse_companyfacts,
    read_companyfacts,
)
from factstore.sec.ingest import Member
from factstore.sec.sync import GROUP_COMPANIES, _groups
from tests.helpers import submissions_for
from tests.samples import companyfacts, submissions

REAL = ["CIK0000320193.json", "CIK0001046179.json", "CIK0001318605.json", "CIK0001997711.json"]


def brute_force(doc: dict) -> Counter:
    """Every fact of a companyfacts document as (concept, unit, place in its list, accn, start, end, value,
    form, filed), walked in plain Python."""
    return Counter((f"{tax}:{name}", unit, i, f["accn"], f.get("start"), f["end"], float(f["val"]), f["form"],
                    f["filed"])
                   for tax, concepts in doc["facts"].items() for name, body in concepts.items()
                   for unit, values in body["units"].items() for i, f in enumerate(values))


def read_back(facts) -> Counter:
    rows = facts.to_pylist()
    day = lambda d: None if d is None else d.isoformat()  # noqa: E731
    return Counter((r["concept"], r["unit"], r["i"], r["filing_id"], day(r["period_start"]), day(r["period_end"]),
                    r["value"], r["form"], day(r["filed"])) for r in rows)


def test_every_fact_of_every_real_file_reads_as_the_json_says(real):
    paths = [real / "companyfacts" / name for name in REAL]
    for path, parsed in zip(paths, parse_companyfacts(paths), strict=True):
        doc = json.loads(path.read_text())
        assert parsed.cik == int(doc["cik"]) and parsed.name == doc["entityName"]
        assert read_back(parsed.facts) == brute_force(doc), path.name


def test_a_bad_file_among_many_is_named_alone_and_the_others_read_as_alone(tmp_path):
    good = [companyfacts(3, ["0000000003-20-000001"]), companyfacts(4, ["0000000004-20-000001"], name="Four")]
    bad = json.loads(json.dumps(good[0]))
    bad["cik"] = 5
    bad["facts"]["us-gaap"]["Assets"]["units"]["USD"][0]["end"] = "2019-02-30"
    results = parse_companyfacts([good[0], bad, good[1]])
    assert isinstance(results[1], LoadError)
    assert results[1].field == "facts.us-gaap.Assets.units.USD[0].end" and "2019-02-30" in str(results[1])
    for doc, parsed in ((good[0], results[0]), (good[1], results[2])):
        alone = parse_companyfacts([doc])[0]
        assert parsed.cik == alone.cik and read_back(parsed.facts) == read_back(alone.facts) == brute_force(doc)
        assert parsed.filings.to_pylist() == alone.filings.to_pylist()


USD = "facts.us-gaap.Revenues.units.USD"
DAMAGE = [("start", "2021-01-01", "is after end"), ("end", "2020-02-30", "2020-02-30"),
          ("filed", "2020-6-30", "2020-6-30"), ("val", "12", "not a number"), ("val", True, "not a number"),
          ("val", None, "not a number"), ("form", 10, "not text"), ("accn", "", "")]


@pytest.mark.parametrize(("key", "value", "message"), DAMAGE)
def test_a_damaged_file_is_refused_with_the_error_its_dict_gets(tmp_path, key, value, message):
    """Files are checked in Arrow, objects in Python: the same damage gets the same error, naming the JSON path."""
    doc = companyfacts(3, ["0000000003-20-000001", "0000000003-21-000001"])
    doc["facts"]["us-gaap"]["Revenues"]["units"]["USD"][1][key] = value
    path = tmp_path / "CIK0000000003.json"
    path.write_text(json.dumps(doc))
    from_file, from_dict = parse_companyfacts([path, doc])
    assert isinstance(from_file, LoadError) and isinstance(from_dict, LoadError)
    assert message in str(from_file) and from_file.field == from_dict.field == f"{USD}[1].{key}"
    assert str(from_file).replace(str(path), "") == str(from_dict).replace("<companyfacts dict>", "")


def test_a_file_whose_name_looks_like_a_pattern_is_read_as_itself(tmp_path, real):
    odd = tmp_path / "CIK[0001997711]*.json"
    shutil.copy(real / "companyfacts" / "CIK0001997711.json", odd)
    parsed = parse_companyfacts([odd])[0]
    assert parsed.source == str(odd) and read_back(parsed.facts) == brute_force(json.loads(odd.read_text()))


def test_two_json_texts_in_one_file_are_refused(tmp_path):
    doc = json.dumps(companyfacts(3, ["0000000003-20-000001"]))
    twice = tmp_path / "CIK0000000003.json"
    twice.write_text(doc + doc)
    result = parse_companyfacts([twice])[0]
    assert isinstance(result, LoadError) and "malformed JSON" in str(result)


def test_a_filings_form_is_the_one_most_of_its_facts_give():
    doc = companyfacts(3, ["0000000003-20-000001"])
    doc["facts"]["dei"]["EntityCommonStockSharesOutstanding"]["units"]["shares"][0]["form"] = "10-K/A"
    parsed = parse_companyfacts([doc])[0]
    assert parsed.filings.to_pylist()[0]["form"] == "10-K"  # two facts say 10-K, one 10-K/A


TABLES = {
    "reports": "SELECT * FROM reports",
    "filings": "SELECT * FROM filings",
    "entities": "SELECT * FROM entities",
    "aliases": "SELECT * FROM entity_aliases",
    "periods": "SELECT * FROM entity_periods",
    "concepts": "SELECT * FROM concepts",
    "revisions": "SELECT * EXCLUDE (learned_at) FROM revisions",
    "loads": "SELECT kind, source, filings_added, reports_added FROM loads",
    "ingested": "SELECT item, digest, entity_id, reports_added FROM ingested",
}


def snapshot(store) -> dict[str, list]:
    return {k: store.sql(q + " ORDER BY ALL").astype(str).values.tolist() for k, q in TABLES.items()}


def sec_batch(doc: dict, subs: dict | None = None):
    batch = read_companyfacts(doc, subs)
    batch.kind = "sec"
    batch.ingested.append((f"bulk:CIK{doc['cik']:010d}.json", "crc32:0", f"{doc['cik']:010d}"))
    return batch


def test_several_companies_in_one_transaction_equal_them_loaded_one_by_one():
    accns = {cik: [f"{cik:010d}-2{i}-000001" for i in range(3)] for cik in (3, 4, 5)}
    docs = [companyfacts(cik, accns[cik], name=f"Co {cik}") for cik in accns]
    subs = [submissions(3, accns[3], "CCC", hour=18), None, submissions(5, accns[5], "EEE", hour=3)]
    with factstore.open() as together, factstore.open() as alone:
        for store in (together, alone):  # a company stored before: only its new accession is added
            store.load_companyfacts(companyfacts(4, accns[4][:2], name="Co 4"))
        many = together.apply_many([sec_batch(d, s) for d, s in zip(docs, subs, strict=True)])
        one_by_one = [alone.apply(sec_batch(d, s)) for d, s in zip(docs, subs, strict=True)]
        assert many == one_by_one
        assert [r.reports for r in many] == [7, 2, 7] and [r.entities for r in many] == [1, 0, 1]
        assert snapshot(together) == snapshot(alone)


def test_several_companies_in_one_transaction_are_all_written_or_none():
    good = companyfacts(3, ["0000000003-20-000001"])
    bad = companyfacts(4, ["0000000004-20-000001"])
    twice = dict(bad["facts"]["us-gaap"]["Assets"]["units"]["USD"][0], val=2000)
    bad["facts"]["us-gaap"]["Assets"]["units"]["USD"].append(twice)
    with factstore.open() as store:
        before = snapshot(store)
        with pytest.raises(LoadError, match="given twice with different values"):
            store.apply_many([sec_batch(good), sec_batch(bad)])
        assert snapshot(store) == before


def test_load_companyfacts_many_equals_loading_each_file_and_notes_files_without_submissions(real):
    paths = [real / "companyfacts" / name for name in REAL]
    given = [p for name in REAL for p in submissions_for(real, name) or []]
    with factstore.open() as many, factstore.open() as each:
        reports = many.load_companyfacts_many(paths, given, progress=False)
        for path, name in zip(paths, REAL, strict=True):
            each.load_companyfacts(path, submissions_for(real, name), progress=False)
        assert snapshot(many)["reports"] == snapshot(each)["reports"]
        assert snapshot(many)["filings"] == snapshot(each)["filings"]
        noted = {Path(r.source).name for r in reports if r.note}
        assert noted == {name for name in REAL if submissions_for(real, name) is None} and noted


def test_load_companyfacts_many_loads_nothing_when_one_file_is_bad(real):
    bad = companyfacts(3, ["0000000003-20-000001"])
    bad["facts"]["us-gaap"]["Revenues"]["units"]["USD"][0]["val"] = "lots"
    with factstore.open() as store:
        with pytest.raises(LoadError, match="not a number"):
            store.load_companyfacts_many([real / "companyfacts" / REAL[-1], bad])
        assert store.sql("SELECT count(*) AS n FROM reports")["n"][0] == 0


def test_bulk_groups_grow_from_one_company_and_stay_within_their_caps():
    members = [Member(f"CIK{i:010d}.json", "", "", 10) for i in range(3000)]
    sizes = [len(g) for g in _groups(members)]
    assert sizes[:6] == [1, 1, 2, 4, 8, 16] and max(sizes) == GROUP_COMPANIES and sum(sizes) == 3000
    big = [Member(f"CIK{i:010d}.json", "", "", 200 * 2**20) for i in range(3)]
    assert [len(g) for g in _groups(big)] == [1, 1, 1]  # each one over half the byte cap: alone


def test_companyfacts_batch_takes_acceptance_times_from_the_companys_submissions():
    accns = ["0000000003-20-000001"]
    parsed = parse_companyfacts([companyfacts(3, accns)])[0]
    batch = companyfacts_batch(parsed, submissions(3, accns, "CCC", hour=18)).writable()
    assert batch.filings["accepted_at"].to_pandas().astype(str).tolist() == ["2020-02-03 18:00:00"]
    assert set(batch.reports["accepted_at"].to_pandas().astype(str)) == {"2020-02-03 18:00:00"}
    alone = companyfacts_batch(parsed).writable()  # without submissions: the end of the filing day, New York
    assert alone.filings["accepted_at"].to_pandas().astype(str).tolist() == ["2020-02-04 04:59:59"]


days = st.one_of(st.dates().map(date.isoformat),  # and near misses: year 0, month 13, day 30 of February
                 st.from_regex(r"\A(0000|0001|20[0-9]{2})-(0[0-2]|1[0-3])-(0[0-9]|[23][0-2])\Z"),
                 st.text(alphabet="0123456789-/ T:", max_size=12), st.none(), st.integers(), st.just(""))
stamps = st.one_of(st.datetimes().map(lambda t: t.isoformat(timespec="milliseconds") + "Z"),
                   st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.000Z\Z"),
                   st.text(alphabet="0123456789-/ T:.Z", max_size=24), st.none(), st.just(""), st.integers())


@settings(max_examples=200, deadline=None)
@given(st.lists(days, max_size=20))
def test_a_column_of_dates_is_checked_as_each_date_alone(values):
    """Submissions' date columns are checked at once in Arrow, with the same verdict as one by one in Python."""
    assert _days_ok(values) == [_is_day(v) for v in values]


@settings(max_examples=200, deadline=None)
@given(st.lists(stamps, max_size=20))
def test_a_column_of_stamps_is_checked_as_each_stamp_alone(values):
    """acceptanceDateTime is read by pandas at once where it can, with the verdict of reading each alone."""
    assert _stamps_ok(values) == [not v or _is_stamp(v) for v in values]


# facts mostly as the SEC writes them, each field sometimes a near miss (a date in year 0, a number as text...)
good_day = st.dates().map(date.isoformat)
good_text = st.sampled_from(["0000000003-20-000001", "0000000003-21-000002", "10-K", "10-Q/A", 'a "quoted" \\ fo'])
good_val = st.one_of(st.integers(-(10**15), 10**15), st.floats(allow_nan=False, allow_infinity=False))
mostly = lambda good, *misses: st.integers(0, 9).flatmap(lambda k: good if k else st.one_of(*misses))  # noqa: E731
fact_day = mostly(good_day, days)
fact_text = mostly(good_text, st.text(max_size=6), st.none(), st.integers(), st.just(""))
fact_val = mostly(good_val, st.just("5"), st.none(), st.booleans(), st.just(2**70))
fact_start = mostly(st.just("0001-01-01"), fact_day, st.none())  # (a start after its end: a near miss)
facts = st.fixed_dictionaries({"end": fact_day, "val": fact_val, "accn": fact_text, "form": fact_text,
                               "filed": fact_day}, optional={"start": fact_start})
YEAR_0 = {"end": "0000-12-31", "val": 1, "accn": "0000000003-20-000001", "form": "10-K", "filed": "2020-02-01"}


@settings(max_examples=300, deadline=None)
@given(st.lists(facts, min_size=1, max_size=3))
@example([YEAR_0]).via("a year Arrow reads and Python does not")
@example([{**YEAR_0, "end": "2019-12-31", "start": "0000-01-01"}]).via("the same, in start")
def test_the_reader_refuses_a_fact_exactly_where_the_python_reference_does(values):
    """Facts' dates, values and texts are checked at once in Arrow, with the verdict of `_check`'s walk over the
    parsed JSON (dates that Python reads, finite numbers, non-empty text, start <= end); a fact read is as given."""
    doc = {"cik": 3, "entityName": "Three", "facts": {"us-gaap": {"Revenues": {"units": {"USD": values}}}}}
    read = parse_companyfacts([Named(json.dumps(doc).encode(), "fuzz.json")])[0]
    try:
        _check(doc, "fuzz.json")
    except LoadError as refused:
        event("refused")
        assert isinstance(read, LoadError) and read.field == refused.field, (read, refused)
        return
    event("read")
    assert isinstance(read, Parsed), read
    assert read_back(read.facts) == brute_force(doc)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["0000000003-20-000001", "0000000003-20-000002", "0000000003-21-000003"]),
                          st.sampled_from(["10-K", "10-K/A", "10-Q", "8-K"]), good_day, good_day),
                min_size=1, max_size=12))
def test_a_filing_takes_the_form_most_of_its_facts_give_its_first_date_and_last_period_end(rows):
    """Each accession of a file, as the facts give it: the most common form (of two as common, the first in
    order), the earliest filing date and the latest period end of a fact ended before its filing date (else of any: a
    fact dated ahead, as a repurchase to settle next quarter, is not the report's period); accessions in order."""
    values = [{"end": end, "val": i, "accn": accn, "form": form, "filed": filed}
              for i, (accn, form, filed, end) in enumerate(rows)]
    half = len(values) // 2  # in two concepts, so that a filing's facts are not all in one list
    doc = {"cik": 3, "facts": {"us-gaap": {"Assets": {"units": {"USD": values[:half]}},
                                           "Revenues": {"units": {"USD": values[half:]}}}}}
    read = parse_companyfacts([doc])[0]
    expected = []
    for accn in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == accn]
        counts = Counter(r[1] for r in mine)
        form = min(counts, key=lambda f: (-counts[f], f))
        expected.append({"filing_id": accn, "form": form, "filed": date.fromisoformat(min(r[2] for r in mine)),
                         "period_end": date.fromisoformat(max([r[3] for r in mine if r[3] < r[2]]
                                                              or [r[3] for r in mine]))})
    assert read.filings.to_pylist() == expected
