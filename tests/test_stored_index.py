"""The stored BM25 index: written with the chunks, searched by later processes without tokenizing a chunk (and
without changing it), appended to when a document arrives (equal to a full rebuild), equal to rank_bm25 after a
round trip through the file, and replaced by one in memory on a read-only store that lacks it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from rank_bm25 import BM25Okapi

import factstore
from factstore.demo.reports import generate_reports
from factstore.text import postings
from factstore.text.tokenize import tokenize, tokenize_many
from tests.samples import filing_texts

STRATEGIES = ("structure", "fixed", "scoped")
TABLES = {"bm25_docs": "strategy, doc_id", "bm25_chunks": "strategy, chunk_id", "bm25_terms": "strategy, term_id",
          "bm25_postings": "term_id, chunk_id"}
QUERIES = ["riesgos principales", "ingresos netos 2023", "cifras en millones de euros", "dividendo por acción",
           "deuda deuda financiera", "comisión de gestión del fondo", "zzzz", "riesgos de Busmar Hogar en 2023"]
# (query, k, strategy, header, filters): every filter, both header flags, the scoped strategy's question scope
SEARCHES = [(q, 10, s, h, None) for q in QUERIES for s in STRATEGIES for h in (False, True)] + [
    ("riesgos", 10, "structure", False, {"issuer": "busmar hogar"}),
    ("ingresos", 10, "structure", True, {"year": [2023], "form": "informe_anual"}),
    ("gastos", 10, "fixed", False, {"as_of": "2024-06-30"}),
    ("fondo", 10, "scoped", True, {"doc_id": "R003"}),
]
# A later process: chunks must not be tokenized (only queries are); prints each search's hits as results() gives them.
LATER = """
import json, sys
import factstore
from factstore.text import postings, search

def refuse(*args, **kwargs):
    raise AssertionError("a chunk was tokenized")

postings.tokenize_columns = search.tokenize_columns = refuse
path, mode, searches = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
with factstore.open(path, read_only=mode == "read_only") as store:
    print(json.dumps([[[x.doc_id, x.chunk_no, [list(p) for p in x.spans], x.text, x.score]
                       for x in store.search(q, k=k, strategy=s, header=h, filters=f)] for q, k, s, h, f in searches]))
"""


@pytest.fixture(scope="module")
def reports() -> pd.DataFrame:
    return generate_reports().documents


@pytest.fixture(scope="module")
def stored(tmp_path_factory, reports) -> Path:
    """A store file with every report but the last, indexed with each strategy, closed."""
    path = tmp_path_factory.mktemp("stored") / "store.duckdb"
    with factstore.open(path) as store:
        store.load_reports(reports.iloc[:-1], progress=False)
        for strategy in STRATEGIES:
            store.index(strategy, progress=False)
    return path


@pytest.fixture(scope="module")
def parity(tmp_path_factory) -> Path:
    """A store file of short filing-like reports, one chunk each, where 'cifras' and 'millones' are in most chunks
    (BM25Okapi's epsilon rule applies), and one of stop words only; indexed (structure), closed."""
    texts = [*filing_texts(), "de la y of the"]
    path = tmp_path_factory.mktemp("parity") / "store.duckdb"
    with factstore.open(path) as store:
        store.load_reports(pd.DataFrame({
            "id_doc": [f"P{i:03d}" for i in range(len(texts))], "tipo": "nota",
            "titulo": [f"Emisor {i % 7} — Nota {2015 + i % 10}" for i in range(len(texts))], "texto": texts}),
            progress=False)
        store.index("structure", progress=False)
    return path


def later(path: Path, mode: str, searches: list) -> list:
    """The searches' results from a fresh process that opens the store (read_only or for writing)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run([sys.executable, "-c", LATER, str(path), mode, json.dumps(searches)], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def results(store: factstore.FactStore, searches: list) -> list:
    """Each search's hits: doc_id, chunk_no, spans, text and score (as JSON gives them back)."""
    return [[[x.doc_id, x.chunk_no, [list(p) for p in x.spans], x.text, x.score]
             for x in store.search(q, k=k, strategy=s, header=h, filters=f)] for q, k, s, h, f in searches]


def tables(path: Path) -> dict[str, pd.DataFrame]:
    with factstore.open(path, read_only=True) as store:
        return {t: store.sql(f"SELECT * FROM {t} ORDER BY {order}") for t, order in TABLES.items()}


def assert_same_hits(got: list, expected: list) -> None:
    """Equal hits (chunk, spans, text) in equal order, scores equal but for the last bits (sums in another order)."""
    for g, e in zip(got, expected, strict=True):
        assert [h[:-1] for h in g] == [h[:-1] for h in e]
        np.testing.assert_allclose([h[-1] for h in g], [h[-1] for h in e], rtol=1e-12, atol=1e-15)


def test_index_tables_are_written_with_the_chunks(stored):
    written = tables(stored)
    with factstore.open(stored, read_only=True) as store:
        chunks = store.sql("SELECT strategy, count(*) AS n FROM chunks GROUP BY strategy").set_index("strategy")["n"]
    assert set(written["bm25_docs"]["strategy"]) == set(STRATEGIES)
    indexed = written["bm25_docs"].groupby("strategy")["chunks"].sum()
    assert indexed.to_dict() == chunks.to_dict()
    assert written["bm25_chunks"].groupby("strategy").size().to_dict() == chunks.to_dict()
    tf = written["bm25_postings"][["text_tf", "header_tf"]]
    assert len(tf) > 0 and (tf.sum(axis=1) > 0).all()


@pytest.mark.parametrize("mode", ["read_only", pytest.param("write", marks=pytest.mark.slow)])
def test_a_later_process_searches_the_stored_index_as_is(stored, mode, tmp_path):
    path = tmp_path / "copy.duckdb"
    shutil.copyfile(stored, path)
    with factstore.open(stored, read_only=True) as store:
        expected = results(store, SEARCHES)
    before = tables(path)
    assert later(path, mode, SEARCHES) == expected  # the same hits and scores, and no chunk tokenized
    after = tables(path)
    for name in TABLES:
        pd.testing.assert_frame_equal(after[name], before[name])


@pytest.mark.parametrize("header", [False, True])
def test_scores_after_a_round_trip_equal_rank_bm25(parity, header):
    with factstore.open(parity, read_only=True) as store:
        chunks = store.sql("SELECT doc_id, chunk_no, header, text FROM chunks WHERE strategy = 'structure' "
                           "ORDER BY doc_id, chunk_no")
    texts = chunks["header"] + "\n" + chunks["text"] if header else chunks["text"]
    reference = BM25Okapi(tokenize_many(texts))
    floor = reference.epsilon * reference.average_idf
    assert sum(v == floor for v in reference.idf.values()) >= 2, "the corpus must exercise BM25Okapi's epsilon rule"
    position = {key: i for i, key in enumerate(zip(chunks["doc_id"], chunks["chunk_no"], strict=True))}
    asked = [*QUERIES, "cifras en millones", "MILLONES millones cifras", "Repsol beneficio operativo 2021",
             "Apple net revenue fiscal 2023", "dividendo por acción Iberdrola"]
    found = later(parity, "read_only", [(q, len(chunks), "structure", header, None) for q in asked])
    for query, hits in zip(asked, found, strict=True):
        expected = reference.get_scores(tokenize(query))
        rows = [position[doc, no] for doc, no, *_ in hits]
        assert sorted(rows) == list(range(len(chunks)))
        scores = np.array([s for *_, s in hits])
        np.testing.assert_allclose(scores, expected[rows], rtol=1e-9, atol=1e-12)
        order = np.lexsort((np.arange(len(expected)), -expected))
        assert rows[:10] == order[:10].tolist()


@pytest.mark.slow
def test_a_new_document_appends_its_rows_and_equals_a_full_rebuild(stored, reports, tmp_path, monkeypatch):
    path = tmp_path / "grown.duckdb"
    shutil.copyfile(stored, path)
    before = tables(path)
    tokenized: list[str] = []
    columns = postings.tokenize_columns

    def counted(texts, **kwargs):
        tokenized.extend(texts.to_pylist())
        return columns(texts, **kwargs)

    monkeypatch.setattr(postings, "tokenize_columns", counted)
    with factstore.open(path) as store:
        store.load_reports(reports.iloc[-1:], progress=False)
        added = store.sql("SELECT header, text FROM chunks WHERE doc_id = ?", [reports["id_doc"].iloc[-1]])
        grown = results(store, SEARCHES)
    assert len(added) and set(tokenized) == {*added["header"], *added["text"]}  # the new chunks' only
    after = tables(path)
    for name in ("bm25_docs", "bm25_chunks", "bm25_postings"):
        old = after[name].merge(before[name], how="inner")
        pd.testing.assert_frame_equal(old, before[name])  # rows written before are all still there, unchanged
    kept = after["bm25_terms"].merge(before["bm25_terms"][["strategy", "term", "term_id"]])
    assert len(kept) == len(before["bm25_terms"])  # terms keep their ids
    assert (kept["df_all"] >= before["bm25_terms"]["df_all"].to_numpy()).all()

    with factstore.open() as rebuilt:
        rebuilt.load_reports(reports, progress=False)
        for strategy in STRATEGIES:
            rebuilt.index(strategy, progress=False)
        assert_same_hits(grown, results(rebuilt, SEARCHES))


def test_indexing_a_strategy_again_replaces_its_index_only(stored, reports, tmp_path):
    path = tmp_path / "again.duckdb"
    shutil.copyfile(stored, path)
    before = tables(path)
    with factstore.open(path) as store:
        store.index("fixed", size=300, progress=False)
        again = results(store, SEARCHES)
        chunks = store.sql("SELECT count(*) AS n FROM chunks WHERE strategy = 'fixed'")["n"][0]
    after = tables(path)
    assert after["bm25_docs"].query("strategy == 'fixed'")["chunks"].sum() == chunks
    for name in ("bm25_docs", "bm25_chunks", "bm25_terms"):
        others = [t.query("strategy != 'fixed'").reset_index(drop=True) for t in (after[name], before[name])]
        pd.testing.assert_frame_equal(*others)
    with factstore.open() as rebuilt:
        rebuilt.load_reports(reports.iloc[:-1], progress=False)
        for strategy in STRATEGIES:
            rebuilt.index(strategy, size=300 if strategy == "fixed" else None, progress=False)
        assert_same_hits(again, results(rebuilt, SEARCHES))


def test_a_store_without_its_index_searches_in_memory_read_only_and_rebuilds_it_writable(stored, tmp_path):
    path = tmp_path / "bare.duckdb"
    shutil.copyfile(stored, path)
    with factstore.open(path) as store:
        for name in TABLES:
            store.sql(f"DELETE FROM {name}", write=True)
    with factstore.open(stored, read_only=True) as store:
        expected = results(store, SEARCHES)
    with factstore.open(path, read_only=True) as store:
        assert_same_hits(results(store, SEARCHES), expected)
    assert all(t.empty for t in tables(path).values())  # read-only: nothing written
    with factstore.open(path) as store:
        assert_same_hits(results(store, SEARCHES), expected)
    rebuilt, original = tables(path), tables(stored)
    for name in ("bm25_docs", "bm25_chunks"):
        pd.testing.assert_frame_equal(rebuilt[name], original[name])
