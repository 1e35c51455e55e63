"""`ask` on the generated question bank (factstore/evaluate/bank.py: ~1,100 questions from the raw companyfacts
JSON, its own oracle, nothing of ours imported) over the store users build: the eight companies, the FSDS samples
and the 10-Ks. No wrong number is ever stated as fact; with one unknown qualifier inserted anywhere a name is not,
a question is refused naming it, or answered with the oracle's value."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import factstore
from factstore.evaluate.ask import bank_questions, evaluate_bank, judge_bank, normalize_words, summarize_bank
from factstore.vocabulary import load_metrics
from tests.helpers import budget
from tests.helpers import examples as hypothesis_budget

CLASSES = {"year", "quarter", "q4_derived", "half", "nine_months", "ttm", "end_date", "as_of_month", "as_of_date",
           "end_of_year", "first_reported", "latest", "comparison", "derived", "before_filing", "unknown_qualifier",
           "absent_company", "no_such_period"}
EIGHT = {320193, 1045810, 1652044, 1835632, 1046179, 1318605, 1640147, 1997711}
QUALIFIERS = ["excluding China", "adjusted", "pro forma", "per employee", "in constant currency", "sin contar China",
              "ajustado", "por empleado", "non-GAAP", "organic", "estimated", "in the third week of",
              "excluding one-offs", "guidance", "before tax", "ex-Europe", "like-for-like"]


@pytest.fixture(scope="module")
def store(built):
    with factstore.open(built("load-real"), read_only=True) as s:
        yield s


@pytest.fixture(scope="module")
def bank(real) -> pd.DataFrame:
    return bank_questions(real)


def test_the_bank_is_large_and_spans_classes_languages_and_companies(bank):
    assert len(bank) >= 1000 and bank["id"].is_unique
    counts = bank["klass"].value_counts()
    assert set(counts.index) == CLASSES and counts.min() >= 30, counts
    assert bank["lang"].value_counts().to_dict().keys() == {"en", "es"} and (bank["lang"] == "es").mean() > 0.25
    assert set(bank["cik"].dropna().astype(int)) == EIGHT
    assert set(bank["expect"]) == {"fact", "table", "refuse"}


@budget(16, 1, name="every")  # every 16th question in the default run (70 of 1,120); all of them slow
def test_no_wrong_number_is_stated_and_nearly_all_are_right(store, bank, every):
    results = evaluate_bank(store, bank.iloc[::every], progress=False)
    wrong = results[results["verdict"] == "wrong"]
    assert wrong.empty, "\n".join(f"{r.id}: {r.question} -> {r.why}" for r in wrong.itertuples())
    summary = summarize_bank(results)
    assert summary.loc["all", "accuracy"] >= 0.95, summary.to_string()
    assert (summary.loc[["lang en", "lang es"], "accuracy"] >= 0.9).all(), summary.to_string()


NAMES = {320193: ["Apple", "AAPL", "Apple Inc."], 1045810: ["NVIDIA", "NVDA", "Nvidia"],
         1652044: ["Alphabet", "Google", "GOOGL"], 1835632: ["MRVL"], 1046179: ["TSMC", "TSM"],
         1318605: ["Tesla", "TSLA"], 1640147: ["Snowflake"], 1997711: ["Logistic Properties of the Americas"]}


def _fiscal_year(end: str) -> int:
    day = pd.Timestamp(end)
    return day.year - 1 if day.month == 1 and day.day <= 7 else day.year


@budget(25, 200)
def test_an_inserted_qualifier_is_refused_by_name_or_leaves_the_oracles_value(store, bank, examples):
    """Questions built from known parts (a name, a word of the metric, a fiscal year) of the bank's yearly facts,
    with one unknown qualifier inserted between two parts."""
    years = bank[(bank["klass"] == "year") & (bank["expect"] == "fact")].reset_index(drop=True)
    words = {m.name: m.words for m in load_metrics()}
    phrases = {" ".join(normalize_words(p)) for ws in words.values() for p in ws}
    seen = {"refused": 0, "unchanged": 0}

    @settings(**hypothesis_budget(examples, 200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def asked(data):
        q = years.iloc[data.draw(st.integers(0, len(years) - 1))]
        parts = [data.draw(st.sampled_from(NAMES[int(q["cik"])])), data.draw(st.sampled_from(words[q["metric"]])),
                 f"in fiscal {_fiscal_year(q['period_end'])}"]
        qualifier = data.draw(st.sampled_from(QUALIFIERS))
        parts.insert(data.draw(st.integers(0, len(parts))), qualifier)
        text = " ".join(parts) + "?"
        # a qualifier that completes another metric's name is no qualifier ('net profit before tax': pre-tax income)
        said, inserted = f" {' '.join(normalize_words(text))} ", " ".join(normalize_words(qualifier))
        assume(not any(inserted in p and f" {p} " in said for p in phrases))
        answer = store.ask(text)
        if answer.kind == "unanswerable":
            named = [w for w in normalize_words(qualifier) if len(w) >= 4 or w in ("ex", "tax", "pro")]
            assert set(named) & set(normalize_words(answer.explanation)), (text, answer.explanation)
            seen["refused"] += 1
            return
        verdict, why = judge_bank(q, answer)  # answered: only with the oracle's value (a word read as harmless)
        assert verdict == "right", (text, why)
        seen["unchanged"] += 1

    asked()
    assert seen["refused"] >= examples * 0.8, seen


@pytest.mark.parametrize(("question", "moment"), [
    ("NVIDIA shares outstanding as of March 2024", "2024-03-01"),  # the post-split count came in 2025
    ("Apple's fiscal 2024 revenue as of October 2024", "2024-10-01"),  # the 10-K came on 2024-11-01
])
def test_the_look_aheads_the_analysts_found(store, question, moment):
    a = store.ask(question)
    assert a.as_of == pd.Timestamp(moment).to_pydatetime()
    assert a.kind == "unanswerable" or all(pd.Timestamp(pt["accepted_at"]) <= pd.Timestamp(moment, tz="UTC")
                                            for pt in a.parts)
    if "Apple" in question:
        assert a.kind == "unanswerable" and "FY2024" in a.explanation


def test_each_answer_states_its_reading_in_one_line(store):
    a = store.ask("Apple revenue for the six months ended March 30, 2024, as of 2025-06-01")
    assert a.explanation.startswith("read as: Apple Inc., revenue, half ended 2024-03-30, as known on 2025-06-01 "
                                    "00:00:00 UTC;")
    assert a.parsed["periods"] == ["END:half:2024-03-30"] and a.parsed["unread"] == []
    assert store.parse("Apple revenue per employee FY2024").unread == ["per", "employee"]


def test_vs_gives_a_table_of_facts_each_its_own_lookup(store):
    a = store.ask("Apple vs NVIDIA revenue in fiscal 2024")
    assert a.kind == "table" and len(a.table) == 2
    for row in a.table:
        alone = store.ask(f"{row['entity']} revenue in fiscal 2024")
        assert alone.kind == "fact" and alone.value == row["value"] and row["period"] == "FY2024"
        assert re.search(r"\d{4}-\d{2}-\d{2}", row["read_as"])


def test_a_restatement_question_lists_every_version(store):
    a = store.ask("Was Apple's fiscal 2009 revenue ever restated?")
    assert a.kind == "table" and "restated 1 time(s)" in a.explanation
    assert [r["value"] for r in a.table][0] != a.value  # the first version is no longer the value


def test_two_periods_without_growth_are_refused(store):
    a = store.ask("At the end of 2009 fiscal 2008 Apple revenue FY2010")
    assert a.kind == "unanswerable" and "periods" in a.explanation


def test_a_mixed_basis_quarter_is_refused_in_ask(store):
    """Apple's FY2009 was restated by a 10-K/A in January 2010, its nine months only in July: a Q4 derived in
    between mixes the two bases (the API returns it with a warning; ask states no such number)."""
    a = store.ask("Apple Q4 FY2009 revenue as of March 2010")
    assert a.kind == "unanswerable" and "different bases" in a.explanation


@pytest.mark.slow
def test_eval_ask_real_prints_the_bank_by_class_and_no_wrong_number(real, capsys):
    from factstore.cli import main

    main(["eval", "ask", "--real", str(real), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["wrong_stated_as_fact"] == 0
    overall = next(r for r in out["bank"] if r["class"] == "all")
    assert overall["questions"] >= 1000 and overall["accuracy"] >= 0.95
    assert {r["class"] for r in out["bank"]} >= CLASSES
