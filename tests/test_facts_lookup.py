"""Exact-period lookups (store.facts, the batch form for backtests, and store.fact) against a brute-force scan
of the raw input rows, at a second before, at and a second after each acceptance and at midnight of its day,
with accession numbers whose order is not acceptance order and amendments filed the same day."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pandas as pd
import pytest

import factstore
from tests import oracle
from tests.filers import REVENUE, generate
from tests.helpers import SERVED, served

SECOND = timedelta(seconds=1)


def moments_around(accepted: datetime) -> list[datetime]:
    midnight = datetime.combine(accepted.date(), datetime.min.time())
    return [accepted - SECOND, accepted, accepted + SECOND, midnight]


@pytest.fixture(scope="module", params=SERVED)
def filed(request):
    filers = generate(random.Random(7))
    with factstore.open() as store:
        filers.load(store)
        with served(store, request.param) as asked:
            yield filers, asked


def questions_for(filers, rng: random.Random) -> pd.DataFrame:
    """For every fact with more than one version and a sample of the rest: each version's moments."""
    versions: dict[tuple, list[datetime]] = {}
    for r in filers.reports:
        versions.setdefault(r.key, []).append(r.accepted_at)
    rows = []
    for (entity, concept, _unit, start, end), times in sorted(versions.items(), key=str):
        if len(times) == 1 and rng.random() < 0.7:
            continue
        name = concept.split(":")[1] if concept.startswith("us-gaap:") and rng.random() < 0.5 else concept
        for t in times:
            rows += [{"entity": entity.lower() if rng.random() < 0.2 else entity, "concept": name,
                      "period_start": start, "period_end": end, "as_of": m} for m in moments_around(t)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("mode", ["as_of", "first", "latest"])
def test_batch_lookups_equal_the_raw_rows(filed, mode):
    filers, store = filed
    questions = questions_for(filers, random.Random(1))
    answers = store.facts(questions, mode=mode)
    same_day = reordered = 0
    for q, a in zip(questions.itertuples(), answers.itertuples(), strict=True):
        concept = q.concept if ":" in q.concept else f"us-gaap:{q.concept}"
        want = oracle.lookup(filers.reports, q.entity.upper(), concept, q.period_start, q.period_end,
                             q.as_of, mode)
        where = f"{q.entity} {q.concept} {q.period_start}..{q.period_end} as of {q.as_of} ({mode})"
        if want is None:
            assert pd.isna(a.value) and pd.isna(a.filing_id), where
            continue
        assert (a.value, a.unit, a.filing_id, a.form, a.accepted_at) == (
            want.value, want.unit, want.filing_id, want.form, want.accepted_at), where
        later = [r for r in filers.reports if r.key == want.key and r.accepted_at > q.as_of]
        same_day += any(r.accepted_at.date() == q.as_of.date() for r in later)
        reordered += any(r.filing_id < want.filing_id and r.accepted_at > want.accepted_at for r in filers.reports
                         if r.key == want.key)
    if mode == "as_of":  # the cases this test is for did occur
        assert same_day >= 20 and reordered >= 20, (same_day, reordered)


def test_single_lookups_equal_the_raw_rows(filed):
    filers, store = filed
    rng = random.Random(2)
    sample = rng.sample([r for r in filers.reports if sum(x.key == r.key for x in filers.reports) > 1], 12)
    for r in sample:
        for moment in moments_around(r.accepted_at):
            for mode in ("as_of", "first"):
                got = store.fact(r.entity, r.concept, start=r.start, end=r.end, as_of=moment, mode=mode)
                want = oracle.lookup(filers.reports, r.entity, r.concept, r.start, r.end, moment, mode)
                if want is None:  # nothing reported for the period yet: a quarter derived for it, or nothing
                    derived = [q for k, q in oracle.quarters(filers.reports, filers.calendar, moment, mode,
                                                             [r.concept]).items()
                               if k[0] == r.entity and (q.start, q.end) == (r.start, r.end) and q.value is not None]
                    if derived:
                        assert (got.value, got.formula) == (derived[0].value, derived[0].formula)
                    else:
                        assert got is None
                    continue
                assert (got.value, got.source, got.form, got.accepted_at.tz_localize(None), got.derived) == (
                    want.value, want.filing_id, want.form, want.accepted_at, False)


def test_a_lookup_by_dates_of_a_quarter_never_reported_derives_it_once_its_parts_are_known(filed):
    """fact(start=, end=) of a quarter no filing reported as such: the oracle's derived quarter from the second
    its last part was accepted, nothing a second before (the lookup's `derivable` hands it to quarters_asof)."""
    filers, store = filed
    reported = {(r.entity, r.concept, r.start, r.end) for r in filers.reports}
    derived = [(k, q) for k, q in oracle.quarters(filers.reports, filers.calendar, None, "latest").items()
               if q.derived and (k[0], k[1], q.start, q.end) not in reported]
    assert len(derived) >= 10, len(derived)
    seen = 0
    for (entity, item, unit, _, _), q in random.Random(3).sample(derived, 10):
        known = q.accepted_at
        before = oracle.quarters(filers.reports, filers.calendar, known - SECOND, "as_of", [item])
        at = oracle.quarters(filers.reports, filers.calendar, known, "as_of", [item])
        for moment, want in ((known - SECOND, before), (known, at)):
            w = next((x for k, x in want.items() if k[0] == entity and k[2] == unit and (x.start, x.end) == (
                q.start, q.end) and x.value is not None), None)
            got = store.fact(entity, item, start=q.start, end=q.end, as_of=moment, unit=unit)
            assert ((got.value, got.formula) if got else None) == ((w.value, w.formula) if w else None), (
                entity, item, q.start, q.end, moment)
            seen += w is not None
        assert store.fact(entity, item, start=q.start, end=q.end, as_of=known, unit=unit).derived
    assert seen >= 10, seen  # known at its moment (and not before: the oracle's None there was asserted too)


def test_the_version_accepted_last_wins_whatever_its_accession_number():
    """A 10-Q and its 10-Q/A the same afternoon, the amendment under a filer agent's smaller accession number,
    and a second amendment at the same second as the first (the larger accession number is the later one)."""
    t = datetime(2019, 5, 1, 14, 0, 0)
    evening = t + timedelta(hours=6)
    filings = [("0001193125-19-000900", "10-Q", t, 100_000.0), ("0000320193-19-000100", "10-Q/A", evening, 150_000.0),
               ("0000320193-19-000099", "10-Q/A", evening, 120_000.0)]
    docs = pd.DataFrame([{"id_doc": f, "ticker": "ZZZ", "emisor": "Zeta", "tipo": form, "periodo_fin": "2019-03-31",
                          "texto": ""} for f, form, _, _ in filings])
    xbrl = pd.DataFrame([{"id_doc": f, "concepto": REVENUE, "periodo_inicio": pd.Timestamp("2019-01-01"),
                          "periodo_fin": pd.Timestamp("2019-03-31"), "valor": v, "forma": form,
                          "ts_presentacion": pd.Timestamp(at, tz="UTC")} for f, form, at, v in filings])
    expected = {datetime(2019, 5, 1): None, t - SECOND: None, t: 100_000.0, t + SECOND: 100_000.0,
                evening - SECOND: 100_000.0, evening: 150_000.0, datetime(2019, 5, 2): 150_000.0}
    period = {"start": "2019-01-01", "end": "2019-03-31"}
    with factstore.open() as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        answers = store.facts(pd.DataFrame({"entity": "ZZZ", "concept": "Revenues", "period_start": period["start"],
                                            "period_end": period["end"], "as_of": list(expected)}))
        assert [None if pd.isna(v) else v for v in answers["value"]] == list(expected.values())
        for moment, value in expected.items():
            got = store.fact("ZZZ", "Revenues", **period, as_of=moment)
            assert (got.value if got else None) == value
        first = store.fact("ZZZ", "Revenues", **period, mode="first")
        assert (first.value, first.source) == (100_000.0, "0001193125-19-000900")
        history = store.history("ZZZ", "Revenues", **period)
        assert history["filing_id"].tolist() == [f for f, *_ in sorted(filings, key=lambda f: (f[2], f[0]))]
        restated = store.sql("SELECT old_filing_id, new_filing_id FROM restatements WHERE entity_id = 'ZZZ'")
        assert restated.values.tolist() == [["0001193125-19-000900", "0000320193-19-000099"],
                                            ["0000320193-19-000099", "0000320193-19-000100"]]


def test_a_year_end_balance_is_the_one_at_the_years_end_not_the_next_days_opening():
    """Tesla's 10-Q of July 2021 gives its deficit at 2020-12-31 and, restated by a new standard, at 2021-01-01:
    both fall in FY2020's Q4 slot, and the year's balance is the one at its end (the later date had won)."""
    k10, q10 = ("0000000001-21-000001", "10-K", datetime(2021, 2, 8, 21, 0)), \
        ("0000000001-21-000002", "10-Q", datetime(2021, 7, 27, 10, 47))
    docs = pd.DataFrame([{"id_doc": f, "ticker": "ZZZ", "emisor": "Zeta", "tipo": form, "periodo_fin": end,
                          "texto": ""} for (f, form, _), end in ((k10, "2020-12-31"), (q10, "2021-06-30"))])
    rows = [(k10, REVENUE, "2020-01-01", "2020-12-31", 31_536.0), (k10, "RetainedEarningsAccumulatedDeficit", None,
            "2020-12-31", -5_399.0), (q10, "RetainedEarningsAccumulatedDeficit", None, "2020-12-31", -5_399.0),
            (q10, "RetainedEarningsAccumulatedDeficit", None, "2021-01-01", -5_188.0)]
    xbrl = pd.DataFrame([{"id_doc": f, "concepto": concept, "periodo_inicio": pd.Timestamp(start) if start else pd.NaT,
                          "periodo_fin": pd.Timestamp(end), "valor": value, "forma": form,
                          "ts_presentacion": pd.Timestamp(at, tz="UTC")}
                         for (f, form, at), concept, start, end, value in rows])
    with factstore.open() as store:
        store.load_course(xbrl=xbrl, documents=docs, progress=False)
        for period in ("FY2020", "2020Q4"):
            for moment in (datetime(2021, 3, 1), datetime(2021, 8, 1)):
                got = store.fact("ZZZ", "RetainedEarningsAccumulatedDeficit", period=period, as_of=moment)
                assert (got.value, str(got.end)) == (-5_399.0, "2020-12-31"), (period, moment)
        opening = store.fact("ZZZ", "RetainedEarningsAccumulatedDeficit", end="2021-01-01")
        assert opening.value == -5_188.0  # asked by its date, the opening balance is there
