"""Shared fixtures: the real SEC files in ../shared/real (skipped where absent), the real-data stores built once
per run, and the hypothesis profiles. Helpers the test files import are in tests/helpers.py."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import Phase, settings

import factstore
from factstore.evaluate.ask import load_real
from tests.helpers import EIGHT_COMPANIES, FOUR_COMPANIES, REAL, submissions_for
from tests.metric_oracle import Company

# CI runs the same examples every time (derandomized, no example database) and prints a failure's blob to
# replay it with @reproduce_failure; development draws new examples each run; a mutation run (HYPOTHESIS_PROFILE=
# mutants) is CI without shrinking, since only whether a test fails matters there. None has deadlines: the
# machine's load is not the code's speed. A test's own @settings(max_examples=...) overrides the profile's; the
# slow ones take theirs from helpers.budget (fewer in the default run, all of them under the slow marker).
settings.register_profile("ci", derandomize=True, database=None, max_examples=100, deadline=None, print_blob=True)
settings.register_profile("mutants", settings.get_profile("ci"), phases=[Phase.explicit, Phase.generate])
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))


# the longest modules of the default run, started first so that the two processes finish together (--dist worksteal
# splits the tests in the order collected, and a process that is done takes over the other's remaining ones)
LONGEST = ("test_facts_properties.py", "test_threads.py", "test_sec_ingest.py", "test_fsds.py", "test_publish.py",
           "test_stored_index.py")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that takes the real SEC data (the `real` fixture, or one built on it) is marked `real`, so that
    `-m real` selects it (before -m deselects: tryfirst). The longest modules go first, each in its own order."""
    for item in items:
        if "real" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.real)
    rank = {name: i for i, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONGEST)))  # stable: the rest as collected


@pytest.fixture(scope="session")
def real() -> Path:
    if not (REAL / "companyfacts").is_dir():
        pytest.skip(f"real SEC data not found at {REAL} (it lives beside the repository in shared/real)")
    return REAL


@pytest.fixture
def store():
    with factstore.open() as s:
        yield s


@pytest.fixture
def blank_store():
    """One in-memory store for all of a test's hypothesis examples: each example empties it with
    helpers.reset(blank_store) first, instead of opening a store of its own (~0.4 s an example)."""
    with factstore.open() as s:
        yield s


# ------------------------------------------------------------------------------ stores built once per run
@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` across processes (the xdist workers)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _companies(names: tuple[str, ...]) -> Callable[[factstore.FactStore, Path], None]:
    """A build loading these companyfacts files, each with its submissions where shared/real has them (Alphabet,
    Snowflake and LPA have none: they are known without tickers)."""
    def load(s: factstore.FactStore, real: Path) -> None:
        for name in names:
            s.load_companyfacts(real / "companyfacts" / name, submissions_for(real, name), progress=False)
    return load


BUILDS: dict[str, Callable[[factstore.FactStore, Path], None]] = {
    "four-companies": _companies(FOUR_COMPANIES),  # Apple, NVIDIA, Alphabet and TSMC's companyfacts (no documents)
    "eight-companies": _companies(EIGHT_COMPANIES),  # the same, Tesla, Snowflake, Marvell and LPA (no documents)
    "load-real": load_real,  # the same and their 10-Ks, as factstore.evaluate.ask.load_real loads them
}


@pytest.fixture(scope="session")
def built(real, tmp_path_factory) -> Callable[[str], Path]:
    """built(name): a store file filled by BUILDS[name] from the real data, built once for the whole run: the
    first xdist worker to ask builds it (under another name, then renamed into place) while the others wait on a
    lock. Each call gets a copy of its own, which it may open for writing as a test would open its own store."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "built"  # the workers' parent
    mine = tmp_path_factory.mktemp("built")

    def build(name: str) -> Path:
        done = shared / f"{name}.duckdb"
        with _locked(shared / f"{name}.lock"):
            if not done.exists():
                partial = shared / f"{name}.partial"
                partial.unlink(missing_ok=True)
                with factstore.open(partial) as s:
                    BUILDS[name](s, real)
                partial.rename(done)
        copy = mine / f"{name}-{len(list(mine.iterdir()))}.duckdb"
        shutil.copyfile(done, copy)
        return copy

    return build


@pytest.fixture(scope="session")
def four_companies(built) -> Iterator[factstore.FactStore]:
    """Apple, NVIDIA, Alphabet and TSMC's companyfacts (with submissions where present), no documents; one store
    for the session (tests reading it must not write)."""
    with factstore.open(built("four-companies")) as s:
        yield s


@pytest.fixture(scope="session")
def eight_companies(built) -> Iterator[factstore.FactStore]:
    """Every companyfacts file in shared/real (Apple, NVIDIA, Alphabet, TSMC, Tesla, Snowflake, Marvell, LPA), with
    submissions where present, no documents; one store for the session (tests reading it must not write)."""
    with factstore.open(built("eight-companies")) as s:
        yield s


@pytest.fixture(scope="session")
def accepted(eight_companies) -> dict[str, datetime]:
    """Each filing's acceptance in the eight companies' store, UTC: the one input the metric oracle takes from it."""
    rows = eight_companies.sql("SELECT filing_id, accepted_at FROM filings").itertuples(index=False)
    return {filing_id: at.to_pydatetime().replace(tzinfo=UTC) for filing_id, at in rows}


@pytest.fixture(scope="session")
def oracle(real, accepted) -> dict[str, Company]:
    """tests/metric_oracle.py's reading of each of the eight companyfacts files, by file name."""
    return {name: Company(real / "companyfacts" / name, accepted) for name in EIGHT_COMPANIES}


@pytest.fixture(scope="session")
def real_store(built) -> Iterator[factstore.FactStore]:
    """The four companies' facts and their 10-K documents, as factstore.evaluate.ask.load_real loads them; one
    store for the session (tests reading it must not write)."""
    with factstore.open(built("load-real")) as s:
        yield s
