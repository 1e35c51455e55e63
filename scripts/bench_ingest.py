"""Benchmark: facts per second ingesting SEC companyfacts JSON, factstore against edgartools and a bare orjson parse,
the fixed cost per company, and a simulation of the SEC's whole bulk companyfacts.zip.

1. The real files, each way timed over all of them, best of --repeat rounds:

  ours        store.load_companyfacts_many(files, submissions) on an empty in-memory store opened beforehand
              (opening it, once per session, is printed apart): DuckDB reads the JSON, Arrow checks it,
              acceptance times are resolved, one transaction writes it; facts = rows added to `reports`
              (checked against the store's count afterwards).
              The read alone (parse_companyfacts + companyfacts_batch) is timed too, to split parse and write.
  edgartools  orjson.loads of the file plus EntityFactsParser.parse_company_facts(json_dict), the parser
              edgartools' own get_company_facts() runs on the SEC's JSON; facts = FinancialFact objects made.
  orjson      orjson.loads(path.read_bytes()) only: the floor. facts/s uses our fact count.

2. The fixed cost per company: one small company alone into a store on disk, and --tiny companies of a few facts
   each through `fetch bulk` from a local zip (their per-fact cost is nil, so time / companies is the fixed cost).

3. The bulk: --bulk synthetic companies (real unit lists of the 8 files, relabelled to new CIKs and accessions)
   with sizes drawn log-normally (--median facts, --sigma), zipped and loaded by `fetch bulk` into a store on
   disk; the time for 19,000 companies is extrapolated from this sample and its fixed cost, and says so.

No network is used: sockets are blocked for the whole run and any attempt is reported.

    .venv/bin/python scripts/bench_ingest.py
    .venv/bin/python scripts/bench_ingest.py --dir ../shared/real/companyfacts --repeat 5 --bulk 1000
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

INSTALL_HINT = "pip install -e '.[bench]'  (edgartools and orjson)"
NETWORK_ATTEMPTS: list[str] = []


def block_network() -> None:
    """Make any DNS lookup or socket connect fail, and remember that it was tried."""
    def deny(*args: Any, **kwargs: Any) -> Any:
        NETWORK_ATTEMPTS.append(repr(args[:2]))
        raise OSError("bench_ingest: network access is blocked")

    socket.getaddrinfo = deny  # type: ignore[assignment]
    socket.socket.connect = deny  # type: ignore[method-assign]
    socket.socket.connect_ex = deny  # type: ignore[method-assign]


def submissions_for(path: Path, folder: Path) -> list[Path] | None:
    """The company's submissions JSON and its paged files ([main, paged...]), or None when there is none."""
    main = folder / path.name
    if not main.is_file():
        return None
    return [main, *sorted(folder.glob(f"{path.stem}-submissions-*.json"))]


Method = Callable[[], int] | tuple[Callable[[], Any], Callable[[Any], int]]


def best_of(repeat: int, methods: dict[str, Method]) -> dict[str, tuple[float, int]]:
    """Fastest wall time of each method over `repeat` rounds, and what it returned (its fact count). A method
    given as (setup, run) has setup's work left out of the time: run(setup()) is timed.

    Each round runs every method once, so a busy machine slows all of them alike."""
    best: dict[str, tuple[float, int]] = {name: (float("inf"), 0) for name in methods}
    for _ in range(repeat):
        for name, method in methods.items():
            setup, run = method if isinstance(method, tuple) else (lambda: None, lambda _, m=method: m())
            ready = setup()
            start = time.perf_counter()
            result = run(ready)
            best[name] = (min(best[name][0], time.perf_counter() - start), result)
    return best


def small_company(path: Path, submissions: list[Path] | None, repeat: int) -> tuple[float, float, int]:
    """Milliseconds to read one company and to write it (one transaction) into a store on disk that already
    holds another company: the cost of loading one company alone."""
    import factstore
    from factstore.loaders.companyfacts import read_companyfacts

    parse = write = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder, factstore.open(Path(folder) / "bench.duckdb") as store:
            store.load_companyfacts({"cik": 1, "facts": {}}, progress=False)
            start = time.perf_counter()
            batch = read_companyfacts(path, submissions)
            parse = min(parse, time.perf_counter() - start)
            start = time.perf_counter()
            report = store.apply(batch)
            write = min(write, time.perf_counter() - start)
    return parse * 1000, write * 1000, report.reports


def unit_lists(files: list[Path]) -> list[list[tuple[str, str, str, list[dict]]]]:
    """Each real file's unit lists (taxonomy, concept, unit, facts), in file order: what synthetic companies
    are made of."""
    import orjson

    out = []
    for path in files:
        facts = orjson.loads(path.read_bytes())["facts"]
        out.append([(tax, name, unit, values) for tax, concepts in facts.items() for name, body in concepts.items()
                    for unit, values in body["units"].items()])
    return out


def synthetic_company(cik: int, size: int, pool: list[list[tuple[str, str, str, list[dict]]]], rng: Any) -> bytes:
    """A companyfacts JSON of about `size` facts: a real company's unit lists from a random point on, its
    accessions renumbered to the new CIK (a filing's facts keep their form and dates); where the lists run out
    they are taken again under new accessions, so no fact repeats in a filing (real files repeat none)."""
    import orjson

    lists = pool[rng.integers(len(pool))]
    at = int(rng.integers(len(lists)))
    facts: dict[str, dict[str, Any]] = {}
    accns: dict[tuple[int, str], str] = {}
    n = 0
    while n < size:
        tax, name, unit, values = lists[at % len(lists)]
        cycle = at // len(lists)
        at += 1
        values = values[:size - n]
        for v in values:
            accns.setdefault((cycle, v["accn"]), f"{cik:010d}-{v['accn'][11:13]}-{len(accns):06d}")
        body = facts.setdefault(tax, {}).setdefault(name, {"label": name, "units": {}})
        body["units"].setdefault(unit, []).extend({**v, "accn": accns[cycle, v["accn"]]} for v in values)
        n += len(values)
    return orjson.dumps({"cik": cik, "entityName": f"Synthetic {cik}", "facts": facts})


def bulk_zip(path: Path, sizes: list[int], pool: list, seed: int) -> int:
    """Write a companyfacts.zip of synthetic companies of these sizes; the facts it holds."""
    import zipfile

    import numpy as np

    rng = np.random.default_rng(seed)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for i, size in enumerate(sizes):
            cik = 9_000_000_000 + i
            z.writestr(f"CIK{cik:010d}.json", synthetic_company(cik, size, pool, rng))
    return sum(sizes)


def fetch_bulk(path: Path) -> tuple[float, int]:
    """Seconds for `fetch bulk` of a local zip into a fresh store on disk, and the facts stored."""
    import factstore

    with tempfile.TemporaryDirectory() as folder, factstore.open(Path(folder) / "bulk.duckdb") as store:
        start = time.perf_counter()
        reports = store.fetch_bulk(path, progress=False)
        seconds = time.perf_counter() - start
        failed = [r for r in reports if r.error]
        if failed:
            sys.exit(f"bench_ingest: bulk members failed: {failed[:3]}")
        return seconds, sum(r.reports for r in reports)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=ROOT.parent / "shared" / "real" / "companyfacts",
                        help="folder of companyfacts CIK##########.json files (submissions are read from "
                             "../submissions next to it)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (each runs every method); the fastest counts")
    parser.add_argument("--tiny", type=int, default=2000, help="companies of a few facts, for the fixed cost")
    parser.add_argument("--bulk", type=int, default=300, help="synthetic companies in the bulk sample (0: skip)")
    parser.add_argument("--companies", type=int, default=19_000, help="companies in the SEC's bulk archive")
    parser.add_argument("--median", type=float, default=1500, help="median facts per company (log-normal)")
    parser.add_argument("--sigma", type=float, default=1.5, help="log-normal sigma of facts per company")
    parser.add_argument("--cap", type=int, default=130_000, help="most facts one company has")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    folder: Path = args.dir.resolve()
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        sys.exit(f"bench_ingest: no companyfacts *.json files in {folder} (pass --dir)")
    os.environ.setdefault("EDGAR_IDENTITY", "bench bench@example.com")
    block_network()
    try:
        import numpy as np
        import orjson
        from edgar.entity.parser import EntityFactsParser
    except ImportError as exc:
        top = (exc.name or "").split(".")[0]
        missing = {"edgar": "edgartools"}.get(top, top or str(exc))
        sys.exit(f"bench_ingest: {missing} is not installed; run: {INSTALL_HINT}")

    import factstore
    from factstore.loaders.companyfacts import companyfacts_batch, parse_companyfacts

    sub_folder = folder.parent / "submissions"
    subs = {path: submissions_for(path, sub_folder) for path in files}
    all_subs = [p for found in subs.values() if found for p in found]
    size_mb = sum(path.stat().st_size for path in files) / 1e6
    print(f"{len(files)} companyfacts files ({size_mb:.1f} MB) in {folder}, "
          f"{sum(s is not None for s in subs.values())} with submissions JSON; best of {args.repeat} rounds")

    edgar_per_file: dict[str, int] = {}

    stores: list[Any] = []  # each round's store, opened before its timing starts

    def open_store() -> Any:
        while stores:
            stores.pop().close()
        stores.append(factstore.open(None))
        return stores[0]

    def ours(store: Any) -> int:
        return sum(r.reports for r in store.load_companyfacts_many(files, all_subs, progress=False))

    def ours_parse() -> int:
        return sum(len(companyfacts_batch(p, subs[path]).reports)
                   for p, path in zip(parse_companyfacts(files), files, strict=True))

    def edgartools() -> int:
        total = 0
        for path in files:
            entity_facts = EntityFactsParser.parse_company_facts(orjson.loads(path.read_bytes()))
            if entity_facts is None:  # it logs and returns None on any error
                sys.exit(f"bench_ingest: edgartools could not parse {path}")
            edgar_per_file[path.stem.removeprefix("CIK")] = len(entity_facts)
            total += len(entity_facts)
        return total

    def floor() -> int:
        for path in files:
            orjson.loads(path.read_bytes())
        return 0

    start = time.perf_counter()
    factstore.open(None).close()
    open_s = time.perf_counter() - start
    # Warm up once (edgartools loads its packaged concept mappings on first use), then time.
    edgartools()
    timed = best_of(args.repeat, {"ours": (open_store, ours), "parse": ours_parse, "edgartools": edgartools,
                                  "floor": floor})
    (ours_s, ours_n), (ours_parse_s, parsed_rows) = timed["ours"], timed["parse"]
    counts = stores[0].sql("SELECT entity_id, count(*) n FROM reports GROUP BY entity_id")
    ours_per_file: dict[str, int] = dict(zip(counts["entity_id"], counts["n"].astype(int), strict=True))
    if int(counts["n"].sum()) != ours_n:
        sys.exit(f"bench_ingest: the loads reported {ours_n:,} facts, the store holds {int(counts['n'].sum()):,}")
    stores.pop().close()
    (edgar_s, edgar_n), (floor_s, _) = timed["edgartools"], timed["floor"]

    raw_per_file: dict[str, int] = {}
    for path in files:
        facts = orjson.loads(path.read_bytes()).get("facts", {})
        raw_per_file[path.stem.removeprefix("CIK")] = sum(
            len(values) for concepts in facts.values() for body in concepts.values()
            for values in (body.get("units") or {}).values())
    raw_n = sum(raw_per_file.values())

    rate = {"ours": ours_n / ours_s, "edgartools": edgar_n / edgar_s, "orjson": ours_n / floor_s}
    print()
    print(f"{'method':<48} {'seconds':>8} {'facts':>9} {'facts/s':>11}")
    rows = [
        ("ours: read + write (load_companyfacts_many)", ours_s, ours_n, rate["ours"]),
        ("  of which read (parse_companyfacts + batch)", ours_parse_s, ours_n, ours_n / ours_parse_s),
        ("  of which write (total - read)", ours_s - ours_parse_s, ours_n, ours_n / (ours_s - ours_parse_s)),
        ("edgartools: orjson + parse_company_facts", edgar_s, edgar_n, rate["edgartools"]),
        ("orjson.loads only (floor, our count)", floor_s, ours_n, rate["orjson"]),
    ]
    for name, seconds, n, per_s in rows:
        print(f"{name:<48} {seconds:>8.3f} {n:>9,} {per_s:>11,.0f}")
    print()
    print(f"read is {ours_parse_s / ours_s:.0%} of our total, write {1 - ours_parse_s / ours_s:.0%} "
          f"(store open, not timed above: {open_s * 1000:.0f} ms)")
    print(f"ours vs edgartools: {rate['ours'] / rate['edgartools']:.2f}x edgartools' facts/s, end to end into the "
          f"store (ours {ours_n:,} facts stored, edgartools {edgar_n:,} facts made, JSON holds {raw_n:,})")
    print(f"ours vs orjson floor: {rate['ours'] / rate['orjson']:.2f}x of the floor's facts/s "
          f"(edgartools: {rate['edgartools'] / rate['orjson']:.2f}x)")
    if parsed_rows != ours_n:
        print(f"note: the read gave {parsed_rows:,} rows, {ours_n:,} landed in reports")
    differ = [cik for cik in raw_per_file
              if len({raw_per_file[cik], ours_per_file.get(cik, 0), edgar_per_file.get(cik, 0)}) > 1]
    for cik in differ:
        print(f"  CIK{cik}: JSON {raw_per_file[cik]:,}, ours {ours_per_file.get(cik, 0):,}, "
              f"edgartools {edgar_per_file.get(cik, 0):,}")
    if not differ:
        print("fact counts agree file by file (JSON = ours = edgartools)")

    print()
    smallest = min(files, key=lambda p: p.stat().st_size)
    parse_ms, write_ms, n_small = small_company(smallest, subs[smallest], args.repeat)
    print(f"one small company alone ({smallest.name}, {n_small:,} facts) into a store on disk: "
          f"read {parse_ms:.1f} ms, write {write_ms:.1f} ms (one transaction; best of {args.repeat})")
    pool = unit_lists(files)
    fixed = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        if args.tiny:
            tiny_n = bulk_zip(Path(tmp) / "tiny.zip", [5] * args.tiny, pool, args.seed)
            seconds, stored = fetch_bulk(Path(tmp) / "tiny.zip")
            fixed = seconds / args.tiny
            print(f"fixed cost per company in a bulk load: {fixed * 1000:.2f} ms ({args.tiny:,} companies of 5 facts, "
                  f"{tiny_n:,} facts, by fetch bulk into a store on disk in {seconds:.1f} s)")
        if args.bulk:
            rng = np.random.default_rng(args.seed)
            draw = lambda n: np.minimum(np.rint(rng.lognormal(np.log(args.median), args.sigma, n)), args.cap)  # noqa: E731
            expected = float(np.mean(draw(200_000))) * args.companies
            sizes = [max(1, int(s)) for s in draw(args.bulk)]
            start = time.perf_counter()
            sample_n = bulk_zip(Path(tmp) / "companyfacts.zip", sizes, pool, args.seed)
            made = time.perf_counter() - start
            zipped_mb = (Path(tmp) / "companyfacts.zip").stat().st_size / 1e6
            seconds, stored = fetch_bulk(Path(tmp) / "companyfacts.zip")
            per_fact = max(seconds - fixed * args.bulk, 1e-9) / stored
            total = args.companies * fixed + expected * per_fact
            print(f"bulk sample: {args.bulk:,} synthetic companies (log-normal facts: median {args.median:,.0f}, "
                  f"sigma {args.sigma}, cap {args.cap:,}), {sample_n:,} facts, zip {zipped_mb:,.0f} MB (made in "
                  f"{made:.0f} s): fetch bulk {seconds:.1f} s = {stored / seconds:,.0f} facts/s, "
                  f"{seconds / args.bulk * 1000:.0f} ms per company")
            print(f"bulk extrapolated (not run): {args.companies:,} companies, ~{expected / 1e6:,.0f}M facts expected "
                  f"from the same distribution: {args.companies:,} x {fixed * 1000:.2f} ms fixed + "
                  f"{expected / 1e6:,.0f}M facts x {per_fact * 1e6:.2f} us = {total / 60:.1f} minutes")
    print(f"network attempts: {len(NETWORK_ATTEMPTS)}" + (f" {NETWORK_ATTEMPTS[:3]}" if NETWORK_ATTEMPTS else ""))


if __name__ == "__main__":
    main()
