"""Benchmark: loading a full quarter of the SEC's Financial Statement Data Sets (about 3 million num rows) with
store.load_fsds, against the bare parse of its files, in one run. The goal: a quarter loads in under a minute.

A synthetic quarter sized like a real one (factstore.demo.fsds.write_quarter: --submissions, --rows; written to a
temporary folder, zipped as the SEC ships it with --zip; not timed) is then loaded two ways:

  floor  pandas.read_csv of num.txt and sub.txt (sep='\\t', dtype=str; from the zip's members with --zip): the bare
         parse, every field as text, nothing checked or stored
  ours   store.load_fsds(path) into a fresh store file beside it (opened beforehand, not timed), split into read
         (read_fsds: unzip, parse, check, periods, dimensions) and write (one transaction)

It prints rows, seconds and num rows/s of both, the ratio, whether ours is under a minute, and checks that the store
holds one report per non-nil standard-taxonomy num row (custom tags and nil values are left out by design).
No network is used: sockets are blocked for the whole run and any attempt is reported.

    .venv/bin/python scripts/bench_fsds.py                                  # 3,000,000 rows, 6,500 submissions
    .venv/bin/python scripts/bench_fsds.py --rows 300000 --submissions 650 --zip
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from unittest import mock

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402
import factstore.load  # noqa: E402
from factstore.demo.fsds import write_quarter  # noqa: E402
from scripts.bench_ingest import NETWORK_ATTEMPTS, block_network  # noqa: E402

GOAL = 60.0  # seconds for a quarter


def parse(path: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The floor: num.txt and sub.txt read as text by pandas, from the folder or the zip."""
    def read(name: str) -> pd.DataFrame:
        if path.is_dir():
            return pd.read_csv(path / name, sep="\t", dtype=str)
        with zipfile.ZipFile(path) as archive, archive.open(name) as member:
            return pd.read_csv(member, sep="\t", dtype=str)
    return read("num.txt"), read("sub.txt")


def load(store: factstore.FactStore, path: Path) -> tuple[float, float, int]:
    """Ours: seconds for store.load_fsds(path), of which reading (read_fsds), and the reports it added."""
    real_read = factstore.load.read_fsds
    read_s = 0.0

    def timed_read(*args: object, **kwargs: object) -> object:
        nonlocal read_s
        start = time.perf_counter()
        try:
            return real_read(*args, **kwargs)
        finally:
            read_s = time.perf_counter() - start

    with mock.patch.object(factstore.load, "read_fsds", timed_read):
        start = time.perf_counter()
        reports = store.load_fsds(path, progress=False)
        total = time.perf_counter() - start
    return total, read_s, sum(r.reports for r in reports)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=3_000_000, help="num.txt rows of the synthetic quarter")
    parser.add_argument("--submissions", type=int, default=6500, help="submissions (sub.txt rows)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--zip", action="store_true", help="load from the SEC-style zip instead of the folder")
    args = parser.parse_args()
    block_network()
    with tempfile.TemporaryDirectory(prefix="bench-fsds-") as tmp:
        start = time.perf_counter()
        path = write_quarter(Path(tmp) / "2024q4", submissions=args.submissions, rows=args.rows, seed=args.seed,
                             zip_name="2024q4.zip" if args.zip else None)
        made = time.perf_counter() - start
        size = path.stat().st_size if args.zip else sum(f.stat().st_size for f in path.iterdir())
        print(f"synthetic quarter: {args.submissions:,} submissions, {args.rows:,} num rows, "
              f"{'zip' if args.zip else 'folder'} {size / 1e6:,.0f} MB (written in {made:.1f} s, not timed)")

        start = time.perf_counter()
        num, sub = parse(path)
        floor_s = time.perf_counter() - start
        expected = int((num["value"].notna() & (num["version"] != num["adsh"])).sum())
        if len(num) != args.rows or len(sub) != args.submissions:
            sys.exit(f"bench_fsds: pandas read {len(num):,} num and {len(sub):,} sub rows")
        del num, sub

        with factstore.open(Path(tmp) / "fsds.duckdb") as store:
            ours_s, read_s, added = load(store, path)
            stored = int(store.sql("SELECT count(*) AS n FROM reports")["n"][0])
            filings = int(store.sql("SELECT count(*) AS n FROM filings")["n"][0])

    print()
    print(f"{'method':<52} {'seconds':>8} {'num rows':>10} {'rows/s':>11}")
    for name, seconds in (("floor: pandas.read_csv num.txt + sub.txt (dtype=str)", floor_s),
                          ("ours: store.load_fsds into a store file", ours_s),
                          ("  of which read (read_fsds)", read_s),
                          ("  of which write (one transaction)", ours_s - read_s)):
        print(f"{name:<52} {seconds:>8.2f} {args.rows:>10,} {args.rows / seconds:>11,.0f}")
    print()
    print(f"ours / floor: {ours_s / floor_s:.2f}x the floor's time")
    print(f"under a minute: {'yes' if ours_s < GOAL else 'NO'} ({ours_s:.1f} s for {args.rows:,} num rows)")
    print(f"stored: {stored:,} reports ({added:,} reported added), {filings:,} filings; expected {expected:,} reports "
          f"(non-nil standard-taxonomy rows): {'ok' if stored == added == expected else 'MISMATCH'}")
    print(f"network attempts: {len(NETWORK_ATTEMPTS)}" + (f" {NETWORK_ATTEMPTS[:3]}" if NETWORK_ATTEMPTS else ""))
    if not stored == added == expected or filings != args.submissions:
        sys.exit(1)


if __name__ == "__main__":
    main()
