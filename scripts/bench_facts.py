"""Benchmark: as-of lookups through factstore against the course's pandas approach and a bare DuckDB point query,
in one run.

The course answers each question with a boolean mask over every row of the XBRL frame, then takes the
latest row accepted at or before as_of. We time that on a sample of the lookups (all of them would take
hours at 10 million rows) and extrapolate per lookup; factstore answers every lookup, one call each on
a sample and all of them as one batch (`store.facts`). Answers are checked equal on the pandas sample.
Each single fact() call (the value with its filing, the filing that first reported it, and the derived quarter
where nothing is reported for the dates) is timed beside the bare point query on the same rows: one SELECT on
the reports table for that entity, concept and period, the newest version accepted by as_of.

    python scripts/bench_facts.py                      # 10 million facts, 10,000 lookups
    python scripts/bench_facts.py --companies 300      # a quick run (about 1 million facts)
    python scripts/bench_facts.py --store /tmp/facts.duckdb  # keep the loaded store, reuse it next time
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import factstore  # noqa: E402
from factstore.demo.data import generate  # noqa: E402


def pandas_lookup(df: pd.DataFrame, ticker: str, concept: str, start, end, as_of) -> float | None:
    """The course's approach: a boolean mask over all rows, then the latest accepted by as_of."""
    mask = ((df["ticker"] == ticker) & (df["concepto"] == concept) & (df["periodo_fin"] == end)
            & (df["ts_presentacion"] <= as_of))
    mask &= df["periodo_inicio"].isna() if pd.isna(start) else (df["periodo_inicio"] == start)
    hits = df[mask]
    if hits.empty:
        return None
    return float(hits.sort_values(["ts_presentacion", "id_doc"]).iloc[-1]["valor"])


# the same lookup written as one plain SELECT on the reports table, two ways (the faster one is the reference)
BARE = {
    "arg_max": "SELECT arg_max({'value': value, 'filing_id': filing_id, 'form': form, 'accepted_at': accepted_at}, "
               "(accepted_at, filing_id)) FROM reports WHERE entity_id = ? AND concept = ? AND period_end = ? "
               "AND period_start IS NOT DISTINCT FROM ? AND accepted_at <= ?",
    "ORDER BY LIMIT 1": "SELECT value, filing_id, form, accepted_at FROM reports WHERE entity_id = ? AND concept = ? "
                        "AND period_end = ? AND period_start IS NOT DISTINCT FROM ? AND accepted_at <= ? "
                        "ORDER BY accepted_at DESC, filing_id DESC LIMIT 1",
}


def time_single(store: factstore.FactStore, questions: pd.DataFrame, rounds: int = 3) -> dict[str, float]:
    """Seconds per lookup of store.fact() and of each bare point query on the same lookups, interleaved call by
    call (so all see the same machine), after a warm-up round."""
    rows = [(q.entity, q.concept, None if pd.isna(q.period_start) else q.period_start.date(), q.period_end.date(),
             q.as_of.tz_convert(None).floor("us").to_pydatetime()) for q in questions.itertuples()]  # naive UTC
    spent = dict.fromkeys(["fact", *BARE], 0.0)
    for round_no in range(rounds + 1):
        for entity, concept, start, end, as_of in rows:
            t = time.perf_counter()
            store.fact(entity, concept, start=start, end=end, as_of=as_of)
            times = {"fact": time.perf_counter() - t}
            for name, query in BARE.items():
                t = time.perf_counter()
                store.con.execute(query, [entity, concept, end, start, as_of]).fetchall()
                times[name] = time.perf_counter() - t
            if round_no:
                spent = {k: v + times[k] for k, v in spent.items()}
    return {k: v / (rounds * len(rows)) for k, v in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=3000, help="fictitious companies (3000 -> ~10M facts)")
    parser.add_argument("--extra-concepts", type=int, default=40, help="extra line items per filing")
    parser.add_argument("--lookups", type=int, default=10_000, help="random as-of lookups")
    parser.add_argument("--pandas-sample", type=int, default=30, help="lookups timed with pandas")
    parser.add_argument("--single-sample", type=int, default=300, help="lookups timed one call each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", type=Path, help="store file: loaded when missing, reused when there (same args)")
    args = parser.parse_args()

    t = time.perf_counter()
    data = generate(companies=args.companies, extra_concepts=args.extra_concepts, html=False)
    print(f"generated {len(data.xbrl):,} facts in {len(data.documents):,} filings "
          f"({time.perf_counter() - t:.1f}s)")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or Path(tmp) / "bench.duckdb"
        reuse = path.exists()
        store = factstore.open(path)
        if reuse:
            print(f"reusing {path}")
        else:
            paths = data.write(tmp)
            t = time.perf_counter()
            report = store.load_course(xbrl=paths["xbrl"], documents=paths["documents"])
            load_s = time.perf_counter() - t
            print(f"load: {report.reports:,} facts in {load_s:.1f}s = {report.reports / load_s:,.0f} facts/s "
                  "(read, validate, insert; one transaction)")
        stored = store.sql("SELECT count(*) AS n FROM reports")["n"][0]
        if stored != len(data.xbrl.drop_duplicates()):
            raise SystemExit(f"{path} holds {stored:,} facts, not these {len(data.xbrl):,}: give it the same arguments")

        rng = np.random.default_rng(args.seed)
        xbrl = data.xbrl.merge(data.documents[["id_doc", "ticker"]], on="id_doc")
        picks = xbrl.iloc[rng.integers(0, len(xbrl), args.lookups)]
        lo, hi = xbrl["ts_presentacion"].min().value, xbrl["ts_presentacion"].max().value
        as_of = pd.to_datetime(rng.integers(lo, hi, args.lookups), utc=True)
        questions = pd.DataFrame({"entity": picks["ticker"].to_numpy(), "concept": picks["concepto"].to_numpy(),
                                  "period_start": picks["periodo_inicio"].to_numpy(),
                                  "period_end": picks["periodo_fin"].to_numpy(), "as_of": as_of})

        t = time.perf_counter()
        answers = store.facts(questions)
        batch_s = time.perf_counter() - t
        answered = answers["value"].notna().sum()
        print(f"factstore batch: {args.lookups:,} lookups in {batch_s:.3f}s = "
              f"{batch_s / args.lookups * 1e6:,.1f} us/lookup ({answered:,} known at their as_of)")

        n = min(args.single_sample, args.lookups)
        single = time_single(store, questions.head(n))
        single_s = single.pop("fact")
        bare, bare_s = min(single.items(), key=lambda kv: kv[1])
        print(f"factstore fact(): {n} single calls, {single_s * 1e3:,.2f} ms/lookup")
        print("bare DuckDB point query on the same rows: " + ", ".join(
            f"{v * 1e3:,.2f} ms/lookup ({k})" for k, v in single.items()))

        m = min(args.pandas_sample, args.lookups)
        t = time.perf_counter()
        expected = [pandas_lookup(xbrl, q.entity, q.concept, q.period_start, q.period_end, q.as_of)
                    for q in questions.head(m).itertuples()]
        pandas_s = (time.perf_counter() - t) / m
        print(f"pandas mask (course approach): {m} of {args.lookups:,} lookups timed, {pandas_s * 1e3:,.1f} "
              f"ms/lookup; all {args.lookups:,} would take ~{pandas_s * args.lookups / 60:,.1f} min")
        got = answers["value"].head(m).tolist()
        same = all((a is None and pd.isna(b)) or a == b for a, b in zip(expected, got, strict=True))
        print(f"answers identical on the pandas sample: {same}")
        if not same:
            raise SystemExit("factstore and pandas disagree")
        print(f"\nratio, batch vs pandas: {pandas_s / (batch_s / args.lookups):,.0f}x")
        print(f"ratio, single fact() vs pandas: {pandas_s / single_s:,.0f}x")
        print(f"ratio, single fact() vs the bare point query ({bare}, {stored:,} facts): {single_s / bare_s:.2f}x "
              "the time")
        store.close()


if __name__ == "__main__":
    main()
