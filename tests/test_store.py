"""The CLI mirrors the face: every public method of FactStore has a command, unless it is on the explicit list
of what only the library offers (Python objects, plumbing, streaming forms of another command)."""

from __future__ import annotations

import argparse
import inspect
import json
from datetime import datetime

import pandas as pd
import pytest

import factstore
from factstore.cli import build_parser, main
from factstore.store import FactStore

LIBRARY_ONLY = {
    "con", "relation", "frame", "reading", "schema_digest", "close",  # connections and transactions: Python's
    "apply", "apply_many",  # a loader's Batch object
    "names", "resolve_entities", "dimension_keys", "check_mode",  # objects and checks the engine's callers use
    "panel_arrow", "iter_panel",  # panel as Arrow and as an iterator: `factstore panel` writes the table
    "path", "read_only", "snapshot",  # what the open store is
}
COMMAND = {"load_companyfacts_many": "load companyfacts", "resolve_entity": "resolve", "resolve_concepts": "concepts",
           "load_xbrl_feed": "load xbrl-feed", "fetch_xbrl_feed": "fetch xbrl-feed"}


def commands(parser: argparse.ArgumentParser, prefix: str = "") -> set[str]:
    """Every command path of the parser ('fact', 'load course', ...)."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = f"{prefix}{name}"
                found |= {path} | commands(sub, path + " ")
    return found


def public_methods() -> set[str]:
    return {name for name, _ in inspect.getmembers(FactStore) if not name.startswith("_")}


def command_for(method: str) -> str:
    return COMMAND.get(method) or method.replace("_", " ")


def test_every_public_method_has_a_command_or_is_library_only():
    known = commands(build_parser())
    missing = sorted(m for m in public_methods() - LIBRARY_ONLY if command_for(m) not in known and m not in known)
    assert missing == []


def test_the_library_only_list_names_real_methods_without_commands():
    known = commands(build_parser())
    assert LIBRARY_ONLY - public_methods() == set()
    assert sorted(m for m in LIBRARY_ONLY if command_for(m) in known) == []


def test_every_command_has_help():
    parser = build_parser()
    stack = [parser]
    while stack:
        p = stack.pop()
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {a.dest: a.help for a in action._choices_actions}
                assert all(helps.get(name) for name in action.choices), sorted(action.choices)
                stack += list(action.choices.values())


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    """A store file of the demo data (3 companies), loaded through the CLI."""
    from factstore.demo import demo_files

    folder = tmp_path_factory.mktemp("demo")
    files = demo_files(3, cache=folder)
    path = folder / "store.duckdb"
    assert main(["load", "course", "--xbrl", str(files["xbrl"]), "--documents", str(files["documents"]),
                 "--db", str(path)]) == 0
    return path


def run(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_resolve_and_concepts_print_what_the_api_resolves(demo_db, capsys):
    with factstore.open(demo_db, read_only=True) as store:
        ticker = store.sql("SELECT tickers[1] AS t FROM entities ORDER BY entity_id LIMIT 1")["t"][0]
        name = store.sql("SELECT name FROM entities WHERE list_contains(tickers, ?)", [ticker])["name"][0]
        expected = store.resolve_entity(name)
        concepts = store.resolve_concepts(["Revenues", "NetIncomeLoss"])
    out = run(capsys, "resolve", ticker, name, "--db", str(demo_db))
    assert out.splitlines() == [f"{ticker}\t{expected}", f"{name}\t{expected}"]
    assert run(capsys, "concepts", "Revenues,NetIncomeLoss", "--db", str(demo_db)).split() == concepts


def test_panel_facts_dimensions_and_document_json_equal_the_api(demo_db, capsys, tmp_path):
    with factstore.open(demo_db, read_only=True) as store:
        tickers = store.sql("SELECT tickers[1] AS t FROM entities ORDER BY entity_id")["t"].tolist()[:2]
        panel = store.panel(tickers, ["NetIncomeLoss"], ["2020-06-30", "2021-06-30"], ttm=True)
        questions = pd.DataFrame({"entity": tickers, "concept": ["Assets", "Assets"],
                                  "period_end": ["2019-12-31", "2020-12-31"]})
        answers = store.facts(questions, as_of="2021-06-30")
        dims = store.dimensions(tickers[0])
        doc_id = store.sql("SELECT doc_id FROM documents ORDER BY doc_id LIMIT 1")["doc_id"][0]
        text = store.document(doc_id).text
    db = ["--db", str(demo_db)]
    printed = json.loads(run(capsys, "panel", *(f"--ticker={t}" for t in tickers), "--concept", "NetIncomeLoss",
                             "--date", "2020-06-30", "--date", "2021-06-30", "--ttm", "--json", *db))
    assert len(printed) == len(panel) > 0
    assert [r["value"] for r in printed] == panel["value"].tolist()
    assert [r["ticker"] for r in printed] == panel["ticker"].tolist()
    questions.to_csv(tmp_path / "q.csv", index=False)
    printed = json.loads(run(capsys, "facts", str(tmp_path / "q.csv"), "--as-of", "2021-06-30", "--json", *db))
    assert [r["value"] for r in printed] == answers["value"].tolist()
    assert [r["filing_id"] for r in printed] == answers["filing_id"].tolist()
    printed = json.loads(run(capsys, "dimensions", tickers[0], "--json", *db))
    assert printed == json.loads(dims.to_json(orient="records"))
    assert run(capsys, "document", doc_id, *db) == text + "\n"


def test_fundamentals_and_a_metric_panel_json_equal_the_api(demo_db, capsys):
    with factstore.open(demo_db, read_only=True) as store:
        tickers = store.sql("SELECT tickers[1] AS t FROM entities ORDER BY entity_id")["t"].tolist()[:2]
        rows = store.fundamentals(tickers, ["revenue", "net_income", "net_margin"], dimension="MRY",
                                  as_of="2022-06-30")
        panel = store.panel(tickers, ["revenue"], ["2021-06-30"], period="year", max_age=400)
    db = ["--db", str(demo_db)]
    printed = json.loads(run(capsys, "fundamentals", *tickers, "--metric", "revenue,net_income,net_margin",
                             "--dimension", "MRY", "--as-of", "2022-06-30", "--json", *db))
    assert len(printed) == len(rows) > 2
    assert [r["net_margin"] for r in printed] == pytest.approx(rows["net_margin"].tolist(), nan_ok=True)
    assert [datetime.fromisoformat(r["datekey"]) for r in printed] == [
        t.tz_localize("UTC").to_pydatetime() for t in rows["datekey"]]  # in UTC, with its zone
    printed = json.loads(run(capsys, "panel", *(f"--ticker={t}" for t in tickers), "--concept", "revenue",
                             "--date", "2021-06-30", "--period", "year", "--max-age", "400", "--json", *db))
    assert [r["value"] for r in printed] == panel["value"].tolist() and [r["tag"] for r in printed] == \
        panel["tag"].tolist()
