"""Published snapshots: immutable Parquet copies of a store that any number of readers and engines read while
the writer goes on loading.

Layout of a target folder:

    TARGET/current -> snapshots/<id>        a symbolic link, switched atomically (rename) by each publish
    TARGET/snapshots/<id>/<table>/*.parquet each table of sql/schema.sql
    TARGET/snapshots/<id>/catalog.duckdb    the views and macros of sql/ over those files (absolute paths)
    TARGET/snapshots/<id>/manifest.json     rows, fingerprint and files of each table

A snapshot is written under a hidden name, renamed into place, given its catalog, and only then made current,
so a reader never sees a half-written one. A table that only grew since the last snapshot (its old rows, in
rowid order, have the fingerprint recorded then) keeps that snapshot's files (hard links) and gains one file
of its new rows; any other table is written whole.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pyarrow.parquet as pq

from factstore.errors import FactstoreError
from factstore.resources import CATALOG_SQL, catalog_sql, sql_text  # (schema.sql's tables are views over Parquet there)
from factstore.snapshots import CATALOG, MANIFEST, SNAPSHOT_NAME, current, snapshots, unused

if TYPE_CHECKING:
    from factstore.db import Db

TABLES = re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", sql_text("schema.sql"))
ROWS_PER_GROUP = 1 << 17
LOCK = ".publish.lock"  # held (flock) by the publish into a target, from its checks to its prune
LEFTOVER = re.compile(rf"\.(?:{SNAPSHOT_NAME.pattern})\.partial|\.current-{SNAPSHOT_NAME.pattern}")


@dataclass(frozen=True)
class Published:
    """What one publish wrote: the snapshot, and per table its rows and whether its old files were reused."""

    target: Path
    snapshot: Path
    rows: dict[str, int]
    reused: dict[str, int]   # table -> rows kept in the previous snapshot's files (hard links)
    written: dict[str, int]  # table -> rows written to new files
    pruned: list[str]


def publish(db: Db, target: str | Path, *, keep: int | None = None) -> Published:
    """Write the store's tables as a new snapshot under TARGET/snapshots/ and make it TARGET/current; with
    `keep`, remove all but the newest `keep` snapshots that no process has open."""
    if keep is not None and keep < 1:
        raise ValueError(f"keep must be at least 1, not {keep}")
    target = _check_target(Path(target))
    folder = target / "snapshots"
    folder.mkdir(parents=True, exist_ok=True)
    with (target / LOCK).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one publisher at a time: the next waits its turn
        _check_current(target)
        _remove_leftovers(target)
        return _publish(db, target, keep)


def _check_target(given: Path) -> Path:
    """The target folder, refused (before anything is written) where it is not one to publish into."""
    target = given.resolve()
    if target.exists() and not target.is_dir():
        raise FactstoreError(f"{target}: not a folder to publish into")
    inside = next((p for p in (target, *target.parents) if (p / MANIFEST).is_file() and p.parent.name == "snapshots"
                   and SNAPSHOT_NAME.fullmatch(p.name)), None)
    if inside is not None:
        raise FactstoreError(f"{given}: inside the published snapshot {inside}, which never changes; publish into "
                             f"its target, {inside.parent.parent}")
    return target


def _check_current(target: Path) -> None:
    """TARGET/current must be absent, or the link a publish made: a file or folder of the user's is never replaced."""
    link = target / "current"
    if link.is_symlink() and SNAPSHOT_NAME.fullmatch(Path(os.readlink(link)).name) \
            and Path(os.readlink(link)).parent == Path("snapshots"):
        return
    if link.exists() or link.is_symlink():
        kind = "a link elsewhere" if link.is_symlink() else "a folder" if link.is_dir() else "a file"
        raise FactstoreError(f"{link}: {kind} that publish did not make; move it away, or publish into another "
                             "folder")


def _remove_leftovers(target: Path) -> None:
    """What killed publishes left (hidden .partial snapshots, .current-* links): no publisher is running but this."""
    for path in [*(target / "snapshots").iterdir(), *target.iterdir()]:
        if LEFTOVER.fullmatch(path.name):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()


def _publish(db: Db, target: Path, keep: int | None) -> Published:
    """The publish itself, under the target's lock."""
    folder = target / "snapshots"
    previous = current(target)
    before = _manifest(previous) if previous else {}
    snap_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}-{uuid.uuid4().hex[:6]}"
    partial, final = folder / f".{snap_id}.partial", folder / snap_id
    partial.mkdir()
    tables: dict[str, Any] = {}
    try:
        with db.reading():  # one transaction: every table as of one moment
            for table in TABLES:
                tables[table] = _table(db, table, partial, final, before.get("tables", {}).get(table), previous)
        manifest = {"id": snap_id, "created_at": datetime.now(UTC).isoformat(), "schema": db.schema_digest(),
                    "tables": tables}
        (partial / MANIFEST).write_text(json.dumps(manifest, indent=1))
        partial.rename(final)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    _catalog(final, tables, db.schema_digest())
    link = target / f".current-{snap_id}"
    link.symlink_to(Path("snapshots") / snap_id)
    os.replace(link, target / "current")
    pruned = prune(target, keep) if keep else []
    return Published(target, final, {t: v["rows"] for t, v in tables.items()},
                     {t: v["reused_rows"] for t, v in tables.items()},
                     {t: v["rows"] - v["reused_rows"] for t, v in tables.items()}, pruned)


def _table(db: Db, table: str, partial: Path, final: Path, before: dict[str, Any] | None,
           previous: Path | None) -> dict[str, Any]:
    """One table written into the snapshot: its old files kept where it only grew, new rows in a new file."""
    old = before.get("boundary") if before and previous and before["files"] else None
    rows, boundary, fingerprint, kept = _fingerprints(db, table, old or 0)
    (partial / table).mkdir()
    files, start = [], 0
    if old is not None and kept == before["fingerprint"]:  # the rows below the old boundary are as published
        for name in before["files"]:
            _link(previous / table / name, partial / table / name)
        files, start = list(before["files"]), old
    reused = int(kept[0]) if files else 0
    if rows > reused or not files:
        name = f"part-{final.name}.parquet"
        reader = db.relation(f"SELECT * FROM {table} WHERE rowid >= ? ORDER BY rowid",  # table: ours
                                [start]).to_arrow_reader(ROWS_PER_GROUP)
        with pq.ParquetWriter(partial / table / name, reader.schema, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(batch, row_group_size=ROWS_PER_GROUP)
        files.append(name)
    return {"rows": rows, "boundary": boundary, "fingerprint": fingerprint, "files": files, "reused_rows": reused}


def _fingerprints(db: Db, table: str, below: int) -> tuple[int, int, list[str], list[str]]:
    """In one scan of a table: its rows, the rowid boundary above all of them (rowids stay sparse after a delete),
    and the count and hash sum of all its rows and of those with rowid < `below` (equal before and after means
    those rows are unchanged)."""
    found = db.sql(f"""
        SELECT count(*) AS n, coalesce(max(rowid) + 1, 0) AS boundary, sum(hash(t)::HUGEINT)::VARCHAR AS h,
            count(*) FILTER (rowid < ?) AS kept_n, (sum(hash(t)::HUGEINT) FILTER (rowid < ?))::VARCHAR AS kept_h
        FROM {table} t""", [below, below]).iloc[0]  # table: ours
    return (int(found["n"]), int(found["boundary"]), [str(found["n"]), str(found["h"])],
            [str(found["kept_n"]), str(found["kept_h"])])


def _link(source: Path, dest: Path) -> None:
    """A hard link to an older snapshot's file (a copy where the file system has none)."""
    try:
        os.link(source, dest)
    except OSError:
        shutil.copy2(source, dest)


def _catalog(snapshot: Path, tables: dict[str, Any], digest: str) -> None:
    """catalog.duckdb: each table a view over its Parquet files, then the views and macros of sql/."""
    path, partial = snapshot / CATALOG, snapshot / f".{CATALOG}.partial"
    con = duckdb.connect(str(partial))
    try:
        for table, info in tables.items():
            # DDL takes no parameters: the file names are ours, quoted as SQL strings
            files = ", ".join(_literal(snapshot / table / f) for f in info["files"])
            con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet([{files}])")  # table: ours
        for name in CATALOG_SQL:
            con.execute(catalog_sql(name))
        con.execute("CREATE TABLE schema_version AS SELECT ? AS digest", [digest])
        con.execute("CHECKPOINT")
    finally:
        con.close()
    partial.rename(path)


def _literal(path: Path) -> str:
    """A path as an SQL string literal."""
    text = str(path)
    if any(ord(c) < 32 for c in text):
        raise FactstoreError(f"{text!r}: a control character in a snapshot path")
    return "'" + text.replace("'", "''") + "'"


def _manifest(snapshot: Path) -> dict[str, Any]:
    return json.loads((snapshot / MANIFEST).read_text())


def prune(target: str | Path, keep: int) -> list[str]:
    """Remove all but the newest `keep` snapshots (never the current one, nor one newer than it), skipping any a
    process has open. Only snapshots that publish made are candidates (`snapshots`)."""
    now = current(target)
    removed = []
    for snap in snapshots(target)[:-keep]:
        if now is None or snap.name >= now.name:
            continue
        with unused(snap) as free:  # locked while it is deleted: a reader opening it now fails, and takes current
            if free:
                shutil.rmtree(snap)
                removed.append(snap.name)
    return removed
