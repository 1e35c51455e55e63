"""quarter_versions, every version of every quarter computed at load (sql/versions.sql), against a recomputation
from the raw rows at every moment its answer could change: the brute-force oracle (tests/oracle.py) and the
store's own quarters_asof_by_id over the reports, for random loads in random order."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import factstore
from factstore.demo.data import generate
from tests import oracle
from tests.helpers import examples as hypothesis_budget
from tests.helpers import reset
from tests.test_facts_properties import CALENDAR, raw_rows

MICROSECOND = timedelta(microseconds=1)
KEY = ["entity_id", "concept", "unit", "fiscal_year", "fiscal_quarter"]
COLUMNS = [*KEY, "period_start", "period_end", "value", "formula", "filing_id", "accepted_at"]


def valid_at(store: factstore.FactStore, t: datetime) -> set[tuple]:
    """The versions whose interval holds t."""
    rows = store.sql(f"SELECT {', '.join(COLUMNS)} FROM quarter_versions "
                     "WHERE known_from <= $1 AND $1 < coalesce(known_until, 'infinity'::TIMESTAMP)", [t])
    return {_row(r) for r in rows.itertuples(index=False)}


def recomputed(store: factstore.FactStore, t: datetime) -> set[tuple]:
    """The quarters quarters_asof_by_id computes from the reports at t, each concept its own item."""
    rows = store.sql(f"SELECT {', '.join(COLUMNS)} FROM quarters_asof_by_id($1) WHERE value IS NOT NULL", [t])
    return {_row(r) for r in rows.itertuples(index=False)}


def brute_force(reports: list[oracle.Report], t: datetime) -> set[tuple]:
    """The oracle's quarters known at t."""
    return {(*key, q.start, q.end, q.value, q.formula, q.source.r.filing_id, q.accepted_at)
            for key, q in oracle.quarters(reports, CALENDAR, t, "as_of").items() if q.value is not None}


def _row(r: tuple) -> tuple:
    return tuple(None if pd.isna(v) else v.date() if isinstance(v, pd.Timestamp) and i in (5, 6)
                 else v.to_pydatetime() if isinstance(v, pd.Timestamp) else v for i, v in enumerate(r))


def moments(reports: list[oracle.Report]) -> list[datetime]:
    """Every moment an answer may change (each acceptance), a microsecond before each, and before them all."""
    accepted = sorted({r.accepted_at for r in reports})
    return sorted({accepted[0] - timedelta(days=1), *accepted, *(t - MICROSECOND for t in accepted)})


def load_in_parts(store: factstore.FactStore, xbrl: pd.DataFrame, docs: pd.DataFrame, order: list[int],
                  parts: int) -> None:
    """The filings loaded in `parts` loads, in the given order of filings."""
    ids = [docs["id_doc"].iloc[i] for i in order]
    for chunk in (ids[k::parts] for k in range(parts)):
        if chunk:
            store.load_course(xbrl=xbrl[xbrl["id_doc"].isin(chunk)], documents=docs[docs["id_doc"].isin(chunk)],
                              progress=False)


@pytest.fixture(scope="module")
def course_data() -> tuple[pd.DataFrame, pd.DataFrame]:
    data = generate(companies=3, html=False)
    return data.xbrl, data.documents


def table(store: factstore.FactStore) -> pd.DataFrame:
    return store.sql("SELECT * FROM quarter_versions ORDER BY ALL")


@pytest.mark.parametrize("examples", [pytest.param(25, id="examples=25"),
                                      pytest.param(120, id="examples=120", marks=pytest.mark.slow)])
def test_versions_equal_recomputation_from_raw_rows(examples):
    """At every moment, the versions valid then are the quarters the oracle and quarters_asof compute from the raw
    rows; loaded in random parts and order, or twice, the table is the same."""
    seen: Counter = Counter()
    store, other = factstore.open(None), factstore.open(None)

    @settings(**hypothesis_budget(examples, 120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=raw_rows(), seed=st.integers(0, 2**16), parts=st.integers(1, 3))
    def agree(data, seed, parts):
        xbrl, docs = data
        reports = oracle.course_reports(xbrl, docs)
        load_in_parts(reset(store), xbrl, docs, list(range(len(docs))), 1)
        order = list(range(len(docs)))
        random.Random(seed).shuffle(order)
        load_in_parts(reset(other), xbrl, docs, order, parts)
        other.load_course(xbrl=xbrl, documents=docs, progress=False)  # again: nothing changes
        pd.testing.assert_frame_equal(table(store), table(other))
        for t in moments(reports):
            got = valid_at(store, t)
            assert got == brute_force(reports, t), t
            assert got == recomputed(store, t), t
            seen["moments"] += 1
            seen["derived"] += sum(r[8] is not None for r in got)
            assert all(r[-1] <= t for r in got)  # nothing accepted after t

    agree()
    assert seen["moments"] >= 4 * examples and seen["derived"] >= examples, seen


def test_a_load_recomputes_only_the_entities_it_touched(course_data):
    """Another entity's versions stay as they were, row for row, while the loaded one's are computed anew."""
    xbrl, docs = course_data
    store = factstore.open(None)
    first, second = sorted(docs["ticker"].unique())[:2]
    mine = docs[docs["ticker"] == first]
    store.load_course(xbrl=xbrl[xbrl["id_doc"].isin(mine["id_doc"])], documents=mine, progress=False)
    store.sql("UPDATE quarter_versions SET value = value + 1 WHERE entity_id = ?", [first], write=True)
    theirs = docs[docs["ticker"] == second]
    store.load_course(xbrl=xbrl[xbrl["id_doc"].isin(theirs["id_doc"])], documents=theirs, progress=False)
    marked = store.sql("SELECT count(*) AS n FROM quarter_versions q JOIN quarters_asof_by_id(NULL) a "
                       "USING (entity_id, concept, unit, fiscal_year, fiscal_quarter) "
                       "WHERE q.known_until IS NULL AND q.value = a.value + 1 AND q.entity_id = ?", [first])
    assert marked["n"][0] > 0  # untouched: still marked
    assert store.sql("SELECT count(*) AS n FROM quarter_versions WHERE entity_id = ?", [second])["n"][0] > 0


def test_versions_computed_by_other_rules_are_computed_again(tmp_path: Path, course_data):
    """A store whose versions another version of the rules computed has them computed anew on opening for
    writing; one opened read only is left as it is."""
    xbrl, docs = course_data
    path = tmp_path / "s.duckdb"
    with factstore.open(path) as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        before = table(store)
        store.sql("DELETE FROM quarter_versions WHERE entity_id = (SELECT min(entity_id) FROM quarter_versions); "
                  "UPDATE quarter_versions_digest SET digest = 'older'", write=True)
    with factstore.open(path, read_only=True) as store:
        assert len(table(store)) < len(before)
    with factstore.open(path) as store:
        pd.testing.assert_frame_equal(table(store), before)
