"""How `scoped` reads a query on filings: question and function words dropped, Spanish finance words read in
English too (data/glossary.csv), sections that hold what a question asks weighed up (data/section_priors.csv);
and the real gold set's evidence, every string of it, in the stored text of its filing."""

from __future__ import annotations

import csv
import dataclasses
import json

import pandas as pd
import pytest

import factstore
from factstore.evaluate.ask import REAL_FILINGS
from factstore.evaluate.filings import TEXT_GOLD, Evidence, _wanted, locate, locate_all, paragraphs, read_text_gold
from factstore.loaders.filing import html_text
from factstore.resources import data_file
from factstore.text.glossary import english, filed
from factstore.text.search import RANKINGS, ChunkIndex, Ranking
from factstore.text.tokenize import tokenize


def test_glossary_reads_spanish_words_and_phrases_in_english():
    with data_file("glossary.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:  # each entry, as a question would hold it
        assert english(tokenize(row["es"])) == tokenize(row["en"]), row
    assert english(tokenize("controles de exportación")) == ["export", "controls"]  # the phrase, not its words
    assert english(tokenize("plantilla y ventas")) == [*tokenize("workforce employees headcount"),
                                                       *tokenize("sales revenue")]
    assert english(tokenize("the weather today")) == []
    # a word of two senses reads as both ('demanda': demand and lawsuit), a phrase as its own ('class action')
    assert {"demand", "lawsuit"} <= set(english(tokenize("la demanda de GPU")))
    assert english(tokenize("demanda colectiva")) == tokenize("class action lawsuit")


def test_synonyms_read_a_questions_words_with_the_words_filings_use():
    with data_file("synonyms.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:  # each entry, as a question would hold it: the filing's words it does not hold already
        asked, wanted = tokenize(row["asked"]), tokenize(row["filed"])
        assert filed(asked) == [t for t in dict.fromkeys(wanted) if t not in asked], row
    assert filed(tokenize("How many people work at Acme?")) == ["employees"]
    assert filed(tokenize("who are its rivals and competitors")) == ["competition"]  # 'competitors' held already
    assert filed(tokenize("the weather today")) == []
    assert Ranking(plain=True, synonyms=True).terms("Who are Acme's rivals?") == [
        "acme", "rivals", "competitors", "competition"]
    assert RANKINGS["scoped"].synonyms and not Ranking().synonyms  # the course's rankings read queries as written


def test_a_question_in_its_own_words_finds_the_filings_words():
    frame = _chunks([("Human Capital", "As of year end we had approximately 1,200 full-time employees."),
                     ("Culture", "Our culture is shaped by the people who work with our customers every day."),
                     ("Business", "We sell our products through retailers that work with many people.")])
    question = "How many people work at Acme?"
    bare = ChunkIndex.from_frame(frame, ranking=Ranking(plain=True))
    read = ChunkIndex.from_frame(frame, ranking=Ranking(plain=True, synonyms=True))
    assert bare.search(question, k=1)[0].section != "Human Capital"
    assert read.search(question, k=1)[0].section == "Human Capital"


def test_a_plain_ranking_drops_question_words_unless_nothing_else_is_left():
    plain = Ranking(plain=True)
    assert plain.terms("How many employees does Apple have?") == ["employees", "apple"]
    assert plain.terms("¿Cuántos empleados tiene?") == ["empleados"]
    assert plain.terms("what does it say") == tokenize("what does it say")  # nothing else: kept
    assert Ranking().terms("How many employees") == tokenize("How many employees")  # the course's rankings: as is
    assert Ranking(glossary=True).terms("empleados") == ["empleados", "employees", "headcount", "workforce"]


def _chunks(sections: list[tuple[str, str]]) -> pd.DataFrame:
    n = len(sections)
    return pd.DataFrame({
        "doc_id": ["d"] * n, "chunk_no": range(n), "spans": [[{"start_char": i, "end_char": i + 1}] for i in range(n)],
        "section": [s for s, _ in sections], "header": [f"Acme 10-K > {s}" for s, _ in sections],
        "text": [t for _, t in sections], "issuer": "Acme", "form": "10-K", "year": 2024,
        "period_end": pd.Timestamp("2024-12-31"), "title": "Acme 10-K", "accepted_at": pd.NaT})


def _weighed_and_bare(sections: list[tuple[str, str]]) -> tuple[ChunkIndex, ChunkIndex]:
    """Indexes of these (section, text) chunks with and without priors, both reading queries plain."""
    frame = _chunks(sections)
    return (ChunkIndex.from_frame(frame, ranking=Ranking(plain=True, priors=True)),
            ChunkIndex.from_frame(frame, ranking=Ranking(plain=True)))


def test_section_priors_weigh_up_the_section_a_question_names():
    weighed, bare = _weighed_and_bare([
        ("Employee Benefit Plans", "employees employees employees participate in the plans of employees"),
        ("Human Capital", "We had approximately 1,200 employees at year end."),
        ("Risk Factors", "Our employees may leave; losing key employees is a risk."),
        ("Legal Proceedings", "We are a party to lawsuits in the ordinary course."),
    ])
    question = "How many employees does Acme have?"
    assert bare.search(question, k=1)[0].section == "Employee Benefit Plans"
    assert weighed.search(question, k=1)[0].section == "Human Capital"
    assert [h.section for h in weighed.search("What lawsuits is Acme in?", k=4)][:1] == ["Legal Proceedings"]
    # no prior named: the same order as without priors
    assert [h.chunk_no for h in weighed.search("participate plans", k=4)] == [
        h.chunk_no for h in bare.search("participate plans", k=4)]
    assert RANKINGS["scoped"].priors and RANKINGS["scoped"].glossary and RANKINGS["scoped"].plain


def test_a_quantity_question_weighs_up_the_chunks_stating_figures():
    weighed, bare = _weighed_and_bare([
        ("Human Capital", "Our employees are our greatest asset, and our employees shape our culture."),
        ("Human Capital", "We had approximately 29,600 employees in 36 countries."),
        ("Properties", "We lease offices in Santa Clara."),
        ("Legal Proceedings", "We are a party to lawsuits."),
        ("Risk Factors", "Demand for our products may fall."),
        ("Cybersecurity", "Our board oversees cybersecurity risk."),
    ])
    assert bare.search("How many employees?", k=1)[0].chunk_no == 0
    assert weighed.search("How many employees?", k=1)[0].chunk_no == 1
    assert weighed.search("Describe the employees' culture", k=1)[0].chunk_no == 0  # no quantity asked


def test_a_passage_repeating_one_ranked_above_it_in_its_document_is_left_out():
    segments = "Our reportable segments are the Americas, Europe and Asia, managed on a geographic basis."
    sections = [("Business", segments), ("Notes", segments.replace("Our", "The Company's")),
                ("Notes", "Net sales by reportable segment: Americas 10, Europe 5, Asia 3."),
                ("Risk Factors", "Segments may change.")]
    frame = pd.concat([_chunks(sections), _chunks(sections[:1]).assign(doc_id="e", year=2023)], ignore_index=True)
    distinct = ChunkIndex.from_frame(frame, ranking=Ranking(plain=True, distinct=True))
    repeats = ChunkIndex.from_frame(frame, ranking=Ranking(plain=True))
    question = "What are the reportable segments?"
    every = [(h.doc_id, h.chunk_no) for h in repeats.search(question, k=10)]
    assert len(every) == 5 and every.index(("d", 1)) < 3
    # the notes' copy of d's segments is left out; e's (another document: another year) is kept
    wanted = [hit for hit in every if hit != ("d", 1)]
    assert [(h.doc_id, h.chunk_no) for h in distinct.search(question, k=10)] == wanted
    assert [(h.doc_id, h.chunk_no) for h in distinct.search(question, k=3)] == wanted[:3]
    assert RANKINGS["scoped"].distinct and not Ranking().distinct  # the course's rankings keep every passage


def test_the_gold_sets_rows_are_whole():
    gold = read_text_gold()
    assert len(gold) >= 150 and len({q["id"] for q in gold}) == len(gold)
    files = {f for f, _ in REAL_FILINGS}
    for q in gold:
        assert q["language"] in ("en", "es") and 1 <= len(q["evidence"]) <= 3, q["id"]
        assert {e.filing for e in q["evidence"]} <= files, q["id"]
        assert (len(q["companies"]) > 1) == (q["class"] == "comparison"), q["id"]
    assert {q["language"] for q in gold} == {"en", "es"}
    assert {e.filing for q in gold for e in q["evidence"]} == files  # every filing is asked about


@pytest.mark.real
def test_every_evidence_string_is_in_the_stored_text_of_its_filing(real):
    gold = read_text_gold(TEXT_GOLD)
    with factstore.open() as s:
        for file, given in REAL_FILINGS:
            s.load_filing(real / "filings" / file, progress=False, **given)
        docs = s.sql("SELECT raw, text FROM documents")
    text = dict(zip(docs["raw"], docs["text"], strict=True))
    stored = {f: text[html_text((real / "filings" / f).read_bytes())] for f, _ in REAL_FILINGS}
    missing = [(q["id"], e.text[:50]) for q in gold for e in q["evidence"] if locate(stored[e.filing], e.text) is None]
    assert not missing
    assert locate(stored[REAL_FILINGS[0][0]], "no such words anywhere in it at all") is None


def test_baseline_paragraphs_merge_up_to_their_size():
    text = "\n\n".join(["a" * 400, "b" * 400, "c" * 400, "d"])
    spans = paragraphs(text)
    assert spans == [(0, 802), (804, 1207)]  # two blocks fit 1,000 characters, the third starts the next
    assert all(text[s:e].strip() == text[s:e] for s, e in spans) and paragraphs("") == []


def test_locate_reads_past_whitespace():
    assert locate("a  b\n\nc d", "b c") == (3, 7)
    assert locate("abc", "") is None and locate("x (y) z", "(y) z") == (2, 7)
    assert locate_all("b c. b\nc", "b c") == [(0, 3), (5, 8)] and locate_all("abc", "") == []
    assert dataclasses.is_dataclass(read_text_gold()[0]["evidence"][0])


def test_evidence_counts_wherever_the_company_prints_it(tmp_path):
    """A 10-Q repeats its 10-K's sentence, and a 10-K says a sentence in Item 1 and again in Item 1A: a passage
    holding any copy answers. Another company's copy does not."""
    said = "We employ about 4,700 people in the region."
    files = {"K.html": f"Item 1. {said} Item 1A. {said}", "Q.html": f"Part I. {said}", "X.html": said}
    for name, body in files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    docs = pd.DataFrame({"doc_id": ["k", "q", "x"], "entity_id": ["A", "A", "B"], "raw": list(files.values()),
                         "text": list(files.values())})
    gold = [{"id": "t1", "evidence": [Evidence("K.html", said)]}]
    where = _wanted(docs, gold, tmp_path)["t1"]
    assert where == {"A": [("k", (8, 51)), ("k", (61, 104)), ("q", (8, 51))]}
    with pytest.raises(ValueError, match="evidence not in the stored text of K.html"):
        _wanted(docs, [{"id": "t2", "evidence": [Evidence("K.html", "words it never says")]}], tmp_path)


@pytest.mark.slow
@pytest.mark.real
def test_cli_eval_retrieval_real(real, capsys):
    from factstore.cli import main

    assert main(["eval", "retrieval", "--real", str(real), "--json"]) == 0
    tables = json.loads(capsys.readouterr().out)
    overall, = tables["all"]
    assert overall["questions"] == len(read_text_gold()) and tables["own_company"][0]["own_company"] == 1.0
    assert overall["hit@1"] <= overall["hit@3"] <= overall["hit@5"] and overall["hit@3"] >= 0.65  # 0.708 measured
    assert {r["language"] for r in tables["language"]} == {"en", "es"}
    baseline, = tables["baseline"]["all"]  # a plain BM25 over paragraphs, judged the same way: ours must beat it
    assert baseline["questions"] == overall["questions"] and overall["hit@3"] > baseline["hit@3"]
