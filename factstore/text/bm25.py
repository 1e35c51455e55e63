"""BM25 over tokenized chunks. Scorer is what every index shares: idf from document frequencies, the postings'
weights, a query's scores as the sum of its terms' postings, the top k. BM25 holds precomputed (term, document)
weights in memory in a compressed sparse row layout (numpy arrays, one row of postings per term; scipy is not a
dependency); factstore.text.postings reads a stored index's postings one query at a time.

idf="okapi" scores as rank_bm25's BM25Okapi (the course baseline), to the last bit: idf = log(N - n + 0.5) -
log(n + 0.5), and terms with a negative idf (in more than half the documents) get epsilon x the mean idf of all
terms. bm25s cannot reproduce that floor (its "robertson" idf clamps negative values to 0: equal only with
epsilon=0), hence this module. One deliberate difference: with b = 1 an empty document scores 0 here, NaN there.
idf="lucene" uses the non-negative log(1 + (N - n + 0.5) / (n + 0.5)) and ignores epsilon: the scores of bm25s'
BM25(method="atire", idf_method="lucene").
"""

from __future__ import annotations

import math
from itertools import chain

import numpy as np
import pandas as pd

from factstore.text.tokenize import Tokens

IDFS = ("okapi", "lucene")
_DENSE_SHARE = 8  # a query reading more than N / 8 postings is scored densely (faster than sorting them)
_BLOCK_POSTINGS = 1 << 16  # postings sorted together when scoring several light queries sparsely


class Scorer:
    """BM25 scores and top-k selection from document lengths and per-term document frequencies; a subclass says
    how a query's terms and their postings are found (in memory, or read from a store)."""

    def __init__(self, doc_len: np.ndarray, doc_freq: np.ndarray, *, k1: float = 1.5, b: float = 0.75,
                 epsilon: float = 0.25, idf: str = "okapi") -> None:
        if idf not in IDFS:
            raise ValueError(f"idf must be one of {IDFS}, not {idf!r}")
        n_docs = len(doc_len)
        if n_docs == 0:
            raise ValueError("cannot index an empty corpus")
        self.k1, self.b, self.epsilon, self.idf_kind = k1, b, epsilon, idf
        self.n_docs = n_docs
        self.avgdl = int(doc_len.sum()) / n_docs
        self.doc_freq = doc_freq
        self.idf = self._idf()
        self._norm = k1 * (1 - b + b * doc_len / self.avgdl)

    def _idf(self) -> np.ndarray:
        """Per-term idf, with math.log per distinct document frequency as rank_bm25 computes it; 0 for a term
        no document holds (the corpus does not know it)."""
        present = self.doc_freq > 0
        dfs, inverse = np.unique(self.doc_freq[present], return_inverse=True)
        n = self.n_docs
        if self.idf_kind == "lucene":
            idf = np.array([math.log(1 + (n - df + 0.5) / (df + 0.5)) for df in dfs.tolist()])[inverse]
        else:
            idf = np.array([math.log(n - df + 0.5) - math.log(df + 0.5) for df in dfs.tolist()])[inverse]
            if len(idf):
                # rank_bm25 adds idf_sum += idf term by term; cumsum adds in that same sequence.
                average_idf = float(np.cumsum(idf)[-1]) / len(idf)
                idf[idf < 0] = self.epsilon * average_idf
        out = np.zeros(len(self.doc_freq))
        out[present] = idf
        return out

    def _weights(self, terms: np.ndarray, docs: np.ndarray, tf: np.ndarray) -> np.ndarray:
        """The postings' BM25 weights, with the operations of BM25Okapi.get_scores in its order (equal to the
        last bit)."""
        return self.idf[terms] * (tf * (self.k1 + 1) / (tf + self._norm[docs]))

    def _term_ids(self, query_tokens: list[str]) -> list[int]:
        """Term ids of the query's tokens in order, repeats kept, unknown tokens dropped."""
        raise NotImplementedError

    def _postings(self, terms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Documents and weights of the terms' postings, term after term, and each term's posting count."""
        raise NotImplementedError

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """The BM25 score of every document for the query (a repeated token counts again), float64."""
        return self._dense(self._term_ids(query_tokens))

    def top_k(self, query_tokens: list[str], k: int, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Indices and scores of the k best documents (only where mask is True), best first, ties broken by
        lower index."""
        if mask is not None:
            mask = np.asarray(mask)
            if mask.dtype != bool or mask.shape != (self.n_docs,):
                raise ValueError(f"mask must be a boolean array of shape ({self.n_docs},)")
        return self._top_k([self._term_ids(query_tokens)], check_k(k), mask)[0]

    def top_k_many(self, queries: list[list[str]], k: int) -> tuple[np.ndarray, np.ndarray]:
        """top_k of each query, without mask: (len(queries), min(k, N)) arrays of indices and scores."""
        k = min(check_k(k), self.n_docs)
        indices = np.empty((len(queries), k), dtype=np.int64)
        scores = np.empty((len(queries), k))
        for i, (idx, val) in enumerate(self._top_k([self._term_ids(q) for q in queries], k, None)):
            indices[i], scores[i] = idx, val
        return indices, scores

    def _dense(self, terms: list[int]) -> np.ndarray:
        """Scores of all documents: the terms' weights added term after term, as BM25Okapi adds them."""
        out = np.zeros(self.n_docs)
        docs, weights, lengths = self._postings(np.asarray(terms, dtype=np.int64))
        ends = np.cumsum(lengths)
        for lo, hi in zip((ends - lengths).tolist(), ends.tolist(), strict=True):
            out[docs[lo:hi]] += weights[lo:hi]
        return out

    def _top_k(self, queries: list[list[int]], k: int, mask: np.ndarray | None) -> list[tuple[np.ndarray, np.ndarray]]:
        """The k best documents of each query (term ids). A query reading more than N / _DENSE_SHARE postings
        is scored densely; the others only over the documents they match, a block of queries at a time with one
        sort and one bincount for all their postings (which adds each sum in query order, exactly as _dense)."""
        results: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        blocks: list[list[int]] = [[]]
        budget = 0
        for i, terms in enumerate(queries):
            postings = int(self.doc_freq[terms].sum())
            if postings * _DENSE_SHARE > self.n_docs:
                results[i] = self._best(np.arange(self.n_docs), self._dense(terms), k, mask)
                continue
            if budget + postings > _BLOCK_POSTINGS:
                blocks.append([])
                budget = 0
            blocks[-1].append(i)
            budget += postings
        for rows in filter(None, blocks):
            row_terms = [(row, term) for row, i in enumerate(rows) for term in queries[i]]
            row_of, term_of = np.array(row_terms, dtype=np.int64).reshape(-1, 2).T
            docs, weights, lengths = self._postings(term_of)
            cells, inverse = np.unique(np.repeat(row_of, lengths) * self.n_docs + docs, return_inverse=True)
            sums = np.bincount(inverse, weights=weights, minlength=len(cells))
            bounds = np.searchsorted(cells, np.arange(len(rows) + 1) * self.n_docs)
            for row, i in enumerate(rows):
                lo, hi = bounds[row], bounds[row + 1]
                results[i] = self._best(cells[lo:hi] - row * self.n_docs, sums[lo:hi], k, mask)
        return [results[i] for i in range(len(queries))]

    def _best(self, docs: np.ndarray, sums: np.ndarray, k: int,
              mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """The k best documents given the scores of docs (ascending; other documents score 0): the positive
        scores when there are k of them, else all (allowed) documents."""
        keep = sums > 0 if mask is None else (sums > 0) & mask[docs]
        if np.count_nonzero(keep) >= k:
            return _select(docs[keep], sums[keep], k)
        scores = np.zeros(self.n_docs)
        scores[docs] = sums
        candidates = np.arange(self.n_docs) if mask is None else np.flatnonzero(mask)
        return _select(candidates, scores[candidates], k)


class BM25(Scorer):
    """A BM25 index in memory over corpus_tokens (one token list per document, or tokenize_columns' output):
    precomputed weights in a compressed sparse row layout, one row of postings per term."""

    def __init__(self, corpus_tokens: list[list[str]] | Tokens, *, k1: float = 1.5, b: float = 0.75,
                 epsilon: float = 0.25, idf: str = "okapi") -> None:
        tokens = corpus_tokens if isinstance(corpus_tokens, Tokens) else _columns(corpus_tokens)
        n_docs = len(tokens.lengths)
        # Distinct (term, document) pairs sorted by term then document, with their term frequencies.
        pairs, tf = distinct_counts(tokens.ids.astype(np.int64) * n_docs + np.repeat(np.arange(n_docs), tokens.lengths))
        term, doc = np.divmod(pairs, n_docs)
        del pairs
        super().__init__(tokens.lengths, np.bincount(term, minlength=len(tokens.terms)), k1=k1, b=b,
                         epsilon=epsilon, idf=idf)
        self.vocab: dict[str, int] = dict(zip(tokens.terms, range(len(tokens.terms)), strict=True))
        self.indptr = np.concatenate([[0], np.cumsum(self.doc_freq)])
        self.indices = doc.astype(np.int32 if n_docs < 2**31 else np.int64)
        self.weights = self._weights(term, doc, tf.astype(np.float64))

    def _term_ids(self, query_tokens: list[str]) -> list[int]:
        return [self.vocab[t] for t in query_tokens if t in self.vocab]

    def _postings(self, terms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lo = self.indptr[terms]
        lengths = self.indptr[terms + 1] - lo
        pos = runs(lo, lengths)
        return self.indices[pos], self.weights[pos], lengths


def _columns(corpus_tokens: list[list[str]]) -> Tokens:
    """Token lists as Tokens: term ids in order of first appearance, like rank_bm25's dict (its mean idf adds in
    that order)."""
    lengths = np.fromiter(map(len, corpus_tokens), dtype=np.int64, count=len(corpus_tokens))
    flat = np.fromiter(chain.from_iterable(corpus_tokens), dtype=object, count=int(lengths.sum()))
    codes, terms = pd.factorize(flat)
    return Tokens(codes.astype(np.int32), lengths, terms.tolist())


def distinct_counts(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of keys (sorted in place), ascending, and how often each occurs."""
    keys.sort()
    repeats = np.flatnonzero(keys[1:] == keys[:-1]) + 1  # positions holding the value before them (few)
    counts = np.ones(len(keys) - len(repeats), dtype=np.int64)
    np.add.at(counts, repeats - np.arange(1, len(repeats) + 1), 1)  # onto the distinct value each repeats
    return np.delete(keys, repeats) if len(repeats) else keys, counts


def runs(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices start, start + 1, ... of each run (start, length), run after run."""
    return np.arange(lengths.sum()) + np.repeat(starts - np.cumsum(lengths) + lengths, lengths)


def check_k(k: int) -> int:
    """k, when it is a valid number of results to ask for (at least 1)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    return k


def _select(indices: np.ndarray, values: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest values with their (ascending) indices, best first, ties by lower index: O(len) plus a
    sort of k."""
    if len(values) > k:
        kth = np.partition(values, len(values) - k)[len(values) - k]
        above = values > kth
        ties = indices[values == kth][: k - np.count_nonzero(above)]
        indices = np.concatenate([indices[above], ties])
        values = np.concatenate([values[above], np.full(len(ties), kth)])
    order = np.lexsort((indices, -values))
    return indices[order], values[order]
