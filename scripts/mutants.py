"""Mutation audit: put plausible bugs into a copy of the tree, one at a time, and show which test kills each.

    .venv/bin/python scripts/mutants.py            # every mutant
    .venv/bin/python scripts/mutants.py -k q4      # those whose name contains 'q4'
    .venv/bin/python scripts/mutants.py --list

Each mutant replaces one exact text in one file (the script refuses a mutant whose text is not found exactly
once, so the list cannot rot silently) and runs the tests named for it. A mutant is killed when a test fails;
the first failing test is printed. The exit status is 1 if any mutant survives.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUARTERS = ("tests/test_facts_quarters.py",)
FSDS = "tests/test_fsds.py"
READING = ("tests/test_ask_reading.py",)
ANY_FILING = ("tests/test_load_any_filing.py",)
RANKING = ("tests/test_ranking_filings.py",)
XBRL_INLINE = ("tests/test_xbrl_inline.py",)
XBRL_REAL = ("tests/test_xbrl_real.py",)
TAGGED = ("tests/test_tagged.py",)
REAL_PERIOD = "tests/test_ask_real.py::test_a_text_question_as_of_a_period_end_reads_that_periods_report"
BANK = ("tests/test_ask_bank.py::test_no_wrong_number_is_stated_and_nearly_all_are_right[every=16]",)


def asked(test: str) -> tuple[str, ...]:
    """One test of tests/test_ask_bank.py (its file's slow tests ask the whole bank: minutes a run)."""
    return (f"tests/test_ask_bank.py::{test}",)




@dataclass(frozen=True)
class Mutant:
    """One plausible bug: in `path`, `old` becomes `new`; `tests` should catch it."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTANTS: list[Mutant] = [
    Mutant("an SEC entity id of nine digits in SQL", "sql/ids.sql", "lpad(cik::VARCHAR, 10, '0')",
           "lpad(cik::VARCHAR, 9, '0')", ("tests/test_views.py",)),
    # --- the SQL of the point-in-time lookups (sql/macros.sql, sql/views.sql)
    Mutant("Q2 = H1 + Q1", "sql/macros.sql", "derived_quarter(h1.value - q1.value,",
           "derived_quarter(h1.value + q1.value,", QUARTERS),
    Mutant("Q3 = 9M - Q1", "sql/macros.sql", "derived_quarter(m9.value - h1.value,",
           "derived_quarter(m9.value - q1.value,", QUARTERS),
    Mutant("a 9-month figure not starting with the year taken as 9M", "sql/macros.sql",
           "            WHEN kind IN ('year', 'nine_months', 'half')\n",
           "            WHEN kind IN ('year', 'half')\n", QUARTERS),
    Mutant("Q4 starts a day late", "sql/macros.sql", "derived_quarter(fy.value - m9.value, m9.period_end + 1,",
           "derived_quarter(fy.value - m9.value, m9.period_end + 2,", (*QUARTERS, "tests/test_facts_demo.py")),
    Mutant("derived Q4 off by $50,000", "sql/macros.sql", "derived_quarter(fy.value - m9.value,",
           "derived_quarter(fy.value - m9.value + 50000,", ("tests/test_feed.py",)),
    Mutant("of several year-to-date figures, the one starting furthest from the year", "sql/macros.sql",
           "'half') THEN abs(date_diff('day', fy_start, period_start))\n",
           "'half') THEN -abs(date_diff('day', fy_start, period_start))\n",
           QUARTERS),
    Mutant("a fiscal label names several figures", "sql/macros.sql",
           "END, period_end DESC, period_start DESC) = 1 THEN fiscal_period END AS fiscal_period)",
           "END, period_end DESC, period_start DESC) >= 1 THEN fiscal_period END AS fiscal_period)", QUARTERS),
    Mutant("batch look-ahead: acceptance compared by date", "sql/macros.sql",
           " AND (mode_key(mode) = 'latest' OR q.as_of IS NULL OR r.accepted_at <= q.as_of)",
           " AND (mode_key(mode) = 'latest' OR q.as_of IS NULL OR r.accepted_at::DATE <= q.as_of::DATE)",
           ("tests/test_facts_lookup.py",)),
    Mutant("batch versions ordered by accession number", "sql/macros.sql",
           "        ELSE arg_max({'value': r.value, 'filing_id': r.filing_id, 'form': r.form, "
           "'accepted_at': r.accepted_at},\n                     (r.accepted_at, r.filing_id))",
           "        ELSE arg_max({'value': r.value, 'filing_id': r.filing_id, 'form': r.form, "
           "'accepted_at': r.accepted_at},\n                     r.filing_id)", ("tests/test_facts_lookup.py",)),
    Mutant("single-lookup versions ordered by accession number", "sql/macros.sql",
           "ELSE arg_max(r, (r.accepted_at, r.filing_id, -rank))", "ELSE arg_max(r, (r.filing_id, -rank))",
           ("tests/test_facts_lookup.py",)),
    Mutant("first value by accession number", "sql/macros.sql",
           "        arg_min(value, (accepted_at, filing_id)) AS first_value,",
           "        arg_min(value, filing_id) AS first_value,", QUARTERS),
    Mutant("a single lookup sees a filing accepted one second later", "sql/macros.sql",
           "AND (as_of IS NULL OR mode = 'latest' OR accepted_at <= as_of::TIMESTAMP))\n      GROUP BY unit)",
           "AND (as_of IS NULL OR mode = 'latest' OR accepted_at <= as_of::TIMESTAMP + INTERVAL 1 SECOND))\n"
           "      GROUP BY unit)",
           ("tests/test_facts_lookup.py",)),
    Mutant("a lookup by dates never derives the quarter", "sql/macros.sql", "bool_or(NOT exact) AS derivable",
           "false AS derivable", ("tests/test_facts_lookup.py", *QUARTERS)),
    Mutant("a line item's concept by the list's order before the newest filing", "sql/macros.sql",
           "             v.accepted_at DESC, v.filing_id DESC, rank) = 1;", "             rank) = 1;",
           ("tests/test_metrics.py",)),
    Mutant("a lookup's concept by the list's order before the newest filing", "sql/macros.sql",
           "ELSE arg_max(r, (r.accepted_at, r.filing_id, -rank)) FILTER (exact)",
           "ELSE arg_max(r, (-rank, r.accepted_at, r.filing_id)) FILTER (exact)", ("tests/test_metrics.py",)),
    Mutant("facts() takes a metric's concept by the list's order before the newest filing", "factstore/facts.py",
           "CASE WHEN ? = 'first' THEN a.v.filing_id END, a.v.accepted_at DESC, a.v.filing_id DESC,",
           "CASE WHEN ? = 'first' THEN a.v.filing_id END,", ("tests/test_metrics.py",)),
    Mutant("a panel cell's concept by the list's order before the newest filing", "sql/panel.sql",
           "                 r.accepted_at DESC, r.filing_id DESC, r.rank) = 1", "                 r.rank) = 1",
           ("tests/test_metrics.py",)),
    Mutant("an MR row's datekey from any concept ending then", "factstore/fundamentals.py",
           "        FROM reports\n        WHERE entity_id IN (SELECT unnest(?)) AND concept IN (SELECT unnest(?))",
           "        FROM reports\n        WHERE entity_id IN (SELECT unnest(?)) AND (concept IN (SELECT unnest(?)) "
           "OR true)",
           ("tests/test_fundamentals.py",)),
    Mutant("fundamentals drop the warnings", "factstore/fundamentals.py",
           'flagged = long[long["warnings"].map(len) > 0] if "warnings" in long.columns else long.iloc[:0]',
           "flagged = long.iloc[:0]", ("tests/test_fundamentals.py",)),
    Mutant("an MR row's accession the filing of its oldest value", "factstore/fundamentals.py",
           'if "first_filing" in long\n', 'if False\n', ("tests/test_fundamentals.py",)),
    Mutant("an annual filer by any annual revenue", "factstore/fundamentals.py",
           "          AND duration_class(period_start, period_end) = 'quarter'\n",
           "          AND duration_class(period_start, period_end) = 'year'\n", ("tests/test_fundamentals.py",)),
    Mutant("a mode typo read as as_of", "sql/macros.sql",
           "ELSE error('mode ''' || coalesce(mode::VARCHAR, 'NULL') || ''': give as_of, first or latest') END;",
           "ELSE 'as_of' END;", ("tests/test_metrics.py",)),
    Mutant("a first report under another concept by rounding", "sql/macros.sql",
           "AND (rep.value = p.value OR rep.concept = p.concept AND NOT is_restatement(rep.value, p.value))",
           "AND NOT is_restatement(rep.value, p.value)",
           ("tests/test_metrics_real.py::test_tsmc_figures_are_in_twd",
            "tests/test_ask_real.py::test_known_since_is_the_first_filing_of_the_current_value")),
    Mutant("a fact's reports sorted by concept, not acceptance", "sql/macros.sql",
           "{'accepted_at': accepted_at, 'filing_id': filing_id, 'concept': concept, 'value': value, 'form': form}",
           "{'concept': concept, 'accepted_at': accepted_at, 'filing_id': filing_id, 'value': value, 'form': form}",
           ("tests/test_ask_real.py::test_known_since_is_the_first_filing_of_the_current_value",)),
    Mutant("a USD translation before the reporting currency", "sql/macros.sql",
           "{'translated': split_part(unit, '/', 1) IS DISTINCT FROM currency, 'not_usd': unit <> 'USD', 'unit': unit}",
           "{'not_usd': unit <> 'USD', 'unit': unit}",
           ("tests/test_fundamentals.py::test_the_reporting_currency_comes_before_its_usd_translation_on_every_surface",)),
    Mutant("rounding threshold at zero", "sql/macros.sql",
           "abs(new - old) >= 0.005 * abs(old) AND new <> old;", "abs(new - old) >= 0 * abs(old) AND new <> old;",
           ("tests/test_views.py",)),
    Mutant("fiscal calendar misses the year before the first", "sql/macros.sql",
           "unnest(range(min(fiscal_year) - 1, max(fiscal_year) + 2))",
           "unnest(range(min(fiscal_year), max(fiscal_year) + 2))", ("tests/test_views.py",)),
    Mutant("the year's slot holds its nine months", "sql/macros.sql",
           "figures[list_position(slots, 11)] AS fy", "figures[list_position(slots, 10)] AS fy",
           ("tests/test_facts_properties.py",)),
    Mutant("a 91- to 105-day period is no quarter", "sql/macros.sql", "BETWEEN 80 AND 105 THEN 'quarter'",
           "BETWEEN 80 AND 90 THEN 'quarter'", ("tests/test_views.py",)),
    Mutant("restatements ordered by accession number", "sql/views.sql",
           "                 ORDER BY accepted_at, filing_id)", "                 ORDER BY filing_id)",
           ("tests/test_views.py",)),
    Mutant("first_reported is the as-of value", "sql/views.sql",
           "SELECT * FROM facts_asof_by_id(NULL, mode := 'first');",
           "SELECT * FROM facts_asof_by_id(NULL, mode := 'as_of');", ("tests/test_views.py",)),
    Mutant("relative change of a negative figure has the wrong sign", "sql/views.sql",
           "(new_value - old_value) / nullif(abs(old_value), 0) AS relative_change",
           "(new_value - old_value) / nullif(old_value, 0) AS relative_change", ("tests/test_views.py",)),
    Mutant("discrete_quarters lists quarters without a value", "sql/views.sql",
           "FROM quarters_asof_by_id(NULL, mode := 'latest') WHERE value IS NOT NULL;",
           "FROM quarters_asof_by_id(NULL, mode := 'latest');", ("tests/test_views.py",)),
    # --- the store's transactions
    Mutant("a load without its transaction", "factstore/write.py",
           "    with db.transaction():\n        added = _write(db, batch)",
           "    with suppress():\n        added = _write(db, batch)", ("tests/test_load_kill.py",)),
    # --- the store's guards
    Mutant("sql runs writes without write=True", "factstore/db.py",
           "            if not kinds <= READING_STATEMENTS:", "            if False:",
           ("tests/test_db.py",)),
    Mutant("--db accepts any existing file", "factstore/db.py",
           "    if head[8:12] != DUCKDB_MAGIC:", "    if False:",
           ("tests/test_db.py",)),
    Mutant("threads share one connection", "factstore/db.py",
           '        cur = getattr(self._local, "cursor", None)', "        cur = self._root",
           ("tests/test_threads.py",)),
    Mutant("as_of seconds read as nanoseconds", "factstore/timing.py",
           'ts = pd.Timestamp(float(value), unit="s")', "ts = pd.Timestamp(int(value))",
           ("tests/test_db.py",)),
    # --- loaders
    Mutant("another company's submissions accepted", "factstore/loaders/companyfacts.py",
           "    if submissions is not None and submissions.cik != cik:", "    if False:",
           ("tests/test_load_companyfacts.py",)),
    Mutant("a period starting after its end accepted", "factstore/loaders/companyfacts.py",
           '                  pc.invert(pc.fill_null(pc.greater(typed["period_start"], typed["period_end"]), False))]',
           "                  ]", ("tests/test_companyfacts_reader.py",)),
    Mutant("a fact's date in year 0 read", "factstore/loaders/companyfacts.py",
           "pc.greater_equal(typed[c], FIRST_DAY)", "pc.greater_equal(typed[c], typed[c])",
           ("tests/test_companyfacts_reader.py",)),
    Mutant("a backslash under the values not looked for", "factstore/loaders/companyfacts.py",
           'if data is None or b"\\\\" not in data.to_pybytes():', "if True:",
           ("tests/test_companyfacts_reader.py",)),
    Mutant("a filing takes its least common form", "factstore/loaders/companyfacts.py",
           '("form_count", "descending")', '("form_count", "ascending")', ("tests/test_companyfacts_reader.py",)),
    Mutant("of two forms as common, a filing takes the last", "factstore/loaders/companyfacts.py",
           '("form_count", "descending"), ("form", "ascending")',
           '("form_count", "descending"), ("form", "descending")',
           ("tests/test_companyfacts_reader.py",)),
    Mutant("a column of submissions dates taken whole with year 0", "factstore/loaders/companyfacts.py",
           "    if read is not None and not pc.any(pc.less(read, FIRST_DAY)).as_py():", "    if read is not None:",
           ("tests/test_companyfacts_reader.py",)),
    Mutant("a column of acceptance times taken whole with a number in it", "factstore/loaders/companyfacts.py",
           "if _arrow_cast([v or None for v in values],",
           "if _arrow_cast([v if isinstance(v, str) and v else None for v in values],",
           ("tests/test_companyfacts_reader.py",)),
    Mutant("an accession takes the acceptance time of the listing row at its own place",
           "factstore/loaders/companyfacts.py",
           "given, reported, files, days, places = (listed[c].take(at[mine]).to_pylist()",
           "given, reported, files, days, places = (listed[c].take(mine).to_pylist()",
           ("tests/test_real_companyfacts.py", "tests/test_companyfacts_reader.py")),
    Mutant("SEC facts taken as they are without the answer of the check run beside", "factstore/write.py",
           "            distinct.result() if distinct else _distinct_keys(db, reports))",
           "            True if distinct else _distinct_keys(db, reports))",
           ("tests/test_write.py", "tests/test_companyfacts_reader.py")),
    Mutant("the batch's rows counted as added where some were stored before", "factstore/write.py",
           '_counts(reports, "entity_id") if plain', '_counts(reports, "entity_id") if True',
           ("tests/test_write.py", "tests/test_load_companyfacts.py", XBRL_INLINE[0])),
    Mutant("a stored entity inserted again as if new", "factstore/write.py",
           'db.all(SQL["insert_new_entities"] if all_new else', 'db.all(SQL["insert_new_entities"] if True else',
           ("tests/test_load_companyfacts.py", "tests/test_names.py",
            "tests/test_sql_names.py::test_the_names_follow_every_write_and_only_a_change_rewrites_them")),
    Mutant("the periods of stored entities inserted as if new", "factstore/write.py",
           'db.all(SQL["insert_new_periods"] if new_entities else',
           'db.all(SQL["insert_new_periods"] if True else',
           ("tests/test_sec_ingest.py", "tests/test_load_companyfacts.py")),
    Mutant("a plain batch's concepts read from its units", "factstore/write.py",
           'pa.table({"concept": pc.unique(batch.reports["concept"])})',
           'pa.table({"concept": pc.unique(batch.reports["unit"])})',
           ("tests/test_companyfacts_reader.py", "tests/test_real_companyfacts.py")),
    Mutant("an EDGAR stamp's fraction of a second dropped", "factstore/timing.py",
           "            return datetime.fromisoformat(stamp[:-1])",
           "            return datetime.fromisoformat(stamp[:-1]).replace(microsecond=0)", ("tests/test_timing.py",)),
    Mutant("an acceptance fitting no reading of its filing date kept, not the end of the filing day",
           "factstore/timing.py", "    if later > end:\n", "    if True:\n", ("tests/test_timing_acceptances.py",)),
    Mutant("an acceptance stamp before 1993 or after the load not refused", "factstore/timing.py",
           "        if not EDGAR_FIRST <= read[0] <= now:\n", "        if False:\n",
           ("tests/test_timing_acceptances.py",)),
    Mutant("EDGAR's filing-day cutoff at 18:00", "factstore/timing.py",
           "FILING_DAY_CUTOFF = time(17, 30)", "FILING_DAY_CUTOFF = time(18, 0)",
           ("tests/test_timing.py", "tests/test_real_companyfacts.py")),
    # --- published snapshots
    Mutant("a changed table keeps its old snapshot files", "factstore/publishing.py",
           '    if old is not None and kept == before["fingerprint"]:', "    if old is not None:",
           ("tests/test_publish.py",)),
    Mutant("pruning removes a snapshot a process has open", "factstore/publishing.py",
           "            if free:\n                shutil.rmtree(snap)",
           "            if True:\n                shutil.rmtree(snap)", ("tests/test_publish.py",)),
    Mutant("a snapshot store can be written", "factstore/db.py",
           "        if self.read_only:\n            where =", "        if False:\n            where =",
           ("tests/test_publish.py",)),
    # --- text
    Mutant("BM25 without Okapi's epsilon floor", "factstore/text/bm25.py",
           "        idf[idf < 0] = self.epsilon * average_idf", "        idf[idf < 0] = 0.0",
           ("tests/test_bm25.py",)),
    Mutant("k below 1 accepted", "factstore/text/bm25.py",
           "    if k < 1:\n        raise ValueError(f\"k must be at least 1, not {k}\")", "    if False:\n        pass",
           ("tests/test_search.py",)),
    Mutant("deep HTML not parsed again past libxml2's limit", "factstore/text/html.py",
           "    if any(e.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT for e in parser.error_log):",
           "    if False:", ("tests/test_html_parsing.py",)),
    # --- names and ask
    Mutant("an ambiguous name resolved to its first candidate", "factstore/names.py",
           "            raise Ambiguous(text, sorted(e.label for e in found))", "            return found[0]",
           ("tests/test_names.py",)),
    # --- the SEC client
    Mutant("no retry on 429", "factstore/sec/client.py",
           "RETRY_STATUS = {429, 500, 502, 503, 504}", "RETRY_STATUS = {500, 502, 503, 504}",
           ("tests/test_sec_client.py",)),
    Mutant("each client a window of its own", "factstore/sec/throttle.py",
           "            return Throttle(cls._process, rate)", "            return Throttle(cls(rate), rate)",
           ("tests/test_sec_client.py",)),
    Mutant("a client's own rate ignored", "factstore/sec/throttle.py",
           "        limit = self.rate if rate is None else min(rate, self.rate)", "        limit = self.rate",
           ("tests/test_sec_client.py",)),
    # --- the SEC client: payload identity and redirects (issue #23, item 3)
    Mutant("another company's payload taken as the asked one", "factstore/sec/client.py",
           "and int(given) == cik)", "and int(given) > 0)", ("tests/test_sec_client.py",)),
    Mutant("a redirect followed to any host", "factstore/sec/client.py",
           "            if _origin(target) not in {_origin(h) for h in self.hosts.values()}:",
           "            if not _origin(target):", ("tests/test_sec_client.py",)),
    Mutant("a redirect's hops past the rate limiter", "factstore/sec/client.py",
           "        for _ in range(MAX_REDIRECTS + 1):\n            self.limiter.wait()\n",
           "        self.limiter.wait()\n        for _ in range(MAX_REDIRECTS + 1):\n", ("tests/test_sec_client.py",)),
    Mutant("a bulk member holding another company's facts loaded", "factstore/sec/sync.py",
           "            if facts.cik != int(member.name[3:13]):", "            if False:",
           ("tests/test_sec_ingest.py",)),
    # --- the SEC client: bodies whole (issue #23, item 4)
    Mutant("a gzip stream cut short taken as whole", "factstore/sec/client.py",
           "        if not stream.eof:\n", "        if False:\n", ("tests/test_sec_client.py",)),
    Mutant("the SEC's rate-limit page taken as a payload", "factstore/sec/client.py",
           "any(page in body for page in ERROR_PAGES)", "False", ("tests/test_sec_client.py",)),
    Mutant("a document without its closing tag kept", "factstore/sec/client.py",
           "        if not whole_document(name, body):", "        if not body:", ("tests/test_sec_client.py",)),
    # --- publish never harms the user's files (issue #23, item 5)
    Mutant("pruning takes any folder of snapshots/", "factstore/snapshots.py",
           "if SNAPSHOT_NAME.fullmatch(p.name) and not p.is_symlink()\n                  and (p / MANIFEST).is_file())",
           "if p.is_dir() and not p.name.startswith(\".\"))", ("tests/test_publish.py",)),
    Mutant("a user's TARGET/current replaced", "factstore/publishing.py",
           "        _check_current(target)\n", "", ("tests/test_publish.py",)),
    Mutant("publishing inside a snapshot allowed", "factstore/publishing.py",
           "    if inside is not None:\n", "    if False:\n", ("tests/test_publish.py",)),
    Mutant("killed publishes' leftovers kept", "factstore/publishing.py",
           "        _remove_leftovers(target)\n", "", ("tests/test_publish.py",)),
    # --- FSDS zips and encodings (issue #23, items 6 and 7)
    Mutant("a zip of several quarters read as one", "factstore/loaders/fsds.py",
           "    return found if len(found) > 1 else [\"\"]", "    return [\"\"]", ("tests/test_fsds.py",)),
    Mutant("FSDS text read as latin-1 first", "factstore/loaders/fsds.py",
           "    for encoding in (\"utf-8\", \"latin-1\"):", "    for encoding in (\"latin-1\", \"utf-8\"):",
           ("tests/test_fsds.py",)),
    Mutant("the latin-1 fallback unsaid", "factstore/loaders/fsds.py",
           "read as latin-1\" if latin else None)", "read as latin-1\" if False else None)", ("tests/test_fsds.py",)),
    Mutant("no wall-clock deadline on a body", "factstore/sec/client.py",
           "            if time.monotonic() > until:\n", "            if False:\n", ("tests/test_sec_client.py",)),
    Mutant("a FIFO's header read", "factstore/db.py", "    if not path.is_file():  # a FIFO",
           "    if False:  # a FIFO", ("tests/test_db.py",)),
    Mutant("a question at the length cap refused", "factstore/ask/route.py",
           "    if len(question) > MAX_QUESTION:", "    if len(question) >= MAX_QUESTION:",
           ("tests/test_ask_robust.py",)),
    Mutant("a damaged FSDS zip member unnamed", "factstore/loaders/fsds.py",
           "                except (zipfile.BadZipFile, zlib.error, EOFError) as exc:",
           "                except OSError as exc:", ("tests/test_fsds.py",)),
    Mutant("a remembered index used after the stored one changed", "factstore/text/index.py",
           "        if known is None or known[0] != version:", "        if known is None:", ("tests/test_threads.py",)),
    Mutant("a reader fails on a snapshot pruned while it opened it", "factstore/snapshots.py",
           "OPEN_ATTEMPTS = 3", "OPEN_ATTEMPTS = 1", ("tests/test_publish.py",)),
    # --- decompression bombs (issue #23, item 13)
    Mutant("an FSDS zip member unpacked past the cap", "factstore/loaders/fsds.py",
           "limits.too_big(packed, written)", "None", ("tests/test_fsds.py",)),
    Mutant("a bulk member read past the cap", "factstore/sec/ingest.py",
           "limits.too_big(packed, size)", "None", ("tests/test_sec_ingest.py",)),
    Mutant("a gzip body unpacked past the cap", "factstore/sec/client.py",
           "limits.too_big(len(raw), len(body))", "None", ("tests/test_sec_client.py",)),
    Mutant("no ratio cap", "factstore/limits.py",
           "    if unpacked > RATIO_FLOOR and unpacked > MAX_RATIO * max(packed, 1):", "    if False:",
           ("tests/test_sec_client.py", "tests/test_fsds.py")),
    Mutant("an FSDS line too long for DuckDB left unplaced", "factstore/loaders/fsds.py",
           "            if len(line) > MAX_LINE:", "            if False:", ("tests/test_fsds.py",)),
    # --- text: reading a stored index's hits
    Mutant("a stored index's hits read in the table's order, not the ranking's", "factstore/text/index.py",
           "return [tuple(found[key]) for key in zip(doc_ids, chunk_nos, strict=True)]",
           "return [tuple(rest) for rest in found.values()]", ("tests/test_stored_index.py",)),
    Mutant("'U.S.' read past: a company's total for its U.S. figure", "factstore/ask/parse.py",
           '    read = _USA.sub("USA", question)', "    read = question", READING),
    Mutant("'in U.S. dollars' read past", "factstore/ask/parse.py", r'r"(?:u\.?\s?s\.?\s*)?dollars?|',
           r'r"(?:us\s+)?dollars?|',
           ("tests/test_ask_real.py::test_a_currency_asked_is_the_answers_or_the_question_is_refused",)),
    Mutant("the United States fits no member", "factstore/ask/route.py", "_COUNTRIES.get(part, (part,))", "(part,)",
           ("tests/test_ask_text_real.py::test_us_sales_are_the_us_figure_never_the_total",)),
    Mutant("a comparison missing a company still names a first", "factstore/ask/route.py",
           "    ranked = not missing and not mixed", "    ranked = not mixed",
           ("tests/test_ask.py::test_a_comparison_missing_a_company_names_no_first",)),
    Mutant("a growth of a period named by its end taken a year before the label", "factstore/ask/route.py",
           "        then = previous(new.period)", "        then = previous(p.periods[0])", ("tests/test_ask.py",)),
    Mutant("no TTM a year before", "factstore/metrics.py", 'if period.startswith("TTM") and len(period) > 3:',
           'if period.startswith("TTM") and not period:', ("tests/test_ask.py",)),
    Mutant("a question asking why given the figure", "factstore/ask/route.py",
           "not p.unread and not _EXPLAINS.search(p.text) and with_facts", "not p.unread and with_facts",
           ("tests/test_ask.py",)),
    Mutant("'why' read only at the start of a question", "factstore/ask/route.py",
           r'_EXPLAINS = re.compile(r"(?i)(?:^|[,;:¿])\W*(?:why', r'_EXPLAINS = re.compile(r"(?i)^\W*(?:why',
           ("tests/test_ask.py",)),
    Mutant("a question asking what effect given the figure", "factstore/ask/route.py",
           r'|what\s+(?:effects?|impacts?)\b|qu[eé]\s+(?:efectos?|impactos?)\b|', "|", ("tests/test_ask.py",)),
    Mutant("a stored entity's new ticker left out", "sql/write.sql",
           "    OR NOT list_has_all(e.tickers, coalesce(b.tickers, [])) OR", "    OR",
           ("tests/test_sql_names.py::test_the_names_follow_every_write_and_only_a_change_rewrites_them",)),
    Mutant("a stored entity's new other name left out", "sql/write.sql",
           " OR NOT list_has_all(e.other_names, coalesce(b.other_names, []));", ";",
           ("tests/test_sql_names.py::test_the_names_follow_every_write_and_only_a_change_rewrites_them",)),
    Mutant("entity_names kept when a stored entity changes", "factstore/write.py",
           'if any(kind in ("entities", "changed") for _, kind in added)',
           'if any(kind == "entities" for _, kind in added)',
           ("tests/test_sql_names.py::test_the_names_follow_every_write_and_only_a_change_rewrites_them",)),
    Mutant("a balance 'as of' its own day given as known then", "factstore/ask/route.py",
           "or _other_weeks(db, p, moment) or _balance_or_moment(db, p)", "or _other_weeks(db, p, moment)",
           ("tests/test_ask.py",)),
    Mutant("a balance 'at' a day not read as that day's", "factstore/ask/parse.py",
           'if day_alone and at and at[0].statement == "balance":', 'if day_alone and at and at[0].statement == "":',
           ("tests/test_ask.py",)),
    Mutant("a balance's day not found among the fiscal periods", "factstore/metrics.py",
           'if found in (kind, "instant"):', "if found == kind:", ("tests/test_ask.py",)),
    Mutant("'a fecha de' read only as a moment", "factstore/ask/parse.py",
           '_AS_OF_OR_DATE = re.compile(r"(?:as of|as at|a fecha de|a dia|hasta)\\b")',
           '_AS_OF_OR_DATE = re.compile(r"(?:as of|as at|a dia|hasta)\\b")', ("tests/test_ask.py",)),
    Mutant("a growth between two periods taken in the order written", "factstore/ask/route.py",
           "return (one, two) if one.end <= two.end else (two, one)", "return (one, two)", ("tests/test_ask.py",)),
    Mutant("a balance's day beside a moment left unread", "factstore/ask/parse.py",
           "            day_alone = weak[0]\n", "            day_alone = None\n", ("tests/test_ask.py",)),
    Mutant("a text comparison of 10-Ks ranked by their first numbers", "factstore/ask/route.py",
           "and not p.metric and not any(map(_SEC_FORM.match, forms)):", "and not p.metric:",
           ("tests/test_ask_real.py::test_a_text_comparison_of_sec_filings_ranks_no_quoted_figure",)),
    Mutant("'larger' read as a part of the company", "factstore/ask/parse.py",
           "higher|lower|bigger|larger|smaller|which one|frente a|", "higher|lower|bigger|frente a|",
           ("tests/test_ask.py",)),
    Mutant("the words of a trailing twelve months left unread", "factstore/ask/parse.py",
           '"ttm": {"fiscal", "twelve", "month", "months", "doce", "meses", "ending", *_ENDS}}', '"ttm": set()}',
           ("tests/test_ask.py",)),
    Mutant("a part of a derived metric looked up by its concepts", "factstore/ask/route.py",
           "    if not p.metric.concepts:\n        raise NotFound(f\"asks for {p.metric.name} of a part",
           "    if False:\n        raise NotFound(f\"asks for {p.metric.name} of a part", ("tests/test_ask.py",)),
    Mutant("'net income attributable to common stockholders' read as the EPS numerator", "data/metrics.csv",
           ";net inc;net income attributable to common stockholders;", ";net inc;", READING),
    Mutant("a question with an unread word refused though no figure would be given", "factstore/ask/route.py",
           "(p.periods or p.as_of) and not _asks_the_text(p):",
           "(p.entities or p.periods or p.as_of) and not _asks_the_text(p):", ("tests/test_ask.py",)),
    Mutant("scoped reads a question's words without the filings' words for them", "factstore/text/search.py",
           "                                                  synonyms=True, priors=True,",
           "                                                  synonyms=False, priors=True,", RANKING),
    Mutant("a synonym repeats a term the query holds", "factstore/text/glossary.py",
           '"filed"), terms) if t not in held))', '"filed"), terms)))', RANKING),
    Mutant("scoped keeps a passage that repeats one above it", "factstore/text/search.py",
           "priors=True, hybrid=True, distinct=True)}", "priors=True, hybrid=True, distinct=False)}", RANKING),
    Mutant("repeats left out across documents", "factstore/text/search.py",
           "if not any(doc == hit.doc_id and words and other", "if not any(words and other", RANKING),
    Mutant("a partial repeat left out", "factstore/text/search.py",
           "and len(words & other) >= REPEAT_SHARE * min(len(words), len(other))",
           "and len(words & other) >= 0.3 * min(len(words), len(other))", RANKING),
    Mutant("a hit takes the next chunk's document", "factstore/text/search.py",
           "doc_id, title, issuer, form, year = self._doc_rows[doc]",
           "doc_id, title, issuer, form, year = self._doc_rows[min(doc + 1, len(self._doc_rows) - 1)]",
           ("tests/test_search.py",)),
    # --- text: the as-of filter of search
    Mutant("a report without an acceptance time public at once", "factstore/text/search.py",
           '(c["year"] + 1).astype("Int64")', '(c["year"] + 0).astype("Int64")', ("tests/test_search.py",)),
    Mutant("search sees a document accepted one second later", "factstore/text/search.py",
           "keep &= (public <= moment).fillna(False)",
           "keep &= (public <= moment + pd.Timedelta(seconds=1)).fillna(False)", ("tests/test_search.py",)),
    # --- metrics on every surface (data/metrics.csv, factstore/metrics.py, resolve.py, feed.py, sql/panel.sql)
    Mutant("a panel takes a filing's last tag of a metric, not its first", "sql/panel.sql",
           "                 r.accepted_at DESC, r.filing_id DESC, r.rank) = 1",
           "                 r.accepted_at DESC, r.filing_id DESC, r.rank DESC) = 1",
           ("tests/test_feed.py",)),
    Mutant("a panel prefers a convenience translation", "sql/panel.sql",
           "unit_rank(n.unit, c.currency)) = 1", "unit_rank(n.unit, NULL)) = 1", ("tests/test_feed.py",)),
    Mutant("a lower-case name is a concept before a metric", "factstore/resolve.py",
           "found = _metric_concepts(base.strip()) or known.get(base.strip().lower(), [])",
           "found = known.get(base.strip().lower(), []) or _metric_concepts(base.strip())",
           ("tests/test_metrics.py",)),
    Mutant("facts() calls a later value not reported", "factstore/facts.py",
           'status[i] = "not yet known at as_of" if i in later else "not reported"',
           'status[i] = "not reported"', ("tests/test_metrics.py",)),
    Mutant("max_age leaves out the cells of its own age", "factstore/feed.py",
           'old = long["age_days"] > max_age', 'old = long["age_days"] >= max_age', ("tests/test_feed.py",)),
    Mutant("an average balance is their sum", "factstore/metrics.py",
           "(now.value + then.value) / 2", "(now.value + then.value)", ("tests/test_metrics.py",)),
    Mutant("a per-share quotient as a percentage", "factstore/metrics.py",
           'return a / b * (100 if metric.kind == "ratio" else 1)', "return a / b * 100", ("tests/test_metrics.py",)),
    Mutant("SQL reads a share class's ticker only as stored", "sql/macros.sql",
           "regexp_replace(upper(text), '[./]', '-', 'g') AS code", "upper(text) AS code",
           ("tests/test_sql_names.py",)),
    Mutant("a curated alias of a company not held ties with a held company's name", "sql/macros.sql",
           "WHEN n.kind = 'absent' THEN 5", "WHEN n.kind = 'absent' THEN 3", ("tests/test_sql_names.py",)),
    Mutant("SQL keeps the glue of AT&T in a name", "sql/macros.sql",
           "lambda w: regexp_replace(w, '[.&''’]', '', 'g')", "lambda w: regexp_replace(w, '[.''’]', '', 'g')",
           ("tests/test_sql_names.py",)),
    Mutant("SQL's core of a name keeps its legal suffixes", "sql/macros.sql",
           "'^(\\S+(?: \\S+)*?)(?: (?:'", "'^(\\S+(?: \\S+)*)(?: (?:'", ("tests/test_sql_names.py",)),
    Mutant("a load leaves SQL's names as they were", "factstore/write.py",
           "            entity_names.refresh(db)\n", "            pass\n", ("tests/test_sql_names.py",)),
    Mutant("an acronym takes another company's name", "factstore/names.py",
           " == owners == self._keys.get(a.lower(), owners):", " == owners:", ("tests/test_names.py",)),
    Mutant("lookup_asof takes a name for an entity_id", "sql/macros.sql",
           "SELECT * REPLACE (entity_key(entity) AS entity) FROM query_table(questions)",
           "SELECT * FROM query_table(questions)", ("tests/test_sql_names.py",)),
    Mutant("the panel drops an entity it cannot read", "sql/panel.sql",
           "WHERE e NOT IN (SELECT entity_id FROM entities)", "WHERE false", ("tests/test_sql_names.py",)),
    Mutant("an as-first-reported row at the period's last vintage", "factstore/fundamentals.py",
           "SELECT entity_id, fiscal_period, period_end, min(date) AS datekey FROM ev GROUP BY ALL",
           "SELECT entity_id, fiscal_period, period_end, max(date) AS datekey FROM ev GROUP BY ALL",
           ("tests/test_fundamentals.py",)),
    Mutant("fundamentals take a convenience translation", "factstore/fundamentals.py",
           'long = long[(long["unit"] == wanted) | (long["metric"].map(kinds) == "ratio")]', "",
           ("tests/test_fundamentals.py",)),
    Mutant("trailing twelve months of their last quarter", "sql/macros.sql",
           "CASE WHEN period_start IS NULL THEN value WHEN consecutive THEN sum4 END AS value",
           "CASE WHEN period_start IS NULL THEN value WHEN consecutive THEN value END AS value",
           ("tests/test_fundamentals.py",)),
    Mutant("an annual filer gets no TTM", "factstore/fundamentals.py",
           "            long = pd.concat([long, read(db, annual, needed, \"year\", moment)], ignore_index=True)",
           "            pass", ("tests/test_fundamentals.py",)),
    Mutant("a macro reads a capitalized name as a metric", "sql/macros.sql",
           "        WHERE n.c = lower(n.c) AND NOT contains(n.c, ':')", "        WHERE NOT contains(n.c, ':')",
           ("tests/test_metrics.py",)),
    Mutant("a derived panel cell over two periods", "factstore/feed.py",
           'same = (a["period_end"] == b["period_end"]) & (a["fiscal_period"] == b["fiscal_period"])',
           'same = a["period_end"].notna()', ("tests/test_feed.py",)),
    # --- FSDS: times, periods, dimensions (sql/fsds.sql, factstore/loaders/fsds.py, the store's write)
    Mutant("FSDS acceptance read as UTC, not New York time", "sql/fsds.sql",
           "AT TIME ZONE 'America/New_York')", "AT TIME ZONE 'UTC')", (FSDS,)),
    Mutant("an FSDS period matched within a month of the month end", "sql/fsds.sql",
           "CASE WHEN k.filing_id IS NULL THEN 7 ELSE 16 END", "CASE WHEN k.filing_id IS NULL THEN 31 ELSE 31 END",
           (FSDS,)),
    Mutant("an FSDS value of a stored filing skipped, not added", "sql/write.sql",
           "AND l.entity_id = n.entity_id) AND (NOT ? OR", "AND l.entity_id = n.entity_id) AND (true OR", (FSDS,)),
    Mutant("segments dropped from the key: parts mix into the total", "factstore/loaders/fsds.py",
           "f.concept || coalesce('|' || d.dims, '') AS concept", "f.concept AS concept", (FSDS,)),
    Mutant("a dimension's axis keeps its 'Axis' suffix", "factstore/loaders/fsds.py",
           'name = name.removesuffix("Axis")', "name = name", (FSDS,)),
    # --- questions read whole (factstore/ask/parse.py, route.py, names.py, metrics.py: issue #25)
    Mutant("unread words dropped", "factstore/ask/route.py",
           "(p.periods or p.as_of) and not _asks_the_text(p):",
           "(p.periods or p.as_of) and False:",
           asked("test_an_inserted_qualifier_is_refused_by_name_or_leaves_the_oracles_value")),
    Mutant("a month as-of at its last day", "factstore/ask/parse.py",
           "        found.append(datetime(int(m.group(2)), _MONTHS[m.group(1)], 1))",
           "        found.append(datetime(int(m.group(2)), _MONTHS[m.group(1)], 28))", READING),
    Mutant("'end of 2023' after the year", "factstore/ask/parse.py",
           "        found.append(datetime(int(m.group(1)), 12, 31))",
           "        found.append(datetime(int(m.group(1)) + 1, 1, 1))", READING),
    Mutant("a weak lead is a moment without a period", "factstore/ask/parse.py",
           "        if dated:\n            as_of = moment", "        if True:\n            as_of = moment", READING),
    Mutant("TTM beside a year taken as the newest TTM", "factstore/ask/parse.py",
           "        if found == quarters and len(quarters) <= 1:", "        if True:", READING),
    Mutant("a qualifier taken for a part of the company", "factstore/ask/parse.py",
           "        if found_part and not set(found_part[0].split()) & _QUALIFIERS:",
           "        if found_part:", READING),
    Mutant("any one-edit slip of a filler word read past", "factstore/ask/parse.py",
           "for f in filler if len(f) == len(word) and sorted(f) == sorted(word) and one_edit(word, f))",
           "for f in filler if len(f) >= 3 and one_edit(word, f))", READING),
    Mutant("a mode word dropped", "factstore/ask/parse.py",
           'mode = next((m for pattern, m in _MODE if taken.find(pattern, "mode")), "as_of")',
           'mode = "as_of"', READING),
    Mutant("two periods: the first answered", "factstore/ask/route.py",
           "    if len(p.periods) > 1 and p.metric and not p.growth:", "    if False:",
           asked("test_two_periods_without_growth_are_refused")),
    Mutant("a mixed-basis quarter stated in ask", "factstore/ask/route.py",
           "    if mixed:  # a quarter derived", "    if False:  # a quarter derived",
           asked("test_a_mixed_basis_quarter_is_refused_in_ask")),
    Mutant("a common word is a name in lower case", "factstore/names.py",
           "and not words[i][3] or set(key.split()) <= common",
           "and not words[i][3] or False and set(key.split()) <= common", READING),
    Mutant("a predecessor's name as good as a curated alias", "factstore/names.py",
           "        self._keys.update(curated)  # a curated alias outranks",
           "        # a curated alias outranks", READING),
    Mutant("a lower-case word taken for a ticker", "factstore/names.py",
           "and len(written) >= 3 and written not in common and (", "and len(written) >= 3 and (", READING),
    Mutant("TTM of three quarters", "factstore/metrics.py", "    while len(labels) < 4:", "    while len(labels) < 3:",
           BANK),
    Mutant("a period by its end date off by a day", "factstore/metrics.py",
           "WHERE fiscal_period IS NOT NULL AND period_end = ?::DATE AND kind IN (?, 'year', 'instant')\"\"\",",
           "WHERE fiscal_period IS NOT NULL AND period_end = ?::DATE + 1 AND kind IN (?, 'year', 'instant')\"\"\",",
           BANK),
    Mutant("'as first reported' answered as known now", "factstore/metrics.py",
           "else facts.fact(db, entity_id, concepts, period=period, as_of=moment, mode=mode, strict=True))",
           "else facts.fact(db, entity_id, concepts, period=period, as_of=moment, strict=True))", BANK),
    Mutant("a given CIK wins over the document's own", "factstore/load.py",
           "    if said != cover.cik and cover.cik is not None:", "    if False:", ANY_FILING),
    Mutant("an amended cover read as the original form", "factstore/loaders/cover.py",
           'dei.get("AmendmentFlag", "").lower() == "true"', 'dei.get("AmendmentFlag", "").lower() == "yes"',
           ANY_FILING),
    Mutant("XBRL: scale applied the wrong way", "factstore/xbrl/inline.py",
           "number = number.scaleb(int(scale))", "number = number.scaleb(-int(scale))", XBRL_INLINE),
    Mutant("XBRL: sign=\"-\" ignored", "factstore/xbrl/inline.py", 'if element.get("sign") == "-":', "if False:",
           XBRL_INLINE),
    Mutant("XBRL: ix:exclude read as text", "factstore/xbrl/model.py", '_EXCLUDED.sub("", markup)', "markup",
           XBRL_INLINE),
    Mutant("XBRL: continuations not followed", "factstore/xbrl/inline.py",
           '    following = element.get("continuedAt")', "    following = None", XBRL_INLINE),
    Mutant("XBRL: agreeing duplicates keep the least precise", "factstore/xbrl/model.py",
           "max(same, key=_precision)", "min(same, key=_precision)", XBRL_INLINE),
    Mutant("XBRL: a block tag left out of the tree of names", "factstore/xbrl/model.py", 'h[1-6r]|li|ol|"',
           'h[1-6r]|li|"', XBRL_INLINE),
    Mutant("XBRL: a ratio unit read as its numerator", "factstore/xbrl/model.py",
           'f"{_measures(top, source, scope)}/{_measures(bottom, source, scope)}"', "_measures(top, source, scope)",
           XBRL_REAL),
    Mutant("XBRL: a segment figure stored as the total", "factstore/loaders/xbrl.py",
           '[concept_key(f.concept, dict(f.context.dims)) for _, f in numbers]',
           '[f.concept for _, f in numbers]', XBRL_REAL),
    Mutant("XBRL: inconsistent duplicates into reports", "factstore/loaders/xbrl.py",
           "f.value is not None and not f.inconsistent and", "f.value is not None and", XBRL_INLINE),
    Mutant("XBRL: a filing's facts stored again on reload", "sql/write.sql",
           "FROM _batch_xbrl WHERE filing_id NOT IN (SELECT filing_id FROM xbrl_facts)", "FROM _batch_xbrl",
           XBRL_REAL),
    Mutant("tagged: a space the marks left is kept", "factstore/text/tagged.py",
           "    spare = [m.start() for m in _SPARE.finditer(bare)]", "    spare = []", TAGGED),
    Mutant("tagged: an empty figure marked", "factstore/text/tagged.py",
           ' and _TEXT.sub("", html[start:m.start()]).strip():', ":", TAGGED),
    Mutant("citations: the primary statement not first", "sql/views.sql",
           "ORDER BY in_statements DESC, block_kind = 'table' DESC, start_char", "ORDER BY start_char", XBRL_REAL),
    Mutant("XBRL feed: New York time read as UTC", "factstore/loaders/xbrl_feed.py",
           '"moment": local.replace(tzinfo=NEW_YORK)', '"moment": local', ("tests/test_xbrl_feed.py",)),
    Mutant("XBRL feed: a filing not stored takes no time from the feed", "sql/write.sql",
           "FROM xbrl_feed WHERE (cik = $cik OR accession = $accession)", "FROM xbrl_feed WHERE false",
           ("tests/test_xbrl_feed.py",)),
    Mutant("an accession given over the file name's", "factstore/loaders/filing.py",
           'if named is not None and "-".join(m.groups()) != named:', "if False:",
           ("tests/test_load_filing.py::test_a_report_the_store_holds_is_never_added_again_under_another_name",)),
    Mutant("a second 10-K for a period the store holds", "factstore/loaders/filing.py",
           "    if end is None or form not in ONE_PER_PERIOD:\n        return []",
           "    if True:\n        return []",
           ("tests/test_load_filing.py::test_a_report_the_store_holds_is_never_added_again_under_another_name",)),
    Mutant("load_xbrl: a second 10-K for a period the store holds", "factstore/loaders/xbrl.py",
           "        no_second_report(filings, filer.entity_id, cover.form, cover.period_end, accession, source)\n", "",
           ("tests/test_load_filing.py::test_a_report_the_store_holds_is_never_added_again_under_another_name",)),
    Mutant("a fact's print looked for only in the filing of its current report", "factstore/facts.py",
           '(r["filing_id"], concept), (newest["first_filing_id"], newest["first_concept"])]',
           '(r["filing_id"], concept)]', XBRL_REAL),
    Mutant("an acceptance in another date format read as midnight UTC", "factstore/loaders/filing.py",
           "if isinstance(value, str) and not day_only and not _MOMENT.fullmatch(value.strip()):", "if False:",
           XBRL_REAL),
    Mutant("a company held before loses the cover's tickers", "factstore/load.py",
           "tuple(dict.fromkeys([*(row[2] or ()), *cover.tickers]))", "tuple(row[2] or ())", XBRL_REAL),
    Mutant("XBRL: a standard taxonomy keeps the document's prefix", "factstore/xbrl/model.py",
           "            return m.expand(name)", "            return prefix", XBRL_INLINE),
    Mutant("a text question naming an unknown company searches the others'", "factstore/ask/route.py",
           "    elif p.unknown and not p.entities:", "    elif p.unknown and p.metric and not p.entities:", ANY_FILING),
    Mutant("a company filter naming no document searches all", "factstore/text/index.py",
           "        if bare:\n            raise NotFound", "        if False:\n            raise NotFound", ANY_FILING),
    Mutant("section priors never weigh", "factstore/text/search.py",
           "math.prod(p.boost for p in priors", "math.prod(1.0 for p in priors", RANKING),
    Mutant("the glossary takes each word of a phrase", "factstore/text/glossary.py",
           "        for n in range(min(longest, len(terms) - i), 0, -1):", "        for n in range(1, 0, -1):",
           RANKING),
    Mutant("any unread word sends a figure question to the text", "factstore/ask/parse.py",
           "    return any(w in _QUALIFIERS or w in _CHANGERS or w in _PERIOD_WORDS or w in _MONTHS or not w.isalpha()",
           "    return any(w in _QUALIFIERS and w in _CHANGERS", asked(
               "test_an_inserted_qualifier_is_refused_by_name_or_leaves_the_oracles_value")),
    Mutant("fusion without the vectors' pool", "factstore/text/search.py",
           "        positions = np.array(list(dict.fromkeys([*lexical, *semantic.tolist()])))",
           "        positions = np.array(list(dict.fromkeys(lexical)))", ("tests/test_dense.py",)),
    Mutant("a question's date read as its report's even where the caller gave the moment", "factstore/ask/route.py",
           "if p.as_of and p.as_of_or_date and not given and", "if p.as_of and p.as_of_or_date and", (REAL_PERIOD,)),
    Mutant("a period's report found and every document searched", "factstore/ask/route.py",
           "return [(name, [d for d in ds if d in reports] or ds) for name, ds in held], reports",
           "return held, reports", (REAL_PERIOD,)),
    Mutant("a question's date kept as a moment beside its report", "factstore/ask/route.py",
           '            filters.pop("as_of", None)', "            pass", (REAL_PERIOD,)),
    Mutant("a question in words no chunk shares left without the vectors", "factstore/text/search.py",
           "(ranked and ranked[0][1].score > 0) or _said(query)", "(ranked and ranked[0][1].score > 0)",
           ("tests/test_dense.py",)),
    Mutant("fusion with BM25's score not scaled to its best", "factstore/text/search.py",
           "LEXICAL_WEIGHT * (bm25 / bm25.max() if", "LEXICAL_WEIGHT * (bm25 if", ("tests/test_dense.py",)),
    Mutant("a run-in heading left a chunk alone", "factstore/text/chunkers.py",
           "        lead = short or (", "        lead = (", ("tests/test_chunkers.py",)),
    Mutant("a run-in heading of any length", "factstore/text/chunkers.py",
           "doc.blocks[group[0]].start <= LEAD_CHARS", "doc.blocks[group[0]].start <= 10 * LEAD_CHARS",
           ("tests/test_chunkers.py",)),
    Mutant("evidence counted only where its own filing first prints it", "factstore/evaluate/filings.py",
           "for other, body in of_entity[entity] for span in locate_all(body, ev.text)]",
           "for other, body in of_entity[entity] for span in locate_all(body, ev.text)[:1] if other == doc]",
           ("tests/test_ranking_filings.py::test_evidence_counts_wherever_the_company_prints_it",)),
    Mutant("'what does it say about' given the figure", "factstore/ask/route.py",
           r"say\s+(?:about|happened)\b|what\s+happened\b", r"say\s+never\b|what\s+never\b",
           ("tests/test_ask.py",)),
    Mutant("a year after an apostrophe not read", "factstore/ask/parse.py",
           r'''_YY = r"'?((?:19|20)?\d{2})"''', r'''_YY = r"((?:19|20)?\d{2})"''', ("tests/test_ask_reading.py",)),
    Mutant("net loss attributable to the company unread", "data/metrics.csv",
           ";net loss attributable;", ";", ("tests/test_ask_reading.py",)),
    Mutant("a long question beyond a figure refused", "factstore/ask/route.py",
           "or said >= TEXT_WORDS or", "or", ("tests/test_ask.py",)),
    Mutant("total equity read as the owners' equity", "data/metrics.csv",
           ",,total equity;patrimonio total;", ",,whole equity;patrimonio entero;",
           ("tests/test_ask_real.py::test_total_equity_includes_the_minority_and_shareholders_equity_does_not",)),
    Mutant("a year-end balance taken from the next day's opening", "sql/macros.sql",
           "                      WHEN kind = 'instant' AND fq = 4 THEN abs(date_diff('day', fy_end, period_end))\n",
           "", ("tests/test_facts_lookup.py",)),
    Mutant("'(9M)' said again leaves nine months unread", "factstore/ask/parse.py",
           r'nueve\s+meses)\s*(?:\(\s*9m\s*\)\s*)?"', r'nueve\s+meses)\s*"', ("tests/test_ask_reading.py",)),
    Mutant("a period said twice read as two", "factstore/ask/parse.py",
           "        periods = list(dict.fromkeys(periods))", "        pass", ("tests/test_ask.py",)),
    Mutant("vectors used where some chunks have none", "factstore/text/dense.py",
           "    if not n or n != chunks:", "    if not n:", ("tests/test_dense.py",)),
    Mutant("one unknown word beside a figure sends it to the text", "factstore/ask/route.py",
           "and said >= 3)", "and said >= 1)",
           asked("test_an_inserted_qualifier_is_refused_by_name_or_leaves_the_oracles_value")),
    Mutant("question words kept in the query", "factstore/text/search.py",
           "and t not in question_words()] or terms", "] or terms", RANKING),
    Mutant("XBRL: the root's namespaces taken for every element", "factstore/xbrl/files.py",
           'root.nsmap if body.count(b"xmlns") == len(root.nsmap) else None', "root.nsmap", XBRL_INLINE),
    Mutant("ask: a figure found in the text where its tag's span is known", "factstore/ask/route.py",
           "        if tagged:\n", "        if False:\n",
           ("tests/test_xbrl_real.py::test_ask_cites_a_figure_at_its_tag_where_its_filing_was_loaded_with_it",)),
    Mutant("SQL: reporting_currency takes only an entity_id", "sql/macros.sql",
           "WHERE entity_id = entity_key(entity));", "WHERE entity_id = entity);", ("tests/test_views.py",)),
    Mutant("JSON: the parts' times without their zone", "factstore/timing.py",
           "(value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()", "value.isoformat()",
           ("tests/test_cli.py",)),
    Mutant("a citation's tag looked up under the concept as known", "factstore/ask/route.py",
           "printed(db, [(part.filing_id, part.cited_concept)]", "printed(db, [(part.filing_id, part.concept)]",
           ("tests/test_xbrl_real.py::test_a_figure_is_cited_at_the_tag_its_first_filing_used",)),
    Mutant("a fact's first filing's tag as known", "factstore/facts.py", '"first_concept": first["concept"]}',
           '"first_concept": part["concept"]}', ("tests/test_metrics_real.py::test_alphabet_2025_revenue_tag_switch",)),
    Mutant("a frame's JSON: times without their zone", "factstore/show.py",
           '            out[name] = column.dt.tz_localize("UTC")', "            pass", ("tests/test_cli.py",)),
    Mutant("ask: a currency asked read past", "factstore/ask/route.py",
           'if p.currency and f.unit.split("/")[0] != p.currency:', "if False:",
           ("tests/test_ask_real.py::test_a_currency_asked_is_the_answers_or_the_question_is_refused",)),
    Mutant("ask: two periods taken as one where only their ends agree", "factstore/ask/route.py",
           "if (a.start, a.end) != (b.start, b.end):", "if a.end != b.end:",
           ("tests/test_ask_real.py::test_a_period_said_twice_naming_other_days_is_refused_saying_so",)),
    Mutant("ask: a growth in a period said twice taken from it to itself", "factstore/ask/route.py",
           "    if len(p.periods) != 2 or not p.metric or not p.entities",
           "    if len(p.periods) != 2 or p.growth or not p.metric or not p.entities",
           ("tests/test_ask_real.py::test_a_growth_in_a_period_said_twice_is_that_periods_growth_never_zero",)),
    Mutant("ask: a period's length in weeks never checked", "factstore/ask/route.py",
           "        if days != 7 * p.weeks:", "        if False:",
           ("tests/test_ask_real.py::test_a_length_in_weeks_is_checked_against_the_period",)),
    Mutant("ask: an end beside TTM read as a quarter's", "factstore/ask/parse.py",
           'if any(label.startswith("TTM") for _, label, _ in out):', "if False:", READING),
    Mutant("ask: a clock's zone read as a ticker", "factstore/ask/parse.py",
           "found = find_entities(_ZONE.sub(lambda m: m.group(1) + \" \" * len(m.group(2)), read), known)",
           "found = find_entities(read, known)",
           ("tests/test_ask_real.py::test_a_clock_times_zone_names_no_company_and_bounds_the_moment",)),
    Mutant("ask: a New York clock read as UTC", "factstore/ask/parse.py",
           'return at if zone.group(1) in ("utc", "gmt", "z") else utc_naive(at.replace(tzinfo=NEW_YORK))',
           "return at", READING),
    Mutant("ask: EST read with daylight saving", "factstore/ask/parse.py",
           '        offset = {"est": -5, "edt": -4}.get(zone.group(1))', "        offset = None", READING),
    Mutant("ask: 'in percent' read past whatever the metric", "factstore/ask/parse.py",
           'if at[0].kind == "ratio":  #', "if True:  #", READING),
    Mutant("ask: a date in parentheses after no period taken as an end", "factstore/ask/parse.py",
           "and any(s < m.start() for s in starts)", "and True", READING),
    Mutant("ask: the same metric said twice leaves its words to be a part", "factstore/ask/parse.py",
           'words = ["the" if left[i][0] in twice else w for i, w in enumerate(words)]', "pass", READING),
    Mutant("ask: NT dollars read as US dollars", "factstore/ask/parse.py",
           '(("TWD", re.compile(r"\\b(?:twd|nt|taiwan|taiwanese|taiwaneses)\\b")), ("EUR",',
           '(("EUR",',
           ("tests/test_ask_real.py::test_a_currency_asked_is_the_answers_or_the_question_is_refused",)),
    Mutant("ask's JSON: times as they come", "factstore/ask/route.py", "return json_ready(asdict(self))",
           "return asdict(self)", ("tests/test_ask.py::test_cli_ask_json",)),
]


def _copy_tree(dest: Path) -> None:
    """The working tree as git sees it (tracked and untracked files not ignored), without .venv."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    # the copy's sql/ and data/ are its package's factstore.sql and factstore.data (as a wheel ships them): found
    # there first, not through the editable install's mapping to this checkout's folders
    for package in ("sql", "data"):
        (dest / "factstore" / package).symlink_to(dest / package, target_is_directory=True)


def stale(tree: Path = ROOT) -> list[str]:
    """Mutants whose text does not occur exactly once in their file, or whose tests do not exist."""
    out = []
    for m in MUTANTS:
        count = (tree / m.path).read_text().count(m.old)
        if count != 1:
            out.append(f"{m.name}: its text occurs {count} times in {m.path}, not once")
        out += [f"{m.name}: no test file {t}" for t in m.tests if not (tree / t.split("::")[0]).exists()]
    return out


def _apply(tree: Path, mutant: Mutant) -> str:
    path = tree / mutant.path
    original = path.read_text()
    path.write_text(original.replace(mutant.old, mutant.new))
    return original


def _run(tree: Path, tests: tuple[str, ...]) -> tuple[bool, str, float]:
    """Run the tests in the mutated tree: (killed, first failing test, seconds)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1", "FACTSTORE_THREAD_CALLS": "100",
           "HYPOTHESIS_PROFILE": "mutants", "FACTSTORE_REAL_DATA": str(ROOT.parent / "shared" / "real")}
    started = time.perf_counter()
    # one process (-n 0), and every budget: the slow variants too (-m overrides pyproject's default selection)
    done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-n", "0",
                           "-m", "not spark", *tests],
                          cwd=tree, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.M)
    last = done.stdout.strip().splitlines()
    return done.returncode != 0, failed[0] if failed else (last[-1] if last else ""), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", help="only mutants whose name contains this text")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.k or args.k.lower() in m.name.lower()]
    if args.list:
        for m in chosen:
            print(f"{m.name}  [{m.path}]  -> {', '.join(m.tests)}")
        return 0
    if problems := stale():
        raise SystemExit("stale mutants:\n" + "\n".join(problems))
    survivors = 0
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        tree = Path(tmp)
        _copy_tree(tree)
        check = _run(tree, tuple(sorted({t for m in chosen for t in m.tests})))
        if check[0]:
            raise SystemExit(f"the unmutated tree fails its tests ({check[1]}); fix that first")
        print(f"unmutated tree: tests pass ({check[2]:.0f} s)\n")
        for m in chosen:
            original = _apply(tree, m)
            try:
                killed, by, seconds = _run(tree, m.tests)
            finally:
                (tree / m.path).write_text(original)
            survivors += not killed
            print(f"KILLED   {m.name} ({seconds:.0f} s)\n         by {by}" if killed
                  else f"SURVIVED {m.name}: none of {', '.join(m.tests)} fails", flush=True)
    print(f"\n{len(chosen) - survivors} of {len(chosen)} mutants killed")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
