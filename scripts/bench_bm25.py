"""Benchmark factstore.text.bm25 against rank_bm25 (BM25Okapi, the baseline it must equal) and bm25s (the
lucene variant's equal) on synthetic chunks: index build time and queries per second, checking identical
top-10 lists wherever both run.

Chunks have 40-120 words drawn from a Zipfian vocabulary of ~50k words: the NLTK Spanish and English stop
words take the most frequent ranks, then years and numbers and generated Spanish-looking words (some accented).
Queries are 2-6 non-stop words from the same distribution. Everything is seeded and deterministic.

    python scripts/bench_bm25.py --sizes 10000,100000,1000000 --queries 1000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any, TypeVar

import bm25s
import numpy as np
from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_SPANISH
from rank_bm25 import BM25Okapi

from factstore.text.bm25 import BM25
from factstore.text.tokenize import normalize, tokenize, tokenize_many

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
    corpus, t_tok = timed(tokenize_many, texts)
    del texts
    r: dict[str, Any] = {"size": size, "tokens": sum(map(len, corpus)) / size, "tokenize": t_tok}

    ours, r["build"] = timed(BM25, corpus)
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

    lucene, r["lucene_build"] = timed(BM25, corpus, idf="lucene")
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
    parser.add_argument("--vocabulary", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    words, probs, n_stop = vocabulary(np.random.default_rng(args.seed), args.vocabulary)
    print(f"vocabulary {len(words):,} words, {n_stop} stop words first; {args.queries} queries of 2-6 words, "
          f"{args.rank_queries} of them for rank_bm25 (sizes up to {args.rank_max:,})", flush=True)
    results = []
    for size in (int(s) for s in args.sizes.split(",")):
        results.append(r := bench(size, words, probs, n_stop, args))
        print(f"  {size:,} chunks: tokenize {r['tokenize']:.1f} s, build {r['build']:.2f} s, "
              f"top_k {r['qps']:.0f} q/s", flush=True)

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
