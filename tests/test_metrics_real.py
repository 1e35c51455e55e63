"""`store.fact(entity, metric, period=LABEL, as_of=T)` for the metrics of data/metrics.csv, on the eight real
companies, against the oracle of tests/metric_oracle.py (the raw companyfacts JSON in plain Python; the one input
taken from the store is each filing's acceptance time). The default run asks 15 (metric, label, moment) cases of each
company, spread over its metrics, and each metric once now; the slow set asks 600 cases a company and every (company,
metric) pair. The named tests pin what the vocabulary exists for: tag switches (Apple 2018, Alphabet 2025), an amendment
(Apple's FY2009 10-K/A), a foreign currency (TSMC's TWD) and an IFRS 20-F filer (LPA)."""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

import factstore
from tests.helpers import EIGHT_COMPANIES, budget
from tests.metric_oracle import SECOND, Answer, Company, Metric, Series, covered, read_metrics

METRICS_CSV = Path(__file__).resolve().parents[1] / "data" / "metrics.csv"  # read at test time: it grows
AAPL, NVDA, GOOGL, TSM, TSLA, SNOW, MRVL, LPA = EIGHT_COMPANIES
TICKERS = {"CIK0000320193.json": "AAPL", "CIK0001045810.json": "NVDA", "CIK0001652044.json": "GOOGL",
           "CIK0001046179.json": "TSM", "CIK0001318605.json": "TSLA", "CIK0001640147.json": "SNOW",
           "CIK0001835632.json": "MRVL", "CIK0001997711.json": "LPA"}
RFCC = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
FULL = 600  # the slow set's cases per company (all of them, ~101,600, take over an hour on two cores)
# (company, metric) pairs the oracle finds labels for with data/metrics.csv as it was when this was written (545 of
# 86 metrics with concepts): a vocabulary or a metrics file that stopped resolving some metrics falls below
PAIRS_FLOOR = 520
# metrics every one of the eight companies reports under some concept of the file
EVERYWHERE = ("revenue", "operating_income", "net_income", "eps", "eps_basic", "total_assets", "equity", "cash")


def metrics() -> list[Metric]:
    return covered(read_metrics(METRICS_CSV))


def metric(name: str) -> Metric:
    found = [m for m in metrics() if m.name == name]
    assert found, f"{name!r} is not a metric with concepts in {METRICS_CSV}"
    return found[0]


# ------------------------------------------------------------------------------------------------ one case
@dataclass
class Tally:
    checked: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def report(self, limit: int = 12) -> str:
        head = "\n".join(self.failures[:limit])
        more = f"\n... and {len(self.failures) - limit} more" if len(self.failures) > limit else ""
        return f"{len(self.failures)} of {self.checked} cases differ from the oracle:\n{head}{more}"


def number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else repr(float(value))


def describe(f: factstore.Fact | Answer | None) -> str:
    if f is None:
        return "None"
    return (f"{number(f.value)} {f.unit} {f.concept} {f.start}..{f.end}{' derived' if f.derived else ''}"
            f" accepted {f.accepted_at:%Y-%m-%d %H:%M:%S}")


def case(series: Series, label: str, at: datetime | None) -> str:
    return (f"{TICKERS.get(series.company.file, series.company.name)} {series.metric.name} {label}"
            f" as of {'now' if at is None else f'{at:%Y-%m-%d %H:%M:%S}'}")


def ask(store: factstore.FactStore, series: Series, label: str, at: datetime | None) -> factstore.Fact | None:
    return store.fact(series.company.entity, series.metric.name, period=label, as_of=at)


def differences(got: factstore.Fact | None, want: Answer | None, at: datetime | None) -> list[str]:
    """What in the store's answer differs from the oracle's (empty: they agree)."""
    if want is None:
        return [] if got is None else ["an answer where the oracle has none"]
    if got is None:
        return ["None"]
    out = []
    if not (float(got.value) == float(want.value) or math.isclose(got.value, float(want.value), rel_tol=1e-9)):
        out.append("value")
    if got.unit != want.unit:
        out.append("unit")
    if want.concept is not None and got.concept != want.concept:
        out.append("concept")
    if pd_utc(got.accepted_at) != want.accepted_at:
        out.append("accepted_at")
    if bool(got.derived) != want.derived:
        out.append("derived")
    if got.end != want.end or (not want.derived and got.start != want.start):
        out.append("period")
    if at is not None and pd_utc(got.accepted_at) > at:
        out.append("accepted after as_of")
    for part in getattr(got, "parts", None) or ():
        when = part.get("accepted_at") if isinstance(part, dict) else getattr(part, "accepted_at", None)
        if at is not None and when is not None and pd_utc(when) > at:
            out.append("a part accepted after as_of")
    return out


def pd_utc(value) -> datetime:
    """A pandas or datetime stamp as an aware UTC datetime (a naive one is UTC)."""
    stamp = value.to_pydatetime() if hasattr(value, "to_pydatetime") else value
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


# Cases where the store's fiscal calendar, learned from what was filed by as_of, and the oracle's, from every filing,
# place a balance differently, each with the store's answer (the oracle has none). NVIDIA's filings of 2009 give
# FY2009 as starting 2008-01-25 and its FY2008 year-end cash (726,969,000: the balance at 2008-01-27, its true end)
# at 2008-01-25; until its filings gave FY2008's end, the store placed that balance at FY2008's end. Each is asked and
# must still be answered so: a change either way shows.
CALENDAR_DIFFERS = {("NVDA", "cash", "FY2008", "2009-11-20 04:59:58"): 726_969_000.0}


def check(store: factstore.FactStore, series: Series, label: str, at: datetime | None, tally: Tally) -> None:
    """Ask the store one case and compare; cases outside the contract are counted as skipped, by reason."""
    want = series.value(label, at)
    known = (TICKERS.get(series.company.file), series.metric.name, label, f"{at:%Y-%m-%d %H:%M:%S}" if at else None)
    if known in CALENDAR_DIFFERS:
        got = ask(store, series, label, at)
        assert want is None and got is not None and got.value == CALENDAR_DIFFERS[known], case(series, label, at)
        tally.skipped["calendars differ (CALENDAR_DIFFERS)"] += 1
        return
    if series.metric.formula and (want is None or want.derived):
        tally.skipped["metric with a formula: no value reported, or a derived one"] += 1
        return
    if want is None and series.derivable_elsewhere(label, at):
        tally.skipped["quarter derivable by a rule outside the contract (H1 - Q1, 9M - H1, FY - Q1..Q3)"] += 1
        return
    if want is not None and want.concept is None:
        tally.skipped["(checked) parts of different concepts: concept not compared"] += 1
    tally.checked += 1
    try:
        got = ask(store, series, label, at)
    except Exception as error:  # the feature under test may raise: a difference, not a crash of the test
        tally.failures.append(f"{case(series, label, at)}: fact raises {type(error).__name__}: {error}")
        return
    wrong = differences(got, want, at)
    if wrong:
        tally.failures.append(f"{case(series, label, at)}: fact gives {describe(got)}, oracle {describe(want)}"
                              f" ({', '.join(wrong)})")


def sample(company: Company, cases: int) -> list[tuple[Series, str, datetime | None]]:
    """`cases` cases of one company, the same each run while data/metrics.csv stays the same: its (company, metric)
    pairs in a shuffled order, one case each in turn: every third a label a second before its first report (None),
    the others drawn from the label's moments but "now" (which test_every_metric_resolves asks)."""
    pairs = [s for s in (company.series(m) for m in metrics()) if s.labels]
    rng = random.Random(company.file)
    rng.shuffle(pairs)
    picks: dict[tuple[int, str, datetime | None], tuple[Series, str, datetime | None]] = {}
    for i in range(min(cases, sum(len(s.labels) for s in pairs))):
        series = pairs[i % len(pairs)]
        label = rng.choice(sorted(series.labels))
        moments = series.moments(label)
        at = moments[0] if i % 3 == 0 else rng.choice(moments[:-1])
        picks.setdefault((id(series), label, at), (series, label, at))
    return list(picks.values())


# ------------------------------------------------------------------------------------------------ every metric
@pytest.mark.parametrize("name", EIGHT_COMPANIES, ids=TICKERS.get)
@budget(15, FULL, "cases")
def test_fact_of_each_metric_equals_the_oracle(eight_companies, oracle, name, cases):
    """A company's (metric, label, moment) cases: value, unit, concept, acceptance and period as the oracle has
    them (None where it has nothing), never from a filing accepted after as_of."""
    tally, picked = Tally(), sample(oracle[name], cases)
    assert picked, f"{TICKERS[name]}: no metric of {METRICS_CSV} has a label in the raw data"
    for series, label, at in picked:
        check(eight_companies, series, label, at, tally)
    assert tally.checked >= 0.8 * len(picked), f"{TICKERS[name]}: only {tally.checked} of {len(picked)} cases " \
        f"were checked, the rest skipped: {dict(tally.skipped)}"
    assert not tally.failures, f"{TICKERS[name]}: " + tally.report()


@budget(1, len(EIGHT_COMPANIES), "companies")
def test_every_metric_resolves(eight_companies, oracle, companies):
    """The vocabulary resolves: the oracle finds labels for at least PAIRS_FLOOR (company, metric) pairs, for every
    metric with concepts somewhere and for the core metrics at every company; the store answers each metric's latest
    fiscal year now as the oracle does at `companies` of the companies reporting it (in turn, so that the default
    run's one spreads over all eight); and the entries left out (their filing not in the store) are a trifle."""
    tally, pairs, where, asked = Tally(), [], defaultdict(list), set()
    for name, company in oracle.items():
        for m in metrics():
            series = company.series(m)
            if series.labels:
                pairs.append((TICKERS[name], m.name))
                where[m.name].append(series)
    for i, (name, found) in enumerate(sorted(where.items())):
        for series in (found[(i + k) % len(found)] for k in range(min(companies, len(found)))):
            years = [label for label in series.labels if label.startswith("FY")]
            label = max(years or series.labels, key=lambda label: series.labels[label].end)
            check(eight_companies, series, label, None, tally)
            asked.add((series.company.file, name))
    assert len(pairs) >= PAIRS_FLOOR, f"only {len(pairs)} (company, metric) pairs have a label in the raw data " \
        f"(floor {PAIRS_FLOOR}): {sorted(pairs)}"
    unused = [m.name for m in metrics() if m.name not in where]
    assert not unused, f"metrics with concepts that no company reports under them: {unused}"
    missing = {m: len(where[m]) for m in EVERYWHERE if len(where[m]) < len(EIGHT_COMPANIES)}
    assert not missing, f"core metrics found at fewer than the eight companies: {missing}"
    assert tally.checked >= 0.95 * len(asked), f"only {tally.checked} of {len(asked)} (company, metric) pairs " \
        f"checked: {dict(tally.skipped)}"
    assert not tally.failures, tally.report(limit=20)
    left_out = sum(sum(c.left_out.values()) for c in oracle.values())
    loaded = sum(len(entries) for c in oracle.values() for entries in c.by_concept.values())
    assert left_out <= 0.01 * loaded, f"{left_out} entries left out (their accession is not in filings) of " \
        f"{left_out + loaded}"


# ------------------------------------------------------------------------------------------------ named cases
def sweep(store: factstore.FactStore, series: Series, labels: list[str]) -> Tally:
    tally = Tally()
    for label in labels:
        assert label in series.labels, f"the oracle has no {label} for {series.metric.name}: {sorted(series.labels)}"
        for at in series.moments(label):
            check(store, series, label, at, tally)
    return tally


def expect(store: factstore.FactStore, series: Series, label: str, at: datetime | None, value: float,
           concept: str, **more) -> None:
    """The oracle gives `value` under `concept` (and `more`: derived, unit, accepted_at...), and so does fact()."""
    want = series.value(label, at)
    assert want is not None and float(want.value) == value and want.concept == concept, \
        f"oracle: {case(series, label, at)} gives {describe(want)}, not {number(value)} {concept}"
    for key, wanted in more.items():
        assert getattr(want, key) == wanted, f"oracle: {case(series, label, at)} {key} {getattr(want, key)!r}"
    got = ask(store, series, label, at)
    wrong = differences(got, want, at)
    if "form" in more and got is not None and got.form != more["form"]:
        wrong.append(f"form {got.form}")
    assert not wrong, f"{case(series, label, at)}: fact gives {describe(got)}, expected {describe(want)} ({wrong})"


def test_apple_2018_revenue_tag_switch(eight_companies, oracle, accepted):
    """Apple tagged revenue SalesRevenueNet up to its Q3 FY2018 10-Q, us-gaap:Revenues in the FY2018 10-K
    (0000320193-18-000145, restating FY2016-FY2018) and RevenueFromContractWithCustomerExcludingAssessedTax from
    the Q1 FY2019 10-Q on: `revenue` follows the tags, by the file's priority, at each second."""
    series = oracle[AAPL].series(metric("revenue"))
    ten_k = accepted["0000320193-18-000145"]
    expect(eight_companies, series, "FY2017", ten_k - SECOND, 229_234_000_000, "us-gaap:SalesRevenueNet")
    expect(eight_companies, series, "FY2017", ten_k, 229_234_000_000, "us-gaap:Revenues", accepted_at=ten_k)
    expect(eight_companies, series, "2018Q3", ten_k - SECOND, 53_265_000_000, "us-gaap:SalesRevenueNet")
    expect(eight_companies, series, "FY2019", None, 260_174_000_000, RFCC)
    expect(eight_companies, series, "2019Q1", accepted["0000320193-19-000010"], 84_310_000_000, RFCC)
    tally = sweep(eight_companies, series, ["FY2017", "2018Q1", "FY2019"])
    assert not tally.failures, "Apple's 2018 revenue tags: " + tally.report()


def test_alphabet_2025_revenue_tag_switch(eight_companies, oracle, accepted):
    """Alphabet tagged revenue RevenueFromContractWithCustomerExcludingAssessedTax up to its Q1 2025 10-Q and
    us-gaap:Revenues again from the Q2 2025 10-Q (0001652044-25-000062) on, restating 2024's quarters and, in the
    FY2025 10-K (0001652044-26-000018), FY2024: the same figures change concept at those seconds."""
    series = oracle[GOOGL].series(metric("revenue"))
    fy24, q2, fy25 = (accepted[a] for a in ("0001652044-25-000014", "0001652044-25-000062", "0001652044-26-000018"))
    expect(eight_companies, series, "FY2024", fy24, 350_018_000_000, RFCC, accepted_at=fy24)
    expect(eight_companies, series, "FY2024", fy25 - SECOND, 350_018_000_000, RFCC, accepted_at=fy24)
    expect(eight_companies, series, "FY2024", fy25, 350_018_000_000, "us-gaap:Revenues", accepted_at=fy25)
    # known since the FY2024 10-K, which tagged it RevenueFromContract...: the part names that filing's own tag
    got = eight_companies.fact(series.company.entity, "revenue", period="FY2024", as_of=fy25)
    assert [(p["concept"], p["first_filing_id"], p["first_concept"]) for p in got.parts] == [
        ("us-gaap:Revenues", "0001652044-25-000014", RFCC)]
    expect(eight_companies, series, "2024Q2", q2 - SECOND, 84_742_000_000, RFCC)
    expect(eight_companies, series, "2024Q2", q2, 84_742_000_000, "us-gaap:Revenues", accepted_at=q2)
    expect(eight_companies, series, "2024Q4", fy24, 96_469_000_000, RFCC, derived=True)
    tally = sweep(eight_companies, series, ["FY2024", "2024Q2"])
    assert not tally.failures, "Alphabet's 2025 revenue tags: " + tally.report()


def test_apple_fy2009_amendment(eight_companies, oracle, accepted):
    """Apple's FY2009 10-K/A (0001193125-10-012091) restated FY2009: a second before it the original 10-K's figures,
    from it the amended ones; 2009Q4 = FY - 9M mixes the amended FY with the 9M until the 10-Q of July 2010 restated
    that, and the FY2010 10-K reported the 3-month quarter itself (values: shared/real/MANIFEST.md)."""
    amended, nine, fy10 = (accepted[a] for a in ("0001193125-10-012091", "0001193125-10-162840",
                                                 "0001193125-10-238044"))
    original = accepted["0001193125-09-214859"]
    revenue, income, assets = (oracle[AAPL].series(metric(m)) for m in ("revenue", "net_income", "total_assets"))
    sales = "us-gaap:SalesRevenueNet"
    for series, concept, before, after in ((revenue, sales, 36_537_000_000, 42_905_000_000),
                                           (income, "us-gaap:NetIncomeLoss", 5_704_000_000, 8_235_000_000),
                                           (assets, "us-gaap:Assets", 53_851_000_000, 47_501_000_000)):
        expect(eight_companies, series, "FY2009", amended - SECOND, before, concept, form="10-K",
               accepted_at=original)
        expect(eight_companies, series, "FY2009", amended, after, concept, form="10-K/A", accepted_at=amended)
    expect(eight_companies, revenue, "2009Q4", amended - SECOND, 9_870_000_000, sales, derived=True)
    expect(eight_companies, revenue, "2009Q4", amended, 16_238_000_000, sales, derived=True, accepted_at=amended)
    expect(eight_companies, revenue, "2009Q4", nine, 12_207_000_000, sales, derived=True, accepted_at=nine)
    expect(eight_companies, revenue, "2009Q4", fy10, 12_207_000_000, sales, derived=False, accepted_at=fy10)
    tally = sweep(eight_companies, revenue, ["FY2009", "2009Q4"])
    assert not tally.failures, "Apple's FY2009 10-K/A: " + tally.report()


def test_tsmc_figures_are_in_twd(eight_companies, oracle):
    """TSMC (IFRS, 20-F) reports in New Taiwan dollars and adds a USD convenience translation of some figures:
    revenue's FY2023, the core metrics' FY2024 and every third other translated one come in TWD (TWD/shares for
    EPS)."""
    company = oracle[TSM]
    assert company.currency == "TWD", f"oracle: TSMC's reporting currency is {company.currency}"
    revenue = company.series(metric("revenue"))
    usd = [e for e in revenue.entries if e.unit == "USD" and e.period == revenue.labels["FY2023"].period]
    assert usd, "oracle: no USD translation of TSMC's FY2023 revenue in the raw data"
    expect(eight_companies, revenue, "FY2023", None, 2_161_735_800_000, "ifrs-full:Revenue", unit="TWD")
    # net income (its owners' share) is cited to its own figure, never to the whole ProfitLoss 0.08% beside it
    income = company.series(metric("net_income")).value("FY2023", None)
    got = eight_companies.fact(company.entity, "net_income", period="FY2023")
    assert [(p["concept"], p["first_value"]) for p in got.parts] == [(income.concept, float(income.value))]
    # quarters(): where a period has the USD translation too, the TWD figure is its first row
    rows = eight_companies.quarters(company.entity, "total_assets", as_of="2022-05-31")
    assert set(rows["unit"]) == {"TWD", "USD"} and (rows.groupby("period_end")["unit"].first() == "TWD").all()
    tally, units, translated = Tally(), Counter(), 0
    for m in metrics():
        series = company.series(m)
        if "FY2024" in series.labels:
            want = series.value("FY2024", None)
            units[want.unit.split("/")[0] if want else None] += 1
            period = series.labels["FY2024"].period
            if any(e.unit.startswith("USD") and e.period == period for e in series.entries):  # translated too
                translated += 1
                if m.name in EVERYWHERE or translated % 3 == 0:  # the core metrics, every third other
                    check(eight_companies, series, "FY2024", None, tally)
    assert units["TWD"] >= 20 and not units["USD"], f"oracle: TSMC's units {dict(units)}"
    assert translated >= 20, f"oracle: only {translated} of TSMC's FY2024 figures have a USD translation"
    assert not tally.failures, "TSMC in TWD: " + tally.report()


def test_lpa_ifrs_20f_fiscal_years(eight_companies, oracle):
    """LPA files 20-Fs under IFRS (ifrs-full concepts), calendar fiscal years FY2021-FY2024 and no quarters:
    revenue's FY labels at every moment; the core metrics' latest FY now, and every third other metric's."""
    company = oracle[LPA]
    revenue = company.series(metric("revenue"))
    assert sorted(revenue.labels) == ["FY2021", "FY2022", "FY2023", "FY2024"], \
        f"oracle: LPA labels {sorted(revenue.labels)}"
    for label, value in (("FY2021", 25_596_073), ("FY2022", 31_983_567), ("FY2023", 39_436_343),
                         ("FY2024", 43_862_372)):
        expect(eight_companies, revenue, label, None, value, "ifrs-full:Revenue", form="20-F", unit="USD")
    tally, pairs = sweep(eight_companies, revenue, sorted(revenue.labels)), 0
    for m in metrics():
        series = company.series(m)
        assert all(label.startswith("FY") for label in series.labels), f"oracle: LPA {m.name} {series.labels}"
        pairs += bool(series.labels)
        if series.labels and (m.name in EVERYWHERE or pairs % 3 == 0):  # the core metrics, every third other
            check(eight_companies, series, max(series.labels), None, tally)
    assert pairs >= 40, f"oracle: only {pairs} of LPA's metrics have FY labels"
    assert not tally.failures, "LPA (IFRS, 20-F): " + tally.report()


def test_tesla_restated_operating_cash_flow_under_another_tag(eight_companies, oracle, accepted):
    """Tesla's FY2014 10-K (0001564590-15-001031) restated FY2013's operating cash flow under
    NetCashProvidedByUsedInOperatingActivitiesContinuingOperations, the metric's second concept, where its FY2013
    10-K had NetCashProvidedByUsedInOperatingActivities: from that second on the restated figure, not the first
    concept's older one (found by a blind check, which the first-concept rule answered wrongly until 2016)."""
    series = oracle[TSLA].series(metric("operating_cash_flow"))
    restated = accepted["0001564590-15-001031"]
    first = "us-gaap:NetCashProvidedByUsedInOperatingActivities"
    expect(eight_companies, series, "FY2013", restated - SECOND, 257_994_000, first)
    expect(eight_companies, series, "FY2013", restated, 264_804_000,
           "us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations", accepted_at=restated)
    fcf = eight_companies.fact("TSLA", "free_cash_flow", period="FY2013", as_of="2016-06-30")
    parts = {p["metric"]: p["value"] for p in fcf.parts}
    assert parts["operating_cash_flow"] == 264_804_000 and fcf.value == 264_804_000 - parts["capex"]
    tally = sweep(eight_companies, series, ["FY2013", "FY2012"])
    assert not tally.failures, "Tesla's restated operating cash flow: " + tally.report()
