"""Bad input: a clear error naming file, row and field, and the store exactly as it was."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from factstore import LoadError
from tests.samples import course_docs, course_xbrl


def _snapshot(store) -> dict[str, pd.DataFrame]:
    return {t: store.sql(f"SELECT * FROM {t} ORDER BY ALL")  # table names are ours, not user input
            for t in ("entities", "entity_aliases", "filings", "reports", "documents", "concepts", "loads")}


@pytest.fixture
def loaded(store, tmp_path):
    store.load_course(xbrl=course_xbrl(), documents=course_docs())
    return store


def _assert_unchanged(store, before):
    after = _snapshot(store)
    for table, frame in before.items():
        pd.testing.assert_frame_equal(frame, after[table], obj=table)


def _write(tmp_path, frame, name="filings6_xbrl.parquet"):
    path = tmp_path / name
    frame.to_parquet(path)
    return path


def test_good_rows_load_and_dates_read_as_strings(loaded):
    assert loaded.fact("RPS", "Revenues", period="FY2019").value == 420.0
    assert loaded.fact("rps", "us-gaap:Revenues", end="2019-12-31").value == 7.0


@pytest.mark.parametrize(("mutate", "row", "field", "message"), [
    (lambda d: d.drop(columns="valor"), None, "valor", "missing column"),
    (lambda d: d.assign(valor=["100", "mucho", "7"]), 2, "valor", "not a number"),
    (lambda d: d.assign(forma=["10-Q", "10-K", "8-K"]), 3, "forma", "unknown value"),
    (lambda d: d.assign(ts_presentacion=["2019-04-30T21:00:00Z", "2020-02-20 14:00:00",
                                         "2020-02-20T14:00:00Z"]), 2, "ts_presentacion", "without time zone"),
    (lambda d: d.assign(periodo_fin=["2019-03-31", "31/31/2019", "2019-12-31"]), 2, "periodo_fin", "not a date"),
    (lambda d: d.assign(id_doc=["D000001", "D000002", "D999999"]), 3, "id_doc", "unknown document"),
    (lambda d: d.assign(periodo_inicio=["2019-05-01", "2019-01-01", None]), 1, "periodo_inicio", "after"),
])
def test_bad_xbrl_file_names_file_row_field_and_changes_nothing(loaded, tmp_path, mutate, row, field, message):
    before = _snapshot(loaded)
    path = _write(tmp_path, mutate(course_xbrl()))
    with pytest.raises(LoadError) as err:
        loaded.load_course(xbrl=path, documents=course_docs())
    assert err.value.source == str(path)
    assert err.value.row == row and err.value.field == field
    assert message in str(err.value) and str(path) in str(err.value)
    _assert_unchanged(loaded, before)


def test_naive_datetime_column_is_refused(store, tmp_path):
    frame = course_xbrl().assign(ts_presentacion=pd.to_datetime(["2019-04-30 21:00", "2020-02-20 14:00",
                                                           "2020-02-20 14:00"]))
    with pytest.raises(LoadError, match="without time zone") as err:
        store.load_course(xbrl=_write(tmp_path, frame), documents=course_docs())
    assert (err.value.row, err.value.field) == (1, "ts_presentacion")


def test_bad_documents_and_sales_files(store, tmp_path):
    docs = course_docs().assign(tipo=["10-Q", "S-1"])
    with pytest.raises(LoadError, match="unknown value") as err:
        store.load_course(documents=_write(tmp_path, docs, "filings6_documentos.parquet"))
    assert (err.value.row, err.value.field) == (2, "tipo")
    sales = tmp_path / "acciones6_ventas.csv"
    sales.write_text("ticker,fin_trimestre,ventas\nRPS,2019-03-31,12.5\nRPS,2019-06-30,doce\n")
    with pytest.raises(LoadError, match="not a number") as err:
        store.load_course(sales=sales)
    assert (err.value.source, err.value.row, err.value.field) == (str(sales), 2, "ventas")


def test_a_late_bad_row_rolls_back_the_whole_load(loaded, tmp_path):
    """Rows that were fine are not kept when a later check of the same load fails."""
    before = _snapshot(loaded)
    more = course_xbrl().assign(id_doc=["D000003", "D000003", "D000003"], forma="10-Q",
                          ts_presentacion="2020-05-01T12:00:00Z",
                          periodo_inicio=["2020-01-01", "2020-01-01", "2020-01-01"],
                          periodo_fin="2020-03-31", valor=[1.0, 2.0, 2.0])
    docs = pd.concat([course_docs(), course_docs().iloc[:1].assign(id_doc="D000003", periodo_fin="2020-03-31")])
    with pytest.raises(LoadError, match="twice with different values"):
        loaded.load_course(xbrl=more, documents=docs)
    _assert_unchanged(loaded, before)


def test_refiling_a_stored_filing_with_another_time_is_refused(loaded):
    before = _snapshot(loaded)
    with pytest.raises(LoadError, match="already stored"):
        loaded.load_course(xbrl=course_xbrl().assign(ts_presentacion="2021-01-01T00:00:00Z"),
                           documents=course_docs().drop(columns=[]).assign(id_doc=["D000001", "D000002"]))
    _assert_unchanged(loaded, before)


def test_loading_the_same_files_twice_changes_nothing(loaded):
    before = _snapshot(loaded)
    report = loaded.load_course(xbrl=course_xbrl(), documents=course_docs())
    assert (report.filings, report.reports, report.documents) == (0, 0, 0)
    _assert_unchanged(loaded, before)


def test_malformed_companyfacts_json(store, tmp_path):
    bad = tmp_path / "CIK0000000001.json"
    bad.write_text('{"cik": 1, "entityName": "X", "facts": {"us-gaap": {"Revenues": ')
    with pytest.raises(LoadError, match="malformed JSON") as err:
        store.load_companyfacts(bad)
    assert err.value.source == str(bad) and err.value.row == 1
    good = {"cik": 1, "entityName": "X", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [
        {"start": "2019-01-01", "end": "2019-12-31", "val": 5, "accn": "0000000001-20-000001",
         "form": "10-K", "filed": "2020-02-01"},
        {"start": "2019-01-01", "end": "2019-12-31", "val": "five", "accn": "0000000001-20-000002",
         "form": "10-K/A", "filed": "2020-03-01"}]}}}}}
    path = tmp_path / "CIK0000000002.json"
    path.write_text(json.dumps(good))
    before = _snapshot(store)
    with pytest.raises(LoadError, match="not a number") as err:
        store.load_companyfacts(path)
    assert err.value.field == "facts.us-gaap.Revenues.units.USD[1].val"
    _assert_unchanged(store, before)


def _companyfacts(tmp_path, facts: list[dict], name: str = "CIK0000000003.json"):
    path = tmp_path / name
    assets = {"end": "2019-12-31", "val": 1, "accn": "0000000003-20-000001", "form": "10-K", "filed": "2020-02-01"}
    path.write_text(json.dumps({"cik": 3, "entityName": "Y", "facts": {"us-gaap": {
        "Revenues": {"units": {"USD": facts}}, "Assets": {"units": {"USD": [assets]}}}}}))
    return path


FACT = {"start": "2019-01-01", "end": "2019-12-31", "val": 5, "accn": "0000000003-20-000001", "form": "10-K",
        "filed": "2020-02-01"}


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"end": "2019-13-31"}, "facts.us-gaap.Revenues.units.USD[1].end", "not an ISO date: '2019-13-31'"),
    ({"start": "31/12/2019"}, "facts.us-gaap.Revenues.units.USD[1].start", "not an ISO date"),
    ({"filed": None}, "facts.us-gaap.Revenues.units.USD[1].filed", "missing"),
    ({"accn": ...}, "facts.us-gaap.Revenues.units.USD[1].accn", "missing"),
    ({"val": True}, "facts.us-gaap.Revenues.units.USD[1].val", "not a number"),
])
def test_bad_companyfacts_fact_named_by_json_path(store, tmp_path, change, field, message):
    bad = {k: v for k, v in {**FACT, **change}.items() if v is not ...}
    path = _companyfacts(tmp_path, [FACT, bad])
    before = _snapshot(store)
    with pytest.raises(LoadError, match=message) as err:
        store.load_companyfacts(path)
    assert err.value.source == str(path) and err.value.field == field
    _assert_unchanged(store, before)


def test_one_filing_giving_one_fact_two_values_names_both_rows(store, tmp_path):
    path = _companyfacts(tmp_path, [FACT, {**FACT, "val": 6}])
    rows = r"facts.us-gaap.Revenues.units.USD\[0\], facts.us-gaap.Revenues.units.USD\[1\]"
    with pytest.raises(LoadError, match=r"given twice with different values.*\(" + rows + r"\)"):
        store.load_companyfacts(path)
