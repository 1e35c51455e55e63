"""The metrics table (factstore/vocabulary.py, data/metrics.csv) and metrics on every surface (factstore/metrics.py,
resolve.concepts, facts(), the SQL macros' inputs), on the real companies."""

from __future__ import annotations

import csv
import re

import pandas as pd
import pytest

from factstore import facts, show, vocabulary
from factstore.errors import FactstoreError, NotFound
from factstore.resources import data_file

ROWS = list(csv.DictReader(data_file("metrics.csv").open(encoding="utf-8")))
SECOND = pd.Timedelta(seconds=1)


def test_the_table_is_well_formed():
    names = [r["metric"] for r in ROWS]
    assert len(names) == len(set(names)) and all(re.fullmatch(r"[a-z][a-z0-9_]*", n) for n in names)
    codes = [a.strip().lower() for r in ROWS for a in r.get("aliases", "").split(";") if a.strip()]
    assert len(codes) == len(set(codes)) and not set(codes) & (set(names) - set(codes)), "an alias names two metrics"
    for r in ROWS:
        assert r["kind"] in vocabulary.KINDS, r["metric"]
        assert all(re.fullmatch(r"[a-z-]+:\w+", c.strip()) for c in r["concepts"].split(";") if c.strip()), r
        assert r["concepts"].strip() or r["formula"].strip(), f"{r['metric']}: neither concepts nor formula"
        for term in re.findall(r"(?:avg\()?(\w+)\)?", r["formula"]):
            assert term in names or term == "avg", f"{r['metric']}: formula term {term!r} is no metric"


def test_names_and_aliases_find_their_metric():
    assert vocabulary.find("Net income").name == vocabulary.find("NET_INCOME").name == "net_income"
    assert vocabulary.find("netinc").name == "net_income" and vocabulary.find("ncfo").name == "operating_cash_flow"
    assert vocabulary.find("depamor").name == "depreciation_amortization"
    assert vocabulary.find("sbcomp").name == "stock_based_compensation"
    assert vocabulary.find("revenues?") is None
    with pytest.raises(ValueError, match="did you mean net_income"):
        vocabulary.named("net_incme")


def test_a_metric_name_is_its_concepts_and_a_concept_name_is_the_concept(eight_companies):
    s = eight_companies
    revenue = list(vocabulary.find("revenue").concepts)
    assert s.resolve_concepts("revenue") == revenue  # not ifrs-full:Revenue, the IFRS name of one spelling
    assert s.resolve_concepts("Revenues") == ["us-gaap:Revenues"]
    assert s.resolve_concepts("Revenue") == ["ifrs-full:Revenue"]  # a capital letter: a concept name
    with pytest.raises(NotFound, match="derived"):
        s.resolve_concepts("free_cash_flow")
    with pytest.raises(NotFound, match="unknown concept or metric"):
        s.resolve_concepts("revenu")


@pytest.mark.parametrize(("ticker", "metric", "period"), [
    ("AAPL", "revenue", "FY2024"), ("AAPL", "net income", "FY2024"), ("AAPL", "netinc", "2024Q4"),
    ("NVDA", "eps", "FY2025"), ("0001046179", "equity", "FY2024"), ("0001997711", "revenue", "FY2024")])
def test_a_metric_is_the_first_of_its_concepts_reported_for_the_period(eight_companies, ticker, metric, period):
    s = eight_companies
    got = s.fact(ticker, metric, period=period, strict=True)
    concepts = list(vocabulary.find(metric).concepts)
    known = set(s.sql("SELECT concept FROM concepts")["concept"])
    reported = [c for c in concepts if c in known and s.fact(ticker, c, period=period) is not None]
    first = s.fact(ticker, reported[0], period=period)
    assert (got.value, got.unit, got.concept, got.accepted_at) == (first.value, first.unit, first.concept,
                                                                   first.accepted_at)
    before = s.fact(ticker, metric, period=period, as_of=got.accepted_at - SECOND)
    assert before is None or before.accepted_at < got.accepted_at  # never a filing accepted after as_of


def test_a_derived_metric_carries_its_formula_and_parts(eight_companies):
    s = eight_companies
    fcf = s.fact("AAPL", "free_cash_flow", period="FY2024", strict=True)
    ocf = s.fact("AAPL", "operating_cash_flow", period="FY2024")
    capex = s.fact("AAPL", "capex", period="FY2024")
    assert fcf.value == ocf.value - capex.value and fcf.unit == "USD" and fcf.derived
    assert fcf.formula == "operating_cash_flow - capex" and {p["concept"] for p in fcf.parts} == {ocf.concept,
                                                                                                  capex.concept}
    assert fcf.accepted_at == max(pd.Timestamp(p["accepted_at"]) for p in fcf.parts)
    assert s.fact("AAPL", "free_cash_flow", period="FY2024", as_of=fcf.accepted_at - SECOND) is None or \
        s.fact("AAPL", "free_cash_flow", period="FY2024", as_of=fcf.accepted_at - SECOND).value != fcf.value
    margin = s.fact("AAPL", "gross_margin", period="FY2024")
    gross, revenue = s.fact("AAPL", "gross_profit", period="FY2024"), s.fact("AAPL", "revenue", period="FY2024")
    assert margin.unit == "%" and margin.value == pytest.approx(gross.value / revenue.value * 100)


def test_a_return_on_average_balances(eight_companies):
    s = eight_companies
    roe = s.fact("AAPL", "roe", period="FY2024", strict=True)
    income = s.fact("AAPL", "net_income", period="FY2024").value
    equity = [s.fact("AAPL", "equity", period=p).value for p in ("FY2023", "FY2024")]
    assert roe.unit == "%" and roe.value == pytest.approx(income / (sum(equity) / 2) * 100)
    assert "avg(equity" in roe.formula


def test_a_per_share_quotient_is_no_percentage(eight_companies):
    s = eight_companies
    bvps = s.fact("AAPL", "book_value_per_share", period="FY2024", strict=True)
    parts = vocabulary.find("book_value_per_share").formula.split(" / ")
    a, b = (s.fact("AAPL", m.strip(), period="FY2024").value for m in parts)
    assert bvps.value == pytest.approx(a / b) and bvps.unit == "USD/shares"


def test_facts_speaks_as_fact_does_and_says_why_a_value_is_missing(eight_companies):
    s = eight_companies
    fy = s.fact("AAPL", "revenue", period="FY2024")
    first = s.fact("AAPL", "revenue", period="FY2024", mode="first").accepted_at
    q4 = s.fact("AAPL", "revenue", period="2024Q4")
    twd = s.fact("0001046179", "equity", period="FY2024")
    now = pd.Timestamp("2030-01-01")
    rows = [("Apple", "revenue", fy.start, fy.end, fy.accepted_at, "ok"),
            ("AAPL", "revenue", fy.start, fy.end, first - SECOND, "not yet known at as_of"),
            ("AAPL", "revenue", q4.start, q4.end, now, "ok"),  # derived: FY - 9M
            ("ZZZZ", "revenue", fy.start, fy.end, now, "not in the store"),
            ("AAPL", "revenu", fy.start, fy.end, now, "unknown metric"),
            ("AAPL", "Revenues", fy.start, fy.end, now, "not reported"),
            ("AAPL", "free_cash_flow", fy.start + pd.Timedelta(days=1), fy.end, now, "not derivable"),
            ("0001046179", "equity", None, twd.end, now, "ok"),
            ("AAPL", "free_cash_flow", fy.start, fy.end, now, "ok")]  # by its formula, as fact() by dates
    q = pd.DataFrame(rows, columns=["entity", "concept", "period_start", "period_end", "as_of", "want"])
    got = s.facts(q.drop(columns="want"))
    assert got["status"].tolist() == q["want"].tolist() and set(facts.STATUSES) == set(q["want"])
    assert got["value"].tolist()[0] == fy.value and got["value"].tolist()[2] == q4.value
    assert got["unit"].tolist()[7] == "TWD" == twd.unit and got["value"].tolist()[7] == twd.value
    assert got["tag"].tolist()[0] == fy.concept and got["accepted_at"].tolist()[0] == fy.accepted_at.tz_localize(None)
    assert got.loc[got["status"] != "ok", "value"].isna().all()
    fcf = s.fact("AAPL", "free_cash_flow", start=fy.start, end=fy.end)
    assert got["value"].tolist()[8] == fcf.value == s.fact("AAPL", "free_cash_flow", period="FY2024").value


def test_a_derived_metric_by_its_dates_is_its_fiscal_period_and_unknown_before_its_parts(eight_companies):
    """fact(start=, end=) of a metric only derived by its formula is the fiscal period those dates are (found
    blind: it raised, asking for a label); a second before its last part is known it is None, not an error; dates
    that are no fiscal period of the company's are refused, saying so."""
    s = eight_companies
    by_label = s.fact("AAPL", "free_cash_flow", period="FY2023", strict=True)
    by_dates = s.fact("AAPL", "free_cash_flow", start=by_label.start, end=by_label.end, strict=True)
    assert (by_dates.value, by_dates.fiscal_period, by_dates.formula) == (by_label.value, "FY2023", by_label.formula)
    printed = show.fact_lines(by_dates)  # what `factstore fact` prints (it raised KeyError on a metric's parts)
    assert f"derived: {by_label.formula}" in printed and all(f" {p['metric']} {p['concept']} " in printed
                                                             for p in by_dates.parts)
    assert s.fact("AAPL", "free_cash_flow", start=by_label.start, end=by_label.end,
                  as_of=by_label.accepted_at - SECOND) is None
    q4 = s.fact("AAPL", "gross_margin", period="2024Q4", strict=True)  # its terms are derived quarters
    assert s.fact("AAPL", "gross_margin", start=q4.start, end=q4.end).value == q4.value
    asked = pd.DataFrame({"entity": ["AAPL"], "concept": ["free_cash_flow"], "period_start": [by_label.start],
                          "period_end": [by_label.end]})
    assert s.facts(asked)["value"].tolist() == [by_label.value]
    assert s.facts(asked, mode="first")["status"].tolist() == ["not derivable"]  # its terms are, as first reported
    with pytest.raises(NotFound, match="no fiscal period"):
        s.fact("AAPL", "free_cash_flow", start=by_label.start, end=by_label.end - pd.Timedelta(days=3), strict=True)


def test_the_macros_take_tickers_names_and_dates_as_text_and_refuse_what_they_cannot_read(eight_companies):
    s = eight_companies
    sql = ("SELECT fiscal_period, value FROM quarters_asof({}, concepts := ['us-gaap:Revenues'], entity := {}) "
           "ORDER BY 1")
    want = s.sql(sql.format("TIMESTAMP '2024-06-30'", "'0001045810'"))
    assert len(want) > 4
    for moment, entity in (("'2024-06-30'", "'NVDA'"), ("'2024-06-30'", "'nvda'"), ("'2024-06-30'", "'1045810'")):
        pd.testing.assert_frame_equal(s.sql(sql.format(moment, entity)), want)
    with pytest.raises(FactstoreError, match="unknown entity 'ZZZZ'"):
        s.sql(sql.format("NULL", "'ZZZZ'"))
    # a foreign filer's currency by its ticker, as by its id (it was NULL by ticker)
    assert s.sql("SELECT reporting_currency('tsm') AS c, reporting_currency(entity_key('TSM')) AS d").values.tolist() \
        == [["TWD", "TWD"]]
    point = "SELECT value FROM fact_asof({}, ['us-gaap:NetIncomeLoss'], DATE '2023-01-30', DATE '2024-01-28')"
    want = s.fact("NVDA", "us-gaap:NetIncomeLoss", start="2023-01-30", end="2024-01-28").value
    for entity in ("entity_key('nvda')", "'NVDA'", "'nvidia corporation'", "'0001045810'"):  # a point lookup, too
        assert s.sql(point.format(entity))["value"].tolist() == [want], entity
    with pytest.raises(FactstoreError, match="give it qualified, as us-gaap:Revenues"):  # nor a bare name
        s.sql("SELECT * FROM fact_asof('0001045810', ['Revenues'], NULL, DATE '2024-01-28')")
    # the table macros read names and metrics as the API does: concept_keys is resolve_concepts
    for names in (["revenue"], ["Revenues"], ["Revenue"], ["net income", "us-gaap:Assets"], ["netinc"],
                  ["Revenues", "revenue"], ["eps_diluted"], ["capex"], ["ASSETS"]):
        assert s.sql("SELECT concept_keys(?) AS k", [names])["k"][0].tolist() == s.resolve_concepts(names), names
    by_metric = s.sql(sql.format("'2024-06-30'", "'NVDA'").replace("['us-gaap:Revenues']", "['revenue']"))
    by_tags = s.sql(sql.format("'2024-06-30'", "'NVDA'").replace("['us-gaap:Revenues']",
                                                                 str(s.resolve_concepts("revenue"))))
    pd.testing.assert_frame_equal(by_metric, by_tags)
    with pytest.raises(FactstoreError, match="unknown concept or metric 'revenu'"):
        s.sql("SELECT * FROM facts_asof(NULL, concepts := ['revenu'], entity := 'NVDA')")
    # a mode or a period they cannot read is an error, not the as_of answer or an empty one (found blind: 'frist')
    first = s.sql("SELECT value FROM fiscal_facts(NULL, mode := 'first', concepts := ['revenue'], entity := 'NVDA') "
                  "WHERE fiscal_period = 'FY2020'")
    assert len(first) == 1
    typo = "give as_of, first or latest"
    for query in ("SELECT * FROM facts_asof(NULL, mode := 'frist', concepts := ['revenue'], entity := 'NVDA')",
                  "SELECT * FROM quarters_asof(NULL, mode := 'First', entity := 'NVDA')",
                  "SELECT * FROM fact_asof('0001045810', ['us-gaap:Revenues'], NULL, DATE '2024-01-28', mode := 'x')",
                  "SELECT * FROM fact_asof('0001045810', ['us-gaap:Nothing'], NULL, DATE '2024-01-28', mode := 'x')"):
        with pytest.raises(FactstoreError, match=typo):
            s.sql(query)
    dates = "(SELECT TIMESTAMP '2024-06-30' AS date)"
    s.sql(f"CREATE OR REPLACE TEMP VIEW panel_dates_t AS {dates}", write=True)
    assert len(s.sql("SELECT * FROM panel_asof('panel_dates_t', ['us-gaap:Revenues'], period := 'year')")) > 0
    for arg, message in (("mode := 'frist'", typo), ("period := 'yearly'", "give quarter, year or ttm"),
                         ("entities := ['0001045810', 'NVDIA']", r"unknown entity 'NVDIA'")):
        with pytest.raises(FactstoreError, match=message):
            s.sql(f"SELECT * FROM panel_asof('panel_dates_t', ['us-gaap:Revenues'], {arg})")
    # entities as entity_key reads them: ids, tickers, CIKs, names (a ticker gave 0 rows, found blind)
    cells = [s.sql(f"SELECT entity_id, value FROM panel_asof('panel_dates_t', ['us-gaap:Revenues'], "
                   f"entities := {names}) ORDER BY 1") for names in (
        "[entity_key('NVDA'), entity_key('aapl')]", "['0001045810', '0000320193']", "['NVIDIA', 'Apple Inc.']")]
    assert len(cells[0]) == 2 and cells[0].equals(cells[1]) and cells[2].equals(cells[1])
    s.sql("CREATE OR REPLACE TEMP TABLE questions_t AS SELECT 1 AS question_no, 'NVDA' AS entity, "
          "'NetIncomeLoss' AS concept, DATE '2023-01-30' AS period_start, DATE '2024-01-28' AS period_end, "
          "NULL::TIMESTAMP AS as_of", write=True)
    answer = s.sql("SELECT v.value AS value FROM lookup_asof('questions_t')")["value"].tolist()
    assert answer == [s.fact("NVDA", "us-gaap:NetIncomeLoss", start="2023-01-30", end="2024-01-28").value]
    for column, value, message in (("entity", "'ZZZZ'", "unknown entity 'ZZZZ'"),
                                   ("concept", "'net_income'", "'net_income' is no concept of the store")):
        s.sql(f"UPDATE questions_t SET {column} = {value}", write=True)
        with pytest.raises(FactstoreError, match=message):
            s.sql("SELECT * FROM lookup_asof('questions_t')")
        s.sql(f"UPDATE questions_t SET {column} = {'NVDA' if column == 'entity' else 'NetIncomeLoss'!r}", write=True)


def test_a_restated_comparative_under_another_tag_counts_from_its_own_second():
    """A company reports FY2019 revenue under Revenues, restates it a year later under the ASC 606 tag (the
    metric's second concept), then amends it once more reporting both tags: each surface gives the newest filing's
    figure from the second it was accepted (within one filing, the metric's first concept), never the old tag's
    figure because the tag ranks first; as first reported, the first filing's."""
    import factstore

    old, new = "us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    year, nine = ("2019-01-01", "2019-12-31"), ("2019-01-01", "2019-09-30")
    t0, t1 = pd.Timestamp("2019-11-01 12:00:00"), pd.Timestamp("2020-02-10 12:00:00")
    t2, t3 = pd.Timestamp("2021-02-10 12:00:00"), pd.Timestamp("2021-03-01 12:00:00")
    rows = [("F0", "10-Q", t0, old, nine, 300.0), ("F1", "10-K", t1, old, year, 400.0),
            ("F2", "10-K", t2, new, year, 420.0),
            ("F3", "10-K/A", t3, old, year, 430.0), ("F3", "10-K/A", t3, new, year, 999.0)]
    docs = pd.DataFrame([{"id_doc": f, "ticker": "ZZZ", "emisor": "Zeta", "tipo": form, "periodo_fin": p[1],
                          "texto": ""} for f, form, _, _, p, _ in rows]).drop_duplicates("id_doc")
    xbrl = pd.DataFrame([{"id_doc": f, "concepto": c, "periodo_inicio": pd.Timestamp(p[0]),
                          "periodo_fin": pd.Timestamp(p[1]), "valor": v, "forma": form,
                          "ts_presentacion": at.tz_localize("UTC")} for f, form, at, c, p, v in rows])
    expected = {t1 - SECOND: None, t1: 400.0, t2 - SECOND: 400.0, t2: 420.0, t3 - SECOND: 420.0, t3: 430.0}
    with factstore.open() as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        for moment, want in expected.items():
            by_label = store.fact("ZZZ", "revenue", period="FY2019", as_of=moment)
            by_dates = store.fact("ZZZ", "revenue", start=year[0], end=year[1], as_of=moment)
            assert (by_label.value if by_label else None, by_dates.value if by_dates else None) == (want, want), moment
            q4 = store.fact("ZZZ", "revenue", period="2019Q4", as_of=moment)
            assert (q4.value if q4 else None) == (want - 300.0 if want else None), moment
        assert store.fact("ZZZ", "revenue", period="FY2019", as_of=t2).concept == new
        first = store.fact("ZZZ", "revenue", period="FY2019", mode="first")
        assert (first.value, first.source) == (400.0, "F1")
        assert store.fact("ZZZ", "revenue", period="FY2019", mode="latest").value == 430.0
        asked = store.facts(pd.DataFrame({"entity": "ZZZ", "concept": "revenue", "period_start": year[0],
                                          "period_end": year[1], "as_of": list(expected)}))
        assert [None if pd.isna(v) else v for v in asked["value"]] == list(expected.values())
        dates = [m + SECOND for m in expected]  # a panel date sees what was accepted strictly before it
        panel = store.panel(["ZZZ"], ["revenue"], dates, period="year").sort_values("date")
        assert [None if pd.isna(v) else v for v in panel["value"]] == list(expected.values())
        assert panel["tag"].tolist()[-4:] == [old, new, new, old]
        mry = store.fundamentals("ZZZ", ["revenue"], dimension="MRY", as_of=t2)
        assert mry.set_index("fiscal_period").loc["FY2019", "revenue"] == 420.0
        ary = store.fundamentals("ZZZ", ["revenue"], dimension="ARY")
        assert ary.set_index("fiscal_period").loc["FY2019", "revenue"] == 400.0
