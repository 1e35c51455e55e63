"""Benchmark: `fundamentals` and `fact()` on a market store, against what #45 measures them by, in one run.

- `fundamentals` ARQ and MRQ for every company of the store and 10 metrics, against `store.panel` of the same
  companies and metrics over 120 month ends (#45's goal: each at most 2x the panel's time);
- `fact()` warm, against a bare DuckDB point query (`arg_max` over `reports`) for the same figures on the same
  store, interleaved call by call (#45's goal: at most 1.5x). Each answer is checked equal to the bare query's.

The store is a make_market.py market loaded as bench_panel.py loads it (`--store`, kept and reused there):

    python scripts/bench_panel.py --companies 3000 --out /tmp/bp3000      # makes /tmp/bp3000/market.duckdb
    python scripts/bench_fundamentals.py --store /tmp/bp3000/market.duckdb
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402

METRICS = ["revenue", "cost_of_revenue", "operating_income", "net_income", "eps_basic", "total_assets",
           "total_liabilities", "equity", "cash", "eps_diluted"]
BARE = ("SELECT arg_max({'value': value, 'filing_id': filing_id}, (accepted_at, filing_id)) FROM reports "
        "WHERE entity_id = ? AND concept = ? AND period_end = ? AND period_start IS NOT DISTINCT FROM ? "
        "AND accepted_at <= ?")


def timed(what: str, run):
    t = time.perf_counter()
    out = run()
    spent = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"{what}: {spent:.2f} s ({len(out):,} rows; peak RSS so far {peak:.1f} GB)")
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True, help="a market store (bench_panel.py makes one)")
    parser.add_argument("--companies", type=int, help="its first N companies (default: all)")
    parser.add_argument("--lookups", type=int, default=300, help="fact() calls timed against the bare query")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    factstore.open(args.store).close()  # a store another version wrote is brought up to date (not timed)
    t = time.perf_counter()
    store = factstore.open(args.store, read_only=True)
    print(f"opened {args.store} read only in {time.perf_counter() - t:.2f} s")
    tickers = store.sql("SELECT entity_id FROM entities ORDER BY 1")["entity_id"].tolist()[:args.companies]
    dates = pd.date_range(end="2025-06-30", periods=120, freq="ME")
    print(f"{len(tickers):,} companies × {len(METRICS)} metrics ({len(tickers) * len(METRICS) * len(dates):,} panel "
          f"cells over {len(dates)} month ends)")
    panel_s = timed("store.panel", lambda: store.panel(tickers, METRICS, dates))
    for dim in ("ARQ", "MRQ"):
        spent = timed(f"fundamentals {dim}", lambda dim=dim: store.fundamentals(tickers, METRICS, dimension=dim))
        print(f"  {dim} / panel: {spent / panel_s:.2f}x (goal <= 2x)")

    picks = store.sql(f"""SELECT * FROM (SELECT entity_id, concept, period_start, period_end, accepted_at
                          FROM reports WHERE period_start IS NOT NULL AND list_contains(?, entity_id))
                          USING SAMPLE reservoir({int(args.lookups)} ROWS) REPEATABLE ({int(args.seed)})""",
                      [tickers])
    spent = {"fact": 0.0, "bare": 0.0}
    for round_no in range(2):  # the first round warms up
        for c in picks.itertuples():
            as_of = (c.accepted_at + pd.Timedelta(days=30)).to_pydatetime()
            start, end = c.period_start.date(), c.period_end.date()
            t = time.perf_counter()
            got = store.fact(c.entity_id, c.concept, start=start, end=end, as_of=as_of)
            fact_s = time.perf_counter() - t
            t = time.perf_counter()
            bare = store.con.execute(BARE, [c.entity_id, c.concept, end, start, as_of]).fetchone()[0]
            bare_s = time.perf_counter() - t
            if got is None or bare is None or (got.value, got.source) != (bare["value"], bare["filing_id"]):
                raise SystemExit(f"fact() and the bare query disagree on {c}: {got} against {bare}")
            if round_no:
                spent["fact"] += fact_s
                spent["bare"] += bare_s
    n = len(picks)
    print(f"fact() warm: {spent['fact'] / n * 1e3:.2f} ms a lookup; bare point query {spent['bare'] / n * 1e3:.2f} "
          f"ms; ratio {spent['fact'] / spent['bare']:.2f}x (goal <= 1.5x; {n} lookups, answers equal)")
    store.close()
    print("command: python " + " ".join(sys.argv))


if __name__ == "__main__":
    main()
