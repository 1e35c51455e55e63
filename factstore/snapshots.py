"""Reading published snapshots: which a target holds, which is current, and a read-only connection to one that
this process holds (and other processes see held) until it is released. Writing them is factstore.publishing."""

from __future__ import annotations

import fcntl
import os
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from factstore.errors import FactstoreError

CATALOG = "catalog.duckdb"
MANIFEST = "manifest.json"
OPEN_ATTEMPTS = 3  # a reader passes over a snapshot pruned while it opened it, for the current one, this often
SNAPSHOT_NAME = re.compile(r"\d{8}T\d{12}Z-[0-9a-f]{6}")  # what publish names a snapshot: its UTC time, then a tag


def current(target: str | Path) -> Path | None:
    """The snapshot folder TARGET/current points to, or None where nothing was published there."""
    link = Path(target) / "current"
    return link.resolve() if (link / CATALOG).is_file() else None


def snapshots(target: str | Path) -> list[Path]:
    """The published snapshots of a target, oldest first: folders of snapshots/ named as publish names them and
    holding a manifest (anything else there is not ours, and is never listed, read or pruned)."""
    folder = Path(target) / "snapshots"
    return sorted(p for p in folder.iterdir() if SNAPSHOT_NAME.fullmatch(p.name) and not p.is_symlink()
                  and (p / MANIFEST).is_file()) if folder.is_dir() else []


_OPEN_HERE: Counter[Path] = Counter()  # snapshots this process has open (its own locks are invisible to it)
_GUARD = threading.Lock()


@contextmanager
def unused(snapshot: Path) -> Iterator[bool]:
    """Whether no process has the snapshot's catalog open (DuckDB holds a lock on it while open); while True, the
    catalog stays locked here, so no reader can open it until the block ends (a prune deletes it meanwhile)."""
    with _GUARD:
        if _OPEN_HERE[snapshot]:
            yield False
            return
    try:
        f = (snapshot / CATALOG).open("rb+")
    except FileNotFoundError:
        yield True
        return
    with f:
        try:
            fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.lockf(f, fcntl.LOCK_UN)


def open_snapshot(target: str | Path) -> tuple[duckdb.DuckDBPyConnection, Path]:
    """A read-only connection to TARGET's current snapshot, which reaches no file outside it, and the snapshot. A
    snapshot pruned between finding it current and opening it is passed over for the new current one."""
    for attempt in range(OPEN_ATTEMPTS):
        snap = current(target)
        if snap is None:
            raise FactstoreError(f"{target}: nothing published there (publish a store into it first: "
                                 "`factstore publish TARGET --db STORE`)")
        try:
            con = duckdb.connect(str(snap / CATALOG), read_only=True)
        except duckdb.Error as exc:
            if attempt + 1 < OPEN_ATTEMPTS and current(target) != snap:  # a newer one is current: take it
                continue
            raise FactstoreError(f"{snap / CATALOG}: cannot open snapshot: {exc}") from exc
        break
    try:
        con.execute("SET allowed_directories = ?", [[str(snap) + os.sep]])
        con.execute("SET enable_external_access = false")
    except duckdb.InvalidInputException:  # open in this process already (DuckDB shares it), so set already
        if con.execute("SELECT current_setting('enable_external_access')").fetchall()[0][0]:
            con.close()
            raise
    with _GUARD:
        _OPEN_HERE[snap] += 1
    return con, snap


def release(snapshot: Path) -> None:
    """A snapshot opened by open_snapshot is closed again."""
    with _GUARD:
        _OPEN_HERE[snapshot] -= 1
