"""The store on the demo data: derived Q4s against the course's CSV, amendments at their exact second,
first/latest modes, and random lookups against a brute-force oracle over the raw rows."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import factstore
from factstore.demo import REVENUE
from factstore.demo.data import generate
from tests.helpers import budget
from tests.oracle import course_reports, quarters, reported_calendar

SECOND = pd.Timedelta(seconds=1)


@pytest.fixture(scope="module")
def demo():
    data = generate(companies=12)
    store = factstore.open()
    store.load_course(xbrl=data.xbrl, documents=data.documents, sales=data.sales)
    rows = data.xbrl.merge(data.documents[["id_doc", "ticker"]], on="id_doc")
    yield data, rows, store
    store.close()


def oracle(rows: pd.DataFrame, ticker, concept, start, end, as_of=None, mode="as_of"):
    """Brute force: the matching raw rows, then the newest (or first) accepted by as_of."""
    hit = rows[(rows["ticker"] == ticker) & (rows["concepto"] == concept) & (rows["periodo_fin"] == end)
               & ((rows["periodo_inicio"] == start) if pd.notna(start) else rows["periodo_inicio"].isna())]
    if as_of is not None and mode != "latest":
        hit = hit[hit["ts_presentacion"] <= as_of]
    if hit.empty:
        return None
    hit = hit.sort_values(["ts_presentacion", "id_doc"])
    return hit.iloc[0 if mode == "first" else -1]


@budget(4, 1, name="every")  # every 4th 10-K in the default run (18: 10 companies, every year); all 72 slow
def test_q4_after_every_10k_equals_the_csv(demo, every):
    data, _, store = demo
    sales = data.sales.assign(fin_trimestre=pd.to_datetime(data.sales["fin_trimestre"]))
    tenks = data.documents[data.documents["tipo"] == "10-K"]
    assert len(tenks) >= 60
    for k in tenks.iloc[::every].itertuples():
        q = store.quarters(k.ticker, REVENUE, as_of=k.ts_presentacion + SECOND)
        q4 = q[(pd.to_datetime(q["period_end"]) == k.periodo_fin) & (q["fiscal_quarter"] == 4)]
        assert len(q4) == 1, f"{k.ticker} {k.periodo_fin}: no Q4"
        mine = sales[sales["ticker"] == k.ticker].set_index("fin_trimestre")["ventas"]
        q3_end = mine.index[mine.index.get_loc(k.periodo_fin) - 1]
        assert bool(q4["derived"].iloc[0]) and q4["formula"].iloc[0] == "FY - 9M"
        # the true quarter (the CSV's millions are whole thousands of dollars), from the day after Q3
        assert q4["value"].iloc[0] == round(mine[k.periodo_fin] * 1e6), f"{k.ticker} {k.periodo_fin}"
        assert q4["period_start"].iloc[0] == q3_end + pd.Timedelta(days=1)
        # a second before the 10-K was accepted, this Q4 was not knowable
        before = store.quarters(k.ticker, REVENUE, as_of=k.ts_presentacion - SECOND)
        assert not (pd.to_datetime(before["period_end"]) == k.periodo_fin).any()


def test_amendments_change_the_answer_at_their_second(demo):
    data, rows, store = demo
    docs = data.documents
    checked = 0
    for a in docs[docs["tipo"] == "10-Q/A"].itertuples():
        original = docs[(docs["ticker"] == a.ticker) & (docs["tipo"] == "10-Q")
                        & (docs["periodo_fin"] == a.periodo_fin)].iloc[0]
        new = rows[rows["id_doc"] == a.id_doc]
        old = rows[rows["id_doc"] == original["id_doc"]]
        both = new.merge(old, on=["concepto", "periodo_inicio", "periodo_fin"], suffixes=("", "_old"))
        changed = both[both["valor"] != both["valor_old"]]
        assert len(changed), "a 10-Q/A that changes nothing"
        for c in changed.itertuples():
            key = {"start": None if pd.isna(c.periodo_inicio) else c.periodo_inicio, "end": c.periodo_fin}
            assert store.fact(a.ticker, c.concepto, **key, as_of=a.ts_presentacion - SECOND).value == c.valor_old
            got = store.fact(a.ticker, c.concepto, **key, as_of=a.ts_presentacion)
            assert (got.value, got.source, got.form) == (c.valor, a.id_doc, "10-Q/A")
            first = store.fact(a.ticker, c.concepto, **key, as_of=a.ts_presentacion + SECOND, mode="first")
            assert first.value == c.valor_old
            latest = oracle(rows, a.ticker, c.concepto, c.periodo_inicio, c.periodo_fin, mode="latest")
            assert store.fact(a.ticker, c.concepto, **key, mode="latest").value == latest["valor"]
            checked += 1
    assert checked >= 5


def test_10ka_makes_q4_mixed_basis_until_the_9_months_are_restated(demo):
    data, _, store = demo
    docs = data.documents
    amendments = docs[docs["tipo"] == "10-K/A"]
    assert len(amendments)
    for a in amendments.itertuples():
        for moment, mixed in ((a.ts_presentacion - SECOND, False), (a.ts_presentacion, True)):
            q = store.quarters(a.ticker, REVENUE, as_of=moment)
            q4 = q[(pd.to_datetime(q["period_end"]) == a.periodo_fin) & (q["fiscal_quarter"] == 4)].iloc[0]
            assert any("mixed basis" in w for w in q4["warnings"]) == mixed


@pytest.fixture(scope="module")
def demo_reports(demo):
    """The demo's raw rows as oracle reports by ticker, and its fiscal calendar as its annual periods give it."""
    data = demo[0]
    reports = course_reports(data.xbrl, data.documents)
    by_ticker: dict[str, list] = {}
    for r in reports:
        by_ticker.setdefault(r.entity, []).append(r)
    return by_ticker, reported_calendar(reports)


@settings(max_examples=80, deadline=None)
@given(pick=st.integers(0, 10**9), offset_days=st.integers(-30, 800), mode=st.sampled_from(
    ["as_of", "first", "latest"]))
def test_random_lookups_agree_with_brute_force(demo, demo_reports, pick, offset_days, mode):
    _, rows, store = demo
    r = rows.iloc[pick % len(rows)]
    as_of = r["ts_presentacion"] + pd.Timedelta(days=offset_days)
    start = None if pd.isna(r["periodo_inicio"]) else r["periodo_inicio"]
    got = store.fact(r["ticker"], r["concepto"], start=start, end=r["periodo_fin"], as_of=as_of, mode=mode)
    want = oracle(rows, r["ticker"], r["concepto"], r["periodo_inicio"], r["periodo_fin"], as_of, mode)
    if want is None:  # nothing reported for the period by then: a quarter derived for it, or nothing
        reports, calendar = demo_reports
        derived = [q for q in quarters(reports[r["ticker"]], calendar, as_of.tz_localize(None).to_pydatetime(), mode,
                                      [r["concepto"]]).values()
                   if (q.start, q.end) == (start and start.date(), r["periodo_fin"].date()) and q.value is not None]
        assert (got.value, got.formula) == (derived[0].value, derived[0].formula) if derived else got is None
        return
    assert (got.value, got.source) == (want["valor"], want["id_doc"])
    if mode != "latest":
        assert got.accepted_at <= as_of


def test_batch_lookups_equal_the_raw_rows(demo):
    """store.facts at a second before, at and a second after each sampled row's acceptance (the row's own
    version, its predecessor, or none) against the brute-force scan of the raw rows."""
    _, rows, store = demo
    sample = rows.sample(300, random_state=3)
    shift = pd.to_timedelta(([-1, 0, 1] * 100)[:len(sample)], unit="s")
    questions = pd.DataFrame({"entity": sample["ticker"], "concept": sample["concepto"],
                              "period_start": sample["periodo_inicio"], "period_end": sample["periodo_fin"],
                              "as_of": sample["ts_presentacion"] + shift})
    answers = store.facts(questions)
    for q, a in zip(questions.itertuples(), answers.itertuples(), strict=True):
        want = oracle(rows, q.entity, q.concept, q.period_start, q.period_end, q.as_of)
        if want is None:
            assert pd.isna(a.value) and pd.isna(a.filing_id)
        else:
            assert (a.value, a.filing_id, a.form) == (want["valor"], want["id_doc"], want["forma"])
