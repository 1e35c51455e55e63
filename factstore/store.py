"""The face of factstore: `open` and `FactStore`, whose public methods each make one call into the module that
does the work (factstore.db, load, write, resolve, facts, text.index, feed, publishing, sec.sync, ask.route).
Nothing below this module imports it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from factstore import entity_names, facts, feed, fundamentals, load, metrics, publishing, resolve, versions, write
from factstore.ask.parse import Reading
from factstore.ask.route import Answer, ask, explain, search
from factstore.db import Db, open_db
from factstore.facts import MODES, Fact
from factstore.loaders.batch import Batch, LoadReport
from factstore.loaders.companyfacts import Json
from factstore.loaders.course import Table
from factstore.names import Names
from factstore.sec import sync
from factstore.sec.client import SecClient
from factstore.text import index as text_index
from factstore.text.blocks import Document
from factstore.text.search import Hit

__all__ = ["MODES", "Fact", "FactStore", "LoadReport", "open_store"]


def open_store(path: str | Path | None = None, *, read_only: bool = False, create: bool = True,
               external_access: bool = False) -> FactStore:
    """Open a store; in memory when path is None. A missing file is created unless read_only or
    create=False; an existing file that is not a DuckDB store is refused and left untouched. SQL run
    through the store cannot read or write other files (COPY, ATTACH, read_csv...) unless
    external_access=True. A folder that a store was published into (store.publish) opens its current
    snapshot, read only: the reader keeps that snapshot while newer ones are published."""
    db = open_db(path, read_only=read_only, create=create, external_access=external_access)
    try:
        return FactStore(versions.kept(entity_names.kept(db)))
    except BaseException:  # (refused, or failed bringing it up to date: closed, so it can be opened again)
        db.close()
        raise


class FactStore:
    """A point-in-time facts store over one DuckDB connection (its engine: `db`)."""

    def __init__(self, db: Db) -> None:
        self.db = db

    @property
    def path(self) -> str | Path | None:
        """The store file (or published folder) this store was opened from; None in memory."""
        return self.db.path

    @property
    def snapshot(self) -> Path | None:
        """The published snapshot this store reads, if it is one."""
        return self.db.snapshot

    @property
    def read_only(self) -> bool:
        """Whether the store was opened read only (a published snapshot always is)."""
        return self.db.read_only

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """This thread's own connection to the store: threads never share a statement, a result, a
        transaction or a registered frame."""
        return self.db.con

    def schema_digest(self) -> str | None:
        """The digest of the sql/ files this store's views and macros were made from."""
        return self.db.schema_digest()

    def close(self) -> None:
        """Close the store: every thread's connection, and a published snapshot's hold."""
        self.db.close()

    def __enter__(self) -> FactStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- plumbing
    def sql(self, query: str, params: list[Any] | dict[str, Any] | None = None, *,
            write: bool = False) -> pd.DataFrame:
        """Run a query (with ? or $name parameters) and return a DataFrame of its last statement's rows.
        Only reading statements (SELECT, WITH, FROM, SHOW, DESCRIBE, SUMMARIZE, EXPLAIN) run unless
        write=True; files outside the store are never reached (see `open`)."""
        return self.db.sql(query, params, write=write)

    def relation(self, query: str, params: list[Any] | dict[str, Any] | None = None) -> duckdb.DuckDBPyRelation:
        """A reading query as a lazy DuckDB relation on this thread's connection (for .arrow(), .df())."""
        return self.db.relation(query, params)

    def frame(self, df: pd.DataFrame) -> AbstractContextManager[str]:
        """Register a DataFrame for this thread's queries under a fresh name, yielded; dropped after."""
        return self.db.frame(df)

    def reading(self) -> AbstractContextManager[None]:
        """Reads on this thread, inside the block, all see the store as of one moment (one transaction)."""
        return self.db.reading()

    # ----------------------------------------------------------------- loading
    def load_course(self, xbrl: Table | None = None, documents: Table | None = None,
                    sales: Table | None = None, *, progress: bool | None = None) -> LoadReport:
        """Load the course's files (filings6_xbrl.parquet, filings6_documentos.parquet,
        acciones6_ventas.csv; paths or DataFrames) in one transaction; loading again adds nothing.
        A progress bar shows on a terminal (progress=None), always (True) or never (False)."""
        return load.course(self.db, xbrl, documents, sales, progress=progress)

    def load_companyfacts(self, path_or_dict: Json, submissions: Json | list[Json] | None = None, *,
                          progress: bool | None = None) -> LoadReport:
        """Load one companyfacts JSON (with the company's own submissions JSON for acceptance times) in one
        transaction. As `fetch`/`update` do, only accessions not loaded yet are added: a filing stored before
        keeps its row and its facts, and a value the SEC has since edited in place in it is kept as a
        revision (see `history`), so loading again, or a newer file, never changes an as-of answer."""
        return load.companyfacts(self.db, path_or_dict, submissions, progress=progress)

    def load_companyfacts_many(self, files: list[Json], submissions: list[Json] | None = None, *,
                               progress: bool | None = None) -> list[LoadReport]:
        """Load several companyfacts JSON files in one transaction (all of them, or none where one is bad),
        each with its own company's submissions among `submissions`, matched by CIK, never by position. DuckDB
        reads the files together; the rule is load_companyfacts': only accessions not loaded yet are added.
        A LoadReport per file, with a note where no submissions of its company were given."""
        return load.companyfacts_many(self.db, files, submissions, progress=progress)

    def load_fsds(self, paths: str | Path | list[str | Path], *, progress: bool | None = None) -> list[LoadReport]:
        """Load quarters of the SEC's Financial Statement Data Sets (a folder with sub.txt and num.txt, or the SEC's
        zip, e.g. 2024q4.zip, streamed), one transaction per quarter; loading again adds nothing. Acceptance times
        are New York time to the minute, stored in UTC, unless the store holds the filing already (its time, to
        the second from submissions, wins). A fact takes the company's own period where the store knows one of the
        same length ending within a week of FSDS's month end (else the calendar months, listed in
        approximate_periods). Facts with segments or of a co-registrant are kept under their dimensions (see
        `fact(dims=...)`), never in the company's totals. Without sub.txt, every accession must be in the store."""
        return load.fsds(self.db, paths, progress=progress)

    def load_tickers(self, source: Json | None = None, client: SecClient | None = None, *,
                     progress: bool | None = None) -> LoadReport:
        """Add the tickers of the SEC's company_tickers.json (a path or dict; None: fetched with `client`, default
        SecClient()) to the companies the store holds, so that one without a submissions file is found by its
        ticker; companies the store does not hold are left out, and said so in the report's note."""
        return sync.load_tickers(self.db, source, client, progress=progress)

    def load_filing(self, path: str | Path, entity: str | int | None = None, *, cik: int | str | None = None,
                    name: str | None = None, accession: str | None = None, form: str | None = None,
                    accepted_at: Any = None, period_end: Any = None, progress: bool | None = None) -> LoadReport:
        """Load a local SEC primary document (HTML), parsed, sectioned and chunked into every index strategy in
        use. Its company is `entity` (ticker, CIK or name of one in the store, or of one the document's cover names
        so: refused, naming both, where the cover names another), else the `cik` given or on its
        inline XBRL cover, else the `name` given or on its cover page; one the store does not hold is added as
        the document says. Its filing: the one the store knows by accession (given, or in the file's name: the two
        must agree), by form and filing day, or by form and period for a periodic report (a 10-K, 10-Q or 20-F of a
        period the store holds is never added a second time), whose form, period and acceptance time it takes;
        else the form and period given or on its cover, accepted at `accepted_at` (ISO 8601: a day, or a moment,
        UTC unless it says) or at the end of the day in its file name (NVDA_10-K_2025-02-26.html). An inline XBRL
        document's facts are loaded with it (as load_xbrl loads them). A contradiction is a LoadError. Loading
        again adds nothing."""
        return load.filing(self.db, path, entity, cik=cik, name=name, accession=accession, form=form,
                           accepted_at=accepted_at, period_end=period_end, progress=progress)

    def load_xbrl(self, paths: str | Path | list[str | Path], *, accession: str | None = None,
                  accepted_at: Any = None, progress: bool | None = None) -> list[LoadReport]:
        """Load filings' XBRL: instances (EX-101.INS, the SEC's `*_htm.xml`), inline XBRL documents (`.htm`) or
        the SEC's `-xbrl.zip`, one transaction per filing. Every fact goes to xbrl_facts as stated (exact
        decimals, text facts, dimensions), its numbers to reports (dimensional ones under FSDS's keys). The
        company is the cover's (dei:EntityCentralIndexKey; one the store lacks is added); the filing is the
        `accession` given or in the file's name, else the company's stored filing of the cover's form and
        period; its time the stored one, else `accepted_at`. A clash with the store is a LoadError naming both.
        Loading again, or what companyfacts or FSDS loaded, adds nothing."""
        return load.xbrl(self.db, paths, accession=accession, accepted_at=accepted_at, progress=progress)

    def load_xbrl_feed(self, paths: str | Path | list[str | Path], *, progress: bool | None = None
                       ) -> list[LoadReport]:
        """Load EDGAR XBRL feed archives (`xbrlrss-YYYY-MM.xml`) into the xbrl_feed index, one transaction each:
        each XBRL filing's accession, CIK, company, form, period, filing date, acceptance (the feed's New York
        time, to the second, kept and as UTC) and XBRL files. An accession listed again alike (in another month, or
        loaded again) keeps its first row; listed with another CIK, form, period or time it is refused, naming both
        listings, as is a periodic report listed before its period ended, or a stored filing listed as another
        company's or form; a stored filing known by its filing day only takes the feed's second (so does one loaded
        after). `LoadReport.listed` counts the filings new to the index; load_xbrl takes a filing's accession and
        acceptance from it."""
        return load.xbrl_feed(self.db, paths, progress=progress)

    def load_reports(self, path: Table, *, progress: bool | None = None) -> LoadReport:
        """Load Markdown reports in the rag6 format (rag6_documentos.parquet: id_doc, titulo, tipo, texto)
        in one transaction; loading again adds nothing."""
        return load.reports(self.db, path, progress=progress)

    def apply(self, batch: Batch) -> LoadReport:
        """Write a loader's Batch in one transaction, checked against what the store holds; what is
        stored already is left as it is, so applying the same batch again adds nothing."""
        return write.apply(self.db, batch)

    def apply_many(self, batches: list[Batch]) -> list[LoadReport]:
        """Write several batches, one company each, in one transaction: all of them or none, with one set of
        statements for the lot (a bulk load pays its fixed costs once per group), and for each batch its own
        LoadReport, `loads` row and `ingested` marks, as if it had been applied alone."""
        return write.apply_many(self.db, batches)

    # ----------------------------------------------------------------- the SEC
    def fetch_companyfacts(self, companies: str | int | list[str | int], client: SecClient | None = None, *,
                           keep_going: bool = False, progress: bool | None = None,
                           say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Fetch companies' companyfacts and submissions (tickers or CIKs) from the SEC and load the facts of
        accessions not loaded yet, one transaction per company. The client defaults to SecClient() (User-Agent
        from FACTSTORE_USER_AGENT). With keep_going, a failed company is reported in its LoadReport's error."""
        return sync.fetch_companyfacts(self.db, client or SecClient(), companies, keep_going=keep_going,
                                       progress=progress, say=say)

    def fetch_filings(self, companies: str | int | list[str | int], client: SecClient | None = None, *,
                      forms: list[str] | None = None, since: Any = None, until: Any = None, keep_going: bool = False,
                      progress: bool | None = None, say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Fetch the primary documents of companies' filings (of these forms, filed from `since` to `until`),
        parse them into sections and blocks and chunk them for search; one transaction per company."""
        return sync.fetch_filings(self.db, client or SecClient(), companies, forms=forms, since=since, until=until,
                                  keep_going=keep_going, progress=progress, say=say)

    def fetch_xbrl_feed(self, months: str | list[str], client: SecClient | None = None, *,
                        progress: bool | None = None) -> list[LoadReport]:
        """Fetch months' EDGAR XBRL feed archives ('2025-02': /Archives/edgar/monthly/xbrlrss-2025-02.xml) into
        the cache and index them as load_xbrl_feed does, one transaction each."""
        return sync.fetch_xbrl_feed(self.db, client or SecClient(), months, progress=progress)

    def fetch_xbrl(self, companies: str | int | list[str | int] | None = None, client: SecClient | None = None, *,
                   since: Any = None, until: Any = None, keep_going: bool = False, progress: bool | None = None,
                   say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Fetch and load the XBRL of the filings the feed index lists (of these companies, filed from `since` to
        `until`) whose facts the store lacks: the inline document where the feed marks one, else the instance,
        one transaction per filing, with the feed's accession and time. A rerun resumes where it stopped."""
        return sync.fetch_xbrl(self.db, client or SecClient(), companies, since=since, until=until,
                               keep_going=keep_going, progress=progress, say=say)

    def fetch_bulk(self, archive: str | Path = "companyfacts.zip", client: SecClient | None = None, *,
                   submissions: str | Path | None = None, progress: bool | None = None,
                   say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Load the SEC's bulk companyfacts.zip member by member, streamed from the archive, one transaction per
        company; an interrupted load resumes. A name that is not a local file is downloaded from
        /Archives/edgar/daily-index/xbrl/ (submissions.zip, for acceptance times, from .../bulkdata/)."""
        return sync.fetch_bulk(self.db, archive, client, submissions=submissions, progress=progress, say=say)

    def update(self, companies: str | int | list[str | int] | None = None, client: SecClient | None = None, *,
               keep_going: bool = False, progress: bool | None = None,
               say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Bring SEC companies up to date (all in the store, or those named): only accessions new since the
        last run are fetched and loaded, their documents too where the store keeps that form's documents."""
        return sync.update(self.db, client or SecClient(), companies, keep_going=keep_going, progress=progress,
                           say=say)

    def publish(self, target: str | Path, *, keep: int | None = None) -> publishing.Published:
        """Publish the store as an immutable snapshot under TARGET (Parquet tables and a catalog.duckdb of the
        same views and macros), switched to atomically as TARGET/current: any number of processes read it
        (factstore.open(TARGET), or DuckDB on TARGET/current/catalog.duckdb) while this store goes on loading.
        A table that only grew keeps the previous snapshot's files. keep: remove all but the newest `keep`
        snapshots, except those a process still has open."""
        return publishing.publish(self.db, target, keep=keep)

    # ----------------------------------------------------------------- names
    def resolve_entity(self, entity: str | int) -> str:
        """The entity_id for any of a company's tickers, its CIK (with or without zeros), or a name as people
        write it (see factstore.names: current or former name, case, possessive and legal suffix ignored, an
        unambiguous acronym, a curated alias such as Google). Raises NotFound (with close names as a hint, or
        saying the store does not hold the company named) or Ambiguous, listing the candidates."""
        return resolve.entity(self.db, entity)

    def resolve_entities(self, entities: list[str | int]) -> list[str]:
        """resolve_entity for each of many, the codes (tickers, CIKs) looked up in one query."""
        return resolve.entities(self.db, entities)

    def names(self) -> Names:
        """Every company and fund the store can be asked about, by every name it goes by (kept until the next
        load)."""
        return resolve.names(self.db)

    def resolve_concepts(self, concept: str | list[str]) -> list[str]:
        """Qualified concepts for a name ('Revenues' -> 'us-gaap:Revenues') or an ordered list of names; a
        dimensional key keeps its dimensions ('Revenues|ProductOrService=IPhone' ->
        'us-gaap:Revenues|ProductOrService=IPhone')."""
        return resolve.concepts(self.db, concept)

    def dimensions(self, entity: str | int, concept: str | list[str] | None = None) -> pd.DataFrame:
        """The dimensional facts an entity has (FSDS segments, products, regions, co-registrants): per concept
        key, its concept, its dimensions as {axis: member} text ('ProductOrService=IPhone') and how many
        reports; of the given concepts only, when given."""
        return resolve.dimensions(self.db, entity, concept)

    def dimension_keys(self, entity_ids: list[str], concepts: list[str], dims: dict[str, str] | None, *,
                       strict: bool = False) -> list[str]:
        """The keys facts of these dimensions are stored under, for each qualified concept, as the entities' facts
        spell them (axis and member names matched without regard to case); the concepts themselves without dims.
        strict: a NotFound listing the dimensions the entities do have where none match."""
        return resolve.dimension_keys(self.db, entity_ids, concepts, dims, strict=strict)

    # ----------------------------------------------------------------- questions
    def fact(self, entity: str | int, concept: str | list[str], *, start: Any = None, end: Any = None,
             period: str | None = None, as_of: Any = None, mode: str = "as_of", unit: str | None = None,
             strict: bool = False, dims: dict[str, str] | None = None) -> Fact | None:
        """The value of one fact as known at `as_of` (a bare date is 00:00 UTC), as first reported
        (mode='first') or newest (mode='latest', research only). The period is a fiscal label
        (`period='2019Q4'`, 'FY2019', '2019H1', '2019M9') or exact dates (`start`, `end`; `end` alone
        for an instant). Fourth quarters and missing Q2/Q3 are derived from year-to-date figures.
        Returns None when nothing was known; with strict=True raises NotFound saying why. With dims (e.g.
        {'ProductOrService': 'IPhone'}, or in XBRL spelling {'srt:ProductOrServiceAxis': 'aapl:IPhoneMember'}),
        the fact of those dimensions (a segment, product or region; FSDS) instead of the company's total. The
        concept may be a metric ('revenue', 'net_income', SF1's 'netinc': data/metrics.csv): for each period the
        figure of the newest filing under any of its concepts (in one filing, the first), and a derived metric
        ('free_cash_flow', 'roe') by its formula, with its parts."""
        return metrics.fact(self.db, entity, concept, start=start, end=end, period=period, as_of=as_of, mode=mode,
                            unit=unit, strict=strict, dims=dims)

    def quarters(self, entity: str | int, concept: str | list[str], *, as_of: Any = None,
                 mode: str = "as_of", dims: dict[str, str] | None = None) -> pd.DataFrame:
        """The discrete fiscal quarters known at `as_of`, reported or derived (Q4 = FY - 9M), oldest first, a
        period's figure in the reporting currency before any convenience translation; with dims, those of the
        concept's facts of these dimensions (see `fact`)."""
        return facts.quarters(self.db, entity, concept, as_of=as_of, mode=mode, dims=dims)

    def history(self, entity: str | int, concept: str | list[str], *, start: Any = None, end: Any = None,
                period: str | None = None, dims: dict[str, str] | None = None) -> pd.DataFrame:
        """Every version of a fact, each with its filing, form and acceptance time, oldest first; a value the
        SEC later edited in place in a filing follows it with `revised_at`, when this store learned it (as-of
        answers never read those). With a fiscal label for a derived quarter, the versions of the figures it
        is derived from. With dims, the versions of the fact of those dimensions (see `fact`)."""
        return facts.history(self.db, entity, concept, start=start, end=end, period=period, dims=dims)

    def facts(self, questions: pd.DataFrame, *, as_of: Any = None, mode: str = "as_of") -> pd.DataFrame:
        """Answer many exact-period questions at once. `questions` has columns entity (ticker, CIK or name),
        concept (a concept or metric, as `fact` takes it), period_end, optional period_start (NULL for instants)
        and optional as_of (else the argument); the result is the questions with value, unit (the reporting
        currency first), tag (the concept it was reported under), filing_id, form, accepted_at and status added:
        'ok', or why there is no value ('not in the store', 'unknown metric', 'not yet known at as_of',
        'not reported', 'not derivable'). A quarter not reported as such, and a metric only derived by its formula
        (free_cash_flow), are derived as `fact` derives them."""
        return metrics.facts_of(self.db, questions, as_of=as_of, mode=mode)

    def fundamentals(self, entities: str | int | list[str | int], metrics: str | list[str] | None = None, *,
                     dimension: str = "ARQ", as_of: Any = None) -> pd.DataFrame:
        """Standard fundamentals shaped like Sharadar's SF1: one row per company and fiscal period, a column per
        metric (all of data/metrics.csv by default). dimension: ARQ, ARY, ART (as first reported: each row as the
        filing that first reported the period gave it, `datekey` its acceptance time to the second) or MRQ, MRY,
        MRT (the newest values known at `as_of`, restated but never later; `lastupdated` the newest one's
        acceptance); Q quarters, Y fiscal years, T trailing twelve months (an annual filer's: its years). Columns
        ticker, entity_id, dimension, calendardate (the nearest calendar quarter end), datekey, reportperiod,
        fiscal_period, lastupdated, accepted_precision (the coarsest of the row's times: 'date' where one is only a
        filing day), accession and form (the filing at datekey), unit (the reporting currency), then the metrics; a
        metric not reported and not derivable is missing (NaN), never 0 (a TTM per share or share count: the fiscal
        year's at its fourth quarter, else missing)."""
        return fundamentals.fundamentals(self.db, entities, metrics, dimension=dimension, as_of=as_of)

    @staticmethod
    def check_mode(mode: str) -> None:
        """Refuse a mode other than as_of, first and latest."""
        facts.check_mode(mode)

    # ----------------------------------------------------------------- text
    def document(self, doc_id: str) -> Document:
        """A stored document: its text, sections and blocks."""
        return text_index.document(self.db, doc_id)

    def index(self, strategy: str = "scoped", *, size: int | None = None, new_only: bool = False,
              progress: bool | None = None) -> int:
        """Chunk every stored document with a strategy (fixed, recursive, structure, scoped; size: the
        strategy's own, the course's, unless given) into the chunks table, replacing that strategy's chunks and
        stored BM25 index (with new_only, only documents that have none yet join them). Returns the number of
        chunks made."""
        return text_index.index(self.db, strategy, size=size, new_only=new_only, progress=progress)

    def embed(self, strategy: str = "scoped", *, progress: bool | None = None) -> int:
        """Dense vectors (multilingual-e5-small, `pip install 'factstore[dense]'`) for a strategy's chunks that have
        none, kept in the store; once every chunk has one, `scoped` search combines them with BM25's scores.
        Returns the number added. About 8 chunks a second on 2 cores: worth it for a few filings, not for a bulk
        load (scripts/README.md#bench_densepy)."""
        return text_index.embed(self.db, strategy, progress=progress)

    def search(self, query: str, k: int = 5, strategy: str | None = None, filters: dict[str, Any] | None = None,
               *, header: bool = False) -> list[Hit]:
        """Passages for a query, best first. By default ranked as `ask` ranks them: the `scoped` chunks with their
        headers, within the companies the query names (or the `company` filter), the report of a period it names by
        its end and the years it names, Spanish read in English too, the section priors (a question naming several
        companies: k per company). A strategy by name ('fixed', 'recursive', 'structure', 'scoped') searches its
        chunks alone, as the course does (`header`: the header-prefixed index). Filters: company, doc_id, issuer,
        form, year, period_end, as_of (only documents public at or before it)."""
        return search(self.db, query, k, strategy, filters, header=header)

    def ask(self, question: str, *, as_of: Any = None, k: int = 5) -> Answer:
        """Answer a question in English or Spanish: a number from the facts (with its filing and time) or
        cited passages from the text index; 'unanswerable' with the reason where the data cannot answer.
        `as_of` (or a moment named in the question; the argument wins) applies to facts and text."""
        return ask(self.db, question, as_of=as_of, k=k)

    def parse(self, question: str) -> Reading:
        """How `ask` reads a question, without answering: companies, metric, periods, as-of moment, mode, and the
        words each part took (`words`) or none did (`unread`); `.line()` says it in one line."""
        return explain(self.db, question)

    # ----------------------------------------------------------------- backtest feed
    def panel(self, tickers: list[str | int], concepts: list[str], dates: list[Any], *, ttm: bool = False,
              mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None, period: str = "quarter",
              max_age: int | None = None) -> pd.DataFrame:
        """For each date, ticker and metric or concept the newest fiscal period known strictly before the date (a
        date is 00:00 UTC) with its as-of value, unit, the tag it was reported under, its filing and age_days; a
        metric's newest period across all its tags. period: 'quarter', 'year' or 'ttm'; max_age leaves out older
        cells (attrs['left_out'] says how many); ttm=True adds the trailing twelve months, wide=True gives a
        value, unit and period-end column per concept. With dims, the concepts' facts of those dimensions (see
        `fact`). Any iterables will do; see factstore.feed.panel."""
        return feed.panel(self.db, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims, period=period,
                          max_age=max_age)

    def panel_arrow(self, tickers: list[str | int], concepts: list[str], dates: list[Any], *, ttm: bool = False,
                    mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None,
                    period: str = "quarter", max_age: int | None = None, stream: bool = False) -> Any:
        """`panel` as a pyarrow.Table; stream=True, a pyarrow.RecordBatchReader computing the dates a batch at a
        time (memory holds one batch)."""
        return feed.panel_arrow(self.db, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims,
                                period=period, max_age=max_age, stream=stream)

    def iter_panel(self, tickers: list[str | int], concepts: list[str], dates: list[Any], *, ttm: bool = False,
                   mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None,
                   period: str = "quarter",
                   max_age: int | None = None) -> Iterator[tuple[pd.Timestamp, pd.DataFrame]]:
        """`panel` one date at a time, in date order: (date, its rows), for event-driven backtests; computed a batch
        of dates at a time (memory holds one batch)."""
        return feed.iter_panel(self.db, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims,
                               period=period, max_age=max_age)
