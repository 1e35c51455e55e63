"""The SEC's company_tickers.json (`load_tickers`, `factstore load tickers`): a company the store holds without a
submissions file (Snowflake, LPA, Alphabet here) is found by its ticker afterwards, in the API and in questions;
served by the local recorded SEC server, never the network."""

from __future__ import annotations

import json

import pytest

import factstore
from factstore.cli import main
from factstore.errors import LoadError, NotFound
from factstore.sec.client import SecClient
from tests.helpers import base_tables
from tests.sec_server import SecServer, recorded_routes

UA = "factstore tests tests@example.com"
HELD = ("CIK0001640147.json", "CIK0001997711.json", "CIK0000320193.json")  # no submissions loaded for any


@pytest.fixture(scope="module")
def sec(real):
    with SecServer(recorded_routes(real)) as server:
        yield server


def _held(real) -> factstore.FactStore:
    s = factstore.open()
    for name in HELD:
        s.load_companyfacts(real / "companyfacts" / name, progress=False)
    return s


def _tables(store: factstore.FactStore) -> dict:
    return {t: store.sql(f"SELECT * FROM {t} ORDER BY ALL").astype(str).to_dict("list")  # t: ours
            for t in base_tables(store)}


def test_fetched_tickers_find_companies_without_submissions_and_a_reload_changes_nothing(sec, real, tmp_path):
    client = SecClient(UA, base_url=sec.url, cache_dir=tmp_path / "cache", backoff=0.01)
    with _held(real) as s:
        with pytest.raises(NotFound):
            s.resolve_entity("SNOW")
        assert s.ask("SNOW revenue FY2025").kind == "unanswerable"
        report = s.load_tickers(client=client, progress=False)
        served = json.loads(recorded_routes(real)["/files/company_tickers.json"])
        mine = [r for r in served.values() if r["cik_str"] in (1640147, 1997711, 320193)]
        assert report.note.startswith(f"{len(mine)} tickers of 3 companies held; {len(served) - len(mine)} of")
        assert s.resolve_entity("SNOW") == "0001640147" and s.resolve_entity("lpa") == "0001997711"
        assert s.fact("SNOW", "revenue", period="FY2025").value == s.fact(1640147, "revenue", period="FY2025").value
        assert s.ask("SNOW revenue FY2025").kind == "fact"
        before = _tables(s)
        s.load_tickers(client=client, progress=False)
        assert _tables(s) == before


def test_a_bad_entry_is_named_and_leaves_the_store_as_it_was(real, tmp_path):
    bad = tmp_path / "company_tickers.json"
    bad.write_text(json.dumps({"0": {"cik_str": 1640147, "ticker": "SNOW", "title": "Snowflake"},
                               "1": {"cik_str": 1997711, "ticker": "not a ticker!", "title": "LPA"}}))
    with _held(real) as s:
        before = _tables(s)
        with pytest.raises(LoadError, match=r"company_tickers.json, field 'ticker': entry '1'"):
            s.load_tickers(bad, progress=False)
        bad.write_text(json.dumps({"0": {"cik_str": -5, "ticker": "SNOW"}}))
        with pytest.raises(LoadError, match=r"entry '0', field 'cik'"):
            s.load_tickers(bad, progress=False)
        assert _tables(s) == before


def test_the_cli_loads_a_tickers_file(real, tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"0": {"cik_str": 1640147, "ticker": "SNOW", "title": "Snowflake"}}))
    db = tmp_path / "s.duckdb"
    with factstore.open(db) as s:
        s.load_companyfacts(real / "companyfacts" / "CIK0001640147.json", progress=False)
    assert main(["load", "tickers", str(path), "--db", str(db)]) == 0
    assert "1 tickers of 1 companies held; 0 of companies not held left out" in capsys.readouterr().out
    with factstore.open(db, read_only=True) as s:
        assert s.resolve_entity("SNOW") == "0001640147"
