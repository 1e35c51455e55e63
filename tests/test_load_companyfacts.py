"""Loading SEC files as people do: submissions only with their own company's facts, one update rule shared
with fetch/update (a filing loaded before is never loaded again; in-place edits kept as revisions), and a
companyfacts file of any wrong shape refused whole, naming the JSON path, with the store left as it was."""

from __future__ import annotations

import json
import math
import re
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import factstore
from factstore import LoadError
from factstore.cli import main
from factstore.sec.client import SecClient
from tests.samples import companyfacts, listing, submissions
from tests.sec_server import SecServer, recorded_routes

AAPL, NVDA = "CIK0000320193.json", "CIK0001045810.json"
OLD_FACTS = "companyfacts/vintage/CIK0000320193_asof_2024-11-01.json"  # Apple's files as of November 2024
OLD_SUBS = "submissions/vintage/CIK0000320193_asof_2024-11.json"


# ----------------------------------------------------------------------------- oracles in plain Python
def state(store) -> tuple:
    """Row counts of every table and a content hash of reports, filings and entities (one query)."""
    tables = store.sql("SELECT table_name FROM duckdb_tables() WHERE NOT temporary ORDER BY 1")["table_name"]
    counts = [f"(SELECT count(*) FROM {t})" for t in tables]  # table names from the catalog
    hashes = [f"(SELECT coalesce(sum(hash(t)), 0)::VARCHAR FROM {t} t)" for t in ("reports", "filings", "entities")]
    return tuple(tables), tuple(store.sql(f"SELECT {', '.join(counts + hashes)}").iloc[0].tolist())


def facts_of(doc: dict) -> set[tuple]:
    """(accession, concept, unit, start, end, value) of every fact of a companyfacts document."""
    return {(f["accn"], f"{tax}:{name}", unit, f.get("start"), f["end"], float(f["val"]))
            for tax, concepts in doc["facts"].items() for name, body in concepts.items()
            for unit, values in body["units"].items() for f in values}


def stored_facts(store, entity_id: str, table: str = "reports") -> set[tuple]:
    rows = store.sql(f"SELECT filing_id, concept, unit, period_start, period_end, value FROM {table} "
                     "WHERE entity_id = ?", [entity_id]).astype(object)
    return {(a, c, u, None if pd.isna(s) else f"{s:%Y-%m-%d}", f"{e:%Y-%m-%d}", v)
            for a, c, u, s, e, v in rows.itertuples(index=False)}


def write(folder: Path, name: str, doc: dict) -> Path:
    path = folder / name
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture(scope="module")
def other():
    """A store holding another company, shared by tests that leave it as it was (or clean up after them)."""
    with factstore.open() as store:
        store.load_companyfacts(companyfacts(8, ["0000000008-20-000001"]))
        yield store


# ----------------------------------------------------------------------------- 1. whose submissions
def test_another_companys_submissions_are_refused_naming_both(real, store):
    store.load_companyfacts(companyfacts(9, ["0000000009-20-000001"]))
    before = state(store)
    facts, theirs = real / "companyfacts" / AAPL, real / "submissions" / NVDA
    with pytest.raises(LoadError) as err:
        store.load_companyfacts(facts, theirs)
    message = str(err.value)
    assert str(facts) in message and str(theirs) in message and "320193" in message and "1045810" in message
    # a paged file is known by its name: Imunon's page is not Apple's
    page = real / "submissions" / "CIK0000749647-submissions-001.json"
    with pytest.raises(LoadError, match="749647"):
        store.load_companyfacts(facts, [real / "submissions" / AAPL, page])
    assert state(store) == before
    assert list(store.sql("SELECT tickers FROM entities WHERE entity_id = '0000000009'")["tickers"][0]) == []


def test_cli_pairs_each_file_with_its_companys_submissions_by_cik(tmp_path, capsys):
    a_old, a_new, b = ["0000000011-20-000001"], ["0000000011-21-000001"], ["0000000022-20-000001"]
    files = [write(tmp_path, "CIK0000000011.json", companyfacts(11, a_old + a_new, "Aco")),
             write(tmp_path, "CIK0000000022.json", companyfacts(22, b, "Bco")),
             write(tmp_path, "CIK0000000044.json", companyfacts(44, ["0000000044-20-000001"], "Dco"))]
    a_main = write(tmp_path, "CIK0000000011.json.subs", submissions(11, a_new, "AAA", hour=18, first_year=2021))
    a_page = write(tmp_path, "CIK0000000011-submissions-001.json", listing(a_old, hour=19))
    b_main = write(tmp_path, "b-submissions.json", submissions(22, b, "BBB", hour=20))
    db = tmp_path / "store.duckdb"
    args = ["load", "companyfacts", *map(str, files)]
    assert main([*args, "--submissions", str(b_main), "--submissions", str(a_page), "--submissions", str(a_main),
                 "--db", str(db)]) == 0
    warned = capsys.readouterr().err
    assert f"{files[2]}: no submissions of its CIK given" in warned and str(files[0]) not in warned
    with factstore.open() as one_by_one:
        one_by_one.load_companyfacts(files[0], [a_main, a_page])
        one_by_one.load_companyfacts(files[1], b_main)
        one_by_one.load_companyfacts(files[2])
        with factstore.open(db, read_only=True) as loaded:
            assert state(loaded) == state(one_by_one)
            times = loaded.sql("SELECT filing_id, accepted_at FROM filings ORDER BY 1")
            tickers = loaded.sql("SELECT entity_id, tickers FROM entities ORDER BY 1")["tickers"]
    hours = dict(zip(times["filing_id"], times["accepted_at"].dt.hour, strict=True))
    # each from its own company's file, the page too; without one, the end of the filing date in New York
    assert hours == {a_old[0]: 19, a_new[0]: 18, b[0]: 20, "0000000044-20-000001": 4}
    assert [list(t) for t in tickers] == [["AAA"], ["BBB"], []]


def test_cli_refuses_a_submissions_file_of_no_company_given_before_loading_any(tmp_path, capsys):
    facts = write(tmp_path, "CIK0000000011.json", companyfacts(11, ["0000000011-20-000001"]))
    mine = write(tmp_path, "a.json", submissions(11, ["0000000011-20-000001"], "AAA", hour=18))
    stray = write(tmp_path, "CIK0000000033-submissions-001.json", listing(["0000000033-20-000001"], hour=18))
    db = tmp_path / "store.duckdb"
    assert main(["load", "companyfacts", str(facts), "--db", str(db)]) == 0
    with factstore.open(db, read_only=True) as s:
        before = state(s)
    capsys.readouterr()
    assert main(["load", "companyfacts", str(facts), "--submissions", str(mine), "--submissions", str(stray),
                 "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert str(stray) in err and "CIK 33" in err and "11" in err
    with factstore.open(db, read_only=True) as s:
        assert state(s) == before


def test_submissions_whose_company_cannot_be_told_or_that_mix_companies_are_refused(store):
    facts = companyfacts(11, ["0000000011-20-000001"])
    before = state(store)
    with pytest.raises(LoadError, match="no known company"):  # a paged file given as a dict has no name
        store.load_companyfacts(facts, listing(["0000000011-20-000001"], hour=18))
    with pytest.raises(LoadError, match="one company's files only") as err:
        store.load_companyfacts(facts, [submissions(11, [], "AAA", 18), submissions(12, [], "BBB", 18)])
    assert err.value.field == "cik"
    with pytest.raises(LoadError, match="a second main submissions file"):
        store.load_companyfacts(facts, [submissions(11, [], "AAA", 18), submissions(11, [], "AAA", 19)])
    assert state(store) == before


# ----------------------------------------------------------------------------- 2. one update path
@pytest.fixture(scope="module")
def apple(real):
    """The 2024 vintage of Apple's files, then the 2026 ones, through load_companyfacts; with snapshots."""
    store = factstore.open()
    first = store.load_companyfacts(real / OLD_FACTS, real / OLD_SUBS, progress=False)
    after_first = {t: store.sql(f"SELECT * FROM {t} ORDER BY ALL") for t in ("filings", "reports")}
    asof = store.sql("SELECT * FROM facts_asof('2024-11-02'::TIMESTAMP) ORDER BY ALL")
    second = store.load_companyfacts(real / "companyfacts" / AAPL, real / "submissions" / AAPL, progress=False)
    yield store, first, second, after_first, asof
    store.close()


def test_a_newer_file_adds_exactly_the_accessions_not_seen_and_keeps_stored_ones(real, apple):
    store, first, second, after_first, _ = apple
    old = facts_of(json.loads((real / OLD_FACTS).read_bytes()))
    new = facts_of(json.loads((real / "companyfacts" / AAPL).read_bytes()))
    seen = {f[0] for f in old}
    added = {f for f in new if f[0] not in seen}
    assert (second.filings, second.reports) == (len({f[0] for f in added}), len(added)) and added
    assert stored_facts(store, "0000320193") == old | added
    ids = sorted(seen)
    for table, before in after_first.items():  # rows of filings loaded before: not a byte changed
        now = store.sql(f"SELECT * FROM {table} WHERE filing_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY ALL",
                        [ids])
        pd.testing.assert_frame_equal(now, before, obj=table)
    # the 2014 10-Q left the newer submissions' recent list; its time stays the one read from the older list
    row = store.sql("SELECT accepted_precision FROM filings WHERE filing_id = '0001193125-14-157311'")
    assert row["accepted_precision"].tolist() == ["second"]


def test_in_place_edits_are_kept_as_revisions_and_change_no_as_of_answer(real, apple):
    store, first, second, _, asof_before = apple
    old = facts_of(json.loads((real / OLD_FACTS).read_bytes()))
    new = facts_of(json.loads((real / "companyfacts" / AAPL).read_bytes()))
    seen = {f[0] for f in old}
    edits = {f for f in new if f[0] in seen and f not in old}
    assert first.revisions == 0 and second.revisions == len(edits) > 0
    assert stored_facts(store, "0000320193", "revisions") == edits
    history = store.history("AAPL", "CommonStockParOrStatedValuePerShare")
    revised = history[history["revised_at"].notna()]
    par = {f for f in edits if f[1] == "us-gaap:CommonStockParOrStatedValuePerShare"}
    assert len(revised) == len(par) > 0 and set(revised["value"]) == {f[5] for f in par}
    originals = history[history["revised_at"].isna()]
    assert {(a, v) for a, v in zip(originals["filing_id"], originals["value"], strict=True)} >= {
        (f[0], f[5]) for f in old if f[1] == "us-gaap:CommonStockParOrStatedValuePerShare"}
    loaded_at = store.sql("SELECT max(learned_at) AS t FROM revisions")["t"][0]
    assert pd.Timestamp.now(tz="UTC").tz_localize(None) - loaded_at < pd.Timedelta(hours=1)  # learned at load: UTC
    new_times = store.sql("SELECT min(accepted_at) AS t FROM filings WHERE filing_id NOT IN "
                          "(SELECT unnest(?::VARCHAR[]))", [sorted(seen)])["t"][0]
    assert new_times > pd.Timestamp("2024-11-02")  # so nothing new was known then, and the answers are the same
    pd.testing.assert_frame_equal(store.sql("SELECT * FROM facts_asof('2024-11-02'::TIMESTAMP) ORDER BY ALL"),
                                  asof_before)


def test_load_companyfacts_builds_the_same_store_as_fetch_then_update(real, apple, tmp_path):
    store = apple[0]
    with SecServer(recorded_routes(real)) as sec, factstore.open() as fetched:
        sec.add(f"/api/xbrl/companyfacts/{AAPL}", real / OLD_FACTS)
        sec.add(f"/submissions/{AAPL}", real / OLD_SUBS)
        client = SecClient("factstore tests tests@example.com", base_url=sec.url, cache_dir=tmp_path, backoff=0.01)
        fetched.fetch_companyfacts("AAPL", client)
        sec.add(f"/api/xbrl/companyfacts/{AAPL}", real / "companyfacts" / AAPL)
        sec.add(f"/submissions/{AAPL}", real / "submissions" / AAPL)
        [report] = fetched.update(client=client)
        assert report.error is None and report.revisions == apple[2].revisions
        for query in ("SELECT * EXCLUDE (source) FROM filings", "SELECT * FROM reports",
                      "SELECT * EXCLUDE (learned_at, source) FROM revisions",
                      "SELECT entity_id, cik, name, list_sort(tickers) FROM entities"):
            pd.testing.assert_frame_equal(fetched.sql(query + " ORDER BY ALL"), store.sql(query + " ORDER BY ALL"),
                                          obj=query)


def test_reloading_with_or_without_submissions_adds_nothing(real, apple):
    store = apple[0]
    before = state(store)
    for facts, subs in ((real / "companyfacts" / AAPL, None), (real / OLD_FACTS, real / OLD_SUBS)):
        report = store.load_companyfacts(facts, subs, progress=False)
        assert (report.entities, report.filings, report.reports, report.revisions) == (0, 0, 0, 0)
    assert state(store) == before


def test_a_newer_file_without_submissions_adds_the_new_accessions_by_filing_date(real):
    with factstore.open() as store:
        store.load_companyfacts(real / OLD_FACTS, real / OLD_SUBS, progress=False)
        before = store.sql("SELECT * FROM filings ORDER BY ALL")
        report = store.load_companyfacts(real / "companyfacts" / AAPL, progress=False)
        old = facts_of(json.loads((real / OLD_FACTS).read_bytes()))
        new = facts_of(json.loads((real / "companyfacts" / AAPL).read_bytes()))
        added = {f[0] for f in new} - {f[0] for f in old}
        assert report.filings == len(added) > 0
        stored = store.sql("SELECT * FROM filings WHERE filing_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY ALL",
                           [sorted(before["filing_id"])])
        pd.testing.assert_frame_equal(stored, before)
        precision = store.sql("SELECT DISTINCT accepted_precision FROM filings WHERE filing_id IN "
                              "(SELECT unnest(?::VARCHAR[]))", [sorted(added)])["accepted_precision"]
        assert precision.tolist() == ["date"]


# ----------------------------------------------------------------------------- 3. companyfacts of a wrong shape
GOOD = companyfacts(3, ["0000000003-20-000001", "0000000003-21-000001"])
USD = "facts.us-gaap.Revenues.units.USD"


def _set(path: list, value: Any) -> dict:
    doc = json.loads(json.dumps(GOOD))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _renamed_unit() -> dict:
    doc = json.loads(json.dumps(GOOD))
    doc["facts"]["us-gaap"]["Revenues"]["units"] = {"": doc["facts"]["us-gaap"]["Revenues"]["units"]["USD"]}
    return doc


@pytest.mark.parametrize(("doc", "field", "message"), [
    (_set(["facts", "us-gaap", "Revenues", "units", "USD", 1, "start"], "2022-01-01"), f"{USD}[1].start",
     "start 2022-01-01 is after end 2020-12-31"),
    (_set(["cik"], -3), "cik", "not a CIK"),
    (_set(["cik"], 12345678901), "cik", "not a CIK"),
    (_set(["cik"], "00000000003"), "cik", "not a CIK"),
    (_set(["cik"], 0), "cik", "not a CIK"),
    (_set(["cik"], True), "cik", "not a CIK"),
    (_set(["cik"], 3.0), "cik", "not a CIK"),
    (_renamed_unit(), "facts.us-gaap.Revenues.units", "empty unit name"),
    (_set(["facts", "us-gaap", "Revenues", "units"], []), "facts.us-gaap.Revenues.units", "not an object"),
    (_set(["facts", "us-gaap", "Revenues", "units"], None), "facts.us-gaap.Revenues.units", "missing"),
    (_set(["facts", "dei"], []), "facts.dei", "not an object"),
    (_set(["facts", "us-gaap", "Revenues"], "Revenues"), "facts.us-gaap.Revenues", "not an object"),
    (_set(["facts", "us-gaap", "Revenues", "units", "USD"], {"a": 1}), USD, "not a list of facts"),
    (_set(["facts", "us-gaap", "Revenues", "units", "USD", 0], "fact"), f"{USD}[0]", "not an object"),
    (_set(["facts", "us-gaap", "Revenues", "units", "USD", 0, "val"], math.nan), f"{USD}[0].val", "not a number"),
    (_set(["facts", "us-gaap", "Revenues", "units", "USD", 0, "val"], 10**400), f"{USD}[0].val", "not a number"),
    (_set(["facts", "us-gaap", "Revenues", "units", "USD", 0, "form"], 10), f"{USD}[0].form", "not text"),
    (_set(["entityName"], ["Co"]), "entityName", "not text"),
])
def test_wrong_shapes_are_refused_naming_the_json_path(other, doc, field, message):
    before = state(other)
    with pytest.raises(LoadError, match=message) as err:
        other.load_companyfacts(doc)
    assert err.value.field == field and err.value.source == "<companyfacts dict>"
    assert state(other) == before


def test_an_empty_units_object_is_a_concept_without_facts(store):
    doc = _set(["facts", "us-gaap", "Revenues", "units"], {})
    store.load_companyfacts(doc)
    assert stored_facts(store, "0000000003") == facts_of(doc) and facts_of(doc)


def test_a_company_without_facts_is_registered_alone_and_beside_others(store):
    """A companyfacts file whose facts object is empty (no text at all under the facts) loads its company."""
    empty = {"cik": 4, "entityName": "Empty Co", "facts": {}}
    store.load_companyfacts(empty)
    assert store.sql("SELECT name FROM entities WHERE entity_id = '0000000004'")["name"].tolist() == ["Empty Co"]
    other = companyfacts(6, ["0000000006-20-000001"])
    reports = store.load_companyfacts_many([{**empty, "cik": 5}, other])
    assert [r.reports for r in reports] == [0, len(facts_of(other))]
    assert stored_facts(store, "0000000005") == set() and stored_facts(store, "0000000006") == facts_of(other)


SUBS = submissions(3, ["0000000003-20-000001"], "CCC", hour=18)


@pytest.mark.parametrize(("path", "value", "field"), [
    (["filings"], [], "filings.recent"),
    (["tickers"], "CCC", "tickers"),
    (["name"], 5, "name"),
    (["cik"], "-3", "cik"),
    (["filings", "recent", "form"], ["10-K", "10-K"], "filings.recent.form"),
    (["filings", "recent", "acceptanceDateTime"], ["not a time"], "filings.recent.acceptanceDateTime[0]"),
    (["filings", "recent", "reportDate"], ["2020-02-30"], "filings.recent.reportDate[0]"),
    (["filings", "recent", "accessionNumber"], [7], "filings.recent.accessionNumber[0]"),
    (["filings", "recent", "filingDate"], [None], "filings.recent.filingDate[0]"),
])
def test_wrong_shapes_of_submissions_are_refused_naming_the_json_path(other, path, value, field):
    doc = json.loads(json.dumps(SUBS))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    before = state(other)
    with pytest.raises(LoadError) as err:
        other.load_companyfacts(GOOD, doc)
    assert err.value.field == field
    assert state(other) == before


# ----------------------------------------------------------------------------- hypothesis: any damage
POOL = [None, True, 0, -1, 1.5, "", "x", "2019-13-01", "2018-06-30", "2022-06-30", [], {}, [1], {"a": 1}]
OPS = ["delete", "replace", "invert dates", "empty units", "empty key"]


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        out += _paths(child, (*path, key))
    return out


def _damage(doc: dict, steps: list[tuple[int, str, int]]) -> dict:
    doc = json.loads(json.dumps(doc))
    for where, op, pick in steps:
        paths = _paths(doc)
        if not paths:
            break
        *parents, key = paths[where % len(paths)]
        parent = doc
        for k in parents:
            parent = parent[k]
        node = parent[key]
        if op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = json.loads(json.dumps(POOL[pick % len(POOL)]))
        elif op == "invert dates" and isinstance(node, dict) and "start" in node and "end" in node:
            node["start"], node["end"] = node["end"], node["start"]
        elif op == "empty units" and isinstance(node, dict) and "units" in node:
            node["units"] = [{}, []][pick % 2]
        elif op == "empty key" and isinstance(parent, dict):
            parent[""] = parent.pop(key)
    return doc


def _iso(value: Any) -> bool:
    try:
        return isinstance(value, str) and bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)) and bool(
            date.fromisoformat(value))
    except ValueError:
        return False


def acceptable(doc: dict) -> bool:
    """Whether a companyfacts document is whole, by the SEC's format, checked here by brute force."""
    cik = doc.get("cik")
    if isinstance(cik, str) and cik.isdigit() and len(cik) <= 10:
        cik = int(cik)
    if type(cik) is not int or not 0 < cik < 10**10:
        return False
    if not (doc.get("entityName") is None or isinstance(doc["entityName"], str)):
        return False
    if not isinstance(doc.get("facts"), dict):
        return False
    values: dict[tuple, set] = {}
    for tax, concepts in doc["facts"].items():
        if not tax or not isinstance(concepts, dict):
            return False
        for name, body in concepts.items():
            if not name or not isinstance(body, dict) or not isinstance(body.get("units"), dict):
                return False
            for unit, facts in body["units"].items():
                if not unit or not isinstance(facts, list):
                    return False
                for f in facts:
                    if not isinstance(f, dict) or not all(k in f for k in ("accn", "end", "val", "form", "filed")):
                        return False
                    start = f.get("start")
                    if not (isinstance(f["accn"], str) and f["accn"] and isinstance(f["form"], str) and f["form"]
                            and type(f["val"]) in (int, float) and math.isfinite(f["val"])
                            and _iso(f["end"]) and _iso(f["filed"]) and (start is None or _iso(start))
                            and (start is None or start <= f["end"])):
                        return False
                    values.setdefault((f["accn"], tax, name, unit, start, f["end"]), set()).add(f["val"])
    return all(len(v) == 1 for v in values.values())


@given(steps=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(OPS), st.integers(0, 100)),
                      min_size=1, max_size=3))
@settings(max_examples=40, deadline=None)
def test_damaged_companyfacts_load_correctly_or_are_refused_leaving_the_store_as_it_was(other, steps):
    doc = _damage(GOOD, steps)
    before = state(other)
    kept = stored_facts(other, "0000000008")
    try:
        other.load_companyfacts(doc)
    except LoadError:
        assert not acceptable(doc), doc
        assert state(other) == before
        return
    try:
        assert acceptable(doc), doc
        assert stored_facts(other, "0000000003") == facts_of(doc)  # every cik in POOL is refused: still company 3
        assert stored_facts(other, "0000000008") == kept
    finally:  # the next example starts from the shared store as it was
        for table in ("reports", "revisions", "filings", "entities", "entity_aliases", "entity_periods"):
            other.con.execute(f"DELETE FROM {table} WHERE entity_id = '0000000003'")  # our table names
