"""scripts/bench_xbrl.py's fixed-cost run works on the store as it is: each one-fact filing it loads is a new 10-K
(a store holds one per company and period, so a bench reusing the period stopped at its second load). Behaviour, not
timing."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_xbrl.py"


def test_the_fixed_cost_run_loads_every_filing(capsys, monkeypatch):
    spec = importlib.util.spec_from_file_location("bench_xbrl", SCRIPT)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
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
