"""The mutation audit's list cannot rot: each mutant's text is in its file exactly once and its tests exist."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "mutants.py"


def test_every_mutant_still_applies():
    spec = importlib.util.spec_from_file_location("mutants", SCRIPT)
    mutants = sys.modules["mutants"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mutants)
    assert len(mutants.MUTANTS) >= 30
    assert mutants.stale() == []
