"""No destructive surprise: SQL reads by default, --db never touches what is not a store, as-of inputs are
read as documented, and a lock says what to do."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import factstore
from factstore.cli import main
from factstore.errors import FactstoreError
from tests.samples import course_docs, course_xbrl


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "store.duckdb"
    with factstore.open(path) as store:
        store.load_course(xbrl=course_xbrl(), documents=course_docs(), progress=False)
    return path


def _digest(path: Path) -> str:
    with factstore.open(path, read_only=True) as store:
        rows = store.sql("SELECT * FROM reports ORDER BY ALL").to_csv()
    return hashlib.sha256(rows.encode()).hexdigest()


@pytest.mark.parametrize("statement", [
    "DROP TABLE reports",
    "DELETE FROM reports",
    "UPDATE reports SET value = value * 2",
    "INSERT INTO loads VALUES (now()::TIMESTAMP, 'x', 'y', 0, 0)",
    "CREATE TABLE x AS SELECT 1",
    "SELECT 1; DELETE FROM reports",
    "COPY reports TO '{tmp}/out.csv'",
    "ATTACH '{tmp}/other.duckdb'",
])
def test_sql_refuses_writes_and_leaves_the_store_as_it_was(db, tmp_path, statement, capsys):
    before = _digest(db)
    with factstore.open(db) as store, pytest.raises(FactstoreError, match="refused"):
        store.sql(statement.format(tmp=tmp_path))
    assert main(["sql", statement.format(tmp=tmp_path), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refused" in err and "Traceback" not in err
    assert _digest(db) == before
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "other.duckdb").exists()


@pytest.mark.parametrize("query", ["SELECT * FROM read_csv('/etc/passwd')", "SELECT * FROM '/etc/hosts'",
                                   "SELECT * FROM read_text('/etc/hostname')"])
def test_sql_never_reads_other_files(db, query):
    with factstore.open(db, read_only=True) as store, pytest.raises(FactstoreError):
        store.sql(query)


def test_sql_write_is_explicit(db, capsys):
    assert main(["sql", "DELETE FROM sales_reference", "--write", "--db", str(db)]) == 0
    with factstore.open(db) as store:
        store.sql("CREATE TABLE mine AS SELECT 1 AS x", write=True)
        assert store.sql("SELECT x FROM mine")["x"].tolist() == [1]


def test_sql_error_is_one_line(db, capsys):
    assert main(["sql", "SELEC * FROM reports", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("factstore sql: ") and err.count("\n") == 1 and "syntax error" in err.lower()
    assert main(["sql", "SELECT nope FROM reports", "--db", str(db)]) == 1
    assert "nope" in capsys.readouterr().err


def test_readers_do_not_lock_each_other_out(db):
    """A notebook holds the store read-only; the CLI's reading commands still run beside it."""
    with factstore.open(db, read_only=True) as notebook:
        for args in (["sql", "SELECT count(*) AS n FROM reports"], ["fact", "RPS", "Revenues", "--period", "FY2019"]):
            done = subprocess.run([sys.executable, "-m", "factstore", *args, "--db", str(db)],
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
        assert notebook.fact("RPS", "Revenues", period="FY2019") is not None


def test_a_lock_error_says_who_holds_it_and_what_to_do(db):
    script = textwrap.dedent(f"""
        import sys, factstore
        s = factstore.open({str(db)!r})
        print("ready", flush=True)
        sys.stdin.read()
    """)
    writer = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "ready"
        with pytest.raises(FactstoreError) as err:
            factstore.open(db, read_only=True)
        message = str(err.value)
        assert f"process {writer.pid}" in message and "read_only=True" in message and "snapshot" in message
    finally:
        writer.communicate("", timeout=60)


@pytest.mark.parametrize("name,content", [("x.parquet", None), ("x.csv", b"a,b\n1,2\n"), ("x.json", b'{"a": 1}'),
                                          ("empty.duckdb", b"")])
def test_db_that_is_not_a_store_is_refused_and_untouched(tmp_path, name, content, capsys):
    path = tmp_path / name
    if content is None:
        course_xbrl().to_parquet(path)
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    course_xbrl().to_parquet(tmp_path / "in.parquet")
    assert main(["load", "course", "--xbrl", str(tmp_path / "in.parquet"), "--db", str(path)]) == 1
    assert "not a DuckDB store" in capsys.readouterr().err
    with pytest.raises(FactstoreError, match="not a DuckDB store"):
        factstore.open(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "in.parquet"])


def test_db_naming_a_fifo_is_refused_without_reading_it(tmp_path, capsys):
    """Reading a FIFO's header would wait for a writer forever: a child process, so that a hang fails the test."""
    fifo = tmp_path / "store.duckdb"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "factstore", "sql", "SELECT 1", "--db", str(fifo)],
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 1 and f"{fifo}: not a regular file, so not a store" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    with pytest.raises(FactstoreError, match="not a regular file"):
        factstore.open(fifo)


@pytest.mark.parametrize("command", [["fact", "RPS", "Revenues", "--period", "FY2019"], ["sql", "SELECT 1"],
                                     ["ask", "revenue of RPS in FY2019"], ["search", "risk"],
                                     ["history", "RPS", "Revenues"], ["quarters", "RPS", "Revenues"]])
def test_reading_commands_never_create_a_store(tmp_path, command, capsys):
    path = tmp_path / "typo.duckdb"
    assert main([*command, "--db", str(path)]) == 1
    assert "no store there" in capsys.readouterr().err
    assert not path.exists() and list(tmp_path.iterdir()) == []
    with pytest.raises(FactstoreError, match="no store there"):
        factstore.open(path, read_only=True)


def test_as_of_seconds_since_the_epoch(db):
    with factstore.open(db, read_only=True) as store:
        fact = store.fact("RPS", "Revenues", period="FY2019")
        moment = fact.accepted_at
        seconds = int(moment.timestamp())
        assert store.fact("RPS", "Revenues", period="FY2019", as_of=seconds) == fact
        assert store.fact("RPS", "Revenues", period="FY2019", as_of=float(seconds) - 0.5) != fact
        with pytest.raises(ValueError, match="as_of"):
            store.fact("RPS", "Revenues", period="FY2019", as_of=True)


def test_facts_reads_mixed_zone_notations_in_one_column(db):
    with factstore.open(db, read_only=True) as store:
        fact = store.fact("RPS", "Revenues", period="FY2019")
        at = fact.accepted_at.tz_convert("UTC")
        stamps = [at.strftime("%Y-%m-%d %H:%M:%S"),                                  # naive: UTC
                  (at - pd.Timedelta(seconds=1)).tz_convert("America/New_York").isoformat(),  # offset, before
                  at.isoformat(), int(at.timestamp()) - 1]
        questions = pd.DataFrame({"entity": "RPS", "concept": fact.concept, "period_start": fact.start,
                                  "period_end": fact.end, "as_of": stamps})
        got = store.facts(questions)
        assert got["filing_id"].tolist()[0] == fact.source and got["filing_id"].tolist()[2] == fact.source
        assert got["filing_id"].tolist()[1] != fact.source and got["filing_id"].tolist()[3] != fact.source
        bad = questions.assign(as_of=[*stamps[:3], "not a date"])
        with pytest.raises(ValueError, match="row 4"):
            store.facts(bad)


def test_a_store_of_another_version_is_refused_read_only_until_opened_for_writing(db):
    with factstore.open(db) as store:
        store.sql("UPDATE schema_version SET digest = 'older'", write=True)
    with pytest.raises(FactstoreError, match="another version of factstore"):
        factstore.open(db, read_only=True)
    with factstore.open(db) as store:  # the writer brings views and macros up to date
        pass
    with factstore.open(db, read_only=True) as store:
        assert store.fact("RPS", "Revenues", period="FY2019") is not None
