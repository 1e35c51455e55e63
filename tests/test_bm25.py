"""BM25 and tokenization: BM25Okapi parity (rank_bm25), the lucene variant, masks, ties; the course's
normalization rules."""

from __future__ import annotations

import random

import bm25s
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from factstore.text import bm25 as bm25_module
from factstore.text import tokenize as tokenize_module
from factstore.text.bm25 import BM25
from factstore.text.search import NOTE_MARKS
from factstore.text.tokenize import STOPWORDS, normalize, tokenize, tokenize_columns, tokenize_many
from tests.helpers import budget
from tests.samples import filing_texts


@pytest.fixture(scope="module")
def corpus() -> list[list[str]]:
    """The fixture texts tokenized, and one document of stop words only (no tokens)."""
    return tokenize_many([*filing_texts(), "de la y según los"])


@pytest.fixture(scope="module")
def queries(corpus: list[list[str]]) -> list[list[str]]:
    """Vocabulary samples with repeated and unknown tokens, natural questions, the common terms, nothing."""
    rng = random.Random(5)
    vocabulary = sorted({t for doc in corpus for t in doc})
    sampled = [rng.choices(vocabulary, k=rng.randint(1, 6)) for _ in range(150)]
    repeated = [[t, t, *rng.choices(vocabulary, k=2), t] for t in rng.sample(vocabulary, 30)]
    unknown = [[*rng.choices(vocabulary, k=2), "zzzz", "inexistente"] for _ in range(20)]
    questions = [tokenize(q) for q in ("¿Cuál fue el beneficio operativo de Repsol en 2021?",
                                       "Apple net revenue fiscal 2023", "dividendo por acción Iberdrola",
                                       "cifras en millones", "MILLONES millones cifras")]
    return [*sampled, *repeated, *unknown, *questions, ["zzzz"], []]


def _reference_top(scores: np.ndarray, k: int, allowed: np.ndarray | None = None) -> np.ndarray:
    """Indices of the k best scores, ties by lower index (a full sort)."""
    idx = np.arange(len(scores)) if allowed is None else np.flatnonzero(allowed)
    return idx[np.lexsort((idx, -scores[idx]))][:k]


# Tokenization


def test_accents_and_case_are_folded() -> None:
    assert normalize("Óptimo ÉXITO Año Über") == "optimo exito ano uber"
    assert tokenize("Óptimo ÉXITO, año") == ["optimo", "exito", "ano"]
    assert tokenize("o\u0301ptimo") == ["optimo"]  # already decomposed: the mark does not split the word
    assert tokenize("ﬁnanciación ℃") == ["financiacion", "C"]  # NFKD after lower case, as the course: "°C"


def test_digits_and_one_character_tokens_are_kept() -> None:
    assert tokenize("Q 3 x 2023 b 3,5 %") == ["q", "3", "x", "2023", "b", "3", "5"]


def test_stop_words_are_the_courses() -> None:
    # the course's list keeps "esta", "mas", "aqui" and "no"; English words stay (Okapi's idf weighs them)
    assert tokenize("Él está aquí y más allá; ¿qué? No se incluyen. They are not here") == [
        "esta", "aqui", "mas", "alla", "no", "incluyen", "they", "are", "not", "here"]
    assert tokenize("El beneficio de la empresa según su informe") == ["beneficio", "empresa", "informe"]
    assert {"de", "la", "segun", "cuantos", "a", "o"} <= STOPWORDS and len(STOPWORDS) == 29
    assert all(word == normalize(word) for word in STOPWORDS)


def test_queries_and_documents_are_treated_the_same() -> None:
    texts = filing_texts(20)
    assert tokenize_many(texts) == [tokenize(t) for t in texts]
    docs = tokenize_many(["La compañía alcanzó un margen ÓPTIMO", "Revenue grew"])
    assert BM25(docs).top_k(tokenize("compania optimo"), 1)[0].tolist() == [0]


# Tokenizing in columns gives tokenize()'s tokens

# Pieces that stress the rule: accents composed and not, compatibility forms, Spanish and English stop words,
# digits and underscores, capital sigmas (lower-cased by their neighbours), astral letters, digits and marks,
# dotted capital I, punctuation beyond ASCII, note marks, NUL characters and line breaks.
_PIECES = ["Óptimo", "ÉXITO", "año", "está", "Él", "the", "de", "la", "aren't", "3,5", "2023", "x_y", "ﬁnanciación",
           "℃", "o\u0301ptimo", "\u0301", "ΑΣ", "ΟΔΟΣ", "Σ", "ς", "ϹΣ’Α", "’", "—", "…", "½", "x²", "İ", "ß", "ẞ",
           "\U0001d400\U0001d7ce", "\U000110b9", "\U0001f600", "ǅungla", "\x00", "\n", " ", "\u00a0", "Ⅻ", "가",
           "ajustado¹", "x³Σ", "⁹"]
_TEXT = st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=6),
                           st.text(st.characters(exclude_categories=()), max_size=3)), max_size=25).map("".join)


@budget(100, 300)
def test_columns_give_the_tokens_of_tokenize(examples: int) -> None:
    @settings(max_examples=examples)
    @given(st.lists(_TEXT, max_size=8))
    def agree(texts: list[str]) -> None:
        assert tokenize_many(texts) == [tokenize(t) for t in texts]
        blanked = [t.translate(dict.fromkeys(map(ord, NOTE_MARKS), " ")) for t in texts]
        assert tokenize_columns(texts, blank=NOTE_MARKS).lists() == [tokenize(t) for t in blanked]

    agree()


def test_columns_across_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    texts = [*filing_texts(60), *("".join(rng.choices(_PIECES, k=rng.randint(0, 12))) for _ in range(200))]
    monkeypatch.setattr(tokenize_module, "_BATCH_BYTES", 300)  # dozens of batches, their dictionaries unified
    columns = tokenize_columns(texts)
    assert columns.lists() == [tokenize(t) for t in texts]
    assert columns.terms == list(dict.fromkeys(t for text in texts for t in tokenize(text)))  # first appearance
    assert list(BM25(columns).vocab) == list(BM25([tokenize(t) for t in texts]).vocab)
    assert tokenize_columns([]).lists() == []
    # Arrow input as DuckDB and pandas give it: 32-bit offsets, several chunks, slices
    chunked = pa.chunked_array([pa.array(texts[:100], pa.string()), pa.array(texts[100:], pa.string())])
    assert tokenize_columns(chunked).lists() == columns.lists()
    assert tokenize_columns(pa.array(texts).slice(5, 50)).lists() == columns.lists()[5:55]


# BM25Okapi parity


def test_fixture_exercises_the_epsilon_rule(corpus: list[list[str]]) -> None:
    assert [] in corpus
    reference = BM25Okapi(corpus)
    ours = BM25(corpus)
    common = [t for t, i in ours.vocab.items() if ours.doc_freq[i] > len(corpus) / 2]
    assert {"cifras", "millones"} <= set(common)
    floor = 0.25 * reference.average_idf
    assert all(reference.idf[t] == floor == ours.idf[ours.vocab[t]] for t in common)


@pytest.mark.parametrize("params", [{}, {"k1": 1.2, "b": 0.5, "epsilon": 0.1}, {"k1": 2.0, "b": 0.9, "epsilon": 0.0}])
def test_scores_equal_rank_bm25(corpus: list[list[str]], queries: list[list[str]], params: dict[str, float]) -> None:
    reference = BM25Okapi(corpus, **params)
    ours = BM25(corpus, **params)
    for query in queries:
        expected = reference.get_scores(query)
        np.testing.assert_array_equal(ours.scores(query), expected)  # bit for bit (1e-9 relative is required)
        indices, scores = ours.top_k(query, 10)
        assert indices.tolist() == _reference_top(expected, 10).tolist()
        np.testing.assert_allclose(scores, expected[indices], rtol=1e-9, atol=0)


def test_empty_documents_score_zero_where_rank_bm25_gives_nan() -> None:
    docs = [[], ["renta"], ["bolsa", "renta"]]
    with np.errstate(invalid="ignore"):  # 0 / 0 when b = 1 and |d| = 0
        assert np.isnan(BM25Okapi(docs, b=1.0).get_scores(["renta"])[0])
    assert BM25(docs, b=1.0).scores(["renta"])[0] == 0.0


def test_top_k_many_equals_top_k(corpus: list[list[str]], queries: list[list[str]],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bm25_module, "_BLOCK_POSTINGS", 40)  # several sparse blocks
    ours = BM25(corpus)
    indices, scores = ours.top_k_many(queries, 10)
    assert indices.shape == scores.shape == (len(queries), 10)
    for query, idx, val in zip(queries, indices, scores, strict=True):
        one_idx, one_val = ours.top_k(query, 10)
        assert idx.tolist() == one_idx.tolist()
        assert val.tolist() == one_val.tolist()


# What bm25s reproduces: the lucene variant; BM25Okapi only without the epsilon floor


def _bm25s_scores(corpus: list[list[str]], queries: list[list[str]], idf_method: str) -> list[np.ndarray]:
    retriever = bm25s.BM25(method="atire", idf_method=idf_method, dtype="float64")
    retriever.index(corpus, show_progress=False)
    return [retriever.get_scores(q) for q in queries]


def test_lucene_variant_is_non_negative_and_equals_bm25s(corpus: list[list[str]], queries: list[list[str]]) -> None:
    ours = BM25(corpus, idf="lucene")
    assert (ours.idf > 0).all()
    asked = [q for q in queries if q]
    for query, expected in zip(asked, _bm25s_scores(corpus, asked, "lucene"), strict=True):
        scores = ours.scores(query)
        assert (scores >= 0).all()
        np.testing.assert_allclose(scores, expected, rtol=1e-9, atol=0)


def test_bm25s_matches_okapi_only_without_epsilon(corpus: list[list[str]]) -> None:
    asked = [["cifras", "repsol"], ["millones", "dividendo", "2021"]]
    robertson = _bm25s_scores(corpus, asked, "robertson")
    for query, expected in zip(asked, robertson, strict=True):
        np.testing.assert_allclose(BM25(corpus, epsilon=0.0).scores(query), expected, rtol=1e-9, atol=1e-12)
        assert not np.allclose(BM25(corpus).scores(query), expected)


# top_k: masks, ties, limits


def test_mask_restricts_results(corpus: list[list[str]], queries: list[list[str]]) -> None:
    ours = BM25(corpus)
    mask = np.random.default_rng(3).random(len(corpus)) < 0.3
    for query in queries:
        indices, scores = ours.top_k(query, 10, mask=mask)
        assert mask[indices].all()
        assert indices.tolist() == _reference_top(ours.scores(query), 10, mask).tolist()
    few = np.zeros(len(corpus), dtype=bool)
    few[[5, 17, 40]] = True
    assert sorted(ours.top_k(["repsol"], 10, mask=few)[0].tolist()) == [5, 17, 40]
    with pytest.raises(ValueError, match="mask"):
        ours.top_k(["repsol"], 10, mask=np.ones(len(corpus) - 1, dtype=bool))


def test_ties_are_broken_by_lower_index() -> None:
    docs = [["renta", "fija"], ["bolsa"], ["renta", "fija"], ["renta", "fija"], ["bolsa", "renta"], ["fija"]]
    lucene = BM25(docs, idf="lucene")
    assert lucene.top_k(["fija"], 4)[0].tolist() == [5, 0, 2, 3]  # shortest document first, then equal scores
    assert lucene.top_k(["zzzz"], 3)[0].tolist() == [0, 1, 2]  # all score 0
    assert lucene.top_k(["bolsa"], 10)[0].tolist() == [1, 4, 0, 2, 3, 5]  # k > N: every document
    okapi = BM25(docs)  # here the epsilon floor is negative: non-matching documents rank first
    reference = BM25Okapi(docs)
    for query in (["renta"], ["fija", "renta"], ["bolsa"], ["fija"]):
        assert okapi.top_k(query, 6)[0].tolist() == _reference_top(reference.get_scores(query), 6).tolist()


def test_invalid_arguments() -> None:
    with pytest.raises(ValueError, match="empty corpus"):
        BM25([])
    with pytest.raises(ValueError, match="idf"):
        BM25([["a"]], idf="atire")
    with pytest.raises(ValueError, match="k must"):
        BM25([["a"]]).top_k(["a"], 0)
