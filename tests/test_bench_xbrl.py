"""scripts/bench_xbrl.py's fixed-cost run works on the store as it is: each one-fact filing it loads is a new 10-K
(a store holds one per company and period, so a bench reusing the period stopped at its second load); and its
comparison refuses a baseline that read no facts. Behaviour, not timing."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_xbrl.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_xbrl", SCRIPT)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def one_file_bench(tmp_path, monkeypatch):
    """The script, its comparison pointed at one one-fact instance (four facts by our reader)."""
    bench = load_bench()
    (tmp_path / "tiny.xml").write_text(bench.tiny(0)[0])
    monkeypatch.setattr(bench, "INSTANCES", ["tiny.xml"])
    monkeypatch.setattr(bench, "INLINE", [])
    return bench


def test_the_comparison_refuses_a_baseline_that_read_no_facts(tmp_path, monkeypatch):
    bench = one_file_bench(tmp_path, monkeypatch)
    with pytest.raises(SystemExit, match=r"Fake read 0 facts from tiny\.xml, ours 4"):
        bench.compare(tmp_path, 1, {"Fake": lambda path: lambda: 0}, {})


def test_the_comparison_prints_both_counts_of_a_baseline_that_read_the_facts(tmp_path, monkeypatch, capsys):
    bench = one_file_bench(tmp_path, monkeypatch)
    bench.compare(tmp_path, 1, {"Fake": lambda path: lambda: 3}, {})
    out = capsys.readouterr().out
    assert re.search(r"^tiny\.xml +4 +[\d.]+ +3 +[\d.]+ +[\d.]+x$", out, re.M), out
    assert "Fake / ours:" in out


def test_the_fixed_cost_run_loads_every_filing(capsys, monkeypatch):
    bench = load_bench()
    loaded = []
    real_open = bench.factstore.open

    def counting_open(*args, **kwargs):
        store = real_open(*args, **kwargs)
        loaded.append(store)
        return store

    monkeypatch.setattr(bench.factstore, "open", counting_open)
    bench.fixed_cost(1)
    line = capsys.readouterr().out
    assert re.search(r"read [\d.]+ ms; read and loaded [\d.]+ ms \(median of 4 loads\); its six inserts alone, "
                     r"unchecked, [\d.]+ ms", line), line
    assert len(loaded) == 1
