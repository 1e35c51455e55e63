"""The demo: generate the course-format demo data, load it, and ask the questions the store exists for.

The generated files (deterministic: the same for the same arguments, so made once and reused) go to a cache folder,
the same rule from a wheel as from a checkout: $FACTSTORE_CACHE if set, else the user's cache folder,
$XDG_CACHE_HOME/factstore or ~/.cache/factstore (`factstore demo --cache DIR` names another). Under it,
demo-<companies>/ holds the course files and reports/ the report corpus. (It used to be data/cache/ of the
checkout, found from this file's path: in an installed wheel that was site-packages/data/cache.)
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from factstore.cache import cache_dir
from factstore.demo.data import write_course_files
from factstore.demo.reports import write_report_files
from factstore.show import fact_lines, number

if TYPE_CHECKING:
    from factstore.store import FactStore

REVENUE = "revenue"  # a metric: its tags (Rapsa switched from SalesRevenueNet) are one series


def demo_files(companies: int = 40, cache: str | Path | None = None) -> dict[str, Path]:
    """The demo data files, generated once into <cache>/demo-<companies>/ (deterministic; cache: cache_dir())."""
    folder = Path(cache or cache_dir()) / f"demo-{companies}"
    names = {"documents": "filings6_documentos.parquet", "xbrl": "filings6_xbrl.parquet",
             "sales": "acciones6_ventas.csv"}
    paths = {k: folder / v for k, v in names.items()}
    if not all(p.exists() for p in paths.values()):
        paths = write_course_files(folder, companies=companies)
    return paths


def report_files(cache: str | Path | None = None) -> dict[str, Path]:
    """The demo report corpus files (rag6 format), generated once into <cache>/reports/ (cache: cache_dir())."""
    folder = Path(cache or cache_dir()) / "reports"
    paths = {k: folder / v for k, v in {"documents": "rag6_documentos.parquet", "passages": "rag6_pasajes.parquet",
                                        "questions": "rag6_preguntas.csv"}.items()}
    if not all(p.exists() for p in paths.values()):
        paths = write_report_files(folder)
    return paths


def _say(title: str) -> None:
    print(f"\n== {title}")


def run_demo(store: FactStore, companies: int = 40, cache: str | Path | None = None) -> None:
    """Load the demo data into `store` and walk through point-in-time questions (the data generated into, or read
    from, the cache folder: see the module docstring)."""
    files = demo_files(companies, cache)
    started = time.perf_counter()
    report = store.load_course(xbrl=files["xbrl"], documents=files["documents"], sales=files["sales"])
    seconds = time.perf_counter() - started
    total = store.sql("SELECT count(*) AS n FROM reports")["n"][0]
    print(f"demo data: {files['xbrl'].parent}")
    print(f"loaded {report.filings} filings ({report.reports:,} reported facts, {report.documents} HTML documents "
          f"parsed into sections) in {seconds:.2f}s; the store holds {total:,} reports"
          + (" (already loaded: nothing added)" if report.reports == 0 else ""))

    _say("What was Rapsa's revenue in Q4 2019, as known on 2020-06-30?")
    q4 = store.fact("RPS", REVENUE, period="2019Q4", as_of="2020-06-30", strict=True)
    print(fact_lines(q4))
    ref = store.sql("SELECT sales_millions FROM sales_reference WHERE entity_id = 'RPS' AND quarter_end = ?",
                    [q4.end])
    if len(ref):
        print(f"  course reference (acciones6_ventas.csv): {ref['sales_millions'][0]:,.3f} million")

    _say("An amendment changes the answer exactly when it is accepted, not a second before")
    amended = store.sql("""
        SELECT r.entity_id, r.concept, r.period_start, r.period_end, r.new_value, r.old_value,
               r.restated_at, r.new_form, r.new_filing_id
        FROM restatements r WHERE r.entity_id = 'RPS' AND r.new_form = '10-Q/A'
        ORDER BY r.restated_at LIMIT 1""")
    if len(amended):
        a = amended.iloc[0]
        at = a["restated_at"].to_pydatetime()
        for moment in (at - timedelta(seconds=1), at):
            f = store.fact("RPS", a["concept"], start=a["period_start"], end=a["period_end"], as_of=moment)
            print(f"  as of {moment:%Y-%m-%d %H:%M:%S} UTC: {number(f.value)} ({f.form} {f.source})")

    _say("A 10-K/A restates the year: Q4 then mixes a restated FY with a first-reported 9 months")
    restated = store.sql("""
        SELECT concept, period_end, restated_at FROM restatements
        WHERE entity_id = 'RPS' AND new_form = '10-K/A' AND duration_class(period_start, period_end) = 'year'
        ORDER BY restated_at LIMIT 1""")
    if len(restated):
        r = restated.iloc[0]
        label = store.sql("SELECT fiscal_period FROM fiscal_facts(NULL, mode := 'latest', entity := 'RPS') "
                          "WHERE concept = ? AND period_end = ? AND fiscal_period LIKE 'FY%'",
                          [r["concept"], r["period_end"]])["fiscal_period"][0]
        quarter = label[2:] + "Q4"
        after = r["restated_at"] + pd.Timedelta(days=1)
        for mode, as_of in (("as_of", r["restated_at"] - pd.Timedelta(seconds=1)), ("as_of", after),
                            ("first", after), ("latest", None)):
            f = store.fact("RPS", REVENUE, period=quarter, as_of=as_of, mode=mode)
            when = f" as of {as_of:%Y-%m-%d %H:%M:%S}" if as_of is not None else ""
            flag = f"  [{'; '.join(f.warnings)}]" if f.warnings else ""
            print(f"  {quarter} mode={mode}{when}: {number(f.value)}{flag}")

    _say("Rapsa's discrete quarters as known on 2021-03-01 (Q4 derived, flagged)")
    table = store.quarters("RPS", REVENUE, as_of="2021-03-01")
    print(table[["fiscal_period", "period_start", "period_end", "value", "derived", "formula", "form",
                 "accepted_at"]].tail(8).to_string(index=False))

    _say("The same from SQL (paste into `duckdb -readonly <db>`)")
    query = ("SELECT fiscal_period, value, derived, formula, note FROM quarters_asof('2021-03-01', entity := 'RPS', "
             "concepts := ['revenue']) WHERE fiscal_year = 2020 ORDER BY fiscal_quarter")
    print(f"  {query}")
    print(store.sql(query).to_string(index=False))
    _say("Which risks does Busmar Hogar name? (BM25 over chunked reports; citations are character offsets)")
    reports = report_files(cache)
    store.load_reports(reports["documents"])
    for rank, hit in enumerate(store.search("¿Qué riesgos principales señala Busmar Hogar?", k=3,
                                            strategy="scoped", header=True), 1):
        spans = ", ".join(f"{a}-{b}" for a, b in hit.spans)
        print(f"  {rank}. {hit.title} > {hit.section} [{hit.doc_id} chars {spans}] score {hit.score:.2f}")
        print("     " + hit.text[:240].replace("\n", " ") + ("..." if len(hit.text) > 240 else ""))

    _say("Search Rapsa's 10-K for fiscal 2019, filtered by issuer, form and year")
    for hit in store.search("risk factors competition customers", k=2, filters={
            "issuer": "Rapsa", "form": "10-K", "year": 2019}, header=True):
        print(f"  {hit.header} [{hit.doc_id} chars {hit.spans[0][0]}-{hit.spans[0][1]}]")
        print("     " + hit.text[:200].replace("\n", " ") + "...")
    _say("Ask in either language: facts for numbers, cited passages for the rest")
    for question in ("¿Cuánto crecieron las ventas de Rapsa en el ejercicio 2021?",
                     "¿Qué ETF de Gestora Atalaya tiene los gastos corrientes más bajos?"):
        answer = store.ask(question)
        print(f"  {question}\n  [{answer.kind}] {answer.explanation}")
        for row in answer.table:
            print(f"    {row['entity']}: {' '.join(row['text'].split())[:110]}")
    print(f"\nRetrieval evaluation on the report corpus: factstore eval retrieval --documents "
          f"{reports['documents']} --passages {reports['passages']} --questions {reports['questions']}")
    print("\nTry: factstore fact RPS revenue --period 2019Q4 --as-of 2020-06-30 --db <db>, "
          "factstore fundamentals RPS --metric revenue,net_income --dimension MRY --db <db>")
