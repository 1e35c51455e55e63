"""scripts/make_market.py: a synthetic market made from the real companyfacts, as the SEC's bulk zips. Each
generated company is checked against the real file it was made from (company i from file i mod 8, sorted), by
walking both JSON documents side by side; and the zips load offline into a store of exactly those companies."""

from __future__ import annotations

import importlib.util
import re
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest

import factstore

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "make_market.py"
N = 10  # all eight sources, and the first two again under other CIKs
ACCESSION = re.compile(r"(\d{10})-\d{2}-\d{6}")


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("make_market", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def market(real: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The market of N companies made twice with seed 7 (the second as if on another day) and once with seed 8."""
    make = _script().make_market
    folders = {}
    for key, seed in (("a", 7), ("b", 7), ("other", 8)):
        folders[key] = tmp_path_factory.mktemp(f"market-{key}")
        with pytest.MonkeyPatch.context() as patch:
            if key == "b":
                patch.setattr(time, "time", lambda: 981_173_106.0)  # 2001-02-03
            make(N, seed, folders[key], real)
    return folders


def _members(path: Path) -> dict[str, Any]:
    with zipfile.ZipFile(path) as z:
        return {name: orjson.loads(z.read(name)) for name in z.namelist()}


def _entries(facts: dict[str, Any]) -> list[tuple[tuple, dict[str, Any]]]:
    """Each fact entry with its (taxonomy, concept, unit, start, end), in document order."""
    return [((t, c, u, e.get("start"), e["end"]), e) for t, concepts in facts["facts"].items()
            for c, body in concepts.items() for u, listed in body["units"].items() for e in listed]


def _recent(page: dict[str, Any]) -> dict[str, Any]:
    return page["filings"]["recent"] if "filings" in page else page


def _sources(real: Path) -> list[Path]:
    return sorted((real / "companyfacts").glob("CIK??????????.json"))


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_values(market):
    for name in ("companyfacts.zip", "submissions.zip"):
        assert (market["a"] / name).read_bytes() == (market["b"] / name).read_bytes()
    ours, other = _members(market["a"] / "companyfacts.zip"), _members(market["other"] / "companyfacts.zip")
    assert sorted(ours) == sorted(other)
    for name in ours:
        pairs = list(zip(_entries(ours[name]), _entries(other[name]), strict=True))
        assert all(a["accn"] == b["accn"] for (_, a), (_, b) in pairs)
        changed = sum(a["val"] != b["val"] for (_, a), (_, b) in pairs if abs(a["val"]) >= 10_000)
        assert changed > 0.9 * sum(abs(a["val"]) >= 10_000 for (_, a), _ in pairs), name


class Factors:
    """A stand-in for numpy's Generator: every factor the same."""

    def __init__(self, factor: float) -> None:
        self.factor = factor

    def uniform(self, low: float, high: float, size: int) -> np.ndarray:
        assert (low, high) == (0.995, 1.005)
        return np.full(size, self.factor)


def test_a_period_whose_values_the_perturbation_would_merge_keeps_its_real_ones(tmp_path):
    """199 and 200 both become 199 at 0.995 (an integer moves by the whole part of its change): that period keeps
    199 and 200, while another period's values move."""
    facts = {"cik": 1, "entityName": "A", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [
        {"end": "2020-12-31", "val": 199, "accn": "0000000001-21-000001"},
        {"end": "2020-12-31", "val": 200, "accn": "0000000001-22-000001"},
        {"end": "2021-12-31", "val": 1000, "accn": "0000000001-22-000001"},
        {"end": "2021-12-31", "val": 1000, "accn": "0000000001-23-000001"},
        {"end": "2021-12-31", "val": 2.5, "accn": "0000000001-23-000002"}]}}}}}
    (tmp_path / "CIK0000000001.json").write_bytes(orjson.dumps(facts))
    script = _script()
    source = script.load_source(tmp_path / "CIK0000000001.json", tmp_path / "none")
    assert script.perturbed(source, Factors(0.995)).tolist() == [199, 200, 995, 995, 2.4875]
    assert script.perturbed(source, Factors(1.0045)).tolist() == [199, 200, 1004, 1004, pytest.approx(2.51125)]


def test_ciks_names_tickers_and_accessions_are_new_distinct_and_valid(market, real):
    facts, subs = _members(market["a"] / "companyfacts.zip"), _members(market["a"] / "submissions.zip")
    assert list(facts) == sorted(facts) and list(subs) == sorted(subs)  # members in order
    real_ciks = {int(p.name[3:13]) for p in (real / "submissions").glob("CIK*.json")} | \
        {int(p.name[3:13]) for p in _sources(real)}
    ciks = [int(d["cik"]) for d in facts.values()]
    assert [int(name[3:13]) for name in facts] == ciks and len(set(ciks)) == N and not set(ciks) & real_ciks
    assert len({d["entityName"] for d in facts.values()}) == N
    seen: dict[str, int] = {}
    for d in facts.values():
        for _, e in _entries(d):
            match = ACCESSION.fullmatch(e["accn"])
            assert match and int(match.group(1)) == int(d["cik"]), e["accn"]
            assert seen.setdefault(e["accn"], int(d["cik"])) == int(d["cik"])  # no accession of two companies
    mains = {name: d for name, d in subs.items() if "filings" in d}
    assert all(int(d["cik"]) == int(name[3:13]) and d["name"] == facts[name]["entityName"]
               for name, d in mains.items())
    listed = [(name, f["name"]) for name, d in mains.items() for f in d["filings"]["files"]]
    assert listed and all(page in subs and page[3:13] == name[3:13] for name, page in listed)  # its own pages
    tickers = [t for d in mains.values() for t in d["tickers"]]
    assert tickers and len(tickers) == len(set(tickers))
    for name, d in subs.items():
        assert all(ACCESSION.fullmatch(a) and a[:10] == name[3:13] for a in _recent(d)["accessionNumber"])


def test_each_value_is_within_half_a_percent_and_accessions_map_one_to_one(market, real):
    """Side by side with its source, everything but the values and accessions is the same; each value is within
    0.5% of its source (an integer stays one), and one real accession is one new accession, the same in the
    companyfacts and in the submissions files, whose other columns are unchanged."""
    facts, subs = _members(market["a"] / "companyfacts.zip"), _members(market["a"] / "submissions.zip")
    sources = _sources(real)
    for i, (name, ours) in enumerate(facts.items()):
        source = orjson.loads(sources[i % len(sources)].read_bytes())
        mapping: dict[str, str] = {}
        for (key, new), (real_key, old) in zip(_entries(ours), _entries(source), strict=True):
            assert key == real_key and {k: v for k, v in new.items() if k not in ("val", "accn")} == \
                {k: v for k, v in old.items() if k not in ("val", "accn")}
            assert type(new["val"]) is type(old["val"])
            assert abs(new["val"] - old["val"]) <= 0.005 * abs(old["val"]) * (1 + 1e-12), (key, old, new)
            assert mapping.setdefault(old["accn"], new["accn"]) == new["accn"]
        real_pages = sorted((real / "submissions").glob(f"{sources[i % len(sources)].stem}*.json"))
        ours_pages = sorted(n for n in subs if n[3:13] == name[3:13])
        assert [p.name[13:] for p in real_pages] == [n[13:] for n in ours_pages]  # none where the source has none
        for path, page in zip(real_pages, ours_pages, strict=True):
            old, new = _recent(orjson.loads(path.read_bytes())), _recent(subs[page])
            assert {k: v for k, v in old.items() if k != "accessionNumber"} == \
                {k: v for k, v in new.items() if k != "accessionNumber"}
            for a, b in zip(old["accessionNumber"], new["accessionNumber"], strict=True):
                assert mapping.setdefault(a, b) == b, (page, a)
        assert len(set(mapping.values())) == len(mapping)


def test_a_repeated_value_stays_one_value_and_a_restatement_stays_a_restatement(market, real):
    """Within a (concept, unit, period), two entries have equal values exactly where their sources do."""
    facts = _members(market["a"] / "companyfacts.zip")
    sources = _sources(real)
    repeated = restated = 0
    for i, ours in enumerate(facts.values()):
        pairs = zip(_entries(ours), _entries(orjson.loads(sources[i % len(sources)].read_bytes())), strict=True)
        classes: dict[tuple, dict[Any, set]] = {}
        for (key, new), (_, old) in pairs:
            classes.setdefault(key, {}).setdefault(old["val"], set()).add(new["val"])
        for by_value in classes.values():
            news = [v for values in by_value.values() for v in values]
            assert all(len(values) == 1 for values in by_value.values())  # one real value, one new value
            assert len(set(news)) == len(news)  # two real values, two new values
            repeated += 1
            restated += len(by_value) > 1
    assert restated > 100 and repeated > restated  # the sources have both


def test_the_zips_load_offline_into_a_store_of_exactly_those_companies(market):
    facts = _members(market["a"] / "companyfacts.zip")
    expected = sum(len(_entries(d)) for d in facts.values())
    with factstore.open() as store:
        reports = store.fetch_bulk(market["a"] / "companyfacts.zip", submissions=market["a"] / "submissions.zip",
                                   progress=False)
        assert [r.error for r in reports] == [None] * N
        assert sorted(store.sql("SELECT cik FROM entities")["cik"].tolist()) == sorted(int(d["cik"])
                                                                                       for d in facts.values())
        assert store.sql("SELECT count(*) n FROM reports")["n"][0] == expected
        # a filing the submissions list is accepted at its second there: the accessions match across the zips
        with zipfile.ZipFile(market["a"] / "submissions.zip") as z:
            listed = {a for n in z.namelist() for a in _recent(orjson.loads(z.read(n)))["accessionNumber"]}
        precision = store.sql("SELECT filing_id, accepted_precision FROM filings")
        both = precision[precision["filing_id"].isin(listed)]
        assert len(both) > 100 and set(both["accepted_precision"]) == {"second"}
