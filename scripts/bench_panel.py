"""Benchmark: a backtest panel (tickers × month ends × concepts) from store.panel against the course's pandas
approach, in one run.

The course answers each cell on its own: a boolean mask over every raw XBRL row for the facts of that ticker
and concept accepted before the date, then the newest 3-month period (or instant) and its latest value. We
time that on a random sample of cells and extrapolate to the whole panel (all of it would take hours);
store.panel answers every cell in one set-based query, once without and once with the trailing twelve
months. Cells of the sample are checked equal where both approaches answer the same reported quarter.

    python scripts/bench_panel.py                    # 3,000 tickers × 120 month ends × 5 concepts
    python scripts/bench_panel.py --companies 300    # a quick run
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402
from factstore.demo.data import generate  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=3000, help="fictitious companies (one ticker each)")
    parser.add_argument("--months", type=int, default=120, help="month ends, up to June 2024")
    parser.add_argument("--pandas-sample", type=int, default=200, help="cells timed with pandas")
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
        print(f"\nratio, store.panel vs pandas: {pandas_s * cells / panel_s:,.0f}x "
              f"(with TTM: {pandas_s * cells / ttm_s:,.0f}x)")
        store.close()


if __name__ == "__main__":
    main()
