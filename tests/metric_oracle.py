"""An oracle for `store.fact(entity, metric, period=LABEL, as_of=T)` on a metric of data/metrics.csv, in plain
Python over the raw companyfacts JSON (nothing from factstore; the one input taken from the store is each
filing's acceptance time, read from its `filings` table by the tests).

The contract, for a metric with concepts (rows with a formula and no concepts are not covered; for rows with both,
the tests check only moments at which some concept reports a value):

1. Raw rows: the companyfacts entries (`facts[taxonomy][name]["units"][unit]`: start (absent for instants), end,
   val, accn, form, filed) of the metric's concepts, `taxonomy:name`, in the priority order of the `concepts`
   column.
2. Each entry is accepted when its filing (accession) was: `filings.accepted_at`, UTC. An entry whose accession
   the store has no filing for is not loaded; it is left out and counted (`Company.left_out`).
3. Visible at T: accepted_at <= T (T None: everything loaded). The value of a fact (concept, unit, start, end) at T
   is that of its visible entry accepted last (ties: the greatest accession).
4. For a period and a unit, the metric's value at T is the figure of the newest filing (by rule 3's order) among
   the concepts' visible values; within one filing, that of the first concept in the list (a company that re-tags a
   restated comparative is read from the restatement on).
5. Units in order: the company's reporting currency (the ISO code with most entries over all its concepts), USD,
   the others alphabetically; a unit is ranked by its part before `/` (`TWD/shares` ranks as `TWD`). The first
   unit with a value gives the answer.
6. Labels, only where the raw data map them unambiguously:
   - `FY<N>`: a 350-380-day duration (days = end - start + 1) ending in year N (an end in the first 7 days of
     January counts for N - 1); several distinct ones for one N: no label.
   - `<N>Q<k>`, k = 1..3: the one 80-105-day duration ending within 10 days of fy_start(N) + k * 91.31 - 1 days.
   - instants (balance sheets): FY<N> and <N>Q<k> are the instants at those periods' ends, the periods taken from
     the company's calendar (the durations of all its concepts).
   - `<N>Q4` of a duration metric: the 3-month figure ending at FY<N>'s end if one is visible; else FY<N> minus the
     9-month figure starting with FY<N> (derived: accepted when the later part was), both visible, each valued by
     rules 3-4 at T in the same unit. Only money (a currency unit without `/`) is derived here.
7. Moments: for each label, the acceptance of each filing reporting one of the label's periods under any of the
   metric's concepts, the second before each (before the first: None), and "now" (T None).
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

SECOND = timedelta(seconds=1)
DAY = timedelta(days=1)
QUARTER_DAYS = 91.31
CURRENCY = re.compile(r"^[A-Z]{3}$")


# ------------------------------------------------------------------------------------------------ the vocabulary
@dataclass(frozen=True)
class Metric:
    name: str
    concepts: tuple[str, ...]  # qualified, priority order
    formula: str


def read_metrics(path: Path) -> list[Metric]:
    """The rows of data/metrics.csv (read each time: the file grows)."""
    with path.open(newline="", encoding="utf-8") as f:
        return [Metric(row["metric"].strip(),
                       tuple(c.strip() for c in (row.get("concepts") or "").split(";") if c.strip()),
                       (row.get("formula") or "").strip())
                for row in csv.DictReader(f)]


def covered(metrics: Iterable[Metric]) -> list[Metric]:
    """The metrics this oracle speaks for: those with concepts."""
    return [m for m in metrics if m.concepts]


# ------------------------------------------------------------------------------------------------ raw entries
@dataclass(frozen=True)
class Entry:
    concept: str
    unit: str
    start: date | None
    end: date
    val: Decimal
    accn: str
    form: str
    accepted_at: datetime  # aware, UTC

    @property
    def period(self) -> tuple[date | None, date]:
        return (self.start, self.end)

    @property
    def order(self) -> tuple[datetime, str]:
        return (self.accepted_at, self.accn)


@dataclass(frozen=True)
class Answer:
    value: Decimal
    unit: str
    concept: str | None  # None: a derived figure whose parts used different concepts
    start: date | None
    end: date
    accepted_at: datetime
    accn: str
    form: str
    derived: bool = False
    parts: tuple[Answer, ...] = ()


def days(start: date, end: date) -> int:
    return (end - start).days + 1


def fiscal_year(end: date) -> int:
    return end.year - 1 if (end.month == 1 and end.day <= 7) else end.year


def unit_key(unit: str, currency: str | None) -> tuple[int, str]:
    base = unit.split("/")[0]
    return (0 if base == currency else 1 if base == "USD" else 2, unit)


def is_money(unit: str) -> bool:
    return bool(CURRENCY.match(unit))


def near_quarter_end(end: date, fy_start: date, k: int) -> bool:
    target = fy_start.toordinal() + k * QUARTER_DAYS - 1
    return abs(end.toordinal() - target) <= 10


# ------------------------------------------------------------------------------------------------ one company
class Company:
    """One companyfacts file, restricted to the entries whose filing the store holds."""

    def __init__(self, companyfacts: Path, accepted: Mapping[str, datetime]):
        raw = json.loads(companyfacts.read_text(encoding="utf-8"))
        self.file = companyfacts.name
        self.entity = f"{int(raw['cik']):010d}"
        self.name = raw.get("entityName", "")
        self.by_concept: dict[str, list[Entry]] = defaultdict(list)
        self.left_out: Counter[str] = Counter()  # concept -> entries not loaded (accession not in filings)
        currencies: Counter[str] = Counter()
        durations: set[tuple[date, date]] = set()
        for taxonomy, names in raw.get("facts", {}).items():
            for name, body in names.items():
                concept = f"{taxonomy}:{name}"
                for unit, rows in body.get("units", {}).items():
                    if CURRENCY.match(unit):
                        currencies[unit] += len(rows)
                    for row in rows:
                        when = accepted.get(row["accn"])
                        if when is None:
                            self.left_out[concept] += 1
                            continue
                        start = date.fromisoformat(row["start"]) if row.get("start") else None
                        end = date.fromisoformat(row["end"])
                        self.by_concept[concept].append(Entry(concept, unit, start, end, Decimal(str(row["val"])),
                                                              row["accn"], row.get("form", ""), when))
                        if start is not None:
                            durations.add((start, end))
        # the reporting currency: the ISO unit with most entries (ties: alphabetical, for determinism)
        self.currency = min(currencies, key=lambda u: (-currencies[u], u)) if currencies else None
        self.calendar = Calendar(durations)

    def series(self, metric: Metric) -> Series:
        return Series(self, metric)


class Calendar:
    """Fiscal years and quarters from a set of durations (the company's, or one metric's)."""

    def __init__(self, durations: Iterable[tuple[date, date]]):
        self.durations = sorted(set(durations))
        annual: dict[int, set[tuple[date, date]]] = defaultdict(set)
        for start, end in self.durations:
            if 350 <= days(start, end) <= 380:
                annual[fiscal_year(end)].add((start, end))
        self.annual = dict(annual)
        self.years = {n: next(iter(p)) for n, p in annual.items() if len(p) == 1}
        self.ambiguous_years = sorted(n for n, p in annual.items() if len(p) > 1)

    def quarter_candidates(self, n: int, k: int) -> list[tuple[date, date]]:
        fy_start = self.years[n][0]
        return [(s, e) for s, e in self.durations if 80 <= days(s, e) <= 105 and near_quarter_end(e, fy_start, k)]


@dataclass
class Label:
    """What a label names: the periods whose figures answer it."""

    name: str
    period: tuple[date | None, date] | None = None  # FY / Q1-Q3 / instants
    fy: tuple[date, date] | None = None  # Q4 of a duration metric
    nine: tuple[date, date] | None = None
    three: tuple[date, date] | None = None

    @property
    def periods(self) -> list[tuple[date | None, date]]:
        return [p for p in (self.period, self.fy, self.nine, self.three) if p is not None]

    @property
    def end(self) -> date:
        return self.period[1] if self.period else self.fy[1]


@dataclass
class Series:
    """One metric at one company: its loaded entries, its labels, its value at a moment."""

    company: Company
    metric: Metric
    entries: list[Entry] = field(init=False)
    kind: str = field(init=False)  # duration / instant / mixed / none
    labels: dict[str, Label] = field(init=False)
    skipped: Counter[str] = field(init=False)  # why labels were left out

    def __post_init__(self) -> None:
        self.entries = [e for c in self.metric.concepts for e in self.company.by_concept.get(c, ())]
        starts = {e.start is None for e in self.entries}
        self.kind = ("none" if not starts else "mixed" if len(starts) == 2
                     else "instant" if starts == {True} else "duration")
        self.units = sorted({e.unit for e in self.entries}, key=lambda u: unit_key(u, self.company.currency))
        self.skipped = Counter()
        # (concept, unit, start, end) -> entries, ordered by acceptance
        self.facts: dict[tuple[str, str, date | None, date], list[Entry]] = defaultdict(list)
        for e in self.entries:
            self.facts[(e.concept, e.unit, e.start, e.end)].append(e)
        for versions in self.facts.values():
            versions.sort(key=lambda e: e.order)
        self.labels = {}
        if self.kind == "duration":
            self._duration_labels()
        elif self.kind == "instant":
            self._instant_labels()
        elif self.kind == "mixed":
            self.skipped["metric mixes instants and durations"] += 1

    @property
    def left_out(self) -> int:
        return sum(self.company.left_out.get(c, 0) for c in self.metric.concepts)

    # ------------------------------------------------------------------------------------------ labels
    def _duration_labels(self) -> None:
        cal = Calendar(e.period for e in self.entries)
        if cal.ambiguous_years:
            self.skipped["ambiguous fiscal year"] += len(cal.ambiguous_years)
        for n, fy in sorted(cal.years.items()):
            self.labels[f"FY{n}"] = Label(f"FY{n}", period=fy)
            for k in (1, 2, 3):
                found = cal.quarter_candidates(n, k)
                if len(found) == 1:
                    self.labels[f"{n}Q{k}"] = Label(f"{n}Q{k}", period=found[0])
                elif found:
                    self.skipped["ambiguous quarter"] += 1
            threes = [(s, e) for s, e in cal.durations if e == fy[1] and 80 <= days(s, e) <= 105]
            nines = [(s, e) for s, e in cal.durations if s == fy[0] and e < fy[1] and near_quarter_end(e, fy[0], 3)]
            if len(threes) > 1 or len(nines) > 1:
                self.skipped["ambiguous Q4 part"] += 1
                continue
            if threes or nines:
                self.labels[f"{n}Q4"] = Label(f"{n}Q4", fy=fy, nine=nines[0] if nines else None,
                                              three=threes[0] if threes else None)

    def _instant_labels(self) -> None:
        cal = self.company.calendar
        instants = {e.end for e in self.entries}
        ends: dict[str, date] = {}
        for n in cal.ambiguous_years:
            if len({end for _, end in cal.annual[n]}) > 1:
                self.skipped["ambiguous fiscal year"] += 1
            else:  # several starts, one end: the year end is known, its quarters are not
                ends[f"FY{n}"] = next(iter(cal.annual[n]))[1]
        for n, fy in cal.years.items():
            ends[f"FY{n}"] = fy[1]
            for k in (1, 2, 3):
                found = {e for _, e in cal.quarter_candidates(n, k)}
                if len(found) == 1:
                    ends[f"{n}Q{k}"] = next(iter(found))
                elif found:
                    self.skipped["ambiguous quarter"] += 1
        for name, end in sorted(ends.items()):
            if end in instants:
                self.labels[name] = Label(name, period=(None, end))

    # ------------------------------------------------------------------------------------------ values
    def visible(self, concept: str, unit: str, period: tuple[date | None, date], at: datetime | None) -> Entry | None:
        versions = self.facts.get((concept, unit, *period), ())
        seen = [e for e in versions if at is None or e.accepted_at <= at]
        return max(seen, key=lambda e: e.order) if seen else None

    def in_unit(self, period: tuple[date | None, date], unit: str, at: datetime | None) -> Entry | None:
        """Rule 4: of the concepts' visible figures, the newest filing's; within one filing the first concept's."""
        found = [(e.order, -rank, e) for rank, c in enumerate(self.metric.concepts)
                 if (e := self.visible(c, unit, period, at)) is not None]
        return max(found, key=lambda f: f[:2])[2] if found else None

    def at(self, period: tuple[date | None, date], at: datetime | None) -> Answer | None:
        """Rules 3-5: the metric's value for one period at a moment."""
        for unit in self.units:
            found = self.in_unit(period, unit, at)
            if found is not None:
                return reported(found)
        return None

    def value(self, label: str, at: datetime | None) -> Answer | None:
        spec = self.labels[label]
        if spec.period is not None:
            return self.at(spec.period, at)
        for unit in self.units:
            if spec.three is not None:
                three = self.in_unit(spec.three, unit, at)
                if three is not None:
                    return reported(three)
            if spec.nine is not None and is_money(unit):
                fy, nine = self.in_unit(spec.fy, unit, at), self.in_unit(spec.nine, unit, at)
                if fy is not None and nine is not None:
                    last = max(fy, nine, key=lambda e: e.order)
                    return Answer(fy.val - nine.val, unit, fy.concept if fy.concept == nine.concept else None,
                                  nine.end + DAY, fy.end, last.accepted_at, fy.accn, fy.form, True,
                                  (reported(fy), reported(nine)))
        return None

    def derivable_elsewhere(self, label: str, at: datetime | None) -> bool:
        """Whether a longer duration ending at the label's quarter end is visible at `at`: then a store deriving
        quarters by other rules (H1 - Q1, 9M - H1, FY - (Q1 + Q2 + Q3)) may answer where this oracle has None."""
        spec = self.labels[label]
        if self.kind != "duration" or label.startswith("FY"):
            return False
        end = spec.end
        return any(e.start is not None and e.end == end and days(e.start, e.end) > 105
                   and (at is None or e.accepted_at <= at) for e in self.entries)

    def moments(self, label: str) -> list[datetime | None]:
        periods = set(self.labels[label].periods)
        times = sorted({e.accepted_at for e in self.entries if e.period in periods})
        return [*sorted({t - SECOND for t in times} | set(times)), None]


def reported(e: Entry) -> Answer:
    return Answer(e.val, e.unit, e.concept, e.start, e.end, e.accepted_at, e.accn, e.form)
