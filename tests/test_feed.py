"""The backtest feed (store.panel and friends, sql/panel.sql) on demo data: every cell against the brute-force
quarters of the raw rows (tests/oracle.py), amendments from the first date after their acceptance, restatements
of old years, and the wide, Arrow, per-date and SQL forms of the same answer."""

from __future__ import annotations

import math
from collections import Counter

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import factstore
from factstore import feed
from factstore.demo.data import generate
from factstore.errors import NotFound
from tests import oracle
from tests.helpers import SERVED, budget, served
from tests.helpers import examples as hypothesis_budget

DAY = pd.Timedelta(days=1)
CONCEPTS = ["NetIncomeLoss", "SalesRevenueNet", "RevenueFromContractWithCustomerExcludingAssessedTax", "Assets",
            "EarningsPerShareBasic"]
REVENUE_TAGS = {"us-gaap:Revenues", "us-gaap:SalesRevenueNet",
                "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"}


@pytest.fixture(scope="module", params=SERVED)
def demo(request):
    data = generate(companies=6, html=False)
    with factstore.open() as store:
        store.load_course(xbrl=data.xbrl, documents=data.documents, progress=False)
        with served(store, request.param) as asked:
            yield data, asked


def utc(ts: pd.Timestamp) -> pd.Timestamp:
    """A tz-aware time as the store's naive UTC."""
    return ts.tz_convert("UTC").tz_localize(None)


@pytest.fixture(scope="module")
def brute(demo):
    """The demo's raw rows as oracle reports by ticker, and the fiscal calendar its annual periods give."""
    data, _ = demo
    reports = oracle.course_reports(data.xbrl, data.documents)
    by_ticker: dict[str, list[oracle.Report]] = {}
    for r in reports:
        by_ticker.setdefault(r.entity, []).append(r)
    return by_ticker, oracle.reported_calendar(reports)


def cell_oracle(brute, ticker: str, concept: str, when: pd.Timestamp, mode: str) -> dict | None:
    """The slow, obviously-correct cell: the brute-force quarters of the raw rows known a microsecond before
    the date, then the newest, and the TTM as the sum of the newest four if consecutive fiscal quarters."""
    by_ticker, calendar = brute
    qualified = concept if ":" in concept else f"us-gaap:{concept}"
    return oracle.panel_cell(by_ticker[ticker], calendar, ticker, qualified, when.to_pydatetime(), mode)


@st.composite
def questions(draw, data):
    docs = data.documents
    tickers = draw(st.lists(st.sampled_from(sorted(docs["ticker"].unique())), min_size=1, max_size=2, unique=True))
    concepts = draw(st.lists(st.sampled_from(CONCEPTS), min_size=1, max_size=2, unique=True))
    accepted = [utc(t) for t in docs["ts_presentacion"]]
    moment = st.one_of(
        st.sampled_from(accepted),                                       # exactly at an acceptance
        st.sampled_from(accepted).map(lambda t: t.normalize()),          # 00:00 of its day
        st.sampled_from(accepted).map(lambda t: t.normalize() + DAY),    # the next 00:00
        st.integers(0, 7 * 365).map(lambda d: pd.Timestamp("2017-06-01") + pd.Timedelta(days=d)),
    )
    dates = draw(st.lists(moment, min_size=1, max_size=3))
    return tickers, concepts, dates, draw(st.sampled_from(["as_of", "as_of", "first", "latest"]))


@budget(10, 60)
def test_every_cell_equals_the_oracle_and_uses_no_later_filing(demo, brute, examples):
    data, store = demo
    seen: Counter = Counter()

    @settings(**hypothesis_budget(examples, 60), deadline=None)
    @given(st.data())
    def agree(draw):
        tickers, concepts, dates, mode = draw.draw(questions(data))
        got = store.panel(tickers, concepts, dates, ttm=True, mode=mode)
        assert len(got) == len(set(dates)) * len(tickers) * len(concepts)
        if mode != "latest":
            known = got.dropna(subset=["value"])
            assert (known["accepted_at"] < known["date"]).all(), "a cell uses a filing accepted on or after its date"
        for cell in got.itertuples():
            want = cell_oracle(brute, cell.ticker, cell.concept, cell.date, mode)
            where = f"{cell.ticker} {cell.concept} {cell.date} {mode}"
            if want is None:
                assert pd.isna(cell.value) and pd.isna(cell.fiscal_period), where
                continue
            assert (cell.fiscal_period, cell.period_start, cell.period_end, cell.value, cell.accepted_at,
                    cell.derived) == (want["fiscal_period"], pd.Timestamp(want["period_start"]),
                                      pd.Timestamp(want["period_end"]), want["value"], want["accepted_at"],
                                      want["derived"]), where
            # values are exact; a TTM of per-share values may differ in the last bit with the order of addition
            assert (pd.isna(cell.ttm) if want["ttm"] is None
                    else math.isclose(cell.ttm, want["ttm"], rel_tol=1e-12)), where
            seen["derived" if want["derived"] else "reported"] += 1
            seen["ttm"] += want["ttm"] is not None

    agree()
    scale = min(1.0, examples / 20)  # the floors of twenty examples, in proportion below them (derived cells are
    # rarer: 9 of 151 in one random full-budget run, so their floor is 5)
    assert seen["derived"] >= 5 * scale and seen["reported"] >= 20 * scale and seen["ttm"] >= 20 * scale, seen


def test_an_amendment_moves_the_value_from_the_first_date_after_its_acceptance(demo):
    data, store = demo
    docs, xbrl = data.documents, data.xbrl
    checked = 0
    for a in docs[docs["tipo"] == "10-Q/A"].itertuples():
        original = docs[(docs["ticker"] == a.ticker) & (docs["tipo"] == "10-Q")
                        & (docs["periodo_fin"] == a.periodo_fin)].iloc[0]
        new, old = xbrl[xbrl["id_doc"] == a.id_doc], xbrl[xbrl["id_doc"] == original["id_doc"]]
        both = new.merge(old, on=["concepto", "periodo_inicio", "periodo_fin"], suffixes=("", "_old"))
        quarter = both[both["concepto"].isin(REVENUE_TAGS) & (both["periodo_fin"] == a.periodo_fin)
                       & ((both["periodo_fin"] - both["periodo_inicio"]).dt.days < 100)
                       & (both["valor"] != both["valor_old"])]
        if quarter.empty:
            continue
        c = quarter.iloc[0]
        accepted = utc(a.ts_presentacion)
        got = store.panel([a.ticker], [c.concepto], [accepted.normalize(), accepted, accepted.normalize() + DAY])
        assert got["value"].tolist() == [c.valor_old, c.valor_old, c.valor], f"{a.ticker} {a.id_doc}"
        assert (got["period_end"] == a.periodo_fin).all()
        assert got["accepted_at"].iloc[-1] == accepted and (got["accepted_at"].iloc[:2] < accepted).all()
        checked += 1
    assert checked >= 3


def test_a_10ka_for_an_old_year_does_not_replace_the_newest_quarter():
    data = generate(companies=2, html=False)
    docs, xbrl = data.documents, data.xbrl
    ticker = docs["ticker"].iloc[0]
    tenk = docs[(docs["ticker"] == ticker) & (docs["tipo"] == "10-K")].iloc[1]  # the second fiscal year filed
    later = docs[(docs["ticker"] == ticker) & (docs["ts_presentacion"] > tenk.ts_presentacion + pd.Timedelta(days=400))]
    when = later["ts_presentacion"].iloc[0] + pd.Timedelta(days=3)  # a 10-K/A years later, restating that year
    restated = xbrl[xbrl["id_doc"] == tenk.id_doc].assign(
        id_doc="DX00001", forma="10-K/A", ts_presentacion=when,
        valor=lambda x: x["valor"].where(x["concepto"] != "us-gaap:NetIncomeLoss", x["valor"] * 1.05))
    amendment = docs[docs["id_doc"] == tenk.id_doc].assign(id_doc="DX00001", tipo="10-K/A", ts_presentacion=when)
    with factstore.open() as store:
        store.load_course(xbrl=pd.concat([xbrl, restated]), documents=pd.concat([docs, amendment]), progress=False)
        accepted = utc(when)
        got = store.panel([ticker], ["NetIncomeLoss"], [accepted.normalize(), accepted.normalize() + DAY])
        assert got["fiscal_period"].nunique() == 1 and got["value"].nunique() == 1
        assert got["period_end"].iloc[1] > tenk.periodo_fin
        # the restatement did land: that year's Q4 changed when the 10-K/A was accepted
        before, after = (store.quarters(ticker, "NetIncomeLoss", as_of=t).set_index("period_end")["value"]
                         for t in (accepted.normalize(), accepted.normalize() + DAY))
        assert before[tenk.periodo_fin] != after[tenk.periodo_fin]


def test_wide_pivots_one_value_column_per_concept_as_given(demo):
    data, store = demo
    tickers = list(data.documents["ticker"].unique()[:3])
    concepts = ["NetIncomeLoss", "us-gaap:Assets"]
    dates = ["2021-01-01", "2020-01-01"]
    long = store.panel(tickers, concepts, dates, ttm=True)
    wide = store.panel(tickers, concepts, dates, ttm=True, wide=True)
    assert wide.columns.tolist() == ["date", "ticker", "NetIncomeLoss", "NetIncomeLoss_unit",
                                     "NetIncomeLoss_period_end", "NetIncomeLoss_ttm", "us-gaap:Assets",
                                     "us-gaap:Assets_unit", "us-gaap:Assets_period_end", "us-gaap:Assets_ttm"]
    assert wide[["date", "ticker"]].values.tolist() == long[["date", "ticker"]].drop_duplicates().values.tolist()
    for row in long.itertuples():
        mine = wide[(wide["date"] == row.date) & (wide["ticker"] == row.ticker)].iloc[0]
        assert mine[row.concept] == row.value and pd.isna(mine[f"{row.concept}_ttm"]) == pd.isna(row.ttm)
        assert mine[f"{row.concept}_period_end"] == row.period_end
        assert mine[f"{row.concept}_unit"] == row.unit or pd.isna(row.unit) and pd.isna(mine[f"{row.concept}_unit"])
    twice = store.panel(tickers, [*concepts, "Assets"], dates, wide=True)  # two names of one concept
    assert twice.columns.tolist() == ["date", "ticker", *(f"{c}{s}" for c in [*concepts, "Assets"]
                                                          for s in ("", "_unit", "_period_end"))]
    assert twice["Assets"].tolist() == twice["us-gaap:Assets"].tolist() == wide["us-gaap:Assets"].tolist()


def test_panel_arrow_is_the_same_table(demo):
    data, store = demo
    args = (list(data.documents["ticker"].unique()[:3]), ["NetIncomeLoss", "Assets"], ["2019-07-01", "2022-03-31"])
    table = store.panel_arrow(*args, ttm=True)
    assert isinstance(table, pa.Table)
    assert table.schema.field("date").type == pa.timestamp("us") and table.schema.field("value").type == pa.float64()
    assert table.schema.field("period_end").type == pa.date32() and table.schema.field("derived").type == pa.bool_()
    frame = table.to_pandas()
    for column in ("period_start", "period_end"):
        frame[column] = pd.to_datetime(frame[column]).astype("datetime64[us]")
    pd.testing.assert_frame_equal(frame, store.panel(*args, ttm=True), check_dtype=False)
    wide = store.panel_arrow(*args, wide=True)
    pd.testing.assert_frame_equal(wide.to_pandas(), store.panel(*args, wide=True), check_dtype=False)


def test_iter_panel_yields_each_date_in_order(demo):
    data, store = demo
    args = (list(data.documents["ticker"].unique()), ["NetIncomeLoss"],
            ["2022-01-01", "2019-05-01", pd.Timestamp("2020-08-14 15:30", tz="America/New_York"), "2019-05-01"])
    long = store.panel(*args)
    seen = list(store.iter_panel(*args))
    assert [d for d, _ in seen] == sorted(long["date"].unique())
    assert seen[1][0] == pd.Timestamp("2020-08-14 19:30")  # a time with a zone, in UTC
    for when, frame in seen:
        pd.testing.assert_frame_equal(frame, long[long["date"] == when].reset_index(drop=True))


@pytest.mark.parametrize(("mode", "budget"), [("first", "BATCH_CELLS"),  # (panel_asof)
                                             ("as_of", "VERSION_CELLS")])  # (panel_versions)
def test_iter_panel_and_the_arrow_stream_compute_a_batch_of_dates_at_a_time(demo, monkeypatch, mode, budget):
    data, store = demo
    names = ["NetIncomeLoss", "revenue"]
    tickers = list(data.documents["ticker"].unique()[:4])
    dates = ["2019-05-01", "2020-02-01", "2020-08-01", "2021-05-01", "2022-01-01"]
    long = store.panel(tickers, names, dates, ttm=True, mode=mode)
    answered = []
    answer = feed._answer
    monkeypatch.setattr(feed, "_answer", lambda db, params, moments, *a: answered.append(moments)
                        or answer(db, params, moments, *a))
    monkeypatch.setattr(feed, budget, 2 * len(tickers) * 2)  # two dates a batch
    frames = store.iter_panel(tickers, names, dates, ttm=True, mode=mode)
    first_date, first = next(frames)
    assert len(answered) == 1 and len(answered[0]) == 2  # the later dates wait for the loop to reach them
    seen = [(first_date, first), *frames]
    assert [len(m) for m in answered] == [2, 2, 1]
    assert [d for d, _ in seen] == sorted(long["date"].unique())
    # panel computes runs of entities one after another: the same frame (order, types, ages left out), a company
    # named twice, apart, included
    named = [*tickers, tickers[0].lower()]
    monkeypatch.setattr(feed, budget, 10**9)
    whole = store.panel(named, names, dates, ttm=True, mode=mode)
    monkeypatch.setattr(feed, budget, len(dates) * 2)  # an entity a run
    answered.clear()
    pd.testing.assert_frame_equal(store.panel(named, names, dates, ttm=True, mode=mode), whole)
    assert len(answered) == len(tickers)
    assert whole.loc[whole["date"] == whole["date"].min(), "ticker"].drop_duplicates().tolist() == named
    aged = store.panel(tickers, names, dates, ttm=True, max_age=100, mode=mode)
    assert aged.attrs["left_out"] == int((long["age_days"] > 100).sum()) > 0
    for when, frame in seen:
        pd.testing.assert_frame_equal(frame, long[long["date"] == when].reset_index(drop=True))
    monkeypatch.setattr(feed, budget, 2 * len(tickers) * 2)
    answered.clear()
    reader = store.panel_arrow(tickers, names, dates, ttm=True, stream=True, mode=mode)
    assert isinstance(reader, pa.RecordBatchReader) and len(answered) == 1
    streamed = reader.read_all()
    assert streamed.equals(store.panel_arrow(tickers, names, dates, ttm=True, mode=mode))
    # a derived metric and the wide form come through the frames, batch by batch alike, a first batch of nothing
    # known included
    early = ["2009-01-01", "2010-01-01", *dates]
    margin = store.panel_arrow(tickers, ["net_margin"], early, wide=True, stream=True).read_all()
    whole = store.panel(tickers, ["net_margin"], early, wide=True)
    assert whole["net_margin_unit"][:8].isna().all() and whole["net_margin_unit"].notna().any()
    pd.testing.assert_frame_equal(margin.to_pandas(), whole, check_dtype=False)


def test_the_sql_macro_gives_the_same_answer(demo):
    data, store = demo
    tickers = list(data.documents["ticker"].unique())  # course entity_ids are the tickers
    concepts = ["us-gaap:NetIncomeLoss", "us-gaap:EarningsPerShareBasic"]
    dates = pd.DataFrame({"date": pd.to_datetime(["2019-03-31", "2020-12-31", "2023-06-30"])})
    store.con.register("panel_dates", dates)
    try:
        sql = store.sql("SELECT * FROM panel_asof('panel_dates', ?, entities := ?) ORDER BY date, entity_id, concept",
                        [concepts, tickers[:4]])
        everyone = store.sql("SELECT count(DISTINCT entity_id) FROM panel_asof('panel_dates', ?)", [concepts])
    finally:
        store.con.unregister("panel_dates")
    py = store.panel(tickers[:4], concepts, dates["date"], ttm=True).rename(columns={"ticker": "entity_id"})
    py = py.sort_values(["date", "entity_id", "concept"]).reset_index(drop=True)
    shared = [c for c in py.columns if c != "age_days"]
    assert set(sql.columns) == {*shared, "item"}
    pd.testing.assert_frame_equal(sql[shared], py[shared], check_dtype=False)
    assert (sql["item"] == sql["concept"].map({c: no for no, c in enumerate(concepts, 1)})).all()
    assert everyone.iloc[0, 0] == len(tickers)


@pytest.mark.parametrize("mode", ["as_of", "first"])
def test_entities_in_batches_give_the_same_panel(demo, monkeypatch, mode):
    data, store = demo
    tickers = list(data.documents["ticker"].unique())
    tickers = [*tickers[:3], tickers[0].lower(), *tickers[3:]]  # two names of one entity, in different batches
    args = (tickers, ["NetIncomeLoss", "Assets"], ["2019-07-01", "2021-01-01", "2023-06-30"])
    whole = store.panel(*args, ttm=True, mode=mode)
    monkeypatch.setattr(feed, "BATCH", 2)
    pd.testing.assert_frame_equal(store.panel(*args, ttm=True, mode=mode), whole)
    assert len(whole) == 3 * len(tickers) * 2 and set(whole["ticker"]) == set(tickers)


def test_bad_arguments_are_refused(demo):
    _, store = demo
    with pytest.raises(ValueError, match="mode"):
        store.panel(["RPS"], ["NetIncomeLoss"], ["2020-01-01"], mode="future")
    with pytest.raises(ValueError, match="dates"):
        store.panel(["RPS"], ["NetIncomeLoss"], [])
    with pytest.raises(NotFound):
        store.panel(["NOPE"], ["NetIncomeLoss"], ["2020-01-01"])
    with pytest.raises(NotFound):
        store.panel(["RPS"], ["NoSuchConcept"], ["2020-01-01"])


# ------------------------------------------------------------------------------ metrics, on the real companies
METRICS = ["revenue", "net_income", "total_assets", "equity", "eps_diluted"]
DURATIONS = {"revenue", "net_income"}


def _reported(store, metrics: list[str]) -> pd.DataFrame:
    """Every report of the metrics' concepts, each row once per metric it stands for (plain SQL on the table)."""
    keys = [(m, c) for m in metrics for c in store.resolve_concepts(m)]
    frame = pd.DataFrame(keys, columns=["metric", "concept"])
    store.con.register("metric_keys", frame)
    try:
        return store.sql("""SELECT k.metric, r.entity_id, r.period_start, r.period_end, r.accepted_at,
                date_diff('day', r.period_start, r.period_end) + 1 AS days
            FROM reports r JOIN metric_keys k USING (concept)""")
    finally:
        store.con.unregister("metric_keys")


@pytest.mark.parametrize("period", ["quarter", "year"])
@budget(8, 60, "sampled")
def test_a_metric_cell_is_its_newest_period_under_any_tag_and_what_fact_gives(eight_companies, period, sampled):
    s = eight_companies
    ids = s.sql("SELECT entity_id FROM entities ORDER BY 1")["entity_id"].tolist()
    dates = pd.date_range("2012-03-31", "2026-03-31", freq="QE")
    p = s.panel(ids, METRICS, dates, period=period)
    raw = _reported(s, METRICS)
    span = (80, 105) if period == "quarter" else (350, 380)
    durations = raw[raw["days"].between(*span)]
    checked = stale = 0
    for (ticker, metric), cells in p[p["concept"].isin(DURATIONS)].groupby(["ticker", "concept"]):
        mine = durations[(durations["entity_id"] == ticker) & (durations["metric"] == metric)]
        for cell in cells.itertuples():
            known = mine[mine["accepted_at"] < cell.date]["period_end"]
            if known.empty:
                continue
            checked += 1
            # never older than the newest period reported under any of the metric's tags before the date
            stale += pd.isna(cell.period_end) or cell.period_end < known.max()
    assert checked > (300 if period == "quarter" else 250) and stale == 0, f"{stale} of {checked} cells stale"
    assert p.loc[p["value"].notna(), "unit"].notna().all() and p.loc[p["value"].notna(), "tag"].notna().all()
    valued = p[p["value"].notna()]
    assert (valued["age_days"] == (valued["date"] - pd.to_datetime(valued["period_end"])).dt.days).all()
    sample = p[p["value"].notna()].sample(sampled, random_state=7)
    for cell in sample.itertuples():  # the cell is fact() as known a second before the date
        f = s.fact(cell.ticker, cell.concept, period=cell.fiscal_period, as_of=cell.date - pd.Timedelta(seconds=1))
        assert (f.value, f.unit, f.concept, f.accepted_at.tz_localize(None)) == (
            cell.value, cell.unit, cell.tag, cell.accepted_at), cell
    if period == "year":  # the annual filers are there, TSMC in TWD
        late = p[p["date"] == dates[-1]].set_index(["ticker", "concept"])
        assert late.loc[("0001046179", "equity"), "unit"] == "TWD"
        assert late.loc[("0001997711", "revenue"), "fiscal_period"] == "FY2024"


def test_a_ttm_panel_and_max_age(eight_companies):
    s = eight_companies
    args = (["AAPL", "NVDA", "0001318605"], ["revenue", "total_assets"], pd.date_range("2020-01-31", "2025-12-31",
                                                                                      freq="ME"))
    quarter, ttm = s.panel(*args, ttm=True), s.panel(*args, period="ttm")
    flows = quarter["concept"] == "revenue"
    assert ttm.loc[flows, "value"].equals(quarter.loc[flows, "ttm"])
    assert ttm.loc[~flows, "value"].equals(quarter.loc[~flows, "value"])  # a balance: the newest quarter's
    limit = int(quarter["age_days"].median())  # an age some cells have: the limit itself is kept
    fresh = s.panel(*args, max_age=limit)
    assert fresh.attrs["left_out"] == int((quarter["age_days"] > limit).sum()) > 0  # Tesla's data ends in 2022
    assert (fresh["age_days"] <= limit).all() and len(fresh) + fresh.attrs["left_out"] == len(quarter)
    with pytest.raises(TypeError, match="a concept or metric is a name"):
        s.panel(["AAPL"], [["Revenues", "SalesRevenueNet"]], ["2020-01-31"])
    with pytest.raises(ValueError, match="period 'month'"):
        s.panel(["AAPL"], ["revenue"], ["2020-01-31"], period="month")


@pytest.mark.parametrize("period", ["quarter", "year"])
@budget(4, 25, "cells")
def test_a_derived_metric_cell_is_its_formula_over_its_terms_cells(eight_companies, period, cells):
    s = eight_companies
    args = (["AAPL", "NVDA", "0001318605", "0001046179"], pd.date_range("2016-03-31", "2026-03-31", freq="QE"))
    p = s.panel(args[0], ["free_cash_flow", "revenue", "gross_margin"], args[1], period=period)
    terms = s.panel(args[0], ["operating_cash_flow", "capex"], args[1], period=period).set_index(
        ["date", "ticker", "concept"])
    assert list(dict.fromkeys(p["concept"])) == ["free_cash_flow", "revenue", "gross_margin"]  # terms not shown
    fcf = p[(p["concept"] == "free_cash_flow") & p["value"].notna()]
    assert len(fcf) > 40 and (fcf["tag"] == "operating_cash_flow - capex").all() and fcf["derived"].all()
    for c in fcf.itertuples():
        ocf, capex = terms.loc[(c.date, c.ticker, "operating_cash_flow")], terms.loc[(c.date, c.ticker, "capex")]
        assert c.value == ocf["value"] - capex["value"] and c.period_end == ocf["period_end"] == capex["period_end"]
        assert c.accepted_at == max(ocf["accepted_at"], capex["accepted_at"]) < c.date
    for c in p[p["value"].notna() & p["derived"]].sample(cells, random_state=2).itertuples():
        f = s.fact(c.ticker, c.concept, period=c.fiscal_period, as_of=c.date - pd.Timedelta(seconds=1))
        assert (f.value, f.unit) == pytest.approx((c.value, c.unit)), c
    with pytest.raises(ValueError, match="needs the period before the newest"):
        s.panel(["AAPL"], ["roe"], ["2025-06-30"])
