"""Standard fundamentals in the shape of Sharadar's SF1: one row per company, dimension and fiscal period, a column
per metric, on one time axis.

- ARQ / ARY / ART (as first reported): each period's row as it stood when the period first appeared: `datekey` is
  the acceptance time of the filing that first reported it (a vintage of the backtest panel: `panel_versions(...,
  events := true)` for quarters and TTMs, `panel_asof(..., events := true)` for years), and every value is as known
  then; a metric that filing did not report is missing.
- MRQ / MRY / MRT (most recent): each period's newest values known at `as_of`, restatements included, never a
  value accepted after `as_of`; `lastupdated` is the acceptance of the newest value in the row; `warnings` says
  which value is a quarter derived from parts on different bases (a restated year less a first-reported 9M).

Quarterly (Q), fiscal years (Y) or trailing twelve months (T: four consecutive quarters; a balance as of the
period's end; an annual filer's fiscal years; a figure per share or a share count, which does not add up over
quarters: the fiscal year's figure at its fourth quarter, else missing). `accepted_precision`: the coarsest
precision of the row's times (its filing at datekey and each value's: 'date' where one is only a filing day).
Derived metrics (free cash flow, margins, returns on average balances) are computed per row from the row's own
figures by the formulas of data/metrics.csv."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from factstore import resolve, vocabulary
from factstore.metrics import AVG, combine, operands, reported_terms, term_metric
from factstore.periods import DIMENSIONS, period_before
from factstore.timing import as_of_timestamp
from factstore.vocabulary import Metric

if TYPE_CHECKING:
    from factstore.db import Db

PERIODS = {"Q": "quarter", "Y": "year", "T": "ttm"}
# entities per events panel of the as-first-reported years: memory follows the run, as every vintage of each
# entity is computed (2,000 companies in one: 8.6 GB)
RUN = 100
KEYS = ["entity_id", "fiscal_period", "period_end"]


def fundamentals(db: Db, entities: Any, metrics: Any = None, *, dimension: str = "ARQ",
                 as_of: Any = None) -> pd.DataFrame:
    """See FactStore.fundamentals."""
    dim = str(dimension).upper()
    if dim not in DIMENSIONS:
        raise ValueError(f"dimension {dimension!r}: expected one of {', '.join(DIMENSIONS)}")
    names = ([metrics] if isinstance(metrics, str) else list(metrics)) if metrics is not None else None
    chosen = [vocabulary.named(m) for m in names] if names else list(vocabulary.load_metrics())
    given = [entities] if isinstance(entities, str | int) else list(entities)
    if not given:
        raise ValueError("fundamentals: give at least one entity")
    entity_ids = resolve.entities(db, given)
    needed = list({r.name: r for m in chosen for r in reported_terms(m)}.values())
    moment = as_of_timestamp(as_of)
    read = _first_reported if dim.startswith("AR") else _most_recent
    long = read(db, list(dict.fromkeys(entity_ids)), needed, PERIODS[dim[2]], moment)
    # an annual filer (no quarterly income statement: no 3-month revenue or net income, whichever metrics are
    # asked; a 20-F's quarterly dividends per share do not count) has no quarters, and its years are its TTM
    headline = [c for m in ("revenue", "net_income") for c in vocabulary.named(m).concepts]
    quarterly = {e for (e,) in db.all("""SELECT DISTINCT entity_id FROM reports
        WHERE entity_id IN (SELECT unnest(?)) AND concept IN (SELECT unnest(?))
          AND duration_class(period_start, period_end) = 'quarter'
          AND (?::TIMESTAMP IS NULL OR accepted_at <= ?::TIMESTAMP)""", [entity_ids, headline, moment, moment])}
    annual = [e for e in dict.fromkeys(entity_ids) if e not in quarterly]
    if dim[2] != "Y" and annual:
        long = long[~long["entity_id"].isin(annual)]
        if dim[2] == "T":
            long = pd.concat([long, read(db, annual, needed, "year", moment)], ignore_index=True)
    apart = [m for m in needed if m.kind != "money" and m.statement != "balance"]
    others = [e for e in dict.fromkeys(entity_ids) if e not in annual]
    if dim[2] == "T" and apart and others:
        long = pd.concat([long, _years_as_fourth_quarters(db, read, others, needed, apart, moment)],
                         ignore_index=True)
    rows = _rows(db, long, needed, dim)
    for m in chosen:
        if m.name not in rows.columns:
            rows[m.name] = _derive(rows, m)
    tickers = pd.DataFrame({"ticker": [str(g) for g in given], "entity_id": entity_ids}).drop_duplicates("ticker")
    out = tickers.merge(rows, on="entity_id")
    columns = ["ticker", "entity_id", "dimension", "calendardate", "datekey", "reportperiod", "fiscal_period",
               "lastupdated", "accepted_precision", "accession", "form", "unit", *[m.name for m in chosen], "warnings"]
    return out.sort_values(["ticker", "reportperiod"], kind="stable")[columns].reset_index(drop=True)


def _years_as_fourth_quarters(db: Db, read: Any, entity_ids: list[str], needed: list[Metric], apart: list[Metric],
                              moment: Any) -> pd.DataFrame:
    """The twelve months of what does not add up over quarters (a figure per share, a share count of a period,
    which trailing_quarters leaves NULL): the fiscal year's figure, in the row of its fourth quarter."""
    years = read(db, entity_ids, apart, "year", moment)
    if years.empty:
        return years
    years["item"] = [needed.index(apart[int(i) - 1]) + 1 for i in years["item"]]
    years["fiscal_period"] = years["fiscal_period"].str[2:] + "Q4"
    return years


def _first_reported(db: Db, entity_ids: list[str], metrics: list[Metric], period: str,
                    moment: Any) -> pd.DataFrame:
    """Per entity, metric and period, the value at the vintage the period first appeared (the newest period of
    some metric then), if the metric's newest period then is it: quarters and TTMs from the versions computed at
    load (panel_versions at each entity's moments of change), fiscal years from the reports RUN entities at a
    time (panel_asof's events)."""
    if period != "year":
        return _first_reported_run(db, entity_ids, metrics, period, moment)
    return pd.concat([_first_reported_run(db, entity_ids[lo:lo + RUN], metrics, period, moment)
                      for lo in range(0, len(entity_ids), RUN)], ignore_index=True)


def _first_reported_run(db: Db, entity_ids: list[str], metrics: list[Metric], period: str,
                        moment: Any) -> pd.DataFrame:
    """_first_reported of some entities. A vintage is a second: where that second holds a filing and its amendment,
    a value both report is the first's in filing order (filing_order: the original)."""
    concepts = [c for m in metrics for c in m.concepts]
    items = [no for no, m in enumerate(metrics, 1) for _ in m.concepts]
    with db.frame(pd.DataFrame({"date": pd.Series([], dtype="datetime64[us]")})) as none:
        events, params = ((f"panel_asof('{none}', ?, entities := ?, items := ?, period := ?, events := true)",
                           [concepts, entity_ids, items, period]) if period == "year" else
                          (f"panel_versions('{none}', ?, entities := ?, period := ?, events := true)",
                           [[m.name for m in metrics], entity_ids, period]))
        return db.sql(f"""
            WITH ev AS (
                SELECT * FROM {events}
                WHERE value IS NOT NULL AND (?::TIMESTAMP IS NULL OR date <= ?::TIMESTAMP)
            ), firsts AS (
                SELECT entity_id, fiscal_period, period_end, min(date) AS datekey FROM ev GROUP BY ALL
            ), chosen AS (
                SELECT e.entity_id, e.fiscal_period, e.period_start, e.period_end, f.datekey, e.item, e.value, e.unit,
                    e.accepted_at, e.filing_id, e.form, e.accepted_precision
                FROM firsts f JOIN ev e ON e.entity_id = f.entity_id AND e.date = f.datekey
                 AND e.fiscal_period = f.fiscal_period AND e.period_end = f.period_end
            ), items AS (
                SELECT unnest(?::VARCHAR[]) AS concept, unnest(range(1, len(?::VARCHAR[]) + 1)) AS rank,
                    unnest(?::BIGINT[]) AS item
            ), original AS (
                -- the first filing in filing order reporting the value at the second it was read at (the panel's
                -- value of that second is its newest filing's), within it the first concept of the metric
                SELECT c.entity_id, c.fiscal_period, c.period_end, c.item,
                    arg_min(r.value, (filing_order(r.accepted_at, r.form, r.filing_id), i.rank)) AS value,
                    arg_min(r.filing_id, (filing_order(r.accepted_at, r.form, r.filing_id), i.rank)) AS filing_id,
                    arg_min(r.form, (filing_order(r.accepted_at, r.form, r.filing_id), i.rank)) AS form
                FROM chosen c JOIN reports r ON r.entity_id = c.entity_id AND r.accepted_at = c.accepted_at
                 AND r.period_end = c.period_end AND r.period_start IS NOT DISTINCT FROM c.period_start
                 AND r.unit = c.unit
                JOIN items i ON i.concept = r.concept AND i.item = c.item
                GROUP BY ALL
            )
            SELECT c.* REPLACE (coalesce(o.value, c.value) AS value, coalesce(o.filing_id, c.filing_id) AS filing_id,
                coalesce(o.form, c.form) AS form)
            FROM chosen c LEFT JOIN original o USING (entity_id, fiscal_period, period_end, item)""",
            [*params, moment, moment, concepts, concepts, items])


def _most_recent(db: Db, entity_ids: list[str], metrics: list[Metric], period: str, moment: Any) -> pd.DataFrame:
    """Per entity, metric, period and unit, the newest value known at the moment (quarters_asof, trailing_quarters,
    or fiscal_facts' years; _rows keeps the unit of the row's currency)."""
    table = ("trailing_quarters_by_id" if period == "ttm" else "quarters_asof_by_id") + "(?::TIMESTAMP, concepts := ?)"
    source = (f"""SELECT entity_id, fiscal_period, period_start, period_end, value, unit, accepted_at, filing_id, form,
                      warnings, list_transform(coalesce(parts, []), lambda p: p.filing_id) AS part_filings
                  FROM {table} WHERE value IS NOT NULL""" if period != "year" else
              """SELECT entity_id, 'FY' || fiscal_year AS fiscal_period, period_start, period_end, value, unit,
                     accepted_at, filing_id, form, []::VARCHAR[] AS warnings, []::VARCHAR[] AS part_filings
                 FROM fiscal_facts_by_id(?::TIMESTAMP, concepts := ?)
                 WHERE value IS NOT NULL AND (kind = 'year' AND fiscal_period = 'FY' || fiscal_year
                       OR kind = 'instant' AND fiscal_period = fiscal_year || 'Q4')""")
    present = {c for (c,) in db.all("SELECT DISTINCT concept FROM reports WHERE list_contains(?, entity_id) "
                                    "AND list_contains(?, concept)", [entity_ids, [c for m in metrics
                                                                                    for c in m.concepts]])}
    frames = []
    for no, m in enumerate(metrics, 1):
        if present.isdisjoint(m.concepts):  # (a query per metric: skip those none of the entities report)
            continue
        frames.append(db.sql(f"WITH f AS ({source}) SELECT *, ? AS item FROM f WHERE list_contains(?, entity_id)",
                             [moment, list(m.concepts), no, entity_ids]))
    long = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if long.empty:
        return long
    # the period first reported: the first report ending then of the metrics asked (not of any concept: a 10-Q's
    # dividend payable at the coming year end is no report of the year)
    firsts = db.sql("""SELECT entity_id, period_end, min(accepted_at) AS datekey,
            arg_min(filing_id, filing_order(accepted_at, form, filing_id)) AS first_filing,
            arg_min(form, filing_order(accepted_at, form, filing_id)) AS first_form
        FROM reports
        WHERE entity_id IN (SELECT unnest(?)) AND concept IN (SELECT unnest(?))
          AND (?::TIMESTAMP IS NULL OR accepted_at <= ?::TIMESTAMP)
        GROUP BY ALL""", [entity_ids, [c for m in metrics for c in m.concepts], moment, moment])
    return long.merge(firsts, on=["entity_id", "period_end"], how="left")


def _rows(db: Db, long: pd.DataFrame, metrics: list[Metric], dim: str) -> pd.DataFrame:
    """One row per entity and period: its datekey, calendardate, filing, unit and a column per metric (a value
    only in the unit its kind takes in the row: the row's currency, shares or that currency per share)."""
    columns = ["entity_id", "fiscal_period", "period_end", "datekey", "lastupdated", "accepted_precision", "accession",
               "form", "unit"]
    if long.empty:
        return pd.DataFrame(columns=[*columns, "dimension", "calendardate", "reportperiod", "warnings",
                                     *[m.name for m in metrics]])
    long = long.copy()
    long["metric"] = [metrics[int(i) - 1].name for i in long["item"]]
    currency = dict(db.all("SELECT entity_id, currency FROM reporting_currencies() WHERE list_contains(?, entity_id)",
                           [list(long["entity_id"].unique())]))
    long["currency"] = long["entity_id"].map(currency)
    kinds = {m.name: m.kind for m in metrics}
    wanted = np.select([long["metric"].map(kinds) == "money", long["metric"].map(kinds) == "per_share"],
                       [long["currency"], long["currency"] + "/shares"], "shares")
    long = long[(long["unit"] == wanted) | (long["metric"].map(kinds) == "ratio")]
    grouped = long.groupby(KEYS)
    rows = grouped.agg(datekey=("datekey", "min"), first=("accepted_at", "min"), lastupdated=("accepted_at", "max"),
                       unit=("currency", "first")).reset_index()
    # a period no duration ends on (a balance only): first known with the first of its values
    rows["datekey"] = rows["datekey"].fillna(rows.pop("first"))
    # the filing at datekey: the one that first reported the period (as first reported: the row's own)
    at_key = (long.rename(columns={"first_filing": "accession", "first_form": "form_at_key"}) if "first_filing" in long
              else long[long["accepted_at"] == long.groupby(KEYS)["accepted_at"].transform("min")].rename(
                  columns={"filing_id": "accession", "form": "form_at_key"}))
    filing = at_key.groupby(KEYS)[["accession", "form_at_key"]].first().rename(columns={"form_at_key": "form"})
    values = long.pivot_table(index=KEYS, columns="metric", values="value", aggfunc="first")
    rows = rows.join(filing, on=KEYS).join(values, on=KEYS)
    # how exact its times are: the coarsest precision of its filing at datekey and of each value's filing (a derived
    # value's: its parts'; as first reported, the panel's, which says so of its parts)
    frames = [long[[*KEYS, "filing_id"]], rows[[*KEYS, "accession"]].rename(columns={"accession": "filing_id"})]
    if "part_filings" in long:
        frames.append(long[[*KEYS, "part_filings"]].explode("part_filings").dropna().rename(
            columns={"part_filings": "filing_id"}))
    stated = long[[*KEYS, "accepted_precision"]] if "accepted_precision" in long else \
        pd.DataFrame(columns=[*KEYS, "accepted_precision"])
    with db.frame(pd.concat(frames)) as behind, db.frame(stated) as given:
        precision = db.sql(f"""SELECT {", ".join(KEYS)}, coarsest_precision(list(p)) AS accepted_precision
            FROM (SELECT {", ".join(f"b.{k}" for k in KEYS)}, f.accepted_precision AS p
                  FROM {behind} b JOIN filings f USING (filing_id)
                  UNION ALL SELECT {", ".join(KEYS)}, accepted_precision FROM {given}) GROUP BY ALL""")
    rows = rows.merge(precision, on=KEYS, how="left")
    # what a value of the row is flagged with (a quarter derived from a restated year and a first-reported 9 months)
    flagged = long[long["warnings"].map(len) > 0] if "warnings" in long.columns else long.iloc[:0]
    said = {key: sorted(f"{m}: {w}" for m, ws in zip(g["metric"], g["warnings"], strict=True) for w in ws)
            for key, g in flagged.groupby(KEYS)}
    rows["warnings"] = [said.get(tuple(k), []) for k in rows[KEYS].itertuples(index=False)]
    if dim.startswith("AR"):
        rows["lastupdated"] = rows["datekey"]
    rows = rows.reindex(columns=[*rows.columns, *(m.name for m in metrics if m.name not in rows.columns)])  # (at once)
    rows["dimension"] = dim
    rows["reportperiod"] = pd.to_datetime(rows["period_end"])
    rows["calendardate"] = _calendar_date(rows["reportperiod"])
    return rows.sort_values(["entity_id", "period_end"]).reset_index(drop=True)


def _calendar_date(ends: pd.Series) -> pd.Series:
    """The calendar quarter end nearest each period end (SF1's calendardate; half-way goes to the earlier)."""
    before = ends.dt.to_period("Q").dt.start_time - pd.Timedelta(days=1)
    after = ends.dt.to_period("Q").dt.end_time.dt.normalize()
    return after.where((after - ends) < (ends - before), before).dt.date


def _derive(rows: pd.DataFrame, m: Metric) -> pd.Series:
    """A derived metric per row, from the row's own figures (an average balance: with the row of the period
    before, where the rows hold it)."""
    a, op, b = operands(m)
    return combine(m, op, _term(rows, a), _term(rows, b))


def _term(rows: pd.DataFrame, term: str) -> pd.Series:
    """A formula term's column: a metric's (derived first if it must be), or avg(metric) over this row and the
    row of the period before."""
    name = term_metric(term)
    if name not in rows.columns:
        rows[name] = _derive(rows, vocabulary.named(name))
    if not AVG.match(term):
        return rows[name]
    keyed = rows.set_index(["entity_id", "fiscal_period"])[name]
    keyed = keyed[~keyed.index.duplicated()]
    before = [keyed.get((e, period_before(p)), np.nan) for e, p in zip(rows["entity_id"], rows["fiscal_period"],
                                                                 strict=True)]
    return (rows[name] + pd.Series(before, index=rows.index, dtype="float64")) / 2
