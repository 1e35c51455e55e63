"""The names SQL finds entities by: the table entity_names (what `entity_key` reads), written from the same index
as the API's lookups (factstore.names), in the write that changes what it is made of."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from factstore import names, vocabulary
from factstore.resources import statements

if TYPE_CHECKING:
    from factstore.db import Db

SQL = statements("write.sql")
# the code and data the keys are made by: keys written by other ones are written again
MADE_BY = hashlib.sha256(b"".join(
    [Path(names.__file__).read_bytes(), *(f.read_bytes() for f in (names.ALIASES_FILE, names.COMMON_WORDS_FILE,
                                                                  vocabulary.METRICS_FILE))])).hexdigest()[:16]


def refresh(db: Db) -> bool:
    """Rewrite entity_names if the entities, the documents or the code that makes the keys changed since they were
    written (inside the caller's transaction); whether it did."""
    digest, same = db.one(SQL["roster_digest"], [MADE_BY])
    if same:
        return False
    rows = pd.DataFrame(names.Names(names.known_entities(db)).keys(), columns=["kind", "key", "entity_id", "label"])
    db.all("DELETE FROM entity_names")
    with db.frame(rows) as frame:
        db.all(f"INSERT INTO entity_names SELECT * FROM {frame}")
    db.all("DELETE FROM entity_names_digest")
    db.all("INSERT INTO entity_names_digest VALUES (?)", [digest])
    return True


def kept(db: Db) -> Db:
    """A store just opened, its entity_names rewritten if they are not this code's (opened for writing)."""
    if not db.read_only:
        with db.transaction():
            refresh(db)
    return db
