"""A load killed inside a company's transaction (SIGKILL after its facts went into `reports`, before the
commit) leaves no trace of that company, and a rerun completes it: the store then equals an uninterrupted
load. The kill is deterministic: a hook in the loading process kills it at that exact step."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import factstore

ROOT = Path(__file__).resolve().parents[1]
VICTIM = "0000000002"
LOAD = """
import os, signal, sys
import factstore
from factstore import write

insert_reports = write._insert_reports

def insert_then_die(db, batch, *args, **kwargs):
    insert_reports(db, batch, *args, **kwargs)
    ids = batch.reports["entity_id"]  # pandas, or Arrow (SEC facts)
    if set(ids.to_pylist() if hasattr(ids, "to_pylist") else ids.astype(str)) == {os.environ.get("KILL_IN_ENTITY")}:
        os.kill(os.getpid(), signal.SIGKILL)

write._insert_reports = insert_then_die
with factstore.open(sys.argv[1]) as store:
    store.fetch_bulk(sys.argv[2], progress=False, say=lambda line: print(line, flush=True))
"""
TABLES = {  # everything a load writes, without load times
    "entities": "SELECT entity_id, cik, name FROM entities",
    "aliases": "SELECT * FROM entity_aliases",
    "filings": "SELECT * EXCLUDE (source) FROM filings",
    "reports": "SELECT * FROM reports",
    "periods": "SELECT * FROM entity_periods",
    "concepts": "SELECT * FROM concepts",
    "ingested": "SELECT item, digest, entity_id, reports_added FROM ingested",
    "loads": "SELECT kind, filings_added, reports_added FROM loads",
}


def company(cik: int, concepts: list[str]) -> dict:
    """A companyfacts payload: three 10-Qs and a 10-K reporting each concept."""
    facts = []
    for n, (start, end, form, filed) in enumerate([("2020-01-01", "2020-03-31", "10-Q", "2020-05-01"),
                                                   ("2020-04-01", "2020-06-30", "10-Q", "2020-08-03"),
                                                   ("2020-07-01", "2020-09-30", "10-Q", "2020-11-02"),
                                                   ("2020-01-01", "2020-12-31", "10-K", "2021-02-26")]):
        facts.append({"start": start, "end": end, "val": 1000 * (cik + n), "accn": f"{cik:010d}-2{n}-000001",
                      "form": form, "filed": filed})
    return {"cik": cik, "entityName": f"Company {cik}",
            "facts": {"us-gaap": {c: {"units": {"USD": facts}} for c in concepts}}}


def archive(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("CIK0000000001.json", json.dumps(company(1, ["Revenues", "NetIncomeLoss"])))
        z.writestr(f"CIK{VICTIM}.json", json.dumps(company(2, ["Revenues", "VictimOnlyExpense", "Assets2"])))
        z.writestr("CIK0000000003.json", json.dumps(company(3, ["Revenues"])))
    return path


def snapshot(path: Path) -> dict[str, list]:
    with factstore.open(path) as store:
        return {k: store.sql(q + " ORDER BY ALL").astype(str).values.tolist() for k, q in TABLES.items()}


def load(db: Path, zipped: Path, kill_in: str | None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "KILL_IN_ENTITY": kill_in or ""}
    return subprocess.run([sys.executable, "-c", LOAD, str(db), str(zipped)], capture_output=True, text=True, env=env,
                          timeout=120)


def test_a_kill_inside_a_companys_transaction_leaves_no_trace_and_a_rerun_completes_it(tmp_path):
    zipped = archive(tmp_path / "companyfacts.zip")
    killed = tmp_path / "killed.duckdb"
    run = load(killed, zipped, VICTIM)
    assert run.returncode == -signal.SIGKILL, run.stderr
    assert run.stdout.splitlines() == ["CIK0000000001.json: +8 facts, +4 filings"]  # then the kill

    # the first company is whole; the victim left nothing: no entity, alias, filing, fact, period, concept, mark
    whole = tmp_path / "first.duckdb"
    with factstore.open(whole) as store:
        store.fetch_bulk(archive_with_first_only(tmp_path), progress=False)
    assert snapshot(killed) == snapshot(whole)
    with factstore.open(killed) as store:
        assert store.sql("SELECT count(*) n FROM reports WHERE entity_id = ?", [VICTIM])["n"][0] == 0
        assert not store.sql("SELECT * FROM concepts WHERE concept = 'us-gaap:VictimOnlyExpense'").shape[0]

    rerun = load(killed, zipped, None)
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.splitlines() == ["CIK0000000001.json: unchanged since it was loaded",
                                         f"CIK{VICTIM}.json: +12 facts, +4 filings",
                                         "CIK0000000003.json: +4 facts, +4 filings"]
    uninterrupted = tmp_path / "uninterrupted.duckdb"
    with factstore.open(uninterrupted) as store:
        store.fetch_bulk(zipped, progress=False)
    assert snapshot(killed) == snapshot(uninterrupted)


def archive_with_first_only(tmp_path: Path) -> Path:
    with zipfile.ZipFile(zipped := tmp_path / "first.zip", "w") as z:
        z.writestr("CIK0000000001.json", json.dumps(company(1, ["Revenues", "NetIncomeLoss"])))
    return zipped
