"""close() with calls in flight, and no background query outliving its load (issue #44, item 15)."""

from __future__ import annotations

import threading
import time

import pytest

import factstore
from factstore import FactstoreError, write
from tests.test_trust_write import _companyfacts_text


def test_close_waits_for_the_calls_in_flight_and_refuses_new_ones():
    store = factstore.open(None)
    store.sql("CREATE TABLE t AS SELECT range AS i FROM range(2000000)", write=True)
    started, stop, errors, done = threading.Barrier(9), threading.Event(), [], []

    def reader():
        started.wait()
        while not stop.is_set():
            try:
                began = time.perf_counter()
                store.sql("SELECT sum(i * i) FROM t")
                done.append((began, time.perf_counter()))
            except FactstoreError as exc:
                errors.append(str(exc))
                return

    threads = [threading.Thread(target=reader) for _ in range(8)]
    for t in threads:
        t.start()
    started.wait()
    time.sleep(0.3)  # every reader is inside a query, or between two
    closing = time.perf_counter()
    store.close()  # DuckDB refused: "connection is busy with another call"
    closed = time.perf_counter()
    stop.set()
    for t in threads:
        t.join(10)
    assert done, "no reader got an answer before close()"
    # a query answered that began before close() was in flight then: close() returned only once it had ended
    assert all(end <= closed for began, end in done if began < closing)
    assert errors == [":memory:: the store is closed"] * len(errors)
    with pytest.raises(FactstoreError, match="the store is closed"):
        store.sql("SELECT 1")
    with pytest.raises(FactstoreError, match="the store is closed"):  # this thread's cursor is closed: never reached
        store.relation("SELECT 1")
    store.close()  # closing again is harmless


def test_close_returns_only_once_a_long_query_in_flight_has_answered():
    store = factstore.open(None)
    answer, ended = [], []

    def reader():
        answer.append(int(store.sql("SELECT count(*) FROM range(150000000) WHERE range % 7 = 0").iloc[0, 0]))
        ended.append(time.perf_counter())

    thread = threading.Thread(target=reader)
    thread.start()
    time.sleep(0.2)  # the query is in flight
    store.close()
    closed = time.perf_counter()
    thread.join(30)
    assert answer == [150000000 // 7 + 1] and ended and ended[0] <= closed


def test_a_load_waits_for_the_query_it_started_beside_its_writes(store, tmp_path, monkeypatch):
    """The repeat check runs on another connection; a load that did not need its answer (its filings stored before)
    returned while it still ran, and its errors were never seen."""
    finished = []
    distinct_keys = write._distinct_keys

    def slow(db, reports):
        time.sleep(0.4)
        result = distinct_keys(db, reports)
        finished.append(True)
        return result

    path = _companyfacts_text(tmp_path, "5")
    store.load_companyfacts(path)
    monkeypatch.setattr(write, "_distinct_keys", slow)
    store.load_companyfacts(path)  # every filing stored: not fresh
    assert finished == [True]
    store.close()


def test_an_error_of_the_query_beside_the_writes_is_seen(store, tmp_path, monkeypatch):
    def broken(db, reports):
        raise RuntimeError("the query beside the writes failed")

    path = _companyfacts_text(tmp_path, "5")
    store.load_companyfacts(path)
    monkeypatch.setattr(write, "_distinct_keys", broken)
    with pytest.raises(RuntimeError, match="beside the writes"):
        store.load_companyfacts(path)
