"""Issue #44, items 17 and 18: the trailing twelve months of a per-share figure or a share count (the fiscal year's
reported figure where the twelve months end with the year, refused elsewhere: never a sum of quarters), and the
precision of the acceptance times a fundamentals row rests on. Two small generated companies, the same figures,
one tagging no fourth-quarter EPS (as filers do now), the other tagging it (its quarters' EPS sum to 0.05 more than
the year's); and Alphabet's real companyfacts."""

from __future__ import annotations

import json
import math
from datetime import date, timedelta
from pathlib import Path

import pandas as pd
import pytest

import factstore
from factstore import cli, metrics, vocabulary
from factstore.errors import NotFound

YEARS = (2023, 2024, 2025)
EPS, SHARES, REVENUE = "EarningsPerShareBasic", "WeightedAverageNumberOfSharesOutstandingBasic", "Revenues"


def _eps(year: int, q: int) -> float:
    return round(1 + 0.1 * q + (year - 2023), 2)


def _year_eps(year: int) -> float:
    """The year's reported EPS: not the sum of its quarters' (EPS does not add up)."""
    return round(sum(_eps(year, q) for q in range(1, 5)) - 0.05, 2)


def _quarter_end(year: int, q: int) -> date:
    return (pd.Timestamp(year, 3 * q, 1) + pd.offsets.MonthEnd(0)).date()


def _quarter_start(year: int, q: int) -> date:
    return date(year, 3 * q - 2, 1)


def _company(cik: int, q4: bool) -> tuple[dict, list[tuple[str, date]]]:
    """A calendar-year filer's companyfacts: 10-Qs with three-month revenue, basic EPS and weighted shares, 10-Ks
    with the years' (and, with q4, the fourth quarter's three months too); and its filings (accession, filed)."""
    facts: dict[str, list[dict]] = {EPS: [], SHARES: [], REVENUE: []}
    filings = []

    def add(accn: str, form: str, filed: date, start: date, end: date, eps: float, shares: float,
            revenue: float) -> None:
        for concept, value in ((EPS, eps), (SHARES, shares), (REVENUE, revenue)):
            facts[concept].append({"start": start.isoformat(), "end": end.isoformat(), "val": value, "accn": accn,
                                   "form": form, "filed": filed.isoformat()})

    n = 0
    for year in YEARS:
        for q in range(1, 5):
            n += 1
            accn = f"{cik:010d}-{year % 100:02d}-{n:06d}"
            end = _quarter_end(year, q)
            filed = end + timedelta(days=40)
            if q < 4:
                add(accn, "10-Q", filed, _quarter_start(year, q), end, _eps(year, q), 1000 - q, 100 * year + q)
                if q4 and (year, q) == (2024, 2):  # its 2024Q1 EPS restated in the 2024Q2 10-Q
                    facts[EPS].append({"start": "2024-01-01", "end": "2024-03-31", "val": _eps(2024, 1) + 0.01,
                                       "accn": accn, "form": "10-Q", "filed": filed.isoformat()})
            elif year < YEARS[-1]:
                add(accn, "10-K", filed, date(year, 1, 1), end, _year_eps(year), 990,
                    sum(100 * year + k for k in range(1, 5)))
                if q4:
                    add(accn, "10-K", filed, _quarter_start(year, 4), end, _eps(year, 4), 996, 100 * year + 4)
            else:
                continue
            filings.append((accn, filed))
    units = {EPS: "USD/shares", SHARES: "shares", REVENUE: "USD"}
    return ({"cik": cik, "entityName": f"Co {cik}", "facts": {"us-gaap": {
        c: {"label": c, "units": {units[c]: rows}} for c, rows in facts.items()}}}, filings)


def _submissions(cik: int, ticker: str, filings: list[tuple[str, date]]) -> dict:
    """Submissions giving each filing's acceptance to the second (14:00 UTC on its filing day)."""
    return {"cik": f"{cik:010d}", "name": ticker, "tickers": [ticker], "filings": {"recent": {
        "accessionNumber": [a for a, _ in filings], "filingDate": [d.isoformat() for _, d in filings],
        "form": ["10-K" if d.month < 3 else "10-Q" for _, d in filings],
        "acceptanceDateTime": [f"{d.isoformat()}T14:00:00.000Z" for _, d in filings],
        "reportDate": [""] * len(filings), "primaryDocument": ["x.htm"] * len(filings),
        "isXBRL": [1] * len(filings)}, "files": []}}


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    """NOQ (no fourth-quarter EPS) loaded without submissions: every acceptance is a filing day's fallback; WITHQ
    (fourth quarters tagged) with submissions for all but its 2024Q2 10-Q."""
    folder = tmp_path_factory.mktemp("trust_fundamentals")
    with factstore.open(folder / "store.duckdb") as s:
        for cik, ticker, q4 in ((1001, "NOQ", False), (1002, "WITHQ", True)):
            doc, filings = _company(cik, q4)
            path = folder / f"CIK{cik:010d}.json"
            path.write_text(json.dumps(doc))
            subs = None
            if q4:
                subs = folder / f"sub{cik}.json"
                shown = [f for f in filings if f[1] != _quarter_end(2024, 2) + timedelta(days=40)]
                subs.write_text(json.dumps(_submissions(cik, ticker, shown)))
            s.load_companyfacts(path, [subs] if subs else None, progress=False)
    return folder / "store.duckdb"


@pytest.fixture(scope="module")
def store(two):
    with factstore.open(two, read_only=True) as s:
        yield s


def _at(frame: pd.DataFrame, entity: str, period: str) -> pd.Series:
    rows = frame[(frame["entity_id"] == entity) & (frame["fiscal_period"] == period)]
    assert len(rows) == 1, (entity, period, frame[["entity_id", "fiscal_period"]].to_string())
    return rows.iloc[0]


NOQ, WITHQ = "0000001001", "0000001002"


# ------------------------------------------------------------------------------------------ 17: TTM per share
@pytest.mark.parametrize("dim", ["MRT", "ART"])
def test_twelve_months_ending_with_the_year_are_the_years_eps_and_shares(store, dim):
    """At a fiscal year's fourth quarter the TTM EPS and weighted shares are the year's reported figures (it was
    NaN without a fourth-quarter EPS, and the four quarters' sum, 4x the shares, with one); money still adds up."""
    rows = store.fundamentals([NOQ, WITHQ], ["eps_basic", "shares_weighted_basic", "revenue"], dimension=dim)
    for entity in (NOQ, WITHQ):
        for year in (2023, 2024):
            row = _at(rows, entity, f"{year}Q4")
            assert row["eps_basic"] == _year_eps(year), (entity, year)
            assert row["shares_weighted_basic"] == 990, (entity, year)
            assert row["revenue"] == sum(100 * year + k for k in range(1, 5))


@pytest.mark.parametrize("dim", ["MRT", "ART"])
def test_other_twelve_months_of_eps_are_refused_never_summed(store, dim):
    """Twelve months not ending with a fiscal year: no EPS or weighted shares (a sum of four quarters' EPS is not
    the twelve months' EPS, a sum of weighted shares four times the count), though the revenue adds up."""
    rows = store.fundamentals(WITHQ, ["eps_basic", "shares_weighted_basic", "revenue"], dimension=dim)
    for period in ("2024Q1", "2024Q2", "2024Q3", "2025Q1"):
        row = _at(rows, WITHQ, period)
        assert math.isnan(row["eps_basic"]) and math.isnan(row["shares_weighted_basic"]), period
        assert row["revenue"] > 0


def test_the_feeds_ttm_of_eps_is_never_a_sum_of_quarters(store):
    """The backtest panel's TTM of a per-share figure or a share count is NULL (refused), a flow's the sum."""
    dates = [pd.Timestamp("2024-06-01"), pd.Timestamp("2025-03-01"), pd.Timestamp("2025-06-01")]
    panel = store.panel([WITHQ], [EPS, SHARES, REVENUE], dates, ttm=True)
    assert panel.loc[panel["concept"] == REVENUE, "ttm"].notna().all()
    assert panel.loc[panel["concept"] != REVENUE, "ttm"].isna().all()


def test_ask_and_fact_read_the_twelve_months_ending_with_the_year_as_the_year(store):
    """The figure ask answers for TTM to a fiscal year's fourth quarter: the year's reported EPS, said so in the
    formula and a note; to another quarter: refused, saying why (it was 'USD/shares values do not add up' for
    both); a figure derived by its formula: over its terms' twelve months."""
    got = metrics.figure(store.db, NOQ, vocabulary.named("eps_basic"), "TTM2024Q4", None)
    assert (got.value, got.period, got.formula) == (_year_eps(2024), "TTM2024Q4", "FY2024")
    assert got.start == date(2024, 1, 1) and any("fiscal year 2024" in n for n in got.notes), got
    with pytest.raises(NotFound, match="per-share figure does not add up"):
        metrics.figure(store.db, WITHQ, vocabulary.named("eps_basic"), "TTM2025Q1", None)
    per_share = metrics.figure(store.db, WITHQ, vocabulary.named("sales_per_share"), "TTM2024Q4", None)
    assert per_share.value == pytest.approx(sum(100 * 2024 + k for k in range(1, 5)) / 990)
    answer = store.ask(f"What was {NOQ}'s TTM basic EPS through Q4 2024?")
    assert answer.value == _year_eps(2024), answer.explanation
    assert "FY2024" in answer.explanation, answer.explanation
    refused = store.ask(f"What was {WITHQ}'s TTM basic EPS through Q2 2024?")
    assert refused.value is None and "per-share" in refused.explanation, refused.explanation
    revenue = metrics.figure(store.db, WITHQ, vocabulary.named("revenue"), "TTM2024Q2", None)
    assert revenue.value == sum(100 * y + q for y, q in ((2023, 3), (2023, 4), (2024, 1), (2024, 2)))


# --------------------------------------------------------------------------------- 18: acceptance precision
@pytest.mark.parametrize("dim", ["ARQ", "MRQ", "MRY", "MRT", "ART"])
def test_a_row_resting_on_a_filing_days_fallback_says_so(store, dim):
    """accepted_precision: 'date' where a time of the row (its filing at datekey or a value's) is a filing day's
    end of day (NOQ: no submissions; WITHQ's 2024Q2 10-Q was not in its submissions, and restated its 2024Q1 EPS:
    the most recent 2024Q1 rests on it), else 'second'."""
    rows = store.fundamentals([NOQ, WITHQ], ["revenue", "eps_basic"], dimension=dim).set_index(
        ["entity_id", "fiscal_period"])
    assert list(rows.columns).index("accepted_precision") == list(rows.columns).index("lastupdated") + 1
    assert (rows.loc[NOQ, "accepted_precision"] == "date").all()
    year = dim.endswith("Y")
    assert rows.loc[(WITHQ, "FY2024" if year else "2024Q4"), "accepted_precision"] == "second"
    if not year:
        assert rows.loc[(WITHQ, "2024Q2"), "accepted_precision"] == "date"
        assert rows.loc[(WITHQ, "2024Q1"), "accepted_precision"] == ("date" if dim == "MRQ" else "second")


def test_a_fact_says_how_exact_its_times_are(store, capsys):
    """fact(): the coarsest precision of its filing and its parts' ('date' for a quarter derived from a year or nine
    months whose filing is known by its day only), and the CLI says so."""
    assert store.fact(NOQ, REVENUE, period="2024Q3").accepted_precision == "date"
    assert store.fact(WITHQ, REVENUE, period="2024Q3").accepted_precision == "second"
    assert store.fact(WITHQ, REVENUE, period="2024Q2").accepted_precision == "date"
    cli.main(["fact", NOQ, REVENUE, "--period", "2024Q3", "--db", str(store.db.path)])
    assert "accepted time known to the date only" in capsys.readouterr().out


def test_a_quarter_derived_from_a_part_known_by_its_day_only_says_so_everywhere():
    """Q4 = FY - 9M, the year's 10-K stamped to the second, the nine months' 10-Q by its filing day only: fact(),
    fundamentals (ARQ, MRQ) and the panel all say 'date' (fundamentals and the panel had said 'second', the
    10-K's alone; found by an outside probe)."""
    ten_k, ten_q = "0000004242-25-000001", "0000004242-24-000003"
    rows = [("2024-01-01", "2024-12-31", 500, ten_k, "10-K", "2025-02-20"),
            ("2024-01-01", "2024-09-30", 350, ten_q, "10-Q", "2024-11-01"),
            ("2024-07-01", "2024-09-30", 130, ten_q, "10-Q", "2024-11-01")]
    doc = {"cik": 4242, "entityName": "Part Co", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [
        {"start": a, "end": b, "val": v, "accn": n, "form": f, "filed": d} for a, b, v, n, f, d in rows]}}}}}
    listing = {"accessionNumber": [ten_k], "filingDate": ["2025-02-20"], "form": ["10-K"],
               "acceptanceDateTime": ["2025-02-20T16:05:33.000Z"], "reportDate": ["2024-12-31"],
               "primaryDocument": ["a.htm"], "isXBRL": [1]}
    with factstore.open() as s:
        s.load_companyfacts(doc, [{"cik": "0000004242", "name": "Part Co", "filings": {"recent": listing,
                                                                                        "files": []}}])
        q4 = s.fact("0000004242", REVENUE, period="2024Q4")
        assert (q4.value, q4.derived, q4.accepted_precision) == (150.0, True, "date")
        for dim in ("ARQ", "MRQ"):
            row = _at(s.fundamentals(["0000004242"], ["revenue"], dimension=dim), "0000004242", "2024Q4")
            assert (row["revenue"], row["accepted_precision"]) == (150.0, "date"), dim
        cell = s.panel(["0000004242"], [REVENUE], [pd.Timestamp("2025-03-01")]).iloc[0]
        assert (cell["value"], cell["derived"], cell["accepted_precision"]) == (150.0, True, "date")


def test_the_feed_and_the_cli_json_carry_the_precision(store, two, capsys):
    dates = [pd.Timestamp("2024-09-01"), pd.Timestamp("2024-12-01")]
    panel = store.panel([WITHQ, NOQ], [REVENUE], dates).set_index(["date", "ticker"])
    assert panel.loc[(dates[0], WITHQ), "accepted_precision"] == "date"  # 2024Q2's 10-Q
    assert panel.loc[(dates[1], WITHQ), "accepted_precision"] == "second"
    assert (panel.xs(NOQ, level="ticker")["accepted_precision"] == "date").all()
    cli.main(["fundamentals", NOQ, WITHQ, "--db", str(two), "--metric", "revenue", "--dimension", "MRQ", "--json"])
    records = json.loads(capsys.readouterr().out)
    assert {(r["entity_id"], r["accepted_precision"]) for r in records if r["fiscal_period"] == "2024Q3"} == {
        (NOQ, "date"), (WITHQ, "second")}


# ------------------------------------------------------------------------------------------ Alphabet, real
def _reported_year_eps(real: Path, year: int) -> float:
    """Alphabet's basic EPS for calendar year `year` as its newest filing gives it, read from the raw JSON."""
    doc = json.loads((real / "companyfacts" / "CIK0001652044.json").read_text())
    rows = [r for r in doc["facts"]["us-gaap"][EPS]["units"]["USD/shares"]
            if r.get("start") == f"{year}-01-01" and r["end"] == f"{year}-12-31"]
    return max(rows, key=lambda r: (r["filed"], r["accn"]))["val"]


def test_alphabets_ttm_eps_at_year_end_is_its_reported_years(real, built):
    with factstore.open(built("four-companies"), read_only=True) as s:
        rows = s.fundamentals("0001652044", ["eps_basic", "revenue"], dimension="MRT").set_index("fiscal_period")
        for year in (2024, 2025):
            assert rows.loc[f"{year}Q4", "eps_basic"] == _reported_year_eps(real, year)
        assert rows.loc["2025Q2", "revenue"] > 0 and math.isnan(rows.loc["2025Q2", "eps_basic"])
        answer = s.ask("What was Alphabet's TTM basic EPS through Q4 2024?")
        assert answer.value == _reported_year_eps(real, 2024) == 8.13, answer.explanation
