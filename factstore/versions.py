"""Every version of every quarter, computed at load: sql/versions.sql's blocks, run for the entities a load touched
inside its transaction, write their rows of quarter_versions and newest_quarters anew."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from factstore import vocabulary
from factstore.errors import FactstoreError
from factstore.resources import sql_text, statements

if TYPE_CHECKING:
    from factstore.db import Db

SQL = statements("versions.sql")
# the blocks computing the panel's cells (newest_quarters), run for a part of a chunk at a time
CELLS = ("lines", "alive", "states", "newest")
# the tables the versions fill (schema.sql's definitions), made anew with the versions when the rules change
TABLES = {name: re.search(rf"^CREATE TABLE IF NOT EXISTS {name} \(.*?^\);", sql_text("schema.sql"),
                          re.MULTILINE | re.DOTALL).group(0) for name in ("quarter_versions", "newest_quarters")}
# the rules the versions are computed by and the tables they fill: versions computed by other ones are computed again
MADE_BY = hashlib.sha256(("".join(TABLES.values()) + sql_text("versions.sql") + sql_text("macros.sql")
                          + repr(vocabulary.metric_concepts())).encode()).hexdigest()[:16]
# entities computed at once
CHUNK = 500
# entities of a chunk whose panel cells are computed at once (within DuckDB's 1 GiB of a bulk load: 500 at once
# spill, 27 s against 10 s uncapped; 100 take 3.8 s)
CELLS_PART = 100
# DuckDB's memory while every entity's versions are computed anew (its cache of pages otherwise grows to most of the
# machine's: 3,000 companies, 42M facts, peak 19.8 GB of the process)
RECOMPUTE_MEMORY = 2**30
_TEMP = ("_touched", "_within", "qv_merged", "qv_tags", "qv_keys", "qv_filings", "qv_facts", "qv_epochs",
         "qv_calendars", "qv_frames", "qv_parts", "qv_contested", "qv_winners", "qv_contested_parts", "qv_groups",
         "qv_derived", "qv_lines", "qv_alive", "qv_states")


def refresh(db: Db, entity_ids: Iterable[str]) -> None:
    """Compute anew the quarter_versions and newest_quarters of these entities, inside the caller's transaction,
    CHUNK entities at a time, their cells CELLS_PART at a time (memory follows a part, not the store)."""
    ids = sorted(set(entity_ids))
    for lo in range(0, len(ids), CHUNK):
        chunk = ids[lo:lo + CHUNK]
        db.all("CREATE OR REPLACE TEMP TABLE _touched AS SELECT unnest(?::VARCHAR[]) AS entity_id", [chunk])
        # (where a statement fails, the caller's transaction rolls back with it the temporary tables it made)
        for name, statement in SQL.items():
            if name not in CELLS:
                db.all(statement)
        for at in range(0, len(chunk), CELLS_PART):
            db.all("CREATE OR REPLACE TEMP TABLE _within AS SELECT unnest(?::VARCHAR[]) AS entity_id",
                   [chunk[at:at + CELLS_PART]])
            for name in CELLS:
                db.all(SQL[name])
        db.all("DROP VIEW IF EXISTS qv_source")
        for name in _TEMP:
            db.all(f"DROP TABLE IF EXISTS {name}")  # ours


def kept(db: Db) -> Db:
    """A store just opened, with quarter_versions these rules computed: opened for writing, made and computed anew
    where other rules computed them (an older store's table may have other columns); opened read only, refused."""
    if db.one("SELECT digest FROM quarter_versions_digest") == (MADE_BY,):
        return db
    ids = [e for (e,) in db.all("SELECT DISTINCT entity_id FROM reports ORDER BY 1")]
    if db.read_only:
        if ids:
            fix = ("publish it again from its store, opened once for writing by this version" if db.snapshot else
                   "open it once for writing to compute them anew (factstore.open(path), or "
                   "`factstore sql 'SELECT 1' --write --db PATH`)")
            raise FactstoreError(f"{db.snapshot or db.path}: its versions of the figures were computed by another "
                                 f"version of factstore's rules; {fix}")
        return db
    with db.memory_capped(RECOMPUTE_MEMORY):
        with db.transaction():
            for name, table in TABLES.items():
                db.all(f"DROP TABLE IF EXISTS {name}")  # ours
                db.all(table)
        # a transaction a chunk (one for all holds every chunk's rows in memory): nobody else reads the store while
        # it opens for writing, and until the last the digest says the versions are not these rules'
        for lo in range(0, len(ids), CHUNK):
            with db.transaction():
                refresh(db, ids[lo:lo + CHUNK])
        with db.transaction():
            db.all("DELETE FROM quarter_versions_digest")
            db.all("INSERT INTO quarter_versions_digest VALUES (?)", [MADE_BY])
    return db
