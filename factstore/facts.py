"""Facts as known at a moment: one fact (reported, or a quarter derived from year-to-date figures), the discrete
quarters, every version of a fact, and many lookups at once. The point-in-time rules are sql/macros.sql's; this
module picks the macro that answers the question and shapes its rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

import pandas as pd

from factstore import resolve, vocabulary
from factstore.db import Db
from factstore.errors import NotFound
from factstore.periods import parse_label
from factstore.timing import as_of_column, as_of_timestamp, json_ready

MODES = ("as_of", "first", "latest")


@dataclass(frozen=True)
class Fact:
    """One value with its provenance: the filing that made it known, when, and how it was derived."""

    entity: str
    concept: str
    value: float
    unit: str
    start: date | None
    end: date
    accepted_at: pd.Timestamp
    source: str
    form: str
    fiscal_period: str | None = None
    # how exact its times are: the coarsest of its filing's and its parts' ('date': only a filing day's end is known)
    accepted_precision: str | None = None
    derived: bool = False
    formula: str | None = None
    warnings: tuple[str, ...] = ()
    parts: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    # the filing that first reported the current value (of the newest part, for a derived one) and when: a later
    # filing repeating the value leaves these alone, a restatement moves them; each part has first_* keys too
    known_since: pd.Timestamp | None = None
    first_source: str | None = None
    first_form: str | None = None
    # where a reported figure is printed in its filing's stored text (doc_id, start_char, end_char, shown): the
    # primary occurrence of its inline XBRL tag, where that filing's document was loaded
    printed: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields (dates and times as ISO strings; a time, the parts' included, in UTC with its
        zone)."""
        return {k: json_ready(getattr(self, k)) for k in self.__dataclass_fields__}


def fact(db: Db, entity: str | int, concept: str | list[str], *, start: Any = None, end: Any = None,
         period: str | None = None, as_of: Any = None, mode: str = "as_of", unit: str | None = None,
         strict: bool = False, dims: dict[str, str] | None = None) -> Fact | None:
    """One fact as known at as_of, first reported or newest (see FactStore.fact)."""
    entity_id, concepts = _keys(db, entity, concept, dims)
    ts = _as_of(as_of, mode)
    args = [ts, mode, concepts, entity_id]
    if period is not None:
        if start is not None or end is not None:
            raise ValueError("give either period or start/end, not both")
        label = parse_label(period)
        if label.quarter:
            rows = db.rows("SELECT * FROM quarters_asof_by_id(?, mode := ?, concepts := ?, entity := ?) "
                              "WHERE fiscal_period = ?", [*args, label.label])
        else:
            rows = db.rows("SELECT * FROM fiscal_facts_by_id(?, mode := ?, concepts := ?, entity := ?) "
                              "WHERE fiscal_period = ? OR (kind = 'instant' AND fiscal_period = ?)",
                              [*args, label.label, f"{label.year}Q4" if label.part == "FY" else None])
        wanted = label.label
    elif end is not None:
        s, e = day(start, "start"), day(end, "end")
        found = db.rows("SELECT * FROM fact_lookup(?, ?, ?, ?, as_of := ?, mode := ?)",
                           [entity_id, concepts, s, e, ts, mode])
        rows = [r for r in found if r["value"] is not None]
        if not rows and any(r["derivable"] for r in found):
            rows = db.rows("SELECT * FROM quarters_asof_by_id(?, mode := ?, concepts := ?, entity := ?) "
                              "WHERE period_start = ? AND period_end = ?", [*args, s, e])
        wanted = f"{s or ''}..{e}"
    else:
        raise ValueError("give period (e.g. '2019Q4', 'FY2019') or end (and start for a duration)")
    return _pick(db, rows, entity_id, concepts, unit, strict, wanted, ts)


def _pick(db: Db, rows: list[dict[str, Any]], entity_id: str, concepts: list[str], unit: str | None,
          strict: bool, wanted: str, ts: datetime | None) -> Fact | None:
    if unit is not None:
        rows = [r for r in rows if r["unit"] == unit]
    # a reported duration before an instant standing in for the year, then the entity's reporting currency
    # (not a convenience translation), then USD before other units
    currency = reporting_currency(db, entity_id) if len({r["unit"] for r in rows}) > 1 else None
    valued = sorted((r for r in rows if r["value"] is not None),
                    key=lambda r: (r.get("kind") == "instant", r["unit"].split("/")[0] != currency,
                                   r["unit"] != "USD", r["unit"]))
    if not valued:
        if strict:
            notes = "; ".join(sorted({r["note"] for r in rows if r.get("note")}))
            when = f" as of {ts:%Y-%m-%d %H:%M:%S} UTC" if ts else ""
            raise NotFound(f"{entity_id} {concepts[0]} {wanted}: "
                           f"{notes or 'nothing reported'}{when}")
        return None
    r = valued[0]
    warnings = list(r.get("warnings") or [])
    if "approximate" not in db.memo:
        db.memo["approximate"] = {tuple(row) for row in db.all("SELECT * EXCLUDE (source) FROM approximate_periods")}
    if (entity_id, r["period_start"], r["period_end"]) in db.memo["approximate"]:
        warnings.append("period approximate: FSDS gave it as calendar months, and no period of the company's "
                        "own ends within a week of it")
    if len({v["unit"] for v in valued}) > 1:
        warnings.append("also reported in " + ", ".join(sorted({v["unit"] for v in valued[1:]})))
    own = {k: r[k] for k in ("concept", "period_start", "period_end", "value", "filing_id", "form", "accepted_at")}
    # an exact lookup (fact_lookup) comes with the report that first gave its value; other rows' parts are looked up
    parts = ([_with_first(own, r["first"])] if "first" in r
             else _first_filings(db, r.get("parts") or [own], r["unit"], concepts, entity_id))
    newest = max(parts, key=lambda p: p["first_accepted_at"])
    filings = [r["filing_id"], *(p.get("filing_id") for p in parts)]
    # (list_contains, not IN (SELECT unnest(?)): a third less time to plan, for a point lookup most of its time)
    precision = db.one("SELECT coarsest_precision(list(accepted_precision)) FROM filings "
                       "WHERE list_contains(?, filing_id)", [filings])[0]
    concept = r.get("concept") or concepts[0]
    where = None if r.get("derived") else printed(
        db, [(r["filing_id"], concept), (newest["first_filing_id"], newest["first_concept"])],
        r["unit"], r["period_start"], r["period_end"])
    return Fact(
        entity=entity_id, concept=concept, value=float(r["value"]),
        unit=r["unit"], start=r["period_start"], end=r["period_end"],
        accepted_at=pd.Timestamp(r["accepted_at"], tz=UTC), source=r["filing_id"], form=r["form"],
        fiscal_period=r.get("fiscal_period"), accepted_precision=precision, derived=bool(r.get("derived", False)),
        formula=r.get("formula"), warnings=tuple(warnings), parts=tuple(parts),
        known_since=pd.Timestamp(newest["first_accepted_at"], tz=UTC), first_source=newest["first_filing_id"],
        first_form=newest["first_form"], printed=where)


def printed(db: Db, reports: list[tuple[str, str]], unit: str, start: Any, end: Any) -> dict[str, Any] | None:
    """Where a figure is printed (doc_id, start_char, end_char, shown: its tag's primary occurrence): in the first
    of these reports (filing, the concept it tagged the figure with) whose inline XBRL document is stored with it."""
    if "printed" not in db.memo:
        db.memo["printed"] = db.one("SELECT count(*) > 0 FROM fact_spans")[0]
    for filing, concept in dict.fromkeys(reports) if db.memo["printed"] else ():
        rows = db.rows("SELECT * FROM fact_printed(?, ?, ?, ?, ?)", [filing, concept, unit, start, end])
        if rows:
            return rows[0]
    return None


def _first_filings(db: Db, parts: list[dict[str, Any]], unit: str, concepts: list[str],
                   entity_id: str) -> list[dict[str, Any]]:
    """The parts, each with the filing that first reported its current value (first_filing_id, first_form,
    first_accepted_at, first_value and first_concept: that filing's own figure, equal up to rounding, and tag)."""
    wanted = [{**{k: p[k] for k in ("concept", "period_start", "period_end", "value", "accepted_at")},
               "unit": unit} for p in parts]
    firsts = dict(db.all("SELECT part_no, first FROM first_filings(?, concepts := ?, entity := ?)",
                            [wanted, concepts, entity_id]))
    return [_with_first(p, firsts.get(no)) for no, p in enumerate(parts, start=1)]


def quarters(db: Db, entity: str | int, concept: str | list[str], *, as_of: Any = None,
             mode: str = "as_of", dims: dict[str, str] | None = None) -> pd.DataFrame:
    """The discrete fiscal quarters known at as_of (see FactStore.quarters)."""
    entity_id, concepts = _keys(db, entity, concept, dims)
    return db.sql("""
        SELECT fiscal_period, period_start, period_end, value, derived, accepted_at, formula,
            filing_id, form, warnings, unit, concept, fiscal_year, fiscal_quarter
        FROM quarters_asof_by_id(?, mode := ?, concepts := ?, entity := ?)
        WHERE value IS NOT NULL ORDER BY period_end, unit_rank(unit, ?)""",
        [_as_of(as_of, mode), mode, concepts, entity_id, reporting_currency(db, entity_id)])


def history(db: Db, entity: str | int, concept: str | list[str], *, start: Any = None, end: Any = None,
            period: str | None = None, dims: dict[str, str] | None = None) -> pd.DataFrame:
    """Every version of a fact with its filing (see FactStore.history)."""
    entity_id, concepts = _keys(db, entity, concept, dims)
    base = ("SELECT concept, unit, period_start, period_end, value, filing_id, form, accepted_at, "
            "accepted_precision, revised_at FROM report_versions WHERE entity_id = ? "
            "AND list_contains(?, concept)")
    order = (" ORDER BY period_end, period_start NULLS FIRST, concept, filing_order(accepted_at, form, filing_id), "
             "revised_at NULLS FIRST")
    if period is not None:
        label = parse_label(period)
        if label.quarter:
            keys = db.sql("""
                SELECT DISTINCT p.concept, p.period_start, p.period_end
                FROM (SELECT unnest(parts) AS p FROM quarters_asof_by_id(NULL, mode := 'latest',
                      concepts := ?, entity := ?) WHERE fiscal_period = ?)""",
                [concepts, entity_id, label.label])
        else:
            keys = db.sql("""
                SELECT DISTINCT concept, period_start, period_end
                FROM fiscal_facts_by_id(NULL, mode := 'latest', concepts := ?, entity := ?)
                WHERE fiscal_period = ?""", [concepts, entity_id, label.label])
        with db.frame(keys) as name:
            return db.sql(f"""SELECT * FROM ({base}) h SEMI JOIN {name} k
                ON h.concept = k.concept AND h.period_end = k.period_end
                AND h.period_start IS NOT DISTINCT FROM k.period_start {order}""", [entity_id, concepts])
    where, params = "", [entity_id, concepts]
    if end is not None:
        where = " AND period_end = ? AND period_start IS NOT DISTINCT FROM ?"
        params += [day(end, "end"), day(start, "start")]
    return db.sql(base + where + order, params)


STATUSES = ("ok", "not in the store", "unknown metric", "not yet known at as_of", "not reported", "not derivable")


def facts(db: Db, questions: pd.DataFrame, *, as_of: Any = None, mode: str = "as_of") -> pd.DataFrame:
    """Answer many exact-period questions at once (see FactStore.facts): entities and concepts or metrics named as
    fact() takes them, a metric's concepts in facts_asof's order, the reporting currency first, a quarter not
    reported as such derived as fact() derives it; `status` says why a value is missing."""
    for column in ("entity", "concept", "period_end"):
        if column not in questions.columns:
            raise ValueError(f"questions: missing column {column!r}")
    check_mode(mode)
    out = questions.reset_index(drop=True).copy()
    starts = (pd.to_datetime(out["period_start"]) if "period_start" in out.columns
              else pd.Series(pd.NaT, index=out.index))
    ends = pd.to_datetime(out["period_end"])
    moments = (as_of_column(out["as_of"]) if "as_of" in out.columns
               else pd.Series([as_of_timestamp(as_of)] * len(out), dtype="datetime64[us]"))
    entity_ids = _named(lambda e: resolve.entity(db, e), out["entity"])
    concepts = _named(lambda c: resolve.concepts(db, str(c)), out["concept"])
    status = pd.Series("", index=out.index, dtype=object)
    parts = []  # one sub-question per question and concept of it, in its order
    for i, (e, c) in enumerate(zip(out["entity"], out["concept"], strict=True)):
        if isinstance(entity_ids[e], NotFound):
            status[i] = "not in the store"
        elif isinstance(concepts[c], NotFound):
            formula_only = (m := vocabulary.find(str(c))) is not None and not m.concepts
            status[i] = "not derivable" if formula_only else "unknown metric"
        else:
            parts += [(i, rank, entity_ids[e], k) for rank, k in enumerate(concepts[c])]
    sub = pd.DataFrame(parts, columns=["q", "rank", "entity", "concept"]).astype({"q": "int64", "rank": "int64"})
    sub["question_no"] = range(len(sub))
    sub["period_start"] = starts.to_numpy()[sub["q"]] if len(sub) else pd.NaT
    sub["period_end"] = ends.to_numpy()[sub["q"]] if len(sub) else pd.NaT
    sub["as_of"] = pd.Series(moments.to_numpy()[sub["q"]] if len(sub) else [], dtype="datetime64[us]")
    answers = _lookup(db, sub, mode).set_index("q").reindex(out.index)
    for column in ("value", "unit", "tag", "filing_id", "form", "accepted_at"):
        out[column] = answers[column].to_numpy()
    status[answers["value"].notna().to_numpy()] = "ok"
    missing = [i for i in out.index if status[i] == ""]
    later = set(_lookup(db, sub[sub["q"].isin(missing)], "latest")["q"]) if missing and mode == "as_of" else set()
    for i in missing:
        # a quarter not reported as such may be derived from year-to-date figures (only quarters: fact_lookup's rule)
        quarter = pd.notna(starts[i]) and 80 <= (ends[i] - starts[i]).days + 1 <= 105
        derived = fact(db, entity_ids[out["entity"][i]], concepts[out["concept"][i]], start=starts[i], end=ends[i],
                       as_of=moments[i] if pd.notna(moments[i]) else None, mode=mode) if quarter else None
        if derived is not None:
            out.loc[i, ["value", "unit", "tag", "filing_id", "form", "accepted_at"]] = [
                derived.value, derived.unit, derived.concept, derived.source, derived.form,
                derived.accepted_at.tz_localize(None)]
            status[i] = "ok"
        else:
            status[i] = "not yet known at as_of" if i in later else "not reported"
    out["status"] = status
    return out


def _named(find: Any, names: pd.Series) -> dict[Any, Any]:
    """Each distinct name's resolution, or the NotFound saying why there is none."""
    found: dict[Any, Any] = {}
    for name in dict.fromkeys(names):
        try:
            found[name] = find(name)
        except NotFound as exc:
            found[name] = exc
    return found


def _lookup(db: Db, sub: pd.DataFrame, mode: str) -> pd.DataFrame:
    """lookup_asof_by_id over the sub-questions; per question the answer in the reporting currency (then USD, then by
    unit), under its concepts in facts_asof's order (the newest filing's, or the first's; then the list's)."""
    if sub.empty:
        return pd.DataFrame(columns=["q", "value", "unit", "tag", "filing_id", "form", "accepted_at"])
    with db.frame(sub[["question_no", "entity", "concept", "period_start", "period_end", "as_of"]]) as name, \
            db.frame(sub[["question_no", "q", "rank", "entity", "concept"]]) as keys:
        return db.sql(f"""
            WITH currencies AS (SELECT * FROM reporting_currencies() WHERE entity_id IN (SELECT entity FROM {keys}))
            SELECT k.q, a.v.value AS value, a.unit, k.concept AS tag, a.v.filing_id AS filing_id, a.v.form AS form,
                a.v.accepted_at AS accepted_at
            FROM lookup_asof_by_id('{name}', mode := ?) a JOIN {keys} k USING (question_no)
            LEFT JOIN currencies c ON c.entity_id = k.entity
            QUALIFY row_number() OVER (PARTITION BY k.q ORDER BY unit_rank(a.unit, c.currency),
                CASE WHEN ? = 'first' THEN filing_order(a.v.accepted_at, a.v.form, a.v.filing_id) END,
                filing_order(a.v.accepted_at, a.v.form, a.v.filing_id) DESC, k.rank) = 1""", [mode, mode])


def _with_first(part: dict[str, Any], first: dict[str, Any] | None) -> dict[str, Any]:
    """A part with the report that first gave its current value (its own, should none be found: a restatement
    sharing its acceptance time), and the concept that report tagged it with."""
    first = first or part
    return {**part, "first_filing_id": first["filing_id"], "first_form": first["form"],
            "first_accepted_at": first["accepted_at"], "first_value": first["value"], "first_concept": first["concept"]}


def day(value: Any, name: str) -> date | None:
    """A date given as text, date or timestamp (None stays None); a ValueError naming the argument otherwise."""
    if value is None:
        return None
    try:
        return pd.Timestamp(value).date()
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name}: cannot read {value!r} as a date") from exc


def reporting_currency(db: Db, entity_id: str) -> str | None:
    """The currency an entity reports in (sql/macros.sql's reporting_currency)."""
    row = db.one("SELECT currency FROM reporting_currencies() WHERE entity_id = ?", [entity_id])
    return row[0] if row else None


def check_mode(mode: str) -> None:
    """Refuse a mode other than as_of, first and latest (see FactStore.check_mode)."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}: expected one of {', '.join(MODES)}")


def _as_of(as_of: Any, mode: str) -> datetime | None:
    check_mode(mode)
    return as_of_timestamp(as_of)


def _keys(db: Db, entity: str | int, concept: str | list[str], dims: dict[str, str] | None) -> tuple[str, list[str]]:
    """The entity_id and the concept keys a question names (NotFound where the dimensions match none)."""
    entity_id = resolve.entity(db, entity)
    return entity_id, resolve.dimension_keys(db, [entity_id], resolve.concepts(db, concept), dims, strict=True)
