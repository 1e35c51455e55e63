"""Benchmark: a backtest panel (tickers × month ends × concepts) from store.panel against the course's pandas
approach, in one run.

The course answers each cell on its own: a boolean mask over every raw XBRL row for the facts of that ticker
and concept accepted before the date, then the newest 3-month period (or instant) and its latest value. We
time that on a random sample of cells and extrapolate to the whole panel (all of it would take hours);
store.panel answers every cell in one set-based query, once without and once with the trailing twelve
months. Cells of the sample are checked equal where both approaches answer the same reported quarter, and
another sample of cells is checked whole (derived quarters and TTM too) against the brute-force oracle of the
tests (tests/oracle.py: every quarter rebuilt from the raw rows known a microsecond before the date).

    python scripts/bench_panel.py                    # 3,000 tickers × 120 month ends × 5 concepts
    python scripts/bench_panel.py --companies 300    # a quick run
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402
from factstore.demo.data import generate  # noqa: E402
from tests import oracle  # noqa: E402

CONCEPTS = ["Revenues", "NetIncomeLoss", "OperatingIncomeLoss", "Assets", "EarningsPerShareBasic"]


def pandas_cell(df: pd.DataFrame, ticker: str, concept: str, date: pd.Timestamp) -> tuple[pd.Timestamp, float] | None:
    """The course's approach for one cell: mask the facts known before the date, keep 3-month periods (or
    instants), take the newest period and its value from the latest filing; (period_end, value) or None."""
    hits = df[(df["ticker"] == ticker) & (df["concepto"] == concept) & (df["ts_presentacion"] < date)]
    days = (hits["periodo_fin"] - hits["periodo_inicio"]).dt.days + 1
    hits = hits[hits["periodo_inicio"].isna() | days.between(80, 105)]
    if hits.empty:
        return None
    newest = hits[hits["periodo_fin"] == hits["periodo_fin"].max()].sort_values(["ts_presentacion", "id_doc"])
    return newest["periodo_fin"].iloc[-1], float(newest["valor"].iloc[-1])


def oracle_mismatches(data, cells: pd.DataFrame) -> list[str]:
    """The cells (of a panel with TTM) whose every field is not the oracle's: the quarters of the raw rows known
    just before the date, the newest, and the sum of the newest four when consecutive (as tests/test_feed.py)."""
    docs = data.documents[data.documents["ticker"].isin(set(cells["ticker"]))]
    reports = oracle.course_reports(data.xbrl[data.xbrl["id_doc"].isin(set(docs["id_doc"]))], docs)
    by_ticker: dict[str, list[oracle.Report]] = {}
    for r in reports:
        by_ticker.setdefault(r.entity, []).append(r)
    calendar = oracle.reported_calendar(reports)
    wrong = []
    for cell in cells.itertuples():
        want = oracle.panel_cell(by_ticker[cell.ticker], calendar, cell.ticker, cell.concept,
                                 cell.date.to_pydatetime(), "as_of")
        got = None if pd.isna(cell.value) else (cell.fiscal_period, cell.period_start, cell.period_end, cell.value,
                                                cell.accepted_at, cell.derived)
        same = got is None if want is None else got == (
            want["fiscal_period"], pd.Timestamp(want["period_start"]), pd.Timestamp(want["period_end"]),
            want["value"], want["accepted_at"], want["derived"]) and (
            pd.isna(cell.ttm) if want["ttm"] is None else math.isclose(cell.ttm, want["ttm"], rel_tol=1e-12))
        if not same:
            wrong.append(f"{cell.ticker} {cell.concept} {cell.date:%Y-%m-%d}")
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=3000, help="fictitious companies (one ticker each)")
    parser.add_argument("--months", type=int, default=120, help="month ends, up to June 2024")
    parser.add_argument("--pandas-sample", type=int, default=200, help="cells timed with pandas")
    parser.add_argument("--oracle-sample", type=int, default=300, help="cells checked whole against the oracle")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t = time.perf_counter()
    data = generate(companies=args.companies, html=False)
    print(f"generated {len(data.xbrl):,} facts in {len(data.documents):,} filings ({time.perf_counter() - t:.1f}s)")
    with tempfile.TemporaryDirectory() as tmp:
        paths = data.write(tmp)
        store = factstore.open(Path(tmp) / "bench.duckdb")
        t = time.perf_counter()
        store.load_course(xbrl=paths["xbrl"], documents=paths["documents"])
        print(f"loaded in {time.perf_counter() - t:.1f}s")

        tickers = sorted(data.documents["ticker"].unique())
        dates = pd.date_range(end="2024-06-30", periods=args.months, freq="ME")
        cells = len(tickers) * len(dates) * len(CONCEPTS)
        qualified = ["us-gaap:" + c for c in CONCEPTS]
        print(f"panel: {len(tickers):,} tickers × {len(dates)} month ends ({dates[0]:%Y-%m} to {dates[-1]:%Y-%m}) "
              f"× {len(CONCEPTS)} concepts = {cells:,} cells")

        t = time.perf_counter()
        panel = store.panel(tickers, qualified, dates)
        panel_s = time.perf_counter() - t
        print(f"store.panel: {panel_s:.1f}s = {panel_s / cells * 1e6:,.1f} us/cell "
              f"({panel['value'].notna().sum():,} cells with a known quarter)")
        t = time.perf_counter()
        with_ttm = store.panel(tickers, qualified, dates, ttm=True)
        ttm_s = time.perf_counter() - t
        print(f"store.panel(ttm=True): {ttm_s:.1f}s ({with_ttm['ttm'].notna().sum():,} cells with a TTM)")

        xbrl = data.xbrl.merge(data.documents[["id_doc", "ticker"]], on="id_doc")
        xbrl["ts_presentacion"] = xbrl["ts_presentacion"].dt.tz_convert("UTC").dt.tz_localize(None)
        rng = np.random.default_rng(args.seed)
        sample = panel.iloc[rng.choice(len(panel), min(args.pandas_sample, len(panel)), replace=False)]
        t = time.perf_counter()
        expected = [pandas_cell(xbrl, c.ticker, c.concept, c.date) for c in sample.itertuples()]
        pandas_s = (time.perf_counter() - t) / len(sample)
        print(f"pandas mask (course approach): {len(sample)} of {cells:,} cells timed, {pandas_s * 1e3:,.1f} ms/cell; "
              f"all {cells:,} would take ~{pandas_s * cells / 3600:,.1f} h (extrapolated)")

        compared = same = 0
        for cell, want in zip(sample.itertuples(), expected, strict=True):
            if want is None or pd.isna(cell.value) or cell.derived or cell.period_end != want[0]:
                continue  # not the same reported quarter (none known, or the panel's is a derived Q4)
            compared += 1
            same += cell.value == want[1]
        print(f"sample cells answering the same reported quarter: {compared}, identical: {same}")
        if same != compared:
            raise SystemExit("store.panel and pandas disagree")
        wrong = oracle_mismatches(data, with_ttm.iloc[rng.choice(len(with_ttm), args.oracle_sample, replace=False)])
        print(f"cells (TTM, derived quarters too) checked against the brute-force oracle: {args.oracle_sample}, "
              f"different: {len(wrong)}")
        if wrong:
            raise SystemExit(f"store.panel and the oracle disagree, e.g. {wrong[0]}")
        print(f"\nratio, store.panel vs pandas: {pandas_s * cells / panel_s:,.0f}x "
              f"(with TTM: {pandas_s * cells / ttm_s:,.0f}x)")
        store.close()


if __name__ == "__main__":
    main()
