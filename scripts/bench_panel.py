"""Benchmark: a backtest panel from store.panel against what a quant would write on the same raw facts, a pandas
merge_asof, in one run.

The market is scripts/make_market.py's (made from the eight real companyfacts files), loaded as users load the
SEC's bulk archive (`store.fetch_bulk`, as `factstore fetch bulk`). The panel: the market's first --companies
companies × --months month ends (to 2025-06) × 10 us-gaap tags. Each side runs in a process of its own, so each
peak RSS is its own:

- ours: store.panel(tickers, tags, month_ends), timed alone and with the store's opening;
- the baseline: the tags' raw rows read from the store's `reports` table into pandas (timed apart: "the read"),
  then asof_panel: 3-month periods and instants, for each date the newest period known strictly before it
  (merge_asof on the acceptance time).

Cells where both give a value are compared; the quarters the store derives (Q4 = FY - 9M, Q2 = H1 - Q1, ...) are
counted apart. The run stops if the baseline answers no cell, or fewer than half of the store's reported ones.

    python scripts/bench_panel.py                                            # 300 companies, about a minute
    python scripts/bench_panel.py --companies 1000 --store /tmp/m1000.duckdb  # keep the store for the next run
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

TAGS = ["RevenueFromContractWithCustomerExcludingAssessedTax", "NetIncomeLoss", "OperatingIncomeLoss",
        "EarningsPerShareDiluted", "NetCashProvidedByUsedInOperatingActivities", "Assets", "Liabilities",
        "StockholdersEquity", "CashAndCashEquivalentsAtCarryingValue", "LongTermDebt"]
END = "2025-06-30"  # the last month end (the real files end between 2022 and 2026)
KEY = ["entity_id", "concept"]
CELL = ["date", *KEY]


def asof_panel(facts: pd.DataFrame, dates: pd.DatetimeIndex) -> pd.DataFrame:
    """What a quant would write: for each date and (entity_id, concept) of the facts, the newest 3-month period or
    instant among the facts accepted strictly before the date, with the value of its latest filing then (columns
    date, entity_id, concept, period_end, value; NaN where none is known yet)."""
    days = (facts["period_end"] - facts["period_start"]).dt.days + 1
    f = facts[facts["unit"].isin(["USD", "USD/shares"]) & (facts["period_start"].isna() | days.between(80, 105))]
    f = f.sort_values(["accepted_at", "filing_id"])
    # a row counts only if it brings a newer period of its (entity, concept) than any before it, or restates it
    f = f[f["period_end"] == f.groupby(KEY)["period_end"].cummax()]
    grid = f[KEY].drop_duplicates().merge(pd.DataFrame({"date": dates.astype(f["accepted_at"].dtype)}), how="cross")
    return pd.merge_asof(grid.sort_values("date"), f[[*KEY, "accepted_at", "period_end", "value"]], left_on="date",
                         right_on="accepted_at", by=KEY, allow_exact_matches=False).drop(columns="accepted_at")


def read_facts(store: Path, entity_ids: list[str], concepts: list[str]) -> pd.DataFrame:
    """The concepts' raw rows of those entities, straight from the store's `reports` table."""
    with duckdb.connect(str(store), read_only=True) as con:
        return con.execute("SELECT entity_id, concept, unit, period_start, period_end, value, accepted_at, form, "
                           "filing_id FROM reports WHERE concept IN (SELECT unnest($1)) "
                           "AND entity_id IN (SELECT unnest($2))", [concepts, entity_ids]).df()


def memory_mb(field: str) -> float:
    """This process's VmRSS (resident memory now) or VmHWM (its peak) in MB. (Not getrusage's ru_maxrss: Linux
    carries it over an exec, so a side's would be at least the parent's peak.)"""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"bench_panel: no {field} in /proc/self/status")


def run_side(out: Path, side: str) -> None:
    """One side, in this process: its cells to OUT/<side>.parquet, its seconds and memory to OUT/<side>.json."""
    job = json.loads((out / "job.json").read_text())
    store, dates, tags = Path(job["store"]), pd.DatetimeIndex(job["dates"]), job["tags"]
    entity_of = dict(zip(job["tickers"], job["entity_ids"], strict=True))
    figures = {"start_mb": memory_mb("VmRSS")}
    if side == "ours":
        import factstore  # (here: the baseline's process never loads factstore)

        t = time.perf_counter()
        fs = factstore.open(store, read_only=True)
        opened = time.perf_counter()
        cells = fs.panel(job["tickers"], tags, dates)
        done = time.perf_counter()
        fs.close()
        figures |= {"panel_s": done - opened, "open_panel_s": done - t}
        cells = cells.assign(entity_id=cells["ticker"].map(entity_of))[
            [*CELL, "fiscal_period", "period_end", "value", "derived"]]
    else:
        t = time.perf_counter()
        facts = read_facts(store, job["entity_ids"], tags)
        read = time.perf_counter()
        cells = asof_panel(facts, dates)
        done = time.perf_counter()
        figures |= {"read_s": read - t, "asof_s": done - read, "rows": len(facts)}
    figures["peak_mb"] = memory_mb("VmHWM")
    cells.to_parquet(out / f"{side}.parquet")
    (out / f"{side}.json").write_text(json.dumps(figures))


def prepare(store: Path, out: Path, companies: int, seed: int) -> None:
    """Write the market's zips into OUT and load them into STORE, as `factstore fetch bulk` does; a STORE that
    exists is only opened once for writing, which brings one written by another version up to date (a read-only
    open refuses it)."""
    from make_market import make_market

    import factstore  # (here: the baseline's process never loads factstore)

    if store.exists():
        factstore.open(store).close()
        print(f"store: {store} (reused)")
        return
    t = time.perf_counter()
    counts = make_market(companies, seed, out)
    print(f"market: {counts['companies']:,} companies, {counts['facts']:,} facts in {out} "
          f"({time.perf_counter() - t:.1f} s)")
    t, cpu, before = time.perf_counter(), time.process_time(), memory_mb("VmRSS")
    with factstore.open(store) as fs:  # created, loaded, committed and closed, all timed
        fs.fetch_bulk(out / "companyfacts.zip", submissions=out / "submissions.zip", progress=False)
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    with duckdb.connect(str(store), read_only=True) as con:
        facts = con.execute("SELECT count(*) FROM reports").fetchone()[0]
    size = store.stat().st_size
    print(f"loaded into {store} by store.fetch_bulk: {facts:,} facts in {wall:.1f} s, {cpu:.1f} CPU-s "
          f"({facts / cpu:,.0f} facts per CPU-s); store {size / 2**20:,.0f} MB ({size / facts:.1f} bytes a fact); "
          f"peak RSS {memory_mb('VmHWM'):,.0f} MB ({before:,.0f} MB before the load)")


def compare(ours: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
    """The cells with a value on either side, side by side (ours' columns, the baseline's with `_base`), each with
    its kind: equal, unequal (both give a value, ours a reported quarter), derived (ours a quarter the store
    derives), ours_only (reported), baseline_only."""
    cells = ours[ours["value"].notna()].merge(base[base["value"].notna()], on=CELL, how="outer",
                                              suffixes=("", "_base"), indicator=True)
    derived = cells["derived"].fillna(False).astype(bool)
    equal = np.isclose(cells["value"], cells["value_base"], rtol=1e-9, atol=0)
    kind = np.select([derived, cells["_merge"] == "left_only", cells["_merge"] == "right_only", equal],
                     ["derived", "ours_only", "baseline_only", "equal"], "unequal")
    return cells.drop(columns="_merge").assign(kind=kind)


def report(cells: pd.DataFrame, ours: dict[str, float], base: dict[str, float]) -> None:
    """Print the times, memory and cell counts; stop if the baseline did (next to) nothing."""
    n = cells["kind"].value_counts().reindex(["equal", "unequal", "derived", "ours_only", "baseline_only"],
                                             fill_value=0)
    reported, answered = n["equal"] + n["unequal"] + n["ours_only"], cells["value_base"].notna().sum()
    print(f"store.panel:            {ours['panel_s']:7.2f} s  (open + panel {ours['open_panel_s']:.2f} s)  "
          f"peak RSS {ours['peak_mb']:,.0f} MB ({ours['start_mb']:,.0f} MB after imports)")
    print(f"the read (pandas):      {base['read_s']:7.2f} s  ({base['rows']:,} rows of reports)")
    print(f"asof_panel (merge_asof):{base['asof_s']:7.2f} s  peak RSS {base['peak_mb']:,.0f} MB "
          f"({base['start_mb']:,.0f} MB after imports; the read's frame included)")
    both = base["read_s"] + base["asof_s"]
    print(f"ratio, our time over the baseline's (below 1: ours faster): store.panel / merge_asof "
          f"{ours['panel_s'] / base['asof_s']:,.2f}x; store.panel / (read + merge_asof) "
          f"{ours['panel_s'] / both:,.2f}x; (open + panel) / (read + merge_asof) {ours['open_panel_s'] / both:,.2f}x")
    older = (cells["kind"].eq("derived") & cells["value_base"].notna()).sum()
    print(f"cells with a value: ours {reported + n['derived']:,} ({n['derived']:,} derived), baseline {answered:,}; "
          f"equal {n['equal']:,}, unequal {n['unequal']:,}; quarters only the store derives {n['derived']:,} "
          f"(the baseline gives an older period in {older:,}); reported, ours only {n['ours_only']:,}; "
          f"baseline only {n['baseline_only']:,}")
    if answered == 0 or answered < reported / 2:
        raise SystemExit(f"bench_panel: the baseline answered {answered:,} cells against the store's {reported:,} "
                         "reported ones: it did not do the work")
    wrong = cells[cells["kind"] == "unequal"]
    for c in wrong.head(5).itertuples():
        print(f"  unequal: {c.date:%Y-%m-%d} {c.entity_id} {c.concept}: ours {c.fiscal_period} ending "
              f"{c.period_end:%Y-%m-%d} = {c.value:,.6g}; baseline ending {c.period_end_base:%Y-%m-%d} = "
              f"{c.value_base:,.6g}")
    if len(wrong):
        newer = (wrong["period_end"] > wrong["period_end_base"]).sum()
        older = (wrong["period_end"] < wrong["period_end_base"]).sum()
        print(f"  of {len(wrong):,} unequal: ours a newer period in {newer:,}, an older in {older:,}, "
              f"the same period in {len(wrong) - newer - older:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=300, help="the market's first N companies (default 300)")
    parser.add_argument("--tags", "--metrics", default=",".join(TAGS),
                        help="comma-separated us-gaap tags (default: 10 every us-gaap filer of the real files has)")
    parser.add_argument("--months", type=int, default=120, help=f"month ends, up to {END[:7]} (default 120)")
    parser.add_argument("--store", type=Path, help="a store to use (kept); made and loaded there if missing")
    parser.add_argument("--out", type=Path, help="folder for the market's zips, the store (without --store) and each "
                        "side's results (default: a temporary folder, removed after)")
    parser.add_argument("--seed", type=int, default=7, help="make_market's seed (default 7)")
    parser.add_argument("--market", type=int, help="companies to make and load (default --companies): an EDGAR-sized "
                        "market of 18,000 with the panel over its first --companies")
    parser.add_argument("--side", choices=["ours", "baseline"], help=argparse.SUPPRESS)  # a side's own process
    args = parser.parse_args()
    if args.side:
        return run_side(args.out, args.side)
    out = args.out or Path(tempfile.mkdtemp(prefix="bench_panel_"))
    out.mkdir(parents=True, exist_ok=True)
    try:
        store = args.store or out / "market.duckdb"
        prepare(store, out, args.market or args.companies, args.seed)
        with duckdb.connect(str(store), read_only=True) as con:
            entities = con.execute("SELECT entity_id, coalesce(tickers[1], cik::VARCHAR) FROM entities "
                                   "ORDER BY entity_id LIMIT $1", [args.companies]).fetchall()
        if len(entities) < args.companies:
            raise SystemExit(f"bench_panel: {store} holds {len(entities):,} companies, not {args.companies:,}")
        dates = pd.date_range(end=END, periods=args.months, freq="ME")
        tags = ["us-gaap:" + t.strip() for t in args.tags.split(",")]
        (out / "job.json").write_text(json.dumps({
            "store": str(store), "entity_ids": [e for e, _ in entities], "tickers": [t for _, t in entities],
            "tags": tags, "dates": [str(d.date()) for d in dates]}))
        print(f"panel: {len(entities):,} companies × {len(dates)} month ends ({dates[0]:%Y-%m} to {dates[-1]:%Y-%m}) "
              f"× {len(tags)} tags = {len(entities) * len(dates) * len(tags):,} cells")
        figures = {}
        for side in ("ours", "baseline"):
            if subprocess.run([sys.executable, __file__, "--side", side, "--out", str(out)]).returncode:
                raise SystemExit(f"bench_panel: the {side} side failed (its error is above)")
            figures[side] = json.loads((out / f"{side}.json").read_text())
        report(compare(pd.read_parquet(out / "ours.parquet"), pd.read_parquet(out / "baseline.parquet")),
               figures["ours"], figures["baseline"])
        print(f"command: {shlex.join(['python', 'scripts/bench_panel.py', *sys.argv[1:]])}")
    finally:
        if args.out is None:
            shutil.rmtree(out)


if __name__ == "__main__":
    main()
