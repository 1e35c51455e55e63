"""The store: one DuckDB file, its schema from sql/, loads as single transactions, and the public queries.

The point-in-time logic lives in sql/macros.sql; the methods here resolve names, pick the macro that
answers the question and shape its rows.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from factstore import publishing
from factstore.ask.route import Answer, ask
from factstore.errors import FactstoreError, LoadError, NotFound
from factstore.loaders.batch import Batch, LoadReport
from factstore.loaders.companyfacts import (
    Json,
    SubmissionsAhead,
    companyfacts_batch,
    parse_companyfacts,
    read_companyfacts,
)
from factstore.loaders.course import Table, read_course
from factstore.loaders.filing import accession_in, read_filing
from factstore.loaders.fsds import Known, concept_key, dims_key, read_fsds, segments_dims
from factstore.loaders.reports import read_reports
from factstore.names import Names, known_entities
from factstore.periods import parse_label
from factstore.progress import progress_bar
from factstore.resources import SQL_FILES, sql_text
from factstore.sec import sync
from factstore.sec.client import SecClient
from factstore.text.blocks import Block, Document, Section
from factstore.text.chunkers import STRATEGIES, chunk, chunk_text, header_for
from factstore.text.parse import parse_rows
from factstore.text.postings import index_rows, stored_index
from factstore.text.search import ChunkIndex, Hit, ranking
from factstore.timing import as_of_column, as_of_timestamp

SCHEMA_DIGEST = hashlib.sha256("".join(sql_text(name) for name in SQL_FILES).encode()).hexdigest()[:16]
MODES = ("as_of", "first", "latest")
NO_SUBMISSIONS_GIVEN = "no submissions of its CIK given: acceptance times are the end of each filing date"
TAXONOMY_ORDER = {"us-gaap": 0, "ifrs-full": 1, "dei": 2, "srt": 3}
READING = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}
_BESIDE = ThreadPoolExecutor(1, thread_name_prefix="factstore-beside")  # a query run beside a write
# a batch's entities as the store registers them (ord: their order in the batch)
ENTITY_SCHEMA = pa.schema([("entity_id", pa.string()), ("cik", pa.int64()), ("name", pa.string()),
                           ("tickers", pa.list_(pa.string())), ("other_names", pa.list_(pa.string())),
                           ("ord", pa.int64())])


@dataclass(frozen=True)
class Fact:
    """One value with its provenance: the filing that made it known, when, and how it was derived."""

    entity: str
    concept: str
    value: float
    unit: str
    start: date | None
    end: date
    accepted_at: pd.Timestamp
    source: str
    form: str
    fiscal_period: str | None = None
    derived: bool = False
    formula: str | None = None
    warnings: tuple[str, ...] = ()
    parts: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    # the filing that first reported the current value (of the newest part, for a derived one) and when: a later
    # filing repeating the value leaves these alone, a restatement moves them; each part has first_* keys too
    known_since: pd.Timestamp | None = None
    first_source: str | None = None
    first_form: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields (dates and times as ISO strings)."""
        def plain(v: Any) -> Any:
            if isinstance(v, datetime | date):
                return v.isoformat()
            if isinstance(v, dict):
                return {k: plain(x) for k, x in v.items()}
            if isinstance(v, list | tuple):
                return [plain(x) for x in v]
            return v
        return {k: plain(getattr(self, k)) for k in self.__dataclass_fields__}


DUCKDB_MAGIC = b"DUCK"


def open_store(path: str | Path | None = None, *, read_only: bool = False, create: bool = True,
               external_access: bool = False) -> FactStore:
    """Open a store; in memory when path is None. A missing file is created unless read_only or
    create=False; an existing file that is not a DuckDB store is refused and left untouched. SQL run
    through the store cannot read or write other files (COPY, ATTACH, read_csv...) unless
    external_access=True. A folder that a store was published into (store.publish) opens its current
    snapshot, read only: the reader keeps that snapshot while newer ones are published."""
    if path is not None and Path(path).is_dir() and (Path(path) / "current").exists():
        con, snapshot = publishing.open_snapshot(path)
        try:
            return FactStore(con, path, snapshot=snapshot)
        except BaseException:
            con.close()
            publishing.release(snapshot)
            raise
    target = ":memory:" if path is None else str(path)
    if path is not None:
        _check_store_file(Path(path), create=create and not read_only)
    config = {} if external_access else {"enable_external_access": False}
    try:
        con = duckdb.connect(target, read_only=read_only, config=config)
    except duckdb.Error as exc:
        raise FactstoreError(_open_error(target, exc)) from exc
    try:
        return FactStore(con, path)
    except BaseException:
        con.close()
        raise


def _check_store_file(path: Path, *, create: bool) -> None:
    """Refuse a path that is not a store: a folder, a file of another kind, or a missing one when not creating."""
    if path.is_dir():
        raise FactstoreError(f"{path}: is a directory, not a store file (nor a folder a store was published into)")
    if not path.exists():
        if not create:
            raise FactstoreError(f"{path}: no store there (load data into it first, e.g. `factstore load ...`)")
        return
    with path.open("rb") as f:
        head = f.read(12)
    if head[8:12] != DUCKDB_MAGIC:
        raise FactstoreError(f"{path}: exists and is not a DuckDB store; refusing to use it (left untouched)")


def _open_error(target: str, exc: duckdb.Error) -> str:
    """A failed open, said with what to do about it (a lock held by another process above all)."""
    text = str(exc)
    if "lock" in text.lower():
        holder = re.search(r"held in (.+?) \(PID (\d+)\)", text)
        who = f"process {holder.group(2)} ({holder.group(1)})" if holder else "another process"
        return (f"{target}: locked by {who}. DuckDB lets one process write a store, and then nobody else "
                f"may open it; many processes may read it at once, each with read_only=True (CLI reading "
                f"commands do). Wait for the writer to finish, or read a published snapshot.")
    return f"{target}: cannot open store: {text}"


class FactStore:
    """A point-in-time facts store over one DuckDB connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str | Path | None = None, *,
                 snapshot: Path | None = None) -> None:
        self._root = con
        self.path = path
        self.snapshot = snapshot  # the published snapshot this store reads, if it is one
        self._local = threading.local()
        self._cursors: dict[threading.Thread, duckdb.DuckDBPyConnection] = {}
        self._guard = threading.Lock()
        self._writing = threading.Lock()
        self._closed = False
        self._concepts: dict[str, list[str]] | None = None
        self._approximate: set[tuple[str, date | None, date]] | None = None  # approximate_periods, read once
        self._names: Names | None = None
        self._aliases: dict[str, str] = {}  # code -> entity_id as found: a stored alias never changes
        self._indexes: dict[tuple[str, bool], ChunkIndex] = {}
        self.read_only = self._read_only()
        if not self.read_only:
            self._migrate()
            for name in SQL_FILES:
                self._all(sql_text(name))
            self._all("CREATE OR REPLACE TABLE schema_version AS SELECT ? AS digest", [SCHEMA_DIGEST])
        elif self._schema_digest() != SCHEMA_DIGEST:
            raise FactstoreError(f"{path}: written by another version of factstore, whose views and macros "
                                 f"differ from this one's; open it once for writing to bring it up to date "
                                 f"(factstore.open(path), or `factstore sql 'SELECT 1' --write --db PATH`)")

    def _migrate(self) -> None:
        """Bring a store an earlier version wrote up to this schema where CREATE ... IF NOT EXISTS cannot: a filings
        table whose precision check predates 'minute' is rebuilt under the new one, rows kept."""
        old = self._one("""SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'filings'
                           AND constraint_type = 'CHECK' AND constraint_text NOT LIKE '%minute%'""")[0]
        if old:
            with self._transaction():
                self._all("ALTER TABLE filings RENAME TO filings_before_minute")
                self._all(sql_text("schema.sql"))
                self._all("INSERT INTO filings SELECT * FROM filings_before_minute")
                self._all("DROP TABLE filings_before_minute")

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """This thread's own connection to the store: threads never share a statement, a result, a
        transaction or a registered frame."""
        cur = getattr(self._local, "cursor", None)
        if cur is None:
            with self._guard:
                if self._closed:
                    raise FactstoreError(f"{self.path or ':memory:'}: the store is closed")
                for thread in [t for t in self._cursors if not t.is_alive()]:
                    self._cursors.pop(thread).close()
                cur = self._cursors[threading.current_thread()] = self._root.cursor()
            self._local.cursor = cur
        return cur

    def _schema_digest(self) -> str | None:
        """The digest of the sql/ files this store's views and macros were made from (None: made before digests)."""
        try:
            return self._one("SELECT digest FROM schema_version")[0]
        except duckdb.CatalogException:
            return None

    def schema_digest(self) -> str | None:
        """The digest of the sql/ files this store's views and macros were made from."""
        return self._schema_digest()

    def _read_only(self) -> bool:
        return bool(self._one("SELECT current_setting('access_mode') = 'read_only'")[0])

    def close(self) -> None:
        with self._guard:
            if self.snapshot and not self._closed:
                publishing.release(self.snapshot)
            self._closed = True
            for cur in self._cursors.values():
                cur.close()
            self._cursors.clear()
            self._root.close()

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
        if not write:
            try:
                kinds = {s.type for s in duckdb.extract_statements(query)}
            except duckdb.Error as exc:
                raise FactstoreError(_one_line(exc)) from exc
            if not kinds <= READING:
                names = ", ".join(sorted(k.name for k in kinds - READING))
                raise FactstoreError(f"refused: {names} changes the store or reaches outside it; "
                                     f"only reading statements run without write=True (CLI: --write)")
        try:
            return self.con.execute(query, params).df()
        except duckdb.Error as exc:
            raise FactstoreError(_one_line(exc)) from exc

    def relation(self, query: str, params: list[Any] | dict[str, Any] | None = None) -> duckdb.DuckDBPyRelation:
        """A reading query as a lazy DuckDB relation on this thread's connection (for .arrow(), .df())."""
        return self.con.sql(query, params=params)

    @contextmanager
    def frame(self, df: pd.DataFrame) -> Iterator[str]:
        """Register a DataFrame for this thread's queries under a fresh name, yielded; dropped after."""
        name = f"_frame_{uuid.uuid4().hex}"
        self.con.register(name, df)
        try:
            yield name
        finally:
            self.con.unregister(name)

    def _all(self, query: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        """Every row of a statement (fetched to the end, so the connection is free again)."""
        return self.con.execute(query, params).fetchall()

    def _one(self, query: str, params: list[Any] | None = None) -> tuple[Any, ...] | None:
        """The first row of a statement, or None."""
        rows = self._all(query, params)
        return rows[0] if rows else None

    def _rows(self, query: str, params: list[Any]) -> list[dict[str, Any]]:
        cur = self.con.execute(query, params)
        rows = cur.fetchall()
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in rows]

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Reads on this thread, inside the block, all see the store as of one moment (one transaction)."""
        self.con.begin()
        try:
            yield
        finally:
            self.con.rollback()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction at a time per store object (threads' loads queue rather than conflict)."""
        if self.read_only:
            where = f"the published snapshot {self.snapshot}" if self.snapshot else f"{self.path}, opened read only"
            raise FactstoreError(f"{where}: cannot be written; load into the live store (and publish it again)")
        with self._writing:
            self.con.begin()
            try:
                yield
            except BaseException:
                self.con.rollback()
                self._aliases.clear()  # none found inside the transaction survives it
                raise
            self.con.commit()

    # ----------------------------------------------------------------- loading
    def load_course(self, xbrl: Table | None = None, documents: Table | None = None,
                    sales: Table | None = None, *, progress: bool | None = None) -> LoadReport:
        """Load the course's files (filings6_xbrl.parquet, filings6_documentos.parquet,
        acciones6_ventas.csv; paths or DataFrames) in one transaction; loading again adds nothing.
        A progress bar shows on a terminal (progress=None), always (True) or never (False)."""
        if xbrl is None and documents is None and sales is None:
            raise ValueError("load_course: give xbrl, documents and/or sales")
        with _stages("load course", progress) as step:
            known = None
            if xbrl is not None:
                known = self.sql("SELECT filing_id, entity_id, form, accepted_at FROM filings")
            batch = read_course(xbrl=xbrl, documents=documents, sales=sales, known_filings=known)
            step("write")
            return self.apply(batch)

    def load_companyfacts(self, path_or_dict: Json, submissions: Json | list[Json] | None = None, *,
                          progress: bool | None = None) -> LoadReport:
        """Load one companyfacts JSON (with the company's own submissions JSON for acceptance times) in one
        transaction. As `fetch`/`update` do, only accessions not loaded yet are added: a filing stored before
        keeps its row and its facts, and a value the SEC has since edited in place in it is kept as a
        revision (see `history`), so loading again, or a newer file, never changes an as-of answer."""
        with _stages("load companyfacts", progress) as step:
            batch = read_companyfacts(path_or_dict, submissions)
            step("write")
            return self.apply(batch)

    def load_companyfacts_many(self, files: list[Json], submissions: list[Json] | None = None, *,
                               progress: bool | None = None) -> list[LoadReport]:
        """Load several companyfacts JSON files in one transaction (all of them, or none where one is bad),
        each with its own company's submissions among `submissions`, matched by CIK, never by position. DuckDB
        reads the files together; the rule is load_companyfacts': only accessions not loaded yet are added.
        A LoadReport per file, with a note where no submissions of its company were given."""
        with _stages("load companyfacts", progress) as step:
            ahead = SubmissionsAhead(submissions or [])  # read while DuckDB reads the facts
            parsed = parse_companyfacts(files)
            for one in parsed:
                if isinstance(one, LoadError):
                    raise one
            pages = ahead.paired([p.cik for p in parsed])
            step("write")
            batches = [companyfacts_batch(p, own) for p, own in zip(parsed, pages, strict=True)]
            reports = self.apply_many(batches)
        return [r if own or not submissions else replace(r, note=NO_SUBMISSIONS_GIVEN)
                for r, own in zip(reports, pages, strict=True)]

    def load_fsds(self, paths: str | Path | list[str | Path], *, progress: bool | None = None) -> list[LoadReport]:
        """Load quarters of the SEC's Financial Statement Data Sets (a folder with sub.txt and num.txt, or the SEC's
        zip, e.g. 2024q4.zip, streamed), one transaction per quarter; loading again adds nothing. Acceptance times
        are New York time to the minute, stored in UTC, unless the store holds the filing already (its time, to
        the second from submissions, wins). A fact takes the company's own period where the store knows one of the
        same length ending within a week of FSDS's month end (else the calendar months, listed in
        approximate_periods). Facts with segments or of a co-registrant are kept under their dimensions (see
        `fact(dims=...)`), never in the company's totals. Without sub.txt, every accession must be in the store."""
        reports = []
        for path in [paths] if isinstance(paths, str | Path) else list(paths):
            with _stages(f"load fsds {Path(path).name}", progress) as step:
                batch = read_fsds(path, self._fsds_known, progress=progress)
                step("write")
                reports.append(self.apply(batch))
        return reports

    def _fsds_known(self, filing_ids: list[str], entity_ids: list[str]) -> Known:
        """What the store holds of an FSDS quarter: its filings, its companies, and their periods (durations from
        entity_periods, instants from reports)."""
        filings = self.sql("SELECT filing_id, entity_id, form FROM filings WHERE filing_id IN (SELECT unnest(?))",
                           [filing_ids])
        ids = sorted(set(entity_ids) | set(filings["entity_id"]))
        entities = self.sql("SELECT entity_id, name FROM entities WHERE entity_id IN (SELECT unnest(?))", [ids])
        periods = self.sql("""
            SELECT entity_id, NULL AS filing_id, period_start, period_end FROM entity_periods
            WHERE entity_id IN (SELECT unnest(?))
            UNION ALL
            SELECT DISTINCT entity_id, NULL, NULL::DATE, period_end FROM reports
            WHERE entity_id IN (SELECT unnest(?)) AND period_start IS NULL
            UNION ALL
            SELECT DISTINCT entity_id, filing_id, period_start, period_end FROM reports
            WHERE filing_id IN (SELECT unnest(?))""", [ids, ids, filing_ids])
        units = self.sql("""SELECT DISTINCT entity_id, concept, unit FROM reports WHERE entity_id IN (SELECT unnest(?))
                            AND contains(unit, '/')""", [ids])
        return Known(filings, entities, periods, units)

    def load_filing(self, path: str | Path, entity: str | int, *, accession: str | None = None,
                    form: str | None = None, accepted_at: Any = None, period_end: Any = None,
                    progress: bool | None = None) -> LoadReport:
        """Attach a local SEC primary document (HTML) to the SEC company holding the facts (`entity`: ticker,
        CIK or name), as a fetched document would be: same entity, same filing, parsed, sectioned and chunked
        into every index strategy in use. The accession (given, or in the file's name) finds the filing the
        store knows, whose form, period and acceptance time the document takes (a contradiction is a
        LoadError); without one, the company's one filing of that form filed on the day of `accepted_at` is
        it. A filing the store does not know needs `form` and `accepted_at` (a day, or a moment: UTC unless
        it says). Loading again adds nothing."""
        with _stages("load filing", progress) as step:
            entity_id = self.resolve_entity(entity)
            row = self._one("SELECT cik, name, tickers FROM entities WHERE entity_id = ?", [entity_id])
            if row is None or row[0] is None:
                raise LoadError(str(path), f"{entity_id} is not an SEC company (no CIK): load its documents with "
                                           "load_course", field="entity")
            filing_id = accession_in(path, accession) or Path(path).name
            filings = self.sql("""SELECT filing_id, entity_id, form, period_end, filed, accepted_at,
                accepted_precision, accepted_note, source FROM filings WHERE entity_id = ? OR filing_id = ?""",
                               [entity_id, filing_id])
            batch = read_filing(path, row[0], {"name": row[1], "tickers": row[2] or []}, filings,
                                accession=accession, form=form, accepted_at=accepted_at, period_end=period_end)
            step("write")
            return replace(self.apply(batch), source=str(path))

    # ----------------------------------------------------------------- the SEC
    def fetch_companyfacts(self, companies: str | int | list[str | int], client: SecClient | None = None, *,
                           keep_going: bool = False, progress: bool | None = None,
                           say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Fetch companies' companyfacts and submissions (tickers or CIKs) from the SEC and load the facts of
        accessions not loaded yet, one transaction per company. The client defaults to SecClient() (User-Agent
        from FACTSTORE_USER_AGENT). With keep_going, a failed company is reported in its LoadReport's error."""
        return sync.fetch_companyfacts(self, client or SecClient(), companies, keep_going=keep_going,
                                       progress=progress, say=say)

    def fetch_filings(self, companies: str | int | list[str | int], client: SecClient | None = None, *,
                      forms: list[str] | None = None, since: Any = None, until: Any = None, keep_going: bool = False,
                      progress: bool | None = None, say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Fetch the primary documents of companies' filings (of these forms, filed from `since` to `until`),
        parse them into sections and blocks and chunk them for search; one transaction per company."""
        return sync.fetch_filings(self, client or SecClient(), companies, forms=forms, since=since, until=until,
                                  keep_going=keep_going, progress=progress, say=say)

    def fetch_bulk(self, archive: str | Path = "companyfacts.zip", client: SecClient | None = None, *,
                   submissions: str | Path | None = None, progress: bool | None = None,
                   say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Load the SEC's bulk companyfacts.zip member by member, streamed from the archive, one transaction per
        company; an interrupted load resumes. A name that is not a local file is downloaded from
        /Archives/edgar/daily-index/xbrl/ (submissions.zip, for acceptance times, from .../bulkdata/)."""
        paths = []
        for name, folder in ((archive, "xbrl"), (submissions, "bulkdata")):
            if name is not None and not Path(name).is_file():
                client = client or SecClient()
                name = client.download(f"/Archives/edgar/daily-index/{folder}/{Path(name).name}", progress=progress)
            paths.append(name)
        return sync.load_bulk(self, paths[0], submissions=paths[1], progress=progress, say=say)

    def update(self, companies: str | int | list[str | int] | None = None, client: SecClient | None = None, *,
               keep_going: bool = False, progress: bool | None = None,
               say: Callable[[str], None] | None = None) -> list[LoadReport]:
        """Bring SEC companies up to date (all in the store, or those named): only accessions new since the
        last run are fetched and loaded, their documents too where the store keeps that form's documents."""
        return sync.update(self, client or SecClient(), companies, keep_going=keep_going, progress=progress,
                           say=say)

    def publish(self, target: str | Path, *, keep: int | None = None) -> publishing.Published:
        """Publish the store as an immutable snapshot under TARGET (Parquet tables and a catalog.duckdb of the
        same views and macros), switched to atomically as TARGET/current: any number of processes read it
        (factstore.open(TARGET), or DuckDB on TARGET/current/catalog.duckdb) while this store goes on loading.
        A table that only grew keeps the previous snapshot's files. keep: remove all but the newest `keep`
        snapshots, except those a process still has open."""
        return publishing.publish(self, target, keep=keep)

    def apply(self, batch: Batch) -> LoadReport:
        """Write a loader's Batch in one transaction, checked against what the store holds; what is
        stored already is left as it is, so applying the same batch again adds nothing."""
        return self._apply([batch], apart=False)[0]

    def apply_many(self, batches: list[Batch]) -> list[LoadReport]:
        """Write several batches, one company each, in one transaction: all of them or none, with one set of
        statements for the lot (a bulk load pays its fixed costs once per group), and for each batch its own
        LoadReport, `loads` row and `ingested` marks, as if it had been applied alone."""
        return self._apply(batches, apart=True) if batches else []

    def _apply(self, batches: list[Batch], apart: bool) -> list[LoadReport]:
        batch = batches[0].writable() if len(batches) == 1 else Batch.combine(batches)
        with self._transaction():
            added = self._write(batch)
            parts = [(b, _values(b.entities, "entity_id") | _values(b.filings, "entity_id")) for b in batches] \
                if apart else [(batch, None)]
            reports, loads, ingested = [], [], []
            for part, ids in parts:
                n = Counter()
                for (entity_id, kind), count in added.items():
                    if ids is None or entity_id in ids:
                        n[kind] += count
                reports.append(LoadReport(part.source, n["entities"], n["filings"], n["reports"], n["documents"],
                                          revisions=n["revisions"]))
                if any(n.values()):
                    loads.append((part.kind, "; ".join(sorted(set(part.source_of.values()))) or part.source,
                                  n["filings"], n["reports"]))
                ingested += [(item, digest, entity_id, 0 if digest == "" else n["reports"])
                             for item, digest, entity_id in part.ingested]
            if loads:
                with self.frame(pd.DataFrame(loads, columns=["kind", "source", "filings", "reports"])) as name:
                    self._all(f"INSERT INTO loads SELECT now()::TIMESTAMP, * FROM {name}")  # name: ours
            if ingested:
                with self.frame(pd.DataFrame(ingested, columns=["item", "digest", "entity_id", "reports"])) as name:
                    self._all(f"""INSERT OR IGNORE INTO ingested SELECT item, digest, entity_id, now()::TIMESTAMP,
                                  reports FROM {name}""")  # name: ours
        self._concepts = None
        self._names = None
        self._approximate = None
        return reports

    def _write(self, batch: Batch) -> Counter[tuple[str | None, str]]:
        """A batch's rows, checked and written (inside the caller's transaction); what each entity gained:
        (entity_id, 'entities' | 'filings' | 'reports' | 'documents' | 'revisions') -> rows added."""
        con = self.con
        added: Counter[tuple[str | None, str]] = Counter()
        con.register("_batch_filings", batch.filings)
        try:
            # a filing stored before must agree with this batch, except that SEC data leaves it as stored
            clash = None if batch.stored_wins else self._one("""
                SELECT b.filing_id, f.accepted_at, b.accepted_at, f.form, b.form, f.entity_id, b.entity_id,
                    f.accepted_at <> b.accepted_at OR f.form <> b.form OR f.entity_id <> b.entity_id AS differs
                FROM _batch_filings b JOIN filings f USING (filing_id) ORDER BY differs DESC LIMIT 1""")
            if clash and clash[7]:
                raise LoadError(batch.source_of.get("reports", batch.source),
                                f"filing {clash[0]} is already stored as {clash[3]} of {clash[5]} "
                                f"accepted {clash[1]}; this file says {clash[4]} of {clash[6]} "
                                f"accepted {clash[2]}")
            # whether a filing these facts belong to may have been stored before
            reloading = not batch.stored_wins and (
                clash is not None or not batch.filing_ids() <= _values(batch.filings, "filing_id"))
            # SEC facts, mostly of accessions new to the store: whether their keys repeat is asked beside the writes
            # below, on another connection (it reads the batch only)
            distinct = _BESIDE.submit(self._distinct_keys, batch.reports) \
                if batch.stored_wins and isinstance(batch.reports, pa.Table) and len(batch.reports) else None
            all_new = self._insert_entities(batch.entities, added) if len(batch.entities) else False
            # whether every entity of these facts is new, so that nothing of theirs is stored to conflict with (asked
            # of Arrow facts only: SEC companies, a few distinct values at once)
            new_entities = all_new and isinstance(batch.reports, pa.Table) and \
                _values(batch.reports, "entity_id") <= _values(batch.entities, "entity_id")
            inserted = self._all("""
                INSERT INTO filings SELECT filing_id, entity_id, form, period_end::DATE, filed::DATE,
                    accepted_at::TIMESTAMP, accepted_precision, accepted_note, source
                FROM _batch_filings ON CONFLICT (filing_id) DO NOTHING RETURNING entity_id""")
            for entity_id, n in Counter(row[0] for row in inserted).items():
                added[entity_id, "filings"] += n
            fresh = len(inserted) == len(batch.filings) and batch.filing_ids() <= _values(batch.filings, "filing_id")
            # where no key repeats (equal keys hash alike) and no filing was stored before, the rows are taken as
            # they are
            plain = fresh and bool(len(batch.reports)) and (
                distinct.result() if distinct else self._distinct_keys(batch.reports))
            if len(batch.reports):
                self._insert_reports(batch, reloading, fresh=fresh, plain=plain, new_entities=new_entities)
                for entity_id, n in self._all("SELECT entity_id, count(*) FROM _new_reports GROUP BY ALL"):
                    added[entity_id, "reports"] += n
                for entity_id, n in self._all("SELECT entity_id, count(*) FROM _revised GROUP BY ALL")\
                        if batch.stored_wins and not fresh else []:
                    added[entity_id, "revisions"] += n
            if len(batch.documents):
                for entity_id, n in self._insert_documents(batch.documents).items():
                    added[entity_id, "documents"] += n
            if batch.approximate is not None and len(batch.approximate):
                con.register("_batch_approximate", batch.approximate)
                self._all("""
                    INSERT INTO approximate_periods SELECT DISTINCT entity_id, period_start::DATE, period_end::DATE,
                        source FROM _batch_approximate b WHERE NOT EXISTS (SELECT 1 FROM approximate_periods a
                        WHERE a.entity_id = b.entity_id AND a.period_end = b.period_end::DATE
                        AND a.period_start IS NOT DISTINCT FROM b.period_start::DATE)""")
            if batch.sales is not None and len(batch.sales):
                con.register("_batch_sales", batch.sales)
                self._all("""
                    INSERT INTO sales_reference SELECT entity_id, quarter_end::DATE, sales_millions
                    FROM _batch_sales ON CONFLICT DO NOTHING""")
            self._all(f"DROP {'VIEW' if plain else 'TABLE'} IF EXISTS _new_reports")  # ours
            self._all("DROP TABLE IF EXISTS _revised")
        finally:
            for name in ("_batch_filings", "_batch_entities", "_batch_documents", "_batch_sales", "_batch_reports",
                         "_batch_approximate", "_batch_concepts"):
                with suppress(duckdb.Error):
                    con.unregister(name)
        return added

    def _insert_entities(self, entities: pd.DataFrame | pa.Table, added: Counter[tuple[str | None, str]]) -> bool:
        """New entities and their codes; a stored entity gains the batch's tickers and names. Whether all were
        new."""
        # registered as Arrow: DuckDB scans lists of names there without converting Python objects each time
        self.con.register("_batch_entities", _entity_table(entities))
        new = self._all("SELECT entity_id FROM _batch_entities ANTI JOIN entities USING (entity_id)")
        for (entity_id,) in new:
            added[entity_id, "entities"] += 1
        all_new = len(new) == len(entities)
        # a name the entity is no longer given joins its other names (former names, other spellings); where all are
        # new, nothing can conflict (and DuckDB inserts faster without the clause)
        insert = """INSERT INTO entities SELECT entity_id, cik, name, tickers, coalesce(other_names::VARCHAR[], [])
                    FROM _batch_entities"""
        self._all(insert if all_new else insert + """
            ON CONFLICT (entity_id) DO UPDATE SET
                other_names = list_distinct(list_concat(other_names, EXCLUDED.other_names,
                    CASE WHEN EXCLUDED.name IS DISTINCT FROM name AND EXCLUDED.name IS NOT NULL
                         AND name IS NOT NULL THEN [name] END)),
                name = coalesce(EXCLUDED.name, name),
                tickers = list_distinct(list_concat(tickers, EXCLUDED.tickers)),
                cik = coalesce(EXCLUDED.cik, cik)""")
        # an alias two entities of the batch share goes to the first, as if they were loaded one by one; one stored
        # already stays
        self._all("""
            INSERT INTO entity_aliases
            SELECT * FROM (
                SELECT upper(alias) AS alias, arg_min(entity_id, ord) FROM (
                    SELECT unnest(list_concat([entity_id, cik::VARCHAR, lpad(cik::VARCHAR, 10, '0')], tickers))
                        AS alias, entity_id, ord FROM _batch_entities)
                WHERE alias IS NOT NULL AND alias <> '' GROUP BY upper(alias))
            ANTI JOIN entity_aliases USING (alias)""")
        return all_new

    def _distinct_keys(self, reports: pd.DataFrame | pa.Table) -> bool:
        """Whether no fact is given twice in the same filing among these rows (by the hash of its key)."""
        with self.frame(reports) as name:
            return not self._one(f"""SELECT count(*) > count(DISTINCT hash(filing_id, entity_id, concept, unit,
                period_start, period_end)) FROM {name}""")[0]  # name: ours

    def _insert_reports(self, batch: Batch, reloading: bool, fresh: bool = False, plain: bool = False,
                        new_entities: bool = False) -> None:
        """New facts, checked: one value per fact per filing, and none contradicting what a filing already
        reported (those checks against stored rows run only when a filing was stored before; `fresh`: none of
        the batch's filings was). The rows added stay in _new_reports (and revisions found in _revised) for the
        caller to count: a temp table, or a view of the batch where they are `plain` (to take as they are)."""
        source = batch.source_of.get("reports", batch.source)
        self.con.register("_batch_reports", batch.reports)
        # one row per fact per filing (a value the file repeats is one report); SEC data takes the stored
        # filing's time and form; `plain` rows are taken as they are
        self._all("""
            CREATE TEMP VIEW _new_reports AS
            SELECT filing_id::VARCHAR AS filing_id, entity_id::VARCHAR AS entity_id, concept::VARCHAR AS concept,
                unit::VARCHAR AS unit, period_start::DATE AS period_start, period_end::DATE AS period_end, value,
                false AS twice, accepted_at::TIMESTAMP AS accepted_at, form::VARCHAR AS form
            FROM _batch_reports""" if plain else """
            CREATE OR REPLACE TEMP TABLE _new_reports AS
            SELECT b.filing_id::VARCHAR AS filing_id, b.entity_id::VARCHAR AS entity_id,
                b.concept::VARCHAR AS concept, b.unit::VARCHAR AS unit, b.period_start::DATE AS period_start,
                b.period_end::DATE AS period_end, min(b.value) AS value, min(b.value) <> max(b.value) AS twice,
                any_value(CASE WHEN ? THEN coalesce(f.accepted_at, b.accepted_at::TIMESTAMP)
                               ELSE b.accepted_at::TIMESTAMP END) AS accepted_at,
                any_value(CASE WHEN ? THEN coalesce(f.form, b.form::VARCHAR) ELSE b.form::VARCHAR END) AS form
            FROM _batch_reports b LEFT JOIN filings f ON f.filing_id = b.filing_id::VARCHAR
            GROUP BY ALL""", [] if plain else [batch.stored_wins] * 2)
        twice = not plain and self._one("""
            SELECT filing_id, concept, unit, period_start, period_end FROM _new_reports WHERE twice LIMIT 1""")
        if twice:
            rows = self._all("""
                SELECT row FROM _batch_reports WHERE filing_id = ? AND concept::VARCHAR = ? AND unit::VARCHAR = ?
                AND period_start::DATE IS NOT DISTINCT FROM ? AND period_end::DATE = ? ORDER BY row LIMIT 2""",
                list(twice))
            raise LoadError(source, f"the same fact ({twice[1]} {twice[4]}) is given twice with different "
                            f"values in filing {twice[0]} (rows {', '.join(batch.row_name(r[0]) for r in rows)})",
                            field="value")
        if batch.stored_wins and not fresh:
            self._keep_stored(source, fills=batch.fills)
        stored = reloading and self._one("""
            SELECT n.filing_id, n.concept, n.period_end, r.value, n.value FROM _new_reports n
            JOIN (SELECT * FROM reports WHERE filing_id IN (SELECT filing_id FROM _new_reports)) r
              USING (filing_id, concept, unit, period_end)
            WHERE r.period_start IS NOT DISTINCT FROM n.period_start AND r.value <> n.value
            LIMIT 1""")
        if stored:
            raise LoadError(source, f"filing {stored[0]} already reported {stored[1]} for {stored[2]} "
                            f"as {stored[3]}; this file says {stored[4]}", field="value")
        if reloading:
            self._all("""
                DELETE FROM _new_reports n WHERE EXISTS (
                    SELECT 1 FROM reports r
                    WHERE r.filing_id = n.filing_id AND r.concept = n.concept AND r.unit = n.unit
                      AND r.period_end = n.period_end AND r.period_start IS NOT DISTINCT FROM n.period_start)""")
        # clustered by entity, then concept: SEC files come one company at a time, concept by concept
        self._all("INSERT INTO reports SELECT * EXCLUDE (twice) FROM _new_reports" + ("" if batch.stored_wins else
                  " ORDER BY entity_id, concept, period_end, period_start, accepted_at"))
        # (the periods of entities new in this batch cannot conflict)
        periods = """INSERT INTO entity_periods
                     SELECT entity_id, period_start, period_end, min(accepted_at), count(*) FROM _new_reports
                     WHERE period_start IS NOT NULL GROUP BY ALL"""
        self._all(periods if new_entities else periods + """
            ON CONFLICT DO UPDATE SET reports = reports + EXCLUDED.reports,
                first_accepted_at = least(first_accepted_at, EXCLUDED.first_accepted_at)""")
        # the concepts of the rows added: where they are all a batch's rows, Arrow's dictionary lists them at once
        named = "_new_reports"
        if plain and isinstance(batch.reports, pa.Table):
            self.con.register("_batch_concepts", pa.table({"concept": pc.unique(batch.reports["concept"])}))
            named = "_batch_concepts"
        self._all(f"""
            INSERT INTO concepts
            SELECT concept, split_part(concept, ':', 1), split_part(concept, ':', 2)
            FROM (SELECT DISTINCT split_part(concept::VARCHAR, '|', 1) AS concept FROM {named})
            ANTI JOIN concepts USING (concept)""")  # named: ours

    def _keep_stored(self, source: str, fills: bool = False) -> None:
        """SEC data: the facts of an accession its entity has loaded before are not loaded again, and a value
        not known before for a fact of it (the SEC edits old filings in place) goes to revisions, learned now,
        never into what as-of queries read. A source that lists filings whole (`fills`: FSDS) adds the facts the
        store has no value for; only a value differing from a stored one of the same fact is a revision."""
        loaded = self._one("""CREATE OR REPLACE TEMP TABLE _loaded AS SELECT DISTINCT filing_id, entity_id
                              FROM reports WHERE filing_id IN (SELECT filing_id FROM _new_reports)""")[0]
        if not loaded:  # nothing of these accessions stored before: nothing revised
            self._all("CREATE OR REPLACE TEMP TABLE _revised AS FROM revisions LIMIT 0")
            self._all("DROP TABLE _loaded")
            return
        self._all("""
            CREATE OR REPLACE TEMP TABLE _revised AS
            WITH found AS (SELECT * FROM _new_reports SEMI JOIN _loaded USING (filing_id, entity_id)),
            known AS (
                SELECT filing_id, entity_id, concept, unit, period_start, period_end, value FROM reports
                SEMI JOIN _loaded USING (filing_id, entity_id)
                UNION ALL
                SELECT filing_id, entity_id, concept, unit, period_start, period_end, value FROM revisions
                SEMI JOIN _loaded USING (filing_id, entity_id))
            SELECT filing_id, entity_id, concept, unit, period_start, period_end, value,
                now() AT TIME ZONE 'UTC', ? FROM found n
            WHERE NOT EXISTS (SELECT 1 FROM known k WHERE k.filing_id = n.filing_id AND k.entity_id = n.entity_id
                AND k.concept = n.concept AND k.unit = n.unit AND k.period_end = n.period_end
                AND k.period_start IS NOT DISTINCT FROM n.period_start
                AND (k.value = n.value OR (? AND round(k.value, 4) = n.value)))  -- FSDS keeps 4 decimals
            AND (NOT ? OR EXISTS (SELECT 1 FROM known k WHERE k.filing_id = n.filing_id
                AND k.entity_id = n.entity_id AND k.concept = n.concept AND k.unit = n.unit
                AND k.period_end = n.period_end AND k.period_start IS NOT DISTINCT FROM n.period_start))""",
                  [source, fills, fills])
        self._all("INSERT INTO revisions SELECT * FROM _revised")
        self._all("""DELETE FROM _new_reports n WHERE EXISTS (
            SELECT 1 FROM _loaded l WHERE l.filing_id = n.filing_id AND l.entity_id = n.entity_id) AND (NOT ? OR
            EXISTS (SELECT 1 FROM reports r WHERE r.filing_id = n.filing_id AND r.entity_id = n.entity_id
                AND r.concept = n.concept AND r.unit = n.unit AND r.period_end = n.period_end
                AND r.period_start IS NOT DISTINCT FROM n.period_start))""", [fills])
        self._all("DROP TABLE _loaded")

    def _insert_documents(self, documents: pd.DataFrame) -> Counter[str | None]:
        """New documents with their parsed text, sections and blocks (stored ones are left alone); how many
        each entity gained."""
        stored = {r[0] for r in self._all("SELECT doc_id FROM documents")}
        new = documents[~documents["doc_id"].isin(stored)].drop_duplicates("doc_id").reset_index(drop=True)
        if new.empty:
            return Counter()
        texts, sections, blocks = parse_rows(new)
        self.con.register("_batch_documents", new.assign(text=texts))
        self._all("""
            INSERT INTO documents SELECT doc_id, entity_id, issuer, kind, form, period_end::DATE, year::INTEGER,
                accepted_at::TIMESTAMP, title, raw, text FROM _batch_documents""")
        for table, frame in (("sections", sections), ("blocks", blocks)):
            if len(frame):
                self.con.register("_batch_parts", frame)
                self._all(f"INSERT INTO {table} BY NAME SELECT * FROM _batch_parts")  # table: ours
                self.con.unregister("_batch_parts")
        # an index built before misses nothing: new documents join every strategy that has chunks (default size)
        docs = list(zip(new["doc_id"], new["title"], strict=True))
        for (strategy,) in self._all("SELECT DISTINCT strategy FROM chunks ORDER BY strategy"):
            self._insert_chunks(self._chunks_of(docs, strategy))
        self._indexes.clear()
        return Counter(None if pd.isna(e) else e for e in new["entity_id"])

    # ----------------------------------------------------------------- names
    def resolve_entity(self, entity: str | int) -> str:
        """The entity_id for any of a company's tickers, its CIK (with or without zeros), or a name as people
        write it (see factstore.names: current or former name, case, possessive and legal suffix ignored, an
        unambiguous acronym, a curated alias such as Google). Raises NotFound (with close names as a hint, or
        saying the store does not hold the company named) or Ambiguous, listing the candidates."""
        code = str(entity).strip().upper()
        if code in self._aliases:
            return self._aliases[code]
        row = self._one("SELECT entity_id FROM entity_aliases WHERE alias = ?", [code])
        if row is not None:
            self._aliases[code] = row[0]
            return row[0]
        found = self.names().resolve(entity)
        if found.entity_id is None:
            raise NotFound(f"{found.name} has documents but no facts in the store")
        return found.entity_id

    def resolve_entities(self, entities: list[str | int]) -> list[str]:
        """resolve_entity for each of many, the codes (tickers, CIKs) looked up in one query."""
        codes = [str(e).strip().upper() for e in entities]
        self._aliases.update(self._all("SELECT alias, entity_id FROM entity_aliases WHERE list_contains(?, alias)",
                                       [[c for c in codes if c not in self._aliases]]))
        return [self._aliases.get(code) or self.resolve_entity(e) for code, e in zip(codes, entities, strict=True)]

    def names(self) -> Names:
        """Every company and fund the store can be asked about, by every name it goes by (kept until the next
        load)."""
        if self._names is None:
            self._names = Names(known_entities(self))
        return self._names

    def resolve_concepts(self, concept: str | list[str]) -> list[str]:
        """Qualified concepts for a name ('Revenues' -> 'us-gaap:Revenues') or an ordered list of names; a
        dimensional key keeps its dimensions ('Revenues|ProductOrService=IPhone' ->
        'us-gaap:Revenues|ProductOrService=IPhone')."""
        if self._concepts is None:
            by_name: dict[str, list[str]] = {}
            rows = self._all("SELECT concept, taxonomy, name FROM concepts")
            for qualified, _taxonomy, name in sorted(rows, key=lambda r: (TAXONOMY_ORDER.get(r[1], 9), r[0])):
                by_name.setdefault(name.lower(), []).append(qualified)
                by_name.setdefault(qualified.lower(), []).append(qualified)
            self._concepts = by_name
        names = [concept] if isinstance(concept, str) else list(concept)
        if not names:
            raise ValueError("concept: give a concept name or a non-empty list of them")
        out: list[str] = []
        for name in names:
            base, _, dims = name.partition("|")
            found = self._concepts.get(base.strip().lower(), [])
            suffix = f"|{dims_key(segments_dims(dims, None))}" if dims else ""
            out.extend(c + suffix for c in found if c + suffix not in out)
        if not out:
            close = difflib.get_close_matches(names[0], [k for k in self._concepts if ":" in k], n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise NotFound(f"unknown concept {names[0]!r}{hint}")
        return out

    def dimensions(self, entity: str | int, concept: str | list[str] | None = None) -> pd.DataFrame:
        """The dimensional facts an entity has (FSDS segments, products, regions, co-registrants): per concept
        key, its concept, its dimensions as {axis: member} text ('ProductOrService=IPhone') and how many
        reports; of the given concepts only, when given."""
        concepts = self.resolve_concepts(concept) if concept is not None else None
        return self.sql("""
            SELECT concept AS key, split_part(concept, '|', 1) AS concept, split_part(concept, '|', 2) AS dims,
                count(*) AS reports
            FROM reports WHERE entity_id = ? AND contains(concept, '|')
                AND (?::VARCHAR[] IS NULL OR list_contains(?::VARCHAR[], split_part(concept, '|', 1)))
            GROUP BY ALL ORDER BY concept, dims""", [self.resolve_entity(entity), concepts, concepts])

    def dimension_keys(self, entity_ids: list[str], concepts: list[str], dims: dict[str, str] | None, *,
                       strict: bool = False) -> list[str]:
        """The keys facts of these dimensions are stored under, for each qualified concept, as the entities' facts
        spell them (axis and member names matched without regard to case); the concepts themselves without dims.
        strict: a NotFound listing the dimensions the entities do have where none match."""
        if not dims:
            return concepts
        wanted = [concept_key(c, dims) for c in concepts]
        stored = dict(self._all("""SELECT DISTINCT lower(concept), concept FROM reports
            WHERE entity_id IN (SELECT unnest(?)) AND lower(concept) IN (SELECT lower(unnest(?)))""",
                                [entity_ids, wanted]))
        if strict and not stored:
            have = sorted({d for e in entity_ids for d in self.dimensions(e, concepts)["dims"]})[:12]
            known = f"; its dimensions of {concepts[0]}: {', '.join(have)}" if have else \
                f"; it has no dimensional facts of {concepts[0]} (load FSDS quarters: load_fsds)"
            raise NotFound(f"{', '.join(entity_ids)}: no facts with dims {dims_key(dims)}{known}")
        return [stored.get(w.lower(), w) for w in wanted]

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
        the fact of those dimensions (a segment, product or region; FSDS) instead of the company's total."""
        entity_id = self.resolve_entity(entity)
        concepts = self.dimension_keys([entity_id], self.resolve_concepts(concept), dims, strict=True)
        ts = self._as_of(as_of, mode)
        args = [ts, mode, concepts, entity_id]
        if period is not None:
            if start is not None or end is not None:
                raise ValueError("give either period or start/end, not both")
            label = parse_label(period)
            if label.quarter:
                rows = self._rows("SELECT * FROM quarters_asof(?, mode := ?, concepts := ?, entity := ?) "
                                  "WHERE fiscal_period = ?", [*args, label.label])
            else:
                rows = self._rows("SELECT * FROM fiscal_facts(?, mode := ?, concepts := ?, entity := ?) "
                                  "WHERE fiscal_period = ? OR (kind = 'instant' AND fiscal_period = ?)",
                                  [*args, label.label, f"{label.year}Q4" if label.part == "FY" else None])
            wanted = label.label
        elif end is not None:
            s, e = _day(start, "start"), _day(end, "end")
            found = self._rows("SELECT * FROM fact_asof(?, ?, ?, ?, as_of := ?, mode := ?)",
                               [entity_id, concepts, s, e, ts, mode])
            rows = [r for r in found if r["value"] is not None]
            if not rows and any(r["derivable"] for r in found):
                rows = self._rows("SELECT * FROM quarters_asof(?, mode := ?, concepts := ?, entity := ?) "
                                  "WHERE period_start = ? AND period_end = ?", [*args, s, e])
            wanted = f"{s or ''}..{e}"
        else:
            raise ValueError("give period (e.g. '2019Q4', 'FY2019') or end (and start for a duration)")
        return self._pick(rows, entity_id, concepts, unit, strict, wanted, ts)

    def _pick(self, rows: list[dict[str, Any]], entity_id: str, concepts: list[str], unit: str | None,
              strict: bool, wanted: str, ts: datetime | None) -> Fact | None:
        if unit is not None:
            rows = [r for r in rows if r["unit"] == unit]
        # a reported duration before an instant standing in for the year, then the entity's reporting currency
        # (not a convenience translation), then USD before other units
        currency = self._one("SELECT reporting_currency(?)", [entity_id])[0] if len(
            {r["unit"] for r in rows}) > 1 else None
        valued = sorted((r for r in rows if r["value"] is not None),
                        key=lambda r: (r.get("kind") == "instant", r["unit"].split("/")[0] != currency,
                                       r["unit"] != "USD", r["unit"]))
        if not valued:
            if strict:
                notes = "; ".join(sorted({r["note"] for r in rows if r.get("note")}))
                when = f" as of {ts:%Y-%m-%d %H:%M:%S} UTC" if ts else ""
                raise NotFound(f"{entity_id} {concepts[0]} {wanted}: "
                               f"{notes or 'nothing reported'}{when}")
            return None
        r = valued[0]
        warnings = list(r.get("warnings") or [])
        if self._approximate is None:
            self._approximate = {tuple(row) for row in self._all("SELECT * EXCLUDE (source) FROM approximate_periods")}
        if (entity_id, r["period_start"], r["period_end"]) in self._approximate:
            warnings.append("period approximate: FSDS gave it as calendar months, and no period of the company's "
                            "own ends within a week of it")
        if len({v["unit"] for v in valued}) > 1:
            warnings.append("also reported in " + ", ".join(sorted({v["unit"] for v in valued[1:]})))
        own = {k: r[k] for k in ("concept", "period_start", "period_end", "value", "filing_id", "form", "accepted_at")}
        # an exact lookup (fact_asof) comes with the report that first gave its value; other rows' parts are looked up
        parts = ([_with_first(own, r["first"])] if "first" in r
                 else self._first_filings(r.get("parts") or [own], r["unit"], concepts, entity_id))
        newest = max(parts, key=lambda p: p["first_accepted_at"])
        return Fact(
            entity=entity_id, concept=r.get("concept") or concepts[0], value=float(r["value"]),
            unit=r["unit"], start=r["period_start"], end=r["period_end"],
            accepted_at=pd.Timestamp(r["accepted_at"], tz=UTC), source=r["filing_id"], form=r["form"],
            fiscal_period=r.get("fiscal_period"), derived=bool(r.get("derived", False)),
            formula=r.get("formula"), warnings=tuple(warnings), parts=tuple(parts),
            known_since=pd.Timestamp(newest["first_accepted_at"], tz=UTC), first_source=newest["first_filing_id"],
            first_form=newest["first_form"])

    def _first_filings(self, parts: list[dict[str, Any]], unit: str, concepts: list[str],
                       entity_id: str) -> list[dict[str, Any]]:
        """The parts, each with the filing that first reported its current value (first_filing_id, first_form,
        first_accepted_at, first_value: that filing's own figure, equal up to rounding)."""
        wanted = [{**{k: p[k] for k in ("concept", "period_start", "period_end", "value", "accepted_at")},
                   "unit": unit} for p in parts]
        firsts = dict(self._all("SELECT part_no, first FROM first_filings(?, concepts := ?, entity := ?)",
                                [wanted, concepts, entity_id]))
        return [_with_first(p, firsts.get(no)) for no, p in enumerate(parts, start=1)]

    def quarters(self, entity: str | int, concept: str | list[str], *, as_of: Any = None,
                 mode: str = "as_of", dims: dict[str, str] | None = None) -> pd.DataFrame:
        """The discrete fiscal quarters known at `as_of`, reported or derived (Q4 = FY - 9M), oldest first; with
        dims, those of the concept's facts of these dimensions (see `fact`)."""
        entity_id = self.resolve_entity(entity)
        df = self.sql("""
            SELECT fiscal_period, period_start, period_end, value, derived, accepted_at, formula,
                filing_id, form, warnings, unit, concept, fiscal_year, fiscal_quarter
            FROM quarters_asof(?, mode := ?, concepts := ?, entity := ?)
            WHERE value IS NOT NULL ORDER BY period_end, unit""",
            [self._as_of(as_of, mode), mode, self.dimension_keys([entity_id], self.resolve_concepts(concept), dims,
                                                                 strict=True), entity_id])
        return df

    def history(self, entity: str | int, concept: str | list[str], *, start: Any = None, end: Any = None,
                period: str | None = None, dims: dict[str, str] | None = None) -> pd.DataFrame:
        """Every version of a fact, each with its filing, form and acceptance time, oldest first; a value the
        SEC later edited in place in a filing follows it with `revised_at`, when this store learned it (as-of
        answers never read those). With a fiscal label for a derived quarter, the versions of the figures it
        is derived from. With dims, the versions of the fact of those dimensions (see `fact`)."""
        entity_id = self.resolve_entity(entity)
        concepts = self.dimension_keys([entity_id], self.resolve_concepts(concept), dims, strict=True)
        base = ("SELECT concept, unit, period_start, period_end, value, filing_id, form, accepted_at, "
                "accepted_precision, revised_at FROM report_versions WHERE entity_id = ? "
                "AND list_contains(?, concept)")
        order = (" ORDER BY period_end, period_start NULLS FIRST, concept, accepted_at, filing_id, "
                 "revised_at NULLS FIRST")
        if period is not None:
            label = parse_label(period)
            if label.quarter:
                keys = self.sql("""
                    SELECT DISTINCT p.concept, p.period_start, p.period_end
                    FROM (SELECT unnest(parts) AS p FROM quarters_asof(NULL, mode := 'latest',
                          concepts := ?, entity := ?) WHERE fiscal_period = ?)""",
                    [concepts, entity_id, label.label])
            else:
                keys = self.sql("""
                    SELECT DISTINCT concept, period_start, period_end
                    FROM fiscal_facts(NULL, mode := 'latest', concepts := ?, entity := ?)
                    WHERE fiscal_period = ?""", [concepts, entity_id, label.label])
            with self.frame(keys) as name:
                return self.sql(f"""SELECT * FROM ({base}) h SEMI JOIN {name} k
                    ON h.concept = k.concept AND h.period_end = k.period_end
                    AND h.period_start IS NOT DISTINCT FROM k.period_start {order}""", [entity_id, concepts])
        where, params = "", [entity_id, concepts]
        if end is not None:
            where = " AND period_end = ? AND period_start IS NOT DISTINCT FROM ?"
            params += [_day(end, "end"), _day(start, "start")]
        return self.sql(base + where + order, params)

    def facts(self, questions: pd.DataFrame, *, as_of: Any = None, mode: str = "as_of") -> pd.DataFrame:
        """Answer many exact-period questions at once. `questions` has columns entity, concept,
        period_end, optional period_start (NULL for instants) and optional as_of (else the argument);
        the result is the questions with value, unit, filing_id, form and accepted_at added."""
        for column in ("entity", "concept", "period_end"):
            if column not in questions.columns:
                raise ValueError(f"questions: missing column {column!r}")
        self.check_mode(mode)
        q = pd.DataFrame({
            "question_no": range(len(questions)),
            "entity": questions["entity"].astype(str).to_numpy(),
            "concept": questions["concept"].astype(str).to_numpy(),
            "period_start": pd.to_datetime(questions["period_start"]).to_numpy()
            if "period_start" in questions.columns else pd.NaT,
            "period_end": pd.to_datetime(questions["period_end"]).to_numpy(),
        })
        if "as_of" in questions.columns:
            q["as_of"] = as_of_column(questions["as_of"].reset_index(drop=True)).to_numpy()
        else:
            q["as_of"] = as_of_timestamp(as_of)
        q["as_of"] = q["as_of"].astype("datetime64[us]")
        with self.frame(q) as name:
            answers = self.sql(f"""
                SELECT question_no, v.value AS value, unit, v.filing_id AS filing_id, v.form AS form,
                    v.accepted_at AS accepted_at
                FROM lookup_asof('{name}', mode := ?)
                QUALIFY row_number() OVER (PARTITION BY question_no ORDER BY unit <> 'USD', unit) = 1""",
                [mode])
        out = questions.reset_index(drop=True).copy()
        answers = answers.set_index("question_no").reindex(range(len(out)))
        for column in ("value", "unit", "filing_id", "form", "accepted_at"):
            out[column] = answers[column].to_numpy()
        return out

    # ----------------------------------------------------------------- text
    def load_reports(self, path: Table, *, progress: bool | None = None) -> LoadReport:
        """Load Markdown reports in the rag6 format (rag6_documentos.parquet: id_doc, titulo, tipo, texto)
        in one transaction; loading again adds nothing."""
        with _stages("load reports", progress) as step:
            batch = read_reports(path)
            step("write")
            return self.apply(batch)

    def document(self, doc_id: str) -> Document:
        """A stored document: its text, sections and blocks."""
        row = self._one("SELECT text FROM documents WHERE doc_id = ?", [doc_id])
        if row is None:
            raise NotFound(f"unknown document {doc_id!r}")
        sections = [Section(h, lv, s, e, p, i, tuple(path or ())) for h, lv, s, e, p, i, path in self._all(
            "SELECT heading, level, start_char, end_char, part, item, path FROM sections WHERE doc_id = ? "
            "ORDER BY section_no", [doc_id])]
        blocks = [Block(k, s, e, sec, tuple(n or ()), m) for k, s, e, sec, n, m in self._all(
            "SELECT kind, start_char, end_char, section_no, notes, note_mark FROM blocks WHERE doc_id = ? "
            "ORDER BY block_no", [doc_id])]
        return Document(text=row[0] or "", sections=sections, blocks=blocks)

    def index(self, strategy: str = "structure", *, size: int | None = None, new_only: bool = False,
              progress: bool | None = None) -> int:
        """Chunk every stored document with a strategy (fixed, recursive, structure, scoped; size: the
        strategy's own, the course's, unless given) into the chunks table, replacing that strategy's chunks and
        stored BM25 index (with new_only, only documents that have none yet join them). Returns the number of
        chunks made."""
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        docs = self._all("""SELECT doc_id, title FROM documents d WHERE text IS NOT NULL AND NOT (? AND EXISTS (
            SELECT 1 FROM chunks c WHERE c.doc_id = d.doc_id AND c.strategy = ?)) ORDER BY doc_id""",
                         [new_only, strategy])
        frame = self._chunks_of(docs, strategy, size, progress)
        with self._transaction():
            if not new_only:
                self._all("DELETE FROM chunks WHERE strategy = ?", [strategy])
                self._drop_index(strategy)
            self._insert_chunks(frame)
        self._indexes = {key: v for key, v in self._indexes.items() if key[0] != strategy}
        return len(frame)

    def _chunks_of(self, docs: list[tuple[str, str | None]], strategy: str, size: int | None = None,
                   progress: bool | None = False) -> pd.DataFrame:
        """Rows of the chunks table for stored documents (doc_id, title) chunked with a strategy."""
        rows = []
        for doc_id, title in progress_bar(docs, desc=f"index {strategy}", unit="doc", leave=False,
                                          progress=progress):
            doc = self.document(doc_id)
            for no, c in enumerate(chunk(doc, strategy, size=size)):
                section = " > ".join(doc.sections[c.section].path) if c.section is not None else None
                rows.append((doc_id, strategy, no, [{"start_char": s, "end_char": e} for s, e in c.spans],
                             section, c.kind, header_for(title or doc_id, c), chunk_text(doc, c)))
        return pd.DataFrame(rows, columns=["doc_id", "strategy", "chunk_no", "spans", "section", "kind",
                                           "header", "text"])

    def _insert_chunks(self, frame: pd.DataFrame) -> None:
        """New chunks (of one strategy, whole documents) and their rows of the strategy's stored BM25 index."""
        if len(frame):
            with self.frame(frame) as name:
                self._all(f"INSERT INTO chunks BY NAME SELECT * FROM {name}")  # name: ours
            self._index_chunks(str(frame["strategy"].iat[0]), frame)

    def _index_chunks(self, strategy: str, frame: pd.DataFrame | pa.Table) -> None:
        """Append chunks (doc_id, header, text: whole documents, each document's chunks in chunk_no order) to the
        strategy's stored BM25 index: their postings and lengths, new terms, and the known terms' counts."""
        rows = index_rows(frame, blank=ranking(strategy).blank)
        first_chunk, first_term = self._one("""SELECT
            (SELECT coalesce(max(chunk_id) + 1, 0) FROM bm25_chunks WHERE strategy = ?),
            (SELECT coalesce(max(term_id) + 1, 0) FROM bm25_terms)""", [strategy])
        terms = pd.DataFrame({"term": rows.terms, "local": np.arange(len(rows.terms)), "df_text": rows.df_text,
                              "df_all": rows.df_all})
        with self.frame(terms) as name:  # name: ours, in the statements below
            self._all(f"""UPDATE bm25_terms t SET df_text = t.df_text + n.df_text, df_all = t.df_all + n.df_all
                          FROM {name} n WHERE t.strategy = ? AND t.term = n.term""", [strategy])
            self._all(f"""INSERT INTO bm25_terms
                SELECT ?, ? + row_number() OVER (ORDER BY local) - 1, term, df_text, df_all
                FROM {name} ANTI JOIN (SELECT term FROM bm25_terms WHERE strategy = ?) USING (term)""",
                      [strategy, first_term, strategy])
            term_id = self.con.execute(f"""SELECT t.term_id FROM {name} n JOIN bm25_terms t ON t.term = n.term
                WHERE t.strategy = ? ORDER BY n.local""", [strategy]).fetchnumpy()["term_id"]
        postings = pd.DataFrame({"term_id": term_id[rows.term], "chunk_id": first_chunk + rows.chunk,
                                 "text_tf": rows.text_tf, "header_tf": rows.header_tf})
        with self.frame(postings) as name:
            self._all(f"INSERT INTO bm25_postings SELECT * FROM {name}")  # name: ours
        chunks = pd.DataFrame({"chunk_id": first_chunk + np.arange(len(frame)), "text_len": rows.text_len,
                               "header_len": rows.header_len})
        with self.frame(chunks) as name:
            self._all(f"INSERT INTO bm25_chunks SELECT ?, * FROM {name}", [strategy])  # name: ours
        doc_ids = frame["doc_id"].to_numpy()
        starts = np.flatnonzero(np.concatenate([[True], doc_ids[1:] != doc_ids[:-1]]))
        docs = pd.DataFrame({"doc_id": doc_ids[starts], "first_chunk": first_chunk + starts,
                             "chunks": np.diff(starts, append=len(frame))})
        with self.frame(docs) as name:
            self._all(f"INSERT INTO bm25_docs SELECT ?, * FROM {name}", [strategy])  # name: ours

    def _drop_index(self, strategy: str) -> None:
        """Delete a strategy's stored BM25 index."""
        self._all("DELETE FROM bm25_postings WHERE term_id IN (SELECT term_id FROM bm25_terms WHERE strategy = ?)",
                  [strategy])
        for table in ("bm25_terms", "bm25_chunks", "bm25_docs"):
            self._all(f"DELETE FROM {table} WHERE strategy = ?", [strategy])  # table: ours

    def search(self, query: str, k: int = 5, strategy: str = "structure", filters: dict[str, Any] | None = None,
               *, header: bool = False) -> list[Hit]:
        """BM25 search over a strategy's chunks (with the stored index; a store opened read-only without one
        builds it in memory), best first. Filters: doc_id, issuer, form, year, period_end, as_of (only documents
        public at or before it). With strategy 'scoped', the issuers and years the query names narrow the search
        too."""
        key = (strategy, header)
        if key not in self._indexes:
            self._indexes[key] = self._chunk_index(strategy, header)
        idx = self._indexes[key]
        return idx.scoped_search(query, k, filters) if strategy == "scoped" else idx.search(query, k, filters)

    def _chunk_index(self, strategy: str, header: bool) -> ChunkIndex:
        """The strategy's stored index, made first when a writable store has none: its chunks and index (a
        store written before indexes were stored has the chunks only). Read-only, without one: in memory."""
        chunks, indexed = self._one("""SELECT (SELECT count(*) FROM chunks WHERE strategy = ?),
            (SELECT coalesce(sum(chunks), 0) FROM bm25_docs WHERE strategy = ?)""", [strategy, strategy])
        if not chunks and not self._one("SELECT count(*) FROM (SELECT 1 FROM documents WHERE trim(text) <> '' "
                                        "LIMIT 1)")[0]:
            raise NotFound("nothing to search: the store holds no document text (load reports with load_reports, "
                           "filings' documents with load_course(documents=...), load_filing or fetch_filings)")
        if chunks != indexed or not chunks:
            if self.read_only:
                return self._memory_index(strategy, header, stored=bool(chunks))
            if chunks:
                frame = self.relation("SELECT doc_id, header, text FROM chunks WHERE strategy = ? "
                                      "ORDER BY doc_id, chunk_no", [strategy]).to_arrow_table()
                with self._transaction():
                    self._drop_index(strategy)
                    self._index_chunks(strategy, frame)
            else:
                self.index(strategy)
        docs = self.sql("""
            SELECT d.doc_id, d.issuer, d.form, d.year, d.period_end, d.title, d.accepted_at, b.first_chunk, b.chunks
            FROM bm25_docs b JOIN documents d USING (doc_id) WHERE b.strategy = ? ORDER BY d.doc_id""", [strategy])
        lengths = self.con.execute("SELECT chunk_id, text_len, header_len FROM bm25_chunks WHERE strategy = ?",
                                   [strategy]).fetchnumpy()
        terms = self.con.execute("SELECT term_id, df_text, df_all FROM bm25_terms WHERE strategy = ? ORDER BY term_id",
                                 [strategy]).fetchnumpy()
        return stored_index(docs, lengths, terms, header=header, find=lambda tokens: self._bm25_terms(strategy, tokens),
                            postings=self._bm25_postings, rows=lambda keys: self._chunk_rows(strategy, keys),
                            ranking=ranking(strategy))

    def _bm25_terms(self, strategy: str, tokens: list[str]) -> dict[str, int]:
        """The ids of those tokens that are terms of the strategy's stored index."""
        return dict(self._all("SELECT term, term_id FROM bm25_terms WHERE strategy = ? AND term IN (SELECT unnest(?))",
                              [strategy, tokens]))

    def _bm25_postings(self, term_ids: np.ndarray) -> dict[str, np.ndarray]:
        """The stored postings of terms, as columns."""
        return self.con.execute("SELECT * FROM bm25_postings WHERE term_id IN (SELECT unnest(?))",
                                [term_ids.tolist()]).fetchnumpy()

    def _chunk_rows(self, strategy: str, keys: pd.DataFrame) -> pd.DataFrame:
        """The spans, section, header and text of chunks (doc_id, chunk_no), in the order of keys."""
        found = self.sql("""SELECT doc_id, chunk_no, spans, section, header, text FROM chunks WHERE strategy = ?
            AND doc_id IN (SELECT unnest(?)) AND chunk_no IN (SELECT unnest(?))""",
                         [strategy, keys["doc_id"].unique().tolist(), keys["chunk_no"].unique().tolist()])
        return keys.merge(found, on=["doc_id", "chunk_no"], how="left")

    def _memory_index(self, strategy: str, header: bool, *, stored: bool) -> ChunkIndex:
        """An index in memory over the strategy's stored chunks, or over chunks made now (none stored)."""
        select = """
            SELECT c.doc_id, c.chunk_no, c.spans, c.section, c.kind, c.header, c.text,
                d.issuer, d.form, d.year, d.period_end, d.title, d.accepted_at, d.entity_id
            FROM {} c JOIN documents d USING (doc_id) WHERE c.strategy = ?
            ORDER BY c.doc_id, c.chunk_no"""
        if stored:
            chunks = self.sql(select.format("chunks"), [strategy])
        else:
            docs = self._all("SELECT doc_id, title FROM documents WHERE text IS NOT NULL ORDER BY doc_id")
            with self.frame(self._chunks_of(docs, strategy)) as name:
                chunks = self.sql(select.format(name), [strategy])  # name: ours
        return ChunkIndex.from_frame(chunks, header=header, ranking=ranking(strategy))

    def ask(self, question: str, *, as_of: Any = None, k: int = 5) -> Answer:
        """Answer a question in English or Spanish: a number from the facts (with its filing and time) or
        cited passages from the text index; 'unanswerable' with the reason where the data cannot answer.
        `as_of` (or a moment named in the question; the argument wins) applies to facts and text."""
        return ask(self, question, as_of=as_of, k=k)

    @staticmethod
    def check_mode(mode: str) -> None:
        """Refuse a mode other than as_of, first and latest."""
        if mode not in MODES:
            raise ValueError(f"mode {mode!r}: expected one of {', '.join(MODES)}")

    def _as_of(self, as_of: Any, mode: str) -> datetime | None:
        self.check_mode(mode)
        return as_of_timestamp(as_of)

    # ----------------------------------------------------------------- backtest feed
    def panel(self, tickers: list[str | int], concepts: list[str], dates: list[Any], *, ttm: bool = False,
              mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None) -> pd.DataFrame:
        """For each date, ticker and concept the newest fiscal quarter known strictly before the date (a date
        is 00:00 UTC) with its as-of value; ttm=True adds the trailing twelve months, wide=True gives a value
        column per concept. With dims, the concepts' facts of those dimensions (see `fact`). Any iterables will
        do; see factstore.feed.panel."""
        from factstore.feed import panel
        return panel(self, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims)

    def panel_arrow(self, tickers: list[str | int], concepts: list[str], dates: list[Any], *, ttm: bool = False,
                    mode: str = "as_of", wide: bool = False, dims: dict[str, str] | None = None) -> Any:
        """`panel` as a pyarrow.Table."""
        from factstore.feed import panel_arrow
        return panel_arrow(self, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims)

    def iter_panel(self, tickers: list[str | int], concepts: list[str], dates: list[Any], *, ttm: bool = False,
                   mode: str = "as_of", wide: bool = False,
                   dims: dict[str, str] | None = None) -> Iterator[tuple[pd.Timestamp, pd.DataFrame]]:
        """`panel` one date at a time, in date order: (date, its rows), for event-driven backtests."""
        from factstore.feed import iter_panel
        return iter_panel(self, tickers, concepts, dates, ttm=ttm, mode=mode, wide=wide, dims=dims)


def _entity_table(entities: pd.DataFrame | pa.Table) -> pa.Table:
    """Entities as an Arrow table of ENTITY_SCHEMA: other names null where not given, ord each one's place."""
    if isinstance(entities, pd.DataFrame):
        frame = entities if "other_names" in entities else entities.assign(other_names=None)
        return pa.Table.from_pandas(frame.assign(ord=range(len(frame)))[ENTITY_SCHEMA.names], ENTITY_SCHEMA,
                                    preserve_index=False)
    n = entities.num_rows
    given = {name: entities[name] if name in entities.column_names else pa.nulls(n, ENTITY_SCHEMA.field(name).type)
             for name in ENTITY_SCHEMA.names[:-1]}
    return pa.table({**given, "ord": pa.array(range(n), pa.int64())}).cast(ENTITY_SCHEMA)


def _values(frame: pd.DataFrame | pa.Table, column: str) -> set[Any]:
    """The distinct values of a column of a pandas or Arrow frame."""
    values = frame[column]
    return set(pc.unique(values).to_pylist() if isinstance(values, pa.ChunkedArray) else values)


def _one_line(exc: Exception) -> str:
    """A DuckDB error as one line: its message without the caret drawing of the query."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " ".join(line for line in lines if not line.startswith(("LINE ", "^")))


def _with_first(part: dict[str, Any], first: dict[str, Any] | None) -> dict[str, Any]:
    """A part with the report that first gave its current value (its own, should none be found: a restatement
    sharing its acceptance time)."""
    first = first or part
    return {**part, "first_filing_id": first["filing_id"], "first_form": first["form"],
            "first_accepted_at": first["accepted_at"], "first_value": first["value"]}


def _day(value: Any, name: str) -> date | None:
    if value is None:
        return None
    try:
        return pd.Timestamp(value).date()
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name}: cannot read {value!r} as a date") from exc


@contextmanager
def _stages(desc: str, progress: bool | None) -> Iterator[Callable[[str], None]]:
    """A two-stage progress bar (read and check, then write) with elapsed time."""
    with progress_bar(total=2, desc=f"{desc}: read", unit="stage", progress=progress, leave=False) as bar:
        def step(name: str) -> None:
            bar.update()
            bar.set_description(f"{desc}: {name}")
        yield step
        bar.update()
