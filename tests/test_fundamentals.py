"""factstore/fundamentals.py: SF1-shaped rows on the real companies, each value the metric oracle's over the raw
companyfacts JSON (tests/metric_oracle.py) for its period as known at the row's moment (datekey for the as-first-
reported dimensions, as_of for the most recent), the trailing twelve months the sum of the oracle's quarters, the
annual filers present, derived metrics from their rows."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest

import factstore
from factstore import fundamentals
from tests import samples
from tests.helpers import budget
from tests.metric_oracle import SECOND, Company, Series, covered, read_metrics

METRICS_CSV = Path(__file__).resolve().parents[1] / "data" / "metrics.csv"
AS_OF = pd.Timestamp("2025-06-30")
TICKERS = ["AAPL", "NVDA", "0001652044", "0001318605", "0001046179", "0001997711"]
METRICS = ["revenue", "net_income", "total_assets", "equity", "operating_cash_flow", "capex", "free_cash_flow"]
REPORTED = METRICS[:-1]


@pytest.fixture(scope="module")
def tables(eight_companies):
    return {dim: eight_companies.fundamentals(TICKERS, METRICS, dimension=dim, as_of=AS_OF)
            for dim in ("ARQ", "ARY", "ART", "MRQ", "MRY", "MRT")}


def _cells(frame: pd.DataFrame, n: int) -> list[tuple]:
    long = frame.melt(id_vars=["entity_id", "fiscal_period", "datekey", "unit"], value_vars=REPORTED,
                      var_name="metric").dropna(subset=["value"])
    return list(long.sample(min(n, len(long)), random_state=3).itertuples(index=False))


def _series(oracle: dict[str, Company], entity_id: str, metric: str) -> Series:
    company = next(c for c in oracle.values() if c.entity == entity_id)
    return company.series(next(m for m in covered(read_metrics(METRICS_CSV)) if m.name == metric))


def _utc(stamp: pd.Timestamp) -> datetime:
    return stamp.to_pydatetime().replace(tzinfo=UTC)


@pytest.mark.parametrize("dim", ["ARQ", "ARY", "MRQ", "MRY"])
@budget(40, 400, "cells")
def test_each_value_is_the_oracles_as_known_at_the_rows_moment(eight_companies, oracle, tables, dim, cells):
    """A sample of cells against tests/metric_oracle.py over the raw JSON: the metric's value for the row's period
    as known at datekey (as first reported: ARQ, ARY) or at as_of (most recent: MRQ, MRY), in the row's unit."""
    rows = tables[dim]
    assert (rows["datekey"] <= AS_OF).all() and (rows["lastupdated"] <= AS_OF).all()
    accepted = set(eight_companies.sql("SELECT accepted_at FROM filings")["accepted_at"])
    assert set(rows["datekey"]) <= accepted  # a filing's acceptance, to the second
    checked, wrong = 0, []
    for cell in _cells(rows, cells):
        series = _series(oracle, cell.entity_id, cell.metric)
        at = _utc(cell.datekey if dim.startswith("AR") else AS_OF)
        want = series.value(cell.fiscal_period, at) if cell.fiscal_period in series.labels else None
        if want is None and (cell.fiscal_period not in series.labels
                             or series.derivable_elsewhere(cell.fiscal_period, at)):
            continue  # a label the oracle does not map, or a quarter derived by a rule it lacks
        checked += 1
        if want is None or (float(want.value), want.unit) != (cell.value, cell.unit):
            wrong.append(f"{cell}: oracle {want and (float(want.value), want.unit)}")
        elif dim.startswith("AR"):  # first reported then: the row's filing is the one that made it known
            assert want.accepted_at == at or series.value(cell.fiscal_period, at - SECOND) is not None, cell
    assert checked >= 0.7 * min(cells, len(rows)) and not wrong, f"{len(wrong)} of {checked}: {wrong[:5]}"


@pytest.mark.parametrize(("dim", "moment"), [("ART", "datekey"), ("MRT", "as_of")])
@budget(12, 120, "rows")
def test_trailing_twelve_months_are_the_oracles_four_quarters(oracle, tables, dim, moment, rows):
    table = tables[dim]
    flows = table[table["revenue"].notna() & table["fiscal_period"].str.contains("Q")]
    assert len(flows) > 40
    checked = 0
    for row in flows.sample(min(rows, len(flows)), random_state=5).itertuples():
        series = _series(oracle, row.entity_id, "revenue")
        at = _utc(row.datekey if moment == "datekey" else AS_OF)
        year, q = int(row.fiscal_period[:4]), int(row.fiscal_period[-1])
        labels = [f"{year - (q - k <= 0)}Q{(q - k - 1) % 4 + 1}" for k in range(4)]
        quarters = [series.value(label, at) if label in series.labels else None for label in labels]
        if not all(quarters):  # a label the oracle does not map, or a quarter derived by a rule it lacks
            assert all(q or label not in series.labels or series.derivable_elsewhere(label, at)
                       for q, label in zip(quarters, labels, strict=True)), (row.entity_id, labels, at)
            continue
        assert float(sum(f.value for f in quarters)) == pytest.approx(row.revenue), (row.entity_id, labels)
        checked += 1
    assert checked >= rows // 2, f"only {checked} of {rows} rows had four quarters the oracle maps"


def test_annual_filers_are_there_in_their_currency(eight_companies, tables):
    equity = eight_companies.fact("0001046179", "equity", period="FY2024", as_of=AS_OF)
    assert equity.unit == "TWD"
    for dim in ("ARY", "MRY", "ART", "MRT"):
        rows = tables[dim].set_index(["ticker", "fiscal_period"])
        assert rows.loc[("0001046179", "FY2024"), "unit"] == "TWD", dim
        assert rows.loc[("0001046179", "FY2024"), "equity"] == equity.value, dim  # not the USD translation
        assert rows.loc[("0001997711", "FY2024"), "revenue"] > 0, dim
    assert not (tables["ARQ"]["ticker"] == "0001997711").any()  # no quarters from a 20-F filer


def test_derived_metrics_come_from_their_row_and_missing_is_never_zero(tables):
    for dim, rows in tables.items():
        both = rows["operating_cash_flow"].notna() & rows["capex"].notna()
        assert (rows.loc[both, "free_cash_flow"] == rows.loc[both, "operating_cash_flow"]
                - rows.loc[both, "capex"]).all(), dim
        assert rows.loc[~both, "free_cash_flow"].isna().all(), dim
    assert (tables["MRQ"][REPORTED] != 0).all().all()


def test_calendardate_is_the_nearest_calendar_quarter_end(tables):
    rows = pd.concat(tables.values())
    ends = pd.to_datetime(rows["reportperiod"])
    calendar = pd.to_datetime(rows["calendardate"])
    assert calendar.dt.is_quarter_end.all()
    assert ((calendar - ends).abs() <= pd.Timedelta(days=46)).all()
    nvda = rows[(rows["ticker"] == "NVDA") & (rows["fiscal_period"] == "FY2025")]
    assert set(nvda["calendardate"].astype(str)) == {"2024-12-31"}  # the year ended 2025-01-26


def test_a_dimension_or_metric_it_does_not_know_is_an_error(eight_companies):
    with pytest.raises(ValueError, match="dimension 'XRQ'"):
        eight_companies.fundamentals("AAPL", ["revenue"], dimension="XRQ")
    with pytest.raises(ValueError, match="unknown metric 'revenu'"):
        eight_companies.fundamentals("AAPL", ["revenu"])


def test_a_cell_is_never_a_figure_in_another_currency():
    """A company reporting in EUR whose assets come only in USD: the row's unit is EUR and its assets missing."""
    doc = samples.companyfacts(123, ["0000000123-20-000001", "0000000123-21-000001"])
    facts = doc["facts"]["us-gaap"]
    facts["Revenues"]["units"] = {"EUR": facts["Revenues"]["units"]["USD"]}
    with factstore.open() as s:
        s.load_companyfacts(doc, progress=False)
        for dim in ("ARY", "MRY"):
            rows = s.fundamentals("123", ["revenue", "total_assets"], dimension=dim)
            assert rows["unit"].tolist() == ["EUR", "EUR"] and rows["revenue"].tolist() == [100, 101], dim
            assert rows["total_assets"].isna().all(), dim
        assert s.fact("123", "total_assets", period="FY2019").unit == "USD"  # fact() says its unit


def test_the_reporting_currency_comes_before_its_usd_translation_on_every_surface():
    """A company reporting in ZAR (after USD by name) that adds a USD convenience translation of its latest year:
    quarters() lists the ZAR figure first in each period, and fact(), facts() and the panel answer in ZAR."""
    doc = samples.companyfacts(124, ["0000000124-20-000001", "0000000124-21-000001"])
    for item in doc["facts"]["us-gaap"].values():
        zar = item["units"]["USD"]
        item["units"] = {"ZAR": zar, "USD": [{**f, "val": f["val"] / 20} for f in zar[-1:]]}
    with factstore.open() as s:
        s.load_companyfacts(doc, progress=False)
        rows = s.quarters("124", "total_assets")
        assert set(rows["unit"]) == {"ZAR", "USD"} and (rows.groupby("period_end")["unit"].first() == "ZAR").all()
        assert s.fact("124", "revenue", period="FY2020").unit == "ZAR"
        asked = pd.DataFrame({"entity": ["124"], "concept": ["revenue"], "period_start": ["2020-01-01"],
                              "period_end": ["2020-12-31"], "as_of": ["2030-01-01"]})
        assert s.facts(asked)["unit"].tolist() == ["ZAR"]
        assert s.panel(["124"], ["revenue"], ["2022-06-30"], period="year")["unit"].tolist() == ["ZAR"]
        # (a concept's quarters come from the versions computed at load: the unit ranked there)
        assert s.panel(["124"], ["us-gaap:Assets"], ["2022-06-30"])[["unit", "fiscal_period"]].values.tolist() \
            == [["ZAR", "2020Q4"]]


def test_a_period_is_first_reported_after_it_ends_and_alike_in_every_dimension(tables):
    """datekey is the first report of the period by the metrics asked: after the period ended (a 10-Q's figures
    dated at the coming year end, such as a dividend payable, are no report of the year: found blind, NVIDIA's
    FY2014 had a datekey two months before the year closed), never after as_of, and the same as first reported
    (AR) and most recent (MR)."""
    for dim, rows in tables.items():
        assert (pd.to_datetime(rows["datekey"]) > pd.to_datetime(rows["reportperiod"])).all(), dim
        assert (pd.to_datetime(rows["datekey"]) <= AS_OF).all(), dim
    for first, recent in (("ARQ", "MRQ"), ("ARY", "MRY")):
        both = tables[first].merge(tables[recent], on=["entity_id", "fiscal_period", "reportperiod"])
        assert len(both) >= 50 and (both["datekey_x"] == both["datekey_y"]).all(), (first, recent)


def test_a_value_on_mixed_bases_is_flagged_and_the_accession_is_the_filing_at_datekey(eight_companies, tables):
    """Apple's 2009Q4 as of 2010-03-01 is the 10-K/A's restated FY2009 less the first-reported 9M: the MRQ row
    says so, as fact() does (found blind: unflagged); every row's accession is the filing accepted at its
    datekey."""
    moment = "2010-03-01"
    row = eight_companies.fundamentals("AAPL", ["revenue", "net_income"], dimension="MRQ", as_of=moment)
    q4 = row.set_index("fiscal_period").loc["2009Q4"]
    fact = eight_companies.fact("AAPL", "revenue", period="2009Q4", as_of=moment)
    assert q4["revenue"] == fact.value and [w for w in fact.warnings if w.startswith("mixed basis")]
    assert any(w.startswith("revenue: mixed basis") for w in q4["warnings"])
    assert list(row.set_index("fiscal_period").loc["2009Q3", "warnings"]) == []
    accepted = dict(eight_companies.sql("SELECT filing_id, accepted_at FROM filings").itertuples(index=False))
    for dim, rows in tables.items():
        assert (rows["accession"].map(accepted) == pd.to_datetime(rows["datekey"])).all(), dim


def test_the_rows_do_not_depend_on_which_metrics_are_asked(eight_companies, tables):
    """A balance alone gives a quarterly filer its quarters, and an annual filer its years as TTM (found blind: Apple's
    ARQ of total_assets alone had no row, being taken for an annual filer), with the values the wider ask gives."""
    for dim in ("ARQ", "MRQ", "ART", "MRT"):
        alone = eight_companies.fundamentals(TICKERS, ["total_assets"], dimension=dim, as_of=AS_OF)
        wide = tables[dim]
        assert set(alone["ticker"]) == set(wide["ticker"]) - ({"0001997711", "0001046179"} if dim.endswith("Q")
                                                            else set()), dim
        both = alone.merge(wide, on=["ticker", "fiscal_period", "reportperiod"], suffixes=("", "_wide"))
        assert len(both) >= len(wide) // 2, dim
        assert (both["total_assets"].fillna(-1) == both["total_assets_wide"].fillna(-1)).all(), dim


def test_the_first_reported_rows_are_the_same_a_company_at_a_time(eight_companies, tables, monkeypatch):
    """The as-first-reported dimensions compute their events panel RUN entities at a time: one at a time gives the
    same rows (the annual filers' years as TTM included)."""
    monkeypatch.setattr(fundamentals, "RUN", 1)
    for dim in ("ARQ", "ART"):
        alone = eight_companies.fundamentals(TICKERS, METRICS, dimension=dim, as_of=AS_OF)
        pd.testing.assert_frame_equal(alone, tables[dim])
