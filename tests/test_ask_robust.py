"""ask on real companies, asked the way people ask: it never raises; it answers about the company named (by
ticker, name, acronym or alias) and only from that company's documents; otherwise it says unanswerable and
why. Expected names, accessions and CIKs are read from the raw SEC JSON."""

from __future__ import annotations

import json

import pytest

import factstore
from factstore.ask import route

APPLE, NVIDIA, ALPHABET, TSMC = "CIK0000320193.json", "CIK0001045810.json", "CIK0001652044.json", "CIK0001046179.json"


def _facts(real, name):
    return json.loads((real / "companyfacts" / name).read_text())


def _accessions(real, name, form=None, filed=None):
    return {f["accn"] for tax in _facts(real, name)["facts"].values() for concept in tax.values()
            for values in concept["units"].values() for f in values
            if (form is None or f["form"] == form) and (filed is None or f["filed"] == filed)}


@pytest.fixture(scope="module")
def facts(four_companies):
    """Apple, NVIDIA, Alphabet (without submissions: no tickers known) and TSMC; no documents."""
    return four_companies


@pytest.fixture(scope="module")
def documents(real, built):
    """The same companies and three of their 10-Ks, each named as people name the company."""
    with factstore.open(built("four-companies")) as s:
        s.load_filing(real / "filings" / "AAPL_10-K_2024-11-01_0000320193-24-000123.html", entity="AAPL",
                      progress=False)
        s.load_filing(real / "filings" / "NVDA_10-K_2025-02-26.html", entity="NVDA", form="10-K",
                      accepted_at="2025-02-26", progress=False)
        s.load_filing(real / "filings" / "GOOGL_10-K_2025-02-05.html", entity="Alphabet", form="10-K",
                      accepted_at="2025-02-05", progress=False)
        yield s


QUESTIONS = [
    ("What was Apple's revenue in FY2024?", APPLE), ("AAPL net income FY2023", APPLE),
    ("¿Cuáles fueron las ventas de apple en el ejercicio 2023?", APPLE),
    ("What was Nvidia's revenue in fiscal 2024?", NVIDIA), ("NVDA revenue FY2024", NVIDIA),
    ("What was Alphabet's revenue in 2023?", ALPHABET), ("Google revenue 2023", ALPHABET),
    ("GOOGL net income 2023", ALPHABET), ("What was TSMC's revenue in 2023?", TSMC),
    ("Taiwan Semiconductor revenue 2023", TSMC), ("TSM net income 2023", TSMC), ("TSMWF revenue 2023", TSMC),
]


@pytest.mark.parametrize(("question", "name"), QUESTIONS)
def test_the_company_named_is_the_company_answered(facts, real, question, name):
    a = facts.ask(question)
    assert a.parsed["entities"] == [_facts(real, name)["entityName"]]
    assert "error while answering" not in a.explanation
    if a.kind == "fact":  # its figures come from that company's filings
        assert a.citations and {c.doc for c in a.citations} <= _accessions(real, name)


@pytest.mark.parametrize(("question", "why"), [
    ("", "empty question"), ("   ", "empty question"), ("💰💰💰 ???", "no recognizable words"),
    ("苹果公司2024年的收入是多少？", "no documents in the store"),
    ("What are AAPL's main risk factors related to China?", "no documents in the store"),
    ("What was Apple's widget yield in fiscal 2024?", "no metric named"),  # (it said only: no documents)
    ("What was Acme's revenue in 2023?", "not in the store"),
])
def test_what_cannot_be_answered_says_why(facts, question, why):
    a = facts.ask(question)
    assert a.kind == "unanswerable" and why in a.explanation and not a.citations and a.value is None


def test_a_question_longer_than_the_cap_is_refused_at_once_and_one_at_the_cap_is_answered(facts):
    """A 108 KB question repeating company names used to take 87 s: past MAX_QUESTION characters it is refused
    with the reason before any parsing; one of exactly MAX_QUESTION characters is asked as any other."""
    long = ("Apple NVIDIA Alphabet revenue 2024 " * 4000)[:108_000]
    question = "What was Apple's revenue in fiscal 2024?"
    a = facts.ask(long)
    assert a.kind == "unanswerable"
    assert a.explanation.startswith("a question of 108,000 characters: ask in at most 2,000")
    at_cap = (question + " " * route.MAX_QUESTION)[:route.MAX_QUESTION]
    answered = facts.ask(at_cap)
    assert answered.kind == "fact" and answered.value == facts.ask(question).value


def test_a_company_the_store_lacks_is_not_answered_with_another(facts, real):
    microsoft = json.loads((real / "submissions" / "CIK0000789019.json").read_text())
    for question in ("What was Microsoft's revenue in 2023?", f"{microsoft['tickers'][0]} revenue 2023",
                     "Compare the revenue of Apple and Microsoft in 2023"):
        a = facts.ask(question)
        assert a.kind == "unanswerable" and "not in the store" in a.explanation and not a.citations, question
    assert f"CIK {int(microsoft['cik'])}" in facts.ask("What was Microsoft's revenue in 2023?").explanation


def test_text_questions_search_only_the_company_named(documents, real):
    nvidia_10k, = _accessions(real, NVIDIA, "10-K", "2025-02-26")
    alphabet_10k, = _accessions(real, ALPHABET, "10-K", "2025-02-05")
    for question, doc, name in [
        ("What are AAPL's main risk factors related to China?", "0000320193-24-000123", APPLE),
        ("What does Apple say about competition in smartphones?", "0000320193-24-000123", APPLE),
        ("What does Nvidia say about export controls to China?", nvidia_10k, NVIDIA),
        ("What are Google's risk factors about AI regulation?", alphabet_10k, ALPHABET),
    ]:
        a = documents.ask(question)
        assert a.kind == "passages" and a.citations, question
        assert {c.doc for c in a.citations} == {doc}, question
        assert _facts(real, name)["entityName"] in a.explanation and "only" in a.explanation
        for c in a.citations:
            assert documents.document(c.doc).text[c.start:c.end] == c.text


def test_text_questions_without_documents_of_the_company_or_words_of_the_documents(documents, real):
    a = documents.ask("What does TSMC say about Taiwan?")
    assert a.kind == "unanswerable" and f"no documents of {_facts(real, TSMC)['entityName']}" in a.explanation
    a = documents.ask("苹果公司2024年的收入是多少？")
    assert a.kind == "unanswerable" and "no recognizable words" in a.explanation and "no known company" in a.explanation
    a = documents.ask("Which companies mention export controls?")
    assert a.kind == "passages" and "over all documents" in a.explanation


def test_an_ambiguous_name_lists_the_candidates():
    fact = {"accn": "0000000001-24-000001", "start": "2023-01-01", "end": "2023-12-31", "val": 100, "form": "10-K",
            "filed": "2024-02-01", "fy": 2023, "fp": "FY"}
    with factstore.open() as s:
        for cik, name, accn in [(1, "Alpha Holdings Inc", "0000000001-24-000001"),
                                (2, "Alpha Corp", "0000000002-24-000001")]:
            s.load_companyfacts({"cik": cik, "entityName": name, "facts": {"us-gaap": {"Revenues": {"units": {
                "USD": [{**fact, "accn": accn}]}}}}}, progress=False)
        a = s.ask("What was Alpha's revenue in FY2023?")
        assert a.kind == "unanswerable" and "; ambiguous: " in a.explanation
        assert "Alpha Holdings Inc" in a.explanation and "Alpha Corp" in a.explanation and a.value is None
        assert s.ask("What was Alpha Corp's revenue in FY2023?").value == 100


def test_an_unexpected_error_is_an_answer_too(facts, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("parser broke")

    monkeypatch.setattr(route, "parse", broken)
    a = facts.ask("What was Apple's revenue in FY2024?")
    assert a.kind == "unanswerable" and "RuntimeError: parser broke" in a.explanation
