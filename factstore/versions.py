"""Every version of every quarter, computed at load: sql/versions.sql's blocks, run for the entities a load touched
inside its transaction, write their rows of quarter_versions anew."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from factstore import vocabulary
from factstore.resources import sql_text, statements

if TYPE_CHECKING:
    from factstore.db import Db

SQL = statements("versions.sql")
# the rules the versions are computed by: versions computed by other ones are computed again
MADE_BY = hashlib.sha256((sql_text("versions.sql") + sql_text("macros.sql")
                          + repr(vocabulary.metric_concepts())).encode()).hexdigest()[:16]
# entities computed at once
CHUNK = 500
_TEMP = ("_touched", "qv_merged", "qv_tags", "qv_keys", "qv_filings", "qv_facts", "qv_epochs", "qv_calendars",
         "qv_frames", "qv_parts", "qv_contested", "qv_winners", "qv_contested_parts", "qv_groups", "qv_derived")


def refresh(db: Db, entity_ids: Iterable[str] | None = None) -> None:
    """Compute anew the quarter_versions of these entities (None: every entity), inside the caller's transaction,
    CHUNK entities at a time (memory follows a chunk, not the store)."""
    ids = sorted(set(entity_ids) if entity_ids is not None else {e for (e,) in db.all(
        "SELECT entity_id FROM reports UNION SELECT entity_id FROM quarter_versions")})
    if not ids:
        return
    for lo in range(0, len(ids), CHUNK):
        db.all("CREATE OR REPLACE TEMP TABLE _touched AS SELECT unnest(?::VARCHAR[]) AS entity_id",
               [ids[lo:lo + CHUNK]])
        try:
            for statement in SQL.values():
                db.all(statement)
        finally:
            db.all("DROP VIEW IF EXISTS qv_source")
            for name in _TEMP:
                db.all(f"DROP TABLE IF EXISTS {name}")  # ours
    db.all("DELETE FROM quarter_versions_digest")
    db.all("INSERT INTO quarter_versions_digest VALUES (?)", [MADE_BY])


def kept(db: Db) -> Db:
    """A store just opened, its quarter_versions computed again if this code's rules did not compute them (opened
    for writing)."""
    if not db.read_only and db.one("SELECT digest FROM quarter_versions_digest") != (MADE_BY,) \
            and db.one("SELECT EXISTS (SELECT 1 FROM reports)")[0]:  # (a new store has none to compute)
        with db.transaction():
            refresh(db)
    return db
