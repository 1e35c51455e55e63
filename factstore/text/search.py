"""BM25 search over one strategy's chunks, with metadata filters and (for `scoped`) the scope a question
names: its issuers and years, one search per issuer when it names several."""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from itertools import zip_longest
from typing import Any

import numpy as np
import pandas as pd

from factstore.resources import data_file
from factstore.text import dense
from factstore.text import tokenize as tokens
from factstore.text.bm25 import BM25, Scorer, check_k
from factstore.text.glossary import english, filed
from factstore.text.tokenize import normalize, tokenize, tokenize_columns
from factstore.timing import as_of_timestamp

Span = tuple[int, int]
FILTERS = ("doc_id", "issuer", "form", "year", "period_end", "as_of")
DOC_COLUMNS = ["doc_id", "issuer", "form", "year", "period_end", "title", "accepted_at"]
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
NOTE_MARKS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk: where it is (document and character spans), what it says, how it scored."""

    doc_id: str
    chunk_no: int
    spans: tuple[Span, ...]
    section: str | None
    score: float
    text: str
    header: str
    title: str | None
    issuer: str | None
    form: str | None
    year: int | None

    @property
    def chars(self) -> int:
        """Characters delivered to a reader: the header (when indexed), a blank line and the text, as the course
        counts them."""
        return len(self.header) + 2 + len(self.text) if self.header else len(self.text)


def filter_values(value: Any) -> list[Any]:
    """A filter's value as a list (one value, or a list, tuple or set of them)."""
    return list(value) if isinstance(value, list | tuple | set) else [value]


@dataclass(frozen=True)
class Ranking:
    """How a strategy's chunks are indexed and scored: BM25's k1 and b, the characters read as spaces; and how a
    query is read: question and function words dropped (`plain`), Spanish words read in English too
    (`glossary`), the words questions use read with the words filings use (`synonyms`); the sections a question
    names what they hold of weighed up (`priors`); and, where every chunk has a dense vector (dense.py), BM25's
    scores combined with the vectors' (`hybrid`, `_fuse`); and a passage that repeats one ranked above it left
    out (`distinct`: a 10-K says its segments in Item 1 and again in the notes)."""

    k1: float = 1.5
    b: float = 0.75
    blank: str = ""
    plain: bool = False
    glossary: bool = False
    synonyms: bool = False
    priors: bool = False
    hybrid: bool = False
    distinct: bool = False

    def terms(self, query: str) -> list[str]:
        """A query's terms: tokenize()'s, with the glossary's English terms and the filings' words for them added,
        question and function words dropped (unless nothing else is left)."""
        terms = tokenize(query)
        if self.glossary:
            terms += english(terms)
        if self.synonyms:
            terms += filed(terms)
        if self.plain:
            terms = [t for t in terms if t not in tokens.FUNCTION_WORDS and t not in question_words()] or terms
        return terms


@dataclass(frozen=True)
class Prior:
    """A question about what a section holds (`question`, a regex over the normalized question) weighs up the
    chunks of that section by `boost`: those whose heading (`field` 'section') or text ('text': a quantity
    question, the chunks that state figures) `where` finds, normalized."""

    question: re.Pattern[str]
    field: str
    where: re.Pattern[str]
    boost: float

    def holds(self, hit: Hit) -> bool:
        """Whether a hit is of what the prior weighs up."""
        return bool(self.where.search(normalize((hit.section if self.field == "section" else hit.text) or "")))


@cache
def section_priors() -> tuple[Prior, ...]:
    """The section priors (data/section_priors.csv)."""
    with data_file("section_priors.csv").open(encoding="utf-8") as f:
        return tuple(Prior(re.compile(rf"\b(?:{r['question']})"), r["field"], re.compile(rf"\b(?:{r['where']})"),
                           float(r["boost"])) for r in csv.DictReader(f))


PRIOR_POOL = 50  # the best chunks by BM25 alone that section priors may reorder, and by vectors alone that join them
# hybrid: the weight of BM25 beside the vectors (on the real filings' 440 questions, hit@3 0.825 from 0.35 to 0.45,
# 0.818 at 0.3, 0.786 at 0.5; reciprocal rank fusion, which this replaces, 0.784)
LEXICAL_WEIGHT = 0.4
# a passage repeats another when this share of the shorter one's distinct words is in the other (on the real
# filings 0.9 and 0.95 kept the same passages; 0.8 dropped ones that differ)
REPEAT_SHARE = 0.9
REPEAT_SLACK = 10  # passages read beyond k so that k distinct ones remain


@cache
def question_words() -> frozenset[str]:
    """What questions say around what they ask, in both languages, beyond the function words
    (data/question_words.txt)."""
    lines = data_file("question_words.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(normalize(w) for line in lines if not line.startswith("#") for w in line.split())


# The baselines rank as the course does (rank_bm25's BM25Okapi defaults). `scoped` reads note marks as spaces
# ('ajustado¹' would index as 'ajustado1'), and hardly normalizes by length: in these documents the long chunks (a
# table with its notes) are where the figures are, so b=0.1 (0.860 recall at k=2 on the demo corpus against 0.588
# at 0.75) and k1=0.8; on the real filings a grid of k1 and b moved hit@3 by 3 points at most. It reads queries for
# filings (plain, glossary, synonyms, priors), leaves out repeats and fuses stored vectors: factstore/README.md, "On
# real filings".
COURSE_RANKING = Ranking()
RANKINGS: dict[str, Ranking] = {"scoped": Ranking(k1=0.8, b=0.1, blank=NOTE_MARKS, plain=True, glossary=True,
                                                  synonyms=True, priors=True, hybrid=True, distinct=True)}


def ranking(strategy: str) -> Ranking:
    """A strategy's ranking (the course's for any strategy not in RANKINGS)."""
    return RANKINGS.get(strategy, COURSE_RANKING)


class ChunkIndex:
    """BM25 search over a strategy's chunks: a scorer whose documents are the chunks (ordered by doc_id and
    chunk_no), the documents' metadata (DOC_COLUMNS), each chunk's document row and chunk_no, and rows, which
    reads the chunks (spans, section, header, text tuples) at positions, in order. `header=True` scores
    'header + text'."""

    def __init__(self, bm25: Scorer, docs: pd.DataFrame, chunk_doc: np.ndarray, chunk_no: np.ndarray,
                 rows: Callable[[np.ndarray], list[tuple]], *, header: bool = False,
                 ranking: Ranking = COURSE_RANKING) -> None:
        self.bm25, self.docs, self.header, self.ranking = bm25, docs.reset_index(drop=True), header, ranking
        self.dense: np.ndarray | None = None  # the chunks' unit vectors, in index order, where all have one
        self.dense_count = 0  # the stored vectors `dense` was read with
        self._chunk_doc, self._chunk_no, self._rows = chunk_doc, chunk_no, rows
        # what a hit says of its document, read once (pandas per hit cost more than the search)
        self._doc_rows = [(d.doc_id, d.title, d.issuer, d.form, None if pd.isna(d.year) else int(d.year))
                          for d in self.docs.itertuples()]
        self._issuers = {normalize(i): i for i in self.docs["issuer"].dropna().unique()}

    @classmethod
    def from_frame(cls, chunks: pd.DataFrame, *, header: bool = False, idf: str = "okapi",
                   ranking: Ranking = COURSE_RANKING) -> ChunkIndex:
        """An index built in memory over a frame of chunks (doc_id, chunk_no, spans, section, header, text and
        the DOC_COLUMNS of their document), sorted by doc_id and chunk_no."""
        chunks = chunks.reset_index(drop=True)
        texts = (chunks["header"] + "\n\n" + chunks["text"]) if header else chunks["text"]
        bm25 = BM25(tokenize_columns(texts, blank=ranking.blank), idf=idf, k1=ranking.k1, b=ranking.b)
        chunk_doc, _ = pd.factorize(chunks["doc_id"])
        docs = chunks.drop_duplicates("doc_id")[DOC_COLUMNS]
        columns = [chunks[c].to_numpy() for c in ("spans", "section", "header", "text")]
        return cls(bm25, docs, chunk_doc, chunks["chunk_no"].to_numpy(),
                   lambda rows: list(zip(*(c[rows] for c in columns), strict=True)), header=header, ranking=ranking)

    def mask(self, filters: dict[str, Any] | None) -> np.ndarray | None:
        """Chunks allowed by filters: doc_id, issuer (accents and case ignored), form, year, period_end,
        as_of (documents public at or before it; one without an acceptance time counts as public from the
        start of the year after its own, and one without a year never)."""
        if not filters:
            return None
        unknown = set(filters) - set(FILTERS)
        if unknown:
            raise ValueError(f"unknown filter {sorted(unknown)}; expected {', '.join(FILTERS)}")
        keep = np.ones(len(self.docs), dtype=bool)
        c = self.docs  # one row per document
        for key, value in filters.items():
            if value is None:
                continue
            if key == "issuer":
                wanted = {normalize(v) for v in filter_values(value)}
                keep &= c["issuer"].fillna("").map(normalize).isin(wanted).to_numpy()
            elif key == "period_end":
                keep &= c["period_end"].isin([pd.Timestamp(v) for v in filter_values(value)]).to_numpy()
            elif key == "as_of":
                # without an acceptance time, a document of year Y is taken as public from the start of Y+1
                moment = pd.Timestamp(as_of_timestamp(value))
                public = c["accepted_at"].fillna(pd.to_datetime((c["year"] + 1).astype("Int64").astype(str),
                                                                 format="%Y", errors="coerce"))
                keep &= (public <= moment).fillna(False).to_numpy(dtype=bool)
            else:
                keep &= c[key].isin(filter_values(value)).to_numpy()
        return keep[self._chunk_doc]

    def search(self, query: str, k: int = 5, filters: dict[str, Any] | None = None) -> list[Hit]:
        """The k best chunks for a query among those the filters allow, best first (all of them when k is
        larger); with `distinct`, none repeating one ranked above it."""
        k = self._k(k)
        if self.ranking.distinct:
            return _distinct(self._ranked(query, min(k + REPEAT_SLACK, self.bm25.n_docs), filters), k)
        return self._ranked(query, k, filters)

    def _ranked(self, query: str, k: int, filters: dict[str, Any] | None) -> list[Hit]:
        """The k best chunks, repeats and all."""
        mask = self.mask(filters)
        if mask is not None and not mask.any():
            return []
        priors = [p for p in section_priors() if p.question.search(normalize(query))] if self.ranking.priors else []
        fused = self.dense is not None and self.ranking.hybrid
        rows, scores = self.bm25.top_k(self.ranking.terms(query), max(k, PRIOR_POOL) if priors or fused else k,
                                       mask=mask)
        hits = self._hits(rows, scores)
        if priors:
            hits = [replace(h, score=h.score * math.prod(p.boost for p in priors if p.holds(h))) if h.score > 0
                    else h for h in hits]  # a weight scales a match, never a chunk sharing no word
        ranked = sorted(zip(rows.tolist(), hits, strict=True), key=lambda r: (-r[1].score, r[1].doc_id, r[1].chunk_no))
        if fused and ((ranked and ranked[0][1].score > 0) or _said(query)):
            # vectors join a query sharing words with the chunks, or one said in words of a language (a Spanish
            # question no English word of the filings answers); never letters alone ('zzzz qqqq')
            return self._fuse([r for r, h in ranked if h.score > 0], dict(ranked), query, k, mask)
        return [h for _, h in ranked[:k]]  # ties as top_k breaks them

    def _fuse(self, lexical: list[int], read: dict[int, Hit], query: str, k: int, mask: np.ndarray | None
              ) -> list[Hit]:
        """The k best chunks of BM25's pool (positions `lexical`, scored in `read`) and the vectors' by a convex
        combination: LEXICAL_WEIGHT of BM25's score over the pool's best, the rest the cosine rescaled over the
        pools' chunks from 0 (the lowest) to 1 (the highest); a chunk outside BM25's pool scores 0 there."""
        sims = self.dense @ dense.query(query)
        if mask is not None:
            sims = np.where(mask, sims, -np.inf)
        pool = min(PRIOR_POOL, int(np.isfinite(sims).sum()))
        semantic = np.argpartition(-sims, pool - 1)[:pool] if pool else np.empty(0, dtype=np.int64)
        positions = np.array(list(dict.fromkeys([*lexical, *semantic.tolist()])))
        bm25 = np.array([read[p].score if p in read else 0.0 for p in positions])
        cosine = sims[positions]
        spread = cosine.max() - cosine.min()
        fused = (LEXICAL_WEIGHT * (bm25 / bm25.max() if bm25.max() > 0 else bm25)
                 + (1 - LEXICAL_WEIGHT) * ((cosine - cosine.min()) / spread if spread > 0 else 0.0))
        best = positions[np.lexsort((positions, -fused))][:k].tolist()
        unread = [p for p in best if p not in read]
        if unread:
            read.update(zip(unread, self._hits(np.array(unread), np.zeros(len(unread))), strict=True))
        score = dict(zip(positions.tolist(), fused.tolist(), strict=True))
        return [replace(read[p], score=score[p]) for p in best]

    def scope(self, question: str) -> tuple[list[str], list[int]]:
        """The issuers (as stored) and years a question names, accents and case ignored. An issuer is
        named by its full name or, for names of more than two words, by its first half (at least two
        words): 'Atalaya MSCI World' names 'Atalaya MSCI World ESG UCITS ETF'."""
        words = _words(normalize(question))
        named = []
        for norm, original in self._issuers.items():
            tokens = _words(norm)
            if tokens and _contains(words, tokens[:max(2, len(tokens) // 2)] if len(tokens) > 2 else tokens):
                named.append(original)
        years = sorted({int(y) for y in _YEAR.findall(question)})
        return named, years

    def scoped_search(self, question: str, k: int = 5, filters: dict[str, Any] | None = None) -> list[Hit]:
        """Search within the issuers and years the question names (and any filters given); a question
        naming several issuers becomes one search per issuer, merged in turn. Without a named issuer,
        or with an issuer filter given, a plain search."""
        k = self._k(k)
        issuers, years = self.scope(question)
        if not issuers or (filters and filters.get("issuer")):
            return self.search(question, k, filters)
        # the filter now carries the issuer, so its name no longer steers the ranking
        query = " ".join(w for w in _words(normalize(question))
                         if not any(w in _words(normalize(i)) for i in issuers))
        # a year's figures appear in that year's documents and as comparatives or outlook around it
        years = sorted({y + d for y in years for d in (-1, 0, 1)})
        per_issuer = []
        for issuer in issuers:
            scoped: dict[str, Any] = {**(filters or {}), "issuer": issuer}
            if years and self.mask({**scoped, "year": years}).any():
                scoped["year"] = years
            per_issuer.append(self.search(query, k, scoped))
        merged = [hit for ranked in zip_longest(*per_issuer) for hit in ranked if hit is not None]
        return merged[:k] or self.search(question, k, filters)

    def _k(self, k: int) -> int:
        """k checked, and capped at the number of chunks (no search returns more)."""
        return min(check_k(k), self.bm25.n_docs)

    def _hits(self, rows: np.ndarray, scores: np.ndarray) -> list[Hit]:
        """The chunks at positions rows as hits with their scores (one read of the chunks for all)."""
        hits = []
        for (spans, section, header, text), doc, no, score in zip(
                self._rows(rows), self._chunk_doc[rows].tolist(), self._chunk_no[rows].tolist(), scores.tolist(),
                strict=True):
            doc_id, title, issuer, form, year = self._doc_rows[doc]
            hits.append(Hit(doc_id=doc_id, chunk_no=int(no),
                            spans=tuple((int(s["start_char"]), int(s["end_char"])) for s in spans),
                            section=section if isinstance(section, str) else None,  # a frame's NaN: none
                            score=float(score), text=text, header=header if self.header else "", title=title,
                            issuer=issuer, form=form, year=year))
        return hits


def _said(query: str) -> bool:
    """Whether a query is said in words of a language: a function word of either and two other words."""
    words = set(_words(normalize(query)))
    return bool(words & tokens.FUNCTION_WORDS) and len(words - tokens.FUNCTION_WORDS) >= 2


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def _distinct(hits: list[Hit], k: int) -> list[Hit]:
    """The first k hits that do not repeat one kept before them from the same document (REPEAT_SHARE of the
    shorter one's distinct words in the other). Documents are never compared: two companies' or two years'
    passages alike in words differ in their figures and in whose they are."""
    kept: list[Hit] = []
    seen: list[tuple[str, set[str]]] = []
    for hit in hits:
        words = set(_words(normalize(hit.text)))
        if not any(doc == hit.doc_id and words and other
                   and len(words & other) >= REPEAT_SHARE * min(len(words), len(other)) for doc, other in seen):
            kept.append(hit)
            seen.append((hit.doc_id, words))
            if len(kept) == k:
                break
    return kept


def _contains(words: list[str], run: list[str]) -> bool:
    """Whether `run` occurs as consecutive words in `words`."""
    n = len(run)
    return any(words[i:i + n] == run for i in range(len(words) - n + 1))
