"""Brute-force oracles over the raw input rows: what factstore must answer, by the rules README.md and
sql/macros.sql state, restated in plain Python (one loop per rule, no SQL, nothing from factstore).

The fiscal calendar is given, not learned: the tests know each filer's true fiscal years (the generator's,
or the annual periods the filer reported), so a store that learns a wrong calendar disagrees with them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

DAY = timedelta(days=1)
NEW_YORK = ZoneInfo("America/New_York")
# entity -> fiscal year -> (first day, last day)
Calendar = dict[str, dict[int, tuple[date, date]]]


@dataclass(frozen=True)
class Report:
    """One raw input row: a value of a fact as one filing reported it."""

    entity: str
    filing_id: str
    form: str
    accepted_at: datetime  # naive UTC
    concept: str
    unit: str
    start: date | None
    end: date
    value: float

    @property
    def key(self) -> tuple[str, str, str, date | None, date]:
        return (self.entity, self.concept, self.unit, self.start, self.end)

    @property
    def order(self) -> tuple[datetime, bool, str]:
        """Version order: acceptance moment, then within one second an original before its amendment, then the
        accession number."""
        return (self.accepted_at, self.form.endswith("/A"), self.filing_id)


def _day(value: Any) -> date | None:
    return None if pd.isna(value) else pd.Timestamp(value).date()


def _utc(value: Any) -> datetime:
    ts = pd.Timestamp(value)
    return (ts.tz_convert("UTC").tz_localize(None) if ts.tzinfo else ts).to_pydatetime()


def course_reports(xbrl: pd.DataFrame, documents: pd.DataFrame) -> list[Report]:
    """The course files' rows as reports: the entity is the document's ticker, an unqualified concept is
    us-gaap's, and without an `unidad` column a value is USD (USD/shares for per-share concepts)."""
    ticker = dict(zip(documents["id_doc"], documents["ticker"].str.upper(), strict=True))
    out = []
    for r in xbrl.to_dict("records"):
        concept = r["concepto"] if ":" in r["concepto"] else f"us-gaap:{r['concepto']}"
        unit = r.get("unidad") or ("USD/shares" if "PerShare" in concept else "USD")
        out.append(Report(ticker[r["id_doc"]], r["id_doc"], r["forma"], _utc(r["ts_presentacion"]), concept, unit,
                          _day(r["periodo_inicio"]), _day(r["periodo_fin"]), float(r["valor"])))
    return out


# ----------------------------------------------------------------- small rules
def duration_class(start: date | None, end: date) -> str:
    if start is None:
        return "instant"
    days = (end - start).days + 1
    for kind, low, high in (("quarter", 80, 105), ("half", 170, 195), ("nine_months", 260, 290),
                            ("year", 350, 380)):
        if low <= days <= high:
            return kind
    return "other"


def is_restatement(old: float, new: float) -> bool:
    """A change of half a percent or more; smaller changes are rounding."""
    return new != old and abs(new - old) >= 0.005 * abs(old)


def additive(unit: str) -> bool:
    return "/" not in unit and unit.lower() not in ("shares", "pure")


def fiscal_year_of(end: date) -> int:
    return end.year - (end.month == 1 and end.day <= 7)


def filing_date(accepted: datetime) -> date:
    """EDGAR's filing date: the New York date, or the next business day after 17:30 or on a weekend."""
    local = accepted.replace(tzinfo=ZoneInfo("UTC")).astimezone(NEW_YORK)
    day = local.date()
    if local.time() > time(17, 30) or day.weekday() >= 5:
        day += DAY
        while day.weekday() >= 5:
            day += DAY
    return day


# ----------------------------------------------------------------- versions
@dataclass(frozen=True)
class Known:
    """A fact as known: the report chosen for the mode, the first reported value and how many versions."""

    report: Report
    first_value: float
    n_versions: int

    @property
    def restated(self) -> bool:
        return is_restatement(self.first_value, self.report.value)


def visible(r: Report, as_of: datetime | None, mode: str) -> bool:
    return mode == "latest" or as_of is None or r.accepted_at <= as_of


def known_facts(reports: Iterable[Report], as_of: datetime | None = None, mode: str = "as_of",
                concepts: list[str] | None = None) -> dict[tuple, Known]:
    """Each fact known at as_of, keyed (entity, item, unit, start, end): the newest version by
    (accepted_at, filing_id), or the first with mode='first'. With a concept list, a period's fact comes
    from the concept whose figure the newest filing gave (with mode='first' the first filing), within one filing
    the first concept of the list; the item is the list's first concept."""
    versions: dict[tuple, list[Report]] = defaultdict(list)
    for r in reports:
        if (concepts is None or r.concept in concepts) and visible(r, as_of, mode):
            versions[r.key].append(r)
    candidates: dict[tuple, list[tuple[Known, int]]] = defaultdict(list)
    for (entity, concept, unit, start, end), rs in versions.items():
        rs = sorted(rs, key=lambda r: r.order)
        item = concept if concepts is None else concepts[0]
        position = 0 if concepts is None else concepts.index(concept)
        candidates[(entity, item, unit, start, end)].append(
            (Known(rs[0] if mode == "first" else rs[-1], rs[0].value, len(rs)), position))
    if mode == "first":
        return {k: min(c, key=lambda kp: (kp[0].report.order, kp[1]))[0] for k, c in candidates.items()}
    return {k: max(c, key=lambda kp: (kp[0].report.order, -kp[1]))[0] for k, c in candidates.items()}


def lookup(reports: Iterable[Report], entity: str, concept: str, start: date | None, end: date,
           as_of: datetime | None = None, mode: str = "as_of") -> Report | None:
    """One exact-period question: the chosen version, USD before other units (then by unit name)."""
    facts = known_facts([r for r in reports if r.entity == entity and r.concept == concept
                         and r.start == start and r.end == end], as_of, mode)
    if not facts:
        return None
    unit = min((k[2] for k in facts), key=lambda u: (u != "USD", u))
    return facts[(entity, concept, unit, start, end)].report


def restatements(reports: Iterable[Report]) -> list[dict[str, Any]]:
    """Every change between consecutive versions of a fact of at least rounding level."""
    versions: dict[tuple, list[Report]] = defaultdict(list)
    for r in reports:
        versions[r.key].append(r)
    out = []
    for (entity, concept, unit, start, end), rs in versions.items():
        rs.sort(key=lambda r: r.order)
        for old, new in zip(rs, rs[1:], strict=False):
            if is_restatement(old.value, new.value):
                out.append({"entity_id": entity, "concept": concept, "unit": unit, "period_start": start,
                            "period_end": end, "old_value": old.value, "new_value": new.value,
                            "relative_change": (new.value - old.value) / abs(old.value) if old.value else None,
                            "restated_at": new.accepted_at, "new_filing_id": new.filing_id, "new_form": new.form,
                            "old_filing_id": old.filing_id, "old_accepted_at": old.accepted_at})
    return out


# ----------------------------------------------------------------- calendars
def month_end_years(end_month: int, years: Iterable[int]) -> dict[int, tuple[date, date]]:
    """Fiscal years ending on the last day of `end_month` (12: calendar years)."""
    out = {}
    for y in years:
        end = date(y + (end_month == 12), end_month % 12 + 1, 1) - DAY
        start = date(y - (end_month != 12), end_month % 12 + 1, 1)
        out[y] = (start, end)
    return out


def reported_calendar(reports: Iterable[Report]) -> Calendar:
    """Each entity's fiscal years as its annual periods give them (the most reported one per year); a year
    without one continues the nearest earlier year (or, before the first, precedes the next) by whole years."""
    counts: dict[str, dict[int, dict[tuple[date, date], int]]] = defaultdict(lambda: defaultdict(dict))
    for r in reports:
        if duration_class(r.start, r.end) == "year":
            years = counts[r.entity][fiscal_year_of(r.end)]
            years[(r.start, r.end)] = years.get((r.start, r.end), 0) + 1
    out: Calendar = {}
    for entity, years in counts.items():
        known = {y: max(spans, key=lambda s: (spans[s], s[1])) for y, spans in years.items()}
        cal = dict(known)
        for y in range(min(known) - 3, max(known) + 4):
            earlier = [k for k in known if k < y]
            if y in known:
                continue
            if earlier:
                k = max(earlier)
                cal[y] = (_add_years(known[k][1], y - k - 1) + DAY, _add_years(known[k][1], y - k))
            else:
                k = min(known)
                cal[y] = (_add_years(known[k][0], y - k), _add_years(known[k][0], y - k + 1) - DAY)
        out[entity] = dict(sorted(cal.items()))
    return out


def _add_years(d: date, n: int) -> date:
    try:
        return d.replace(year=d.year + n)
    except ValueError:  # 29 February
        return d.replace(year=d.year + n, day=28)


def fiscal_calendar(reports: Iterable[Report], calendar: Calendar) -> dict[tuple[str, int], tuple]:
    """The fiscal_calendar view: every year from one before the first year with a year-to-date or annual
    period to one after the last, (start, end, extrapolated) where extrapolated means no such period."""
    known: dict[str, set[int]] = defaultdict(set)
    for r in reports:
        if duration_class(r.start, r.end) in ("half", "nine_months", "year"):
            known[r.entity].add(place(calendar[r.entity], r.end))
    out = {}
    for entity, years in known.items():
        for y in range(min(years) - 1, max(years) + 2):
            start, end = calendar[entity][y]
            out[(entity, y)] = (start, end, y not in years)
    return out


def place(years: dict[int, tuple[date, date]], end: date) -> int | None:
    """The fiscal year a period ending on `end` belongs to: the first whose end (plus a week) is not before it."""
    return min((y for y, (_, last) in years.items() if end <= last + 7 * DAY), default=None)


def calendar_asof(reports: list[Report], calendar: Calendar, as_of: datetime | None, mode: str) -> Calendar:
    """The fiscal years the store can know at as_of: from one before the first to one after the last year
    with an annual or year-to-date period first reported by then (by anyone's filing of it; with none by
    then, all ever reported: a calendar, not a value); none for an entity that never reported one."""
    first: dict[tuple, datetime] = {}
    for r in reports:
        if duration_class(r.start, r.end) in ("half", "nine_months", "year"):
            key = (r.entity, r.start, r.end)
            first[key] = min(first.get(key, r.accepted_at), r.accepted_at)
    years: dict[str, dict[int, bool]] = defaultdict(dict)
    for (entity, _start, end), at in first.items():
        y = place(calendar[entity], end)
        years[entity][y] = years[entity].get(y, False) or as_of is None or mode == "latest" or at <= as_of
    out: Calendar = {}
    for entity, seen in years.items():
        known = [y for y, by_then in seen.items() if by_then] or list(seen)
        out[entity] = {y: calendar[entity][y] for y in range(min(known) - 1, max(known) + 2)}
    return out


# ----------------------------------------------------------------- fiscal facts
@dataclass(frozen=True)
class Placed:
    """A known fact on its entity's fiscal calendar."""

    known: Known
    item: str
    kind: str
    fiscal_year: int
    fy_start: date
    fq: int
    label: str | None

    @property
    def r(self) -> Report:
        return self.known.report


def fiscal_facts(reports: Iterable[Report], calendar: Calendar, as_of: datetime | None = None,
                 mode: str = "as_of", concepts: list[str] | None = None) -> list[Placed]:
    """Known facts with their fiscal labels: FYyyyy, yyyyH1, yyyyM9 for annual and year-to-date periods
    starting within a week of the fiscal year; yyyyQ1..Q4 for 3-month periods and instants within ten days
    of a quarter end (quarters are 91.31 days); no label for anything else. A label names one figure of a
    kind: the year-to-date figure starting closest to the year, else the latest ending (then starting)."""
    reports = list(reports)
    years = calendar_asof(reports, calendar, as_of, mode)
    out = []
    for (entity, item, _unit, start, end), k in known_facts(reports, as_of, mode, concepts).items():
        fy = place(years.get(entity, {}), end)
        if fy is None:
            continue
        fy_start = years[entity][fy][0]
        kind = duration_class(start, end)
        days_in = (end - fy_start).days + 1
        fq = math.floor(days_in / 91.31 + 0.5)
        label = None
        if kind in ("year", "nine_months", "half"):
            if abs((start - fy_start).days) <= 7:
                label = {"year": f"FY{fy}", "nine_months": f"{fy}M9", "half": f"{fy}H1"}[kind]
        elif kind in ("quarter", "instant") and 1 <= fq <= 4 and abs(days_in - fq * 91.31) <= 10:
            label = f"{fy}Q{fq}"
        out.append(Placed(k, item, kind, fy, fy_start, fq, label))
    slots: dict[tuple, list[Placed]] = defaultdict(list)
    for p in out:
        if p.label is not None:
            slots[(p.r.entity, p.item, p.r.unit, p.kind, p.label)].append(p)
    losers: set[int] = set()
    for (*_, kind, _label), same in slots.items():
        best = _best(same, kind, ytd=kind in ("year", "nine_months", "half"))
        losers |= {id(p) for p in same if p is not best}
    return [replace(p, label=None) if id(p) in losers else p for p in out]


# ----------------------------------------------------------------- discrete quarters
@dataclass
class Quarter:
    """One discrete fiscal quarter: its value (None with a note when it cannot be had) and provenance."""

    value: float | None = None
    start: date | None = None
    end: date | None = None
    formula: str | None = None
    parts: list[Placed] = field(default_factory=list)
    note: str | None = None

    @property
    def derived(self) -> bool:
        return self.formula is not None

    @property
    def accepted_at(self) -> datetime | None:
        return max((p.r.accepted_at for p in self.parts), default=None)

    @property
    def source(self) -> Placed | None:
        """The first part accepted last: the filing that made the quarter known."""
        return next((p for p in self.parts if p.r.accepted_at == self.accepted_at), None)

    @property
    def concept(self) -> str | None:
        concepts = {p.r.concept for p in self.parts}
        return self.parts[0].r.concept if len(concepts) == 1 else None

    @property
    def warnings(self) -> list[str]:
        restated = [p.label for p in self.parts if p.known.restated]
        standing = [p.label for p in self.parts if not p.known.restated]
        if self.derived and restated and standing:
            return [f"mixed basis: {', '.join(restated)} restated since first reported, "
                    f"{', '.join(standing)} as first reported"]
        return []


def _reported(p: Placed | None) -> Quarter | None:
    return None if p is None else Quarter(p.r.value, p.r.start, p.r.end, None, [p])


def _best(facts: list[Placed], kind: str, ytd: bool = False) -> Placed | None:
    """The slot's figure: the latest ending (then starting) one; for year-to-date figures, first the one
    starting closest to the fiscal year."""
    if not facts:
        return None
    if ytd:
        return max(facts, key=lambda p: (-abs((p.r.start - p.fy_start).days), p.r.end, p.r.start))
    return max(facts, key=lambda p: (p.r.end, p.r.start or date.min))


def quarters(reports: Iterable[Report], calendar: Calendar, as_of: datetime | None = None, mode: str = "as_of",
             concepts: list[str] | None = None) -> dict[tuple, Quarter]:
    """Discrete quarters keyed (entity, item, unit, fiscal_year, quarter), by the README's rules: a reported
    3-month figure wins; else Q2 = H1 - Q1 and Q3 = 9M - H1 (parts with the same start); Q4 = FY - 9M
    (9M starting with the year), else FY - (Q1 + Q2 + Q3) (Q1 starting with the year); instants at quarter
    ends as reported; only additive units are derived; a derived quarter starts the day after the figure
    subtracted ends. Quarters that cannot be had carry the product's note."""
    groups: dict[tuple, list[Placed]] = defaultdict(list)
    for p in fiscal_facts(reports, calendar, as_of, mode, concepts):
        if p.label is not None:
            groups[(p.r.entity, p.item, p.r.unit, p.fiscal_year)].append(p)
    out: dict[tuple, Quarter] = {}
    for key, facts in groups.items():
        unit = key[2]

        def slot(kind: str, fq: int | None = None, facts: list[Placed] = facts) -> Placed | None:
            return _best([p for p in facts if p.kind == kind and (fq is None or p.fq == fq)], kind,
                         ytd=fq is None)

        instant = all(p.kind == "instant" for p in facts)
        adds = additive(unit)
        q = {k: slot("quarter", k) for k in (1, 2, 3, 4)}
        h1, m9, fy = slot("half"), slot("nine_months"), slot("year")
        found: dict[int, Quarter | None] = {}
        if instant:
            for k in (1, 2, 3, 4):
                found[k] = _reported(slot("instant", k))
            out.update({(*key, k): v for k, v in found.items() if v is not None})
            continue
        found[1] = _reported(q[1])
        notes = {1: None if q[1] else "not reported: no 3-month figure for Q1"}
        cannot_add = f"not derivable: {unit} values do not add up"
        # Q2
        found[2], notes[2] = _reported(q[2]), None
        if q[2] is None:
            if adds and h1 and q[1] and h1.r.start == q[1].r.start:
                found[2] = Quarter(h1.r.value - q[1].r.value, q[1].r.end + DAY, h1.r.end, "H1 - Q1", [h1, q[1]])
            else:
                notes[2] = (cannot_add if not adds else "not derivable: no 3-month or 6-month figure for Q2"
                            if h1 is None else "not derivable: no Q1 figure with the same start as the 6-month figure")
        # Q3
        found[3], notes[3] = _reported(q[3]), None
        if q[3] is None:
            if adds and m9 and h1 and m9.r.start == h1.r.start:
                found[3] = Quarter(m9.r.value - h1.r.value, h1.r.end + DAY, m9.r.end, "9M - H1", [m9, h1])
            else:
                notes[3] = (cannot_add if not adds else "not derivable: no 3-month or 9-month figure for Q3"
                            if m9 is None else
                            "not derivable: no 6-month figure with the same start as the 9-month figure")
        # Q4
        found[4], notes[4] = _reported(q[4]), None
        if q[4] is None:
            if not adds:
                notes[4] = cannot_add
            elif fy is None:
                notes[4] = "not derivable: no annual figure"
            elif m9 and m9.r.start == fy.r.start:
                found[4] = Quarter(fy.r.value - m9.r.value, m9.r.end + DAY, fy.r.end, "FY - 9M", [fy, m9])
            elif q[1] and q[1].r.start == fy.r.start and found[2] and found[3]:
                r1, r2, r3 = found[1], found[2], found[3]
                found[4] = Quarter(fy.r.value - r1.value - r2.value - r3.value, r3.end + DAY, fy.r.end,
                                   "FY - (Q1 + Q2 + Q3)", [fy, *r1.parts, *r2.parts, *r3.parts])
            else:
                notes[4] = ("not derivable: no 9-month figure with the same start as the year, "
                            "and Q1 to Q3 not all known")
        for k in (1, 2, 3, 4):
            if found[k] is not None:
                out[(*key, k)] = found[k]
            elif notes[k] is not None:
                out[(*key, k)] = Quarter(note=notes[k])
    return out


def panel_cell(reports: list[Report], calendar: Calendar, entity: str, concept: str, when: datetime,
               mode: str) -> dict[str, Any] | None:
    """One backtest panel cell: the newest quarter (by period end; USD first among units ending together)
    known strictly before `when`, and the sum of the four newest when they are consecutive durations of a unit
    that adds up (not per share, shares or pure)."""
    as_of = None if mode == "latest" else when - timedelta(microseconds=1)
    by_unit: dict[str, list[tuple[int, int, Quarter]]] = defaultdict(list)
    for (e, _item, unit, fy, fq), q in quarters(reports, calendar, as_of, mode, [concept]).items():
        if e == entity and q.value is not None:
            by_unit[unit].append((fy, fq, q))
    if not by_unit:
        return None
    newest = {u: sorted(qs, key=lambda x: x[2].end, reverse=True)[:4] for u, qs in by_unit.items()}
    unit = min(newest, key=lambda u: (-newest[u][0][2].end.toordinal(), u != "USD", u))
    last4 = newest[unit]
    numbers = [fy * 4 + fq for fy, fq, _ in last4]
    consecutive = len(last4) == 4 and max(numbers) - min(numbers) == 3 and all(q.start for _, _, q in last4)
    adds_up = "/" not in unit and unit.lower() not in ("shares", "pure")  # four quarters' EPS are no year's EPS
    fy, fq, q = last4[0]
    return {"fiscal_period": f"{fy}Q{fq}", "period_start": q.start, "period_end": q.end, "value": q.value,
            "accepted_at": q.accepted_at, "derived": q.derived,
            "ttm": sum(x.value for _, _, x in last4) if consecutive and adds_up else None}


# ----------------------------------------------------------------- rows as the store gives them
def plain(value: Any) -> Any:
    """A value from a store DataFrame or from an oracle in one comparable form: dates and times as naive
    datetimes, missing values as None, arrays as lists, numpy scalars as Python's."""
    kind = type(value)
    if kind in (str, bool, int):
        return value
    if kind is float:
        return None if math.isnan(value) else value
    if kind is dict:
        return {k: plain(v) for k, v in value.items()}
    if kind in (list, tuple, np.ndarray):
        return [plain(v) for v in value]
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    return plain(value.item())


def part_row(p: Placed) -> dict[str, Any]:
    r = p.r
    return {"concept": r.concept, "fiscal_period": p.label, "period_start": r.start, "period_end": r.end,
            "value": r.value, "filing_id": r.filing_id, "form": r.form, "accepted_at": r.accepted_at,
            "restated": p.known.restated}


def quarter_row(key: tuple, q: Quarter) -> dict[str, Any]:
    """A row of quarters_asof for this oracle quarter."""
    entity, item, unit, fy, fq = key
    source = q.source
    return plain({
        "entity_id": entity, "concept": q.concept or item, "item": item, "unit": unit, "fiscal_year": fy,
        "fiscal_quarter": fq, "fiscal_period": f"{fy}Q{fq}", "period_start": q.start, "period_end": q.end,
        "value": q.value, "derived": q.derived, "formula": q.formula, "accepted_at": q.accepted_at,
        "filing_id": source and source.r.filing_id, "form": source and source.r.form, "warnings": q.warnings,
        "parts": [part_row(p) for p in q.parts] or None, "note": q.note})


def fact_row(key: tuple, k: Known) -> dict[str, Any]:
    """A row of facts_asof (and the latest_facts and first_reported views) for this oracle fact."""
    entity, item, unit, start, end = key
    r = k.report
    return plain({"entity_id": entity, "item": item, "concept": r.concept, "unit": unit, "period_start": start,
                  "period_end": end, "value": r.value, "filing_id": r.filing_id, "form": r.form,
                  "accepted_at": r.accepted_at, "first_value": k.first_value, "restated": k.restated,
                  "n_versions": k.n_versions})


def frame_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A store DataFrame as plain rows."""
    return [plain(r) for r in frame.to_dict("records")]
