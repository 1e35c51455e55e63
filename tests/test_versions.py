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
from factstore import versions
from factstore.demo.data import generate
from factstore.errors import FactstoreError
from tests import oracle
from tests.helpers import examples as hypothesis_budget
from tests.helpers import reset
from tests.test_facts_properties import CALENDAR, raw_rows
from tests.test_xbrl_feed import feed

MICROSECOND = timedelta(microseconds=1)
KEY = ["entity_id", "concept", "unit", "fiscal_year", "fiscal_quarter"]
COLUMNS = [*KEY, "period_start", "period_end", "value", "formula", "filing_id", "accepted_at"]


def valid_at(store: factstore.FactStore, t: datetime) -> set[tuple]:
    """The versions whose interval holds t."""
    rows = store.sql(f"SELECT {', '.join(COLUMNS)} FROM quarter_versions WHERE metric IS NULL "
                     "AND known_from <= $1 AND $1 < coalesce(known_until, 'infinity'::TIMESTAMP)", [t])
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


def as_items(store: factstore.FactStore, concepts: list[str], metrics: list[str]) -> tuple[list[str], list[int]]:
    """panel_asof's concepts and items for the concepts (each its own item) and the metrics (their concepts, in
    order, as one item each), in one order."""
    parts = [store.sql("SELECT concept FROM metric_concepts WHERE name = metric AND metric = $1 ORDER BY rank",
                       [m])["concept"].tolist() for m in metrics]
    tags = [*concepts, *(c for p in parts for c in p)]
    items = [*range(1, len(concepts) + 1), *(len(concepts) + no for no, p in enumerate(parts, 1) for _ in p)]
    return tags, items


def panels(store: factstore.FactStore, dates: list[datetime], period: str, concepts: list[str],
           metrics: list[str]) -> list[pd.DataFrame]:
    """panel_versions (read from the versions) and panel_asof (from the reports) at the dates, for every entity, the
    concepts each its own item and the metrics (their concepts as one item each), in one order."""
    tags, items = as_items(store, concepts, metrics)
    with store.db.frame(pd.DataFrame({"date": pd.Series(dates, dtype="datetime64[us]")})) as view:
        return [store.db.relation(f"SELECT * FROM panel_versions('{view}', $n, period := $p) "
                                  "ORDER BY date, entity_id, item", {"n": [*concepts, *metrics], "p": period}).df(),
                store.db.relation(f"SELECT * FROM panel_asof('{view}', $c, items := $i, period := $p) "
                                  "ORDER BY date, entity_id, item", {"c": tags, "i": items, "p": period}).df()]


def event_panels(store: factstore.FactStore, period: str, concepts: list[str],
                 metrics: list[str]) -> list[pd.DataFrame]:
    """panels' two with events: panel_asof's at each of its vintages, and panel_versions' (at each entity's moments
    of change only, every one a vintage of panel_asof's: asserted) as it stood at each of those vintages; before an
    entity's first moment of change, panel_asof's cells are asserted empty and left out."""
    tags, items = as_items(store, concepts, metrics)
    with store.db.frame(pd.DataFrame({"date": pd.Series([], dtype="datetime64[us]")})) as view:
        fast = store.db.relation(f"SELECT * FROM panel_versions('{view}', $n, period := $p, events := true)",
                                 {"n": [*concepts, *metrics], "p": period}).df()
        slow = store.db.relation(f"SELECT * FROM panel_asof('{view}', $c, items := $i, period := $p, events := true) "
                                 "ORDER BY entity_id, item, date", {"c": tags, "i": items, "p": period}).df()
    moments_of = [set(zip(f["entity_id"], f["date"], strict=True)) for f in (fast, slow)]
    assert moments_of[0] <= moments_of[1]
    keys = {"entity_id": object, "item": "int64"}
    slow = slow.astype(keys).sort_values("date")
    at = pd.merge_asof(slow[["date", "entity_id", "item"]], fast.astype(keys).rename(columns={"date": "since"})
                       .sort_values("since"), left_on="date", right_on="since", by=["entity_id", "item"])
    before = at["since"].isna().to_numpy()  # before the entity's first moment of change: nothing known
    assert slow.loc[before, "period_end"].isna().all()
    order = ["entity_id", "item", "date"]
    return [at[~before].sort_values(order).reset_index(drop=True)[list(slow.columns)],
            slow[~before].sort_values(order).reset_index(drop=True)]


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
    """The versions and the panel's cells (newest_quarters), one frame."""
    return pd.concat([store.sql("SELECT * FROM quarter_versions ORDER BY ALL"),
                      store.sql("SELECT * FROM newest_quarters ORDER BY ALL")], keys=["versions", "newest"])


def repeated(store: factstore.FactStore) -> int:
    """Versions that hold at no moment, overlap the one before of their quarter, or continue it with the same figure
    (a version is a change)."""
    return store.sql("""SELECT count(*) AS n FROM (
        SELECT known_until <= known_from
               OR known_from < coalesce(lag(known_until) OVER w, CASE WHEN lag(known_from) OVER w IS NOT NULL
                                                                  THEN 'infinity'::TIMESTAMP END)
               OR known_from = lag(known_until) OVER w
                  AND {'s': period_start, 'e': period_end, 'v': value, 'f': formula, 'i': filing_id}
                      IS NOT DISTINCT FROM lag({'s': period_start, 'e': period_end, 'v': value, 'f': formula,
                                                'i': filing_id}) OVER w AS bad
        FROM quarter_versions
        WINDOW w AS (PARTITION BY entity_id, coalesce(metric, concept), unit, fiscal_year, fiscal_quarter
                     ORDER BY known_from))
        WHERE bad""")["n"][0]


@pytest.mark.parametrize("examples", [pytest.param(10, id="examples=10"),
                                      pytest.param(120, id="examples=120", marks=pytest.mark.slow)])
def test_versions_equal_recomputation_from_raw_rows(examples):
    """At every moment, the versions valid then are the quarters the oracle and quarters_asof compute from the raw
    rows; loaded in random parts and order, or twice, the table is the same; a panel read from the versions at each
    moment and a microsecond after is panel_asof's, cell for cell, and so is one at each entity's moments of change
    (events) at every vintage of panel_asof's."""
    seen: Counter = Counter()
    store, other = factstore.open(None), factstore.open(None)

    @settings(**hypothesis_budget(examples, 120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=raw_rows(), seed=st.integers(0, 2**16), parts=st.integers(1, 3), renamed=st.booleans())
    def agree(data, seed, parts, renamed):
        xbrl, docs = data
        if renamed:  # two concepts of the metric revenue: its versions of its own, its facts merged
            xbrl = xbrl.replace({"concepto": {"us-gaap:NetIncomeLoss": "us-gaap:SalesRevenueNet"}})
        reports = oracle.course_reports(xbrl, docs)
        load_in_parts(reset(store), xbrl, docs, list(range(len(docs))), 1)
        order = list(range(len(docs)))
        random.Random(seed).shuffle(order)
        load_in_parts(reset(other), xbrl, docs, order, parts)
        other.load_course(xbrl=xbrl, documents=docs, progress=False)  # again: nothing changes
        pd.testing.assert_frame_equal(table(store), table(other))
        assert repeated(store) == 0
        for t in moments(reports):
            got = valid_at(store, t)
            assert got == brute_force(reports, t), t
            assert got == recomputed(store, t), t
            seen["moments"] += 1
            seen["derived"] += sum(r[8] is not None for r in got)
            assert all(r[-1] <= t for r in got)  # nothing accepted after t
        dates = [d for t in moments(reports) for d in (t, t + MICROSECOND)]
        concepts = store.sql("SELECT DISTINCT concept FROM reports ORDER BY 1")["concept"].tolist()
        for period in ("quarter", "ttm"):
            fast, slow = panels(store, dates, period, concepts, ["revenue", "net_income"])
            pd.testing.assert_frame_equal(fast, slow, check_dtype=False, rtol=1e-12)
            seen["cells"] += int(fast["value"].notna().sum())
            seen["ttm"] += int(fast["ttm"].notna().sum())
            fast, slow = event_panels(store, period, concepts, ["revenue", "net_income"])
            pd.testing.assert_frame_equal(fast, slow, check_dtype=False, rtol=1e-12)
            seen["events"] += int(fast["value"].notna().sum())
        seen["merged"] += int(store.sql("SELECT count(*) AS n FROM quarter_versions WHERE metric IS NOT NULL")["n"][0])

    agree()
    assert seen["moments"] >= 4 * examples and seen["derived"] >= examples and seen["ttm"] >= examples, seen
    assert seen["merged"] >= examples and seen["events"] >= 4 * examples, seen


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


@pytest.mark.parametrize("shape", ["same", "older"])
def test_versions_computed_by_other_rules_are_computed_again(tmp_path: Path, course_data, shape: str, monkeypatch):
    """A store whose versions another version of the rules computed, in a table of the same columns or of an
    older shape (a column since dropped, one since added), has them made and computed anew on opening for writing,
    a transaction a chunk of entities; opened read only, it is refused, saying why and what to do."""
    xbrl, docs = course_data
    path = tmp_path / "s.duckdb"
    with factstore.open(path) as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        before = table(store)
        store.sql("DELETE FROM quarter_versions WHERE entity_id = (SELECT min(entity_id) FROM quarter_versions); "
                  "UPDATE quarter_versions_digest SET digest = 'older'", write=True)
        if shape == "older":
            store.sql("ALTER TABLE quarter_versions ADD COLUMN form VARCHAR DEFAULT '10-Q'; "
                      "ALTER TABLE quarter_versions DROP COLUMN newest_until", write=True)
    # (the refusal kept, and with it the frames of the open it ended: the store it had opened is closed all the same,
    # or opening it for writing in this process would fail)
    with pytest.raises(FactstoreError, match="computed by another version of factstore's rules; open it once "
                                             "for writing") as refused:
        factstore.open(path, read_only=True)
    with monkeypatch.context() as m:
        m.setattr(versions, "CHUNK", 2)
        with factstore.open(path) as store:
            pd.testing.assert_frame_equal(table(store), before)
    with factstore.open(path, read_only=True) as store:
        pd.testing.assert_frame_equal(table(store), before)
    assert refused.value.__traceback__ is not None


def test_a_recomputation_cut_short_leaves_the_versions_refused(tmp_path: Path, course_data, monkeypatch):
    """A recomputation that fails after some chunks were committed leaves the store refused read only (its digest
    not these rules'), and the next open for writing computes every entity."""
    xbrl, docs = course_data
    path = tmp_path / "s.duckdb"
    with factstore.open(path) as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        before = table(store)
        store.sql("UPDATE quarter_versions_digest SET digest = 'older'", write=True)
    calls = []

    def failing(db, ids):
        calls.append(ids)
        if len(calls) == 2:
            raise RuntimeError("cut short")
        refresh(db, ids)

    refresh = versions.refresh
    monkeypatch.setattr(versions, "CHUNK", 2)
    monkeypatch.setattr(versions, "refresh", failing)
    with pytest.raises(RuntimeError, match="cut short"):
        factstore.open(path)
    monkeypatch.setattr(versions, "refresh", refresh)
    with pytest.raises(FactstoreError, match="open it once for writing"):
        factstore.open(path, read_only=True)
    with factstore.open(path) as store:
        pd.testing.assert_frame_equal(table(store), before)


def test_real_versions_equal_quarters_asof_at_sampled_moments(eight_companies):
    """The eight real companies: at 20 moments of each (acceptances, a microsecond before them, the calendar's
    changes), the versions valid then are the quarters quarters_asof_by_id computes from the reports."""
    rng = random.Random(45)
    compared = 0
    for (entity,) in eight_companies.sql("SELECT DISTINCT entity_id FROM reports ORDER BY 1").itertuples(index=False):
        times = eight_companies.sql(
            "SELECT DISTINCT t FROM (SELECT unnest([accepted_at, accepted_at - INTERVAL 1 MICROSECOND]) AS t "
            "FROM reports WHERE entity_id = $1 UNION ALL SELECT first_accepted_at FROM entity_periods "
            "WHERE entity_id = $1) ORDER BY t", [entity])["t"].dt.to_pydatetime().tolist()
        for t in sorted(rng.sample(times, min(20, len(times)))):
            got = {r for r in valid_at(eight_companies, t) if r[0] == entity}
            want = {_row(r) for r in eight_companies.sql(
                f"SELECT {', '.join(COLUMNS)} FROM quarters_asof_by_id($1, entity := $2) WHERE value IS NOT NULL",
                [t, entity]).itertuples(index=False)}
            assert got == want, (entity, t, sorted(got ^ want, key=str)[:4])
            compared += len(want)
    assert compared > 20_000


@pytest.mark.parametrize("period", ["quarter", "ttm"])
def test_real_panel_from_the_versions_equals_panel_asof(eight_companies, period):
    """The eight real companies, their 40 most reported concepts and every metric of concepts, every month end from
    2008 and every acceptance: the panel read from the versions is panel_asof's, cell for cell (derived quarters,
    units, TTMs, precisions, a metric's concept in each filing)."""
    concepts = eight_companies.sql("SELECT concept FROM reports GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 40")
    metrics = eight_companies.sql("SELECT DISTINCT metric FROM metric_concepts ORDER BY 1")["metric"].tolist()
    dates = [*pd.date_range("2008-01-31", "2026-06-30", freq="ME").to_pydatetime(),
             *eight_companies.sql("SELECT DISTINCT accepted_at FROM filings")["accepted_at"].dt.to_pydatetime()]
    fast, slow = panels(eight_companies, dates, period, concepts["concept"].tolist(), metrics)
    pd.testing.assert_frame_equal(fast, slow, check_dtype=False, rtol=1e-12)
    known = fast.dropna(subset=["value"])
    assert len(known) > 100_000 and known["derived"].sum() > 5_000 and known["ttm"].notna().sum() > 20_000
    assert set(known["accepted_precision"]) == {"date", "second"} and fast["unit"].nunique() >= 3
    merged = eight_companies.sql("SELECT DISTINCT metric FROM quarter_versions WHERE metric IS NOT NULL")
    assert len(merged) >= 10 and (known["tag"] != known["concept"]).sum() > 1_000  # a metric under its other tags


@pytest.mark.parametrize("period", ["quarter", "ttm"])
def test_real_events_from_the_versions_equal_panel_asof(eight_companies, period):
    """The eight real companies, their 20 most reported concepts and every metric of concepts: at every vintage of
    panel_asof's events (each acceptance), the panel read from the versions at the entity's moments of change is
    panel_asof's, cell for cell (what fundamentals' as-first-reported rows are read from)."""
    concepts = eight_companies.sql("SELECT concept FROM reports GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 20")
    metrics = eight_companies.sql("SELECT DISTINCT metric FROM metric_concepts ORDER BY 1")["metric"].tolist()
    fast, slow = event_panels(eight_companies, period, concepts["concept"].tolist(), metrics)
    pd.testing.assert_frame_equal(fast, slow, check_dtype=False, rtol=1e-12)
    known = fast.dropna(subset=["value"])
    assert len(known) > 15_000 and known["derived"].sum() > 3_000 and known["ttm"].notna().sum() > 8_000
    assert fast["entity_id"].nunique() == 8


def test_panel_versions_refuses_what_it_cannot_answer(course_data):
    """A concept given twice (panel_asof takes items) or a period other than quarter or ttm is an error, never an
    empty column."""
    xbrl, docs = course_data
    store = factstore.open(None)
    store.load_course(xbrl=xbrl, documents=docs, progress=False)
    with store.db.frame(pd.DataFrame({"date": pd.to_datetime(["2022-01-01"])})) as view:
        for (concepts, period), says in (((["us-gaap:Assets", "us-gaap:Assets"], "quarter"), "given twice"),
                                         ((["us-gaap:Assets"], "year"), "give quarter or ttm")):
            with pytest.raises(Exception, match=says):
                store.db.relation(f"SELECT * FROM panel_versions('{view}', $c, period := $p)",
                                  {"c": concepts, "p": period}).fetchall()


def test_real_versions_loaded_one_company_at_a_time_equal_all_at_once(built, monkeypatch):
    """The store loads the eight companies one at a time, each load computing its own company's versions: all of
    them computed again at once, three entities a chunk, give the same table."""
    monkeypatch.setattr(versions, "CHUNK", 3)
    monkeypatch.setattr(versions, "CELLS_PART", 2)
    with factstore.open(built("eight-companies")) as store:
        before = table(store)
        with store.db.transaction():
            store.db.all("DELETE FROM quarter_versions; DELETE FROM newest_quarters")
            versions.refresh(store.db, [e for (e,) in store.db.all("SELECT entity_id FROM entities")])
        pd.testing.assert_frame_equal(table(store), before)
        assert len(before) > 50_000
        assert repeated(store) == 0


def test_a_feed_that_retimes_a_stored_filing_moves_its_versions(tmp_path: Path):
    """companyfacts without submissions gives the filing day's end; the feed loaded after gives its second, and the
    versions of the quarter the filing made known (Q4 = FY - 9M) count from that second."""
    facts = [{"start": start, "end": "2024-12-31" if start == "2024-01-01" and end is None else end, "val": val,
              "accn": "0000000001-25-000001", "form": "10-K", "filed": "2025-02-20"}
             for start, end, val in (("2024-01-01", None, 10), ("2024-01-01", "2024-09-30", 7))]
    doc = {"cik": 1, "entityName": "Aaa Corp", "facts": {"us-gaap": {"Revenues": {"units": {"USD": facts}}}}}
    second = datetime(2025, 2, 20, 21, 5, 33)
    path = tmp_path / "xbrlrss-2025-02.xml"
    path.write_text(feed([{"company": "Aaa Corp", "form": "10-K", "filed": "2025-02-20", "cik": 1,
                           "accession": "0000000001-25-000001", "period": "2024-12-31", "accepted_at": second}]))
    with factstore.open() as store:
        store.load_companyfacts(doc, progress=False)
        before = store.sql("SELECT value, known_from FROM quarter_versions WHERE fiscal_quarter = 4")
        assert before["value"].tolist() == [3] and before["known_from"][0] != pd.Timestamp(second)
        store.load_xbrl_feed(path, progress=False)
        after = store.sql("SELECT value, formula, known_from, accepted_at FROM quarter_versions "
                          "WHERE fiscal_quarter = 4")
        assert after.to_dict("records") == [{"value": 3, "formula": "FY - 9M", "known_from": pd.Timestamp(second),
                                             "accepted_at": pd.Timestamp(second)}]


def test_a_derived_quarter_gives_way_to_the_reported_one_when_it_arrives():
    """Q2 = H1 - Q1 from the second the 10-Q of the half year is accepted, until a later filing reports Q2's three
    months: from then on that figure is the version, and the derived one is no longer."""
    q1_at, h1_at, q2_at = (pd.Timestamp(t, tz="UTC") for t in ("2019-05-01 20:00:00", "2019-08-01 20:00:00",
                                                                 "2019-09-15 12:00:00"))
    docs = pd.DataFrame([{"id_doc": doc, "ticker": "AAA", "emisor": "Aaa", "tipo": form, "texto": "",
                          "periodo_fin": end} for doc, form, end in (
        ("d1", "10-Q", pd.Timestamp("2019-03-31")), ("d2", "10-Q", pd.Timestamp("2019-06-30")),
        ("d3", "10-Q/A", pd.Timestamp("2019-06-30")), ("d4", "10-Q", pd.Timestamp("2019-09-30")))])
    rows = [("d1", "2019-01-01", "2019-03-31", 100.0, q1_at, "10-Q"),
            ("d2", "2019-01-01", "2019-06-30", 250.0, h1_at, "10-Q"),
            ("d3", "2019-04-01", "2019-06-30", 149.0, q2_at, "10-Q/A"),
            # (the half restated after Q2 was reported: it derives no Q2 any more)
            ("d4", "2019-01-01", "2019-06-30", 251.0, pd.Timestamp("2019-11-01 20:00:00", tz="UTC"), "10-Q")]
    xbrl = pd.DataFrame([{"id_doc": d, "concepto": "us-gaap:Revenues", "periodo_inicio": pd.Timestamp(s).date(),
                          "periodo_fin": pd.Timestamp(e).date(), "valor": v, "ts_presentacion": at, "forma": f}
                         for d, s, e, v, at, f in rows])
    with factstore.open() as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        got = store.sql("SELECT value, formula, filing_id, known_from, known_until FROM quarter_versions "
                        "WHERE fiscal_quarter = 2 ORDER BY known_from")
        assert repeated(store) == 0
    naive = [t.tz_localize(None) for t in (h1_at, q2_at)]
    assert got.astype(object).where(got.notna(), None).to_dict("records") == [
        {"value": 150.0, "formula": "H1 - Q1", "filing_id": "d2", "known_from": naive[0], "known_until": naive[1]},
        {"value": 149.0, "formula": None, "filing_id": "d3", "known_from": naive[1], "known_until": None}]


def test_a_concepts_instants_are_its_quarters_only_while_its_year_has_no_duration():
    """A concept reported first at a quarter's end, then for the quarter's three months: the balance is Q1 until the
    duration arrives, and from that second the duration is, alone (as quarters_asof has it at each moment)."""
    at = [pd.Timestamp(t, tz="UTC") for t in ("2019-05-01 20:00:00", "2019-08-01 20:00:00", "2019-11-01 20:00:00")]
    docs = pd.DataFrame([{"id_doc": doc, "ticker": "AAA", "emisor": "Aaa", "tipo": "10-Q", "texto": "",
                          "periodo_fin": pd.Timestamp(end)} for doc, end in (
        ("d1", "2019-03-31"), ("d2", "2019-06-30"), ("d3", "2019-09-30"))])
    xbrl = pd.DataFrame([{"id_doc": d, "concepto": "us-gaap:Revenues", "periodo_inicio": s, "periodo_fin": e,
                          "valor": v, "ts_presentacion": t, "forma": "10-Q"} for d, s, e, v, t in (
        ("d1", None, pd.Timestamp("2019-03-31").date(), 7.0, at[0]),
        ("d1", pd.Timestamp("2018-01-01").date(), pd.Timestamp("2018-12-31").date(), 400.0, at[0]),  # (a calendar)
        ("d2", pd.Timestamp("2019-01-01").date(), pd.Timestamp("2019-03-31").date(), 100.0, at[1]),
        ("d3", None, pd.Timestamp("2019-03-31").date(), 8.0, at[2]))])  # (the balance again, restated)
    with factstore.open() as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        got = store.sql("SELECT value, known_from, known_until FROM quarter_versions WHERE fiscal_quarter = 1 "
                        "AND fiscal_year = 2019 ORDER BY known_from")
        naive = [t.tz_localize(None).to_pydatetime() for t in at]
        assert got.astype(object).where(got.notna(), None).to_dict("records") == [
            {"value": 7.0, "known_from": naive[0], "known_until": naive[1]},
            {"value": 100.0, "known_from": naive[1], "known_until": None}]
        for t in (naive[0], naive[1], naive[2], naive[2] + timedelta(days=1)):
            assert valid_at(store, t) == recomputed(store, t), t
        assert repeated(store) == 0


def test_a_10k_that_reports_q4_derives_no_q4_beside_it():
    """A 10-K giving the year and its fourth quarter's three months, after the 10-Q of nine months: Q4 is the
    reported figure from the 10-K's second, and no derived FY - 9M version holds at any moment."""
    at = [pd.Timestamp(t, tz="UTC") for t in ("2019-11-01 20:00:00", "2020-02-20 21:00:00")]
    docs = pd.DataFrame([{"id_doc": doc, "ticker": "AAA", "emisor": "Aaa", "tipo": form, "texto": "",
                          "periodo_fin": pd.Timestamp(end)} for doc, form, end in (
        ("d1", "10-Q", "2019-09-30"), ("d2", "10-K", "2019-12-31"))])
    xbrl = pd.DataFrame([{"id_doc": d, "concepto": "us-gaap:Revenues", "periodo_inicio": pd.Timestamp(s).date(),
                          "periodo_fin": pd.Timestamp(e).date(), "valor": v, "ts_presentacion": t, "forma": f}
                         for d, s, e, v, t, f in (("d1", "2019-01-01", "2019-09-30", 300.0, at[0], "10-Q"),
                                                  ("d2", "2019-01-01", "2019-12-31", 420.0, at[1], "10-K"),
                                                  ("d2", "2019-10-01", "2019-12-31", 121.0, at[1], "10-K"))])
    with factstore.open() as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        got = store.sql("SELECT value, formula, known_from, known_until FROM quarter_versions "
                        "WHERE fiscal_quarter = 4")
        assert repeated(store) == 0
    assert got.astype(object).where(got.notna(), None).to_dict("records") == [
        {"value": 121.0, "formula": None, "known_from": at[1].tz_localize(None), "known_until": None}]


def cells_of(rows: list[tuple], store: factstore.FactStore | None = None) -> pd.DataFrame:
    """newest_quarters computed from these rows of quarter_versions alone (entity 'E'), in order of time."""
    store = store or factstore.open(None)
    with store.db.transaction():
        store.db.con.executemany("INSERT INTO quarter_versions VALUES (" + ", ".join("?" * 18) + ")", rows)
        store.db.all("CREATE OR REPLACE TEMP TABLE _within AS SELECT 'E' AS entity_id; DELETE FROM newest_quarters")
        for name in versions.CELLS:
            store.db.all(versions.SQL[name])
    return store.sql("SELECT known_from, period_end, value, ttm FROM newest_quarters ORDER BY known_from")


def quarter_rows(count: int, until: datetime | None = None) -> list[tuple]:
    """Rows of quarter_versions: `count` consecutive quarters of revenue from 2020Q1 (value 10, 20, ...), each
    known from 31 days after its end; none replaced, or each gone at `until` (known_until and newest_until)."""
    ends = pd.date_range("2020-03-31", periods=count, freq="QE")
    return [("E", "us-gaap:Revenues", None, "USD", 2020 + (i // 4), i % 4 + 1,
             (end - pd.offsets.QuarterEnd()).date() + timedelta(days=1), end.date(), 10.0 * (i + 1), False, None,
             f"f{i}", end + timedelta(days=31), "second", end + timedelta(days=31), until, until, 1)
            for i, end in enumerate(ends)]


def test_a_panels_ttm_is_the_four_newest_of_more_alive():
    """Five consecutive quarters still able to be among the four newest (none of their successors known for good):
    the cells sum the four newest, and the newest quarter is the fifth."""
    cells = cells_of(quarter_rows(5))
    assert cells["period_end"].dt.date.tolist() == [r[7] for r in quarter_rows(5)]
    assert cells["ttm"].isna().tolist() == [True, True, True, False, False]
    assert cells["ttm"].iloc[3:].tolist() == [100.0, 140.0]  # (10+20+30+40, then 20+30+40+50)


def test_a_panels_cell_ends_where_its_versions_end_unreplaced():
    """Versions that end with nothing after them (a calendar that no longer places them): from that moment the cell
    is empty, not the last one carried on."""
    gone = datetime(2021, 1, 15)
    cells = cells_of(quarter_rows(2, until=gone))
    assert cells["value"].tolist()[:2] == [10.0, 20.0]
    assert cells["known_from"].iloc[-1] == gone and pd.isna(cells["value"].iloc[-1])


def test_a_metric_read_from_two_of_its_concepts_is_an_error():
    """An entity without cells of a metric's own reads its one concept's; cells under two of its concepts would mix
    two figures in one column, so the panel refuses (the rules never make them: an entity reporting two concepts
    of a metric has versions of the metric's own)."""
    store = factstore.open(None)
    store.sql("INSERT INTO entities (entity_id, name) VALUES ('E', 'E Corp')", write=True)
    one = quarter_rows(2)
    other = [r[:1] + ("us-gaap:SalesRevenueNet",) + r[2:11] + (r[11] + "b",) + r[12:] for r in one]
    cells_of(one, store)
    with store.db.frame(pd.DataFrame({"date": pd.to_datetime(["2021-01-01"])})) as view:
        read = f"SELECT value FROM panel_versions('{view}', ['revenue'])"
        assert store.db.relation(read).fetchall() == [(20.0,)]
        cells_of(other, store)
        with pytest.raises(Exception, match="a metric read from two of its concepts"):
            store.db.relation(read).fetchall()
