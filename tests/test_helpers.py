"""The tests' own helpers (tests/helpers.py): reset(store) leaves a store that answers as a freshly opened one, and
the check says so only of a store that was reset (left unreset, or reset without its caches, it fails)."""

from __future__ import annotations

from functools import cache

import pandas as pd
import pytest

import factstore
from factstore.demo.data import generate
from tests.helpers import base_tables, reset
from tests.samples import companyfacts, course_docs, course_xbrl


@cache
def demo():
    return generate(companies=2)


def load_a(store: factstore.FactStore) -> None:
    """Everything a test may have put in a store: course facts, documents and sales, a stored text index (by the
    first search), SEC JSON."""
    data = demo()
    store.load_course(xbrl=data.xbrl, documents=data.documents, sales=data.sales, progress=False)
    store.search("ventas", k=2)
    store.load_companyfacts(companyfacts(8, ["0000000008-20-000001"], name="Eight Corp"), progress=False)
    store.resolve_entity("8")
    for name in data.documents["ticker"].unique():  # the name, concept and alias caches filled
        store.resolve_entity(name)
        store.fact(name, "Revenues", period="FY2019")


def load_b(store: factstore.FactStore) -> None:
    store.load_course(xbrl=course_xbrl(), documents=course_docs(), progress=False)


def contents(store: factstore.FactStore) -> dict[str, pd.DataFrame]:
    """Every base table's rows in order, but the moments of loading (`loaded_at`), which differ run to run."""
    return {t: store.sql(f"SELECT * EXCLUDE (loaded_at) FROM {t} ORDER BY ALL" if t in ("loads", "ingested")
                         else f"SELECT * FROM {t} ORDER BY ALL") for t in base_tables(store)}  # names: the catalog's


def answers(store: factstore.FactStore) -> list:
    """What a test asks: names resolved, facts, quarters, search, each as its repr; an error is an answer too (its
    type and text)."""
    def asked(call):
        try:
            got = call()
            return repr(got.to_dict() if hasattr(got, "to_dict") else got)  # repr: NaN is NaN
        except Exception as exc:  # noqa: BLE001 - the same error from both stores is the same answer
            return f"{type(exc).__name__}: {exc}"

    tickers = sorted(demo().documents["ticker"].unique())
    out = [asked(lambda n=name: store.resolve_entity(n)) for name in ("RPS", "Rapsa", "8", "Eight Corp", *tickers)]
    out += [asked(lambda c=concept: store.fact("RPS", c, period="FY2019")) for concept in ("Revenues", "CostOfRevenue")]
    out.append(asked(lambda: store.quarters("RPS", "Revenues").to_dict("records")))
    out.append(asked(lambda: [(h.doc_id, h.spans) for h in store.search("ventas item", k=2)]))
    return out


def assert_as_fresh(store: factstore.FactStore) -> None:
    """`store`, then loaded with B, holds and answers as a store freshly opened and loaded with B."""
    with factstore.open() as fresh:
        held = contents(store)
        assert held.keys() == contents(fresh).keys() and all(len(rows) == 0 for rows in held.values())
        assert store.sql("SELECT * FROM schema_version").equals(fresh.sql("SELECT * FROM schema_version"))
        load_b(store)
        load_b(fresh)
        held = contents(store)
        for table, rows in contents(fresh).items():
            pd.testing.assert_frame_equal(held[table], rows, obj=table)
        assert answers(store) == answers(fresh)


def test_a_reset_store_holds_and_answers_as_a_fresh_one(store):
    load_a(store)
    assert_as_fresh(reset(store))
    reset(store)  # and again: reset is not once only
    load_a(store)
    assert_as_fresh(reset(store))


def test_the_check_fails_for_a_store_left_as_it_was(store):
    load_a(store)
    with pytest.raises(AssertionError):
        assert_as_fresh(store)


def test_the_check_fails_for_a_store_emptied_without_its_caches(store):
    """Rows deleted as reset deletes them, the store object's caches kept: the names still resolve as before."""
    load_a(store)
    for table in base_tables(store):
        store.sql(f"DELETE FROM {table}", write=True)  # names: the catalog's
    with pytest.raises(AssertionError):
        assert_as_fresh(store)
