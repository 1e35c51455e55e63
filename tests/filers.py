"""Synthetic filers for the oracle tests: course-format rows as real filers report them, with the cases that
matter made common. Accession numbers carry filer-agent prefixes, so their order is not acceptance order;
amendments land the same day (even the same second) as the filing they amend or months later; 10-Qs leave
out 3-month or year-to-date figures at random, so quarters must be derived every way the rules allow;
some 10-Qs add a 9-month figure starting a few days before the fiscal year (a second candidate) or 12
days before it (not the year's 9 months); values are revised by rounding-level amounts or restated.

Fiscal years end on the last day of December, June or September (true calendars the oracle is given).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

import pandas as pd

from factstore.store import FactStore
from tests.oracle import Calendar, Report, course_reports, month_end_years

AGENTS = ("0001193125", "0000320193", "0001628280", "0000950170", "0001104659")
REVENUE, REVENUE_606 = "us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
COST, INCOME, EPS, ASSETS = ("us-gaap:CostOfRevenue", "us-gaap:NetIncomeLoss", "us-gaap:EarningsPerShareBasic",
                             "us-gaap:Assets")
UNITS = {EPS: "USD/shares"}
DAY = timedelta(days=1)


@dataclass
class Filers:
    """The course's two files, the entities' true fiscal calendars and every raw row as a Report."""

    xbrl: pd.DataFrame
    documents: pd.DataFrame
    calendar: Calendar
    reports: list[Report] = field(init=False)

    def __post_init__(self) -> None:
        self.reports = course_reports(self.xbrl, self.documents)

    @property
    def moments(self) -> list[datetime]:
        """Every acceptance time (naive UTC), oldest first."""
        return sorted({r.accepted_at for r in self.reports})

    def load(self, store: FactStore) -> None:
        store.load_course(xbrl=self.xbrl, documents=self.documents, progress=False)


class _Filer:
    """One company's filings, built in acceptance order against its current truth."""

    def __init__(self, rng: random.Random, ticker: str, years: range, used: set[str]) -> None:
        self.rng, self.ticker, self.used = rng, ticker, used
        self.years = month_end_years(rng.choice((12, 6, 9)), range(years[0] - 3, years[-1] + 3))
        self.switch = (years[-1], rng.choice((2, 3, 4))) if rng.random() < 0.8 else None  # (year, quarter)
        self.truth: dict[tuple[str, date | None, date], float] = {}
        self.rows: list[dict] = []
        self.docs: list[dict] = []

    def quarter_bounds(self, fy: int, q: int) -> tuple[date, date]:
        """First and last day of fiscal quarter q of fiscal year fy (three calendar months)."""
        start = self.years[fy][0]
        first = start if q == 1 else self.quarter_bounds(fy, q - 1)[1] + DAY
        month = first.month + 2
        last = date(first.year + (month > 12), (month - 1) % 12 + 1, 1)
        return first, date(last.year + (last.month == 12), last.month % 12 + 1, 1) - DAY

    def value(self, concept: str, start: date | None, end: date) -> float:
        """The current true value of a fact (drawn once; year-to-date flows add up their quarters)."""
        key = (concept, start, end)
        if key not in self.truth:
            rng = self.rng
            if start is None:
                self.truth[key] = float(rng.randrange(5_000, 90_000) * 1000)
            elif concept == EPS:
                self.truth[key] = rng.randrange(-80, 400) / 100
            elif (end - start).days < 100:
                low, high = (-400, 900) if concept == INCOME else (800, 9000)
                self.truth[key] = float(rng.randrange(low, high) * 1000)
            else:
                fy = [y for y, (s, e) in self.years.items() if s <= start <= e][0]
                parts = [self.quarter_bounds(fy, q) for q in (1, 2, 3, 4)]
                self.truth[key] = sum(self.value(concept, s, e) for s, e in parts if s >= start and e <= end)
        return self.truth[key]

    def accession(self, year: int) -> str:
        while True:
            accn = f"{self.rng.choice(AGENTS)}-{year % 100:02d}-{self.rng.randrange(1, 999_999):06d}"
            if accn not in self.used:
                self.used.add(accn)
                return accn

    def periods(self, fy: int, q: int) -> list[tuple[str, date | None, date]]:
        """(what, start, end) of a 10-Q for quarter q (q=4: the 10-K) of fiscal year fy."""
        start = self.years[fy][0]
        end = self.quarter_bounds(fy, q)[1]
        out = [("ytd", start, end)] if q > 1 else []
        if q < 4 or self.rng.random() < 0.1:  # a 3-month fourth quarter is rare
            out.append(("quarter", self.quarter_bounds(fy, q)[0], end))
        return out

    def filing(self, fy: int, q: int, accepted: datetime) -> None:
        """A 10-Q (q < 4) or 10-K with its amendments."""
        rng = self.rng
        rows: list[tuple[str, date | None, date, float]] = []
        revenue = REVENUE_606 if self.switch is not None and (fy, q) >= self.switch else REVENUE
        # each line but cost (it anchors the calendar) leaves out its year-to-date or 3-month figure, both, or neither
        left_out = {c: rng.choice(("ytd", "quarter", "ytd quarter", "", "")) for c in (revenue, INCOME, EPS)}
        for what, start, end in self.periods(fy, q):
            for concept in (revenue, COST, INCOME, EPS):
                base = REVENUE if concept == REVENUE_606 else concept
                if what in left_out.get(concept, ""):
                    continue
                rows.append((concept, start, end, self.value(base, start, end)))
                if rng.random() < 0.6:  # the prior year's comparative, sometimes rounded or restated
                    ps, pe = self.prior(start), self.prior(end)
                    rows.append((concept, ps, pe, self.revise(base, ps, pe)))
            if what == "ytd" and q == 3:
                rows += self.odd_nine_months(revenue, start, end)
        for end in sorted({self.quarter_bounds(fy, q)[1], self.years[fy - 1][1]}):
            rows.append((ASSETS, None, end, self.revise(ASSETS, None, end)))
        form = "10-K" if q == 4 else "10-Q"
        accn = self.accession(accepted.year)
        self.emit(accn, form, accepted, rows, fy, q)
        while rng.random() < 0.4:  # amendments: the same facts, some values changed
            when = rng.choice((accepted + timedelta(hours=rng.randrange(1, 5)), accepted,
                               accepted + timedelta(days=rng.randrange(2, 200), seconds=rng.randrange(-3600, 3600))))
            changed = []
            for concept, start, end, v in rows:
                if rng.random() < 0.5 and concept != EPS:
                    base = REVENUE if concept == REVENUE_606 else concept
                    v = self.restate(base, start, end)
                changed.append((concept, start, end, v))
            rows = changed
            self.emit(self.accession(when.year), form + "/A", when, rows, fy, q)

    def prior(self, d: date) -> date:
        return d.replace(year=d.year - 1)  # quarters end on the last day of March, June, September, December

    def revise(self, concept: str, start: date | None, end: date) -> float:
        """A comparative: as true now, or (one time in seven) revised."""
        return self.restate(concept, start, end) if self.rng.random() < 0.15 else self.value(concept, start, end)

    def restate(self, concept: str, start: date | None, end: date) -> float:
        """A new true value: a restatement (2-6%) or a change of 1,000 (rounding, under 0.5%, for values over
        200,000)."""
        old = self.value(concept, start, end)
        if concept == EPS:
            return old
        step = 1000.0 if self.rng.random() < 0.4 else round(abs(old) * self.rng.choice((0.02, 0.04, -0.06)), -3)
        self.truth[(concept, start, end)] = old + (step or 1000.0)
        return self.truth[(concept, start, end)]

    def odd_nine_months(self, revenue: str, start: date, end: date) -> list[tuple]:
        """Nine-month figures not starting on the first day of the year: 3 days before (close enough to
        compete) for one line, 12 days before (not a year-to-date figure of this year) for the other."""
        out = []
        for concept, days in zip(self.rng.sample((revenue, INCOME), 2), (3, 12), strict=True):
            if self.rng.random() < 0.6:
                key = (REVENUE if concept == REVENUE_606 else concept, start - days * DAY, end)
                self.truth[key] = float(self.rng.randrange(1000, 30000) * 1000)
                out.append((concept, key[1], end, self.truth[key]))
        return out

    def emit(self, accn: str, form: str, accepted: datetime, rows: list[tuple], fy: int, q: int) -> None:
        stamp = pd.Timestamp(accepted, tz="UTC")
        self.docs.append({"id_doc": accn, "ticker": self.ticker, "emisor": f"{self.ticker} Inc.", "tipo": form,
                          "periodo_fin": pd.Timestamp(self.quarter_bounds(fy, q)[1]), "texto": "",
                          "ts_presentacion": stamp})
        for concept, start, end, v in rows:
            self.rows.append({"id_doc": accn, "concepto": concept, "periodo_inicio": pd.Timestamp(start),
                              "periodo_fin": pd.Timestamp(end), "valor": v, "ts_presentacion": stamp, "forma": form,
                              "unidad": UNITS.get(concept, "USD")})

    def file(self, years: range) -> None:
        for fy in years:
            for q in (1, 2, 3, 4):
                end = self.quarter_bounds(fy, q)[1]
                lag = self.rng.randrange(55, 80) if q == 4 else self.rng.randrange(25, 45)
                accepted = datetime.combine(end + lag * DAY, datetime.min.time()) + timedelta(
                    seconds=self.rng.randrange(10 * 3600, 23 * 3600))
                self.filing(fy, q, accepted)


def generate(rng: random.Random, tickers: tuple[str, ...] = ("AAA", "BBB"), years: range = range(2019, 2021)
             ) -> Filers:
    """Filers' 10-Qs, 10-Ks and amendments for fiscal years `years` (with prior-year comparatives)."""
    used: set[str] = set()
    rows, docs, calendar = [], [], {}
    for ticker in tickers:
        filer = _Filer(rng, ticker, years, used)
        filer.file(years)
        rows += filer.rows
        docs += filer.docs
        calendar[ticker] = filer.years
    xbrl = pd.DataFrame(rows)
    xbrl["periodo_inicio"] = pd.to_datetime(xbrl["periodo_inicio"])
    return Filers(xbrl, pd.DataFrame(docs), calendar)
