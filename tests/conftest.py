"""Shared fixtures: the real SEC files in ../shared/real (skipped where absent) and the demo data."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import Phase, settings

import factstore

# beside the repository; FACTSTORE_REAL_DATA says where for a copy of the tree elsewhere (scripts/mutants.py)
REAL = Path(os.environ.get("FACTSTORE_REAL_DATA") or Path(__file__).resolve().parents[2] / "shared" / "real")

# CI runs the same examples every time (derandomized, no example database) and prints a failure's blob to
# replay it with @reproduce_failure; development draws new examples each run; a mutation run (HYPOTHESIS_PROFILE=
# mutants) is CI without shrinking, since only whether a test fails matters there. None has deadlines: the
# machine's load is not the code's speed. A test's own @settings(max_examples=...) overrides the profile's.
settings.register_profile("ci", derandomize=True, database=None, max_examples=100, deadline=None, print_blob=True)
settings.register_profile("mutants", settings.get_profile("ci"), phases=[Phase.explicit, Phase.generate])
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))


@pytest.fixture(scope="session")
def real() -> Path:
    if not (REAL / "companyfacts").is_dir():
        pytest.skip(f"real SEC data not found at {REAL} (it lives beside the repository in shared/real)")
    return REAL


def submissions_for(real: Path, cik_file: str) -> list[Path] | None:
    """The submissions JSON (and its paged files) of the companyfacts file's company, if present."""
    stem = Path(cik_file).stem.split("_")[0]
    main = real / "submissions" / f"{stem}.json"
    if not main.exists():
        return None
    return [main, *sorted((real / "submissions").glob(f"{stem}-submissions-*.json"))]


@pytest.fixture
def store():
    with factstore.open() as s:
        yield s


SERVED = ["live", "published"]  # the oracle tests ask both the store and a snapshot published from it


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
