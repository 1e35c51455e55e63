"""The engine: one DuckDB connection with a cursor per thread, transactions, the schema from sql/, and what is
remembered between queries until the next write. Every module below the face takes a Db."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from factstore import snapshots, vocabulary
from factstore.cache import cache_dir
from factstore.errors import FactstoreError
from factstore.resources import SQL_FILES, catalog_sql, sql_text

# the SQL files (the versions' too) and the metrics table the macros read (metric_concepts): a store made by other
# ones is rewritten
SCHEMA_DIGEST = hashlib.sha256(("".join(sql_text(name) for name in (*SQL_FILES, "versions.sql"))
                                + vocabulary.METRICS_FILE.read_text(encoding="utf-8")).encode()).hexdigest()[:16]
# what an empty store is made by: the SQL files and metrics, and the code running them (this file, the metrics')
_EMPTY_DIGEST = hashlib.sha256(SCHEMA_DIGEST.encode() + Path(__file__).read_bytes()
                               + Path(vocabulary.__file__).read_bytes()).hexdigest()[:16]
READING_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}
DUCKDB_MAGIC = b"DUCK"


def open_db(path: str | Path | None = None, *, read_only: bool = False, create: bool = True,
            external_access: bool = False) -> Db:
    """The engine of a store file (in memory when path is None), or of a folder's current published snapshot
    (read only); see factstore.open."""
    if path is not None and Path(path).is_dir() and (Path(path) / "current").exists():
        con, snapshot = snapshots.open_snapshot(path)
        try:
            return Db(con, path, snapshot=snapshot)
        except BaseException:
            con.close()
            snapshots.release(snapshot)
            raise
    target = ":memory:" if path is None else str(path)
    if path is not None:
        _check_store_file(Path(path), create=create and not read_only)
        if create and not read_only and not Path(path).exists():
            _copy_empty_store(Path(path))
    config = {} if external_access else {"enable_external_access": False}
    try:
        con = duckdb.connect(target, read_only=read_only, config=config)
    except duckdb.Error as exc:
        raise FactstoreError(_open_error(target, exc)) from exc
    try:
        return Db(con, path)
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
    if not path.is_file():  # a FIFO, a socket, a device: reading its header could wait forever
        raise FactstoreError(f"{path}: not a regular file, so not a store; refusing to read it (left untouched)")
    with path.open("rb") as f:
        head = f.read(12)
    if head[8:12] != DUCKDB_MAGIC:
        raise FactstoreError(f"{path}: exists and is not a DuckDB store; refusing to use it (left untouched)")


def _copy_empty_store(path: Path) -> None:
    """Make a new store a copy of this version's empty store, kept in the cache folder (made there once): its catalog
    costs ~140 statements, ~70 ms; a copy, ~1 ms. The copy is linked in whole or not at all, and never over a file
    another process made meanwhile; where any of this fails, DuckDB makes the store in place, as before."""
    try:
        template = _empty_store()
        part = path.with_name(f".{path.name}.{uuid.uuid4().hex}.part")
        shutil.copyfile(template, part)
        try:
            os.link(part, path)
        finally:
            part.unlink()
    except OSError:
        return


def _empty_store() -> Path:
    """This version's empty store (schema, macros, views), made once into the cache folder under a name of its SQL
    files' digest and DuckDB's version; an OSError where the folder cannot be written."""
    template = cache_dir() / f"empty-{_EMPTY_DIGEST}-duckdb-{duckdb.__version__}.duckdb"
    if template.exists():
        return template
    template.parent.mkdir(parents=True, exist_ok=True)
    made = template.with_name(f".{template.name}.{uuid.uuid4().hex}.part")
    try:
        Db(duckdb.connect(str(made)), made).close()
        os.replace(made, template)  # whole, and the same bytes whoever wins a race
    finally:
        made.unlink(missing_ok=True)
    for other in template.parent.glob("empty-*.duckdb"):  # other versions' (one copying it falls back to in place)
        if other != template:
            other.unlink(missing_ok=True)
    return template


def _bytes(size: str) -> float:
    """A size as DuckDB's settings say it ('18.6 GiB', '1.0 GB', '512 bytes'), in bytes."""
    number, unit = re.fullmatch(r"([\d.]+)\s*([A-Za-z]*)", size.strip()).groups()
    units = {"": 1, "BYTES": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
             "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}
    return float(number) * units[unit.upper()]


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


def one_line(exc: Exception) -> str:
    """A DuckDB error as one line: its message without the caret drawing of the query."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " ".join(line for line in lines if not line.startswith(("LINE ", "^")))


def _close_when_idle(cur: duckdb.DuckDBPyConnection) -> None:
    """Close a cursor once the call in flight on it, if any, has ended (DuckDB refuses to close a busy one)."""
    while True:
        try:
            cur.close()
            return
        except duckdb.ResourceInUseException:
            time.sleep(0.005)


class Db:
    """One DuckDB connection shared by threads, each through its own cursor, and what its readers remember
    (`memo`: names, concepts, indexes...; forgotten where a write may change it)."""

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
        self.memo: dict[str, Any] = {}
        self.read_only = bool(self.one("SELECT current_setting('access_mode') = 'read_only'")[0])
        if not self.read_only:
            self._migrate()
            if self.schema_digest() != SCHEMA_DIGEST:  # a store made by these very files has them (0.1 s saved)
                for name in SQL_FILES:
                    self.all(catalog_sql(name))
                self.all("DELETE FROM metric_concepts")
                self.all("INSERT INTO metric_concepts SELECT * FROM (SELECT unnest(?, recursive := true))",
                         [vocabulary.metric_concepts()])
                self.all("CREATE OR REPLACE TABLE schema_version AS SELECT ? AS digest", [SCHEMA_DIGEST])
        elif self.schema_digest() != SCHEMA_DIGEST:
            raise FactstoreError(f"{path}: written by another version of factstore, whose views and macros "
                                 f"differ from this one's; open it once for writing to bring it up to date "
                                 f"(factstore.open(path), or `factstore sql 'SELECT 1' --write --db PATH`)")

    def _migrate(self) -> None:
        """Bring a store an earlier version wrote up to this schema where CREATE ... IF NOT EXISTS cannot: a filings
        table whose precision check predates 'minute' is rebuilt under the new one, rows kept (quarter_versions of
        another shape: versions.kept makes them anew)."""
        old = self.one("""SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'filings'
                          AND constraint_type = 'CHECK' AND constraint_text NOT LIKE '%minute%'""")[0]
        if old:
            with self.transaction():
                self.all("ALTER TABLE filings RENAME TO filings_before_minute")
                self.all(sql_text("schema.sql"))
                self.all("INSERT INTO filings SELECT * FROM filings_before_minute")
                self.all("DROP TABLE filings_before_minute")

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """This thread's own cursor (see FactStore.con)."""
        cur = getattr(self._local, "cursor", None)
        if cur is None or self._closed:
            with self._guard:
                if self._closed:  # a call begun after close() is refused, saying so
                    raise self._closed_error()
                for thread in [t for t in self._cursors if not t.is_alive()]:
                    self._cursors.pop(thread).close()
                cur = self._cursors[threading.current_thread()] = self._root.cursor()
            self._local.cursor = cur
        return cur

    def _closed_error(self) -> FactstoreError:
        return FactstoreError(f"{self.path or ':memory:'}: the store is closed")

    def schema_digest(self) -> str | None:
        """The digest of the sql/ files this store's views and macros were made from (None: made before digests)."""
        try:
            return self.one("SELECT digest FROM schema_version")[0]
        except duckdb.CatalogException:
            return None

    def close(self) -> None:
        """Close the store: calls begun from now on are refused; the calls in flight on other threads are waited
        for (a cursor busy with one cannot be closed), then every cursor and the connection are closed."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
            cursors = list(self._cursors.values())
            self._cursors.clear()
        for cur in cursors:
            _close_when_idle(cur)
        self._root.close()
        if self.snapshot:
            snapshots.release(self.snapshot)

    def forget(self, *keys: str) -> None:
        """Drop what readers remembered under these keys (every key, with none): a write may have changed it."""
        for key in keys or list(self.memo):
            self.memo.pop(key, None)

    def sql(self, query: str, params: list[Any] | dict[str, Any] | None = None, *,
            write: bool = False) -> pd.DataFrame:
        """A query's last statement's rows; only reading statements run unless write=True (see FactStore.sql)."""
        if not write:
            try:
                kinds = {s.type for s in duckdb.extract_statements(query)}
            except duckdb.Error as exc:
                raise FactstoreError(one_line(exc)) from exc
            if not kinds <= READING_STATEMENTS:
                names = ", ".join(sorted(k.name for k in kinds - READING_STATEMENTS))
                raise FactstoreError(f"refused: {names} changes the store or reaches outside it; "
                                     f"only reading statements run without write=True (CLI: --write)")
        try:
            return self.con.execute(query, params).df()
        except duckdb.Error as exc:  # a cursor closed between taking it and running: the store was closed
            raise (self._closed_error() if self._closed else FactstoreError(one_line(exc))) from exc

    def relation(self, query: str, params: list[Any] | dict[str, Any] | None = None) -> duckdb.DuckDBPyRelation:
        """A reading query as a lazy relation on this thread's cursor."""
        return self.con.sql(query, params=params)

    @contextmanager
    def frame(self, df: Any) -> Iterator[str]:
        """Register a frame (pandas or Arrow) for this thread's queries under a fresh name, yielded; dropped after."""
        name = f"_frame_{uuid.uuid4().hex}"
        self.con.register(name, df)
        try:
            yield name
        finally:
            self.con.unregister(name)

    def all(self, query: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        """Every row of a statement (fetched to the end, so the connection is free again)."""
        try:
            return self.con.execute(query, params).fetchall()
        except duckdb.ConnectionException as exc:
            if self._closed:
                raise self._closed_error() from exc
            raise

    def one(self, query: str, params: list[Any] | None = None) -> tuple[Any, ...] | None:
        """The first row of a statement, or None."""
        rows = self.all(query, params)
        return rows[0] if rows else None

    def rows(self, query: str, params: list[Any]) -> list[dict[str, Any]]:
        """Every row of a statement as a dict by column name."""
        cur = self.con.execute(query, params)
        rows = cur.fetchall()
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in rows]

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Reads inside the block see one moment (see FactStore.reading)."""
        self.con.begin()
        try:
            yield
        finally:
            self.con.rollback()

    @contextmanager
    def memory_capped(self, limit: int) -> Iterator[None]:
        """DuckDB's memory limit at most `limit` bytes for a while, then what it was (the default again, or a limit set
        before as DuckDB shows it, to a tenth of a unit): the cache of the store's pages grows with the store up to the
        limit, 80% of the machine's memory unless set."""
        before = self.one("SELECT current_setting('memory_limit')")[0]
        if _bytes(before) > limit:
            self.all(f"SET memory_limit = '{limit}B'")
        try:
            yield
        finally:
            self.all("RESET memory_limit")
            if self.one("SELECT current_setting('memory_limit')")[0] != before:
                self.all(f"SET memory_limit = '{before}'")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction at a time per store (threads' loads queue rather than conflict); what readers
        remembered of names found inside a transaction that fails is forgotten with it."""
        if self.read_only:
            where = f"the published snapshot {self.snapshot}" if self.snapshot else f"{self.path}, opened read only"
            raise FactstoreError(f"{where}: cannot be written; load into the live store (and publish it again)")
        with self._writing:
            self.con.begin()
            try:
                yield
            except BaseException:
                self.con.rollback()
                self.forget("aliases")
                raise
            self.con.commit()
