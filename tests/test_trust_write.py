"""The write plan's one rule on values: a number no filing could state is refused, whatever loader gave it, naming
the file, the row and the field, and the store is left as it was (issue #44, item 1)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from factstore import LoadError
from factstore.loaders.batch import Batch
from tests.samples import course_docs, course_xbrl
from tests.test_write import FACT, _assert_unchanged, _companyfacts, _snapshot


def _companyfacts_text(tmp_path, val: str):
    """A companyfacts file whose second Revenues fact has `val` written as it stands (JSON allows 1e400)."""
    path = tmp_path / "CIK0000000003.json"
    fact = ('{"start": "2019-01-01", "end": "2019-12-31", "val": VAL, "accn": "0000000003-20-000002", '
            '"form": "10-K/A", "filed": "2020-03-01"}')
    good = fact.replace("VAL", "5").replace("-20-000002", "-20-000001").replace("10-K/A", "10-K")
    facts = f"[{good}, {fact.replace('VAL', val)}]"
    path.write_text('{"cik": 3, "entityName": "Y", "facts": {"us-gaap": {"Revenues": {"units": {"USD": ' + facts
                    + "}}}}}")
    return path


WRITE_PLAN = r"facts\.us-gaap\.Revenues\.units\.USD\[1\]: .* no value a filing could state"
PARSER = "number is infinity"  # the JSON reader refuses what a double cannot hold before the write plan sees it
ZERO = r"facts\.us-gaap\.Revenues\.units\.USD\[1\]\.val'?: .*a number a double holds only as 0"  # (read as 0 before)


@pytest.mark.parametrize(("val", "message"), [("1" + "0" * 400, PARSER), ("1e400", PARSER), ("-1e400", PARSER),
                                              ("1e18", WRITE_PLAN), ("-2.5e19", WRITE_PLAN), ("1e-13", WRITE_PLAN),
                                              ("-1e-300", WRITE_PLAN), ("1e-400", ZERO), ("-1E-400", ZERO),
                                              ("0." + "0" * 399 + "1", ZERO), ("1e-150", WRITE_PLAN)])
def test_a_companyfacts_value_no_filing_could_state_is_refused(store, tmp_path, val, message):
    path = _companyfacts_text(tmp_path, val)
    before = _snapshot(store)
    with pytest.raises(LoadError, match=message) as err:
        store.load_companyfacts(path)
    assert err.value.source == str(path)
    assert err.value.field in (None, "value", "facts.us-gaap.Revenues.units.USD[1].val")
    assert len(str(err.value).splitlines()) == 1
    _assert_unchanged(store, before)


@pytest.mark.parametrize("val", ["9.99e17", "-1e17", "1e-12", "0", "0.0001"])
def test_values_at_the_edges_of_what_filings_state_load_exactly(store, tmp_path, val):
    store.load_companyfacts(_companyfacts_text(tmp_path, val))
    stored = store.sql("SELECT value FROM reports WHERE filing_id = '0000000003-20-000002'")["value"].tolist()
    assert stored == [float(val)]


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, None, 1e300])
def test_any_batch_with_a_value_no_filing_could_state_is_refused_naming_its_row(store, value):
    """store.apply is the door every loader goes through: the rule holds for a batch a user builds by hand."""
    at = pd.Timestamp("2020-02-01 21:00")
    batch = Batch(source="hand.parquet", kind="reports")
    batch.entities = pd.DataFrame({"entity_id": ["X"], "cik": [None], "name": ["X Corp"], "tickers": [["X"]]})
    batch.filings = pd.DataFrame({"filing_id": ["F1"], "entity_id": ["X"], "form": ["10-K"],
                                  "period_end": [pd.Timestamp("2019-12-31")], "filed": [pd.Timestamp("2020-02-01")],
                                  "accepted_at": [at], "accepted_precision": ["second"], "accepted_note": [None],
                                  "source": ["hand.parquet"]})
    batch.reports = pd.DataFrame({"filing_id": ["F1", "F1"], "entity_id": ["X", "X"],
                                  "concept": ["us-gaap:Revenues", "us-gaap:Assets"], "unit": ["USD", "USD"],
                                  "period_start": [pd.Timestamp("2019-01-01"), pd.NaT],
                                  "period_end": [pd.Timestamp("2019-12-31")] * 2, "value": [7.0, value],
                                  "accepted_at": [at, at], "form": ["10-K", "10-K"], "row": [1, 2]})
    before = _snapshot(store)
    with pytest.raises(LoadError, match=r"^hand\.parquet, field 'value': row 2: .* no value a filing could state"):
        store.apply(batch)
    _assert_unchanged(store, before)


def test_a_refused_value_leaves_a_store_that_holds_the_company_as_it_was(store, tmp_path):
    store.load_companyfacts(_companyfacts_text(tmp_path, "6"))
    before = _snapshot(store)
    later = tmp_path / "later"
    later.mkdir()
    path = _companyfacts_text(later, "3e18").read_text().replace("-20-000002", "-21-000009")
    (later / "CIK0000000003.json").write_text(path)
    with pytest.raises(LoadError, match="no value a filing could state"):
        store.load_companyfacts(later / "CIK0000000003.json")
    _assert_unchanged(store, before)
    assert store.fact("0000000003", "us-gaap:Revenues", period="FY2019").value == 6.0


@pytest.mark.parametrize("text", ["1e-400", "-0." + "0" * 400 + "7"])
def test_a_course_value_a_double_holds_only_as_zero_is_refused_naming_its_row(store, tmp_path, text):
    path = tmp_path / "filings6_xbrl.parquet"
    course_xbrl().assign(valor=["100", text, "7"]).to_parquet(path)
    with pytest.raises(LoadError, match="a number a double holds only as 0") as err:
        store.load_course(xbrl=path, documents=course_docs())
    assert (err.value.row, err.value.field) == (2, "valor")


@pytest.mark.parametrize(("start", "end"), [(None, "9999-12-31"), ("0001-01-01", "2019-12-31"), (None, "1899-12-31"),
                                            ("2019-01-01", "2200-01-01")])
def test_a_period_no_filing_could_report_is_refused_whatever_the_loader(store, tmp_path, start, end):
    """The write plan's bounds on days (FSDS's: 1900 to 2199): an XBRL instant of 9999-12-31 or a companyfacts start
    in year 1 had been stored without a word (found by an outside probe)."""
    fact = {**FACT, "end": end, **({"start": start} if start else {})}  # (in FACT's 10-K, for the year 2019)
    if start is None:
        fact.pop("start")
    path = _companyfacts(tmp_path, [FACT, fact])
    before = _snapshot(store)
    with pytest.raises(LoadError, match="is no period a filing could report") as err:
        store.load_companyfacts(path)
    assert err.value.field in ("period", "facts.us-gaap.Revenues.units.USD[1].start",
                               "facts.us-gaap.Revenues.units.USD[1].end")
    _assert_unchanged(store, before)
