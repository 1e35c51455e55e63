"""Benchmark factstore's text search on synthetic chunks, each figure beside its reference from the same run:

- tokenization: tokenize_columns (whole batches) against tokenize() text by text (the rule, kept for queries;
  on at most --reference-texts texts), checking equal tokens there;
- factstore.text.bm25 against rank_bm25 (BM25Okapi, the baseline it must equal) and bm25s (the lucene variant's
  equal): index build time and queries per second, checking identical top-10 lists wherever both run;
- the stored index (--store-sizes): building it for a store's chunks, then `factstore search` and `ask` each in a
  fresh process against opening the store in a fresh process (`factstore sql`), and against a search that builds
  the index in memory (the store without its index, read-only: how every first search worked before).

Chunks have 40-120 words drawn from a Zipfian vocabulary of ~50k words: the NLTK Spanish and English stop
words take the most frequent ranks, then years and numbers and generated Spanish-looking words (some accented).
Queries are 2-6 non-stop words from the same distribution. Everything is seeded and deterministic. The stores
group the chunks 100 to a document (strategy 'scoped', written directly) and are kept in --store-dir (the
chunks of a size are generated once).

    python scripts/bench_bm25.py --sizes 10000,100000,1000000 --queries 1000 --store-sizes 100000,1000000
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import bm25s
import numpy as np
import pandas as pd
from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_SPANISH
from rank_bm25 import BM25Okapi

import factstore
from factstore.text.bm25 import BM25
from factstore.text.tokenize import normalize, tokenize, tokenize_columns, tokenize_many

T = TypeVar("T")
K = 10
_ONSETS = ["", "b", "c", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "v", "br", "tr", "pl", "ch", "gr", "cr"]
_VOWELS = "aeiou"
_ACCENTED = dict(zip(_VOWELS, "áéíóú", strict=True))
_CODAS = ["", "", "", "n", "s", "r", "l"]


def vocabulary(rng: np.random.Generator, size: int) -> tuple[list[str], np.ndarray, int]:
    """Words by frequency rank (stop words first), their Zipf probabilities (p ~ 1/rank) and the number of
    stop words at the top."""
    stop = list(dict.fromkeys([*STOPWORDS_SPANISH, *STOPWORDS_EN_PLUS]))
    stop = [w for w in stop if w.isalpha()]  # apostrophe forms are split by tokenization anyway
    words = dict.fromkeys(str(y) for y in range(1990, 2031))
    words.update(dict.fromkeys(str(n) for n in rng.integers(0, 100_000, 500)))
    while len(stop) + len(words) < size:
        syllables = "".join(rng.choice(_ONSETS) + rng.choice(list(_VOWELS)) + rng.choice(_CODAS)
                            for _ in range(rng.integers(2, 5)))
        if rng.random() < 0.15:  # one accented vowel
            i = max(i for i, c in enumerate(syllables) if c in _VOWELS)
            syllables = syllables[:i] + _ACCENTED[syllables[i]] + syllables[i + 1:]
        if tokenize(syllables) == [normalize(syllables)]:  # one token, not a stop word
            words[syllables] = None
    content = list(words)
    order = rng.permutation(len(content))
    ranked = stop + [content[i] for i in order]
    weights = 1.0 / np.arange(1, len(ranked) + 1)
    return ranked, weights / weights.sum(), len(stop)


def chunks(rng: np.random.Generator, words: list[str], probs: np.ndarray, n: int) -> list[str]:
    """n texts of 40-120 words."""
    lengths = rng.integers(40, 121, n)
    ids = rng.choice(len(words), size=int(lengths.sum()), p=probs)
    flat = np.array(words, dtype=object)[ids].tolist()
    ends = np.cumsum(lengths).tolist()
    return [" ".join(flat[end - length:end]) for end, length in zip(ends, lengths.tolist(), strict=True)]


def queries(rng: np.random.Generator, words: list[str], probs: np.ndarray, n_stop: int, n: int) -> list[str]:
    """n queries of 2-6 non-stop words (repeats possible)."""
    content = probs[n_stop:] / probs[n_stop:].sum()
    return [" ".join(words[n_stop + i] for i in rng.choice(len(content), size=rng.integers(2, 7), p=content))
            for _ in range(n)]


def timed(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """fn(*args, **kwargs) and its wall time in seconds."""
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


def top_k_each(index: BM25, query_tokens: list[list[str]]) -> np.ndarray:
    """BM25.top_k indices of each query, one call per query."""
    return np.array([index.top_k(q, K)[0] for q in query_tokens])


def top_by_scores(scores: np.ndarray) -> np.ndarray:
    """The K best indices of a full score vector, ties by lower index (the rule BM25.top_k follows)."""
    return np.lexsort((np.arange(len(scores)), -scores))[:K]


def bench(size: int, words: list[str], probs: np.ndarray, n_stop: int, args: argparse.Namespace) -> dict[str, Any]:
    """Time tokenization, builds and queries at one corpus size; check top-10 lists against the references."""
    rng = np.random.default_rng([args.seed, size])
    texts = chunks(rng, words, probs, size)
    query_tokens = [tokenize(q) for q in queries(rng, words, probs, n_stop, args.queries)]
    columns, t_tok = timed(tokenize_columns, texts)
    sample = texts[: args.reference_texts]
    reference, t_ref = timed(list, map(tokenize, sample))
    assert tokenize_many(sample) == reference, "tokenize_columns differs from tokenize"
    del texts, sample, reference
    r: dict[str, Any] = {"size": size, "tokens": len(columns.ids) / size, "tokenize": t_tok,
                         "tok_rate": size / t_tok, "ref_rate": min(size, args.reference_texts) / t_ref}

    ours, r["build"] = timed(BM25, columns)
    corpus = columns.lists()  # for rank_bm25 and bm25s
    each, t_each = timed(top_k_each, ours, query_tokens)
    (many, _), t_many = timed(ours.top_k_many, query_tokens, K)
    assert np.array_equal(each, many), "top_k_many differs from top_k"
    r["qps"], r["qps_many"] = len(query_tokens) / t_each, len(query_tokens) / t_many

    if size <= args.rank_max:
        qs = query_tokens[: args.rank_queries]
        rank, r["rank_build"] = timed(BM25Okapi, corpus)
        rank_scores, t_rank = timed(lambda: [rank.get_scores(q) for q in qs])
        r["rank_qps"] = len(qs) / t_rank
        r["rank_same"] = sum(np.array_equal(top_by_scores(s), t) for s, t in zip(rank_scores, each, strict=False))
        r["rank_checked"] = len(qs)
        r["rank_diff"] = max(float(np.max(np.abs(s - ours.scores(q)))) for q, s in zip(qs, rank_scores, strict=True))
        del rank, rank_scores
    del ours

    lucene, r["lucene_build"] = timed(BM25, columns, idf="lucene")
    del columns
    lucene_top, _ = lucene.top_k_many(query_tokens, K)
    del lucene
    retriever = bm25s.BM25(method="atire", idf_method="lucene", dtype="float64")
    _, r["bm25s_build"] = timed(retriever.index, corpus, show_progress=False)
    bm25s_scores, t_bm25s = timed(lambda: [retriever.get_scores(q) for q in query_tokens])
    r["bm25s_qps"] = len(query_tokens) / t_bm25s
    r["bm25s_same"] = sum(np.array_equal(top_by_scores(s), t) for s, t in zip(bm25s_scores, lucene_top, strict=True))
    return r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="chunk counts, comma separated")
    parser.add_argument("--queries", type=int, default=1000, help="queries for factstore and bm25s")
    parser.add_argument("--rank-queries", type=int, default=100, help="of those, queries for rank_bm25 (slow)")
    parser.add_argument("--rank-max", type=int, default=100_000, help="largest size rank_bm25 runs at")
    parser.add_argument("--reference-texts", type=int, default=100_000,
                        help="texts tokenized one by one with tokenize() for the reference rate")
    parser.add_argument("--store-sizes", default="", help="chunk counts of the stored-index runs, comma separated")
    parser.add_argument("--store-dir", default="/tmp/factstore_bench", help="where the benchmark stores are kept")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per command (median reported)")
    parser.add_argument("--vocabulary", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    words, probs, n_stop = vocabulary(np.random.default_rng(args.seed), args.vocabulary)
    print(f"vocabulary {len(words):,} words, {n_stop} stop words first; {args.queries} queries of 2-6 words, "
          f"{args.rank_queries} of them for rank_bm25 (sizes up to {args.rank_max:,})", flush=True)
    results = []
    for size in (int(s) for s in args.sizes.split(",") if s):
        results.append(r := bench(size, words, probs, n_stop, args))
        print(f"  {size:,} chunks: tokenize {r['tokenize']:.1f} s, build {r['build']:.2f} s, "
              f"top_k {r['qps']:.0f} q/s", flush=True)
    stored = [bench_store(int(s), words, probs, n_stop, args) for s in args.store_sizes.split(",") if s]
    if results:
        report(results, args)
    if stored:
        report_store(stored)


CHUNKS_PER_DOC = 100
ISSUERS = ["Atalaya Renta Fija", "Busmar Hogar", "Rapsa", "Iberia Global", "Norte Capital"]


def synthetic_store(path: Path, texts: list[str]) -> None:
    """A store of documents made of the texts (CHUNKS_PER_DOC each, as paragraphs) and their chunks (strategy
    'scoped', each text a chunk with a section header), written directly; no BM25 index yet."""
    n_docs = -(-len(texts) // CHUNKS_PER_DOC)
    doc = np.arange(len(texts)) // CHUNKS_PER_DOC
    no = np.arange(len(texts)) % CHUNKS_PER_DOC
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    offsets = np.cumsum(lengths + 2) - lengths - 2  # in all texts joined by blank lines
    starts = offsets - offsets[doc * CHUNKS_PER_DOC]
    issuer = [ISSUERS[i % len(ISSUERS)] for i in range(n_docs)]
    year = 2015 + np.arange(n_docs) % 10
    title = [f"{issuer[i]} — Informe anual {year[i]}" for i in range(n_docs)]
    bodies = ["\n\n".join(texts[i * CHUNKS_PER_DOC:(i + 1) * CHUNKS_PER_DOC]) for i in range(n_docs)]
    docs = pd.DataFrame({"doc_id": [f"D{i:07d}" for i in range(n_docs)], "issuer": issuer, "kind": "report",
                         "form": "informe_anual", "year": year, "title": title, "text": bodies})
    chunks = pd.DataFrame({"doc_id": docs["doc_id"].to_numpy()[doc], "chunk_no": no, "start_char": starts,
                           "end_char": starts + lengths, "section": [f"Sección {n // 10 + 1}" for n in no.tolist()],
                           "title": np.array(title, dtype=object)[doc], "text": texts})
    with factstore.open(path) as store:
        with store.frame(docs) as name:
            store.sql(f"""INSERT INTO documents BY NAME SELECT *, make_date(year, 12, 31) AS period_end
                          FROM {name}""", write=True)
        with store.frame(chunks) as name:
            store.sql(f"""INSERT INTO chunks SELECT doc_id, 'scoped', chunk_no,
                              [{{'start_char': start_char, 'end_char': end_char}}], section, 'text',
                              title || ' > ' || section, text FROM {name}""", write=True)


def fresh(args: list[str]) -> float:
    """Wall time of `python -m factstore ARGS` in a fresh process (which must succeed)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "factstore", *args], check=True, capture_output=True)
    return time.perf_counter() - start


def bench_store(size: int, words: list[str], probs: np.ndarray, n_stop: int,
                args: argparse.Namespace) -> dict[str, Any]:
    """Build the stored index of `size` synthetic chunks (timed), then time cold commands in fresh processes."""
    folder = Path(args.store_dir)
    folder.mkdir(parents=True, exist_ok=True)
    plain = folder / f"chunks_{size}_{args.seed}.duckdb"
    if not plain.exists():
        texts = chunks(np.random.default_rng([args.seed, size]), words, probs, size)
        synthetic_store(plain.with_suffix(".tmp"), texts)
        plain.with_suffix(".tmp").rename(plain)
    factstore.open(plain).close()  # brings a store made by an earlier version up to date (no index is made)
    indexed = folder / f"indexed_{size}_{args.seed}.duckdb"
    shutil.copyfile(plain, indexed)
    query = queries(np.random.default_rng([args.seed, size, 1]), words, probs, n_stop, 1)[0]
    with factstore.open(indexed) as store:
        _, t_index = timed(store.search, query, strategy="scoped")  # a writable store indexes its chunks first
    db = ["--db", str(indexed)]
    commands = {"open": ["sql", "SELECT count(*) AS documents FROM documents", *db],
                "search": ["search", query, "--strategy", "scoped", *db],
                "search_header": ["search", query, "--strategy", "scoped", "--header", *db],
                "ask": ["ask", f"¿Qué dice Busmar Hogar sobre {query}?", *db]}
    r: dict[str, Any] = {"size": size, "index": t_index}
    for _ in range(args.repeat):  # interleaved, so that a busy moment of the machine touches every command
        for name, command in commands.items():
            r.setdefault(name, []).append(fresh(command))
    r.update({name: statistics.median(r[name]) for name in commands})
    r["memory"] = fresh(["search", query, "--strategy", "scoped", "--db", str(plain)])
    print(f"  stored {size:,} chunks: index {t_index:.1f} s, open {r['open']:.2f} s, search {r['search']:.2f} s",
          flush=True)
    return r


def report_store(results: list[dict[str, Any]]) -> None:
    """The stored-index table."""
    print("\nstored index: seconds; open, search, ask = a fresh `python -m factstore` process (median); "
          "x = that / open")
    print("   chunks  index s |  open  search  x   search --header  x   ask   x | in-memory search (old way)  x")
    for r in results:
        o = r["open"]
        print(f"{r['size']:>9,}  {r['index']:7.1f} | {o:5.2f}  {r['search']:6.2f}  {r['search'] / o:3.1f}  "
              f"{r['search_header']:15.2f}  {r['search_header'] / o:3.1f}  {r['ask']:4.2f} {r['ask'] / o:3.1f} | "
              f"{r['memory']:26.1f}  {r['memory'] / o:4.1f}")
    print("index s: the first search of a writable store holding the chunks without their index (tokenize, "
          "postings, write, then load and search). in-memory search: the same store without its index, read-only.")


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """The tokenization and in-memory tables."""
    print("\ntokenization: tokenize_columns vs tokenize() text by text (the reference rate on at most "
          f"{args.reference_texts:,} texts; equal tokens checked there)")
    print("   chunks  tokenize s  chunks/s  reference chunks/s  x | tokenize + build s")
    for r in results:
        print(f"{r['size']:>9,}  {r['tokenize']:10.1f}  {r['tok_rate']:8,.0f}  {r['ref_rate']:18,.0f}  "
              f"{r['tok_rate'] / r['ref_rate']:4.1f} | {r['tokenize'] + r['build']:18.1f}")

    print("\nokapi (BM25Okapi's scores): factstore vs rank_bm25; times in s, q/s = queries per second")
    print("   chunks  tok/chunk  tokenize |  build  top_k q/s  many q/s | rank build  rank q/s | build x   q/s x "
          "| same top-10  max|diff|")
    for r in results:
        line = (f"{r['size']:>9,}  {r['tokens']:9.1f}  {r['tokenize']:8.1f} | {r['build']:6.2f}  {r['qps']:9.0f}  "
                f"{r['qps_many']:8.0f} | ")
        if "rank_build" in r:
            line += (f"{r['rank_build']:10.2f}  {r['rank_qps']:8.1f} | {r['rank_build'] / r['build']:7.1f}  "
                     f"{r['qps'] / r['rank_qps']:6.0f} | {r['rank_same']:>5}/{r['rank_checked']:<5}  "
                     f"{r['rank_diff']:8.1e}")
        else:
            line += f"{'skipped':>10}  {'':8} | {'':7}  {'':6} |"
        print(line)
    print("\nlucene idf: factstore vs bm25s BM25(method='atire', idf_method='lucene', dtype='float64')")
    print("   chunks  build  bm25s build | build x  bm25s get_scores q/s (no top-k) | same top-10")
    for r in results:
        print(f"{r['size']:>9,}  {r['lucene_build']:5.2f}  {r['bm25s_build']:11.2f} | "
              f"{r['bm25s_build'] / r['lucene_build']:7.1f}  {r['bm25s_qps']:32.0f} | "
              f"{r['bm25s_same']:>5}/{args.queries}")
    print(f"\nx: rank_bm25 or bm25s time / factstore time. rank_bm25 is skipped above {args.rank_max:,} chunks "
          "(--rank-max). Tokenization is shared and not in the build times; rank_bm25 and bm25s q/s time get_scores "
          "only, factstore's include the top-10 selection; top_k_many returned top_k's lists for every query.")


if __name__ == "__main__":
    main()
