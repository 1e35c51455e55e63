"""A new store is a copy of this version's empty store, made once in the cache folder: the same catalog as one made
in place, never copied over a file that appeared meanwhile, and made in place where the cache cannot be written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb

import factstore
from factstore import db as engine

CATALOG = """
    SELECT 'function', function_name, macro_definition, comment FROM duckdb_functions() WHERE NOT internal
    UNION ALL SELECT 'view', view_name, sql, comment FROM duckdb_views() WHERE NOT internal
    UNION ALL SELECT 'table', table_name, sql, comment FROM duckdb_tables()
    UNION ALL SELECT 'metric', name || metric, rank::VARCHAR, concept FROM metric_concepts
    UNION ALL SELECT 'digest', digest, NULL, NULL FROM schema_version
    ORDER BY ALL"""


def catalog(path: Path) -> list[tuple]:
    """The store's catalog, each EXCLUDE list sorted (DuckDB prints its set in no fixed order)."""
    with factstore.open(path, read_only=True) as store:
        rows = store.db.all(CATALOG)
    return [tuple(re.sub(r"EXCLUDE \(([^)]*)\)", lambda m: "EXCLUDE " + ",".join(sorted(m.group(1).split(", "))),
                         v) if isinstance(v, str) else v for v in row) for row in rows]


def test_a_new_store_is_the_empty_store_copied_made_once(tmp_path, monkeypatch):
    monkeypatch.setenv("FACTSTORE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "empty-0123456789abcdef-duckdb-0.0.duckdb").write_bytes(b"another version's")
    factstore.open(tmp_path / "a.duckdb").close()
    (template,) = (tmp_path / "cache").glob("empty-*.duckdb")  # another version's is gone
    made = template.stat().st_mtime_ns
    factstore.open(tmp_path / "b.duckdb").close()
    assert template.stat().st_mtime_ns == made
    # a cache that is a file cannot hold it: the store is made in place, with the same catalog
    monkeypatch.setenv("FACTSTORE_CACHE", str(template))
    with factstore.open(tmp_path / "c.duckdb") as store:
        assert store.db.one("SELECT count(*) FROM reports")[0] == 0
    assert catalog(tmp_path / "a.duckdb") == catalog(tmp_path / "c.duckdb")
    assert len(catalog(tmp_path / "a.duckdb")) > 100
    assert not list(tmp_path.glob(".*.part")) and not list((tmp_path / "cache").glob(".*.part"))


def test_a_store_another_process_made_meanwhile_is_opened_not_overwritten(tmp_path, monkeypatch):
    monkeypatch.setenv("FACTSTORE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "store.duckdb"
    copy = shutil.copyfile

    def racing(source, target):
        copy(source, target)
        if not path.exists():  # the other process makes its store between our look and our link
            copy(source, path)
            con = duckdb.connect(str(path))
            con.execute("CREATE TABLE theirs AS SELECT 42 AS answer")
            con.close()
        return target

    monkeypatch.setattr(engine.shutil, "copyfile", racing)
    with factstore.open(path) as store:
        assert store.db.one("SELECT answer FROM theirs")[0] == 42
    assert not list(tmp_path.glob(".*.part"))
