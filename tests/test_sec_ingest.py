"""Live ingestion against a local stand-in for the SEC serving recorded real files, with faults injected:
the store must hold exactly the facts of the files that arrived whole, each company in one transaction."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import factstore
from factstore.cli import main
from factstore.sec.client import SecClient
from tests.helpers import budget, submissions_for
from tests.helpers import examples as hypothesis_budget
from tests.sec_server import SecServer, most_in_window, record_sends, recorded_routes

UA = "factstore tests tests@example.com"
ROOT = Path(__file__).resolve().parents[1]
AAPL, NVDA, TSLA = "CIK0000320193.json", "CIK0001045810.json", "CIK0001318605.json"


def snapshot(store) -> dict[str, list]:
    """Everything a question can read, without load bookkeeping (cache paths, load times)."""
    queries = {
        "reports": "SELECT * FROM reports",
        "filings": "SELECT * EXCLUDE (source) FROM filings",
        "entities": "SELECT entity_id, cik, name, list_sort(tickers) FROM entities",
        "aliases": "SELECT * FROM entity_aliases",
        "periods": "SELECT * FROM entity_periods",
        "documents": "SELECT doc_id, entity_id, form, period_end, accepted_at, md5(text) FROM documents",
    }
    return {k: store.sql(q + " ORDER BY ALL").astype(str).values.tolist() for k, q in queries.items()}


def oracle(real: Path, names: list[str]):
    """A store loaded straight from the recorded files."""
    store = factstore.open()
    for name in names:
        store.load_companyfacts(real / "companyfacts" / name, submissions_for(real, name), progress=False)
    return store


@pytest.fixture
def sec(real):
    with SecServer(recorded_routes(real)) as server:
        yield server


def sec_client(sec: SecServer, tmp_path: Path, **kw) -> SecClient:
    return SecClient(UA, base_url=sec.url, cache_dir=tmp_path / "cache", backoff=0.01, **kw)


def cli(sec: SecServer, tmp_path: Path, *args: str) -> int:
    return main([*args, "--user-agent", UA, "--base-url", sec.url, "--cache", str(tmp_path / "cache"),
                 "--db", str(tmp_path / "store.duckdb")])


@pytest.mark.slow
def test_faults_on_the_way_leave_exactly_the_files_as_recorded(sec, real, tmp_path):
    sec.fail(f"/api/xbrl/companyfacts/{AAPL}", "429", "truncate", "500")
    sec.fail(f"/submissions/{TSLA}", "drop", "malformed")
    sec.fail("/submissions/CIK0001318605-submissions-001.json", "slow:1.2", "503")
    with factstore.open() as store:
        client = sec_client(sec, tmp_path, timeout=(2, 1))
        sent = record_sends(client)
        reports = store.fetch_companyfacts(["AAPL", 1318605], client)
        assert [r.error for r in reports] == [None, None]
        assert snapshot(store) == snapshot(oracle(real, [AAPL, TSLA]))
    assert len(sent) == len(sec.log) and most_in_window(sent, 1.0) <= 10
    assert {e.user_agent for e in sec.log} == {UA}


@pytest.mark.slow
def test_a_company_whose_file_never_arrives_whole_loads_nothing_and_a_rerun_finishes(sec, real, tmp_path, capsys):
    sec.fail(f"/api/xbrl/companyfacts/{NVDA}", "malformed", "malformed", "malformed")
    assert cli(sec, tmp_path, "fetch", "companyfacts", "--ticker", "AAPL", "--ticker", "NVDA") == 1
    out, err = capsys.readouterr()
    assert "CIK 1045810" not in out and "NVDA: FAILED" in out and "malformed JSON" in out
    assert "1 of 2 failed" in err
    kept = list((tmp_path / "cache/api/xbrl/companyfacts").glob(f"{NVDA}.bad-*"))
    assert len(kept) == 3  # every broken payload is kept
    with factstore.open(tmp_path / "store.duckdb") as store:
        assert snapshot(store) == snapshot(oracle(real, [AAPL]))

    assert cli(sec, tmp_path, "fetch", "companyfacts", "--ticker", "AAPL", "--ticker", "NVDA") == 0
    out, _ = capsys.readouterr()
    assert "CIK 320193: unchanged since it was loaded" in out
    with factstore.open(tmp_path / "store.duckdb") as store:
        assert snapshot(store) == snapshot(oracle(real, [AAPL, NVDA]))


def test_offline_replay_from_the_cache_builds_the_same_store(sec, real, tmp_path):
    with factstore.open() as online:
        online.fetch_companyfacts("NVDA", sec_client(sec, tmp_path))
        sent = len(sec.log)
        with factstore.open() as replay:
            replay.fetch_companyfacts("NVDA", SecClient(cache_dir=tmp_path / "cache", offline=True))
            assert snapshot(replay) == snapshot(online)
    assert len(sec.log) == sent


def _facts_by_accession(path: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for concepts in json.loads(path.read_bytes())["facts"].values():
        for body in concepts.values():
            for values in body["units"].values():
                for v in values:
                    counts[v["accn"]] = counts.get(v["accn"], 0) + 1
    return counts


def test_update_loads_only_accessions_new_since_the_last_run(sec, real, tmp_path):
    old_facts = real / "companyfacts/vintage/CIK0000320193_asof_2024-11-01.json"
    sec.add(f"/api/xbrl/companyfacts/{AAPL}", old_facts)
    sec.add(f"/submissions/{AAPL}", real / "submissions/vintage/CIK0000320193_asof_2024-11.json")
    client = sec_client(sec, tmp_path)
    with factstore.open() as store:
        store.fetch_companyfacts("AAPL", client)
        before = store.sql("SELECT * FROM reports ORDER BY ALL")
        q4_2023 = store.fact("AAPL", "Revenues", period="2023Q4", as_of="2024-06-30")

        sec.add(f"/api/xbrl/companyfacts/{AAPL}", real / "companyfacts" / AAPL)
        sec.add(f"/submissions/{AAPL}", real / "submissions" / AAPL)
        sec.log.clear()
        [report] = store.update(client=client)
        old, new = _facts_by_accession(old_facts), _facts_by_accession(real / "companyfacts" / AAPL)
        assert report.reports == sum(n for accn, n in new.items() if accn not in old) > 0
        # what was loaded before is untouched, even values the SEC has since edited in place
        stored_before = store.sql("SELECT * FROM reports WHERE filing_id IN (SELECT unnest(?::VARCHAR[])) "
                                  "ORDER BY ALL", [sorted(set(before["filing_id"]))])
        assert stored_before.equals(before)
        assert store.fact("AAPL", "Revenues", period="2023Q4", as_of="2024-06-30") == q4_2023
        assert len(sec.requests_to(f"/api/xbrl/companyfacts/{AAPL}")) == 1

        sec.log.clear()
        [again] = store.update(client=client)
        assert again.note == "nothing new" and again.reports == 0
        assert not sec.requests_to(f"/api/xbrl/companyfacts/{AAPL}")


def test_fetch_filings_parses_and_chunks_documents_with_the_facts_acceptance(sec, real, tmp_path, capsys):
    accession = "0000320193-24-000123"
    recent = json.loads((real / "submissions" / AAPL).read_bytes())["filings"]["recent"]
    stamp = recent["acceptanceDateTime"][recent["accessionNumber"].index(accession)]  # New York time labelled Z
    accepted = pd.Timestamp(stamp).tz_localize(None).tz_localize("America/New_York").tz_convert("UTC")
    sec.fail("/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm", "truncate")
    assert cli(sec, tmp_path, "fetch", "companyfacts", "--ticker", "AAPL") == 0
    assert cli(sec, tmp_path, "fetch", "filings", "--ticker", "AAPL", "--form", "10-K", "--since", "2024-01-01",
               "--until", "2024-12-31") == 0
    assert "+1 documents" in capsys.readouterr().out
    with factstore.open(tmp_path / "store.duckdb") as store:
        assert store.sql("SELECT doc_id FROM documents")["doc_id"].tolist() == [accession]
        times = store.sql("""SELECT accepted_at FROM reports WHERE filing_id = ? UNION
            SELECT accepted_at FROM filings WHERE filing_id = ? UNION
            SELECT accepted_at FROM documents WHERE doc_id = ?""", [accession] * 3)
        assert times["accepted_at"].tolist() == [accepted.tz_localize(None)]
        assert "1A" in store.sql("SELECT item FROM sections WHERE doc_id = ?", [accession])["item"].tolist()
        assert store.sql("SELECT count(*) n FROM chunks WHERE strategy = 'structure'")["n"][0] > 50
        hit = store.search("risk factors supply chain", k=1)[0]
        start, end = hit.spans[0]
        assert hit.doc_id == accession and store.document(accession).text[start:end] in hit.text

    # the FY2025 10-K is not recorded: a clear error for it, and nothing stored twice on the rerun
    assert cli(sec, tmp_path, "fetch", "filings", "--ticker", "AAPL", "--form", "10-K", "--since", "2024-01-01") == 1
    out, _ = capsys.readouterr()
    assert "CIK 320193: FAILED: " in out and "HTTP 404" in out and "/Archives/edgar/data/320193/" in out
    with factstore.open(tmp_path / "store.duckdb") as store:
        assert store.sql("SELECT count(*) n FROM documents")["n"][0] == 1


def _zip(path: Path, members: dict[str, bytes | Path]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in members.items():
            z.writestr(name, body if isinstance(body, bytes) else body.read_bytes())
    return path


@pytest.fixture(scope="module")
def bulk(real, tmp_path_factory):
    """companyfacts.zip and submissions.zip of every recorded company, as the SEC ships them."""
    folder = tmp_path_factory.mktemp("bulk")
    facts = _zip(folder / "companyfacts.zip", {p.name: p for p in sorted((real / "companyfacts").glob("CIK*.json"))})
    subs = _zip(folder / "submissions.zip", {p.name: p for p in sorted((real / "submissions").glob("CIK*.json"))})
    return facts, subs


@pytest.fixture(scope="module")
def bulk_oracle(real):
    store = oracle(real, sorted(p.name for p in (real / "companyfacts").glob("CIK*.json")))
    yield snapshot(store)
    store.close()


@pytest.mark.slow
def test_bulk_loads_every_member_and_reports_bad_ones_by_name(bulk, bulk_oracle, tmp_path):
    facts, subs = bulk
    broken = tmp_path / "companyfacts.zip"
    fact = {"end": "2020-12-31", "val": "lots", "accn": "0000000002-21-000001", "form": "10-K", "filed": "2021-02-01"}
    bad_value = {"cik": 2, "entityName": "Bad", "facts": {"us-gaap": {"Revenues": {"units": {"USD": [fact]}}}}}
    with zipfile.ZipFile(facts) as src:
        _zip(broken, {**{n: src.read(n) for n in src.namelist()}, "CIK0000000001.json": b'{"cik": 1, "facts": {',
                      "CIK0000000002.json": json.dumps(bad_value).encode(),
                      "CIK0000000003.json": src.read(AAPL)})  # Apple's facts under another company's name
    with factstore.open() as store:
        reports = {r.source: r for r in store.fetch_bulk(broken, submissions=subs, progress=False)}
        assert "malformed JSON" in reports["CIK0000000001.json"].error
        assert "companyfacts.zip!CIK0000000001.json" in reports["CIK0000000001.json"].error
        assert "facts.us-gaap.Revenues.units.USD[0].val" in reports["CIK0000000002.json"].error
        assert reports["CIK0000000003.json"].error == (f"{broken}!CIK0000000003.json, field 'cik': the payload is "
                                                       "CIK 320193's, not the 3 its name gives")
        assert sum(r.error is None for r in reports.values()) == 8
        assert snapshot(store) == bulk_oracle
        again = store.fetch_bulk(broken, submissions=subs, progress=False)
        assert {r.note for r in again if not r.error} == {"unchanged since it was loaded"}
        assert snapshot(store) == bulk_oracle


def test_a_payload_of_another_company_loads_nothing_and_marks_nothing(sec, real, tmp_path):
    """CIK 1997711's paths serving Apple's files: refused, nothing stored, cached or marked ingested for either."""
    for kind in ("api/xbrl/companyfacts", "submissions"):
        sec.add(f"/{kind}/CIK0001997711.json", real / kind.split("/")[-1] / AAPL)
    with factstore.open() as store:
        client = sec_client(sec, tmp_path)
        (report,) = store.fetch_companyfacts([1997711], client, keep_going=True)
        assert "the payload is not CIK 1997711's (its cik is 320193)" in report.error
        assert snapshot(store) == snapshot(factstore.open())
        assert store.sql("SELECT count(*) AS n FROM ingested")["n"][0] == 0
        assert client.cache.read("/api/xbrl/companyfacts/CIK0001997711.json") is None


def test_a_bulk_member_that_unpacks_past_the_cap_is_reported_and_the_rest_load(real, tmp_path, monkeypatch):
    """The ratio cap, its floor lowered to 1 MiB: a member of 8 MiB of spaces (packed ~8 KiB) is refused by name,
    read no further than the cap; the other member loads."""
    from factstore import limits

    monkeypatch.setattr(limits, "RATIO_FLOOR", 1 << 20)
    good = "CIK0001046179.json"
    bomb = b'{"cik": 9, "facts": {}' + b" " * (8 << 20)
    archive = _zip(tmp_path / "companyfacts.zip", {good: real / "companyfacts" / good, "CIK0000000009.json": bomb})
    with factstore.open() as store:
        reports = {r.source: r for r in store.fetch_bulk(archive, progress=False)}
        assert reports["CIK0000000009.json"].error.startswith(
            f"{archive}!CIK0000000009.json: refused: it unpacks to more than 200 times")
        assert reports[good].error is None and reports[good].reports > 0


def test_bulk_zip_is_downloaded_through_the_client(real, tmp_path):
    small = ["CIK0001046179.json", "CIK0001997711.json"]
    archive = _zip(tmp_path / "small.zip", {n: real / "companyfacts" / n for n in small})
    path = "/Archives/edgar/daily-index/xbrl/companyfacts.zip"
    with SecServer({path: archive}) as sec, factstore.open() as store:
        sec.fail(path, "truncate")
        reports = store.fetch_bulk("companyfacts.zip", sec_client(sec, tmp_path), progress=False)
        assert [r.source for r in reports] == small and all(r.reports > 0 for r in reports)
        assert [e.fault for e in sec.requests_to(path)] == ["truncate", None]
        no_subs = oracle(real, [])
        for name in small:
            no_subs.load_companyfacts(real / "companyfacts" / name, progress=False)
        assert snapshot(store) == snapshot(no_subs)


@pytest.mark.slow
def test_killed_bulk_load_resumes_to_the_same_store(bulk, bulk_oracle, tmp_path):
    facts, subs = bulk
    db = tmp_path / "killed.duckdb"
    command = [sys.executable, "-m", "factstore", "fetch", "bulk", str(facts), "--submissions", str(subs),
               "--db", str(db)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    first = proc.stdout.readline()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert first.startswith("CIK") and "+" in first
    with factstore.open(db) as store:
        done = store.sql("SELECT count(*) n FROM ingested WHERE item LIKE 'bulk:%'")["n"][0]
    assert 1 <= done < 8, "the kill must land mid-load"
    finished = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.count("unchanged since it was loaded") == done
    with factstore.open(db) as store:
        assert snapshot(store) == bulk_oracle


def test_cli_refuses_to_send_anything_without_a_user_agent(sec, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("FACTSTORE_USER_AGENT", raising=False)
    code = main(["fetch", "companyfacts", "--ticker", "AAPL", "--base-url", sec.url, "--cache", str(tmp_path),
                 "--db", str(tmp_path / "store.duckdb")])
    assert code == 1 and "User-Agent" in capsys.readouterr().err
    assert sec.log == []


def test_update_fetches_new_documents_of_the_forms_kept_and_retries_missing_ones(sec, real, tmp_path):
    archive = "/Archives/edgar/data/320193/"
    sec.add(f"/api/xbrl/companyfacts/{AAPL}", real / "companyfacts/vintage/CIK0000320193_asof_2024-11-01.json")
    sec.add(f"/submissions/{AAPL}", real / "submissions/vintage/CIK0000320193_asof_2024-11.json")
    sec.add(f"{archive}000032019324000081/aapl-20240629.htm",  # the recorded files hold no 2024 10-Q: a stand-in
            b"<html><body><p>PART I</p><h2>Item 2. Management's Discussion</h2><p>Net sales grew.</p></body></html>")
    client = sec_client(sec, tmp_path)
    with factstore.open() as store:
        store.fetch_companyfacts("AAPL", client)
        [first] = store.fetch_filings("AAPL", client, forms=["10-Q"], since="2024-07-01")
        assert first.documents == 1

        sec.add(f"/api/xbrl/companyfacts/{AAPL}", real / "companyfacts" / AAPL)
        sec.add(f"/submissions/{AAPL}", real / "submissions" / AAPL)
        [report] = store.update(client=client)
        docs = store.sql("SELECT doc_id FROM documents ORDER BY 1")["doc_id"].tolist()
        assert docs == ["0000320193-24-000081", "0000320193-25-000057", "0000320193-25-000073"]  # 10-Qs recorded
        assert report.documents == 2 and report.reports > 0
        assert "000032019325000008" in report.error and "000032019326000006" in report.error  # not recorded: 404
        assert store.sql("SELECT count(DISTINCT doc_id) n FROM chunks")["n"][0] == 3

        sec.log.clear()
        [again] = store.update(client=client)
        fetched = sorted(e.path.split("/")[-2] for e in sec.log if e.path.startswith(archive))
        assert fetched == ["000032019325000008", "000032019326000006"]  # only the missing ones, tried again
        assert (again.documents, again.reports) == (0, 0)
        assert not sec.requests_to(f"/api/xbrl/companyfacts/{AAPL}")


def test_a_recent_xbrl_filing_missing_from_companyfacts_is_checked_again_until_it_settles(sec, tmp_path,
                                                                                          monkeypatch):
    from datetime import date

    from factstore.sec import sync

    late_8k = "0001140361-26-006577"  # filed 2026-02-24 with XBRL; companyfacts has no facts for it
    client = sec_client(sec, tmp_path)
    facts_path = f"/api/xbrl/companyfacts/{AAPL}"
    with factstore.open() as store:
        monkeypatch.setattr(sync, "_today", lambda: date(2026, 2, 25))
        store.fetch_companyfacts("AAPL", client)
        marks = "SELECT count(*) n FROM ingested WHERE item = ?"
        assert store.sql(marks, [late_8k])["n"][0] == 0  # may still come: not settled
        sec.log.clear()
        [report] = store.update(client=client)
        assert report.note == "unchanged since it was loaded" and len(sec.requests_to(facts_path)) == 1

        monkeypatch.setattr(sync, "_today", lambda: date(2026, 3, 2))
        store.update(client=client)
        assert store.sql(marks, [late_8k])["n"][0] == 1  # three days on, companyfacts will not add it
        sec.log.clear()
        [quiet] = store.update(client=client)
        assert quiet.note == "nothing new" and not sec.requests_to(facts_path)


SMALL = {"LPA": "CIK0001997711.json", "TSM": "CIK0001046179.json"}  # one without submissions, one with
FAULTY_PATHS = [*(f"/api/xbrl/companyfacts/{n}" for n in SMALL.values()), "/submissions/CIK0001046179.json",
                "/files/company_tickers.json"]
TRANSIENT = st.sampled_from(["429:ra=0", "500", "503", "truncate", "drop", "malformed"])
PLANS = st.dictionaries(st.sampled_from(FAULTY_PATHS),
                        st.lists(TRANSIENT, max_size=3) | st.sampled_from([["500*"], ["malformed*"], ["404*"]]),
                        max_size=4)


@pytest.fixture(scope="module")
def small_oracles(real):
    """The oracle store's snapshot for every subset of the small companies."""
    subsets = [(), ("LPA",), ("TSM",), ("LPA", "TSM")]
    out = {}
    for subset in subsets:
        with oracle(real, [SMALL[t] for t in subset]) as store:
            out[subset] = snapshot(store)
    return out


@budget(3, 12)
def test_whatever_the_faults_the_store_holds_exactly_the_companies_that_arrived_whole(real, small_oracles, examples,
                                                                                     tmp_path_factory):
    @settings(**hypothesis_budget(examples, 12), deadline=None)
    @given(plan=PLANS)
    def arrive(plan):
        assume(plan.get("/submissions/CIK0001046179.json") != ["404*"])  # no submissions is not a failure: see LPA
        cache = tmp_path_factory.mktemp("cache")
        with SecServer(recorded_routes(real)) as sec, factstore.open() as store:
            for path, faults in plan.items():
                sec.fail(path, *faults)
            client = SecClient(UA, base_url=sec.url, cache_dir=cache, backoff=0.001)
            sent = record_sends(client)
            reports = store.fetch_companyfacts(list(SMALL), client, keep_going=True)
            arrived = tuple(t for t, r in zip(SMALL, reports, strict=True) if r.error is None)
            assert snapshot(store) == small_oracles[arrived]
            assert most_in_window(sent, 1.0) <= 10
        # only a fault that outlasts the retries fails a company: one that never ends, a 404, or three bad payloads
        lasting = {p for p, faults in plan.items() if faults in (["500*"], ["malformed*"], ["404*"])
                   or faults.count("malformed") == 3}
        for ticker, report in zip(SMALL, reports, strict=True):
            paths = {f"/api/xbrl/companyfacts/{SMALL[ticker]}", "/files/company_tickers.json"}
            if ticker == "TSM":
                paths.add("/submissions/CIK0001046179.json")
            assert (report.error is not None) == bool(paths & lasting), (ticker, report.error)
            if ticker == "LPA" and report.error is None:  # its submissions are not recorded: filing dates stand in
                assert "no submissions JSON (404)" in report.note

    arrive()


def test_a_cut_document_is_not_stored_and_the_next_update_fetches_it_again(sec, real, tmp_path):
    """A 10-Q whose body lost its end (its Content-Length its own: only the missing </html> tells) is refused,
    kept aside in the cache, and not stored; `update` asks for it again and stores it whole."""
    cut, whole = "/Archives/edgar/data/320193/000032019325000073/aapl-20250628.htm", None
    for path, body in recorded_routes(real).items():
        if path == cut:
            whole = Path(body).read_bytes()
    sec.add(cut, whole[: len(whole) * 6 // 10])
    client = sec_client(sec, tmp_path)
    with factstore.open() as store:
        store.fetch_companyfacts("AAPL", client)
        [first] = store.fetch_filings("AAPL", client, forms=["10-Q"], since="2025-01-01", until="2025-12-31")
        assert "aapl-20250628.htm: the document is cut short" in first.error and first.documents == 1
        assert store.sql("SELECT doc_id FROM documents")["doc_id"].tolist() == ["0000320193-25-000057"]
        assert client.cache.read(cut) is None
        sec.add(cut, whole)
        store.update(client=client)
        stored = store.sql("SELECT doc_id FROM documents ORDER BY doc_id")["doc_id"].tolist()
        assert stored == ["0000320193-25-000057", "0000320193-25-000073"] and client.cache.read(cut) == whole


@pytest.mark.parametrize("before", [None, "100.0 MiB"])
def test_a_bulk_load_caps_duckdbs_memory_while_it_runs_and_gives_it_back(real, tmp_path, monkeypatch, before):
    """The store's cache of pages would grow with a bulk load up to 80% of the machine: the load caps DuckDB's memory
    at BULK_MEMORY (a lower limit stays), and leaves the setting as it found it, failing or not."""
    from factstore.db import _bytes
    from factstore.sec import sync

    member = "CIK0001997711.json"
    archive = _zip(tmp_path / "companyfacts.zip", {member: real / "companyfacts" / member})
    seen = []
    write_group = sync._write_group

    def watched(db, read):
        seen.append(db.one("SELECT current_setting('memory_limit')")[0])
        return write_group(db, read)

    monkeypatch.setattr(sync, "_write_group", watched)
    with factstore.open(tmp_path / "store.duckdb") as store:
        if before:
            store.db.all(f"SET memory_limit = '{before}'")
        found = store.db.one("SELECT current_setting('memory_limit')")[0]
        assert _bytes(found) > sync.BULK_MEMORY or before
        store.fetch_bulk(archive, progress=False)
        assert _bytes(seen[0]) == (_bytes(before) if before else sync.BULK_MEMORY)
        assert store.db.one("SELECT current_setting('memory_limit')")[0] == found
        monkeypatch.setattr(sync, "_write_group", lambda db, read: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            store.fetch_bulk(_zip(tmp_path / "other.zip", {"CIK0001046179.json": real / "companyfacts" /
                                                           "CIK0001046179.json"}), progress=False)
        assert store.db.one("SELECT current_setting('memory_limit')")[0] == found
