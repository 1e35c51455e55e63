"""Benchmark reading XBRL: factstore's reader against Arelle (the reference processor) and edgartools' instance
parser, on the same real files (shared/real), in one run; then factstore's fixed cost per filing, read and loaded.

    python -m venv /tmp/bench && /tmp/bench/bin/pip install -e . arelle-release edgartools
    /tmp/bench/bin/python scripts/bench_xbrl.py [--real ../shared/real] [--repeat 5]

Neither Arelle nor edgartools is a dependency of factstore: a baseline that is not installed is left out, saying
so. Arelle runs offline: it reads each file without its taxonomy (which it would otherwise fetch), so its times
here are below what it costs with the DTS loaded. Each time is the best of `--repeat` runs, the readers taking
turns run by run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
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


def arelle() -> Callable[[Path], Callable[[], int]] | None:
    """Arelle's reader of a file (offline, no taxonomy), or None where Arelle is not installed."""
    try:
        from arelle import Cntlr
    except ImportError:
        return None
    controller = Cntlr.Cntlr(logFileName="logToBuffer")
    controller.webCache.workOffline = True

    def reader(path: Path) -> Callable[[], int]:
        def run() -> int:
            model = controller.modelManager.load(str(path))
            count = len(model.factsInInstance)
            controller.modelManager.close(model)
            return count
        return run
    return reader


def edgartools() -> Callable[[Path], Callable[[], int]] | None:
    """edgartools' instance parser of a file, or None where edgartools is not installed."""
    try:
        from edgar.xbrl.parsers.coordinator import XBRLParser
    except ImportError:
        return None

    def reader(path: Path) -> Callable[[], int]:
        text = path.read_text()

        def run() -> int:
            parser = XBRLParser()
            parser.parse_instance_content(text)
            return len(parser.facts)
        return run
    return reader


def compare(real: Path, repeat: int) -> None:
    baselines = {"Arelle": arelle(), "edgartools": edgartools()}
    for name, reader in baselines.items():
        if reader is None:
            print(f"{name}: not installed, left out (pip install {'arelle-release' if name == 'Arelle' else name})")
    print(f"{'file':48} {'facts':>6} {'ours ms':>8} " + " ".join(f"{n + ' ms':>14} {'ratio':>6}"
                                                                 for n in baselines))
    ratios: dict[str, list[float]] = {n: [] for n in baselines}
    for name in INSTANCES + INLINE:
        path = real / name
        runs = {"ours": ours(path)} | {base: reader(path) for base, reader in baselines.items()
                                       if reader is not None and not (base == "edgartools" and name in INLINE)}
        # interleaved, one run of each in turn, so that a slower spell of a shared machine falls on all of them
        times: dict[str, list[float]] = {who: [] for who in runs}
        facts = 0
        for _ in range(repeat):
            for who, run in runs.items():
                spent, count = best(run, 1)
                times[who].append(spent)
                facts = count if who == "ours" else facts
        mine = min(times["ours"])
        row = f"{Path(name).name[:48]:48} {facts:>6} {mine * 1000:>8.1f} "
        for base in baselines:
            if base not in times:
                row += f"{'-':>14} {'-':>6} "
                continue
            theirs = min(times[base])
            ratios[base].append(theirs / mine)
            row += f"{theirs * 1000:>14.1f} {theirs / mine:>5.1f}x "
        print(row)
    for base, values in ratios.items():
        if values:
            print(f"ours against {base}: {statistics.geometric_mean(values):.1f}x faster (geometric mean), "
                  f"{min(values):.1f}x at least, over {len(values)} files")


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
    compare(args.real, args.repeat)
    fixed_cost(args.repeat)


if __name__ == "__main__":
    main()
