"""The SEC client against a local stand-in for the SEC: fair access, retries, timeouts, the raw cache."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from factstore.errors import FactstoreError
from factstore.sec.cache import safe_path
from factstore.sec.client import FetchError, SecClient, retry_after
from factstore.sec.throttle import RateLimiter, Throttle
from tests.sec_server import SecServer, most_in_window, record_sends

UA = "factstore tests tests@example.com"
FACTS = "/api/xbrl/companyfacts/CIK0000000042.json"
BODY = json.dumps({"cik": 42, "entityName": "Test Co", "facts": {}}).encode()


@pytest.fixture
def sec():
    with SecServer({FACTS: BODY, "/submissions/CIK0000000042.json": b'{"cik": "42", "filings": {"recent": {}}}'}) as s:
        yield s


def client(sec: SecServer, tmp_path: Path, **kw) -> SecClient:
    return SecClient(UA, base_url=sec.url, cache_dir=tmp_path / "cache", backoff=kw.pop("backoff", 0.01), **kw)


def test_refuses_without_a_declared_user_agent(monkeypatch, tmp_path):
    monkeypatch.delenv("FACTSTORE_USER_AGENT", raising=False)
    with pytest.raises(FactstoreError, match="User-Agent"):
        SecClient(cache_dir=tmp_path)
    with pytest.raises(FactstoreError, match="contact address"):
        SecClient("just a name", cache_dir=tmp_path)
    monkeypatch.setenv("FACTSTORE_USER_AGENT", UA)
    assert SecClient(cache_dir=tmp_path).session.headers["User-Agent"] == UA
    SecClient(cache_dir=tmp_path, offline=True)  # replaying the cache sends nothing, so needs no User-Agent


def test_base_url_replaces_scheme_and_host_of_both_hosts(monkeypatch, tmp_path):
    monkeypatch.setenv("FACTSTORE_USER_AGENT", UA)
    c = SecClient(cache_dir=tmp_path)
    assert c.url("/submissions/CIK0000320193.json") == "https://data.sec.gov/submissions/CIK0000320193.json"
    assert c.url("/files/company_tickers.json", "www") == "https://www.sec.gov/files/company_tickers.json"
    monkeypatch.setenv("FACTSTORE_SEC_BASE_URL", "http://127.0.0.1:9/")
    c = SecClient(cache_dir=tmp_path)
    assert c.url("/api/xbrl/companyfacts/CIK0000320193.json") == \
        "http://127.0.0.1:9/api/xbrl/companyfacts/CIK0000320193.json"
    assert c.url("/Archives/edgar/data/320193/x.htm", "www") == "http://127.0.0.1:9/Archives/edgar/data/320193/x.htm"
    with pytest.raises(FactstoreError, match="scheme and host"):
        SecClient(cache_dir=tmp_path, base_url="127.0.0.1:9/api")


def test_every_request_declares_the_user_agent_and_payload_is_cached_before_parsing(sec, tmp_path):
    c = client(sec, tmp_path)
    data, cached = c.companyfacts(42)
    assert data["entityName"] == "Test Co"
    assert cached.read_bytes() == BODY and cached == tmp_path / "cache" / FACTS.lstrip("/")
    assert json.loads(cached.with_name(cached.name + ".meta.json").read_text())["url"] == sec.url + FACTS
    assert [e.user_agent for e in sec.log] == [UA]


@pytest.mark.parametrize("fault", ["429", "429:ra=date"])
def test_429_waits_as_long_as_retry_after_asks(sec, tmp_path, fault):
    sec.fail(FACTS, fault)
    client(sec, tmp_path).companyfacts(42)
    first, second = sec.requests_to(FACTS)
    assert (first.status, second.status) == (429, 200)
    assert second.time - first.time >= 0.95  # Retry-After: 1 (a date rounds up, so 1-2 s)


def test_5xx_retried_with_exponential_backoff_then_gives_up_clearly(sec, tmp_path):
    sec.fail(FACTS, "500", "503")
    assert client(sec, tmp_path).companyfacts(42)[0]["cik"] == 42
    sec.log.clear()
    sec.fail(FACTS, "500*")
    with pytest.raises(FetchError, match=r"gave up after 4 attempts; last: HTTP 500"):
        retrying = client(sec, tmp_path, retries=3, backoff=0.1)
        times = record_sends(retrying)
        retrying.companyfacts(42)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(times) == 4
    assert gaps[2] > gaps[0] and gaps[2] >= 0.2  # 0.1 * 2**2 * jitter(0.5..1)


def test_not_found_is_not_retried(sec, tmp_path):
    with pytest.raises(FetchError) as info:
        client(sec, tmp_path).companyfacts(7)
    assert info.value.status == 404 and "CIK0000000007.json" in str(info.value)
    assert len(sec.log) == 1


@pytest.mark.parametrize("fault", ["truncate", "drop", "slow:1.5"])
def test_broken_or_slow_responses_are_retried(sec, tmp_path, fault):
    sec.fail(FACTS, fault)
    data, cached = client(sec, tmp_path, timeout=(2.0, 0.5)).companyfacts(42)
    assert data["cik"] == 42 and cached.read_bytes() == BODY
    assert [e.fault for e in sec.requests_to(FACTS)] == [fault.split(":")[0], None]


def test_malformed_json_is_kept_and_fetched_again(sec, tmp_path):
    sec.fail(FACTS, "malformed")
    data, cached = client(sec, tmp_path).companyfacts(42)
    assert data["cik"] == 42
    kept = list(cached.parent.glob(cached.name + ".bad-*"))
    assert len(kept) == 1 and BODY.startswith(kept[0].read_bytes())  # the broken payload, not lost


def test_persistently_malformed_json_fails_naming_the_kept_payload(sec, tmp_path):
    sec.fail(FACTS, "malformed*")
    with pytest.raises(FetchError, match="malformed JSON.*payload kept in") as info:
        client(sec, tmp_path).companyfacts(42)
    kept = list((tmp_path / "cache" / "api/xbrl/companyfacts").glob("*.bad-*"))
    assert len(kept) == 3 and all(str(k) in str(info.value) for k in kept)


def test_offline_replays_the_cache_without_the_network(sec, tmp_path):
    online = client(sec, tmp_path).companyfacts(42)[0]
    sec.stop()
    offline = SecClient(cache_dir=tmp_path / "cache", offline=True)
    assert offline.companyfacts(42)[0] == online
    with pytest.raises(FetchError, match="not in the cache"):
        offline.companyfacts(7)


def test_never_more_than_ten_requests_in_any_second(sec, tmp_path):
    c = client(sec, tmp_path)
    sent = record_sends(c)
    for _ in range(32):
        c.get(FACTS)
    assert len(sec.log) == 32 and most_in_window(sent, 1.0) <= 10
    assert sent[-1] - sent[0] >= 3.0  # 32 requests need more than three windows


def test_the_request_log_would_catch_a_client_that_ignores_the_limit(sec, tmp_path):
    c = client(sec, tmp_path)
    c.limiter = Throttle(RateLimiter(1000), 1000)  # a window of its own, not the process's
    sent = record_sends(c)
    for _ in range(32):
        c.get(FACTS)
    assert most_in_window(sent, 1.0) > 10


def test_rate_limiter_is_a_sliding_window():
    now = [0.0]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s

    limiter = RateLimiter(3, 1.0, margin=0.0, clock=lambda: now[0], sleep=sleep)
    sent = []
    for _ in range(7):
        limiter.wait()
        sent.append(now[0])
        now[0] += 0.01
    assert sent[:3] == [0.0, 0.01, 0.02]
    assert all(b - a >= 1.0 - 1e-9 for a, b in zip(sent, sent[3:], strict=False))


def test_retry_after_reads_seconds_and_dates():
    assert retry_after("3") == 3.0
    assert retry_after(None) is None and retry_after("soon") is None
    assert retry_after("Thu, 01 Jan 1970 00:00:00 GMT") == 0.0


def test_paths_from_sec_json_cannot_escape_the_cache():
    assert safe_path("/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm")
    for bad in ("/Archives/../../etc/passwd", "/a//b", "/a/.hidden"):
        with pytest.raises(FactstoreError, match="unexpected SEC path"):
            safe_path(bad)


def test_companyconcept_and_frames_use_the_secs_paths(sec, tmp_path):
    concept = "/api/xbrl/companyconcept/CIK0000000042/us-gaap/Revenues.json"
    frame = "/api/xbrl/frames/us-gaap/Revenues/USD/CY2019Q1.json"
    sec.add(concept, b'{"cik": 42, "tag": "Revenues", "units": {}}')
    sec.add(frame, b'{"ccp": "CY2019Q1", "data": []}')
    c = client(sec, tmp_path)
    assert c.companyconcept(42, "us-gaap", "Revenues")[0]["tag"] == "Revenues"
    assert c.frames("us-gaap", "Revenues", "USD", "CY2019Q1")[0]["ccp"] == "CY2019Q1"


def test_tickers_resolve_to_ciks_from_company_tickers_json(sec, tmp_path):
    sec.add("/files/company_tickers.json", b'{"0": {"cik_str": 42, "ticker": "TST", "title": "Test Co"}}')
    c = client(sec, tmp_path)
    assert (c.cik("tst"), c.cik("0000000042"), c.cik(42)) == (42, 42, 42)
    with pytest.raises(FactstoreError, match="unknown ticker 'NOPE'"):
        c.cik("NOPE")
    assert len(sec.requests_to("/files/company_tickers.json")) == 1


@given(gaps=st.lists(st.floats(min_value=0, max_value=0.3), min_size=1, max_size=60),
       rate=st.integers(min_value=1, max_value=12))
@settings(max_examples=200, deadline=None)
def test_no_window_ever_holds_more_than_the_rate(gaps, rate):
    """However requests arrive, any half-open window of one second sees at most `rate` of them sent."""
    now = [0.0]

    def sleep(s: float) -> None:
        now[0] += s

    limiter = RateLimiter(rate, 1.0, margin=0.0, clock=lambda: now[0], sleep=sleep)
    sent = []
    for gap in gaps:
        now[0] += gap
        limiter.wait()
        sent.append(now[0])
    assert all(sum(t <= s < t + 1.0 - 1e-9 for s in sent) <= rate for t in sent)


def test_a_download_is_kept_only_when_whole(sec, tmp_path):
    path = "/Archives/edgar/daily-index/xbrl/companyfacts.zip"
    sec.add(path, b"PK" + bytes(range(256)) * 40)
    sec.fail(path, "truncate*")
    with pytest.raises(FetchError, match="download broke off.*after 3 attempts"):
        client(sec, tmp_path, retries=2).download(path, progress=False)
    assert not any(p.is_file() for p in (tmp_path / "cache").rglob("*"))  # neither the file nor a partial copy


def test_a_retry_after_longer_than_max_wait_fails_at_once_saying_so(sec, tmp_path):
    sec.fail(FACTS, "429:ra=600")
    with pytest.raises(FetchError, match="asks to wait 600 s, more than max_wait=30 s"):
        client(sec, tmp_path, max_wait=30).companyfacts(42)
    assert len(sec.log) == 1


def test_clients_in_one_process_share_one_window(sec, tmp_path):
    first, second = client(sec, tmp_path / "a"), client(sec, tmp_path / "b")
    assert first.limiter.limiter is second.limiter.limiter
    sent = {c: record_sends(c) for c in (first, second)}
    for _ in range(12):
        first.get(FACTS)
        second.get(FACTS)
    assert len(sec.log) == 24 and most_in_window(sent[first] + sent[second], 1.0) <= 10


@pytest.mark.slow
def test_clients_of_different_rates_still_share_ten_a_second(sec, tmp_path):
    """A default client and one allowed 9 a second sent 19 requests in one second when each rate had a
    window of its own; with a third allowed 3, together they keep to 10, and each to its own rate."""
    paths = {10: FACTS, 9: "/submissions/CIK0000000042.json", 3: "/api/xbrl/companyconcept/CIK0000000042/x/y.json"}
    sec.add(paths[3], b"{}")
    clients = {rate: client(sec, tmp_path / str(rate), max_per_second=rate) for rate in paths}
    sent = {rate: record_sends(c) for rate, c in clients.items()}
    threads = [threading.Thread(target=lambda rate=rate, n=n: [clients[rate].get(paths[rate]) for _ in range(n)])
               for rate, n in ((10, 5), (9, 5), (3, 8))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(sec.log) == 18 and most_in_window([t for times in sent.values() for t in times], 1.0) <= 10
    for rate, times in sent.items():
        assert most_in_window(times, 1.0) <= rate, rate


@given(rates=st.lists(st.integers(1, 14), min_size=1, max_size=4),
       arrivals=st.lists(st.tuples(st.integers(0, 3), st.floats(0, 0.3)), min_size=1, max_size=80))
@example(rates=[10, 9], arrivals=[(i % 2, 0.0) for i in range(40)])  # the default and a 9-a-second client
@settings(max_examples=200, deadline=None)
def test_callers_of_any_rates_keep_their_own_and_the_shared_limit(rates, arrivals):
    """However callers of whatever rates take turns, any window of one second holds at most 10 requests
    in all and at most min(rate, 10) of each caller's."""
    now = [0.0]

    def sleep(s: float) -> None:
        now[0] += s

    window = RateLimiter(10, 1.0, margin=0.0, clock=lambda: now[0], sleep=sleep)
    callers = [Throttle(window, rate) for rate in rates]
    sent: list[tuple[float, int]] = []
    for who, gap in arrivals:
        who %= len(callers)
        now[0] += gap
        callers[who].wait()
        sent.append((now[0], who))

    def most_in_a_window(times: list[float]) -> int:
        return max((sum(t <= s < t + 1.0 - 1e-9 for s in times) for t in times), default=0)

    assert most_in_a_window([t for t, _ in sent]) <= 10
    for who, rate in enumerate(rates):
        assert most_in_a_window([t for t, w in sent if w == who]) <= min(rate, 10)


# ------------------------------------------------------------------------------ payload identity and redirects
OTHER = json.dumps({"cik": 320193, "entityName": "Apple Inc.", "facts": {}}).encode()


@pytest.mark.parametrize(("path", "body", "call"), [
    (FACTS, OTHER, lambda c: c.companyfacts(42)),
    ("/submissions/CIK0000000042.json", b'{"cik": "0000320193", "filings": {"recent": {}}}',
     lambda c: c.submissions(42)),
    ("/api/xbrl/companyconcept/CIK0000000042/us-gaap/Revenues.json", b'{"tag": "Revenues", "units": {}}',
     lambda c: c.companyconcept(42, "us-gaap", "Revenues")),
])
def test_another_companys_payload_is_refused_and_never_cached_as_the_asked_one(sec, tmp_path, path, body, call):
    sec.add(path, body)
    c = client(sec, tmp_path)
    with pytest.raises(FetchError, match=r"not CIK 42's \(its cik is .*\); kept aside in .*\.bad-") as raised:
        call(c)
    assert path in raised.value.url
    assert c.cache.read(path) is None  # the next call asks the SEC again
    kept = list(c.cache.path_for(path).parent.glob(Path(path).name + ".bad-*"))
    assert [k.read_bytes() for k in kept] == [body]
    offline = SecClient(cache_dir=tmp_path / "cache", offline=True)
    with pytest.raises(FetchError, match="not in the cache"):
        call(offline)


def test_a_redirect_on_the_configured_host_is_followed_through_the_rate_limiter(sec, tmp_path):
    sec.fail(FACTS, "redirect:/moved/CIK0000000042.json")
    sec.add("/moved/CIK0000000042.json", BODY)
    c = client(sec, tmp_path)
    sent = record_sends(c)
    data, cached = c.companyfacts(42)
    assert data["entityName"] == "Test Co" and cached == c.cache.path_for(FACTS)
    assert [e.path for e in sec.log] == [FACTS, "/moved/CIK0000000042.json"] and len(sent) == 2
    assert all(e.user_agent == UA for e in sec.log)


def test_a_redirect_to_another_host_is_refused_and_sends_that_host_nothing(sec, tmp_path):
    with SecServer({FACTS: OTHER}) as elsewhere:
        sec.fail(FACTS, f"redirect:{elsewhere.url}{FACTS}*")
        c = client(sec, tmp_path)
        with pytest.raises(FetchError, match=f"redirected to {elsewhere.url}{FACTS}, outside {sec.url}: not followed"):
            c.companyfacts(42)
        assert elsewhere.log == [] and c.cache.read(FACTS) is None


def test_an_endless_redirect_stops_after_five_hops_each_within_the_rate(sec, tmp_path):
    sec.fail(FACTS, f"redirect:{FACTS}*")
    c = client(sec, tmp_path, max_per_second=3)
    sent = record_sends(c)
    with pytest.raises(FetchError, match="more than 5 redirects: not followed"):
        c.companyfacts(42)
    assert len(sent) == len(sec.log) == 6  # the request and its five hops, then no retry
    assert most_in_window(sent, 1.0) <= 3


# ------------------------------------------------------------------------------ bodies whole, or fetched again
DOC = "/Archives/edgar/data/42/000000004224000001/doc-20231231.htm"
HTML = b"<html><body><h2>Item 1A. Risk Factors</h2><p>" + b"Supply chains may fail. " * 400 + b"</p></body></html>\n"


@pytest.mark.parametrize("fault", ["errorpage", "gzipcut", "truncate"])
def test_a_cut_or_throttled_body_is_fetched_again_and_never_cached(sec, tmp_path, fault):
    sec.add(DOC, HTML)
    sec.fail(DOC, fault)
    c = client(sec, tmp_path)
    assert c.document(42, "0000000042-24-000001", "doc-20231231.htm")[0] == HTML
    assert [e.fault for e in sec.requests_to(DOC)] == [fault, None]
    assert c.cache.read(DOC) == HTML


@pytest.mark.parametrize(("fault", "says"), [("errorpage", "the SEC's rate-limit page, sent with status 200"),
                                             ("gzipcut", "the gzip stream stops before its end"),
                                             ("truncate", "ProtocolError")])
def test_a_body_that_stays_cut_is_a_fetch_error_and_nothing_is_cached(sec, tmp_path, fault, says):
    sec.add(DOC, HTML)
    sec.fail(DOC, f"{fault}*")
    c = client(sec, tmp_path, retries=2)
    with pytest.raises(FetchError, match=f"gave up after 3 attempts; last: .*{says}"):
        c.document(42, "0000000042-24-000001", "doc-20231231.htm")
    assert c.cache.read(DOC) is None and not c.cache.path_for(DOC).parent.exists()


def test_a_gzip_body_is_unpacked_and_every_body_read_whole_keeps_the_connection_alive(sec, tmp_path):
    sec.add(DOC, HTML)
    sec.fail(DOC, "gzip")
    c = client(sec, tmp_path)
    assert c.get(DOC, "www")[0] == HTML and c.cache.read(DOC) == HTML
    assert c.get(FACTS)[0] == BODY and c.get("/submissions/CIK0000000042.json")[0].startswith(b'{"cik": "42"')
    assert [e.fault for e in sec.log] == ["gzip", None, None] and sec.connections == 1


def test_a_document_without_its_closing_tag_is_kept_aside_and_asked_for_again(sec, tmp_path):
    cut = HTML[: len(HTML) * 6 // 10]  # whole as far as HTTP goes: its Content-Length is its own
    sec.add(DOC, cut)
    c = client(sec, tmp_path)
    with pytest.raises(FetchError, match=r"the document is cut short \(it does not end with its closing tag\); "
                                         r"kept aside in .*doc-20231231\.htm\.bad-"):
        c.document(42, "0000000042-24-000001", "doc-20231231.htm")
    assert c.cache.read(DOC) is None
    sec.add(DOC, HTML)
    assert c.document(42, "0000000042-24-000001", "doc-20231231.htm")[0] == HTML
    assert len(sec.requests_to(DOC)) == 2


def test_a_server_trickling_bytes_is_given_up_at_the_deadline(sec, tmp_path):
    """One byte every 0.2 s never trips the read timeout; the wall-clock deadline ends the request, retries and
    all, and nothing is cached."""
    import time

    sec.fail(FACTS, "trickle:0.2*")
    c = client(sec, tmp_path, deadline=1.0)
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"no whole answer within the deadline of 1 s; last: _ShortBody: still "
                                         r"arriving at the deadline"):
        c.companyfacts(42)
    assert time.monotonic() - started < 3 and c.cache.read(FACTS) is None


def test_a_gzip_bomb_is_refused_once_it_unpacks_past_the_cap(sec, tmp_path, monkeypatch):
    """The ratio cap, with its floor lowered to 1 MiB so that a 4 MiB body of zeros (packed ~4 KiB) trips it."""
    from factstore import limits

    monkeypatch.setattr(limits, "RATIO_FLOOR", 1 << 20)
    sec.add(DOC, bytes(4 << 20))
    sec.fail(DOC, "gzip*")
    c = client(sec, tmp_path)
    with pytest.raises(FetchError, match=r"refused: it unpacks to more than 200 times its [\d,]+ packed bytes"):
        c.document(42, "0000000042-24-000001", "doc-20231231.htm")
    assert len(sec.requests_to(DOC)) == 1 and c.cache.read(DOC) is None  # not retried, nothing kept
    monkeypatch.setattr(limits, "MAX_UNPACKED", 1 << 20)
    monkeypatch.setattr(limits, "RATIO_FLOOR", 8 << 20)
    with pytest.raises(FetchError, match=r"refused: it unpacks past 1,048,576 bytes"):
        c.document(42, "0000000042-24-000001", "doc-20231231.htm")
