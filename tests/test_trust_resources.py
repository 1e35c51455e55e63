"""Bounded work on untrusted input (issue #44): a FIFO given as any input is refused without being opened, zip
members and HTTP bodies unpack in blocks and stop at the caps, the SEC client's deadline covers the headers, and the
CLI says a bad path or size in one line."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
import tracemalloc
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import factstore
from factstore import limits
from factstore.cli import main
from factstore.errors import LoadError
from factstore.sec.client import FetchError, SecClient
from factstore.sec.ingest import BulkArchive

UA = "factstore tests tests@example.com"
MiB = 1 << 20


# ------------------------------------------------------------------------------ a FIFO as input (item 8)
def finishes(call: Callable[[], Any], fifos: list[Path], seconds: float = 5.0) -> BaseException | None:
    """What call() raised (None if nothing), run in a thread; one still blocked after `seconds` fails the test,
    after its FIFOs are opened for writing and closed so that the blocked read ends."""
    outcome: dict[str, BaseException | None] = {}

    def run() -> None:
        try:
            call()
            outcome["error"] = None
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for _ in range(50):
            for fifo in fifos:
                with contextlib.suppress(OSError):  # no reader blocked on it
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # EOF for a reader blocked on it
            thread.join(0.1)
            if not thread.is_alive():
                break
        pytest.fail(f"blocked on a FIFO for {seconds:.0f} s")
    return outcome["error"]


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _inputs(tmp_path: Path, case: str) -> tuple[Callable[[factstore.FactStore], Any], Path]:
    """An API load given a FIFO somewhere among its inputs, and that FIFO."""
    pipe = fifo(tmp_path / "pipe")
    other = tmp_path / "cf.json"
    other.write_text('{"cik": 42, "facts": {}}', encoding="utf-8")
    folder = tmp_path / "quarter"
    folder.mkdir()
    loads: dict[str, Callable[[factstore.FactStore], Any]] = {
        "xbrl": lambda s: s.load_xbrl(pipe),
        "xbrl list": lambda s: s.load_xbrl([other, pipe]),
        "companyfacts": lambda s: s.load_companyfacts(pipe),
        "companyfacts submissions": lambda s: s.load_companyfacts(other, [pipe]),
        "companyfacts many": lambda s: s.load_companyfacts_many([other, pipe]),
        "companyfacts many submissions": lambda s: s.load_companyfacts_many([other], [pipe]),
        "filing": lambda s: s.load_filing(pipe),
        "xbrl feed": lambda s: s.load_xbrl_feed(pipe),
        "fsds": lambda s: s.load_fsds(pipe),
        "reports": lambda s: s.load_reports(pipe),
        "course": lambda s: s.load_course(sales=pipe),
        "tickers": lambda s: s.load_tickers(pipe),
    }
    if case.startswith("fsds folder"):  # a member of a quarter's folder that is a FIFO
        pipe.unlink()
        member = "num.txt" if case == "fsds folder num" else "sub.txt"
        if member != "num.txt":
            (folder / "num.txt").write_text("adsh\ttag\tversion\tddate\tqtrs\tuom\tvalue\n", encoding="utf-8")
        pipe = fifo(folder / member)
        return (lambda s: s.load_fsds(folder)), pipe
    return loads[case], pipe


API_CASES = ["xbrl", "xbrl list", "companyfacts", "companyfacts submissions", "companyfacts many",
             "companyfacts many submissions", "filing", "xbrl feed", "fsds", "fsds folder num", "fsds folder sub",
             "reports", "course", "tickers"]


@pytest.mark.parametrize("case", API_CASES)
def test_a_fifo_given_to_any_load_is_refused_without_being_opened(tmp_path, case):
    load, pipe = _inputs(tmp_path, case)
    with factstore.open(tmp_path / "store.duckdb") as store:
        before = store.sql("SELECT count(*) AS n FROM loads")["n"][0]
        error = finishes(lambda: load(store), [pipe])
        assert isinstance(error, LoadError), error
        assert error.source == str(pipe) and "not a regular file" in str(error)
        assert store.sql("SELECT count(*) AS n FROM loads")["n"][0] == before


CLI_CASES = {"xbrl": ["load", "xbrl"], "companyfacts": ["load", "companyfacts"], "filing": ["load", "filing"],
             "xbrl feed": ["load", "xbrl-feed"], "fsds": ["load", "fsds"], "reports": ["load", "reports"],
             "tickers": ["load", "tickers"], "course": ["load", "course", "--sales"]}


@pytest.mark.parametrize("case", [*CLI_CASES, "fsds folder num", "companyfacts submissions", "facts"])
def test_a_fifo_given_to_the_cli_is_one_line_naming_it(tmp_path, capsys, case):
    pipe = fifo(tmp_path / "pipe")
    db = tmp_path / "store.duckdb"
    factstore.open(db).close()
    if case == "fsds folder num":
        pipe.unlink()
        (tmp_path / "q").mkdir()
        pipe = fifo(tmp_path / "q" / "num.txt")
        argv = ["load", "fsds", str(pipe.parent)]
    elif case == "companyfacts submissions":
        (tmp_path / "cf.json").write_text('{"cik": 42, "facts": {}}', encoding="utf-8")
        argv = ["load", "companyfacts", str(tmp_path / "cf.json"), "--submissions", str(pipe)]
    elif case == "facts":
        argv = ["facts", str(pipe)]
    else:
        argv = [*CLI_CASES[case], str(pipe)]
    codes: list[int] = []
    error = finishes(lambda: codes.append(main([*argv, "--db", str(db)])), [pipe])
    assert error is None and codes == [1]
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and str(pipe) in said[0] and "not a regular file" in said[0], said


# ------------------------------------------------------------------------------ zip members (item 9)
def bomb_zip(path: Path, members: dict[str, int]) -> Path:
    """A zip whose members are that many bytes of zeros each, written in blocks (never whole in memory)."""
    block = bytes(MiB)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, size in members.items():
            with archive.open(name, "w") as out:
                for _ in range(size // MiB):
                    out.write(block)
    return path


def peak(call: Callable[[], Any]) -> tuple[BaseException | None, int, float]:
    """What call() raised, the most memory Python held meanwhile (bytes above the start), and the seconds taken."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        call()
        error = None
    except Exception as exc:  # noqa: BLE001 - handed to the test
        error = exc
    finally:
        _, most = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return error, most, time.monotonic() - started


def test_a_bomb_member_of_an_xbrl_zip_is_refused_in_bounded_memory(tmp_path, monkeypatch):
    """With the ratio floor at 1 MiB, a 64 MiB member of zeros (packed ~64 KiB) is refused once it unpacks past 200
    times its packed size, long before it is whole."""
    monkeypatch.setattr(limits, "RATIO_FLOOR", MiB)
    path = bomb_zip(tmp_path / "0000000042-24-000001-xbrl.zip", {"bomb.htm": 64 * MiB})
    with factstore.open() as store:
        error, most, seconds = peak(lambda: store.load_xbrl(path))
    assert isinstance(error, LoadError) and f"{path}!bomb.htm" in str(error), error
    assert "refused: it unpacks to more than 200 times" in str(error)
    assert most < 32 * MiB and seconds < 5, (most, seconds)


def test_an_xbrl_zip_of_many_members_is_capped_as_a_whole(tmp_path, monkeypatch):
    """Each member below the ratio floor, their sum far past it: the zip is refused as it unpacks, not held
    whole."""
    monkeypatch.setattr(limits, "RATIO_FLOOR", 16 * MiB)
    path = bomb_zip(tmp_path / "x-xbrl.zip", {f"part{i}.xml": 8 * MiB for i in range(8)})
    with factstore.open() as store:
        error, most, _ = peak(lambda: store.load_xbrl(path))
    assert isinstance(error, LoadError) and "refused: it unpacks to more than 200 times" in str(error), error
    assert most < 48 * MiB, most


def test_a_bomb_in_a_bulk_submissions_zip_is_refused(tmp_path, monkeypatch):
    """The bulk archive's submissions members go through the same capped reader as its companyfacts members."""
    monkeypatch.setattr(limits, "RATIO_FLOOR", MiB)
    facts = tmp_path / "companyfacts.zip"
    with zipfile.ZipFile(facts, "w") as archive:
        archive.writestr("CIK0000000042.json", '{"cik": 42, "facts": {}}')
    subs = bomb_zip(tmp_path / "submissions.zip", {"CIK0000000042.json": 64 * MiB})
    with BulkArchive(facts, subs) as bulk:
        error, most, _ = peak(lambda: bulk.pages(bulk.members[0]))
    assert isinstance(error, LoadError) and "submissions.zip!CIK0000000042.json: refused" in str(error), error
    assert most < 32 * MiB, most


# ------------------------------------------------------------------------------ the SEC client (items 10, 11)
class RawServer:
    """A one-route HTTP server on 127.0.0.1 that answers every request with `answer(connection)`."""

    def __init__(self, answer: Callable[[socket.socket], None]) -> None:
        self.answer, self.listener = answer, socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.requests = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            try:
                while b"\r\n\r\n" not in (head := conn.recv(65536)):
                    if not head:
                        return
                self.requests += 1
                self.answer(conn)
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()


def _gzip_of_zeros(size: int) -> bytes:
    packer, block = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(MiB)
    return b"".join([*(packer.compress(block) for _ in range(size // MiB)), packer.flush()])


def test_a_gzip_bomb_body_is_inflated_in_blocks_and_stopped_at_the_cap(tmp_path, monkeypatch):
    """64 MiB of zeros gzipped (~64 KiB) with the ratio floor at 1 MiB: refused once it unpacks past 200 times its
    packed size, without ever holding the whole body."""
    monkeypatch.setattr(limits, "RATIO_FLOOR", MiB)
    packed = _gzip_of_zeros(64 * MiB)

    def answer(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(packed) + packed)

    server = RawServer(answer)
    try:
        client = SecClient(UA, base_url=server.url, cache_dir=tmp_path / "cache", backoff=0.01)
        error, most, seconds = peak(lambda: client.get("/Archives/doc.htm", "www"))
    finally:
        server.close()
    assert isinstance(error, FetchError) and "refused: it unpacks to more than 200 times" in str(error), error
    assert most < 32 * MiB and seconds < 5, (most, seconds)
    assert server.requests == 1 and client.cache.read("/Archives/doc.htm") is None


def test_a_plain_body_past_the_cap_is_refused_as_it_arrives(tmp_path, monkeypatch):
    """The cap on what is held covers a body sent as it is: with the cap at 1 MiB, 2 MiB are refused."""
    monkeypatch.setattr(limits, "MAX_UNPACKED", MiB)

    def answer(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % (2 * MiB))
        conn.sendall(bytes(2 * MiB))

    server = RawServer(answer)
    try:
        client = SecClient(UA, base_url=server.url, cache_dir=tmp_path / "cache", backoff=0.01)
        with pytest.raises(FetchError, match=r"refused: it unpacks past 1,048,576 bytes"):
            client.get("/Archives/doc.htm", "www")
    finally:
        server.close()
    assert server.requests == 1 and client.cache.read("/Archives/doc.htm") is None


@pytest.mark.parametrize("call", ["get", "download"])
def test_the_deadline_covers_headers_that_trickle(tmp_path, call):
    """A server that sends its status line, then a header one byte every 0.1 s (never tripping the read timeout),
    is given up at the 1 s deadline, not after the 6 s it trickles for."""
    def answer(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        for _ in range(60):
            conn.sendall(b"a")
            time.sleep(0.1)
        conn.sendall(b"\r\nContent-Length: 2\r\n\r\n{}")

    server = RawServer(answer)
    try:
        client = SecClient(UA, base_url=server.url, cache_dir=tmp_path / "cache", backoff=0.01, deadline=1.0,
                           retries=1 if call == "get" else 0)
        started = time.monotonic()
        with pytest.raises(FetchError, match=r"no whole answer within the deadline of 1 s; last: ReadTimeout"
                           if call == "get" else r"gave up after 1 attempts; last: ReadTimeout"):
            getattr(client, call)("/files/x.json", "www")
        assert time.monotonic() - started < 2.5
    finally:
        server.close()


# ------------------------------------------------------------------------------ the CLI (item 12)
@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "store.duckdb"
    factstore.open(path).close()
    return path


def test_facts_of_a_missing_csv_is_one_line_naming_it(db, tmp_path, capsys):
    missing = tmp_path / "questions.csv"
    assert main(["facts", str(missing), "--db", str(db)]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and str(missing) in said[0] and "No such file" in said[0], said


def test_facts_of_an_empty_csv_is_one_line_naming_it(db, tmp_path, capsys):
    empty = tmp_path / "questions.csv"
    empty.write_text("")
    assert main(["facts", str(empty), "--db", str(db)]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and str(empty) in said[0] and "not a CSV of questions" in said[0], said


def test_publish_where_no_folder_can_be_made_is_one_line_naming_it(db, tmp_path, capsys):
    (tmp_path / "a file").write_text("x", encoding="utf-8")
    target = tmp_path / "a file" / "published"
    assert main(["publish", str(target), "--db", str(db)]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and str(tmp_path / "a file") in said[0], said


@pytest.mark.parametrize("size", [0, -5])
def test_an_index_size_below_one_is_refused(db, capsys, size):
    assert main(["index", "--size", str(size), "--db", str(db)]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and f"size must be at least 1 character, not {size}" in said[0], said
    with factstore.open() as store, pytest.raises(ValueError, match=f"not {size}"):
        store.index("fixed", size=size)
