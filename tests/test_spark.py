"""Spark over published snapshots (factstore.spark): the panel equals the snapshot store's on every cell (demo and
real SEC data, with and without TTM, every mode, any number of partitions), facts_asof equals the store's macro,
and names and targets are refused as the store refuses them. Local Spark, one session for the module."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

pytest.importorskip("pyspark", reason="the spark set needs the spark extra: pip install -e '.[test,spark]'")
from pyspark.errors import PySparkRuntimeError  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

import factstore
from factstore import spark as fs
from factstore.demo.data import generate
from factstore.errors import FactstoreError, NotFound
from factstore.timing import as_of_timestamp
from tests.helpers import submissions_for

DEMO_CONCEPTS = ["NetIncomeLoss", "SalesRevenueNet", "RevenueFromContractWithCustomerExcludingAssessedTax",
                 "Assets", "us-gaap:Assets", "EarningsPerShareBasic"]
REAL_CONCEPTS = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "NetIncomeLoss", "Assets",
                 "EarningsPerShareBasic", "ifrs-full:Revenue"]
FACT_KEYS = ["entity_id", "concept", "unit", "period_start", "period_end"]
# pyspark warns of pandas 3 on every Arrow UDF; factstore.spark hands Spark Arrow only, never pandas
# the spark set (pyspark is slow to start): `pytest -m spark`
pytestmark = [pytest.mark.spark,
              pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")]


@pytest.fixture(scope="module")
def spark():
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PYSPARK_PYTHON", sys.executable)  # the workers run this interpreter (its packages)
        try:
            session = (SparkSession.builder.master("local[2]").appName("factstore-tests")
                       .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
                       .config("spark.ui.showConsoleProgress", "false").getOrCreate())
        except PySparkRuntimeError as exc:  # the JVM did not start (no Java, or a broken one)
            pytest.skip(f"pyspark cannot start Java here: {exc}")
        session.sparkContext.setLogLevel("ERROR")
        yield session
        session.stop()


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo data published: (target, data)."""
    data = generate(companies=6, html=False)
    target = tmp_path_factory.mktemp("demo-published")
    with factstore.open() as store:
        store.load_course(xbrl=data.xbrl, documents=data.documents, progress=False)
        store.publish(target)
    return target, data


@pytest.fixture(scope="module")
def real_target(real, tmp_path_factory):
    """Every real companyfacts file (with its submissions where present) published: (target, CIKs, the live store's
    count of reports)."""
    files = sorted((real / "companyfacts").glob("CIK*.json"))
    subs = [p for f in files for p in submissions_for(real, f.name) or []]
    target = tmp_path_factory.mktemp("real-published")
    with factstore.open() as store:
        store.load_companyfacts_many(files, subs, progress=False)
        store.publish(target)
        reports = int(store.sql("SELECT count(*) AS n FROM reports")["n"].iloc[0])
    return target, [int(f.stem[3:]) for f in files], reports


def store_panel(target, *args, **kwargs) -> tuple[pd.DataFrame, pa.Table]:
    """The snapshot store's panel, as a frame and as Arrow."""
    with factstore.open(target) as store:
        return store.panel(*args, **kwargs), store.panel_arrow(*args, **kwargs)


def assert_same_panel(spark, target, tickers, concepts, dates, **kwargs) -> pa.Table:
    """The Spark panel has the store panel's Spark types, Arrow types and every cell, in the same order."""
    frame = fs.panel(spark, target, tickers, concepts, dates, **kwargs)
    got = frame.toArrow()
    want_frame, want = store_panel(target, tickers, concepts, dates, ttm=kwargs.get("ttm", False),
                                   mode=kwargs.get("mode", "as_of"), period=kwargs.get("period", "quarter"))
    kinds = {f.name: type(f.dataType) for f in frame.schema.fields}
    assert kinds == {"date": T.TimestampNTZType, "ticker": T.StringType, "concept": T.StringType,
                     "tag": T.StringType, "unit": T.StringType, "fiscal_period": T.StringType,
                     "period_start": T.DateType, "period_end": T.DateType, "age_days": T.LongType,
                     "value": T.DoubleType, "accepted_at": T.TimestampNTZType,
                     "accepted_precision": T.StringType, "derived": T.BooleanType,
                     "filing_id": T.StringType, "form": T.StringType,
                     **({"ttm": T.DoubleType} if kwargs.get("ttm") else {})}
    assert got.schema.equals(want.schema) and got.equals(want)
    cells = got.to_pandas(date_as_object=False)
    assert list(cells.columns) == list(want_frame.columns)
    pd.testing.assert_frame_equal(cells.astype(want_frame.dtypes), want_frame)
    return got


@pytest.mark.parametrize(("ttm", "mode", "partitions"),
                         [(False, "as_of", None), (True, "as_of", None), (True, "first", 5), (True, "latest", 1)])
def test_the_demo_panel_equals_the_stores_on_every_cell(spark, demo, ttm, mode, partitions):
    target, data = demo
    tickers = sorted(data.documents["ticker"].unique())
    tickers += [tickers[0].lower()]  # a second name for the same entity: its rows again, under that name
    accepted = data.documents["ts_presentacion"].dt.tz_convert("UTC").dt.tz_localize(None)
    dates = [*pd.date_range("2017-01-31", "2024-06-30", freq="ME"), *accepted.iloc[::7],
             *(accepted.iloc[::7] + pd.Timedelta(seconds=1))]
    got = assert_same_panel(spark, target, tickers, DEMO_CONCEPTS, dates, ttm=ttm, mode=mode, partitions=partitions)
    assert pc.sum(pc.is_valid(got["value"])).as_py() > 1000
    if ttm:
        assert pc.sum(pc.is_valid(got["ttm"])).as_py() > 100


@pytest.mark.parametrize(("ttm", "period"), [(False, "quarter"), (True, "quarter"), (True, "ttm")])
def test_a_panel_of_metrics_is_read_from_the_snapshots_versions(spark, demo, ttm, period):
    """Concepts and metrics (one merged from two concepts where a company reports both) in mode as_of: the
    partitions read the snapshot's newest_quarters (the cells computed at load), not its reports, and give the
    store's cells."""
    target, data = demo
    tickers = sorted(data.documents["ticker"].unique())
    accepted = data.documents["ts_presentacion"].dt.tz_convert("UTC").dt.tz_localize(None)
    dates = [*pd.date_range("2017-01-31", "2024-06-30", freq="ME"), *accepted.iloc[::5]]
    names = ["revenue", "net_income", "Assets", "EarningsPerShareBasic"]
    read = {Path(f).parent.name for f in fs.panel(spark, target, tickers, names, dates, ttm=ttm,
                                                   period=period).inputFiles()}
    assert "newest_quarters" in read and "reports" not in read
    with factstore.open(target) as store:
        assert store.sql("SELECT count(*) AS n FROM quarter_versions WHERE metric = 'revenue'")["n"][0] > 0
    got = assert_same_panel(spark, target, tickers, names, dates, ttm=ttm, period=period)
    assert pc.sum(pc.is_valid(got["value"])).as_py() > 1000


@pytest.mark.parametrize("ttm", [False, True])
def test_the_real_panel_equals_the_stores_on_every_cell(spark, real_target, ttm):
    target, ciks, _ = real_target
    dates = pd.date_range("2009-03-31", "2026-06-30", freq="QE")
    got = assert_same_panel(spark, target, ciks, REAL_CONCEPTS, dates, ttm=ttm)
    assert set(pc.unique(pc.drop_null(pc.if_else(pc.is_valid(got["value"]), got["ticker"], None))).to_pylist()) \
        >= {"320193", "1045810", "1318605"}


def sorted_facts(table: pa.Table) -> pa.Table:
    return table.sort_by([(k, "ascending") for k in FACT_KEYS])


@pytest.mark.parametrize(("as_of", "mode"), [("2019-06-30", "as_of"), ("2021-02-01 14:00", "as_of"),
                                             (None, "as_of"), ("2020-01-01", "first"), (None, "latest")])
def test_facts_asof_equals_the_stores_macro(spark, demo, as_of, mode):
    target, _ = demo
    got = fs.facts_asof(spark, target, as_of, mode=mode).toArrow()
    with factstore.open(target) as store:
        want = store.relation("SELECT * FROM facts_asof(?, mode := ?)", [as_of_timestamp(as_of), mode]).to_arrow_table()
    assert got.num_rows > 100 and got.schema.equals(want.schema)
    assert sorted_facts(got).equals(sorted_facts(want))


def test_real_facts_asof_and_the_reports_parquet_equal_the_store(spark, real_target):
    target, _, live_reports = real_target
    got = fs.facts_asof(spark, target, "2022-06-30").toArrow()
    with factstore.open(target) as store:
        want = store.relation("SELECT * FROM facts_asof(?)", [as_of_timestamp("2022-06-30")]).to_arrow_table()
        reports = int(store.sql("SELECT count(*) AS n FROM reports")["n"].iloc[0])
    assert sorted_facts(got).equals(sorted_facts(want))
    assert spark.read.parquet(str(target / "current" / "reports")).count() == reports == live_reports > 100_000


def test_names_and_targets_are_refused_as_the_store_refuses_them(spark, demo, tmp_path):
    target, data = demo
    ticker = data.documents["ticker"].iloc[0]
    with factstore.open(target) as store:
        with pytest.raises(NotFound) as by_store:
            store.panel([ticker, "NOSUCH"], ["Assets"], ["2020-01-01"])
        with pytest.raises(NotFound) as concept_by_store:
            store.panel([ticker], ["NoSuchConcept"], ["2020-01-01"])
    with pytest.raises(NotFound) as by_spark:
        fs.panel(spark, target, [ticker, "NOSUCH"], ["Assets"], ["2020-01-01"])
    assert str(by_spark.value) == str(by_store.value)
    with pytest.raises(NotFound) as concept_by_spark:
        fs.panel(spark, target, [ticker], ["NoSuchConcept"], ["2020-01-01"])
    assert str(concept_by_spark.value) == str(concept_by_store.value)
    with pytest.raises(ValueError, match="mode"):
        fs.facts_asof(spark, target, None, mode="sometime")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FactstoreError, match="published"):
        fs.panel(spark, tmp_path / "empty", [ticker], ["Assets"], ["2020-01-01"])
    with pytest.raises(FactstoreError, match="no store there"):
        fs.facts_asof(spark, tmp_path / "missing", None)
    assert not (tmp_path / "missing").exists()
    with factstore.open(tmp_path / "live.duckdb"):
        pass
    with pytest.raises(FactstoreError, match="not a folder a store was published into"):
        fs.facts_asof(spark, tmp_path / "live.duckdb", None)


def test_the_lazy_schemas_are_the_eager_ones():
    """spark's schemas, made on first use (and once), are what the module used to build at import."""
    assert fs.PANEL_ASOF.simpleString() == (
        "struct<date:timestamp_ntz,entity_id:string,item:bigint,concept:string,tag:string,unit:string,"
        "fiscal_period:string,period_start:date,period_end:date,value:double,accepted_at:timestamp_ntz,"
        "accepted_precision:string,derived:boolean,ttm:double,filing_id:string,form:string>")
    assert fs.FACTS_ASOF.simpleString() == (
        "struct<entity_id:string,item:string,concept:string,unit:string,period_start:date,period_end:date,"
        "value:double,filing_id:string,form:string,accepted_at:timestamp_ntz,first_value:double,restated:boolean,"
        "n_versions:bigint>")
    assert fs.PANEL_ASOF is fs.schema("PANEL_ASOF")
