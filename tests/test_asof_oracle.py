"""Property tests: every query path agrees with a brute-force oracle over the raw rows, and no answer
uses a filing accepted after as_of."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import factstore

PERIODS = {  # calendar-year filer: the periods a 10-Q/10-K reports
    "2019Q1": (date(2019, 1, 1), date(2019, 3, 31)), "2019Q2": (date(2019, 4, 1), date(2019, 6, 30)),
    "2019Q3": (date(2019, 7, 1), date(2019, 9, 30)), "2019H1": (date(2019, 1, 1), date(2019, 6, 30)),
    "2019M9": (date(2019, 1, 1), date(2019, 9, 30)), "FY2019": (date(2019, 1, 1), date(2019, 12, 31)),
    "FY2018": (date(2018, 1, 1), date(2018, 12, 31)), "2018M9": (date(2018, 1, 1), date(2018, 9, 30)),
    "I2019-12-31": (None, date(2019, 12, 31)),
}
CONCEPTS = ["us-gaap:Revenues", "us-gaap:NetIncomeLoss"]
INSTANT = "us-gaap:Assets"
T0 = datetime(2019, 1, 1)
FORMS = ["10-Q", "10-K", "10-Q/A", "10-K/A"]


@st.composite
def raw_rows(draw):
    """Filings of two tickers at random seconds, each reporting random values for random periods."""
    n_filings = draw(st.integers(1, 8))
    rows, docs = [], []
    for i in range(n_filings):
        doc = f"D{i:06d}"
        ticker = draw(st.sampled_from(["AAA", "BBB"]))
        form = draw(st.sampled_from(FORMS))
        accepted = T0 + timedelta(seconds=draw(st.integers(0, 3 * 365 * 86400)))
        docs.append({"id_doc": doc, "ticker": ticker, "emisor": ticker.title(), "tipo": form,
                     "periodo_fin": date(2019, 12, 31), "texto": ""})
        for label in draw(st.lists(st.sampled_from(sorted(PERIODS)), min_size=1, max_size=6, unique=True)):
            # instants belong to balance-sheet concepts; durations to flows (never one concept as both)
            drawn = [INSTANT] if label.startswith("I") else draw(st.lists(st.sampled_from(CONCEPTS), min_size=1,
                                                                           unique=True))
            for concept in drawn:
                start, end = PERIODS[label]
                rows.append({"id_doc": doc, "concepto": concept, "periodo_inicio": start, "periodo_fin": end,
                             "valor": float(draw(st.integers(-50, 1000))),
                             "ts_presentacion": pd.Timestamp(accepted, tz="UTC"), "forma": form,
                             "ticker": ticker})
    return pd.DataFrame(rows), pd.DataFrame(docs)


def oracle(rows: pd.DataFrame, ticker, concept, start, end, as_of, mode):
    """The value of a fact by brute force: scan every raw row."""
    hits = [r for r in rows.itertuples()
            if r.ticker == ticker and r.concepto == concept and r.periodo_fin == end
            and (r.periodo_inicio if pd.notna(r.periodo_inicio) else None) == start
            and (mode == "latest" or as_of is None or r.ts_presentacion.tz_localize(None) <= as_of)]
    if not hits:
        return None
    key = lambda r: (r.ts_presentacion, r.id_doc)  # noqa: E731
    return (min(hits, key=key) if mode == "first" else max(hits, key=key)).valor


def q4_oracle(rows, ticker, concept, as_of):
    """Q4 2019 by the issue's rules, each part by brute force as of the same moment."""
    def part(label):
        start, end = PERIODS[label]
        return oracle(rows, ticker, concept, start, end, as_of, "as_of")
    fy, m9 = part("FY2019"), part("2019M9")
    if fy is None:
        return None
    if m9 is not None:
        return fy - m9
    q1, h1 = part("2019Q1"), part("2019H1")
    q2 = part("2019Q2")
    q2 = q2 if q2 is not None else (h1 - q1 if h1 is not None and q1 is not None else None)
    q3 = part("2019Q3")
    if q1 is None or q2 is None or q3 is None:
        return None
    return fy - q1 - q2 - q3


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=raw_rows(), queries=st.lists(st.tuples(
    st.sampled_from(["AAA", "BBB"]), st.sampled_from([*CONCEPTS, INSTANT]), st.sampled_from(sorted(PERIODS)),
    st.integers(-86400, 3 * 365 * 86400 + 86400), st.sampled_from(["as_of", "first", "latest"])),
    min_size=1, max_size=12))
def test_fact_agrees_with_brute_force(data, queries):
    rows, docs = data
    with factstore.open() as store:
        store.load_course(xbrl=rows.drop(columns="ticker"), documents=docs)
        for ticker, concept, label, offset, mode in queries:
            as_of = T0 + timedelta(seconds=offset)
            start, end = PERIODS[label]
            try:
                got = store.fact(ticker, concept, start=start, end=end, as_of=as_of, mode=mode)
            except factstore.NotFound:  # the ticker or concept never appears in this draw
                got = None
                assert ticker not in set(rows["ticker"]) or concept not in set(rows["concepto"])
            want = oracle(rows, ticker, concept, start, end, as_of, mode)
            if want is None:
                assert got is None or got.derived  # a quarter may be derived where none was reported
            else:
                assert got is not None and got.value == want and not got.derived
            if got is not None and mode != "latest":
                assert got.accepted_at.tz_localize(None) <= as_of


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=raw_rows(), ticker=st.sampled_from(["AAA", "BBB"]), concept=st.sampled_from(CONCEPTS),
       offsets=st.lists(st.integers(0, 3 * 365 * 86400), min_size=1, max_size=6))
def test_derived_q4_agrees_with_brute_force(data, ticker, concept, offsets):
    rows, docs = data
    with factstore.open() as store:
        store.load_course(xbrl=rows.drop(columns="ticker"), documents=docs)
        if ticker not in set(rows["ticker"]) or concept not in set(rows["concepto"]):
            return
        for offset in offsets:
            as_of = T0 + timedelta(seconds=offset)
            got = store.fact(ticker, concept, period="2019Q4", as_of=as_of)
            want = q4_oracle(rows, ticker, concept, as_of)
            assert (got.value if got else None) == want
            if got is not None:
                assert got.derived
                assert all(p["accepted_at"] <= as_of for p in got.parts)
                assert got.accepted_at.tz_localize(None) == max(p["accepted_at"] for p in got.parts)
