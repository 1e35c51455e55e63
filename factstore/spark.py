"""Spark over a published snapshot: the backtest panel and the as-of facts of every entity, computed by Spark
partitioned by entity.

The point-in-time rules are stated once, in sql/: the snapshot's Parquet rows are read by Spark and
hash-partitioned by entity_id (an entity's rows all land in one partition), and each partition is answered by the
store's own macros in its own in-memory DuckDB (one thread: Spark runs the partitions in parallel), over tables made
by sql/schema.sql and filled with that partition's rows. A panel the store reads from the cells computed at load
(mode as_of, quarters or TTM, of concepts and metrics) is read from the snapshot's `newest_quarters` by
`panel_versions`, its one ASOF join; any other by `panel_asof` from the reports; `facts_asof` by `facts_asof`.
Names are resolved on the driver by the snapshot's store, so the errors are the store's.

The DataFrames are lazy: they read the snapshot's files when an action runs, so a snapshot pruned in between
(`publish(..., keep=...)`) can no longer be read; the next snapshot is not read until `panel`/`facts_asof` is
called again.

    from pyspark.sql import SparkSession
    from factstore import spark as fs
    spark = SparkSession.builder.getOrCreate()
    fs.panel(spark, "published/", ["RPS", "BSMH"], ["Revenues"], ["2021-03-31", "2021-06-30"], ttm=True).show()

pyspark is imported when a function here first runs, not with the module: the partitions' workers unpickle
`_Partition` (which needs DuckDB and Arrow only) by importing this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, reduce
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pyarrow as pa

import factstore
from factstore import feed
from factstore.errors import FactstoreError
from factstore.resources import MACRO_SQL, sql_text
from factstore.timing import as_of_timestamp

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from factstore.store import FactStore

MACROS = "\n".join(sql_text(name) for name in ("schema.sql", *MACRO_SQL))
TABLE = "_table"  # the column naming the snapshot table each row of a partition's input comes from
DATES = "panel_dates"  # the partition's table of panel dates

# the macros' rows, as Spark types by schema(): the store's times are naive UTC (TIMESTAMP_NTZ), its dates DATE
COLUMNS = {
    "PANEL_ASOF": (("date", "time"), ("entity_id", "text"), ("item", "long"), ("concept", "text"), ("tag", "text"),
                   ("unit", "text"), ("fiscal_period", "text"), ("period_start", "day"), ("period_end", "day"),
                   ("value", "number"), ("accepted_at", "time"), ("accepted_precision", "text"), ("derived", "flag"),
                   ("ttm", "number"),
                   ("filing_id", "text"), ("form", "text")),
    "FACTS_ASOF": (("entity_id", "text"), ("item", "text"), ("concept", "text"), ("unit", "text"),
                   ("period_start", "day"), ("period_end", "day"), ("value", "number"), ("filing_id", "text"),
                   ("form", "text"), ("accepted_at", "time"), ("first_value", "number"), ("restated", "flag"),
                   ("n_versions", "long")),
}


@cache
def schema(name: str) -> StructType:
    """The Spark schema of COLUMNS[name] ("PANEL_ASOF", "FACTS_ASOF"); pyspark is imported here."""
    from pyspark.sql.types import (
        BooleanType,
        DateType,
        DoubleType,
        LongType,
        StringType,
        StructField,
        StructType,
        TimestampNTZType,
    )

    kinds = {"text": StringType(), "day": DateType(), "time": TimestampNTZType(), "number": DoubleType(),
             "flag": BooleanType(), "long": LongType()}
    return StructType([StructField(column, kinds[kind]) for column, kind in COLUMNS[name]])


def __getattr__(name: str) -> Any:
    """PANEL_ASOF and FACTS_ASOF, the Spark schemas of before, made on first use."""
    if name in COLUMNS:
        return schema(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def panel(spark: SparkSession, target: str | Path, tickers: Iterable[str | int], concepts: Iterable[str],
          dates: Iterable[Any], *, ttm: bool = False, mode: str = "as_of", period: str = "quarter",
          partitions: int | None = None) -> DataFrame:
    """`store.panel` (long form) of the snapshot published at TARGET as a Spark DataFrame: the same columns, rows
    and row order (date, then tickers and concepts as given). `partitions`: how many the entities are spread over
    (default: Spark's default parallelism, a multiple of it where there would be over feed.BATCH entities in one)."""
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import to_arrow_schema

    panel_asof = schema("PANEL_ASOF")
    with _snapshot(target) as store:
        params, moments, shape = feed.inputs(store.db, tickers, concepts, dates, mode, period=period)
        snapshot = store.snapshot
        metric_concepts = store.db.con.sql("SELECT * FROM metric_concepts").to_arrow_table()
    if shape["derived"]:
        raise ValueError(f"spark.panel: {', '.join(shape['derived'])} is derived: store.panel derives it")
    entities = params["entities"]
    wanted = F.broadcast(spark.createDataFrame([(e,) for e in entities], "entity_id STRING"))
    dates = pa.table({"date": pa.array(moments, pa.timestamp("us"))})

    def read(table: str) -> DataFrame:
        """The snapshot table's rows of the entities (a semi-join: an isin of thousands of names takes seconds to
        build through py4j)."""
        return spark.read.parquet(str(snapshot / table)).join(wanted, "entity_id", "left_semi")

    tables = {"entities": wanted}
    if feed.versions_read(params):
        sources = params["sources"]
        # (a metric's concepts too: an entity without cells of the metric's own reads its concept's)
        tables["newest_quarters"] = read("newest_quarters").where(F.col("item").isin([*sources, *params["concepts"]]))
        answer = _Partition(
            {t: df.columns for t, df in tables.items()},
            f"SELECT * FROM panel_versions('{DATES}', $sources, period := $period, with_ttm := $with_ttm)",
            {"sources": sources, "period": params["period"], "with_ttm": ttm or params["period"] == "ttm"},
            to_arrow_schema(panel_asof), {DATES: dates, "metric_concepts": metric_concepts})
    else:
        tables |= {"reports": read("reports").where(F.col("concept").isin(params["concepts"])),
                   "entity_periods": read("entity_periods"), "filings": read("filings")}
        answer = _Partition(
            {t: df.columns for t, df in tables.items()},
            f"SELECT * FROM panel_asof('{DATES}', $concepts, mode := $mode, items := $items, period := $period)",
            {k: params[k] for k in ("concepts", "mode", "items", "period")}, to_arrow_schema(panel_asof),
            {DATES: dates})
    rows = _by_entity(tables, partitions or _partitions(spark, len(entities))).mapInArrow(answer, panel_asof)
    given = spark.createDataFrame(list(zip(params["entity_ids"], params["tickers"], params["t_no"], strict=True)),
                                  "entity_id STRING, ticker STRING, t_no INT")
    names = spark.createDataFrame(list(zip(params["c_no"], params["names"], strict=True)), "item LONG, name STRING")
    return (rows.join(F.broadcast(given), "entity_id").join(F.broadcast(names), "item")
            .withColumn("concept", F.col("name"))
            .withColumn("age_days", F.datediff(F.to_date("date"), "period_end").cast("long"))
            .repartition(1).sortWithinPartitions("date", "t_no", "item")  # orderBy would run the macros twice
            .select(*feed.LONG, *(["ttm"] if ttm else [])))


def facts_asof(spark: SparkSession, target: str | Path, as_of: Any, *, mode: str = "as_of",
               partitions: int | None = None) -> DataFrame:
    """The `facts_asof` macro (sql/macros.sql) over every entity of the snapshot published at TARGET: each fact's
    value as of `as_of` (None: all published), as first reported or the newest (`mode`), with its filing; rows
    unordered, as the macro's. `partitions` as in `panel`."""
    from pyspark.sql.pandas.types import to_arrow_schema

    facts = schema("FACTS_ASOF")
    with _snapshot(target) as store:
        store.check_mode(mode)
        moment = as_of_timestamp(as_of)
        snapshot = store.snapshot
        entities = int(store.sql("SELECT count(*) AS n FROM entities")["n"].iloc[0])
    reports = spark.read.parquet(str(snapshot / "reports"))
    answer = _Partition({"reports": reports.columns}, "SELECT * FROM facts_asof_by_id($as_of, mode := $mode)",
                        {"as_of": moment, "mode": mode}, to_arrow_schema(facts))
    return _by_entity({"reports": reports}, partitions or _partitions(spark, entities)).mapInArrow(answer, facts)


def _snapshot(target: str | Path) -> FactStore:
    """The store of TARGET's current snapshot, read only; a target where nothing was published is refused as
    factstore.open refuses it, a store file as not published."""
    store = factstore.open(target, read_only=True)
    if store.snapshot is None:
        store.close()
        raise FactstoreError(f"{target}: a store, not a folder a store was published into (publish it first: "
                             f"`factstore publish TARGET --db {target}`)")
    return store


def _partitions(spark: SparkSession, entities: int) -> int:
    """Spark's default parallelism, or a multiple of it where a partition would hold over feed.BATCH entities (the
    macros' hash tables grow faster than the entities in one call)."""
    cores = spark.sparkContext.defaultParallelism
    return cores * max(1, math.ceil(entities / (feed.BATCH * cores)))


def _by_entity(tables: dict[str, DataFrame], partitions: int) -> DataFrame:
    """The tables' rows in one DataFrame (every table's columns, TABLE naming each row's table), hash-partitioned
    by entity_id: all of an entity's rows in one partition."""
    from pyspark.sql import functions as F

    tagged = [df.withColumn(TABLE, F.lit(name)) for name, df in tables.items()]
    rows = reduce(lambda a, b: a.unionByName(b, allowMissingColumns=True), tagged)
    return rows.repartition(partitions, "entity_id")


@dataclass(frozen=True)
class _Partition:
    """What each partition runs (pickled to the executors): its rows inserted into the tables of sql/schema.sql in
    an in-memory DuckDB with the macros, then `query` with `params`, its rows cast to `schema`."""

    columns: dict[str, list[str]]  # table -> the columns of it that the input carries
    query: str
    params: dict[str, Any]
    schema: pa.Schema
    given: dict[str, pa.Table] | None = None  # tables every partition is given whole: the panel's dates (DATES), ...

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        batches = [b for b in batches if b.num_rows]
        if not batches:
            return
        con = duckdb.connect(config={"threads": 1, "enable_external_access": False})  # Spark runs partitions at once
        try:
            con.execute(MACROS)
            con.register("_rows", pa.Table.from_batches(batches))
            for table, columns in self.columns.items():
                names = ", ".join(columns)  # table and columns: the snapshot's, from sql/schema.sql
                con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM _rows WHERE {TABLE} = ?", [table])
            con.unregister("_rows")
            for table, rows in (self.given or {}).items():
                if table == DATES:
                    con.register(DATES, rows)
                else:  # (a table of sql/schema.sql)
                    con.register("_given", rows)
                    con.execute(f"INSERT INTO {table} SELECT * FROM _given")
                    con.unregister("_given")
            for batch in con.sql(self.query, params=self.params).to_arrow_reader():
                yield batch.cast(self.schema)
        finally:
            con.close()
