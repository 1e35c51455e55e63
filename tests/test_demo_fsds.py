"""The synthetic FSDS quarter (factstore.demo.fsds): deterministic, in the SEC's layout, and loadable by load_fsds."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from factstore.demo.fsds import FILES, write_quarter

KEY = ["adsh", "tag", "version", "ddate", "qtrs", "uom", "segments", "coreg"]
SMALL = {"submissions": 40, "rows": 4000}


def read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE)


@pytest.fixture(scope="module")
def quarter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_quarter(tmp_path_factory.mktemp("fsds") / "2024q4", **SMALL)


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    one = write_quarter(tmp_path / "one", **SMALL, zip_name="q.zip")
    two = write_quarter(tmp_path / "two", **SMALL, zip_name="q.zip")
    other = write_quarter(tmp_path / "other", **SMALL, seed=8)
    assert one.read_bytes() == two.read_bytes()
    for name in FILES:
        assert (one.parent / name).read_bytes() == (two.parent / name).read_bytes()
    assert (one.parent / "num.txt").read_bytes() != (other / "num.txt").read_bytes()


def test_sec_layout(quarter: Path, real: Path) -> None:
    for name, sample in (("sub.txt", "2009q3"), ("num.txt", "apple_10k_2024"), ("tag.txt", "2009q3")):
        header = (real / "fsds" / sample / name).read_text(encoding="latin-1").splitlines()[0]
        lines = (quarter / name).read_text(encoding="latin-1").splitlines()
        assert lines[0] == header
        assert {line.count("\t") for line in lines} == {header.count("\t")}


def test_keys_accessions_and_amendments(quarter: Path) -> None:
    sub, num = read(quarter / "sub.txt"), read(quarter / "num.txt")
    assert len(sub) == SMALL["submissions"] and len(num) == SMALL["rows"]
    assert not num.duplicated(KEY).any()
    assert sub["adsh"].is_unique and sub["adsh"].str.fullmatch(r"\d{10}-\d{2}-\d{6}").all()
    assert set(num["adsh"]) <= set(sub["adsh"])
    assert (sub.groupby("cik")["name"].nunique() == 1).all() and (sub.groupby("name")["cik"].nunique() == 1).all()
    assert sub["accepted"].str.fullmatch(r"2024-\d\d-\d\d (0[6-9]|1\d|2[01]):\d\d:00\.0").all()
    # a company files twice only to amend: its original, accepted first, is marked prevrpt=1
    twice = sub[sub.duplicated("cik", keep=False)].sort_values(["cik", "accepted"])
    assert len(twice) and twice["prevrpt"].eq("1").sum() == len(twice) // 2
    for (_, original), (_, amendment) in zip(*[twice.iloc[i::2].iterrows() for i in (0, 1)], strict=True):
        assert original["cik"] == amendment["cik"] and amendment["form"] == original["form"] + "/A"
        assert (original["prevrpt"], amendment["prevrpt"], original["period"]) == ("1", "0", amendment["period"])


def test_loads_every_standard_value_once(quarter: Path, store) -> None:
    num = read(quarter / "num.txt")
    kept = num[(num["value"] != "") & (num["version"] != num["adsh"])]
    assert len(kept) < len(num)  # the quarter has custom tags and nil values to leave out
    report = store.load_fsds(quarter, progress=False)[0]
    assert (report.filings, report.reports) == (SMALL["submissions"], len(kept))
    stored = store.sql("SELECT count(*) AS n, count(*) FILTER (WHERE contains(concept, '|')) AS dims FROM reports")
    assert int(stored["n"][0]) == len(kept)
    assert int(stored["dims"][0]) == int(((kept["segments"] != "") | (kept["coreg"] != "")).sum())
    again = store.load_fsds(quarter, progress=False)[0]
    assert (again.entities, again.filings, again.reports) == (0, 0, 0)
    assert int(store.sql("SELECT count(*) AS n FROM reports")["n"][0]) == len(kept)
