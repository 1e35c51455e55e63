"""Benchmark the hybrid's costs beside BM25 alone, on the real filings (shared/real/filings), in one run:

- indexing: the `scoped` chunks and their BM25 index (`index`), against their dense vectors (`embed`): seconds,
  chunks a second, and what each costs per filing and per million chunks at that rate;
- queries: `search(strategy="scoped", header=True)` of the real gold questions (data/eval/real_text_questions.jsonl)
  with the vectors fused and with BM25 alone (the same store, its vectors then removed): queries a second.

    python scripts/bench_dense.py [--real ../shared/real] [--store STORE]

`--store` times the queries on a copy of a store that holds the filings' chunks and vectors (e.g. one this script
or `factstore embed` made), and skips the indexing.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import factstore
from factstore.evaluate.ask import REAL_DATA, REAL_FILINGS
from factstore.evaluate.filings import read_text_gold
from factstore.store import FactStore
from factstore.text.index import ranked_by


def indexing(store: FactStore, real: Path) -> None:
    """Load the filings, then time the BM25 index and the vectors of their scoped chunks."""
    for file, given in REAL_FILINGS:
        store.load_filing(real / "filings" / file, progress=False, **given)
    t = time.perf_counter()
    chunks = store.index("scoped", progress=False)
    bm25_s = time.perf_counter() - t
    t = time.perf_counter()
    vectors = store.embed(progress=True)
    dense_s = time.perf_counter() - t
    per_filing = chunks / len(REAL_FILINGS)
    print(f"{chunks:,} scoped chunks of {len(REAL_FILINGS)} filings ({per_filing:,.0f} a filing)")
    print("| | seconds | chunks/s | per filing | per 1M chunks |\n|---|---|---|---|---|")
    for name, n, secs in (("BM25 index (chunking included)", chunks, bm25_s), ("dense vectors", vectors, dense_s)):
        rate = n / secs
        print(f"| {name} | {secs:,.2f} | {rate:,.0f} | {per_filing / rate:,.2f} s | {1e6 / rate:,.0f} s |")
    print(f"dense / BM25 per chunk: {(dense_s / vectors) / (bm25_s / chunks):,.0f}x")


def queries(store: FactStore) -> None:
    """Queries a second over the gold questions, fused and then (vectors removed) with BM25 alone."""
    questions = [q["question"] for q in read_text_gold()]
    rates = {}
    for mode in ("BM25 and dense vectors", "BM25"):
        if mode == "BM25":
            store.db.all("DELETE FROM chunk_vectors")
        store.search(questions[0], k=5, strategy="scoped", header=True)  # the index (and the encoder) read once
        assert ranked_by(store.db, "scoped").startswith(mode), ranked_by(store.db, "scoped")
        t = time.perf_counter()
        for q in questions:
            store.search(q, k=5, strategy="scoped", header=True)
        rates[mode] = len(questions) / (time.perf_counter() - t)
    bm25, hybrid = rates["BM25"], rates["BM25 and dense vectors"]
    print(f"queries/s over {len(questions)} questions: BM25 {bm25:,.1f}, hybrid {hybrid:,.1f} "
          f"(BM25 / hybrid: {bm25 / hybrid:,.1f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", default=str(REAL_DATA), help="the real SEC data (default shared/real)")
    parser.add_argument("--store", help="time the queries on a copy of this store (chunks and vectors), no indexing")
    args = parser.parse_args()
    if args.store:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "copy.duckdb"
            shutil.copyfile(args.store, copy)
            with factstore.open(copy) as store:
                queries(store)
        return
    with factstore.open() as store:
        indexing(store, Path(args.real))
        queries(store)


if __name__ == "__main__":
    main()
