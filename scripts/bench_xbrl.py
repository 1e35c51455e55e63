"""Benchmark reading XBRL: factstore's reader against Arelle (the reference processor) and edgartools, on the same
real files (shared/real), in one run; then factstore's fixed cost per filing, read and loaded.

    python -m venv /tmp/bench && /tmp/bench/bin/pip install -e . arelle-release edgartools
    /tmp/bench/bin/python scripts/bench_xbrl.py [--real ../shared/real] [--repeat 5]

Neither Arelle nor edgartools is a dependency of factstore: a baseline that is not installed is left out, saying
so. Arelle runs offline with `skipDTS` (no taxonomy: without it, offline, Arelle keeps no fact of an instance),
so its times are below what it costs with the DTS loaded; edgartools reads an instance with its instance parser
and an inline document with its HTML parser's fact pass. Each reader's facts are counted per file, and the run
stops where a baseline read under half of ours. Each time is the best of `--repeat` runs, the readers taking turns
run by run; each reader's imports are timed apart, in fresh interpreters. One run (2026-12-07, `--repeat 3`, the
2-core machine busy): Arelle 8.6x our time (geometric mean over 8 files, 5.1x to 17.8x), edgartools 1.0x (0.6-0.8x on
instances, 1.3-1.4x on inline documents); imports 54 ms, Arelle's 480 ms, edgartools' 1154 ms.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from importlib.metadata import version
from pathlib import Path

import pyarrow as pa

import factstore
from factstore import write
from factstore.loaders.batch import Batch
from factstore.loaders.companyfacts import entity_row
from factstore.loaders.xbrl import with_facts
from factstore.xbrl.files import read_xbrl

INSTANCES = ["xbrl/aapl-20250329_htm.xml", "xbrl/aapl-20230930_htm.xml", "xbrl/aapl-20200926_htm.xml",
             "xbrl/nflx-20100930.xml"]
INLINE = ["filings/AAPL_10-Q_2025-05-02_aapl-20250329.htm", "filings/AAPL_10-K_2024-11-01_0000320193-24-000123.html",
          "filings/NVDA_10-K_2025-02-26.html", "filings/GOOGL_10-K_2025-02-05.html"]
PACKAGES = {"Arelle": "arelle-release", "edgartools": "edgartools"}
# what each reader below imports, timed in a fresh interpreter
IMPORTS = {"ours": "from factstore.xbrl.files import read_xbrl", "Arelle": "from arelle import Cntlr",
           "edgartools": "from edgar.documents.config import ParserConfig\n"
                         "from edgar.documents.parser import HTMLParser\n"
                         "from edgar.xbrl.parsers.coordinator import XBRLParser"}
TINY = """<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
 xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:us-gaap="http://fasb.org/us-gaap/2024">
<context id="c"><entity><identifier scheme="http://www.sec.gov/CIK">{cik:010d}</identifier></entity>
<period><startDate>{start}</startDate><endDate>{end}</endDate></period></context>
<unit id="usd"><measure>iso4217:USD</measure></unit>
<dei:DocumentType contextRef="c">10-K</dei:DocumentType>
<dei:DocumentPeriodEndDate contextRef="c">{end}</dei:DocumentPeriodEndDate>
<dei:EntityRegistrantName contextRef="c">Tiny Co</dei:EntityRegistrantName>
<us-gaap:Revenues contextRef="c" unitRef="usd" decimals="-6">1000000</us-gaap:Revenues>
</xbrl>"""
Reader = Callable[[Path], Callable[[], int]]


def best(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The best time of `repeat` runs, in seconds, and the facts the run counted."""
    times, count = [], 0
    for _ in range(repeat):
        t = time.perf_counter()
        count = run()
        times.append(time.perf_counter() - t)
    return min(times), count


def ours(path: Path) -> Callable[[], int]:
    return lambda: len(read_xbrl(path).facts)


def arelle() -> Reader | None:
    """Arelle's reader of a file, offline, or None where Arelle is not installed."""
    try:
        from arelle import Cntlr
    except ImportError:
        return None
    controller = Cntlr.Cntlr(logFileName="logToBuffer")
    controller.webCache.workOffline = True
    # the taxonomy is not fetched offline, and without skipDTS Arelle then keeps no fact of an instance
    controller.modelManager.skipDTS = True

    def reader(path: Path) -> Callable[[], int]:
        def run() -> int:
            model = controller.modelManager.load(str(path))
            # model.facts, not factsInInstance: without the taxonomy an inline fact has no concept and is left out of
            # factsInInstance, though read, value included
            count = sum(fact.value is not None for fact in model.facts)
            controller.modelManager.close(model)
            return count
        return run
    return reader


def edgartools() -> Reader | None:
    """edgartools' reader of a file, or None where edgartools is not installed: its instance parser for an
    instance; for an inline document, the fact pass its HTML parser runs first (the rest of `parse_html` builds the
    document, which ours does not)."""
    try:
        from edgar.documents.config import ParserConfig
        from edgar.documents.parser import HTMLParser
        from edgar.xbrl.parsers.coordinator import XBRLParser
    except ImportError:
        return None

    def reader(path: Path) -> Callable[[], int]:
        def instance() -> int:
            parser = XBRLParser()
            parser.parse_instance_content(path.read_text())
            return len(parser.facts)

        def inline() -> int:
            return len(HTMLParser(ParserConfig())._extract_xbrl_pre_process(path.read_text()))
        return inline if path.suffix in (".htm", ".html") else instance
    return reader


def import_costs(names: list[str], repeat: int) -> dict[str, float]:
    """The time each reader's imports take in a fresh interpreter (its start left out), in seconds: the best of
    `repeat` runs, the readers taking turns."""
    times: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(repeat):
        for name in names:
            code = f"import time\nt = time.perf_counter()\n{IMPORTS[name]}\nprint(time.perf_counter() - t)"
            out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
            times[name].append(float(out))
    return {name: min(spent) for name, spent in times.items()}


def checked(base: str, path: Path, theirs: int, mine: int) -> None:
    """Stop where a baseline read under half our facts from a file: its time would be that of a reader doing
    nothing, and the ratio false."""
    if theirs < mine / 2:
        raise SystemExit(f"{base} read {theirs} facts from {path.name}, ours {mine}: the baseline did not read the "
                         "file, so its time says nothing; stopping")


def compare(real: Path, repeat: int, baselines: dict[str, Reader], imports: dict[str, float]) -> None:
    """Each file read by ours and by each baseline, their facts counted and checked, best of `repeat`; then the
    ratios, and with `imports` (each reader's, timed) the cost of the whole run."""
    print(f"{'file':48} {'facts':>6} {'ours ms':>8} " + " ".join(f"{n + ' facts':>17} {n + ' ms':>14} {'ratio':>6}"
                                                                 for n in baselines))
    if imports:
        print(f"{'import (fresh interpreter)':48} {'-':>6} {imports['ours'] * 1000:>8.1f} " + " ".join(
            f"{'-':>17} {imports[base] * 1000:>14.1f} {imports[base] / imports['ours']:>5.1f}x" for base in baselines))
    ratios: dict[str, list[float]] = {n: [] for n in baselines}
    totals: dict[str, float] = {n: imports.get(n, 0.0) for n in ["ours", *baselines]}
    for name in INSTANCES + INLINE:
        path = real / name
        runs = {"ours": ours(path)} | {base: reader(path) for base, reader in baselines.items()}
        # interleaved, one run of each in turn, so that a slower spell of a shared machine falls on all of them
        times: dict[str, list[float]] = {who: [] for who in runs}
        counts: dict[str, int] = {}
        for _ in range(repeat):
            for who, run in runs.items():
                spent, counts[who] = best(run, 1)
                times[who].append(spent)
        mine = min(times["ours"])
        totals["ours"] += mine
        row = f"{Path(name).name[:48]:48} {counts['ours']:>6} {mine * 1000:>8.1f} "
        for base in baselines:
            checked(base, path, counts[base], counts["ours"])
            theirs = min(times[base])
            totals[base] += theirs
            ratios[base].append(theirs / mine)
            row += f"{counts[base]:>17} {theirs * 1000:>14.1f} {theirs / mine:>5.1f}x "
        print(row.rstrip())
    for base, values in ratios.items():
        print(f"{base} / ours: {statistics.geometric_mean(values):.1f}x (geometric mean over {len(values)} files; "
              f"{min(values):.1f}x to {max(values):.1f}x)")
    if imports:
        print(f"all {len(INSTANCES + INLINE)} files read once, imports included: ours {totals['ours'] * 1000:.0f} ms; "
              + "; ".join(f"{base} {totals[base] * 1000:.0f} ms ({totals[base] / totals['ours']:.1f}x)"
                          for base in baselines))


def tiny(i: int) -> tuple[str, str]:
    """The i-th one-fact filing (a 10-K for a year ending a month after the last one's: a store holds one 10-K per
    period) and its acceptance, 40 days after that year's end."""
    end = date(1994, 12, 31) + timedelta(days=31 * i)
    start = end.replace(year=end.year - 1) + timedelta(days=1)
    return TINY.format(cik=42, start=start, end=end), (end + timedelta(days=40)).isoformat()


def fixed_cost(repeat: int) -> None:
    """A one-fact filing: read, and loaded into a store (a new filing each time); then the floor under that load:
    the same filing's rows written by the write plan's six inserts alone, in one transaction, nothing checked."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tiny.xml"
        path.write_text(tiny(0)[0])
        read_s, _ = best(ours(path), repeat * 20)
        with factstore.open(Path(folder) / "store.duckdb") as store:
            times, floor = [], []
            for i in range(repeat * 8 + 1):
                body, accepted = tiny(i)
                path.write_text(body)
                t = time.perf_counter()
                if i % 2 or not i:
                    store.load_xbrl(path, accession=f"0000000042-00-{i:06d}", accepted_at=accepted, progress=False)
                else:
                    inserts_only(store, path, f"0000000042-00-{i:06d}", accepted)
                (times if i % 2 else floor).append(time.perf_counter() - t)
            floor = floor[1:]  # the first one is a load that also writes the company
    print(f"fixed cost of a one-fact filing: read {read_s * 1000:.2f} ms; read and loaded "
          f"{statistics.median(times) * 1000:.1f} ms (median of {len(times)} loads); its six inserts alone, "
          f"unchecked, {statistics.median(floor) * 1000:.1f} ms")


def inserts_only(store: factstore.FactStore, path: Path, accession: str, accepted: str) -> None:
    """A one-fact filing's rows (filing, report, XBRL fact, period, concept, load) written by the write plan's
    statements alone in one transaction: no check, no entity, no count."""
    batch = Batch(source=str(path), kind="xbrl", entities=entity_row(42, "Tiny Co", {}))
    batch.filings = pa.table({"filing_id": [accession], "entity_id": ["0000000042"], "form": ["10-K"],
                              "period_end": [date.fromisoformat(accepted) - timedelta(days=40)],
                              "filed": [date.fromisoformat(accepted)],
                              "accepted_at": [datetime.fromisoformat(accepted)], "accepted_precision": ["date"],
                              "accepted_note": [None], "source": [str(path)]})
    batch = with_facts(batch, read_xbrl(path))
    con = store.db.con
    with store.db.transaction():
        for name in ("filings", "reports", "xbrl"):
            con.register(f"_batch_{name}", getattr(batch, name))
        for name in ("insert_filings", "plain_reports", "insert_reports", "insert_periods", "insert_xbrl_facts"):
            con.execute(write.SQL[name]).fetchall()
        con.execute(write.SQL["insert_concepts"].format(concepts="_new_reports"))
        con.execute("INSERT INTO loads VALUES (now()::TIMESTAMP, 'xbrl', ?, 1, 1)", [str(path)])
        con.execute("DROP VIEW _new_reports")
        for name in ("filings", "reports", "xbrl"):
            con.unregister(f"_batch_{name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared/real")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    baselines = {"Arelle": arelle(), "edgartools": edgartools()}
    for name, reader in baselines.items():
        print(f"{name}: {PACKAGES[name]} {version(PACKAGES[name])}" if reader else
              f"{name}: not installed, left out (pip install {PACKAGES[name]})")
    installed = {name: reader for name, reader in baselines.items() if reader is not None}
    compare(args.real, args.repeat, installed, import_costs(["ours", *installed], args.repeat))
    fixed_cost(args.repeat)
    print(f"ran {datetime.now():%Y-%m-%d %H:%M}: {shlex.join([sys.executable, *sys.argv])}")


if __name__ == "__main__":
    main()
