"""Generate a synthetic market from the real companyfacts (and submissions) in ../shared/real, as the SEC's bulk
archives `companyfacts.zip` and `submissions.zip`, at any number of companies.

Company i (from 0) is made from the real companyfacts file i mod 8 (sorted by CIK):

- CIK BASE_CIK + 1 + i (above every CIK the SEC has assigned), a made-up name and ticker(s), all distinct;
- every value times a factor drawn in [0.995, 1.005], one factor per (concept, unit, period), so that a value
  repeated by later filings stays one value and a restatement stays a restatement (where the perturbation would
  merge two values of a period, that period keeps its real values); an integral value moves by the whole part
  of its change (it stays integral and within 0.5%), others are multiplied;
- accessions renumbered `{new CIK}-{yy}-{n:06d}` (yy: the real accession's year), the same real accession to the
  same new one in the company's companyfacts and submissions;
- the real company's submissions JSON and paged files, where ../shared/real/submissions has them, with the new
  CIK, name, tickers and accessions (dates and acceptance times unchanged); former names dropped.

Company i is the same at any --companies (a smaller market is a prefix of a larger one), the factors of company i
come from (--seed, i), and the same arguments give byte-identical zips.

    .venv/bin/python scripts/make_market.py --companies 3000 --seed 7 --out /tmp/market
    factstore fetch bulk /tmp/market/companyfacts.zip --submissions /tmp/market/submissions.zip --db m.duckdb
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

REAL = Path(os.environ.get("FACTSTORE_REAL_DATA") or Path(__file__).resolve().parents[2] / "shared" / "real")
BASE_CIK = 9_000_000  # new CIKs are above it; the SEC's reach about 2.1 million (2026)
LOW, HIGH = 0.995, 1.005  # a value's factor
MARK = "{{newcik}}"  # ten characters, where the new CIK goes in accessions and names
STAMP = (1980, 1, 1, 0, 0, 0)  # every member's time: the same arguments, the same bytes
PAGE = re.compile(r"CIK\d{10}-submissions-\d{3}\.json")
WORDS = ("Alder", "Beacon", "Cobalt", "Delta", "Ember", "Falcon", "Granite", "Harbor", "Iris", "Juniper",
         "Keystone", "Lumen", "Meridian", "Northwind", "Onyx", "Pinnacle", "Quarry", "Redwood", "Summit",
         "Tidewater", "Umber", "Vantage", "Willow", "Xenon", "Yarrow", "Zephyr")
KINDS = ("Holdings", "Industries", "Systems", "Technologies", "Group", "Labs", "Partners", "Resources")


@dataclass
class Source:
    """One real company, parsed once, its accessions renumbered under MARK; each synthetic company writes its
    values into `facts` and MARK becomes its CIK in the serialized text."""

    facts: dict[str, Any]  # the companyfacts JSON
    entries: list[dict[str, Any]]  # every fact entry ({"accn", "val", ...}), in document order
    values: np.ndarray  # each entry's value (float64)
    integral: np.ndarray  # the value is a whole number
    is_int: np.ndarray  # the value is a JSON integer (it stays one)
    ints: list[dict[str, Any]]  # the entries whose value is a JSON integer
    floats: list[dict[str, Any]]  # the others
    group: np.ndarray  # each entry's (concept, unit, period), numbered
    groups: int
    restated: np.ndarray  # the entries of periods with more than one value
    distinct: np.ndarray  # the number of values of each period
    pages: list[tuple[str, dict[str, Any]]]  # its submissions files (main, then paged) by name; [] if none


def load_source(path: Path, submissions: Path) -> Source:
    """A real companyfacts file and its company's submissions files, flattened for cheap rewriting."""
    facts = orjson.loads(path.read_bytes())
    entries, keys = [], []
    for taxonomy, concepts in facts["facts"].items():
        for concept, body in concepts.items():
            for unit, listed in body["units"].items():
                entries += listed
                keys += [(taxonomy, concept, unit, e.get("start"), e["end"]) for e in listed]
    numbers: dict[tuple, int] = {}
    group = np.array([numbers.setdefault(k, len(numbers)) for k in keys], dtype=np.int64)
    values = np.array([e["val"] for e in entries], dtype=np.float64)
    is_int = np.array([isinstance(e["val"], int) for e in entries], dtype=bool)
    if np.any(np.abs(values[is_int]) >= 2.0**53):
        raise SystemExit(f"make_market: {path} has an integer value beyond 2**53, which float64 cannot perturb exactly")
    files = [path]
    if (submissions / path.name).is_file():
        files += [submissions / path.name, *(p for p in sorted(submissions.glob(f"{path.stem}-submissions-*.json"))
                                             if PAGE.fullmatch(p.name))]
    pages = [(p.name, orjson.loads(p.read_bytes())) for p in files[1:]]
    if any(MARK.encode() in p.read_bytes() for p in files):
        raise SystemExit(f"make_market: {MARK} occurs in {path} or its submissions; it marks where the CIK goes")
    listed = {a for _, page in pages for a in _recent(page)["accessionNumber"]}
    count: dict[str, int] = {}
    renumbered = {}
    for a in sorted(listed | {e["accn"] for e in entries}):  # per year of the real accession, in its order
        count[a[11:13]] = count.get(a[11:13], 0) + 1
        renumbered[a] = f"{MARK}-{a[11:13]}-{count[a[11:13]]:06d}"
    for e in entries:
        e["accn"] = renumbered[e["accn"]]
    present = {name for name, _ in pages}
    for _, page in pages:
        recent = _recent(page)
        recent["accessionNumber"] = [renumbered[a] for a in recent["accessionNumber"]]
        if "filings" in page:
            page["cik"] = MARK if isinstance(page["cik"], str) else page["cik"]
            page["formerNames"] = []
            page["filings"]["files"] = [{**f, "name": f"CIK{MARK}{f['name'][13:]}"}
                                        for f in page["filings"].get("files", []) if f["name"] in present]
    distinct = _distinct(group, values, len(numbers))
    return Source(facts, entries, values, values == np.trunc(values), is_int,
                  [e for e, n in zip(entries, is_int.tolist(), strict=True) if n],
                  [e for e, n in zip(entries, is_int.tolist(), strict=True) if not n], group, len(numbers),
                  np.flatnonzero(distinct[group] > 1), distinct, pages)


def _recent(page: dict[str, Any]) -> dict[str, Any]:
    """A submissions file's filing columns: `filings.recent` of a main file, the top level of a paged one."""
    return page["filings"]["recent"] if "filings" in page else page


def _distinct(group: np.ndarray, values: np.ndarray, groups: int) -> np.ndarray:
    """The number of distinct values in each group."""
    order = np.lexsort((values, group))
    g, v = group[order], values[order]
    first = np.ones(len(g), dtype=bool)
    first[1:] = (g[1:] != g[:-1]) | (v[1:] != v[:-1])
    return np.bincount(g[first], minlength=groups)


def perturbed(source: Source, rng: np.random.Generator) -> np.ndarray:
    """Each entry's value times its period's factor (integral values: plus the whole part of the change); a
    period whose values the perturbation would merge keeps its real ones."""
    factor = rng.uniform(LOW, HIGH, source.groups)
    new = _times(source, factor)
    r = source.restated
    merged = (_distinct(source.group[r], new[r], source.groups) < source.distinct) & (source.distinct > 1)
    if merged.any():
        factor[merged] = 1.0
        new = _times(source, factor)
    return new


def _times(source: Source, factor: np.ndarray) -> np.ndarray:
    change = source.values * (factor[source.group] - 1.0)
    return source.values + np.where(source.integral, np.trunc(change), change)


def cik_of(i: int) -> int:
    return BASE_CIK + 1 + i


def name_of(i: int) -> str:
    """A made-up company name, distinct for each i."""
    lap, k = divmod(i, 26 * 26 * len(KINDS))
    name = f"{WORDS[k % 26]} {WORDS[k // 26 % 26]} {KINDS[k // 676]}"
    return f"{name} {lap + 1}" if lap else name


def tickers_of(i: int, count: int) -> list[str]:
    """`count` made-up tickers, distinct for each i: X and i in letters (at least four), then that with -B, -C..."""
    letters = ""
    while i or len(letters) < 4:
        i, digit = divmod(i, 26)
        letters = chr(65 + digit) + letters
    return [f"X{letters}"] + [f"X{letters}-{chr(65 + j)}" for j in range(1, count)]


def company(i: int, source: Source, seed: int) -> tuple[bytes, list[tuple[str, bytes]]]:
    """Company i's companyfacts JSON and its submissions members (name, JSON), made from `source`."""
    cik, name = cik_of(i), name_of(i)
    values = perturbed(source, np.random.default_rng([seed, i]))
    for e, v in zip(source.ints, values[source.is_int].astype(np.int64).tolist(), strict=True):
        e["val"] = v
    for e, v in zip(source.floats, values[~source.is_int].tolist(), strict=True):
        e["val"] = v
    facts = source.facts
    facts["cik"] = f"{cik:010d}" if isinstance(facts["cik"], str) else cik
    facts["entityName"] = name
    members = []
    for page_name, page in source.pages:
        if "filings" in page:
            tickers = tickers_of(i, max(1, len(page.get("tickers") or [])))
            exchanges = [*(page.get("exchanges") or []), *["Nasdaq"] * len(tickers)][:len(tickers)]
            page.update(name=name, tickers=tickers, exchanges=exchanges)
        members.append((f"CIK{cik:010d}{page_name[13:]}", _own(orjson.dumps(page), cik)))
    return _own(orjson.dumps(facts), cik), sorted(members)


def _own(text: bytes, cik: int) -> bytes:
    """The serialized JSON with MARK (in accessions, file names, a text CIK) made the company's CIK."""
    return text.replace(MARK.encode(), b"%010d" % cik)


def _member(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=STAMP)
    info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
    return info


def make_market(companies: int, seed: int, out: Path, real: Path = REAL) -> dict[str, int]:
    """Write out/companyfacts.zip and out/submissions.zip of `companies` synthetic companies; counts of what they
    hold (companies, facts, submissions members)."""
    files = sorted((real / "companyfacts").glob("CIK??????????.json"))
    if not files:
        raise SystemExit(f"make_market: no companyfacts CIK##########.json files in {real / 'companyfacts'}")
    sources = [load_source(p, real / "submissions") for p in files]
    out.mkdir(parents=True, exist_ok=True)
    facts = pages = 0
    with zipfile.ZipFile(out / "companyfacts.zip", "w") as cf, zipfile.ZipFile(out / "submissions.zip", "w") as subs:
        for i in range(companies):  # one company in memory at a time
            source = sources[i % len(sources)]
            body, members = company(i, source, seed)
            cf.writestr(_member(f"CIK{cik_of(i):010d}.json"), body, compresslevel=1)  # a ZipInfo's own level is 6
            for name, data in members:
                subs.writestr(_member(name), data, compresslevel=1)
            facts += len(source.entries)
            pages += len(members)
    return {"companies": companies, "facts": facts, "submissions": pages}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--companies", type=int, default=500, help="how many companies (default 500)")
    parser.add_argument("--seed", type=int, default=7, help="the seed of the values' factors (default 7)")
    parser.add_argument("--out", type=Path, required=True, help="folder for companyfacts.zip and submissions.zip")
    parser.add_argument("--real", type=Path, default=REAL,
                        help=f"the real data folder, with companyfacts/ and submissions/ (default {REAL})")
    args = parser.parse_args(argv)
    if args.companies < 0:
        parser.error("--companies must be 0 or more")
    start = time.perf_counter()
    counts = make_market(args.companies, args.seed, args.out, args.real)
    seconds = time.perf_counter() - start
    sizes = ", ".join(f"{n} {(args.out / n).stat().st_size / 1e6:,.1f} MB" for n in ("companyfacts.zip",
                                                                                      "submissions.zip"))
    print(f"{counts['companies']:,} companies, {counts['facts']:,} facts, {counts['submissions']:,} submissions "
          f"files in {args.out}: {sizes}; {seconds:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
