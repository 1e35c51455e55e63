"""scripts/bench_panel.py's baseline, asof_panel (pandas merge_asof), on hand-made facts whose answer follows from
its definition: for each date, the newest 3-month period or instant among the facts accepted strictly before it,
with the value of its latest filing then. Behaviour, not timing."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_panel.py"
spec = importlib.util.spec_from_file_location("bench_panel", SCRIPT)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

NI, ASSETS = "us-gaap:NetIncomeLoss", "us-gaap:Assets"


def fact(concept: str, start: str | None, end: str, value: float, accepted: str, filing: str,
         unit: str = "USD") -> dict:
    return {"entity_id": "E", "concept": concept, "unit": unit, "period_start": pd.Timestamp(start or pd.NaT),
            "period_end": pd.Timestamp(end), "value": value, "accepted_at": pd.Timestamp(accepted),
            "form": "10-Q", "filing_id": filing}


FACTS = pd.DataFrame([
    fact(NI, "2020-01-01", "2020-03-31", 10.0, "2020-05-01 00:00", "a"),  # Q1, accepted at midnight
    fact(NI, "2020-04-01", "2020-06-30", 20.0, "2020-08-01 12:00", "b"),  # Q2
    fact(NI, "2019-04-01", "2019-06-30", 99.0, "2020-08-01 12:00", "b"),  # its prior-year comparative
    fact(NI, "2020-01-01", "2020-06-30", 30.0, "2020-08-01 12:00", "b"),  # the half year: no quarter
    fact(NI, "2020-04-01", "2020-06-30", 2e9, "2020-08-01 12:00", "b", unit="EUR"),  # another unit
    fact(ASSETS, None, "2020-06-30", 500.0, "2020-08-01 12:00", "b"),
    fact(NI, "2020-04-01", "2020-06-30", 21.0, "2020-09-01 12:00", "c"),  # Q2 restated
    fact(NI, "2020-01-01", "2020-03-31", 11.0, "2020-11-01 12:00", "d"),  # Q1 restated: an older period
])
DATES = pd.DatetimeIndex(["2020-04-30", "2020-05-01", "2020-05-02", "2020-08-02", "2020-09-02", "2020-11-02"])


def test_each_date_takes_the_newest_quarter_known_strictly_before_it_as_last_filed():
    got = bench.asof_panel(FACTS, DATES).set_index(["date", "concept"])
    assert len(got) == len(DATES) * 2 and (got["entity_id"] == "E").all()
    income = got.xs(NI, level="concept")
    # midnight of 05-01 does not see the Q1 accepted at that instant; the half year, the comparative, the EUR row and
    # the later restatement of the older Q1 never replace the newest quarter's value
    assert [None if pd.isna(v) else v for v in income["value"]] == [None, None, 10.0, 20.0, 21.0, 21.0]
    assert income["period_end"].tolist()[2:] == [pd.Timestamp("2020-03-31")] + [pd.Timestamp("2020-06-30")] * 3
    assets = got.xs(ASSETS, level="concept")["value"]
    assert assets.isna().tolist() == [True, True, True, False, False, False] and assets.iloc[3:].eq(500.0).all()


def test_cells_compare_by_kind_with_derived_quarters_apart():
    key = {"entity_id": "E", "concept": NI}
    ours = pd.DataFrame([{**key, "date": pd.Timestamp(d), "fiscal_period": "2020Q1", "period_end": pd.Timestamp(e),
                          "value": v, "derived": x} for d, e, v, x in [
        ("2020-05-02", "2020-03-31", 10.0, False), ("2020-06-02", "2020-03-31", 10.0 * (1 + 1e-6), False),
        ("2020-07-02", "2020-06-30", 5.0, True), ("2020-08-02", "2020-06-30", 20.0, False),
        ("2020-09-02", "2020-06-30", None, False)]])
    base = pd.DataFrame([{**key, "date": pd.Timestamp(d), "period_end": pd.Timestamp(e), "value": v} for d, e, v in [
        ("2020-05-02", "2020-03-31", 10.0 * (1 + 1e-12)), ("2020-06-02", "2020-03-31", 10.0),
        ("2020-07-02", "2020-03-31", 10.0), ("2020-09-02", "2020-06-30", 20.0)]])
    kinds = bench.compare(ours, base).set_index("date")["kind"].to_dict()
    assert kinds == {pd.Timestamp("2020-05-02"): "equal", pd.Timestamp("2020-06-02"): "unequal",
                     pd.Timestamp("2020-07-02"): "derived", pd.Timestamp("2020-08-02"): "ours_only",
                     pd.Timestamp("2020-09-02"): "baseline_only"}
