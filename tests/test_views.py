"""The analysts' views (sql/views.sql) against brute-force oracles over the raw input rows: all_reports,
latest_facts, first_reported, restatements, discrete_quarters and fiscal_calendar, on synthetic filers with
amendments, rounded comparatives and restatements; and the 0.5% rounding threshold at its edges."""

from __future__ import annotations

import random
import re

import pandas as pd
import pytest

import factstore
from factstore.errors import FactstoreError
from factstore.resources import CATALOG_SQL, sql_text
from tests import oracle
from tests.filers import generate


@pytest.fixture(scope="module")
def filed():
    filers = generate(random.Random(4), tickers=("AAA", "BBB", "CCC"))
    with factstore.open() as store:
        filers.load(store)
        yield filers, store


def view(store, query: str, key: tuple[str, ...]) -> dict:
    """A view's rows as plain dicts, keyed by the named columns."""
    return {tuple(r[k] for k in key): r for r in oracle.frame_rows(store.sql(query))}


def test_all_reports_is_every_raw_row_with_its_filing_and_entity(filed):
    filers, store = filed
    columns = ["entity_id", "name", "tickers", "concept", "unit", "period_start", "period_end", "kind", "value",
               "filing_id", "form", "accepted_at", "accepted_precision", "filed"]
    key = ("filing_id", "concept", "unit", "period_start", "period_end")
    got = view(store, f"SELECT {', '.join(columns)} FROM all_reports", key)
    names = dict(zip(filers.documents["ticker"], filers.documents["emisor"], strict=False))
    want = {}
    for r in filers.reports:
        row = oracle.plain({"entity_id": r.entity, "name": names[r.entity], "tickers": [r.entity], "concept": r.concept,
                            "unit": r.unit, "period_start": r.start, "period_end": r.end,
                            "kind": oracle.duration_class(r.start, r.end), "value": r.value, "filing_id": r.filing_id,
                            "form": r.form, "accepted_at": r.accepted_at, "accepted_precision": "second",
                            "filed": oracle.filing_date(r.accepted_at)})
        want[tuple(row[k] for k in key)] = row
    assert len(want) == len(filers.reports) and got == want


@pytest.mark.parametrize(("name", "mode"), [("latest_facts", "latest"), ("first_reported", "first")])
def test_latest_and_first_reported_facts(filed, name, mode):
    filers, store = filed
    key = ("entity_id", "concept", "unit", "period_start", "period_end")
    got = view(store, f"SELECT * FROM {name}", key)
    want = {}
    for k, fact in oracle.known_facts(filers.reports, None, mode).items():
        row = oracle.fact_row(k, fact)
        want[tuple(row[c] for c in key)] = row
    assert got == want
    if mode == "latest":  # versions, and restatements among them, did occur
        assert sum(r["n_versions"] > 1 for r in want.values()) >= 30
        assert sum(r["restated"] for r in want.values()) >= 10
        assert sum(r["value"] != r["first_value"] and not r["restated"] for r in want.values()) >= 5


def test_restatements_are_the_changes_of_half_a_percent_or_more(filed):
    filers, store = filed
    key = ("entity_id", "concept", "unit", "period_start", "period_end", "new_filing_id")
    got = view(store, "SELECT * FROM restatements", key)
    want = {tuple(oracle.plain(r)[k] for k in key): oracle.plain(r) for r in oracle.restatements(filers.reports)}
    assert got == want and len(want) >= 10


def test_discrete_quarters_are_the_oracle_quarters_on_the_newest_data(filed):
    filers, store = filed
    key = ("entity_id", "item", "unit", "fiscal_year", "fiscal_quarter")
    got = view(store, "SELECT * FROM discrete_quarters", key)
    want = {}
    for k, q in oracle.quarters(filers.reports, filers.calendar, None, "latest").items():
        if q.value is not None:
            row = oracle.quarter_row(k, q)
            del row["parts"]
            want[k] = row
    assert got == want
    assert {"H1 - Q1", "9M - H1", "FY - 9M", "FY - (Q1 + Q2 + Q3)"} <= {r["formula"] for r in want.values()}


def test_fiscal_calendar_is_the_true_calendar(filed):
    filers, store = filed
    got = view(store, "SELECT * FROM fiscal_calendar", ("entity_id", "fiscal_year"))
    want = {k: oracle.plain({"entity_id": k[0], "fiscal_year": k[1], "fy_start": s, "fy_end": e, "extrapolated": x})
            for k, (s, e, x) in oracle.fiscal_calendar(filers.reports, filers.calendar).items()}
    assert got == want
    assert {r["extrapolated"] for r in want.values()} == {True, False}
    assert len({r["fy_end"].month for r in want.values()}) >= 2  # more than one calendar


def test_rounding_threshold_is_half_a_percent():
    """A change of 0.5% or more is a restatement, a smaller one is rounding; from zero any change counts."""
    changes = {"Revenues": (1_000_000.0, 1_004_999.0), "CostOfRevenue": (1_000_000.0, 1_005_000.0),
               "NetIncomeLoss": (1_000_000.0, 995_000.0), "OperatingIncomeLoss": (-2_000_000.0, -2_009_000.0),
               "InterestExpense": (0.0, 1.0)}
    restated = {"CostOfRevenue", "NetIncomeLoss", "InterestExpense"}  # by the README's rule, computed by hand
    rows, docs = [], []
    for n, form, when in ((0, "10-Q", "2019-05-01 14:00:00"), (1, "10-Q/A", "2019-06-01 14:00:00")):
        docs.append({"id_doc": f"0000000001-19-00000{n}", "ticker": "RND", "emisor": "Rounding", "tipo": form,
                     "periodo_fin": "2019-03-31", "texto": ""})
        rows += [{"id_doc": f"0000000001-19-00000{n}", "concepto": c, "periodo_inicio": pd.Timestamp("2019-01-01"),
                  "periodo_fin": pd.Timestamp("2019-03-31"), "valor": v[n], "forma": form,
                  "ts_presentacion": pd.Timestamp(when, tz="UTC")} for c, v in changes.items()]
    with factstore.open() as store:
        store.load_course(xbrl=pd.DataFrame(rows), documents=pd.DataFrame(docs), progress=False)
        found = store.sql("SELECT concept, old_value, new_value, relative_change FROM restatements ORDER BY concept")
        assert {c.split(":")[1] for c in found["concept"]} == restated
        for r in found.itertuples():
            old, new = changes[r.concept.split(":")[1]]
            assert (r.old_value, r.new_value) == (old, new)
            assert pd.isna(r.relative_change) if old == 0 else r.relative_change == (new - old) / abs(old)
        flags = store.sql("SELECT concept, restated FROM latest_facts")
        assert {c.split(":")[1] for c, f in flags.values if f} == restated
        for concept in changes:
            fact = store.fact("RND", concept, start="2019-01-01", end="2019-03-31", as_of="2019-07-01")
            assert fact.value == changes[concept][1]
    assert oracle.is_restatement(1_000_000.0, 1_005_000.0) and not oracle.is_restatement(1_000_000.0, 1_004_999.0)



def test_reporting_currency_takes_an_entity_as_entity_key_reads_it(filed):
    _, store = filed
    got = store.sql("SELECT reporting_currency('AAA') AS a, reporting_currency('aaa') AS b")
    assert got.values.tolist() == [["USD", "USD"]]
    with pytest.raises(FactstoreError, match="unknown entity 'ZZZZ'"):
        store.sql("SELECT reporting_currency('ZZZZ')")


def test_the_sql_and_python_entity_ids_of_a_cik_agree():
    """sql macro sec_entity_id and loaders.batch.sec_entity_id state one rule: ten digits, zeros first."""
    from factstore.loaders.batch import sec_entity_id

    ciks = [1, 320193, 1045810, 9_999_999_999, *random.Random(7).sample(range(1, 10**10), 200)]
    with factstore.open() as store:
        got = store.sql("SELECT c, sec_entity_id(c) AS id, sec_entity_id(c::VARCHAR) AS from_text "
                        "FROM unnest($1::BIGINT[]) t(c)", [ciks])
    assert got["id"].tolist() == got["from_text"].tolist() == [sec_entity_id(c) for c in got["c"]]
    assert sec_entity_id(320193) == "0000320193" and all(len(i) == 10 for i in got["id"])


def test_every_view_and_macro_carries_its_comment_in_the_catalog(tmp_path):
    """The line above each CREATE in sql/ is the catalog's COMMENT, in a store and in a published snapshot."""
    defined = {m.group(2): m.group(1) for name in CATALOG_SQL
               for m in re.finditer(r"--\s*([^\n]*)\n(?:--[^\n]*\n)*CREATE OR REPLACE (?:MACRO|VIEW) (\w+)",
                                    sql_text(name))}
    with factstore.open(tmp_path / "s.duckdb") as store:
        store.publish(tmp_path / "pub")
    with factstore.open(tmp_path / "s.duckdb", read_only=True) as live, factstore.open(tmp_path / "pub") as pub:
        for s in (live, pub):
            found = dict(s.sql("""SELECT function_name AS name, comment FROM duckdb_functions()
                WHERE NOT internal AND schema_name = 'main'
                UNION ALL SELECT view_name, comment FROM duckdb_views() WHERE NOT internal""").values.tolist())
            assert set(defined) <= set(found)
            for name, first_line in defined.items():
                assert (found[name] or "").startswith(first_line.strip()), name
