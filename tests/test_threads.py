"""One store object shared by threads: every answer equals the single-threaded answer, with no error."""

from __future__ import annotations

import os
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import factstore
from factstore.demo.data import generate
from tests.helpers import budget

# 8 threads x 500 calls each under the slow marker; x 5 in the default run (FACTSTORE_THREAD_CALLS: another number)
THREADS, CALLS = 8, int(os.environ.get("FACTSTORE_THREAD_CALLS", 2))


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """A file-backed demo store, loaded and indexed, reopened read-only as a notebook would hold it."""
    data = generate(companies=6)
    path = tmp_path_factory.mktemp("threads") / "store.duckdb"
    with factstore.open(path) as store:
        store.load_course(xbrl=data.xbrl, documents=data.documents, sales=data.sales, progress=False)
        store.index("structure", progress=False)
        store.index("scoped", progress=False)
    store = factstore.open(path, read_only=True)
    yield store, data
    store.close()


def _calls(data) -> list[tuple[str, tuple, dict]]:
    """A pool of distinct calls of every kind, each answer telling its question apart from the others."""
    tickers = sorted(data.documents["ticker"].unique())
    rng = random.Random(11)
    calls: list[tuple[str, tuple, dict]] = []
    for ticker in tickers:
        for year in (2019, 2020, 2021, 2022):
            calls.append(("fact", (ticker, ["Revenues", "SalesRevenueNet",
                                            "RevenueFromContractWithCustomerExcludingAssessedTax"]),
                          {"period": f"FY{year}"}))
            calls.append(("fact", (ticker, "CostOfRevenue"), {"period": f"{year}Q{rng.randint(1, 4)}",
                                                              "as_of": f"{year + 1}-0{rng.randint(1, 9)}-15"}))
        calls.append(("quarters", (ticker, "CostOfRevenue"), {"as_of": f"202{rng.randint(0, 3)}-06-30"}))
        calls.append(("history", (ticker, "CostOfRevenue"), {}))
        calls.append(("ask", (f"cost of revenue of {ticker} in FY2021",), {}))
    ends = data.xbrl[["concepto", "periodo_inicio", "periodo_fin"]].drop_duplicates().head(40)
    for i in range(8):
        batch = pd.DataFrame({
            "entity": [tickers[(i + j) % len(tickers)] for j in range(len(ends))],
            "concept": ends["concepto"].to_numpy(), "period_start": ends["periodo_inicio"].to_numpy(),
            "period_end": ends["periodo_fin"].to_numpy()})
        calls.append(("facts", (batch,), {"as_of": f"202{i % 4}-03-01"}))
    for query in ("riesgos", "ventas netas", "deuda financiera", "dividendo", "litigios"):
        calls.append(("search", (query,), {"k": 4}))
    return calls


def _plain(result):
    """An answer as plain comparable data."""
    if isinstance(result, pd.DataFrame):
        return result.astype(str).to_dict("records")
    if isinstance(result, list):
        return [(h.doc_id, h.spans, round(h.score, 9)) for h in result]
    if hasattr(result, "to_dict"):
        return result.to_dict()
    return result


@budget(CALLS, 500, name="per_thread")
def test_threads_sharing_one_store_get_their_own_answers(shared, per_thread):
    store, data = shared
    calls = _calls(data)
    expected = [_plain(getattr(store, name)(*args, **kwargs)) for name, args, kwargs in calls]
    assert len({repr(e) for e in expected}) > len(calls) * 0.8, "the pool must tell its questions apart"
    start = threading.Barrier(THREADS)

    def worker(seed: int) -> list[str]:
        rng = random.Random(seed)
        start.wait()
        wrong = []
        for _ in range(per_thread):
            i = rng.randrange(len(calls))
            name, args, kwargs = calls[i]
            try:
                got = _plain(getattr(store, name)(*args, **kwargs))
            except Exception as exc:  # noqa: BLE001 - every error is a failure to report
                wrong.append(f"{name}{args[:1]}: {type(exc).__name__}: {exc}")
                continue
            if got != expected[i]:
                wrong.append(f"{name}{args[:1]}{kwargs}: another answer")
        return wrong

    with ThreadPoolExecutor(THREADS) as pool:
        failures = [w for ws in pool.map(worker, range(THREADS)) for w in ws]
    assert not failures, f"{len(failures)} of {THREADS * per_thread} calls went wrong, e.g. {failures[:5]}"


def test_threads_loading_and_reading_one_store(tmp_path):
    """Writers in threads each commit their own transaction; readers never see a half-loaded company."""
    data = generate(companies=4)
    store = factstore.open(tmp_path / "s.duckdb")
    docs = data.documents
    groups = [g for _, g in docs.groupby("ticker")]
    errors: list[str] = []

    def load(group: pd.DataFrame) -> None:
        try:
            store.load_course(xbrl=data.xbrl[data.xbrl["id_doc"].isin(group["id_doc"])], documents=group,
                              progress=False)
        except Exception as exc:  # noqa: BLE001
            errors.append(repr(exc))

    def read() -> None:
        for _ in range(30):
            counts = store.sql("SELECT entity_id, count(*) AS n FROM reports GROUP BY ALL")
            for entity, n in counts.itertuples(index=False):
                full = len(data.xbrl[data.xbrl["id_doc"].isin(docs.loc[docs["ticker"] == entity, "id_doc"])])
                if n != full:
                    errors.append(f"{entity}: saw {n} of {full} reports")

    threads = [threading.Thread(target=load, args=(g,)) for g in groups] + [threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert store.sql("SELECT count(DISTINCT entity_id) AS n FROM reports")["n"][0] == len(groups)
    store.close()


@pytest.mark.slow  # (a minute of the default run; tests/README: moved to the slow set)
def test_searches_racing_loads_of_documents_never_err_and_never_keep_a_stale_index(tmp_path):
    """Threads search while others load filings' documents into the same store object (each load chunks its new
    documents into the stored index): no search errs or returns a hit another search could not slice, and once
    the loads are done a search sees every document."""
    data = generate(companies=6)
    docs = data.documents
    groups = [g for _, g in docs.groupby("ticker")]
    store = factstore.open(tmp_path / "s.duckdb")
    store.load_course(documents=groups[0], progress=False)
    store.index("structure", progress=False)
    errors: list[str] = []
    done = threading.Event()

    def load(group: pd.DataFrame) -> None:
        try:
            store.load_course(documents=group, progress=False)
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(f"load: {exc!r}")

    def search() -> None:
        while not done.is_set():
            try:
                for hit in store.search("revenue risk", k=20):
                    text = store.document(hit.doc_id).text
                    if not all(0 <= a < b <= len(text) for a, b in hit.spans):
                        errors.append(f"{hit.doc_id}: spans {hit.spans} outside its text")
            except Exception as exc:  # noqa: BLE001
                errors.append(f"search: {exc!r}")

    searchers = [threading.Thread(target=search, daemon=True) for _ in range(3)]
    loaders = [threading.Thread(target=load, args=(g,), daemon=True) for g in groups[1:]]
    for t in searchers + loaders:
        t.start()
    for t in loaders:
        t.join(timeout=60)  # a load that hangs fails the test rather than holding it forever
    done.set()
    for t in searchers:
        t.join(timeout=60)
    assert not [t for t in searchers + loaders if t.is_alive()], "a thread still runs after 60 s"
    assert errors == []
    # (every chunk, scored or not: the course's ranking by name, which returns them all)
    everything = [(h.doc_id, h.chunk_no, h.score) for h in store.search("revenue risk", k=10_000,
                                                                          strategy="structure")]
    store.close()
    with factstore.open(tmp_path / "s.duckdb", read_only=True) as fresh:  # what a new reader finds
        assert [(h.doc_id, h.chunk_no, h.score)
                for h in fresh.search("revenue risk", k=10_000, strategy="structure")] == everything
    assert {d for d, _, _ in everything} - set(groups[0]["id_doc"])  # the loaded documents are found too
