"""The text path end to end: load filings and reports, chunk, index, search with filters, evaluate; and the search's
as_of filter at its edges (a filing searchable from the second it was accepted, a report without an acceptance time
from 00:00 UTC of 1 January after the year its title names, one naming no year never while as_of is given)."""

from __future__ import annotations

import json
import signal
from contextlib import contextmanager
from datetime import datetime, timedelta

import pandas as pd
import pytest

import factstore
from factstore.cli import main
from factstore.demo.data import generate
from factstore.demo.reports import generate_reports
from factstore.evaluate.retrieval import at_budget, coverage, evaluate
from factstore.text.chunkers import BASELINES
from tests.helpers import budget


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    return generate_reports().write(folder)


@pytest.fixture(scope="module")
def store(corpus):
    filings = generate(companies=3)
    with factstore.open() as s:
        s.load_course(xbrl=filings.xbrl, documents=filings.documents)
        s.load_reports(corpus["documents"])
        yield s


def test_every_hit_cites_spans_that_slice_the_stored_text(store):
    for strategy in ("fixed", "recursive", "structure", "scoped"):
        hits = store.search("riesgos principales Busmar Hogar", k=8, strategy=strategy)
        assert hits
        for h in hits:
            text = store.document(h.doc_id).text
            assert h.text == "\n\n".join(text[s:e] for s, e in h.spans)


def test_filters_restrict_hits(store):
    hits = store.search("revenue risk", k=20, filters={"form": "10-K", "issuer": "rapsa"})
    assert hits and {h.form for h in hits} == {"10-K"} and {h.issuer for h in hits} == {"Rapsa"}
    hits = store.search("gastos corrientes", k=20, filters={"year": 2024})
    assert hits and {h.year for h in hits} == {2024}
    doc = hits[0].doc_id
    assert {h.doc_id for h in store.search("gastos", k=10, filters={"doc_id": doc})} == {doc}
    ends = {h.doc_id for h in store.search("revenue", k=10, filters={"period_end": "2019-12-31"})}
    periods = store.sql("SELECT doc_id, period_end FROM documents").set_index("doc_id")["period_end"]
    assert ends and {periods[d] for d in ends} == {pd.Timestamp("2019-12-31")}
    with pytest.raises(ValueError, match="unknown filter"):
        store.search("x", filters={"colour": "red"})


def test_as_of_hides_filings_accepted_later(store):
    cutoff = pd.Timestamp("2020-01-01")
    hits = store.search("revenue", k=50, filters={"as_of": cutoff})
    accepted = store.sql("SELECT doc_id, accepted_at FROM documents").set_index("doc_id")["accepted_at"]
    assert hits and all(pd.isna(accepted[h.doc_id]) or accepted[h.doc_id] <= cutoff for h in hits)


def test_filings_keep_their_items_as_sections(store):
    doc_id = store.sql("SELECT doc_id FROM documents WHERE form = '10-Q' LIMIT 1")["doc_id"][0]
    sections = store.sql("SELECT part, item, start_char, end_char FROM sections WHERE doc_id = ? AND item IS NOT NULL "
                         "ORDER BY section_no", [doc_id])
    assert {("I", "1"), ("II", "1A")} <= set(zip(sections["part"], sections["item"], strict=True))
    hits = store.search("risk factors", k=3, filters={"doc_id": doc_id}, header=True)
    assert any("Item 1A" in h.header for h in hits)


@contextmanager
def hang_guard(seconds: int):
    """Fail instead of hanging (not a timing assertion: the work must not depend on k at all)."""
    def stop(*_):
        raise TimeoutError(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(("strategy", "query"), [
    ("structure", "riesgos principales Busmar Hogar"),
    ("scoped", "riesgos principales Busmar Hogar"),  # one issuer named: a filtered search
    ("scoped", "riesgos de Busmar Hogar y Rapsa en 2024"),  # two issuers: one search each, merged in turn
])
def test_k_beyond_the_chunk_count_returns_every_chunk_once(store, strategy, query):
    store.search(query, k=1, strategy=strategy)  # indexes the strategy
    chunks = int(store.sql("SELECT count(*) AS n FROM chunks WHERE strategy = ?", [strategy])["n"][0])
    with hang_guard(60):
        huge = store.search(query, k=10**9, strategy=strategy)
    assert huge == store.search(query, k=chunks, strategy=strategy)
    assert 0 < len(huge) <= chunks
    assert len({(h.doc_id, h.chunk_no) for h in huge}) == len(huge)
    if strategy == "structure":
        assert len(huge) == chunks


def test_ask_with_k_beyond_the_chunk_count(store):
    question = "¿Qué riesgos principales señala Busmar Hogar?"
    store.search(question, k=1, strategy="scoped")
    chunks = int(store.sql("SELECT count(*) AS n FROM chunks WHERE strategy = 'scoped'")["n"][0])
    with hang_guard(60):
        huge = store.ask(question, k=10**9)
    assert huge.kind == "passages" and huge == store.ask(question, k=chunks)


@pytest.mark.parametrize("strategy", ["structure", "scoped"])
@pytest.mark.parametrize("k", [0, -1])
def test_k_below_one_is_rejected(store, strategy, k):
    for query, filters in [("riesgos Busmar Hogar", None), ("revenue", {"year": 1800})]:  # the latter matches nothing
        with pytest.raises(ValueError, match="k must be at least 1"):
            store.search(query, k=k, strategy=strategy, filters=filters)


def test_coverage_counts_union_of_spans_once(store):
    hit = store.search("x", k=1)  # any hit, to borrow the type
    if not hit:
        pytest.skip("empty index")
    h = hit[0]
    doc, (s, e) = h.doc_id, h.spans[0]
    assert coverage((doc, s, e), [h, h]) == 1.0
    assert coverage((doc, s, e + (e - s)), [h]) == pytest.approx(0.5)
    assert coverage(("other", s, e), [h]) == 0.0


@budget(2, 1, name="every")  # every other question in the default run (103 of 206); all of them slow
def test_scoped_beats_structure_at_equal_budget(corpus, tmp_path, every):
    questions = tmp_path / "questions.csv"
    pd.read_csv(corpus["questions"]).iloc[::every].to_csv(questions, index=False, lineterminator="\n")
    with factstore.open() as s:
        s.load_reports(corpus["documents"])
        summary, by_type = evaluate(s, corpus["passages"], questions, strategies=("structure", "scoped"),
                                    headers=(True,))
    budget = summary[(summary["strategy"] == "structure") & (summary["k"] == 5)]["chars"].iloc[0]
    best = at_budget(summary, budget).set_index("strategy")["recall"]
    assert best["scoped"] > best["structure"] + 0.05
    assert set(by_type["type"]) >= {"dato", "tabla", "nota", "lista", "comparacion"}


@budget(20, 1, name="every")  # every 20th question in the default run (11 of 206, every document); all of them slow
def test_eval_cli_json_and_plot(corpus, tmp_path, capsys, every):
    plot = tmp_path / "curve.png"
    questions = tmp_path / "questions.csv"
    pd.read_csv(corpus["questions"]).iloc[::every].to_csv(questions, index=False, lineterminator="\n")
    code = main(["eval", "retrieval", "--documents", str(corpus["documents"]), "--passages",
                 str(corpus["passages"]), "--questions", str(questions), "--json", "--plot", str(plot)])
    assert code == 0
    records = json.loads(capsys.readouterr().out)
    assert {tuple(sorted(r)) for r in records} == {("chars", "complete", "header", "k", "recall", "strategy")}
    assert set(BASELINES) <= {r["strategy"] for r in records}
    assert {r["k"] for r in records} == set(range(1, 11)) and {r["header"] for r in records} == {True, False}
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_store_without_document_text_says_so_rather_than_crash():
    """Facts without documents (generate(html=False)): search refuses with the reason, ask answers 'unanswerable'
    with it, and neither names an internal error."""
    data = generate(companies=2, html=False)
    with factstore.open() as store:
        store.load_course(xbrl=data.xbrl, documents=data.documents, progress=False)
        with pytest.raises(factstore.NotFound, match="no document text"):
            store.search("risk factors", strategy="scoped")
        answer = store.ask("What risks does Rapsa name?")
        assert answer.kind == "unanswerable" and "no document text" in answer.explanation
        assert "error while answering" not in answer.explanation


# ------------------------------------------------------------------------------ as_of at its edges
SECOND = timedelta(seconds=1)
ACCEPTED = datetime(2024, 3, 5, 15, 0, 0)
TEXT = "# Riesgos\n\nEl zafiro azul es el riesgo principal de {name}.\n"


@pytest.fixture(scope="module")
def dated_store():
    reports = pd.DataFrame({"id_doc": ["R2023", "R-undated"], "tipo": ["informe_anual", "nota"],
                            "titulo": ["Acme — Informe anual 2023", "Acme — Nota de prensa"],
                            "texto": [TEXT.format(name="Acme"), TEXT.format(name="Acme")]})
    filing = pd.DataFrame({"id_doc": ["F1"], "ticker": ["ACM"], "emisor": ["Acme"], "tipo": ["10-K"],
                           "periodo_fin": ["2023-12-31"], "texto": ["<p>The zafiro azul risk of Acme.</p>"],
                           "ts_presentacion": [pd.Timestamp(ACCEPTED, tz="UTC")]})
    with factstore.open() as s:
        s.load_reports(reports)
        s.load_course(documents=filing)
        yield s


@pytest.mark.parametrize(("as_of", "expected"), [
    (datetime(2023, 12, 31, 23, 59, 59), set()),
    (datetime(2024, 1, 1), {"R2023"}),
    (ACCEPTED - SECOND, {"R2023"}),
    (ACCEPTED, {"R2023", "F1"}),
    (datetime(2099, 1, 1), {"R2023", "F1"}),
    (None, {"R2023", "R-undated", "F1"}),
])
def test_documents_become_searchable_when_they_became_public(dated_store, as_of, expected):
    hits = dated_store.search("zafiro azul", k=10, strategy="structure", filters={"as_of": as_of} if as_of else None)
    assert {h.doc_id for h in hits} == expected


def _cited(answer):
    return [(c.doc, c.start, c.end) for c in answer.citations]


def _spans(hits):
    return [(h.doc_id, s, e) for h in hits for s, e in h.spans]


def test_search_gives_the_passages_ask_cites(store, corpus):
    """#46: search() ranks as ask does (one door, one ranking), the course's strategies only by name."""
    questions = pd.read_csv(corpus["questions"])["pregunta"].tolist()[:25]
    compared = 0
    for question in [*questions, "What does Rapsa say about revenue risk?"]:
        answer = store.ask(question, k=3)
        if answer.kind in ("passages", "table"):
            assert _spans(store.search(question, k=3)) == _cited(answer), question
            compared += 1
    assert compared >= 10
    assert _spans(store.search(questions[0], k=3)) != _spans(store.search(questions[0], k=3, strategy="structure"))


def test_the_company_filter_narrows_the_default_search(store):
    question = "¿Qué riesgos principales señala la empresa?"
    hits = store.search(question, k=5, filters={"company": "Rapsa"})
    assert hits and {h.issuer for h in hits} == {"Rapsa"}
    assert len({h.doc_id for h in hits}) > 1
    one = hits[-1].doc_id  # the caller's doc_id narrows the company's documents
    assert {h.doc_id for h in store.search(question, k=5, filters={"company": "Rapsa", "doc_id": one})} == {one}
    with pytest.raises(factstore.NotFound, match="Quillmark"):
        store.search(question, filters={"company": "Quillmark"})


def test_the_command_line_searches_as_the_library(corpus, tmp_path, capsys):
    path = tmp_path / "reports.duckdb"
    with factstore.open(path) as s:
        s.load_reports(corpus["documents"])
    question = "¿Qué riesgos principales señala la empresa?"
    for options, kwargs in [(["--company", "Busmar Hogar"], {"filters": {"company": "Busmar Hogar"}}),
                            (["--strategy", "structure", "--header"], {"strategy": "structure", "header": True})]:
        assert main(["search", question, "-k", "3", "--json", "--db", str(path), *options]) == 0
        printed = [(h["doc_id"], [tuple(s) for s in h["spans"]]) for h in json.loads(capsys.readouterr().out)]
        with factstore.open(path, read_only=True) as s:
            assert printed == [(h.doc_id, [tuple(s) for s in h.spans]) for h in s.search(question, k=3, **kwargs)]
    assert {d for d, _ in printed} and main(["search", question, "--company", "Quillmark", "--db", str(path)]) == 1
    assert "Quillmark" in capsys.readouterr().err
