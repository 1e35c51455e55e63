"""Benchmark: facts per second ingesting SEC companyfacts JSON, factstore against edgartools and a bare orjson parse.

Three ways of handling the same files, each timed over all of them, best of --repeat rounds:

  ours        factstore.open(None).load_companyfacts(path, submissions): parse, validate, resolve acceptance
              times, insert into a fresh in-memory store; facts = rows that landed in `reports`. The parse step
              alone (read_companyfacts) is timed too, to split the total into parse and load.
  edgartools  orjson.loads of the file plus EntityFactsParser.parse_company_facts(json_dict), the parser
              edgartools' own get_company_facts() runs on the SEC's JSON; facts = FinancialFact objects made.
  orjson      orjson.loads(path.read_bytes()) only: the floor. facts/s uses our fact count.

No network is used: sockets are blocked for the whole run and any attempt is reported.

    .venv/bin/python scripts/bench_ingest.py
    .venv/bin/python scripts/bench_ingest.py --dir ../shared/real/companyfacts --repeat 5

It also times one small company alone, parse and write, into a store on disk: a bulk load's cost per company.
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


def best_of(repeat: int, methods: dict[str, Callable[[], int]]) -> dict[str, tuple[float, int]]:
    """Fastest wall time of each method over `repeat` rounds, and what it returned (its fact count).

    Each round runs every method once, so a busy machine slows all of them alike."""
    best: dict[str, tuple[float, int]] = {name: (float("inf"), 0) for name in methods}
    for _ in range(repeat):
        for name, run in methods.items():
            start = time.perf_counter()
            result = run()
            best[name] = (min(best[name][0], time.perf_counter() - start), result)
    return best


def small_company(path: Path, submissions: list[Path] | None, repeat: int) -> tuple[float, float, int]:
    """Milliseconds to parse one company and to write it (one transaction) into a store on disk that
    already holds another company: the per-company cost of a bulk load."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=ROOT.parent / "shared" / "real" / "companyfacts",
                        help="folder of companyfacts CIK##########.json files (submissions are read from "
                             "../submissions next to it)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (each runs every method); the fastest counts")
    args = parser.parse_args()

    folder: Path = args.dir.resolve()
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        sys.exit(f"bench_ingest: no companyfacts *.json files in {folder} (pass --dir)")
    os.environ.setdefault("EDGAR_IDENTITY", "bench bench@example.com")
    block_network()
    try:
        import orjson
        from edgar.entity.parser import EntityFactsParser
    except ImportError as exc:
        top = (exc.name or "").split(".")[0]
        missing = {"edgar": "edgartools"}.get(top, top or str(exc))
        sys.exit(f"bench_ingest: {missing} is not installed; run: {INSTALL_HINT}")

    import factstore
    from factstore.loaders.companyfacts import read_companyfacts

    sub_folder = folder.parent / "submissions"
    subs = {path: submissions_for(path, sub_folder) for path in files}
    size_mb = sum(path.stat().st_size for path in files) / 1e6
    print(f"{len(files)} companyfacts files ({size_mb:.1f} MB) in {folder}, "
          f"{sum(s is not None for s in subs.values())} with submissions JSON; best of {args.repeat} rounds")

    ours_per_file: dict[str, int] = {}
    edgar_per_file: dict[str, int] = {}

    def ours() -> int:
        store = factstore.open(None)
        for path in files:
            store.load_companyfacts(path, subs[path], progress=False)
        counts = store.sql("SELECT entity_id, count(*) n FROM reports GROUP BY entity_id")
        ours_per_file.update(zip(counts["entity_id"], counts["n"].astype(int), strict=True))
        total = int(store.sql("SELECT count(*) n FROM reports")["n"].iloc[0])
        store.close()
        return total

    def ours_parse() -> int:
        return sum(len(read_companyfacts(path, subs[path]).reports) for path in files)

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
    timed = best_of(args.repeat, {"ours": ours, "parse": ours_parse, "edgartools": edgartools, "floor": floor})
    (ours_s, ours_n), (ours_parse_s, parsed_rows) = timed["ours"], timed["parse"]
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
    print(f"{'method':<44} {'seconds':>8} {'facts':>9} {'facts/s':>11}")
    rows = [
        ("ours: parse + load (load_companyfacts)", ours_s, ours_n, rate["ours"]),
        ("  of which parse (read_companyfacts)", ours_parse_s, ours_n, ours_n / ours_parse_s),
        ("  of which load (total - parse)", ours_s - ours_parse_s, ours_n, ours_n / (ours_s - ours_parse_s)),
        ("edgartools: orjson + parse_company_facts", edgar_s, edgar_n, rate["edgartools"]),
        ("orjson.loads only (floor, our count)", floor_s, ours_n, rate["orjson"]),
    ]
    for name, seconds, n, per_s in rows:
        print(f"{name:<44} {seconds:>8.3f} {n:>9,} {per_s:>11,.0f}")
    print()
    print(f"parse is {ours_parse_s / ours_s:.0%} of our total, load {1 - ours_parse_s / ours_s:.0%} "
          f"(store open, not timed above: {open_s * 1000:.0f} ms)")
    print(f"ours vs edgartools: {rate['ours'] / rate['edgartools']:.2f}x edgartools' facts/s "
          f"(ours {ours_n:,} facts stored, edgartools {edgar_n:,} facts made, JSON holds {raw_n:,})")
    print(f"our parse alone vs edgartools' parse: {edgar_s / ours_parse_s:.2f}x "
          f"({ours_parse_s / floor_s:.1f}x the floor's time)")
    print(f"ours vs orjson floor: {rate['ours'] / rate['orjson']:.2f}x of floor "
          f"(edgartools: {rate['edgartools'] / rate['orjson']:.2f}x of floor)")
    smallest = min(files, key=lambda p: p.stat().st_size)
    parse_ms, write_ms, n_small = small_company(smallest, subs[smallest], args.repeat)
    print(f"one small company ({smallest.name}, {n_small:,} facts) into a file-backed store: "
          f"parse {parse_ms:.1f} ms, write {write_ms:.1f} ms (best of {args.repeat})")
    if parsed_rows != ours_n:
        print(f"note: read_companyfacts gave {parsed_rows:,} rows, {ours_n:,} landed in reports")
    differ = [cik for cik in raw_per_file
              if len({raw_per_file[cik], ours_per_file.get(cik, 0), edgar_per_file.get(cik, 0)}) > 1]
    for cik in differ:
        print(f"  CIK{cik}: JSON {raw_per_file[cik]:,}, ours {ours_per_file.get(cik, 0):,}, "
              f"edgartools {edgar_per_file.get(cik, 0):,}")
    if not differ:
        print("fact counts agree file by file (JSON = ours = edgartools)")
    print(f"network attempts: {len(NETWORK_ATTEMPTS)}" + (f" {NETWORK_ATTEMPTS[:3]}" if NETWORK_ATTEMPTS else ""))


if __name__ == "__main__":
    main()
