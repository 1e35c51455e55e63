"""Property tests: every query path agrees with a brute-force oracle over the raw rows (tests/oracle.py),
and no answer uses a filing accepted after as_of. The strategies make the interesting cases common (annual
and 9-month figures, as-of moments at acceptance times) and the tests count them."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import factstore
from tests import oracle
from tests.helpers import examples as hypothesis_budget
from tests.helpers import reset, served, served_budget

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
SPAN = 3 * 365 * 86400
FORMS = ["10-Q", "10-K", "10-Q/A", "10-K/A"]
TICKERS = ["AAA", "BBB"]
CALENDAR = {t: oracle.month_end_years(12, range(2010, 2030)) for t in TICKERS}
SECOND = timedelta(seconds=1)
# a filing reports a few random periods, and often a year with its 9 months or its quarters (Q4 derivable)
BUNDLES = [[], ["FY2019"], ["FY2019", "2019M9"], ["2019H1", "2019Q1"], ["2019M9", "2019H1"],
           ["FY2019", "2019Q1", "2019Q2", "2019Q3"], ["FY2019", "2019Q1", "2019H1", "2019Q3"]]


@st.composite
def raw_rows(draw, most_labels: int = 3):
    """Filings of two tickers at random seconds (accession-style ids, not in acceptance order), each reporting
    random values for a bundle of periods and up to `most_labels` random ones."""
    n_filings = draw(st.integers(1, 8))
    rows, docs = [], []
    for i in range(n_filings):
        doc = f"{draw(st.sampled_from(['0001193125', '0000320193']))}-19-{i:06d}"
        ticker = draw(st.sampled_from(TICKERS))
        form = draw(st.sampled_from(FORMS))
        accepted = T0 + timedelta(seconds=draw(st.integers(0, SPAN)))
        docs.append({"id_doc": doc, "ticker": ticker, "emisor": ticker.title(), "tipo": form,
                     "periodo_fin": date(2019, 12, 31), "texto": ""})
        labels = draw(st.lists(st.sampled_from(sorted(PERIODS)), min_size=1, max_size=most_labels, unique=True))
        flows = draw(st.lists(st.sampled_from(CONCEPTS), min_size=1, unique=True))  # the filing's line items
        for label in dict.fromkeys(draw(st.sampled_from(BUNDLES)) + labels):
            # instants belong to balance-sheet concepts; durations to flows (never one concept as both)
            for concept in [INSTANT] if label.startswith("I") else flows:
                start, end = PERIODS[label]
                rows.append({"id_doc": doc, "concepto": concept, "periodo_inicio": start, "periodo_fin": end,
                             "valor": float(draw(st.integers(-50, 1000))),
                             "ts_presentacion": pd.Timestamp(accepted, tz="UTC"), "forma": form})
    return pd.DataFrame(rows), pd.DataFrame(docs)


def moments(data: st.DataObject, reports: list[oracle.Report]) -> list[datetime]:
    """As-of moments: a second before, at or after an acceptance, after every filing, or any second."""
    accepted = sorted({r.accepted_at for r in reports})
    near = st.tuples(st.sampled_from(accepted), st.sampled_from([-SECOND, timedelta(0), SECOND])).map(
        lambda pair: pair[0] + pair[1])
    anywhere = st.integers(-86400, SPAN + 86400).map(lambda s: T0 + timedelta(seconds=s))
    return data.draw(st.lists(st.one_of(near, st.just(accepted[-1]), anywhere), min_size=2, max_size=4))


@served_budget(20, 40)
def test_fact_agrees_with_brute_force(blank_store, how, examples):
    seen: Counter = Counter()

    @settings(**hypothesis_budget(examples, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=raw_rows(), draw=st.data())
    def agree(data, draw):
        xbrl, docs = data
        reports = oracle.course_reports(xbrl, docs)
        live = reset(blank_store)  # one store for every example, emptied before each
        live.load_course(xbrl=xbrl, documents=docs)
        with served(live, how) as store:
            ask(store, reports, draw)

    def ask(store, reports, draw):
        reported = sorted({(r.entity, r.concept, (r.start, r.end)) for r in reports}, key=str)
        derivable = sorted({(k[0], k[1], (q.start, q.end)) for k, q in oracle.quarters(reports, CALENDAR).items()
                            if q.derived}, key=str)
        anything = st.tuples(st.sampled_from(TICKERS), st.sampled_from([*CONCEPTS, INSTANT]),
                             st.sampled_from(sorted(PERIODS.values(), key=str)))
        for as_of in moments(draw, reports):
            ticker, concept, (start, end) = draw.draw(st.one_of(
                st.sampled_from(reported), *([st.sampled_from(derivable)] if derivable else []), anything))
            mode = draw.draw(st.sampled_from(["as_of", "first", "latest"]))
            try:
                got = store.fact(ticker, concept, start=start, end=end, as_of=as_of, mode=mode)
            except factstore.NotFound:  # the ticker or concept never appears in this draw
                got = None
                assert not any(r.entity == ticker for r in reports) or not any(r.concept == concept
                                                                              for r in reports)
            want = oracle.lookup(reports, ticker, concept, start, end, as_of, mode)
            if want is None:  # nothing reported for the period: a quarter derived for it, or nothing
                derived = [q for k, q in oracle.quarters(reports, CALENDAR, as_of, mode, [concept]).items()
                           if k[0] == ticker and (q.start, q.end) == (start, end) and q.value is not None]
                if derived:
                    assert (got.value, got.formula) == (derived[0].value, derived[0].formula)
                    seen["derived"] += 1
                else:
                    assert got is None
                    seen["none"] += 1
            else:
                assert (got.value, got.source, got.derived) == (want.value, want.filing_id, False)
                seen["reported"] += 1
            if got is not None and mode != "latest":
                assert got.accepted_at.tz_localize(None) <= as_of

    agree()
    assert seen["reported"] >= 12 * examples // 40 and seen["derived"] >= 3 * examples // 40, seen


@served_budget(12, 60)
def test_quarters_agree_with_brute_force(blank_store, how, examples):
    """Every discrete quarter (reported or derived: value, dates, formula, filing, time, warnings) as
    store.quarters gives it, and one as store.fact gives it by its label, against the oracle's quarters."""
    seen: Counter = Counter()

    # the same examples on every run, as CI's profile has them: drawn at random, 60 of them sometimes hold fewer
    # than 5 quarters derived from three others, and the coverage floor below failed about one local run in eight
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
    @given(data=raw_rows(most_labels=1), draw=st.data())
    def agree(data, draw):
        xbrl, docs = data
        reports = oracle.course_reports(xbrl, docs)
        ticker = reports[0].entity  # a ticker that reported something, and a concept with a year if it has one
        annual = {r.concept for r in reports if r.entity == ticker and (r.start, r.end) == PERIODS["FY2019"]}
        concept = draw.draw(st.sampled_from(sorted(annual or {r.concept for r in reports if r.entity == ticker})))
        live = reset(blank_store)  # one store for every example, emptied before each
        live.load_course(xbrl=xbrl, documents=docs)
        with served(live, how) as store:
            for as_of in moments(draw, reports):
                want = {k: q for k, q in oracle.quarters(reports, CALENDAR, as_of, "as_of", [concept]).items()
                        if k[0] == ticker and q.value is not None}
                frame = store.quarters(ticker, concept, as_of=as_of)
                got = {(r["fiscal_year"], r["fiscal_quarter"]): r for r in oracle.frame_rows(frame)}
                assert got == {(k[3], k[4]): {c: oracle.quarter_row(k, q)[c] for c in frame.columns}
                               for k, q in want.items()}
                assert all(r["accepted_at"] <= as_of for r in got.values())
                seen.update(q.formula or "reported" for q in want.values())
            fq = draw.draw(st.integers(1, 4))
            got = store.fact(ticker, concept, period=f"2019Q{fq}", as_of=as_of)
            q = want.get((ticker, concept, "USD", 2019, fq))
            assert (got.value, got.formula, got.source) == (q.value, q.formula, q.source.r.filing_id) if q \
                else not got

    agree()
    floor = examples / 60  # the floors of the full budget, in proportion
    assert seen["FY - 9M"] >= 12 * floor and seen["FY - (Q1 + Q2 + Q3)"] >= 5 * floor, seen
    assert seen["reported"] >= 40 * floor and seen["H1 - Q1"] + seen["9M - H1"] >= 3 * floor, seen
