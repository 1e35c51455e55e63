"""Benchmark: metrics instead of tags, in one run over the ~12M-fact synthetic store (3,000 companies).

- The panel of today, one column per XBRL tag, against the metric panel (each cell the newest period across all of
  a metric's tags): 3,000 tickers × 120 month ends × 10 metrics (the goal: ≤ 60 s). The per-tag panel's stale
  cells (a revenue tag's newest quarter older than the newest quarter under the company's other revenue tag) are
  counted beside the metric panel's (none).
- `fundamentals` (ARQ and MRQ) for the same companies and metrics, each against the metric panel's time (#45's
  goal: ≤ 2×).
- `fact(metric)` against a bare point query on the reports table for the same figure under the tag it was
  reported under (the goal: ≤ 3×; #45's: ≤ 1.5×), interleaved call by call.

    python scripts/bench_metrics.py                             # 3,000 companies (~12M facts)
    python scripts/bench_metrics.py --companies 300             # a quick run
    python scripts/bench_metrics.py --store /tmp/bench.duckdb   # keep the loaded store, reuse it next time
    python scripts/bench_metrics.py --store /tmp/bp3000/market.duckdb  # a market store (bench_panel.py makes one)
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402
from factstore.demo.data import generate  # noqa: E402

METRICS = ["revenue", "cost_of_revenue", "operating_income", "net_income", "eps_basic", "total_assets",
           "total_liabilities", "equity", "cash", "eps_diluted"]
BARE = ("SELECT arg_max({'value': value, 'filing_id': filing_id, 'accepted_at': accepted_at}, (accepted_at, "
        "filing_id)) FROM reports WHERE entity_id = ? AND concept = ? AND period_end = ? "
        "AND period_start IS NOT DISTINCT FROM ? AND accepted_at <= ?")


def timed(what: str, run):
    t = time.perf_counter()
    out = run()
    spent = time.perf_counter() - t
    print(f"{what}: {spent:.1f}s")
    return out, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=3000, help="fictitious companies (3000 -> ~12M facts)")
    parser.add_argument("--extra-concepts", type=int, default=40, help="extra line items per filing")
    parser.add_argument("--months", type=int, default=120, help="month ends, up to June 2024")
    parser.add_argument("--lookups", type=int, default=300, help="fact(metric) calls timed against a bare query")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", type=Path, help="store file: loaded when missing, reused when there (same args)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or Path(tmp) / "bench.duckdb"
        if not path.exists():
            data = generate(companies=args.companies, extra_concepts=args.extra_concepts, html=False)
            paths = data.write(tmp)
            with factstore.open(path) as store:
                timed(f"load {len(data.xbrl):,} facts", lambda: store.load_course(xbrl=paths["xbrl"],
                                                                                 documents=paths["documents"]))
        factstore.open(path).close()  # a reused store made by another version is brought up to date
        store = factstore.open(path, read_only=True)
        print(f"store: {store.sql('SELECT count(*) AS n FROM reports')['n'][0]:,} facts")
        tickers = store.sql("SELECT entity_id FROM entities ORDER BY 1")["entity_id"].tolist()
        dates = pd.date_range(end="2024-06-30", periods=args.months, freq="ME")
        tags = [c for m in METRICS for c in store.resolve_concepts(m)
                if c in set(store.sql("SELECT concept FROM concepts")["concept"])]
        print(f"panel: {len(tickers):,} tickers × {len(dates)} month ends × {len(METRICS)} metrics "
              f"({len(tags)} tags)")

        by_tag, tag_s = timed("per-tag panel (today's)", lambda: store.panel(tickers, tags, dates))
        by_metric, metric_s = timed("metric panel", lambda: store.panel(tickers, METRICS, dates))
        print(f"ratio metric panel / per-tag panel: {metric_s / tag_s:.2f}x; "
              f"{metric_s / (len(tickers) * len(dates) * len(METRICS)) * 1e6:.1f} us/cell")
        revenue = [c for c in store.resolve_concepts("revenue") if c in tags]
        cells = by_tag[by_tag["concept"].isin(revenue)].pivot_table(index=["date", "ticker"], columns="concept",
                                                                     values="period_end", aggfunc="first")
        newest = cells.max(axis=1)
        stale = int(sum((cells[c].notna() & (cells[c] < newest)).sum() for c in cells.columns))
        mine = by_metric[by_metric["concept"] == "revenue"].set_index(["date", "ticker"])["period_end"]
        print(f"revenue cells older than the newest quarter under another revenue tag: per-tag panel {stale:,}, "
              f"metric panel {int((mine.reindex(newest.index) < newest).sum()):,}")

        for dim in ("ARQ", "MRQ"):
            rows, dim_s = timed(f"fundamentals {dim}", lambda dim=dim: store.fundamentals(tickers, METRICS,
                                                                                          dimension=dim))
            print(f"  {len(rows):,} rows; {dim} / metric panel: {dim_s / metric_s:.2f}x (#45's goal: <= 2x); "
                  f"peak RSS so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.1f} GB")

        rng = np.random.default_rng(args.seed)
        picks = by_metric[by_metric["value"].notna() & by_metric["period_start"].notna() & ~by_metric["derived"]]
        picks = picks.iloc[rng.choice(len(picks), min(args.lookups, len(picks)), replace=False)]
        spent = {"fact(metric)": 0.0, "bare point query": 0.0}
        for round_no in range(2):
            for c in picks.itertuples():
                as_of = (c.date - pd.Timedelta(seconds=1)).to_pydatetime()
                start, end = c.period_start.date(), c.period_end.date()
                t = time.perf_counter()
                f = store.fact(c.ticker, c.concept, start=start, end=end, as_of=as_of)
                fact_s = time.perf_counter() - t
                t = time.perf_counter()
                bare = store.con.execute(BARE, [c.ticker, c.tag, end, start, as_of]).fetchone()[0]
                bare_s = time.perf_counter() - t
                if f is None or bare is None or f.value != bare["value"]:
                    raise SystemExit(f"fact(metric) and the bare query disagree on {c}")
                if round_no:  # the first round warms up
                    spent["fact(metric)"] += fact_s
                    spent["bare point query"] += bare_s
        n, mine, bare = len(picks), spent["fact(metric)"], spent["bare point query"]
        print(f"fact(metric): {mine / n * 1e3:.2f} ms/lookup; bare point query: {bare / n * 1e3:.2f} ms; "
              f"ratio {mine / bare:.2f}x (#45's goal: <= 1.5x)")
        store.close()


if __name__ == "__main__":
    main()
