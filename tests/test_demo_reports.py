"""Invariants of the Spanish report corpus generator (factstore.demo.reports, rag6 format)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from factstore.demo import reports as demo_reports
from factstore.text.markdown import SUPERSCRIPTS, segment

ROOT = Path(__file__).resolve().parents[1]
DOC_COLUMNS = ["id_doc", "titulo", "tipo", "texto"]
PASSAGE_COLUMNS = ["id_pasaje", "id_doc", "seccion", "tipo", "inicio", "fin"]
QUESTION_COLUMNS = ["id_pregunta", "id_doc", "pregunta", "respuesta_oro", "pasajes_oro", "tipo_pregunta", "respondible"]
MIN_QUESTIONS = {"dato": 15, "tabla": 15, "nota": 15, "lista": 15, "comparacion": 8, "no_respondible": 10}
NAMES = (
    *(issuer.name for issuer in demo_reports.ISSUERS),
    *(fund.short for fund in demo_reports.FUNDS),
    demo_reports.MANAGER,
    demo_reports.BROKER,
)
NUMBER = re.compile(r"\d+(?:\.\d{3})*(?:,\d+)?")


@pytest.fixture(scope="module")
def corpus() -> demo_reports.ReportCorpus:
    return demo_reports.generate_reports()


@pytest.fixture(scope="module")
def texts(corpus) -> dict[str, str]:
    return dict(zip(corpus.documents.id_doc, corpus.documents.texto, strict=True))


@pytest.fixture(scope="module")
def passage_text(corpus, texts) -> dict[str, str]:
    p = corpus.passages
    return {pid: texts[doc][a:b] for pid, doc, a, b in zip(p.id_pasaje, p.id_doc, p.inicio, p.fin, strict=True)}


def split_ids(value: str) -> list[str]:
    return [x for x in value.split(";") if x]


def contains_number(text: str, number: str) -> bool:
    """``number`` appears in ``text`` as a whole number (not inside a longer one)."""
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", text) is not None


# --------------------------------------------------------------------------- segmentation


def test_segment_blocks_kinds_and_offsets():
    blocks = [
        "# Título",
        "Un párrafo\nen dos líneas.",
        "| a | b |\n| --- | --- |\n| 1 | 2 |",
        "¹ Una nota.",
        "- uno\n- dos",
        "1. primero\n2. segundo",
        "## Sección",
    ]
    text = "\n" + "\n\n".join(blocks[:3]) + "\n \n\n\n" + "\n\n".join(blocks[3:]) + "\n\n"
    got = segment(text)
    assert [text[a:b] for a, b, _ in got] == blocks
    assert [kind for _, _, kind in got] == ["titulo", "texto", "tabla", "nota", "lista", "lista", "titulo"]
    assert segment("") == [] and segment("\n \n") == []
    assert segment("sin salto final") == [(0, 15, "texto")]


# --------------------------------------------------------------------------- schema and determinism


def test_schema_and_dtypes(corpus):
    d, p, q = corpus.documents, corpus.passages, corpus.questions
    assert list(d.columns) == DOC_COLUMNS
    assert list(p.columns) == PASSAGE_COLUMNS
    assert list(q.columns) == QUESTION_COLUMNS
    for frame, ints, bools in ((d, (), ()), (p, ("inicio", "fin"), ()), (q, (), ("respondible",))):
        for col in frame.columns:
            if col in ints:
                assert frame[col].dtype == "int64", col
            elif col in bools:
                assert frame[col].dtype == bool, col
            else:
                assert pd.api.types.is_string_dtype(frame[col]), col
                assert frame[col].notna().all(), col
    assert d.id_doc.str.fullmatch(r"R\d{3}").all() and d.id_doc.is_unique
    assert p.id_pasaje.str.fullmatch(r"R\d{3}-P\d{4}").all() and p.id_pasaje.is_unique
    assert q.id_pregunta.is_unique
    assert set(d.tipo) == set(demo_reports.DOCUMENT_KINDS)
    assert set(p.tipo) == set(demo_reports.PASSAGE_KINDS)
    assert set(q.tipo_pregunta) == set(demo_reports.QUESTION_KINDS)


def test_deterministic_and_seeded(corpus):
    again = demo_reports.generate_reports(seed=7)
    for name in ("documents", "passages", "questions"):
        pd.testing.assert_frame_equal(getattr(corpus, name), getattr(again, name))
    other = demo_reports.generate_reports(seed=8)
    assert list(other.documents.tipo) == list(corpus.documents.tipo)
    assert (other.documents.texto != corpus.documents.texto).all()
    with pytest.raises(ValueError):
        demo_reports.generate_reports(seed=-1)


def test_corpus_shape(corpus):
    d = corpus.documents
    assert 35 <= len(d) <= 50
    size = d.texto.str.encode("utf-8").str.len()
    assert size.between(4_000, 15_000).all(), d.titulo[~size.between(4_000, 15_000)].tolist()
    assert d.titulo.is_unique
    reports = d[d.tipo == "informe_anual"].titulo
    for issuer in demo_reports.ISSUERS:
        for year in (2022, 2023):
            assert (reports == f"{issuer.name} — Informe anual {year}").sum() == 1
    for titulo, texto in zip(d.titulo, d.texto, strict=True):
        assert texto.startswith(f"# {titulo}\n")
        assert re.search(r"\b20\d\d\b", titulo), titulo
        assert sum(name in titulo for name in NAMES) >= 1, titulo
    assert 150 <= len(corpus.questions) <= 250


# --------------------------------------------------------------------------- passages


def test_passages_are_the_canonical_segmentation(corpus, texts):
    for id_doc, group in corpus.passages.groupby("id_doc", sort=False):
        expected = segment(texts[id_doc])
        assert list(zip(group.inicio, group.fin, group.tipo, strict=True)) == expected
        assert list(group.id_pasaje) == [f"{id_doc}-P{k:04d}" for k in range(1, len(expected) + 1)]


def test_passage_text_is_a_clean_block(passage_text):
    for pid, text in passage_text.items():
        assert text and text == text.strip(), pid
        assert "\n\n" not in text and not re.search(r"\n\s*\n", text), pid


def test_sections(corpus, texts):
    titles = dict(zip(corpus.documents.id_doc, corpus.documents.titulo, strict=True))
    for id_doc, group in corpus.passages.groupby("id_doc", sort=False):
        current = titles[id_doc]
        for a, b, tipo, seccion in zip(group.inicio, group.fin, group.tipo, group.seccion, strict=True):
            block = texts[id_doc][a:b]
            if tipo == "titulo" and block.startswith("##"):
                current = block.lstrip("#").strip()
            assert seccion == current, (id_doc, block[:40])


def test_tables_are_followed_by_their_notes(corpus, passage_text):
    p = corpus.passages.reset_index(drop=True)
    for i in p.index[p.tipo == "tabla"]:
        marks = list(dict.fromkeys(ch for ch in passage_text[p.id_pasaje[i]] if ch in SUPERSCRIPTS))
        following = p.iloc[i + 1 : i + 1 + len(marks)]
        assert (following.id_doc == p.id_doc[i]).all() and (following.tipo == "nota").all(), p.id_pasaje[i]
        assert [passage_text[pid][0] for pid in following.id_pasaje] == marks
    for i in p.index[p.tipo == "nota"]:
        assert p.tipo[i - 1] in ("tabla", "nota") and p.id_doc[i - 1] == p.id_doc[i], p.id_pasaje[i]


def test_key_figure_tables(corpus, passage_text):
    p, d = corpus.passages, corpus.documents
    key = p[(p.tipo == "tabla") & (p.seccion == "Principales magnitudes")]
    assert sorted(key.id_doc) == sorted(d.id_doc[d.tipo == "informe_anual"])
    for pid in key.id_pasaje:
        table = passage_text[pid]
        assert len(table) > 600, pid
        rows = table.split("\n")[2:]
        assert 6 <= len(rows) <= 12 and any(ch in table for ch in SUPERSCRIPTS)
        assert all(re.search(r"\| -?\d{1,3}(\.\d{3})*,\d+ \|", row) for row in rows), pid
    figures = [passage_text[pid].split("\n", 3)[3] for pid in key.id_pasaje]
    assert len(set(figures)) == len(figures)


# --------------------------------------------------------------------------- questions


def test_question_kinds_and_counts(corpus):
    q = corpus.questions
    counts = q.tipo_pregunta.value_counts()
    for kind, minimum in MIN_QUESTIONS.items():
        assert counts.get(kind, 0) >= minimum, kind
    assert (q.respondible == (q.tipo_pregunta != "no_respondible")).all()
    assert (q.pasajes_oro[~q.respondible] == "").all()
    assert (q.pasajes_oro[q.respondible] != "").all()
    assert q.pregunta.is_unique
    assert q.pregunta.str.match("^(¿|Enumera |Según |De |Entre )").all()
    for kind, group in q.groupby("tipo_pregunta"):
        openings = {" ".join(text.split()[:2]) for text in group.pregunta}
        assert len(openings) >= 4, kind


def test_gold_passages_exist_and_belong_to_the_questions_documents(corpus):
    q, p = corpus.questions, corpus.passages
    owner = dict(zip(p.id_pasaje, p.id_doc, strict=True))
    docs = set(corpus.documents.id_doc)
    for row in q.itertuples():
        id_docs = split_ids(row.id_doc)
        assert id_docs and set(id_docs) <= docs, row.id_pregunta
        gold = split_ids(row.pasajes_oro)
        assert all(pid in owner for pid in gold), row.id_pregunta
        if row.respondible:
            assert {owner[pid] for pid in gold} == set(id_docs), row.id_pregunta
    multi = q[q.tipo_pregunta == "comparacion"].id_doc.map(lambda v: len(split_ids(v)))
    assert (multi >= 2).all()


def test_answers_are_in_the_gold_passages(corpus, passage_text):
    q = corpus.questions
    for row in q[q.respondible].itertuples():
        gold = "\n".join(passage_text[pid] for pid in split_ids(row.pasajes_oro))
        answer = row.respuesta_oro
        if row.tipo_pregunta == "lista":
            items = answer.split("; ")
            assert len(items) >= 3 and all(item in gold for item in items), row.id_pregunta
            continue
        if row.tipo_pregunta == "comparacion":
            assert any(name in answer for name in NAMES), row.id_pregunta
            for name in NAMES:
                answer = answer.replace(name, "")
            answer = re.sub(r"UCITS ETF|\d+-\d+", "", answer)
        numbers = NUMBER.findall(answer)
        if numbers:
            assert all(contains_number(gold, n) for n in numbers), (row.id_pregunta, answer)
        else:
            assert answer.lower() in gold.lower(), (row.id_pregunta, answer)
        if row.tipo_pregunta == "nota":
            tipos = {passage_text[pid][0] in SUPERSCRIPTS for pid in split_ids(row.pasajes_oro)}
            assert True in tipos, row.id_pregunta


def test_gold_passage_kinds_match_question_kinds(corpus):
    q, p = corpus.questions, corpus.passages
    kind = dict(zip(p.id_pasaje, p.tipo, strict=True))
    expected = {"dato": {"texto"}, "tabla": {"tabla"}, "nota": {"nota", "tabla"}, "lista": {"lista"}}
    for row in q.itertuples():
        if row.tipo_pregunta in expected:
            assert {kind[pid] for pid in split_ids(row.pasajes_oro)} <= expected[row.tipo_pregunta], row.id_pregunta


def test_questions_name_the_entities_of_their_documents(corpus):
    titles = dict(zip(corpus.documents.id_doc, corpus.documents.titulo, strict=True))
    for row in corpus.questions.itertuples():
        for id_doc in split_ids(row.id_doc):
            assert any(name in row.pregunta and name in titles[id_doc] for name in NAMES), (row.id_pregunta, id_doc)


def test_unanswerable_years_are_not_covered(corpus, texts):
    q = corpus.questions
    for row in q[~q.respondible].itertuples():
        for year in re.findall(r"\b(?:19|20)\d\d\b", row.pregunta):
            docs = " ".join(texts[d] for d in split_ids(row.id_doc))
            if int(year) < 2021:
                assert year not in docs, (row.id_pregunta, year)


# --------------------------------------------------------------------------- files


def test_write_round_trip(corpus, tmp_path):
    paths = demo_reports.write_report_files(tmp_path)
    assert {k: p.name for k, p in paths.items()} == {
        "documents": "rag6_documentos.parquet",
        "passages": "rag6_pasajes.parquet",
        "questions": "rag6_preguntas.csv",
    }
    pd.testing.assert_frame_equal(pd.read_parquet(paths["documents"]), corpus.documents, check_dtype=False)
    pd.testing.assert_frame_equal(pd.read_parquet(paths["passages"]), corpus.passages, check_dtype=False)
    back = pd.read_csv(paths["questions"], keep_default_na=False)
    assert list(back.columns) == QUESTION_COLUMNS
    assert back.respondible.dtype == bool
    assert back.astype(str).equals(corpus.questions.astype(str))


def test_script_writes_the_files(tmp_path):
    out = tmp_path / "reports"
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_report_corpus.py"), "--out", str(out), "--seed", "3"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )  # fmt: skip
    names = ["rag6_documentos.parquet", "rag6_pasajes.parquet", "rag6_preguntas.csv"]
    assert sorted(f.name for f in out.iterdir()) == names
    assert result.stdout.count("rows") == 3
    questions = pd.read_csv(out / "rag6_preguntas.csv", keep_default_na=False)
    assert str(len(questions)) in result.stdout
