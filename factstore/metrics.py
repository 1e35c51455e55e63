"""A metric's value for one company and period as known at a moment: reported under the metric's concepts,
derived by its formula over other metrics (margins, free cash flow, returns on average balances; gross profit
where it is not reported), or summed over the fiscal quarters of a calendar year. Every value carries its parts,
each cited to the filing that first reported its current value; a derived value is known from the latest of its
parts."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pandas as pd

from factstore import facts, resolve, vocabulary
from factstore.errors import NotFound
from factstore.facts import Fact
from factstore.periods import parse_label, period_before
from factstore.timing import as_of_timestamp, json_ready
from factstore.vocabulary import Metric

if TYPE_CHECKING:
    from factstore.db import Db

_TERM = r"(avg\(\w+\)|\w+)"
_FORMULA = re.compile(rf"^\s*{_TERM}\s*([-+*/])\s*{_TERM}\s*$")
AVG = re.compile(r"^avg\((\w+)\)$")
_CALENDAR = re.compile(r"^CY(\d{4})$")
_SECOND_HALF = re.compile(r"^(\d{4})H2$")


@dataclass(frozen=True)
class Part:
    """A reported figure an answer rests on (`concept`: its tag as known), cited to the filing that first reported
    its current value (`cited_value` and `cited_concept`: that filing's own figure, equal up to rounding, and tag)."""

    metric: str
    concept: str
    unit: str
    start: date | None
    end: date
    value: float
    filing_id: str
    form: str
    accepted_at: pd.Timestamp
    cited_value: float
    cited_concept: str

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields: dates as ISO strings, the time in UTC with its zone."""
        return json_ready(asdict(self))


@dataclass(frozen=True)
class Figure:
    """A metric's value for a period: reported (formula None, or 'FY - 9M' for a derived quarter) or derived
    by a formula over other metrics, with its parts; known from the latest part's first filing."""

    metric: Metric
    value: float
    unit: str
    period: str
    start: date | None
    end: date
    parts: tuple[Part, ...]
    concept: str | None = None
    formula: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def known_since(self) -> pd.Timestamp:
        return max(p.accepted_at for p in self.parts)

    @property
    def source(self) -> Part:
        """The part known last: the filing from which on the whole value was known."""
        return max(self.parts, key=lambda p: p.accepted_at)


def metric_named(name: str) -> Metric:
    """A metric of the table by its name or alias."""
    return vocabulary.named(name)


def fact(db: Db, entity: str | int, concept: str | list[str], *, start: Any = None, end: Any = None,
         period: str | None = None, as_of: Any = None, mode: str = "as_of", unit: str | None = None,
         strict: bool = False, dims: dict[str, str] | None = None) -> Fact | None:
    """FactStore.fact: a concept's or a reported metric's fact (facts.fact), or, where a metric's concepts report
    none, the metric derived by its formula for a fiscal period label (its parts each as known at as_of)."""
    m = vocabulary.as_metric(concept) if isinstance(concept, str) else None
    if m is None or not m.formula or dims:
        return facts.fact(db, entity, concept, start=start, end=end, period=period, as_of=as_of, mode=mode,
                          unit=unit, strict=strict, dims=dims)
    if m.concepts:
        found = facts.fact(db, entity, concept, start=start, end=end, period=period, as_of=as_of, mode=mode,
                           unit=unit, strict=False)
        if found is not None:
            return found
    if period is None and end is None:
        raise ValueError("give period (e.g. '2019Q4', 'FY2019') or end (and start for a duration)")
    facts.check_mode(mode)
    if mode == "first":
        raise ValueError(f"{m.name} is derived ({m.formula}): mode 'first' is for reported figures; ask for its "
                         f"parts as first reported")
    entity_id = resolve.entity(db, entity)
    try:
        label = parse_label(period).label if period is not None else _label_of(db, entity_id, m, start, end)
        f = _derived(db, entity_id, m, label, as_of_timestamp(as_of) if mode == "as_of" else None)
        if period is None and (f.start, f.end) != (facts.day(start, "start"), facts.day(end, "end")):
            raise NotFound(f"{m.name} {label}: its period is {f.start}..{f.end}, not {start}..{end}")
        if unit is not None and f.unit != unit:
            raise NotFound(f"{m.name} {label}: in {f.unit}, not {unit}")
    except NotFound:
        if strict:
            raise
        return None
    src = f.source
    return Fact(entity=entity_id, concept=m.name, value=f.value, unit=f.unit, start=f.start, end=f.end,
                accepted_at=f.known_since, source=src.filing_id, form=src.form, fiscal_period=label, derived=True,
                formula=f.formula, warnings=f.notes, parts=tuple(p.to_dict() for p in f.parts),
                known_since=f.known_since, first_source=src.filing_id, first_form=src.form)


def facts_of(db: Db, questions: pd.DataFrame, *, as_of: Any = None, mode: str = "as_of") -> pd.DataFrame:
    """FactStore.facts: facts.facts, and a metric only derived by its formula (free_cash_flow) as fact() derives
    it for the question's dates (status 'not derivable' where its terms do not give it, and as first reported)."""
    out = facts.facts(db, questions, as_of=as_of, mode=mode)
    for i in out.index[out["status"] == "not derivable"] if mode != "first" else []:
        q = out.loc[i]
        moment = q["as_of"] if "as_of" in out.columns and pd.notna(q["as_of"]) else as_of
        start = q["period_start"] if "period_start" in out.columns and pd.notna(q["period_start"]) else None
        found = fact(db, q["entity"], str(q["concept"]), start=start, end=q["period_end"], as_of=moment, mode=mode)
        if found is not None:
            out.loc[i, ["value", "unit", "tag", "filing_id", "form", "accepted_at", "status"]] = [
                found.value, found.unit, found.concept, found.source, found.form,
                found.accepted_at.tz_localize(None), "ok"]
    return out


def _label_of(db: Db, entity_id: str, metric: Metric, start: Any, end: Any) -> str:
    """The fiscal label of a period given by its dates, as the company's figures under the metric's terms place it
    (a quarter derived from year-to-date figures too); NotFound where none does."""
    s, e = facts.day(start, "start"), facts.day(end, "end")
    concepts = [c for r in reported_terms(metric) for c in r.concepts]
    row = db.one("""SELECT fiscal_period FROM (
            SELECT fiscal_period, period_start, period_end
            FROM fiscal_facts_by_id(NULL, mode := 'latest', concepts := ?, entity := ?) WHERE kind <> 'instant'
            UNION ALL SELECT fiscal_period, period_start, period_end
            FROM quarters_asof_by_id(NULL, mode := 'latest', concepts := ?, entity := ?))
        WHERE fiscal_period IS NOT NULL AND period_end = ? AND period_start IS NOT DISTINCT FROM ? LIMIT 1""",
                 [concepts, entity_id, concepts, entity_id, e, s])
    if row is None:
        raise NotFound(f"{metric.name}: no fiscal period of {entity_id}'s figures runs {s or ''}..{e}")
    return row[0]


def figure(db: Db, entity_id: str, metric: Metric, period: str | None, moment: datetime | None,
           mode: str = "as_of") -> Figure:
    """The metric for a period label as known at the moment (mode 'as_of'), as first reported ('first': reported
    figures only) or as last restated ('latest'); raises NotFound saying why not. Labels: FY2024, 2024Q4, 2024H1,
    2024H2 (FY - H1), 2024M9, CY2024; TTM2024Q4 (the four fiscal quarters ending 2024Q4) and TTM (the newest four);
    END:<kind>:<day> (the quarter, half, nine_months or year ending that day, or the balance at it: instant);
    LATEST:quarter or LATEST:year; None: the latest period known at the moment."""
    if mode == "latest":
        moment, mode = None, "as_of"
    if mode == "first" and (metric.formula and not metric.concepts):
        raise NotFound(f"{metric.name} is derived ({metric.formula}): 'as first reported' is for reported figures; "
                       f"ask for its parts as first reported")
    if period is None:
        return _latest(db, entity_id, metric, moment, mode)
    if period.startswith("TTM"):
        return _ttm(db, entity_id, metric, period[3:] or None, moment, mode)
    if period.startswith(("END:", "LATEST:")):
        label = (_label_ending(db, entity_id, metric, period, moment) if period.startswith("END:")
                 else _newest(db, entity_id, metric, period[7:], moment))
        return replace(figure(db, entity_id, metric, label, moment, mode), period=label)
    if _SECOND_HALF.match(period) and metric.concepts:
        return _second_half(db, entity_id, metric, period, moment, mode)
    if metric.concepts:
        try:
            return _calendar(db, entity_id, metric, period, moment) if _CALENDAR.match(period) else _reported(
                db, entity_id, metric, period, moment, mode=mode)
        except NotFound:
            if not metric.formula or mode == "first":
                raise
    if not metric.formula:
        raise NotFound(f"{metric.name}: no reported concept or formula answers it from the facts")
    return _derived(db, entity_id, metric, period, moment)


def _second_half(db: Db, entity_id: str, metric: Metric, period: str, moment: datetime | None, mode: str) -> Figure:
    """A fiscal year's second half (2024H2): the year less its first half, each as figure() gives it; for an amount
    of a flow only (a per-share figure, a count or a balance has no halves to subtract)."""
    if metric.kind != "money" or metric.statement == "balance":
        raise NotFound(f"{metric.name} {period}: a second half is a year's amount less its first half's: a flow, "
                       f"never a balance, a count or a figure per share (ask for a balance at a date)")
    year = period[:4]
    whole, first = (figure(db, entity_id, metric, label, moment, mode) for label in (f"FY{year}", f"{year}H1"))
    if first.start != whole.start or first.unit != whole.unit:
        raise NotFound(f"{metric.name} {period}: FY{year} ({whole.start}..{whole.end}, {whole.unit}) and {year}H1 "
                       f"({first.start}..{first.end}, {first.unit}) are not one year and its first half")
    return Figure(metric, whole.value - first.value, whole.unit, period, first.end + timedelta(days=1), whole.end,
                  whole.parts + first.parts, formula=f"FY{year} - {year}H1",
                  notes=tuple(dict.fromkeys((*whole.notes, *first.notes))))


def _newest(db: Db, entity_id: str, metric: Metric, kind: str, moment: datetime | None) -> str:
    """The label of the newest fiscal quarter (a year known last stands for its Q4) or year known at the moment."""
    for m in _reported_metrics(metric):
        try:
            concepts = resolve.concepts(db, list(m.concepts))
        except NotFound:
            continue
        row = db.sql("""
            SELECT fiscal_period, kind FROM fiscal_facts_by_id(?::TIMESTAMP, concepts := ?, entity := ?)
            WHERE fiscal_period IS NOT NULL AND kind IN (?, 'year')
            ORDER BY period_end DESC, kind = 'quarter' DESC LIMIT 1""", [moment, concepts, entity_id,
                                                                        "quarter" if kind == "quarter" else "year"])
        if not row.empty:
            label, found = str(row["fiscal_period"][0]), str(row["kind"][0])
            return f"{label[2:]}Q4" if kind == "quarter" and found == "year" else label
    raise NotFound(f"{metric.name}: no fiscal {kind} reported{_at(moment)}")


def _label_ending(db: Db, entity_id: str, metric: Metric, period: str, moment: datetime | None) -> str:
    """The fiscal label of the period of a kind ending on a day (END:<kind>:<day>): a fourth quarter is the quarter
    ending with its fiscal year; a balance (an instant) is the one of that day, whatever the kind. A period FSDS
    gave only as calendar months (approximate_periods) ends on the day asked within a week ('the year ended
    February 27, 2010' of one FSDS rounds to February 28): the exact one first."""
    _, kind, day = period.split(":", 2)
    for m in _reported_metrics(metric):
        try:
            concepts = resolve.concepts(db, list(m.concepts))
        except NotFound:
            continue
        rows = db.sql("""
            SELECT DISTINCT f.fiscal_period, f.kind, f.period_end = ?::DATE AS exact
            FROM fiscal_facts_by_id(?::TIMESTAMP, concepts := ?, entity := ?) f
            WHERE f.fiscal_period IS NOT NULL AND f.kind IN (?, 'year', 'instant')
              AND (f.period_end = ?::DATE OR (abs(date_diff('day', f.period_end, ?::DATE)) <= 7 AND EXISTS (
                  SELECT 1 FROM approximate_periods a WHERE a.entity_id = f.entity_id
                  AND a.period_end = f.period_end AND a.period_start IS NOT DISTINCT FROM f.period_start)))
            ORDER BY exact DESC""", [day, moment, concepts, entity_id, kind, day, day])
        for label, found, _ in rows.itertuples(index=False):
            if found in (kind, "instant"):
                return str(label)
            if kind == "quarter":
                return f"{str(label)[2:]}Q4"
    raise NotFound(f"{metric.name}: no balance of the company at {day}{_at(moment)}" if kind == "instant" else
                   f"{metric.name}: no fiscal {kind.replace('_', ' ')} of the company ends on {day}{_at(moment)}")


def _at(moment: datetime | None) -> str:
    return f" as of {moment:%Y-%m-%d %H:%M:%S} UTC" if moment else ""


def _ttm(db: Db, entity_id: str, metric: Metric, quarter: str | None, moment: datetime | None, mode: str) -> Figure:
    """The trailing twelve months: the sum of the four consecutive fiscal quarters ending with `quarter` (None: the
    newest quarter known), each as figure() gives it (a fourth quarter derived from the year)."""
    if quarter is None:
        quarter = _newest(db, entity_id, metric, "quarter", moment)
    elif quarter.startswith("END:"):
        quarter = _label_ending(db, entity_id, metric, quarter, moment)
    if metric.kind != "money":
        return _ttm_apart(db, entity_id, metric, quarter, moment, mode)
    labels = [quarter]
    while len(labels) < 4:
        labels.insert(0, period_before(labels[0]))
    parts = [figure(db, entity_id, metric, label, moment, mode) for label in labels]
    if any(f.start is None for f in parts) or len({f.unit for f in parts}) > 1 or "/" in parts[0].unit:
        raise NotFound(f"{metric.name} TTM to {quarter}: the trailing twelve months add up quarters of a flow in one "
                       f"currency; these are {', '.join(f'{f.period} in {f.unit}' for f in parts)}")
    gaps = [b.start - a.end for a, b in zip(parts, parts[1:], strict=False)]
    if any(abs(g.days - 1) > 7 for g in gaps):
        raise NotFound(f"{metric.name} TTM to {quarter}: the quarters are not consecutive: "
                       + ", ".join(f"{f.period} {f.start}..{f.end}" for f in parts))
    return Figure(metric, sum(f.value for f in parts), parts[0].unit, f"TTM{quarter}", parts[0].start, parts[-1].end,
                  tuple(p for f in parts for p in f.parts), formula=" + ".join(f.period for f in parts),
                  notes=tuple(dict.fromkeys(n for f in parts for n in f.notes)))


def _ttm_apart(db: Db, entity_id: str, metric: Metric, quarter: str, moment: datetime | None, mode: str) -> Figure:
    """The trailing twelve months of what does not add up over quarters (a figure per share, a share count, a
    ratio): one derived by its formula, over its terms' twelve months; a reported one, the fiscal year's own figure
    where the twelve months end with the year (its fourth quarter), else refused (a sum of four quarters' EPS is
    not the twelve months' EPS)."""
    if metric.formula and not metric.concepts:
        return _derived(db, entity_id, metric, f"TTM{quarter}", moment)
    what = {"per_share": "a per-share figure", "shares": "a share count"}.get(metric.kind, f"a {metric.kind}")
    if metric.statement == "balance":
        raise NotFound(f"{metric.name} TTM to {quarter}: a balance has no twelve months; ask for it at a date")
    if not quarter.endswith("Q4"):
        raise NotFound(f"{metric.name} TTM to {quarter}: {what} does not add up over quarters (a sum of four "
                       f"quarters' figures is not the twelve months'); its twelve months are known only where they "
                       f"end with a fiscal year, as the year's reported figure (TTM{quarter[:4]}Q4 = FY{quarter[:4]})")
    year = figure(db, entity_id, metric, f"FY{quarter[:4]}", moment, mode)
    return replace(year, period=f"TTM{quarter}", formula=f"FY{quarter[:4]}", notes=(
        f"the twelve months ending {quarter} are fiscal year {quarter[:4]}: its reported figure ({what} does not "
        f"add up over quarters)", *year.notes))


def _latest(db: Db, entity_id: str, metric: Metric, moment: datetime | None, mode: str = "as_of") -> Figure:
    """The metric for the newest period known at the moment: the newest fiscal year, quarter or balance-sheet
    date of a reported metric it rests on (a year before a quarter ending the same day), tried in turn."""
    errors = []
    for label in dict.fromkeys(_latest_label(db, entity_id, m, moment) for m in _reported_metrics(metric)):
        if label is None:
            continue
        try:
            return figure(db, entity_id, metric, label, moment, mode)
        except NotFound as exc:
            errors.append(str(exc))
    when = f" as of {moment:%Y-%m-%d %H:%M:%S} UTC" if moment else ""
    raise NotFound("; ".join(errors) or f"{metric.name}: nothing reported{when}")


def _reported_metrics(metric: Metric) -> list[Metric]:
    """The metric if it has concepts, then those its formula rests on, depth first."""
    own = [metric] if metric.concepts else []
    if not metric.formula:
        return own
    a, _, b = operands(metric)
    return own + _reported_metrics(metric_named(term_metric(a))) + _reported_metrics(metric_named(term_metric(b)))


def _latest_label(db: Db, entity_id: str, metric: Metric, moment: datetime | None) -> str | None:
    try:
        concepts = resolve.concepts(db, list(metric.concepts))
    except NotFound:
        return None
    row = db.sql("""
        SELECT fiscal_period FROM fiscal_facts_by_id(?::TIMESTAMP, concepts := ?, entity := ?)
        WHERE fiscal_period IS NOT NULL AND kind IN ('year', 'quarter', 'instant')
        ORDER BY period_end DESC, kind = 'year' DESC LIMIT 1""", [moment, concepts, entity_id])
    return None if row.empty else str(row["fiscal_period"][0])


def operands(metric: Metric) -> tuple[str, str, str]:
    m = _FORMULA.match(metric.formula)
    if not m:
        raise ValueError(f"metric {metric.name}: formula {metric.formula!r} is not 'a - b', 'a + b', 'a * b' or "
                         f"'a / b' (a term may be avg(metric))")
    return m.group(1), m.group(2), m.group(3)


def _reported(db: Db, entity_id: str, metric: Metric, period: str, moment: datetime | None,
              dates: tuple[Any, Any] | None = None, mode: str = "as_of") -> Figure:
    """The metric as reported (or a quarter derived from year-to-date figures) for a fiscal label, or for the
    period's exact dates where they are known (cheaper)."""
    concepts = list(metric.concepts)
    fact = (facts.fact(db, entity_id, concepts, start=dates[0], end=dates[1], as_of=moment, strict=True) if dates
            else facts.fact(db, entity_id, concepts, period=period, as_of=moment, mode=mode, strict=True))
    notes = [metric.note] if metric.note else []
    notes += [_currency_note(db, entity_id, fact.unit, w) if w.startswith("also reported in") else w
              for w in fact.warnings]
    return Figure(metric, fact.value, fact.unit, period, fact.start, fact.end, _parts(metric, fact),
                  concept=fact.concept, formula=fact.formula if fact.derived else None, notes=tuple(notes))


def _parts(metric: Metric, fact: Fact) -> tuple[Part, ...]:
    return tuple(Part(metric.name, p["concept"], fact.unit, p["period_start"], p["period_end"], float(p["value"]),
                      p["first_filing_id"], p["first_form"], pd.Timestamp(p["first_accepted_at"], tz="UTC"),
                      float(p["first_value"]), p["first_concept"]) for p in fact.parts)


def _currency_note(db: Db, entity_id: str, unit: str, warning: str) -> str:
    currency = facts.reporting_currency(db, entity_id)
    if unit.split("/")[0] == currency:
        return (f"in {unit}, the reporting currency; the {warning.removeprefix('also reported in ')} figures in "
                f"the filings are convenience translations, not the reported figure")
    return f"{warning} (reporting currency {currency})"


def reported_terms(metric: Metric) -> list[Metric]:
    """The metrics with concepts a metric stands on: itself if it has concepts, else its formula's terms' (depth
    first, an average's metric too)."""
    if metric.concepts:
        return [metric]
    return [r for term in operands(metric)[::2] for r in reported_terms(metric_named(term_metric(term)))]


def term_metric(term: str) -> str:
    """The metric a formula term names ('total_assets' for 'avg(total_assets)')."""
    m = AVG.match(term)
    return m.group(1) if m else term


def _operand(db: Db, entity_id: str, term: str, period: str, moment: datetime | None) -> Figure:
    """A formula term's figure: a metric for the period, or avg(metric), the mean of its balance at the end of the
    period and at the end of the one before (the previous fiscal year, or quarter)."""
    m = AVG.match(term)
    if not m:
        return figure(db, entity_id, metric_named(term), period, moment)
    metric = metric_named(m.group(1))
    before = period_before(period)
    if before is None:
        raise NotFound(f"avg({metric.name}) {period}: an average balance needs a fiscal year or quarter")
    now, then = figure(db, entity_id, metric, period, moment), figure(db, entity_id, metric, before, moment)
    if now.unit != then.unit:
        raise NotFound(f"avg({metric.name}) {period}: {then.unit} at {then.end}, {now.unit} at {now.end}")
    return Figure(metric, (now.value + then.value) / 2, now.unit, period, then.end, now.end, then.parts + now.parts,
                  formula=f"avg({metric.name} {then.end}, {now.end})",
                  notes=tuple(dict.fromkeys((*then.notes, *now.notes))))


def _derived(db: Db, entity_id: str, metric: Metric, period: str, moment: datetime | None) -> Figure:
    a_term, op, b_term = operands(metric)
    a = _operand(db, entity_id, a_term, period, moment)
    b = _operand(db, entity_id, b_term, period, moment)
    if op == "/" and b.value == 0:
        raise NotFound(f"{metric.name} {period}: {b.metric.name} is zero")
    unit = combined_unit(metric, op, a.unit, b.unit)
    if unit is None:
        raise NotFound(f"{metric.name} {period}: {a.metric.name} is in {a.unit}, {b.metric.name} in {b.unit}")
    value = combine(metric, op, a.value, b.value)
    percent = op == "/" and metric.kind == "ratio"
    formula = f"{_term(a)} {op} {_term(b)}" + (" × 100" if percent else "")
    notes = tuple(dict.fromkeys(n for f in (a, b) for n in f.notes))
    end = max(a.end, b.end)
    start = a.start if a.start is not None and a.end == end else b.start if b.end == end else None
    return Figure(metric, value, unit, period, start, end, a.parts + b.parts, formula=formula, notes=notes)


def combine(metric: Metric, op: str, a: Any, b: Any) -> Any:
    """A formula's value from its two terms' values (numbers, or Series of them): a ratio's quotient in percent, a
    division by zero NaN."""
    if op == "/":
        b = b.where(b != 0) if isinstance(b, pd.Series) else b if b != 0 else float("nan")
        return a / b * (100 if metric.kind == "ratio" else 1)
    return a - b if op == "-" else a + b if op == "+" else a * b


def combined_unit(metric: Metric, op: str, a: str, b: str) -> str | None:
    """The unit of a formula's value from its terms' units; None where they do not combine (a sum of two units)."""
    if op == "/":
        return "%" if metric.kind == "ratio" else a if b in ("pure", "%") else f"{a}/{b.split('/')[0]}"
    if op == "*":
        return (a.removesuffix(f"/{b}") if a.endswith(f"/{b}") else b.removesuffix(f"/{a}") if b.endswith(f"/{a}")
                else f"{a}*{b}")
    return a if a == b else None


def _term(f: Figure) -> str:
    return f"({f.formula})" if f.formula and not f.concept else f.metric.name


def _calendar(db: Db, entity_id: str, metric: Metric, period: str, moment: datetime | None) -> Figure:
    """A calendar year: the fiscal year when it ends within a week of December 31; otherwise the sum of the four
    fiscal quarters whose middle falls in the year (a balance: the last of them), said so in a note."""
    year = int(period[2:])
    years = db.sql("SELECT fiscal_year, fy_start, fy_end FROM fiscal_years_by_id(?::TIMESTAMP, entity := ?)",
                      [moment, entity_id])
    same = years[(pd.to_datetime(years["fy_end"]) - pd.Timestamp(year, 12, 31)).abs() <= pd.Timedelta(days=7)]
    if len(same):
        f = _reported(db, entity_id, metric, f"FY{int(same['fiscal_year'].iloc[0])}", moment)
        return replace(f, period=period, notes=(f"calendar {year} is the company's fiscal year {f.start}..{f.end}",
                                                *f.notes))
    quarters = facts.quarters(db, entity_id, list(metric.concepts), as_of=moment).drop_duplicates("fiscal_period")
    start, end = pd.to_datetime(quarters["period_start"].fillna(quarters["period_end"])), pd.to_datetime(
        quarters["period_end"])
    chosen = quarters[(start + (end - start) / 2).dt.year == year]
    labels = list(chosen["fiscal_period"])
    instant = quarters["period_start"].isna().all()
    if not instant and len(labels) != 4:
        raise NotFound(f"{metric.name} calendar {year}: needs the four fiscal quarters falling in {year}; "
                       f"known{' then' if moment else ''}: {', '.join(labels) or 'none'}")
    if not labels:
        raise NotFound(f"{metric.name} calendar {year}: no fiscal quarter end falls in {year}")
    if instant:
        f = _reported(db, entity_id, metric, labels[-1], moment)
        return replace(f, period=period, notes=(f"calendar {year} taken as the last fiscal quarter end in it "
                                                f"({f.end})", *f.notes))
    parts = [_reported(db, entity_id, metric, q.fiscal_period, moment, (q.period_start, q.period_end))
             for q in chosen.itertuples()]
    if any("/" in f.unit for f in parts) or len({f.unit for f in parts}) > 1:
        raise NotFound(f"{metric.name} calendar {year}: {parts[0].unit} values do not add up over quarters; "
                       f"ask for a fiscal year")
    note = (f"calendar {year} is not a fiscal year of the company: summed over the fiscal quarters whose middle "
            f"falls in {year}: " + ", ".join(f"{f.period} ({f.start}..{f.end})" for f in parts))
    return Figure(metric, sum(f.value for f in parts), parts[0].unit, period, parts[0].start, parts[-1].end,
                  tuple(p for f in parts for p in f.parts), formula=" + ".join(f.period for f in parts),
                  notes=tuple(dict.fromkeys((note, *(n for f in parts for n in f.notes)))))


def previous(period: str) -> str:
    """The same kind of period a year earlier (FY2023 for FY2024, 2023Q4 for 2024Q4, CY2023 for CY2024, TTM2023Q4 for
    TTM2024Q4)."""
    if period.startswith("TTM") and len(period) > 3:
        return "TTM" + previous(period[3:])
    if m := _CALENDAR.match(period):
        return f"CY{int(m.group(1)) - 1}"
    if m := _SECOND_HALF.match(period):
        return f"{int(m.group(1)) - 1}H2"
    label = parse_label(period)
    return label.label.replace(str(label.year), str(label.year - 1))
