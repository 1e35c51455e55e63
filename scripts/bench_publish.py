"""Benchmark: publishing a store (store.publish) whole, then again after a small update, in one run.

A store of generated facts (the demo generator, --companies; or a copy of --store) is published into a fresh
folder; then one more company is loaded and the store is published again. The second publish keeps the files
of every table that only grew (hard links) and writes only the new rows: the script prints the time and the
bytes written by each publish, the ratio, and checks that the Parquet `reports` rows equal the store's.

    python scripts/bench_publish.py                          # 300 companies, about 1.2M facts
    python scripts/bench_publish.py --store /tmp/facts10m.duckdb  # a copy of a larger store (bench_facts --store)
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402
from factstore.demo.data import generate  # noqa: E402


def new_bytes(snapshot: Path) -> int:
    """Bytes of the snapshot's files that are not links to an older snapshot's."""
    return sum(f.stat().st_size for f in snapshot.rglob("*") if f.is_file() and f.stat().st_nlink == 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=300, help="generated companies (without --store)")
    parser.add_argument("--store", type=Path, help="a store file to copy and publish instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db, target = Path(folder) / "live.duckdb", Path(folder) / "published"
        if args.store:
            shutil.copy(args.store, db)
        with factstore.open(db) as store:
            if not args.store:
                data = generate(companies=args.companies, html=False, extra_concepts=20)
                store.load_course(xbrl=data.xbrl, documents=data.documents, progress=False)
            facts = int(store.sql("SELECT count(*) n FROM reports")["n"][0])
            start = time.perf_counter()
            first = store.publish(target)
            whole = time.perf_counter() - start
            whole_bytes = new_bytes(first.snapshot)
            extra = generate(companies=1, html=False, seed=99)
            extra.xbrl["id_doc"] = "X" + extra.xbrl["id_doc"]
            extra.documents["id_doc"] = "X" + extra.documents["id_doc"]
            extra.documents["ticker"] = "ZZNEW"
            store.load_course(xbrl=extra.xbrl, documents=extra.documents, progress=False)
            added = int(store.sql("SELECT count(*) n FROM reports")["n"][0]) - facts
            start = time.perf_counter()
            second = store.publish(target)
            again = time.perf_counter() - start
            again_bytes = new_bytes(second.snapshot)
            parquet = sum(pq.read_metadata(f).num_rows for f in (second.snapshot / "reports").glob("*.parquet"))
            stored = int(store.sql("SELECT count(*) n FROM reports")["n"][0])
    print(f"store: {facts:,} facts; then one company more: +{added:,} facts")
    print(f"first publish (everything written): {whole:.2f} s, {whole_bytes / 1e6:,.1f} MB")
    print(f"publish after the update: {again:.2f} s, {again_bytes / 1e6:,.2f} MB written; reports: "
          f"{second.reused['reports']:,} rows kept in the previous files, {second.written['reports']:,} written")
    print(f"ratio: the second publish took {again / whole:.2f}x the time and wrote {again_bytes / whole_bytes:.3f}x "
          f"the bytes of the first")
    print(f"Parquet reports rows {parquet:,} = store's {stored:,}: {parquet == stored}")


if __name__ == "__main__":
    main()
