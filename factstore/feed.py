"""Backtest feed: the newest fiscal quarter of many tickers and concepts as known at many dates.

The answer comes from the `panel_asof` table macro (sql/panel.sql) in one set-based query (one call per batch of
entities); this module resolves names, passes dates and shapes the result (long, wide, Arrow, or one frame per date).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb
import pandas as pd
import pyarrow as pa

from factstore import resolve
from factstore.facts import check_mode
from factstore.timing import as_of_timestamp

if TYPE_CHECKING:
    from factstore.db import Db

T = TypeVar("T")
# entities per panel_asof call: its hash tables grow faster than the entities in one call (3,000 tickers take a
# fifth less time in three calls than in one)
BATCH = 1000


def panel(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any], *,
          ttm: bool = False, mode: str = "as_of", wide: bool = False,
          dims: dict[str, str] | None = None) -> pd.DataFrame:
    """For each date × ticker × concept, the newest discrete fiscal quarter known before the date (a date is
    00:00 UTC; a filing counts only if accepted strictly before): date, ticker, concept (as given),
    fiscal_period, period_start, period_end, value, accepted_at, derived, and with ttm=True the trailing
    twelve months (NULL unless the four newest quarters are consecutive; never for instants). wide=True
    gives one row per date and ticker with a value column per concept (and `<concept>_ttm`). With dims, the
    concepts' facts of those dimensions (e.g. {'ProductOrService': 'IPhone'}) instead of the totals."""
    long = _run(db, tickers, concepts, dates, ttm, mode, lambda rel: rel.df(), dims)
    return _wide(long, ttm) if wide else long


def panel_arrow(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any], *,
                ttm: bool = False, mode: str = "as_of", wide: bool = False,
                dims: dict[str, str] | None = None) -> pa.Table:
    """`panel` as an Arrow table (long form fetched from DuckDB as Arrow; dates as date32)."""
    if wide:
        return pa.Table.from_pandas(panel(db, tickers, concepts, dates, ttm=ttm, mode=mode, wide=True,
                                          dims=dims), preserve_index=False)
    return _run(db, tickers, concepts, dates, ttm, mode, lambda rel: rel.to_arrow_table(), dims)


def iter_panel(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any], *,
               ttm: bool = False, mode: str = "as_of", wide: bool = False,
               dims: dict[str, str] | None = None) -> Iterator[tuple[pd.Timestamp, pd.DataFrame]]:
    """`panel` one date at a time, in date order: (date, that date's rows). The panel is computed in one
    query before the first date is yielded, so the store can be queried inside the loop."""
    frame = panel(db, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims)
    for when, rows in frame.groupby("date", sort=True):
        yield when, rows.reset_index(drop=True)


def _run(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any],
         ttm: bool, mode: str, fetch: Callable[[duckdb.DuckDBPyRelation], T], dims: dict[str, str] | None) -> T:
    """Resolve the names, register the dates and fetch the panel query's result with `fetch`."""
    params, moments = inputs(db, tickers, concepts, dates, mode, dims)
    with db.frame(pd.DataFrame({"date": pd.Series(moments, dtype="datetime64[us]")})) as dates_view:
        return fetch(db.relation(_query(ttm, dates_view, len(params["entities"])), params))


def inputs(db: Db, tickers: Iterable[str | int], concepts: Iterable[str], dates: Iterable[Any],
           mode: str, dims: dict[str, str] | None = None) -> tuple[dict[str, Any], list[datetime]]:
    """A panel's arguments checked and resolved: the panel query's parameters (entity_ids and tickers as given with
    their positions, the distinct entities, concepts qualified (with dims, their dimensional keys) and as given
    with their positions, mode) and the distinct moments, sorted."""
    check_mode(mode)
    given = list(dict.fromkeys(str(t) for t in ([tickers] if isinstance(tickers, str | int) else tickers)))
    names = list(dict.fromkeys([concepts] if isinstance(concepts, str) else concepts))
    moments = sorted({as_of_timestamp(d) for d in ([dates] if isinstance(dates, str | date) else dates)})
    for what, items in (("tickers", given), ("concepts", names), ("dates", moments)):
        if not items:
            raise ValueError(f"panel: give at least one of {what}")
    entity_ids = resolve.entities(db, given)
    params = {
        "entity_ids": entity_ids, "entities": list(dict.fromkeys(entity_ids)), "tickers": given,
        "t_no": list(range(len(given))), "names": names,
        "concepts": resolve.dimension_keys(db, entity_ids, [resolve.concepts(db, n)[0] for n in names], dims),
        "c_no": list(range(len(names))), "mode": mode,
    }
    return params, moments


def _wide(long: pd.DataFrame, ttm: bool) -> pd.DataFrame:
    """One row per date and ticker (in the long frame's order), a value column per concept (and its TTM)."""
    rows = pd.MultiIndex.from_frame(long[["date", "ticker"]].drop_duplicates())
    names = list(dict.fromkeys(long["concept"]))
    fields = ["value", "ttm"] if ttm else ["value"]
    wide = long.pivot(index=["date", "ticker"], columns="concept", values=fields)
    wide = wide.reindex(index=rows, columns=[(f, n) for n in names for f in fields])
    wide.columns = [n if f == "value" else f"{n}_ttm" for f, n in wide.columns]
    return wide.reset_index()


def _query(ttm: bool, dates_view: str, entities: int) -> str:
    """The panel query: panel_asof for the distinct entities ($entities) in batches of BATCH, with the tickers and
    concept names as given, in the order given."""
    panels = " UNION ALL ".join(
        f"SELECT * FROM panel_asof('{dates_view}', $concepts, entities := $entities[{lo + 1}:{lo + BATCH}], "
        "mode := $mode)" for lo in range(0, entities, BATCH))
    return f"""
    WITH tickers AS (SELECT unnest($entity_ids) AS entity_id, unnest($tickers) AS ticker, unnest($t_no) AS t_no),
         names AS (SELECT unnest($concepts) AS concept, unnest($names) AS name, unnest($c_no) AS c_no)
    SELECT p.date, t.ticker, n.name AS concept, p.fiscal_period, p.period_start, p.period_end, p.value,
        p.accepted_at, p.derived{", p.ttm" if ttm else ""}
    FROM ({panels}) p
    JOIN tickers t USING (entity_id) JOIN names n USING (concept)
    ORDER BY p.date, t.t_no, n.c_no"""
