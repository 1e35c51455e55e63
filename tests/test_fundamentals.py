"""factstore/fundamentals.py: SF1-shaped rows on the real companies, each value what fact() gives for its period
as known at the row's moment (datekey for the as-first-reported dimensions, as_of for the most recent), the
trailing twelve months the sum of their quarters, the annual filers present, derived metrics from their rows."""

from __future__ import annotations

import pandas as pd
import pytest

import factstore
from tests import samples

SECOND = pd.Timedelta(seconds=1)
AS_OF = pd.Timestamp("2025-06-30")
TICKERS = ["AAPL", "NVDA", "0001652044", "0001318605", "0001046179", "0001997711"]
METRICS = ["revenue", "net_income", "total_assets", "equity", "operating_cash_flow", "capex", "free_cash_flow"]
REPORTED = METRICS[:-1]


@pytest.fixture(scope="module")
def tables(eight_companies):
    return {dim: eight_companies.fundamentals(TICKERS, METRICS, dimension=dim, as_of=AS_OF)
            for dim in ("ARQ", "ARY", "ART", "MRQ", "MRY", "MRT")}


def _cells(frame: pd.DataFrame, n: int) -> list[tuple]:
    long = frame.melt(id_vars=["ticker", "fiscal_period", "datekey", "unit"], value_vars=REPORTED,
                      var_name="metric").dropna(subset=["value"])
    return list(long.sample(min(n, len(long)), random_state=3).itertuples(index=False))


@pytest.mark.parametrize("dim", ["ARQ", "ARY", "MRQ", "MRY"])
def test_each_value_is_fact_as_known_at_the_rows_moment(eight_companies, tables, dim):
    s, rows = eight_companies, tables[dim]
    assert (rows["datekey"] <= AS_OF).all() and (rows["lastupdated"] <= AS_OF).all()
    accepted = set(s.sql("SELECT accepted_at FROM filings")["accepted_at"])
    assert set(rows["datekey"]) <= accepted  # a filing's acceptance, to the second
    for cell in _cells(rows, 40):
        moment = cell.datekey if dim.startswith("AR") else AS_OF
        f = s.fact(cell.ticker, cell.metric, period=cell.fiscal_period, as_of=moment)
        assert f is not None and f.value == cell.value, cell
        if dim.startswith("AR"):  # first reported then: not known a second before (or known otherwise)
            before = s.fact(cell.ticker, cell.metric, period=cell.fiscal_period, as_of=cell.datekey - SECOND)
            assert before is None or before.accepted_at < f.accepted_at, cell


@pytest.mark.parametrize(("dim", "moment"), [("ART", "datekey"), ("MRT", "as_of")])
def test_trailing_twelve_months_are_four_quarters(eight_companies, tables, dim, moment):
    s, rows = eight_companies, tables[dim]
    flows = rows[rows["revenue"].notna() & rows["fiscal_period"].str.contains("Q")]
    assert len(flows) > 40
    for row in flows.sample(12, random_state=5).itertuples():
        at = row.datekey if moment == "datekey" else AS_OF
        year, q = int(row.fiscal_period[:4]), int(row.fiscal_period[-1])
        labels = [f"{year - (q - k <= 0)}Q{(q - k - 1) % 4 + 1}" for k in range(4)]
        quarters = [s.fact(row.ticker, "revenue", period=label, as_of=at) for label in labels]
        assert sum(f.value for f in quarters) == pytest.approx(row.revenue), (row.ticker, labels)


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
