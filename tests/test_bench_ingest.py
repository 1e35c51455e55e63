"""scripts/bench_ingest.py's one-company-into-a-new-store section stops, printing no ratio, when its baseline did not
do the work: edgartools counted no facts, or far fewer than the store holds. Behaviour, not timing."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.samples import companyfacts

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_ingest.py"


@pytest.fixture
def bench():
    spec = importlib.util.spec_from_file_location("bench_ingest", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def company(tmp_path) -> Path:
    path = tmp_path / "CIK0000000008.json"
    path.write_text(json.dumps(companyfacts(8, ["0000000008-20-000001", "0000000008-21-000001"])))
    return path


@pytest.mark.parametrize("share", [0, 0.5])
def test_a_baseline_that_counted_no_or_far_fewer_facts_is_refused(bench, company, monkeypatch, share):
    stored = []
    real = bench.into_new_store

    def counting(path, target):
        stored.append(real(path, target))
        return stored[-1]

    monkeypatch.setattr(bench, "into_new_store", counting)
    monkeypatch.setattr(bench, "edgartools_facts", lambda path: int(share * stored[-1]))
    with pytest.raises(SystemExit, match=rf"edgartools made {int(share * 5)} facts of {company.name}, we stored 5"):
        bench.one_company([company], repeat=1)
    assert stored == [5]  # refused after the first, untimed pass


def test_a_baseline_that_made_our_facts_is_timed(bench, company, monkeypatch):
    monkeypatch.setattr(bench, "edgartools_facts", lambda path: 5)
    [(ours, ours_s, theirs, theirs_s)] = bench.one_company([company], repeat=2).values()
    assert (ours, theirs) == (5, 5)
    assert ours_s > 0 and theirs_s > 0
