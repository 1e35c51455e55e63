"""Helpers shared by the test files (fixtures live in conftest.py): where the real SEC data is, the live and
published ways of asking a store, emptying a store between hypothesis examples, and the test budgets."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

import factstore

# beside the repository; FACTSTORE_REAL_DATA says where for a copy of the tree elsewhere (scripts/mutants.py)
REAL = Path(os.environ.get("FACTSTORE_REAL_DATA") or Path(__file__).resolve().parents[2] / "shared" / "real")


# Apple, NVIDIA, Alphabet and TSMC: the companies factstore.evaluate.ask.load_real loads (conftest's four_companies)
FOUR_COMPANIES = ("CIK0000320193.json", "CIK0001045810.json", "CIK0001652044.json", "CIK0001046179.json")
# every companyfacts file in shared/real (conftest's eight_companies): the four, Tesla, Snowflake, Marvell and LPA
EIGHT_COMPANIES = (*FOUR_COMPANIES, "CIK0001318605.json", "CIK0001640147.json", "CIK0001835632.json",
                   "CIK0001997711.json")


def submissions_for(real: Path, cik_file: str) -> list[Path] | None:
    """The submissions JSON (and its paged files) of the companyfacts file's company, if present."""
    stem = Path(cik_file).stem.split("_")[0]
    main = real / "submissions" / f"{stem}.json"
    if not main.exists():
        return None
    return [main, *sorted((real / "submissions").glob(f"{stem}-submissions-*.json"))]


# The oracle tests ask both the store and a snapshot published from it. The default run asks the live store;
# the published variant (a publish and an open per store, per hypothesis example) runs in the slow set, and
# test_publish.py's parity tests keep a snapshot answering like the live store in the default run.
SERVED = ["live", pytest.param("published", marks=pytest.mark.slow)]


@contextmanager
def served(store: factstore.FactStore, how: str) -> Iterator[factstore.FactStore]:
    """The store itself ('live'), or a snapshot of it published into a temporary folder and opened from there
    ('published'): both must answer alike."""
    if how == "live":
        yield store
        return
    with tempfile.TemporaryDirectory(prefix="factstore-published-") as folder:
        store.publish(folder)
        with factstore.open(folder) as snapshot:
            yield snapshot


def budget(quick: int, full: int, name: str = "examples") -> pytest.MarkDecorator:
    """Parametrize a test over its budget (hypothesis examples, calls...): `quick` in the default run and
    `full` under the slow marker; the test takes it as the argument `name`."""
    return pytest.mark.parametrize(name, [pytest.param(quick, id=f"{name}={quick}"),
                                          pytest.param(full, id=f"{name}={full}", marks=pytest.mark.slow)])


def served_budget(quick: int, full: int) -> pytest.MarkDecorator:
    """Parametrize ("how", "examples") for an oracle test with a budget: the live store at `quick` in the default
    run; the live store and a published snapshot at `full` under the slow marker."""
    return pytest.mark.parametrize(("how", "examples"), [
        pytest.param("live", quick, id=f"live-examples={quick}"),
        pytest.param("live", full, id=f"live-examples={full}", marks=pytest.mark.slow),
        pytest.param("published", full, id=f"published-examples={full}", marks=pytest.mark.slow)])


def examples(n: int, full: int) -> dict:
    """Hypothesis settings for a budget of n examples of a test whose full budget is `full`: below it, the examples
    are derandomized (the same ones every run), so that the test's floors on the cases it met hold every time at
    the smaller budget too; at the full budget the profile decides (dev: new examples each run; ci: the same)."""
    return {"max_examples": n, **({"derandomize": True} if n < full else {})}


def base_tables(store: factstore.FactStore) -> list[str]:
    """The store's base tables (main schema), but schema_version, metric_concepts and quarter_versions_digest,
    which a fresh store already fills."""
    return [name for (name,) in store.sql(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'"
        " AND table_name NOT IN ('schema_version', 'metric_concepts', 'quarter_versions_digest') ORDER BY table_name"
    ).itertuples(index=False)]


def reset(store: factstore.FactStore) -> factstore.FactStore:
    """Empty a store as a fresh factstore.open() leaves it, so that hypothesis examples reuse one store instead
    of opening a new one each (the views and macros stay; only rows go). test_helpers.py checks that a reset
    store answers as a fresh one and that one left unreset does not."""
    deletes = " ".join(f'DELETE FROM "{name}";' for name in base_tables(store))  # names: from duckdb_tables()
    try:  # one transaction, sent at once (a third of the time of one statement a call)
        store.sql(f"BEGIN TRANSACTION; {deletes} COMMIT", write=True)
    except BaseException:
        with suppress(Exception):  # nothing to roll back if BEGIN itself failed
            store.sql("ROLLBACK", write=True)
        raise
    store.db.forget()  # what readers remembered of the tables just emptied (names, aliases, concepts, indexes)
    return store
