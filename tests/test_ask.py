"""ask: parsing and routing in English and Spanish, with paraphrases and misspellings; every citation
slices the stored text to the passage it quotes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pandas as pd
import pytest

import factstore
from factstore.ask.parse import Entity, find_as_of, find_periods, parse
from factstore.demo.data import generate
from factstore.demo.reports import generate_reports
from factstore.text.tokenize import normalize
from factstore.vocabulary import load_metrics

METRICS = load_metrics()
KNOWN = [Entity("Rapsa", "RPS", ("RPS",), True), Entity("Busmar Hogar", "BSMH", ("BSMH",), True),
         Entity("Eólica del Cierzo"), Entity("Atalaya IBEX 35 UCITS ETF"),
         Entity("Gestora Atalaya", members=("Atalaya IBEX 35 UCITS ETF",))]


@pytest.mark.parametrize(("text", "label"), [
    ("Q4 2019", "2019Q4"), ("2019 Q4", "2019Q4"), ("fourth quarter of 2019", "2019Q4"),
    ("cuarto trimestre de 2019", "2019Q4"), ("4T 2019", "2019Q4"), ("T2 2021", "2021Q2"),
    ("third quarter of fiscal 2020", "2020Q3"), ("FY2023", "FY2023"), ("ejercicio 2023", "FY2023"),
    ("fiscal year 2022", "FY2022"), ("first half 2021", "2021H1"), ("primer semestre de 2021", "2021H1"),
    ("nine months 2020", "2020M9"), ("en 2018", "FY2018"),
])
def test_periods_in_both_languages(text, label):
    assert find_periods(normalize(text)) == [label]


@pytest.mark.parametrize(("text", "moment"), [
    ("revenue as of 2020-09-30", datetime(2020, 9, 30)), ("known on 2020-06-30", datetime(2020, 6, 30)),
    ("ventas a fecha de 30/09/2020", datetime(2020, 9, 30)),
    ("a fecha de 30 de septiembre de 2020", datetime(2020, 9, 30)),
    ("as of September 30, 2020", datetime(2020, 9, 30)),
])
def test_as_of_in_both_languages_and_its_year_is_not_a_period(text, moment):
    found, rest = find_as_of(normalize(text))
    assert found == moment and find_periods(rest) == []


@pytest.mark.parametrize(("question", "entity", "metric", "periods"), [
    ("What was Rapsa's revenue in Q4 2019?", "Rapsa", "revenue", ["2019Q4"]),
    ("¿Cuáles fueron las VENTAS de rapsa en el cuarto trimestre de 2019?", "Rapsa", "revenue", ["2019Q4"]),
    ("RPS sales, fourth quarter of 2019", "Rapsa", "revenue", ["2019Q4"]),
    ("Ingresos de Rapssa en 4T 2019", "Rapsa", "revenue", ["2019Q4"]),  # misspelled
    ("beneficio neto de Busmar Hogar en el ejercicio 2021", "Busmar Hogar", "net_income", ["FY2021"]),
    ("net income of Busmarr Hogar for FY2021", "Busmar Hogar", "net_income", ["FY2021"]),
    ("resultado neto de BSMH en el primer semestre de 2021", "Busmar Hogar", "net_income", ["2021H1"]),
    ("activo total de Rapsa en 2020", "Rapsa", "total_assets", ["FY2020"]),
    ("EBITDA de eolica del cierzo en 2023", "Eólica del Cierzo", "ebitda", ["FY2023"]),
    ("riesgos del Atalaya IBEX 35", "Atalaya IBEX 35 UCITS ETF", None, []),
])
def test_parse_entities_metrics_periods(question, entity, metric, periods):
    p = parse(question, KNOWN, METRICS)
    assert [e.name for e in p.entities] == [entity]
    assert (p.metric.name if p.metric else None) == metric and p.periods == periods


def test_growth_and_comparison_intents():
    assert parse("¿Cuánto crecieron las ventas de Rapsa en 2023?", KNOWN, METRICS).growth
    assert parse("How much did Rapsa's sales grow in 2023?", KNOWN, METRICS).growth
    assert parse("¿Qué ETF de Gestora Atalaya tiene los gastos corrientes más bajos?", KNOWN, METRICS).comparison
    assert not parse("What was Rapsa's revenue in 2023?", KNOWN, METRICS).growth


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    filings = generate(companies=6)
    reports = generate_reports().write(tmp_path_factory.mktemp("reports"))
    with factstore.open() as s:
        s.load_course(xbrl=filings.xbrl, documents=filings.documents, sales=filings.sales)
        s.load_reports(reports["documents"])
        yield s


def _assert_citations_slice(store, answer):
    for c in answer.citations:
        if c.start is not None:
            assert store.document(c.doc).text[c.start:c.end] == c.text


def test_numeric_question_returns_the_fact_with_its_filing(store):
    question = "What was Rapsa's revenue in Q4 2019, as known on 2020-06-30?"
    a = store.ask(question)
    f = store.fact("RPS", [c for m in METRICS if m.name == "revenue" for c in m.concepts][:3],
                   period="2019Q4", as_of="2020-06-30")
    assert (a.kind, a.value, a.unit) == ("fact", f.value, "USD") and a.as_of == datetime(2020, 6, 30)
    # each part is cited to the filing that first reported its current value
    assert {c.doc for c in a.citations} == {p["first_filing_id"] for p in f.parts}
    assert any(c.start is not None for c in a.citations)
    _assert_citations_slice(store, a)
    spanish = store.ask("¿Cuáles fueron las ventas de Rapsa en el cuarto trimestre de 2019, a fecha de 30/06/2020?")
    assert spanish.value == a.value


def test_as_of_argument_overrides_the_question(store):
    early = store.ask("What was Rapsa's revenue in Q4 2019, as known on 2020-06-30?", as_of="2020-01-01")
    assert early.kind == "unanswerable" and "2020-01-01" in early.explanation


def test_growth_is_computed_from_cited_facts(store):
    a = store.ask("¿Cuánto crecieron las ventas de Rapsa en 2021?")
    concepts = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax"]
    old, new = (store.fact("RPS", concepts, period=p) for p in ("FY2020", "FY2021"))
    assert a.kind == "fact" and a.unit == "%"
    assert a.value == pytest.approx((new.value - old.value) / abs(old.value) * 100)
    assert {c.doc for c in a.citations} >= {old.first_source, new.first_source}


@pytest.mark.parametrize(("question", "then", "now"), [
    ("How much did Rapsa's revenue grow in the quarter ended June 30, 2021?", "2020Q2", "2021Q2"),
    ("¿Cuánto crecieron las ventas de Rapsa en el ejercicio terminado el 31 de diciembre de 2021?", "FY2020", "FY2021"),
    ("How much did Rapsa's TTM revenue grow in Q2 2021?", "TTM2020Q2", "TTM2021Q2"),
    # two periods named, the newer first: the growth is still from the older to the newer
    ("Crecimiento interanual de las ventas de Rapsa en el 2T de 2021 frente al 2T de 2020, en porcentaje",
     "2020Q2", "2021Q2"),
    ("By what percent did Rapsa's revenue grow in FY2021 compared to FY2020?", "FY2020", "FY2021"),
])
def test_growth_of_a_period_named_by_its_end_or_trailing_is_over_the_same_period_a_year_before(
        store, question, then, now):
    a = store.ask(question)
    concepts = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax"]
    def value(label):  # the trailing twelve months: the four quarters ending with the one named
        if not label.startswith("TTM"):
            return store.fact("RPS", concepts, period=label).value
        year, q = int(label[3:7]), int(label[-1])
        quarters = [f"{year - (i >= q)}Q{(q - 1 - i) % 4 + 1}" for i in range(4)]
        return sum(store.fact("RPS", concepts, period=p).value for p in quarters)
    old, new = value(then), value(now)
    assert a.kind == "fact" and a.unit == "%", a.explanation
    assert a.value == pytest.approx((new - old) / abs(old) * 100)
    assert f"from {then} to {now}" in a.explanation


def test_a_question_asking_why_goes_to_the_text_not_to_the_figure(store):
    for question in ("Why did Rapsa's revenue grow in FY2021?",
                     "En su informe anual de 2021, ¿por qué crecieron las ventas de Rapsa en 2021?",
                     "What impact did prices have on Rapsa's revenue in FY2021?",
                     "¿Qué efecto tuvieron los precios en las ventas de Rapsa en 2021?",
                     "How could prices impact Rapsa's revenue in FY2021?",
                     "In its annual report for 2021, what does Rapsa say about prices and its revenue in FY2021?",
                     "What happened to Rapsa's revenue in FY2021?",
                     "¿A qué se debió el aumento de las ventas de Rapsa en 2021?",
                     "¿Qué anunció Rapsa sobre sus ventas de 2021?",
                     "¿Qué dice Rapsa sobre sus ventas de 2021?"):
        a = store.ask(question)
        assert a.kind == "passages" and a.value is None and a.citations, a.explanation
    assert store.ask("How much did Rapsa's revenue grow in FY2021?").kind == "fact"


def test_a_period_said_twice_is_one_period(store):
    concepts = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax"]
    a = store.ask("In its annual report for 2021, what was Rapsa's revenue in FY2021?")
    assert (a.kind, a.value) == ("fact", store.fact("RPS", concepts, period="FY2021").value), a.explanation
    assert a.parsed["periods"] == ["FY2021"]


def test_a_balance_at_a_day_is_that_days_and_as_of_a_balance_day_is_refused_as_two_readings(store):
    assets = ["Assets"]
    year_end = store.fact("RPS", assets, period="2020Q4")  # the balance at 2020-12-31, filed in March 2021
    known = store.fact("RPS", assets, period="2020Q3", as_of="2020-12-31")  # the newest known on 2020-12-31
    assert store.fact("RPS", assets, period="2020Q4", as_of="2020-12-31") is None  # not known yet
    for question in ("What were Rapsa's total assets at December 31, 2020?",
                     "¿Cuáles eran los activos totales de Rapsa al 31 de diciembre de 2020?"):
        a = store.ask(question)
        assert (a.kind, a.value) == ("fact", year_end.value) and "the balance at 2020-12-31" in a.explanation
    # a moment and a balance's day in one question: the balance at the day, as known at the moment
    assert store.ask("As known on 2021-06-01, what were Rapsa's total assets at December 31, 2020?").value \
        == year_end.value
    early = store.ask("As known on 2021-01-15, what were Rapsa's total assets at December 31, 2020?")
    assert early.kind == "unanswerable" and early.value is None
    # a balance of a period named by its end is the balance at that end
    assert store.ask("Rapsa's total assets for the quarter ended December 31, 2020").value == year_end.value
    said = store.ask("What were Rapsa's total assets as known on December 31, 2020?")
    assert (said.kind, said.value) == ("fact", known.value)
    for question in ("What were Rapsa's total assets as of December 31, 2020?",
                     "Activos totales de Rapsa a fecha de 31 de diciembre de 2020"):
        a = store.ask(question)
        assert a.kind == "unanswerable" and a.value is None and "may be the balance's date" in a.explanation
        assert f"{year_end.value / 1e6:,.1f} million" in a.explanation and f"at {known.end}" in a.explanation
    # not a balance day, or not a balance: the moment it is known
    assert store.ask("What were Rapsa's total assets as of December 15, 2020?").value == known.value
    assert store.ask("What was Rapsa's revenue as of December 31, 2020?").kind == "fact"
    assert store.ask("What was Rapsa's revenue at December 31, 2020?").kind == "unanswerable"


def test_comparisons_and_trailing_twelve_months_as_people_write_them(store):
    # 'which one', 'larger' ask which is first: never a part of the company
    for question, metric in (("Operating margin for FY2021: Rapsa or Busmar Hogar, which one was higher?",
                              "operating_margin"),
                             ("Which had larger total assets at the end of FY2021, Rapsa or Busmar Hogar?",
                              "total_assets")):
        a = store.ask(question)
        assert a.kind == "table" and a.parsed["part"] is None and a.parsed["metric"] == metric, a.explanation
        assert a.value == max(r["value"] for r in a.table)
    # a part of a derived metric: refused, saying why (it failed with a ValueError)
    part = store.ask("What was Rapsa's operating margin in Spain in FY2021?")
    assert part.kind == "unanswerable" and "is derived" in part.explanation and "Error" not in part.explanation
    ttm = store.ask("Rapsa TTM revenue Q2 2021").value
    assert ttm is not None
    for question in ("What was Rapsa's revenue for the trailing twelve months ending with Q2 2021?",
                     "ingresos de Rapsa de los últimos doce meses al cierre del 2T 2021"):
        assert store.ask(question).value == ttm


def test_text_question_cites_passages(store):
    a = store.ask("Which risks does Busmar Hogar name in its 2023 annual report?")
    assert a.kind == "passages" and a.citations
    _assert_citations_slice(store, a)
    issuers = store.sql("SELECT doc_id, issuer FROM documents").set_index("doc_id")["issuer"]
    assert {issuers[c.doc] for c in a.citations} == {"Busmar Hogar"}


def test_company_without_facts_falls_back_to_text(store):
    a = store.ask("¿Cuáles fueron las ventas de Cervecera Olmo en 2023?")
    assert a.kind == "passages" and "no facts" in a.explanation
    _assert_citations_slice(store, a)


def test_comparison_is_a_table(store):
    a = store.ask("¿Qué ETF de Gestora Atalaya tiene los gastos corrientes más bajos?")
    assert a.kind == "table" and len(a.table) >= 4
    _assert_citations_slice(store, a)
    figures = [r["figure"] for r in a.table]
    assert figures == sorted(figures) and all("gastos corrientes" in normalize(r["text"]) for r in a.table)
    assert a.table[0]["entity"] in a.explanation
    facts = store.ask("Compare the net income of Rapsa and Busmar Hogar in FY2021")
    assert facts.kind == "table" and {r["entity"] for r in facts.table} == {"Rapsa", "Busmar Hogar"}


def test_a_comparison_missing_a_company_names_no_first(store):
    # as of 2022-01-01 Busmar Hogar's FY2021 10-K is filed (Sept. 2021) and Rapsa's is not (March 2022)
    now = store.ask("Compare the net income of Rapsa and Busmar Hogar in FY2021")
    assert now.value == max(r["value"] for r in now.table) and "first: " in now.explanation
    then = store.ask("Compare the net income of Rapsa and Busmar Hogar in FY2021", as_of="2022-01-01")
    assert then.kind == "table" and then.value is None and then.unit is None
    assert [(r["entity"], r["value"] is None) for r in then.table] == [("Busmar Hogar", False), ("Rapsa", True)]
    assert "no first: missing Rapsa" in then.explanation and "first: Busmar" not in then.explanation
    assert all(accepted < "2022-01-01" for accepted in (r["accepted_at"] for r in then.table) if accepted)


def test_unanswerable_says_why(store):
    a = store.ask("What was Rapsa's revenue in FY2031?")
    assert a.kind == "unanswerable" and a.explanation and not a.citations and a.value is None


def test_an_unread_word_refuses_a_figure_only_where_a_figure_would_be_given(store):
    # with a period the facts would answer, and 'recurring' could change which figure: refused
    dated = store.ask("How much of Rapsa's revenue is recurring in FY2021?")
    assert dated.kind == "unanswerable" and "could not read 'recurring'" in dated.explanation and not dated.citations
    # without a period or moment no figure is given: the question goes to Rapsa's documents
    text = store.ask("How much of Rapsa's revenue is recurring?")
    assert text.kind == "passages" and text.value is None and text.citations
    assert "no figure: 'recurring'" in text.explanation
    issuers = store.sql("SELECT doc_id, issuer FROM documents").set_index("doc_id")["issuer"]
    assert {issuers[c.doc] for c in text.citations} == {"Rapsa"}
    _assert_citations_slice(store, text)
    # a question saying five words or more beyond the figure asks about more than it: the text, never a figure
    longer = store.ask("How much revenue did Rapsa book in FY2021, and over what timeframe does it expect its "
                       "backlog to convert before it ends?")
    assert longer.kind == "passages" and longer.value is None and longer.citations, longer.explanation
    assert "no figure:" in longer.explanation and "before" in longer.explanation


def test_text_as_of_skips_later_filings(store):
    a = store.ask("What risk factors does Rapsa describe?", as_of="2019-06-01")
    accepted = store.sql("SELECT doc_id, accepted_at FROM documents").set_index("doc_id")["accepted_at"]
    assert a.citations and all(pd.isna(accepted[c.doc]) or accepted[c.doc] <= pd.Timestamp("2019-06-01")
                               for c in a.citations)


def test_cli_ask_json(store, tmp_path, capsys):
    from factstore.cli import main

    db = tmp_path / "s.duckdb"
    filings = generate(companies=2)
    with factstore.open(db) as s:
        s.load_course(xbrl=filings.xbrl, documents=filings.documents)
    question = "What was Rapsa's revenue in Q4 2019?"
    assert main(["ask", question, "--as-of", "2020-06-30", "--json", "--db", str(db)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["kind"] == "fact" and printed["value"] == store.ask(question, as_of="2020-06-30").value
    # every time, the citations' and the parts' too, is UTC with its zone: read back, it is the API's moment
    with factstore.open(db, read_only=True) as s:
        answer = s.ask(question, as_of="2020-06-30")
    assert datetime.fromisoformat(printed["as_of"]) == datetime(2020, 6, 30, tzinfo=UTC)
    cited = [(c["accepted_at"], a.accepted_at) for c, a in zip(printed["citations"], answer.citations, strict=True)]
    assert cited and all(datetime.fromisoformat(t) == pd.Timestamp(want, tz="UTC") for t, want in cited)
    parts = [p["accepted_at"] for p in printed["parts"]]
    assert parts and all(datetime.fromisoformat(t).utcoffset() == timedelta(0) for t in parts)


def test_the_real_evaluations_reading_of_a_cited_figure():
    """A cited span read as the values it may stand for: a loss in parentheses is negative, a per-share figure is as
    printed, and a tag printing no number (a zero as a dash) stands for none, never a crash of the evaluation."""
    from factstore.evaluate.ask import _printed

    assert -885e6 in _printed("(885)", "USD") and 391_035e6 in _printed("391,035", "USD")
    assert _printed("6.08", "USD/shares") == [6.08]
    assert _printed("—", "USD") == [] and _printed("none", "USD") == []
