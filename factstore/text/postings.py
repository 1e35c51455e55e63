"""The BM25 index of one strategy's chunks as rows for the store, and the index that reads them back.

A chunk's header and text are tokenized apart (the tokens of 'header\\n\\ntext' are the header's, then the text's), so
one set of rows serves searches with and without headers: per (term, chunk) its count in the text and in the
header; per term the chunks whose text holds it and those whose header or text does; per chunk both lengths.
N, the average length and the idfs are computed when the index is read, so adding chunks appends rows (and adds
to the terms' counts). Reading an index loads per-chunk lengths and per-term counts; a query then reads only its
own terms' postings and the rows of the chunks it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from factstore.text.bm25 import Scorer, distinct_counts, runs
from factstore.text.search import COURSE_RANKING, ChunkIndex, Ranking
from factstore.text.tokenize import tokenize_columns

Postings = Callable[[np.ndarray], dict[str, np.ndarray]]


@dataclass(frozen=True)
class IndexRows:
    """New chunks' index rows: terms (ids in order of first appearance) with their document counts, postings
    sorted by term then chunk (chunks numbered from 0 in the order given), and the chunks' token counts."""

    terms: list[str]
    df_text: np.ndarray
    df_all: np.ndarray
    term: np.ndarray
    chunk: np.ndarray
    text_tf: np.ndarray
    header_tf: np.ndarray
    text_len: np.ndarray
    header_len: np.ndarray


def index_rows(chunks: pd.DataFrame | pa.Table, *, blank: str = "") -> IndexRows:
    """The index rows of chunks (columns header and text; a pandas or an Arrow table)."""
    n = len(chunks)
    headers, texts = (c if isinstance(c, pa.ChunkedArray) else pa.chunked_array([pa.array(c)])
                      for c in (chunks["header"], chunks["text"]))
    # one vocabulary for both, each distinct header tokenized once (a section's chunks share theirs)
    distinct = headers.combine_chunks().dictionary_encode()
    which, m = distinct.indices.to_numpy(), len(distinct.dictionary)
    tokens = tokenize_columns(pa.chunked_array([distinct.dictionary, *texts.cast(distinct.dictionary.type).chunks]),
                              blank=blank)
    ends = np.cumsum(tokens.lengths[:m])
    header_len, text_len = tokens.lengths[:m][which], tokens.lengths[m:]
    header_ids, text_ids = tokens.ids[runs(ends[which] - header_len, header_len)], tokens.ids[ends[-1]:]
    # (term, chunk) pairs as term * n + chunk, counted over header and text, and over the header alone
    chunk = np.arange(n, dtype=np.int32)
    header_keys = header_ids.astype(np.int64) * n + np.repeat(chunk, header_len)
    keys = np.empty(len(header_ids) + len(text_ids), dtype=np.int64)
    keys[:len(header_ids)] = header_keys
    np.multiply(text_ids, np.int64(n), out=keys[len(header_ids):])
    keys[len(header_ids):] += np.repeat(chunk, text_len)
    keys, counts = distinct_counts(keys)
    header_keys, header_counts = distinct_counts(header_keys)
    header_tf = np.zeros(len(keys), dtype=np.int32)
    header_tf[np.searchsorted(keys, header_keys)] = header_counts
    text_tf = counts.astype(np.int32)
    text_tf -= header_tf
    n_terms = len(tokens.terms)
    starts = np.searchsorted(keys, np.arange(n_terms + 1) * n)  # keys are sorted by term; each term has a row
    df_all = np.diff(starts)
    df_text = np.add.reduceat(text_tf > 0, starts[:-1]) if n_terms else df_all
    term = np.repeat(np.arange(n_terms, dtype=np.int32), df_all)
    np.remainder(keys, n, out=keys)  # the chunk
    return IndexRows(tokens.terms, df_text, df_all, term, keys.astype(np.int32), text_tf, header_tf, text_len,
                     header_len)


class StoredBM25(Scorer):
    """BM25 over stored index rows, reading only a query's terms: term_ids (ascending) with their document
    frequencies, the chunks' lengths by position, where each chunk id sits; find maps tokens to term ids and
    postings reads the rows (term_id, chunk_id, text_tf, header_tf) of term ids."""

    def __init__(self, term_ids: np.ndarray, doc_freq: np.ndarray, doc_len: np.ndarray, position: np.ndarray, *,
                 header: bool, find: Callable[[list[str]], dict[str, int]], postings: Postings,
                 ranking: Ranking = COURSE_RANKING) -> None:
        super().__init__(doc_len, doc_freq, k1=ranking.k1, b=ranking.b)
        self._ids, self._position, self._header = term_ids, position, header
        self._find, self._read = find, postings

    def _term_ids(self, query_tokens: list[str]) -> list[int]:
        found = self._find(sorted(set(query_tokens)))
        index = dict(zip(found, np.searchsorted(self._ids, list(found.values())).tolist(), strict=True))
        return [index[t] for t in query_tokens if t in index]

    def _postings(self, terms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = self._read(self._ids[np.unique(terms)])
        tf = rows["text_tf"] + rows["header_tf"] if self._header else rows["text_tf"]
        held = tf > 0
        term = np.searchsorted(self._ids, rows["term_id"][held])
        order = np.argsort(term, kind="stable")
        term, doc, tf = term[order], self._position[rows["chunk_id"][held][order]], tf[held][order]
        lo = np.searchsorted(term, terms, "left")
        lengths = np.searchsorted(term, terms, "right") - lo
        pos = runs(lo, lengths)
        return doc[pos], self._weights(term[pos], doc[pos], tf[pos].astype(np.float64)), lengths


def stored_index(docs: pd.DataFrame, chunks: dict[str, np.ndarray], terms: dict[str, np.ndarray], *, header: bool,
                 find: Callable[[list[str]], dict[str, int]], postings: Postings,
                 rows: Callable[[list[str], list[int]], list[tuple]],
                 ranking: Ranking = COURSE_RANKING) -> ChunkIndex:
    """A ChunkIndex over a strategy's stored rows: docs (document metadata sorted by doc_id, with each document's
    first_chunk id and number of chunks; its chunks have consecutive ids in chunk_no order), chunks (chunk_id,
    text_len, header_len), terms (term_id ascending, df_text, df_all); find and postings as StoredBM25's, rows reads
    the chunks (spans, section, header, text) of doc_ids and chunk_nos, pair by pair, in their order."""
    counts = docs["chunks"].to_numpy()
    firsts = docs["first_chunk"].to_numpy()
    chunk_id = runs(firsts, counts)  # positions follow (doc_id, chunk_no), the order ties are broken by
    position = np.zeros(int(chunk_id.max(initial=-1)) + 1, dtype=np.int64)
    position[chunk_id] = np.arange(len(chunk_id))
    chunk_doc = np.repeat(np.arange(len(docs)), counts)
    chunk_no = chunk_id - np.repeat(firsts, counts)
    doc_len = np.zeros(len(chunk_id), dtype=np.int64)
    doc_len[position[chunks["chunk_id"]]] = chunks["text_len"] + (chunks["header_len"] if header else 0)
    bm25 = StoredBM25(terms["term_id"], terms["df_all" if header else "df_text"], doc_len, position,
                      header=header, find=find, postings=postings, ranking=ranking)
    doc_ids = docs["doc_id"].to_numpy()

    def chunk_rows(positions: np.ndarray) -> list[tuple]:
        return rows(doc_ids[chunk_doc[positions]].tolist(), chunk_no[positions].tolist())

    return ChunkIndex(bm25, docs.drop(columns=["first_chunk", "chunks"]), chunk_doc, chunk_no, chunk_rows,
                      header=header, ranking=ranking)
