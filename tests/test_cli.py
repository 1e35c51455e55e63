"""The command line mirrors the API: every command documented, answers identical to the library's."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from datetime import datetime, timedelta

import pytest

import factstore
from factstore.cli import build_parser, main
from tests.samples import course_store_file, course_xbrl


def _commands(parser: argparse.ArgumentParser, prefix=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*prefix, name), sub
                yield from _commands(sub, (*prefix, name))


def test_every_command_and_option_has_help():
    commands = list(_commands(build_parser()))
    assert {c[0] for c, _ in commands} >= {"load", "fact", "history", "quarters", "sql", "demo"}
    for name, parser in commands:
        assert parser.description, f"{' '.join(name)} has no description"
        for action in parser._actions:
            if action.option_strings and action.dest != "help":
                assert action.help, f"{' '.join(name)} {action.option_strings} has no help"
        leaf = not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)
        if leaf:
            assert any(a.dest == "db" for a in parser._actions), f"{' '.join(name)} lacks --db"


@pytest.fixture
def db(tmp_path):
    return course_store_file(tmp_path)


def test_fact_json_equals_the_api(db, capsys):
    capsys.readouterr()
    assert main(["fact", "RPS", "Revenues", "--period", "FY2019", "--as-of", "2020-03-01", "--json",
                 "--db", str(db)]) == 0
    printed = json.loads(capsys.readouterr().out)
    with factstore.open(db, read_only=True) as store:
        expected = store.fact("RPS", "Revenues", period="FY2019", as_of="2020-03-01").to_dict()
    assert printed == expected and printed["value"] == 420.0 and printed["source"] == "D000002"
    # every time, the parts' too, is UTC with its zone: read back, it is the API's moment
    times = [printed["accepted_at"], printed["known_since"]] + [
        p[k] for p in printed["parts"] for k in ("accepted_at", "first_accepted_at")]
    assert times and all(datetime.fromisoformat(t).utcoffset() == timedelta(0) for t in times)
    assert datetime.fromisoformat(printed["parts"][0]["accepted_at"]) == datetime.fromisoformat(printed["accepted_at"])


def test_fact_not_known_exits_1_with_reason(db, capsys):
    assert main(["fact", "RPS", "Revenues", "--period", "FY2019", "--as-of", "2020-01-01",
                 "--db", str(db)]) == 1
    assert "nothing reported as of 2020-01-01" in capsys.readouterr().err
    assert main(["fact", "NOPE", "Revenues", "--period", "FY2019", "--db", str(db)]) == 1
    assert "unknown entity 'NOPE'" in capsys.readouterr().err


def test_history_quarters_and_sql(db, capsys):
    capsys.readouterr()
    assert main(["history", "RPS", "Revenues", "--json", "--db", str(db)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["filing_id"] for r in rows] == ["D000001", "D000002", "D000002"]
    # a time is UTC with its zone (read back, the API's moment), a day an ISO date
    with factstore.open(db, read_only=True) as store:
        api = store.history("RPS", "Revenues")
    assert [datetime.fromisoformat(r["accepted_at"]) for r in rows] == [
        t.tz_localize("UTC").to_pydatetime() for t in api["accepted_at"]]
    assert [r["period_end"] for r in rows] == [d.date().isoformat() for d in api["period_end"]]
    assert main(["quarters", "RPS", "Revenues", "--json", "--db", str(db)]) == 0
    assert [r["fiscal_period"] for r in json.loads(capsys.readouterr().out)] == ["2019Q1"]
    assert main(["sql", "SELECT count(*) AS n FROM reports WHERE form = ?", "--param", "10-K", "--json",
                 "--db", str(db)]) == 0
    assert json.loads(capsys.readouterr().out) == [{"n": 2}]


def test_module_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "factstore", "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert "fact" in out and "load" in out


def test_bad_file_via_cli_names_it(tmp_path, capsys):
    frame = course_xbrl().drop(columns="forma")
    frame.to_parquet(tmp_path / "x.parquet")
    code = main(["load", "course", "--xbrl", str(tmp_path / "x.parquet"), "--db", str(tmp_path / "s.duckdb")])
    assert code == 1
    assert f"{tmp_path / 'x.parquet'}, field 'forma': missing column" in capsys.readouterr().err


def test_demo_generates_into_its_cache_and_reuses_it(tmp_path, capsys, monkeypatch):
    """The demo's files go to --cache (else $FACTSTORE_CACHE, else the user's cache folder), never beside the
    package; a second run reads them back rather than generating them again."""
    from factstore.demo import cache_dir, demo_files, report_files

    cache = tmp_path / "cache"
    assert main(["demo", "--companies", "3", "--cache", str(cache), "--db", str(tmp_path / "demo.duckdb")]) == 0
    out = capsys.readouterr().out
    assert f"demo data: {cache / 'demo-3'}" in out and "derived: FY - 9M" in out and "[fact]" in out
    made = {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}
    assert {p.parent.name for p in made} == {"demo-3", "reports"} and len(made) == 6
    assert set(demo_files(3, cache).values()) | set(report_files(cache).values()) == set(made)
    assert {p: p.stat().st_mtime_ns for p in made} == made
    monkeypatch.setenv("FACTSTORE_CACHE", str(tmp_path / "elsewhere"))
    assert cache_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv("FACTSTORE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "factstore"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "factstore"
