"""Published snapshots (store.publish, factstore.open(TARGET), `factstore publish`): every read API answers as the
live store does, a table that only grew keeps its old files, a reader keeps its snapshot while newer ones are
published, pruning spares snapshots in use, and a reader process never errs or sees answers change inside a
snapshot while another process loads and publishes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from datetime import date
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import factstore
from factstore.cli import main
from factstore.demo.data import generate
from factstore.errors import FactstoreError
from factstore.evaluate.ask import evaluate_real, real_questions
from factstore.snapshots import current, snapshots
from tests.samples import companyfacts

REVENUE = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """The demo store (facts and documents) and a snapshot of it, opened from its folder."""
    data = generate(companies=6)
    target = tmp_path_factory.mktemp("published")
    with factstore.open() as live:
        live.load_course(xbrl=data.xbrl, documents=data.documents, progress=False)
        live.index()
        live.publish(target)
        with factstore.open(target) as snapshot:
            yield data, live, snapshot


def parquet_rows(snapshot: Path, table: str) -> int:
    return sum(pq.read_metadata(f).num_rows for f in (snapshot / table).glob("*.parquet"))


def test_every_read_api_answers_as_the_live_store(pair):
    data, live, snap = pair
    assert snap.read_only and snap.snapshot == current(snap.path)
    tickers = sorted(data.documents["ticker"].unique())[:3]
    for ticker in tickers:
        for period, as_of in (("2020Q4", "2021-06-30"), ("FY2021", None), ("2022Q2", "2022-09-01")):
            a, b = (s.fact(ticker, REVENUE, period=period, as_of=as_of) for s in (live, snap))
            assert (a.to_dict() if a else None) == (b.to_dict() if b else None)
        pd.testing.assert_frame_equal(live.quarters(ticker, REVENUE, as_of="2022-01-01"),
                                      snap.quarters(ticker, REVENUE, as_of="2022-01-01"))
        pd.testing.assert_frame_equal(live.history(ticker, REVENUE, period="FY2020"),
                                      snap.history(ticker, REVENUE, period="FY2020"))
    questions = pd.DataFrame({"entity": tickers, "concept": REVENUE, "period_start": date(2021, 1, 1),
                              "period_end": date(2021, 12, 31), "as_of": pd.Timestamp("2022-06-30")})
    pd.testing.assert_frame_equal(live.facts(questions), snap.facts(questions))
    dates = pd.date_range("2019-01-31", "2023-12-31", freq="QE")
    pd.testing.assert_frame_equal(live.panel(tickers, [REVENUE], dates, ttm=True),
                                  snap.panel(tickers, [REVENUE], dates, ttm=True))
    for view in ("latest_facts", "all_reports", "restatements"):
        query = f"SELECT * FROM {view} ORDER BY ALL"  # view: ours
        pd.testing.assert_frame_equal(live.sql(query), snap.sql(query))
    assert live.search("riesgos principales", k=5) == snap.search("riesgos principales", k=5)
    question = f"What was {tickers[0]}'s revenue in 2021?"
    assert str(live.ask(question)) == str(snap.ask(question))
    for table in ("reports", "filings", "documents", "chunks"):
        assert parquet_rows(snap.snapshot, table) == live.sql(f"SELECT count(*) n FROM {table}")["n"][0]


def test_a_snapshot_cannot_be_written_and_reaches_no_other_file(pair, tmp_path):
    _, _, snap = pair
    with pytest.raises(FactstoreError, match="published snapshot"):
        snap.load_companyfacts(companyfacts(3, ["0000000003-20-000001"]), progress=False)
    outside = tmp_path / "x.csv"
    outside.write_text("a\n1\n")
    with pytest.raises(FactstoreError, match="(?i)permission|disabled"):
        snap.sql("SELECT * FROM read_csv(?)", [str(outside)])


def test_a_table_that_only_grew_keeps_its_files_and_a_changed_one_is_written_whole(tmp_path):
    target = tmp_path / "pub"
    with factstore.open(tmp_path / "live.duckdb") as live:
        live.load_companyfacts(companyfacts(3, ["0000000003-20-000001", "0000000003-21-000001"]), progress=False)
        first = live.publish(target)
        assert first.reused["reports"] == 0 and first.written["reports"] == first.rows["reports"] > 0
        live.load_companyfacts(companyfacts(4, ["0000000004-20-000001"], name="Four"), progress=False)
        second = live.publish(target)
        stored = int(live.sql("SELECT count(*) n FROM reports")["n"][0])
        assert second.rows["reports"] == stored == first.rows["reports"] + second.written["reports"]
        assert second.reused["reports"] == first.rows["reports"] and second.written["reports"] > 0
        old, new = (sorted((s / "reports").glob("*.parquet")) for s in (first.snapshot, second.snapshot))
        assert len(new) == 2 and old[0].name == new[0].name
        assert old[0].stat().st_ino == new[0].stat().st_ino  # the same file, linked
        assert parquet_rows(second.snapshot, "reports") == stored
        # a company renamed: as many entities rows as before, one changed, so entities is written whole
        live.load_companyfacts(companyfacts(4, ["0000000004-20-000001"], name="Renamed"), progress=False)
        renamed = live.publish(target)
        assert renamed.rows["entities"] == second.rows["entities"] and renamed.reused["entities"] == 0
        assert renamed.reused["reports"] == stored
        with factstore.open(target) as snap:
            pd.testing.assert_frame_equal(snap.sql("SELECT * FROM entities ORDER BY ALL"),
                                          live.sql("SELECT * FROM entities ORDER BY ALL"))
        # a row of reports gone: its old files no longer describe it, so it is written whole
        live.sql("DELETE FROM reports WHERE entity_id = '0000000003' AND concept = 'us-gaap:Assets'", write=True)
        third = live.publish(target)
        assert third.reused["reports"] == 0 and third.rows["reports"] == parquet_rows(third.snapshot, "reports") \
            == live.sql("SELECT count(*) n FROM reports")["n"][0] < stored
        with factstore.open(target) as snap:
            pd.testing.assert_frame_equal(snap.sql("SELECT * FROM reports ORDER BY ALL"),
                                          live.sql("SELECT * FROM reports ORDER BY ALL"))
        # grown again after the delete (rowids stay sparse): the old files are kept, no row is written twice
        live.load_companyfacts(companyfacts(5, ["0000000005-20-000001"]), progress=False)
        fourth = live.publish(target)
        assert fourth.reused["reports"] == third.rows["reports"] and fourth.written["reports"] > 0
        with factstore.open(target) as snap:
            pd.testing.assert_frame_equal(snap.sql("SELECT * FROM reports ORDER BY ALL"),
                                          live.sql("SELECT * FROM reports ORDER BY ALL"))


def test_a_reader_keeps_its_snapshot_while_newer_ones_are_published_and_pruned(tmp_path):
    target = tmp_path / "pub"
    with factstore.open() as live:
        live.load_companyfacts(companyfacts(3, ["0000000003-20-000001"]), progress=False)
        live.publish(target)
        reader = factstore.open(target)
        held = reader.snapshot
        with factstore.open(target) as twice:  # the same snapshot open twice in one process
            assert twice.snapshot == held and twice.sql("SELECT count(*) n FROM reports").equals(
                reader.sql("SELECT count(*) n FROM reports"))
        count = reader.sql("SELECT count(*) n FROM reports")["n"][0]
        for cik in (4, 5):
            live.load_companyfacts(companyfacts(cik, [f"{cik:010d}-20-000001"]), progress=False)
            done = live.publish(target, keep=1)
        assert held.is_dir() and held.name not in done.pruned  # in use here: kept
        assert reader.sql("SELECT count(*) n FROM reports")["n"][0] == count
        with factstore.open(target) as fresh:
            assert fresh.snapshot == done.snapshot != held
            assert fresh.sql("SELECT count(*) n FROM reports")["n"][0] == 3 * count
        assert [s.name for s in snapshots(target)] == [held.name, done.snapshot.name]
        reader.close()
        live.publish(target, keep=1)
        assert not held.exists() and len(snapshots(target)) == 1


def test_pruning_spares_a_snapshot_another_process_has_open(tmp_path):
    target = tmp_path / "pub"
    with factstore.open() as live:
        live.load_companyfacts(companyfacts(3, ["0000000003-20-000001"]), progress=False)
        first = live.publish(target).snapshot
        holder = subprocess.Popen(
            [sys.executable, "-c", "import sys, duckdb; c = duckdb.connect(sys.argv[1], read_only=True); "
             "print('open', flush=True); sys.stdin.read()", str(first / "catalog.duckdb")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline().strip() == "open"
            assert first.name not in live.publish(target, keep=1).pruned and first.is_dir()
        finally:
            holder.communicate("")
        assert first.name in live.publish(target, keep=1).pruned and not first.exists()


def test_cli_publish_then_read_the_folder(tmp_path, capsys):
    db, target = tmp_path / "live.duckdb", tmp_path / "pub"
    with factstore.open(db) as live:
        live.load_companyfacts(companyfacts(3, ["0000000003-20-000001", "0000000003-21-000001"]), progress=False)
    assert main(["publish", str(target), "--db", str(db)]) == 0
    assert "published" in capsys.readouterr().out
    assert main(["fact", "3", "Revenues", "--period", "FY2020", "--db", str(target), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["source"] == "0000000003-21-000001"
    assert main(["publish", str(target), "--db", str(db), "--keep", "0"]) == 1
    assert "keep must be at least 1" in capsys.readouterr().err


READER = textwrap.dedent("""
    import json, os, sys, duckdb, factstore
    target, stop = sys.argv[1], sys.argv[2]
    while not os.path.exists(stop):
        try:
            with factstore.open(target) as store:
                fact = store.fact("3", "Revenues", period="FY2020")
                answer = {"fact": fact.value, "reports": int(store.sql("SELECT count(*) n FROM reports")["n"][0]),
                          "search": [h.doc_id for h in store.search("riesgos", k=3)]}
                snap = store.snapshot.name
            catalog = os.path.realpath(os.path.join(target, "current", "catalog.duckdb"))
            with duckdb.connect(catalog, read_only=True) as con:
                plain = con.execute("SELECT count(*) FROM latest_facts").fetchall()[0][0]
            print(json.dumps({"snapshot": snap, "answer": answer,
                              "catalog": [os.path.basename(os.path.dirname(catalog)), plain]}), flush=True)
        except Exception as exc:
            print(json.dumps({"error": repr(exc)}), flush=True)
""")


def test_a_reader_process_never_errs_while_another_loads_and_publishes(tmp_path):
    """A reader loops over fact, sql, search and plain DuckDB on the catalog while the writer, holding the live
    store open for writing all along, loads a company and publishes, twice."""
    db, target, stop, out = tmp_path / "live.duckdb", tmp_path / "pub", tmp_path / "stop", tmp_path / "reader.out"
    with factstore.open(db) as live:
        live.load_companyfacts(companyfacts(3, ["0000000003-20-000001", "0000000003-21-000001"]), progress=False)
        live.load_course(documents=generate(companies=2).documents.head(4), progress=False)
        live.index()
        live.publish(target)
        counts = [int(live.sql("SELECT count(*) n FROM reports")["n"][0])]
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
        with out.open("w") as sink:
            reader = subprocess.Popen([sys.executable, "-c", READER, str(target), str(stop)], stdout=sink, env=env)
        try:
            def lines() -> list[dict]:
                return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]

            def wait_for(snapshot: str) -> None:
                deadline = time.monotonic() + 120
                while sum(r.get("snapshot") == snapshot for r in lines()) < 2:
                    assert reader.poll() is None and time.monotonic() < deadline, lines()[-3:]
                    time.sleep(0.1)

            wait_for(current(target).name)
            for cik in (4, 5):
                live.load_companyfacts(companyfacts(cik, [f"{cik:010d}-20-000001"]), progress=False)
                wait_for(live.publish(target).snapshot.name)
                counts.append(int(live.sql("SELECT count(*) n FROM reports")["n"][0]))
        finally:
            stop.touch()
            reader.wait(timeout=120)
    seen = lines()
    assert not [r for r in seen if "error" in r], seen
    by_snapshot: dict[str, list] = {}
    for r in seen:
        by_snapshot.setdefault(r["snapshot"], []).append(r["answer"])
    assert len(by_snapshot) == 3
    for answers in by_snapshot.values():
        assert all(a == answers[0] for a in answers)  # never a change inside a snapshot
    assert sorted(a[0]["reports"] for a in by_snapshot.values()) == counts and counts[0] < counts[-1]
    catalogs: dict[str, set] = {}
    for r in seen:
        catalogs.setdefault(r["catalog"][0], set()).add(r["catalog"][1])
    assert all(len(counts) == 1 for counts in catalogs.values())


def test_real_questions_get_the_same_answers_from_a_snapshot(real, built, tmp_path):
    """Apple, NVIDIA, Alphabet and TSMC (facts and 10-K text), asked the way analysts ask, live and published."""
    questions = real_questions(real).groupby("type", group_keys=False).head(1)
    with factstore.open(built("load-real")) as live:  # a copy of its own, as load_real leaves it
        live.publish(tmp_path / "pub")
        with factstore.open(tmp_path / "pub") as snap:
            got = [evaluate_real(s, questions, progress=False) for s in (live, snap)]
    assert len(got[0]) == len(questions) >= 3 and got[0]["right"].mean() > 0.8
    pd.testing.assert_frame_equal(*got)


# ------------------------------------------------------------------------------ publish never harms the user's files
def tree(folder: Path) -> dict[str, bytes | str | None]:
    """Every path under a folder: a file's bytes, a link's target, None for a folder."""
    return {str(p.relative_to(folder)): os.readlink(p) if p.is_symlink() else p.read_bytes() if p.is_file() else None
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def small_store():
    with factstore.open() as live:
        live.load_companyfacts(companyfacts(3, ["0000000003-20-000001"]), progress=False)
        yield live


def test_pruning_removes_only_the_snapshots_publish_made(small_store, tmp_path):
    target = tmp_path / "pub"
    backup = target / "snapshots" / "backup-2023"
    lookalike = target / "snapshots" / "20230101T000000000000Z-abcdef"  # named like one, but no manifest
    for folder in (backup, lookalike):
        folder.mkdir(parents=True)
        (folder / "notes.txt").write_text("mine")
    first = small_store.publish(target).snapshot
    done = small_store.publish(target, keep=1)
    assert done.pruned == [first.name] and not first.exists()
    assert [s.name for s in snapshots(target)] == [done.snapshot.name]
    assert (backup / "notes.txt").read_text() == (lookalike / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("kind", ["file", "folder", "link elsewhere"])
def test_a_current_publish_did_not_make_is_refused_before_anything_is_written(small_store, tmp_path, kind):
    target = tmp_path / "pub"
    target.mkdir()
    mine = target / "current"
    if kind == "file":
        mine.write_text("my notes")
    elif kind == "folder":
        mine.mkdir()
        (mine / "catalog.duckdb").write_text("not a catalog")
    else:
        (tmp_path / "elsewhere").mkdir()
        mine.symlink_to(tmp_path / "elsewhere")
    before = tree(target)
    with pytest.raises(FactstoreError, match=f"pub/current: (a|an) {kind} that publish did not make; move it away"):
        small_store.publish(target)
    assert tree(target) == {**before, ".publish.lock": b"", "snapshots": None}


def test_publishing_into_a_snapshot_is_refused(small_store, tmp_path):
    target = tmp_path / "pub"
    snap = small_store.publish(target).snapshot
    before = tree(target)
    for inside in (target / "current", snap, snap / "reports"):
        with pytest.raises(FactstoreError, match=f"inside the published snapshot {snap}, which never changes; "
                                                 f"publish into its target, {target.resolve()}"):
            small_store.publish(inside)
    assert tree(target) == before


def test_what_killed_publishes_left_is_removed_by_the_next(small_store, tmp_path):
    target = tmp_path / "pub"
    small_store.publish(target)
    stale = "20240101T000000000000Z-abcdef"
    (target / "snapshots" / f".{stale}.partial" / "reports").mkdir(parents=True)
    (target / f".current-{stale}").symlink_to(Path("snapshots") / stale)  # dangling
    (target / ".mine").write_text("a hidden file of the user's")
    (target / "snapshots" / ".keep").write_text("")
    done = small_store.publish(target)
    assert sorted(p.name for p in target.iterdir()) == [".mine", ".publish.lock", "current", "snapshots"]
    assert sorted(p.name for p in (target / "snapshots").iterdir()) == sorted(
        [".keep", *(s.name for s in snapshots(target))]) and done.snapshot in snapshots(target)


@pytest.mark.slow
def test_two_publishers_on_one_target_take_turns(tmp_path):
    """Two stores publishing into one target from two threads, pruning to one: every publish succeeds and the
    target ends with its current snapshot whole and readable."""
    import threading

    target, errors = tmp_path / "pub", []

    def publisher(cik: int) -> None:
        try:
            with factstore.open() as live:
                live.load_companyfacts(companyfacts(cik, [f"{cik:010d}-20-000001"]), progress=False)
                for _ in range(4):
                    live.publish(target, keep=1)
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=publisher, args=(cik,)) for cik in (3, 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with factstore.open(target) as reader:
        assert reader.sql("SELECT count(*) n FROM reports")["n"][0] > 0
    assert [s.name for s in snapshots(target)] == [current(target).name]


def test_a_reader_opening_a_snapshot_being_pruned_takes_the_current_one(small_store, tmp_path, monkeypatch):
    """Prune holds a snapshot's catalog locked while it deletes it (another process, here). A reader that found
    that snapshot current just before cannot open it, and takes the one now current instead of failing."""
    from factstore import snapshots as snaps

    target = tmp_path / "pub"
    old = small_store.publish(target).snapshot
    new = small_store.publish(target).snapshot
    pruner = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys; f = open(sys.argv[1], 'rb+'); fcntl.lockf(f, fcntl.LOCK_EX); "
         "print('locked', flush=True); sys.stdin.read()", str(old / "catalog.duckdb")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert pruner.stdout.readline().strip() == "locked"
        found = iter([old])  # current as the reader found it a moment before the prune began, then as it is
        real = snaps.current
        monkeypatch.setattr(snaps, "current", lambda t: next(found, None) or real(t))
        with factstore.open(target) as reader:
            assert reader.snapshot == new and reader.sql("SELECT count(*) n FROM reports")["n"][0] > 0
        with pytest.MonkeyPatch.context() as again:
            again.setattr(snaps, "current", lambda t: old)  # nothing newer to take: the error says why
            with pytest.raises(FactstoreError, match=f"{old / 'catalog.duckdb'}: cannot open snapshot"):
                factstore.open(target)
    finally:
        pruner.communicate("")
