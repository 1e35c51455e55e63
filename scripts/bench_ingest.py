"""Benchmark: facts per second ingesting SEC companyfacts JSON, factstore against edgartools and a bare orjson parse,
the fixed cost per company, and a simulation of the SEC's whole bulk companyfacts.zip.

0. The fixed cost of a store: creating an empty one and closing it (a new file, the machine's first new file, and in
   memory), median CPU and wall ms. In fresh interpreters (wall, median): `python -c 'import factstore'` against
   `python -c 'import edgar'`, factstore imported with a store opened, and one company (the smallest file) loaded
   into a new store against edgartools' parse of it, imports included.

1. The real files, each way timed over all of them, best of --repeat rounds:

  ours        store.load_companyfacts_many(files, submissions) on an empty in-memory store opened beforehand
              (opening it is NOT in this figure; its cost is printed beside it): DuckDB reads the JSON, Arrow checks it,
              acceptance times are resolved, one transaction writes it; facts = rows added to `reports`
              (checked against the store's count afterwards).
              The read alone (parse_companyfacts + companyfacts_batch) is timed too, to split parse and write.
  edgartools  orjson.loads of the file plus EntityFactsParser.parse_company_facts(json_dict), the parser
              edgartools' own get_company_facts() runs on the SEC's JSON; facts = FinancialFact objects made.
  orjson      orjson.loads(path.read_bytes()) only: the floor. facts/s uses our fact count.

2. One company into a new store, what a user pays for one file: per real file, factstore.open(new file),
   load_companyfacts(file) (the file alone, no submissions; committed) and close(), all timed, against edgartools
   reading the same file and parsing it (as in 1); best of --repeat, the two interleaved; the ratio ours/edgartools
   per file and its geometric mean. The run stops if edgartools made no facts or far fewer than we stored.

3. The fixed cost per company: one small company alone into a store on disk, and --tiny companies of a few facts
   each through `fetch bulk` from a local zip (their per-fact cost is nil, so time / companies is the fixed cost).
   The store is opened before these timings start: they say so, and the extrapolation adds one creation.

4. The bulk: --bulk synthetic companies (real unit lists of the 8 files, relabelled to new CIKs and accessions)
   with sizes drawn log-normally (--median facts, --sigma), zipped and loaded by `fetch bulk` into a store on
   disk; the time for 19,000 companies is extrapolated from this sample and its fixed cost, and says so.

No network is used: sockets are blocked for the whole run and any attempt is reported.

    .venv/bin/python scripts/bench_ingest.py
    .venv/bin/python scripts/bench_ingest.py --dir ../shared/real/companyfacts --repeat 5 --bulk 1000
"""

from __future__ import annotations

import argparse
import os
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

INSTALL_HINT = "pip install -e '.[bench]'  (edgartools and orjson)"
NETWORK_ATTEMPTS: list[str] = []
MIN_SHARE = 0.9  # a baseline that made fewer facts than this share of ours skipped work: its time means nothing
# A fresh interpreter for the import timings fails rather than reach the network.
NO_NETWORK = "import socket; socket.getaddrinfo = socket.socket.connect = socket.socket.connect_ex = None"
# One company in a fresh interpreter, as a one-off script pays it; each prints the facts it stored or made.
COLD_OURS = """import tempfile, factstore
with tempfile.TemporaryDirectory() as d, factstore.open(d + '/one.duckdb') as s:
    print(s.load_companyfacts({path!r}, progress=False).reports)"""
COLD_EDGAR = """import orjson, pathlib
from edgar.entity.parser import EntityFactsParser
f = EntityFactsParser.parse_company_facts(orjson.loads(pathlib.Path({path!r}).read_bytes()))
print(0 if f is None else len(f))"""


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


def check_baseline(what: str, ours: int, theirs: int) -> None:
    """Stop the run when edgartools made no facts of `what`, or far fewer than we stored: it did not do the work."""
    if theirs == 0 or theirs < MIN_SHARE * ours:
        sys.exit(f"bench_ingest: edgartools made {theirs:,} facts of {what}, we stored {ours:,}: the baseline did not "
                 f"do the work (under {MIN_SHARE:.0%} of ours), so no ratio is printed")


def edgartools_facts(path: Path) -> int:
    """Facts edgartools makes of one companyfacts file read from disk: orjson.loads and the parser its own
    get_company_facts() runs (orjson reads faster than its json.loads, so the baseline is not slowed); 0 where it
    fails (it logs and returns None)."""
    import orjson
    from edgar.entity.parser import EntityFactsParser

    entity_facts = EntityFactsParser.parse_company_facts(orjson.loads(path.read_bytes()))
    return 0 if entity_facts is None else len(entity_facts)


def into_new_store(path: Path, target: Path) -> int:
    """Facts stored loading one companyfacts file alone into a new store file: created, loaded (committed), closed."""
    import factstore

    with factstore.open(target) as store:
        return store.load_companyfacts(path, progress=False).reports


def one_company(files: list[Path], repeat: int) -> dict[Path, tuple[int, float, int, float]]:
    """Per file: our facts and best seconds into a new store (into_new_store, all of it timed), edgartools' facts and
    best seconds (edgartools_facts). A first untimed pass warms both up and counts; the run stops there if the baseline
    did not do the work. Each round times both on every file, which goes first alternating."""
    counts: dict[Path, tuple[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(files):
            counts[path] = into_new_store(path, Path(tmp) / f"warm{i}.duckdb"), edgartools_facts(path)
            check_baseline(path.name, *counts[path])
    best = {path: [float("inf"), float("inf")] for path in files}
    for r in range(repeat):
        for path in files:
            with tempfile.TemporaryDirectory() as tmp:
                for side in ([0, 1] if r % 2 == 0 else [1, 0]):
                    start = time.perf_counter()
                    n = into_new_store(path, Path(tmp) / "one.duckdb") if side == 0 else edgartools_facts(path)
                    best[path][side] = min(best[path][side], time.perf_counter() - start)
                    if n != counts[path][side]:
                        sys.exit(f"bench_ingest: {path.name} gave {n:,} facts ({['ours', 'edgartools'][side]}), "
                                 f"{counts[path][side]:,} the first time")
    return {path: (counts[path][0], best[path][0], counts[path][1], best[path][1]) for path in files}


def store_creation(on_disk: bool, times: int, template: bool = True) -> tuple[float, float]:
    """Median CPU and wall milliseconds to create an empty store and close it: a new file when on_disk, else in
    memory. A new file is a copy of an empty store made once into the user's cache; template=False gives each
    creation an empty cache, as a machine's first store has. CPU is the whole process's (DuckDB's threads included)."""
    import factstore
    from factstore.cache import CACHE_ENV

    cpu, wall = [], []
    for _ in range(times):
        with (tempfile.TemporaryDirectory() as tmp,
              mock.patch.dict(os.environ, {} if template else {CACHE_ENV: str(Path(tmp) / "cache")})):
            target = Path(tmp) / "empty.duckdb" if on_disk else None
            start_cpu, start = time.process_time(), time.perf_counter()
            factstore.open(target).close()
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000


def fresh_runs(snippets: dict[str, str], times: int) -> dict[str, tuple[float, str]]:
    """Median wall milliseconds of a fresh interpreter (this one) running each snippet and exiting, each in turn in
    every round, and what it printed; '' runs nothing (the interpreter alone). It cannot reach the network either."""
    took: dict[str, list[float]] = {name: [] for name in snippets}
    printed: dict[str, str] = {}
    for _ in range(times):
        for name, code in snippets.items():
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", f"{NO_NETWORK}\n{code}"], capture_output=True, text=True)
            took[name].append(time.perf_counter() - start)
            if done.returncode:
                sys.exit(f"bench_ingest: a fresh interpreter failed on {name}:\n{done.stderr[-2000:]}")
            printed[name] = done.stdout.strip()
    return {name: (statistics.median(t) * 1000, printed[name]) for name, t in took.items()}


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
    are made of. Facts that end on or after their filing date are left out: alone in a synthetic filing, they would
    declare its period over after it was filed, which the store refuses."""
    import orjson

    out = []
    for path in files:
        facts = orjson.loads(path.read_bytes())["facts"]
        lists = [(tax, name, unit, [v for v in values if v["end"] < v["filed"]]) for tax, concepts in facts.items()
                 for name, body in concepts.items() for unit, values in body["units"].items()]
        out.append([one for one in lists if one[3]])
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
        from edgar import __version__ as edgar_version
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
          f"{sum(s is not None for s in subs.values())} with submissions JSON; best of {args.repeat} rounds; "
          f"edgartools {edgar_version}")

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
        for path in files:
            edgar_per_file[path.stem.removeprefix("CIK")] = edgartools_facts(path)
        return sum(edgar_per_file.values())

    def floor() -> int:
        for path in files:
            orjson.loads(path.read_bytes())
        return 0

    creations = 2 * args.repeat + 1
    disk_cpu, disk_wall = store_creation(True, creations)
    first_cpu, first_wall = store_creation(True, creations, template=False)
    memory_cpu, memory_wall = store_creation(False, creations)
    print(f"creating an empty store and closing it (median of {creations}): a new file {disk_cpu:.0f} ms CPU, "
          f"{disk_wall:.0f} ms wall (a copy of the empty store cached in the user's cache folder; the machine's first, "
          f"which makes it: {first_cpu:.0f} ms CPU, {first_wall:.0f} ms wall); in memory {memory_cpu:.0f} ms CPU, "
          f"{memory_wall:.0f} ms wall")
    smallest = min(files, key=lambda p: p.stat().st_size)
    fresh = fresh_runs({"python": "", "import factstore": "import factstore",
                        "import factstore + open": "import factstore; factstore.open(None).close()",
                        "import edgar": "import edgar", "ours": COLD_OURS.format(path=str(smallest)),
                        "edgartools": COLD_EDGAR.format(path=str(smallest))}, creations)
    ms = {name: took for name, (took, _) in fresh.items()}
    print(f"import in a fresh interpreter (wall, median of {creations}, the interpreter's start included): "
          f"python -c 'import factstore' {ms['import factstore']:.0f} ms, python -c 'import edgar' "
          f"{ms['import edgar']:.0f} ms (ratio {ms['import factstore'] / ms['import edgar']:.2f}); python alone "
          f"{ms['python']:.0f} ms. factstore imports DuckDB, Arrow and pandas at the first open: with an in-memory "
          f"store opened and closed, {ms['import factstore + open']:.0f} ms")
    cold = {side: int(fresh[side][1]) for side in ("ours", "edgartools")}
    check_baseline(f"{smallest.name} in a fresh interpreter", cold["ours"], cold["edgartools"])
    print(f"one company in a fresh interpreter ({smallest.name}, {cold['ours']:,} facts; wall, median of "
          f"{creations}): import factstore, new store, load, close {ms['ours']:.0f} ms; import edgartools' parser, "
          f"read, parse {ms['edgartools']:.0f} ms (ratio {ms['ours'] / ms['edgartools']:.2f})")
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
    check_baseline("the files", ours_n, edgar_n)

    raw_per_file: dict[str, int] = {}
    for path in files:
        facts = orjson.loads(path.read_bytes()).get("facts", {})
        raw_per_file[path.stem.removeprefix("CIK")] = sum(
            len(values) for concepts in facts.values() for body in concepts.values()
            for values in (body.get("units") or {}).values())
    raw_n = sum(raw_per_file.values())

    rate = {"ours": ours_n / ours_s, "edgartools": edgar_n / edgar_s, "orjson": ours_n / floor_s}
    print()
    print(f"{'method':<52} {'seconds':>8} {'facts':>9} {'facts/s':>11}")
    rows = [
        ("ours: read + write, store open EXCLUDED (load_many)", ours_s, ours_n, rate["ours"]),
        ("  of which read (parse_companyfacts + batch)", ours_parse_s, ours_n, ours_n / ours_parse_s),
        ("  of which write (total - read)", ours_s - ours_parse_s, ours_n, ours_n / (ours_s - ours_parse_s)),
        ("edgartools: orjson + parse_company_facts", edgar_s, edgar_n, rate["edgartools"]),
        ("orjson.loads only (floor, our count)", floor_s, ours_n, rate["orjson"]),
    ]
    for name, seconds, n, per_s in rows:
        print(f"{name:<52} {seconds:>8.3f} {n:>9,} {per_s:>11,.0f}")
    print()
    print(f"read is {ours_parse_s / ours_s:.0%} of our total, write {1 - ours_parse_s / ours_s:.0%} "
          f"(the in-memory store was opened before each timing: {memory_wall:.0f} ms wall, not in these figures)")
    print(f"ours vs edgartools, store open EXCLUDED: {rate['ours'] / rate['edgartools']:.2f}x edgartools' facts/s, "
          f"8 companies in one transaction into an already open store (ours {ours_n:,} facts stored, edgartools "
          f"{edgar_n:,} facts made, JSON holds {raw_n:,}); a user's cost per company is the next section's")
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
    print(f"one company into a new store: factstore.open(new file) + load_companyfacts(file, no submissions, "
          f"committed) + close(), all timed, against edgartools reading and parsing the same file; best of "
          f"{args.repeat}, interleaved")
    print(f"{'file':<20} {'facts':>8} {'edgartools':>10} {'ours ms':>8} {'edgar ms':>9} {'ratio':>6}")
    one = one_company(files, args.repeat)
    for path, (ours_facts, ours_s1, edgar_facts, edgar_s1) in one.items():
        print(f"{path.name:<20} {ours_facts:>8,} {edgar_facts:>10,} {ours_s1 * 1000:>8.0f} {edgar_s1 * 1000:>9.0f} "
              f"{ours_s1 / edgar_s1:>6.2f}")
    ratios = {path: ours_s1 / edgar_s1 for path, (_, ours_s1, _, edgar_s1) in one.items()}
    geomean = statistics.geometric_mean(ratios.values())
    worst = max(ratios, key=ratios.__getitem__)
    met = geomean <= 1.0 and ratios[worst] <= 2.0
    print(f"ratio ours/edgartools (<= 1: we are no slower): geometric mean {geomean:.2f}, worst {ratios[worst]:.2f} "
          f"({worst.name}); target geomean <= 1.0 and each <= 2.0: {'met' if met else 'NOT met'}")

    print()
    parse_ms, write_ms, n_small = small_company(smallest, subs[smallest], args.repeat)
    print(f"one small company alone ({smallest.name}, {n_small:,} facts) into a store on disk already holding one: "
          f"read {parse_ms:.1f} ms, write {write_ms:.1f} ms (one transaction; best of {args.repeat}; store creation "
          f"EXCLUDED: {disk_wall:.0f} ms wall more)")
    pool = unit_lists(files)
    fixed = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        if args.tiny:
            tiny_n = bulk_zip(Path(tmp) / "tiny.zip", [5] * args.tiny, pool, args.seed)
            seconds, stored = fetch_bulk(Path(tmp) / "tiny.zip")
            fixed = seconds / args.tiny
            print(f"fixed cost per company in a bulk load: {fixed * 1000:.2f} ms ({args.tiny:,} companies of 5 facts, "
                  f"{tiny_n:,} facts, by fetch bulk into a store on disk in {seconds:.1f} s; the store's creation, "
                  f"once per load, EXCLUDED)")
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
            total = disk_wall / 1000 + args.companies * fixed + expected * per_fact
            print(f"bulk sample: {args.bulk:,} synthetic companies (log-normal facts: median {args.median:,.0f}, "
                  f"sigma {args.sigma}, cap {args.cap:,}), {sample_n:,} facts, zip {zipped_mb:,.0f} MB (made in "
                  f"{made:.0f} s): fetch bulk {seconds:.1f} s = {stored / seconds:,.0f} facts/s, "
                  f"{seconds / args.bulk * 1000:.0f} ms per company (store creation EXCLUDED)")
            print(f"bulk extrapolated (not run): {args.companies:,} companies, ~{expected / 1e6:,.0f}M facts expected "
                  f"from the same distribution: one store creation {disk_wall:.0f} ms + "
                  f"{args.companies:,} x {fixed * 1000:.2f} ms fixed + "
                  f"{expected / 1e6:,.0f}M facts x {per_fact * 1e6:.2f} us = {total / 60:.1f} minutes")
    print(f"network attempts: {len(NETWORK_ATTEMPTS)}" + (f" {NETWORK_ATTEMPTS[:3]}" if NETWORK_ATTEMPTS else ""))
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")


if __name__ == "__main__":
    main()
