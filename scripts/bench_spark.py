"""Benchmark: the backtest panel of one published snapshot from the store (store.panel on factstore.open(TARGET))
against factstore.spark.panel collected to the driver (toArrow), at 1 and 2 local cores, in one run.

Demo data with more companies (as scripts/bench_panel.py), published once; each figure is the best of --repeat
runs after one warm-up run (Spark's first job starts its Python workers). The Spark panel is checked equal to the
store's on every cell (types, values and order).

    python scripts/bench_spark.py                    # 600 tickers × 120 month ends × 5 concepts
    python scripts/bench_spark.py --companies 100    # a quick run
    python scripts/bench_spark.py --store m.duckdb --cores 2 --concepts us-gaap:Revenues,us-gaap:Assets
                                                     # a market store (scripts/make_market.py), published first
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402
from factstore import spark as fs  # noqa: E402
from factstore.demo.data import generate  # noqa: E402

CONCEPTS = ["us-gaap:" + c for c in ("Revenues", "NetIncomeLoss", "OperatingIncomeLoss", "Assets",
                                     "EarningsPerShareBasic")]


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of `repeat` runs (seconds) and the last result."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - t)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=600, help="fictitious companies (one ticker each)")
    parser.add_argument("--months", type=int, default=120, help="month ends, up to June 2024")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each, the best kept")
    parser.add_argument("--ttm", action="store_true", help="with the trailing twelve months")
    parser.add_argument("--store", type=Path, help="a store to publish and read (e.g. a make_market.py market's) "
                                                   "instead of generated demo data: every entity in it")
    parser.add_argument("--concepts", help="comma-separated concepts (default: five us-gaap ones)")
    parser.add_argument("--cores", default="1,2", help="Spark local cores to run, comma-separated (default 1,2)")
    parser.add_argument("--spark-memory", default="1g", help="Spark's driver memory, which local mode's executors "
                        "share (default 1g, Spark's own; 3,000 companies' panel needs more)")
    args = parser.parse_args()
    concepts = args.concepts.split(",") if args.concepts else CONCEPTS
    cores_run = [int(c) for c in args.cores.split(",")]
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # Spark's workers run this interpreter
    warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
    from pyspark.sql import SparkSession

    t = time.perf_counter()
    dates = pd.date_range(end="2024-06-30", periods=args.months, freq="ME")
    with tempfile.TemporaryDirectory() as tmp:
        if args.store:
            with factstore.open(args.store, read_only=True) as live:
                tickers = [e for (e,) in live.db.all("SELECT entity_id FROM entities ORDER BY entity_id")]
                published = live.publish(tmp)
        else:
            data = generate(companies=args.companies, html=False)
            tickers = sorted(data.documents["ticker"].unique())
            with factstore.open() as live:
                live.load_course(xbrl=data.xbrl, documents=data.documents, progress=False)
                published = live.publish(tmp)
        cells = len(tickers) * len(dates) * len(concepts)
        print(f"published {published.rows['reports']:,} reports of {len(tickers):,} companies "
              f"({time.perf_counter() - t:.1f}s); panel: {len(tickers):,} tickers × {len(dates)} month "
              f"ends × {len(concepts)} concepts = {cells:,} cells{' with TTM' if args.ttm else ''}")

        with factstore.open(tmp) as store:  # closed before Spark opens the snapshot on the driver
            store.panel(tickers, concepts, dates, ttm=args.ttm)
            store_s, _ = best(lambda: store.panel(tickers, concepts, dates, ttm=args.ttm), args.repeat)
            want = store.panel_arrow(tickers, concepts, dates, ttm=args.ttm)
        print(f"store.panel (the snapshot, DuckDB on its Parquet files): {store_s:.2f}s")

        spark_s: dict[int, float] = {}
        for cores in cores_run:
            session = (SparkSession.builder.master(f"local[{cores}]").appName("bench_spark")
                       .config("spark.driver.memory", args.spark_memory)
                       .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                       .getOrCreate())
            session.sparkContext.setLogLevel("ERROR")
            try:
                def run(session: SparkSession = session) -> Any:
                    return fs.panel(session, tmp, tickers, concepts, dates, ttm=args.ttm).toArrow()
                run()
                spark_s[cores], got = best(run, args.repeat)
            finally:
                session.stop()
            same = got.schema.equals(want.schema) and got.equals(want)
            print(f"factstore.spark.panel, local[{cores}], collected: {spark_s[cores]:.2f}s; "
                  f"every cell equal to store.panel: {'yes' if same else 'NO'}")
            if not same:
                raise SystemExit("the Spark panel and store.panel disagree")
        print("\nSpark vs store.panel: " + ", ".join(f"{spark_s[c] / store_s:.1f}x at {c} core(s)" for c in spark_s)
              + (f"; scaling 1 -> 2 cores: {spark_s[1] / spark_s[2]:.2f}x" if {1, 2} <= set(spark_s) else ""))
        print("command: " + " ".join(sys.argv))


if __name__ == "__main__":
    main()
