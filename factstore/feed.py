"""Backtest feed: the newest fiscal quarter (or year, or TTM) of many tickers and metrics or concepts as known at
many dates.

The answer comes from a table macro of sql/panel.sql in one set-based query: `panel_versions` (an ASOF join against
the cells computed at load, newest_quarters) where each name is a concept or a metric of concepts in mode as_of
(quarters or TTM), else `panel_asof` (one call per batch of entities); this module resolves names, passes dates and
shapes the result (long, wide, Arrow, or one frame per date).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa

from factstore import resolve, vocabulary
from factstore.facts import check_mode
from factstore.metrics import combine, combined_unit, operands, reported_terms
from factstore.periods import PERIODS
from factstore.timing import as_of_timestamp

if TYPE_CHECKING:
    from factstore.db import Db

T = TypeVar("T")
# entities per panel_asof call: its hash tables grow faster than the entities in one call (3,000 tickers take a
# fifth less time in three calls than in one)
BATCH = 1000
# cells (dates x entities x names) computed at once: panel takes runs of entities, iter_panel and
# panel_arrow(stream=True) runs of dates; memory follows the run (1,000 companies x 10 tags x 120 month ends: one run
# 3.9 GB, runs of 500,000 cells 2.2 GB, 200,000 1.5 GB; the time within the machine's noise at 500,000)
BATCH_CELLS = 300_000
# cells computed at once from those computed at load (panel_versions): each run scans newest_quarters once (3,000
# companies x 10 tags x 120 month ends, 3.6M cells: one run, 3.2 s, 3.5 GB peak)
VERSION_CELLS = 4_000_000


# the long form's columns of text
TEXT = {"ticker", "concept", "tag", "unit", "fiscal_period", "accepted_precision", "filing_id", "form"}
# the long form's columns, in order (ttm added with ttm=True)
LONG = ["date", "ticker", "concept", "tag", "unit", "fiscal_period", "period_start", "period_end", "age_days",
        "value", "accepted_at", "accepted_precision", "derived", "filing_id", "form"]


def panel(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any], *,
          ttm: bool = False, mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None,
          period: str = "quarter", max_age: int | None = None) -> pd.DataFrame:
    """For each date × ticker × concept or metric, the newest fiscal period known before the date (a date is
    00:00 UTC; a filing counts only if accepted strictly before): date, ticker, concept (as given), tag (the
    concept it was reported under: a metric's first one reporting the period), unit (the reporting currency
    first), fiscal_period, period_start, period_end, age_days (date - period_end), value, accepted_at,
    accepted_precision (its filing's: 'date' where it is the filing day's end, New York), derived, filing_id,
    form; with ttm=True the trailing twelve months (NULL unless the four newest quarters are consecutive; never
    for instants, figures per share or share counts). period: 'quarter', 'year' (fiscal years: annual filers too)
    or 'ttm' (the value is the trailing twelve months, a balance the newest quarter's). max_age (days): cells
    older are left out, and `attrs['left_out']` says how many. wide=True gives one row per date and ticker with a
    value column per concept, its `<concept>_period_end` (and `<concept>_ttm`). With dims, the concepts' facts of
    those dimensions (e.g. {'ProductOrService': 'IPhone'}) instead of the totals."""
    params, moments, shape = inputs(db, tickers, concepts, dates, mode, dims, period)
    frames = [_answer(db, {**params, "entities": run}, moments, shape, ttm, _frame)
              for run in _runs(params["entities"], len(moments) * len(params["names"]), _cells(params))]
    long = _aged(frames[0] if len(frames) == 1 else _in_order(pd.concat(frames, ignore_index=True), params, shape),
                 max_age)
    if not wide:
        return long
    out = _wide(long, ttm)
    out.attrs = long.attrs
    return out


def panel_arrow(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any], *,
                ttm: bool = False, mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None,
                period: str = "quarter", max_age: int | None = None,
                stream: bool = False) -> pa.Table | pa.RecordBatchReader:
    """`panel` as an Arrow table (long form fetched from DuckDB as Arrow; dates as date32; with a derived metric,
    from the DataFrame). stream=True gives a RecordBatchReader of the dates a batch at a time (one batch per
    BATCH_CELLS cells or so, in date order), so memory holds one batch, not the panel."""
    concepts = [concepts] if isinstance(concepts, str) else list(concepts)
    slow = wide or max_age is not None or any(isinstance(c, str) and _formula_only(c) for c in concepts)
    if not stream and slow:
        return _from_frame(panel(db, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims,
                                 period=period, max_age=max_age))
    if not stream:
        params, moments, shape = inputs(db, tickers, concepts, dates, mode, dims, period)
        return _answer(db, params, moments, shape, ttm, lambda rel: rel.to_arrow_table())
    batches = (_from_frame(frame) if slow else table
               for table, frame in _batches(db, tickers, concepts, dates, ttm, mode, dims, period, max_age, wide,
                                            arrow=not slow))
    first = next(batches)
    schema = pa.schema([_typed(f) for f in first.schema]) if slow else first.schema
    return pa.RecordBatchReader.from_batches(schema, (b for t in chain([first], batches)
                                                      for b in t.cast(schema).to_batches()))


def iter_panel(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any], *,
               ttm: bool = False, mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None,
               period: str = "quarter", max_age: int | None = None) -> Iterator[tuple[pd.Timestamp, pd.DataFrame]]:
    """`panel` one date at a time, in date order: (date, that date's rows). The dates are computed a batch at a
    time (BATCH_CELLS cells or so), each batch whole before its first date is yielded: memory holds one batch, and
    the store can be queried inside the loop."""
    for _, frame in _batches(db, tickers, concepts, dates, ttm, mode, dims, period, max_age, wide):
        for when, rows in frame.groupby("date", sort=True):
            yield when, rows.reset_index(drop=True)


def _batches(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any], ttm: bool,
             mode: str, dims: dict[str, str] | None, period: str, max_age: int | None, wide: bool, *,
             arrow: bool = False) -> Iterator[tuple[pa.Table | None, pd.DataFrame | None]]:
    """The panel of consecutive runs of the dates, each as an Arrow table (arrow: the long form straight from
    DuckDB) or a frame shaped as `panel` shapes it."""
    params, moments, shape = inputs(db, tickers, concepts, dates, mode, dims, period)
    for run in _runs(moments, len(params["entities"]) * len(params["names"]), _cells(params)):
        if arrow:
            yield _answer(db, params, run, shape, ttm, lambda rel: rel.to_arrow_table()), None
            continue
        long = _aged(_answer(db, params, run, shape, ttm, _frame), max_age)
        yield None, (_wide(long, ttm) if wide else long)


def _typed(field: pa.Field) -> pa.Field:
    """A field's type in every batch, by its name (long form, or a wide column's suffix): a batch's column all None
    has Arrow's null type, or a time of seconds, of its own."""
    name = field.name
    if name in TEXT or name.endswith("_unit"):
        return field.with_type(pa.large_string())
    if name in ("date", "period_start", "period_end", "accepted_at") or name.endswith("_period_end"):
        return field.with_type(pa.timestamp("us"))
    return field.with_type(pa.bool_() if name == "derived" else pa.float64())


def _in_order(long: pd.DataFrame, params: dict[str, Any], shape: dict[str, Any]) -> pd.DataFrame:
    """The runs' rows in the panel's order: by date, then the tickers' and the names' order as given."""
    tickers = {t: no for no, t in enumerate(params["tickers"])}
    names = {n: no for no, n in enumerate(shape["asked"])}
    order = np.lexsort((long["concept"].map(names).to_numpy(), long["ticker"].map(tickers).to_numpy(),
                        long["date"].to_numpy()))
    return long.iloc[order].reset_index(drop=True)


def _runs(items: list[T], cells_each: int, cells: int) -> Iterator[list[T]]:
    """The items (entities or dates) in consecutive runs of about `cells` cells, each item standing for
    `cells_each` of them: a panel's memory is a run's, and it takes no longer (a run's hash tables stay small)."""
    size = max(1, cells // cells_each)
    for lo in range(0, len(items), size):
        yield items[lo:lo + size]


def _from_frame(frame: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(frame, preserve_index=False)


def _aged(long: pd.DataFrame, max_age: int | None) -> pd.DataFrame:
    """The long frame without the cells older than max_age days (attrs['left_out']: how many)."""
    if max_age is None:
        return long
    if max_age < 0:
        raise ValueError(f"max_age {max_age!r}: give a number of days >= 0")
    old = long["age_days"] > max_age
    kept = long[~old].reset_index(drop=True)
    kept.attrs["left_out"] = int(old.sum())
    return kept


def _answer(db: Db, params: dict[str, Any], moments: list[datetime], shape: dict[str, Any], ttm: bool,
            fetch: Callable[[duckdb.DuckDBPyRelation], T]) -> T:
    """Register the dates and fetch the panel query's result with `fetch`."""
    with db.frame(pd.DataFrame({"date": pd.Series(moments, dtype="datetime64[us]")})) as dates_view:
        query = _query(params, ttm, dates_view)
        out = fetch(db.relation(query, {k: v for k, v in params.items() if f"${k}" in query}))
    return _with_derived(out, shape, ttm)


def versions_read(params: dict[str, Any]) -> bool:
    """Whether newest_quarters holds the panel's cells: mode as_of, quarters or TTM, each name a line item there."""
    return params["mode"] == "as_of" and params["period"] in ("quarter", "ttm") and params["sources"] is not None


def _cells(params: dict[str, Any]) -> int:
    """The cells a run computes: VERSION_CELLS from the versions, else BATCH_CELLS."""
    return VERSION_CELLS if versions_read(params) else BATCH_CELLS


def _frame(rel: duckdb.DuckDBPyRelation) -> pd.DataFrame:
    """The relation as DuckDB's own DataFrame types (nullable integers and booleans, times in microseconds), through
    Arrow: a fifth of the time of DuckDBPyRelation.df() at a million rows."""
    frame = rel.to_arrow_table().to_pandas(date_as_object=False, types_mapper={
        pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype()}.get)
    for name, dtype in frame.dtypes.items():
        if str(dtype).startswith("datetime64"):
            frame[name] = frame[name].astype("datetime64[us]")
    return frame


def inputs(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any],
           mode: str, dims: dict[str, str] | None = None,
           period: str = "quarter") -> tuple[dict[str, Any], list[datetime]]:
    """A panel's arguments checked and resolved: the panel query's parameters (entity_ids and tickers as given with
    their positions, the distinct entities; the concepts qualified (with dims, their dimensional keys: a metric's in
    its order) with the item (the position of the name given) of each; the names as given; mode and period) and
    the distinct moments, sorted."""
    check_mode(mode)
    if period not in PERIODS:
        raise ValueError(f"period {period!r}: expected one of {', '.join(PERIODS)}")
    given = list(dict.fromkeys(str(t) for t in ([tickers] if isinstance(tickers, str | int) else tickers)))
    names = [concepts] if isinstance(concepts, str) else list(concepts)
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"panel: a concept or metric is a name, not {type(n).__name__} {n!r}")
    names = list(dict.fromkeys(names))
    moments = sorted({as_of_timestamp(d) for d in ([dates] if isinstance(dates, str | date) else dates)})
    for what, items in (("tickers", given), ("concepts", names), ("dates", moments)):
        if not items:
            raise ValueError(f"panel: give at least one of {what}")
    entity_ids = resolve.entities(db, given)
    derived = {n: m for n in names if (m := _formula_only(n)) is not None}
    asked = [n for n in names if n not in derived]
    queried = list(dict.fromkeys([*asked, *(r.name for m in derived.values() for r in reported_terms(m))]))
    keys = [resolve.dimension_keys(db, entity_ids, _qualified(db, n), dims) for n in queried]
    params = {
        "entity_ids": entity_ids, "entities": list(dict.fromkeys(entity_ids)), "tickers": given,
        "t_no": list(range(len(given))), "names": queried, "c_no": list(range(1, len(queried) + 1)),
        "concepts": [c for k in keys for c in k], "items": [no for no, k in enumerate(keys, 1) for _ in k],
        "mode": mode, "period": period, "sources": _sources(queried, keys, dims),
    }
    return params, moments, {"asked": names, "derived": derived}


def _sources(names: list[str], keys: list[list[str]], dims: dict[str, str] | None) -> list[str] | None:
    """What newest_quarters holds each name's line item under: its one concept, or a metric's name (a metric of
    several concepts, without dims); None where a name has no line item of its own there, or two share one."""
    sources = [k[0] if len(k) == 1 else m.name if not dims and (m := vocabulary.as_metric(n)) is not None else None
               for n, k in zip(names, keys, strict=True)]
    return sources if None not in sources and len(set(sources)) == len(sources) else None


def _formula_only(name: str) -> vocabulary.Metric | None:
    """The metric a lower-case name names when it has a formula and no concepts (derived in the panel)."""
    m = vocabulary.as_metric(name)
    if m is None or m.concepts or not m.formula:
        return None
    if "avg(" in m.formula:
        raise ValueError(f"panel: {m.name} ({m.formula}) needs the period before the newest; fundamentals() has it")
    return m


def _with_derived(long: pd.DataFrame, shape: dict[str, Any], ttm: bool) -> pd.DataFrame:
    """The long frame with each derived metric's cells (its terms' newest periods, where they are the same
    period: else none) in place of the reported metrics only asked for them, in the order asked."""
    if not shape["derived"]:
        return long
    keyed = {n: g.set_index(["date", "ticker"]) for n, g in long.groupby("concept", sort=False)}
    order = pd.MultiIndex.from_frame(long[["date", "ticker"]].drop_duplicates())

    def cells(m: vocabulary.Metric) -> pd.DataFrame:
        a, op, b = (x if i == 1 else (cells(vocabulary.named(x)) if x not in keyed else keyed[x].reindex(order))
                    for i, x in enumerate(operands(m)))
        same = (a["period_end"] == b["period_end"]) & (a["fiscal_period"] == b["fiscal_period"])
        units = [combined_unit(m, op, u, v) if isinstance(u, str) and isinstance(v, str) else None
                 for u, v in zip(a["unit"], b["unit"], strict=True)]
        later = b["accepted_at"] > a["accepted_at"]
        out = a.copy()
        out["value"] = combine(m, op, a["value"], b["value"]).where(same & pd.Series(units, index=a.index).notna())
        out["unit"], out["tag"], out["derived"] = units, m.formula, True
        for column in ("accepted_at", "accepted_precision", "filing_id", "form"):
            out[column] = b[column].where(later, a[column])
        if ttm:
            out["ttm"] = float("nan")
        blank = out["value"].isna()
        out.loc[blank, ["unit", "fiscal_period", "period_start", "period_end", "age_days", "accepted_at",
                        "accepted_precision", "filing_id", "form"]] = None
        return out

    frames = [keyed[n].reindex(order) if n not in shape["derived"] else cells(shape["derived"][n])
              for n in shape["asked"]]
    out = pd.concat([f.assign(concept=n) for n, f in zip(shape["asked"], frames, strict=True)])
    position = {n: i for i, n in enumerate(shape["asked"])}
    out = out.reset_index().assign(_c=lambda f: f["concept"].map(position))
    out = out.sort_values(["date", "_c"], kind="stable")
    rows = {key: i for i, key in enumerate(order)}
    out["_r"] = [rows[(d, t)] for d, t in zip(out["date"], out["ticker"], strict=True)]
    out = out.sort_values(["_r", "_c"], kind="stable").drop(columns=["_c", "_r"])
    return out[list(long.columns)].reset_index(drop=True)


def _qualified(db: Db, name: str) -> list[str]:
    """A metric's concepts in their order, or a concept name's first qualified concept."""
    found = resolve.concepts(db, name)
    return found if vocabulary.as_metric(name) is not None else found[:1]


def _wide(long: pd.DataFrame, ttm: bool) -> pd.DataFrame:
    """One row per date and ticker (in the long frame's order), per concept its value, unit, period end (and
    TTM): a TWD figure is never read as USD beside another company's."""
    rows = pd.MultiIndex.from_frame(long[["date", "ticker"]].drop_duplicates())
    names = list(dict.fromkeys(long["concept"]))
    fields = ["value", "unit", "period_end", "ttm"] if ttm else ["value", "unit", "period_end"]
    wide = long.pivot(index=["date", "ticker"], columns="concept", values=fields)
    wide = wide.reindex(index=rows, columns=[(f, n) for n in names for f in fields])
    wide.columns = [n if f == "value" else f"{n}_{f}" for f, n in wide.columns]
    return wide.reset_index()


def _query(params: dict[str, Any], ttm: bool, dates_view: str) -> str:
    """The panel query: panel_versions where each name is a line item of newest_quarters in mode as_of (read from
    the cells computed at load), else panel_asof for the distinct entities ($entities) in batches of BATCH; with
    the tickers and the names as given, in the order given."""
    if versions_read(params):
        panels = (f"SELECT * FROM panel_versions('{dates_view}', $sources, entities := $entities, period := $period, "
                  f"with_ttm := {str(ttm or params['period'] == 'ttm').lower()})")
    else:
        panels = " UNION ALL ".join(
            f"SELECT * FROM panel_asof('{dates_view}', $concepts, entities := $entities[{lo + 1}:{lo + BATCH}], "
            "mode := $mode, items := $items, period := $period)" for lo in range(0, len(params["entities"]), BATCH))
    return f"""
    WITH tickers AS (SELECT unnest($entity_ids) AS entity_id, unnest($tickers) AS ticker, unnest($t_no) AS t_no),
         names AS (SELECT unnest($c_no) AS item, unnest($names) AS name)
    SELECT p.date, t.ticker, n.name AS concept, p.tag, p.unit, p.fiscal_period, p.period_start, p.period_end,
        date_diff('day', p.period_end, p.date::DATE) AS age_days, p.value, p.accepted_at, p.accepted_precision,
        p.derived, p.filing_id, p.form{", p.ttm" if ttm else ""}
    FROM ({panels}) p
    JOIN tickers t USING (entity_id) JOIN names n USING (item)
    ORDER BY p.date, t.t_no, p.item"""
