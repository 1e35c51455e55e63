"""Tests of the local SEC stand-in server (tests/sec_server.py) itself."""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.sec_server import Logged, SecServer, recorded_routes

PATH = "/api/xbrl/companyfacts/CIK0000000001.json"
BODY = json.dumps({"cik": 1, "entityName": "Test Co", "facts": {"us-gaap": {}}, "pad": "x" * 4000}).encode()
UA = "factstore-tests test@example.com"
TIMEOUT = 5


@pytest.fixture
def sec() -> Iterator[SecServer]:
    with SecServer({PATH: BODY}) as server:
        yield server


@pytest.fixture
def session() -> Iterator[requests.Session]:
    with requests.Session() as s:
        s.headers["User-Agent"] = UA
        yield s


def test_serves_body_with_content_length_and_type(sec: SecServer, session: requests.Session) -> None:
    r = session.get(sec.url + PATH, timeout=TIMEOUT)
    assert r.status_code == 200
    assert r.content == BODY
    assert r.headers["Content-Length"] == str(len(BODY))
    assert r.headers["Content-Type"] == "application/json"
    assert session.get(sec.url + PATH + "?x=1", timeout=TIMEOUT).content == BODY  # query ignored for routing
    assert session.get(sec.url + "/nope.json", timeout=TIMEOUT).status_code == 404
    assert sec.connections == 1  # keep-alive: the session reused one connection


def test_content_types(sec: SecServer, session: requests.Session, tmp_path: Path) -> None:
    doc = tmp_path / "doc.htm"
    doc.write_bytes(b"<html></html>")
    sec.add("/Archives/edgar/data/1/000000000124000001/doc.htm", doc)
    sec.add("/a.zip", b"PK")
    sec.add("/a.bin", b"\0")
    r = session.get(sec.url + "/Archives/edgar/data/1/000000000124000001/doc.htm", timeout=TIMEOUT)
    assert (r.content, r.headers["Content-Type"]) == (b"<html></html>", "text/html")
    assert session.get(sec.url + "/a.zip", timeout=TIMEOUT).headers["Content-Type"] == "application/zip"
    assert session.get(sec.url + "/a.bin", timeout=TIMEOUT).headers["Content-Type"] == "application/octet-stream"


def test_429_then_success(sec: SecServer, session: requests.Session) -> None:
    sec.fail(PATH, "429", "429:ra=2", "429:ra=date")
    first = session.get(sec.url + PATH, timeout=TIMEOUT)
    assert (first.status_code, first.headers["Retry-After"]) == (429, "1")
    assert session.get(sec.url + PATH, timeout=TIMEOUT).headers["Retry-After"] == "2"
    dated = session.get(sec.url + PATH, timeout=TIMEOUT)
    assert dated.status_code == 429
    ahead = email.utils.parsedate_to_datetime(dated.headers["Retry-After"]).timestamp() - time.time()
    assert 0 < ahead <= 2.5
    ok = session.get(sec.url + PATH, timeout=TIMEOUT)
    assert (ok.status_code, ok.content) == (200, BODY)
    assert [(e.status, e.fault) for e in sec.requests_to(PATH)] == [
        (429, "429"),
        (429, "429"),
        (429, "429"),
        (200, None),
    ]


def test_status_faults_and_forever(sec: SecServer, session: requests.Session) -> None:
    sec.fail(PATH, "500", "503", "404", "500*")
    codes = [session.get(sec.url + PATH, timeout=TIMEOUT).status_code for _ in range(6)]
    assert codes == [500, 503, 404, 500, 500, 500]


def test_truncate_raises_and_connection_recovers(sec: SecServer, session: requests.Session) -> None:
    sec.fail(PATH, "truncate")
    with pytest.raises(requests.RequestException) as info:
        session.get(sec.url + PATH, timeout=TIMEOUT)
    assert isinstance(info.value, requests.exceptions.ChunkedEncodingError)
    assert session.get(sec.url + PATH, timeout=TIMEOUT).content == BODY  # no hang on the next request
    assert [(e.status, e.fault) for e in sec.log] == [(200, "truncate"), (200, None)]


def test_drop_raises(sec: SecServer, session: requests.Session) -> None:
    session.get(sec.url + PATH, timeout=TIMEOUT)  # open a keep-alive connection first: drop must still be seen
    sec.fail(PATH, "drop")
    with pytest.raises(requests.RequestException) as info:
        session.get(sec.url + PATH, timeout=TIMEOUT)
    assert isinstance(info.value, requests.exceptions.ConnectionError)
    assert session.get(sec.url + PATH, timeout=TIMEOUT).content == BODY
    assert [(e.status, e.fault) for e in sec.log] == [(200, None), (0, "drop"), (200, None)]


def test_malformed_is_200_but_not_json(sec: SecServer, session: requests.Session) -> None:
    sec.fail(PATH, "malformed")
    r = session.get(sec.url + PATH, timeout=TIMEOUT)
    assert r.status_code == 200
    assert int(r.headers["Content-Length"]) == len(r.content) < len(BODY)
    with pytest.raises(ValueError):
        json.loads(r.content)
    assert json.loads(session.get(sec.url + PATH, timeout=TIMEOUT).content)["cik"] == 1


def test_slow_delays(sec: SecServer, session: requests.Session) -> None:
    sec.fail(PATH, "slow:0.5")
    start = time.monotonic()
    r = session.get(sec.url + PATH, timeout=TIMEOUT)
    assert time.monotonic() - start >= 0.5
    assert r.content == BODY
    (entry,) = sec.log
    assert entry.fault == "slow" and entry.time <= start + 0.5  # arrival time is taken before the sleep


def test_log_records_user_agent_and_status(sec: SecServer, session: requests.Session) -> None:
    before = time.monotonic()
    session.get(sec.url + PATH + "?a=b", timeout=TIMEOUT)
    requests.get(sec.url + "/missing", headers={"User-Agent": "other"}, timeout=TIMEOUT)
    first, second = sec.log
    assert (first.method, first.path, first.status, first.user_agent, first.fault) == (
        "GET",
        PATH + "?a=b",
        200,
        UA,
        None,
    )
    assert (second.path, second.status, second.user_agent) == ("/missing", 404, "other")
    assert before <= first.time <= second.time <= time.monotonic()
    assert sec.requests_to(PATH) == [first]


def test_bad_fault_spec_rejected() -> None:
    server = SecServer()
    for spec in ("418", "slow", "slow:x", "429:foo=1", "drop:1"):
        with pytest.raises(ValueError):
            server.fail(PATH, spec)


def test_max_in_window_synthetic() -> None:
    server = SecServer()
    assert server.max_in_window() == 0
    for t in (0.0, 0.2, 0.9, 1.0, 1.1, 1.95, 5.0):
        server.log.append(Logged(t, "GET", "/x", 200, None, None))
    assert server.max_in_window(1.0) == 4  # [1.0, 2.0) holds 1.0, 1.1, 1.95; [0.2, 1.2) holds 0.2, 0.9, 1.0, 1.1
    assert server.max_in_window(0.1) == 1  # half-open: 0.9 and 1.0 are not both in [0.9, 1.0)
    assert server.max_in_window(0.11) == 2
    assert server.max_in_window(10) == 7


def test_stop_does_not_hang_with_idle_keepalive(session: requests.Session) -> None:
    server = SecServer({PATH: BODY}).start()
    session.get(server.url + PATH, timeout=TIMEOUT)
    start = time.monotonic()
    server.stop()
    assert time.monotonic() - start < 2
    with pytest.raises(RuntimeError):
        _ = server.url


def test_recorded_routes(real: Path, session: requests.Session) -> None:
    routes = recorded_routes(real)
    assert routes["/api/xbrl/companyfacts/CIK0000320193.json"] == real / "companyfacts" / "CIK0000320193.json"
    assert not any("vintage" in str(v) for v in routes.values() if isinstance(v, Path))
    assert "/submissions/CIK0001318605-submissions-001.json" in routes
    tickers = json.loads(routes["/files/company_tickers.json"])  # type: ignore[arg-type]
    assert list(tickers)[:2] == ["0", "1"]
    by_ticker = {row["ticker"]: row for row in tickers.values()}
    assert by_ticker["AAPL"] == {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}
    assert by_ticker["GOOGL"]["cik_str"] == 1652044 and by_ticker["SNOW"]["title"] == "SNOWFLAKE INC."
    assert by_ticker["LPA"]["cik_str"] == 1997711
    filings = sorted(p for p in routes if p.startswith("/Archives/"))
    assert filings == [
        "/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm",
        "/Archives/edgar/data/1045810/000104581025000209/nvda-20250727.htm",
        "/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm",
        "/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm",
        "/Archives/edgar/data/320193/000032019325000073/aapl-20250628.htm",
    ]
    with SecServer(routes) as sec:
        r = session.get(sec.url + "/api/xbrl/companyfacts/CIK0000320193.json", timeout=TIMEOUT)
        assert r.headers["Content-Type"] == "application/json"
        assert r.content == (real / "companyfacts" / "CIK0000320193.json").read_bytes()
        r = session.get(sec.url + filings[2], timeout=TIMEOUT)
        assert r.headers["Content-Type"] == "text/html" and r.content.startswith(b"<")
