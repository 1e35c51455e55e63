"""Shared fixtures: the real SEC files in ../shared/real (skipped where absent) and the demo data."""

from __future__ import annotations

from pathlib import Path

import pytest

import factstore

REAL = Path(__file__).resolve().parents[2] / "shared" / "real"


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
