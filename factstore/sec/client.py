"""A client for the SEC's EDGAR APIs that keeps the SEC's fair-access rules and every payload it receives.

data.sec.gov serves companyfacts, submissions, companyconcept and frames; www.sec.gov serves the archives
(filing documents, bulk zips) and company_tickers.json. A base URL (for tests and mirrors) replaces the
scheme and host of both, keeping the SEC's paths.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urljoin, urlsplit

import orjson
import requests
from requests.adapters import HTTPAdapter
from urllib3 import HTTPConnectionPool, HTTPSConnectionPool, ProxyManager
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError as Urllib3Error

from factstore import limits
from factstore.errors import FactstoreError, LoadError
from factstore.progress import progress_bar
from factstore.sec.cache import ResponseCache, safe_path
from factstore.sec.throttle import RateLimiter

DATA_HOST = "https://data.sec.gov"
WWW_HOST = "https://www.sec.gov"
USER_AGENT_ENV = "FACTSTORE_USER_AGENT"
BASE_URL_ENV = "FACTSTORE_SEC_BASE_URL"
CACHE_ENV = "FACTSTORE_SEC_CACHE"
DEFAULT_CACHE = "sec-cache"
RETRY_STATUS = {429, 500, 502, 503, 504}
REDIRECT_STATUS = {301, 302, 303, 307, 308}
MAX_REDIRECTS = 5  # hops a request may take, each through the rate limiter
TRANSIENT = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError,
             requests.exceptions.ContentDecodingError, Urllib3Error)
# the pages the SEC sends with status 200 when it throttles a client: a wait and a retry, never a payload
ERROR_PAGES = (b"Request Rate Threshold Exceeded", b"Undeclared Automated Tool")
# a document is whole when it ends with its closing tag (an HTML page, an XBRL instance, a full submission)
CLOSING_TAG = {".htm": rb"</html\s*>", ".html": rb"</html\s*>", ".xml": rb"</[\w:.-]+\s*>",
               ".txt": rb"</SEC-DOCUMENT\s*>"}
T = TypeVar("T")
_HEADERS_BY = threading.local()  # .until: the time.monotonic() by which this thread's response has its headers


class FetchError(FactstoreError):
    """A request that failed for good (after retries), or a payload that is not what the SEC serves."""

    def __init__(self, url: str, message: str, *, status: int | None = None) -> None:
        self.url, self.status = url, status
        super().__init__(f"{url}: {message}")


class _HeadersByDeadline:
    """A connection whose response's status line and headers must arrive by the deadline of the thread asking
    (_HEADERS_BY): then its socket is shut down, so a server trickling them is not waited for, and the request
    fails as timed out (a transient failure: retried while the deadline allows)."""

    sock: socket.socket | None

    def getresponse(self) -> Any:
        until = getattr(_HEADERS_BY, "until", None)
        if until is None or self.sock is None:
            return super().getresponse()  # type: ignore[misc]
        sock, late = self.sock, threading.Event()

        def stop() -> None:
            late.set()
            with contextlib.suppress(OSError):  # closed already
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's, under TLS too

        timer = threading.Timer(max(0.0, until - time.monotonic()), stop)
        timer.daemon = True
        timer.start()
        try:
            response = super().getresponse()  # type: ignore[misc]
        except Exception:
            if late.is_set():
                raise TimeoutError("no status line and headers within the deadline") from None
            raise
        finally:
            timer.cancel()
        if late.is_set():  # the headers ended at the shutdown: not whole
            response.close()
            raise TimeoutError("no status line and headers within the deadline")
        return response


class _Http(_HeadersByDeadline, HTTPConnection):
    pass


class _Https(_HeadersByDeadline, HTTPSConnection):
    pass


class _HttpPool(HTTPConnectionPool):
    ConnectionCls = _Http


class _HttpsPool(HTTPSConnectionPool):
    ConnectionCls = _Https


_POOLS = {"http": _HttpPool, "https": _HttpsPool}


class _Adapter(HTTPAdapter):
    """requests' adapter, its connections (through a plain HTTP proxy too) keeping the deadline on headers."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _POOLS

    def proxy_manager_for(self, proxy: str, **kwargs: Any) -> Any:
        manager = super().proxy_manager_for(proxy, **kwargs)
        if type(manager) is ProxyManager:  # a SOCKS proxy's manager has pools of its own
            manager.pool_classes_by_scheme = _POOLS
        return manager


def cik_path(cik: int) -> str:
    return f"CIK{cik:010d}.json"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def retry_after(value: str | None) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP-date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class SecClient:
    """Fetches from the SEC: a declared User-Agent, at most `max_per_second` requests, retries with
    exponential backoff on 429, 5xx and broken connections (honouring Retry-After), a timeout on every
    request, a wall-clock `deadline` on each payload read whole, from the request to its last byte (a server
    trickling its headers or body never holds it longer; a download's headers too), and each raw payload written to
    the cache before it is parsed. `offline=True` replays the cache without the network. A `session` given keeps
    its own adapters, so the deadline does not cover its headers."""

    def __init__(self, user_agent: str | None = None, *, base_url: str | None = None,
                 cache_dir: str | Path | None = None, offline: bool = False, max_per_second: int = 10,
                 timeout: float | tuple[float, float] = (10.0, 60.0), retries: int = 5, backoff: float = 1.0,
                 max_wait: float = 120.0, deadline: float = 300.0, session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        user_agent = user_agent or os.environ.get(USER_AGENT_ENV)
        if not offline and (not user_agent or "@" not in user_agent):
            raise FactstoreError(
                "the SEC requires a User-Agent that names you and a contact address, e.g. "
                f"'Jane Doe jane@example.com': pass --user-agent or set {USER_AGENT_ENV}")
        base_url = base_url or os.environ.get(BASE_URL_ENV)
        if base_url:
            parts = urlsplit(base_url)
            if parts.scheme not in {"http", "https"} or not parts.netloc or parts.path.strip("/"):
                raise FactstoreError(f"base URL {base_url!r}: give scheme and host only, e.g. http://127.0.0.1:8000")
            base_url = f"{parts.scheme}://{parts.netloc}"
        self.hosts = {"data": base_url or DATA_HOST, "www": base_url or WWW_HOST}
        self.cache = ResponseCache(cache_dir or os.environ.get(CACHE_ENV) or DEFAULT_CACHE)
        self.offline = offline
        self.limiter = RateLimiter.shared(max_per_second)  # one window for every client in the process
        self.timeout, self.retries, self.backoff, self.max_wait = timeout, retries, backoff, max_wait
        self.deadline = deadline  # wall-clock seconds for a payload read whole, every attempt and hop included
        if session is None:
            session = requests.Session()
            for prefix in ("https://", "http://"):
                session.mount(prefix, _Adapter())
        self.session = session
        self.session.headers.update({"User-Agent": user_agent or "", "Accept-Encoding": "gzip, deflate"})
        self._sleep = sleep
        self._tickers: dict[str, int] | None = None

    # ----------------------------------------------------------------- transport
    def url(self, path: str, host: str = "data") -> str:
        return self.hosts[host] + safe_path(path)

    def _send(self, url: str, read: Callable[[requests.Response], T], until: float | None = None) -> T:
        """One GET, retried on 429, 5xx, the SEC's throttling page and broken or short responses; `read` takes
        the response (a body read whole, or the response itself to stream) and raises _ShortBody when it is cut.
        Past `until` (time.monotonic()), no attempt is made or waited for."""
        problem = ""
        for attempt in range(self.retries + 1):
            if until is not None and time.monotonic() >= until:
                raise FetchError(url, f"no whole answer within the deadline of {self.deadline:.0f} s"
                                      f"{f'; last: {problem}' if problem else ''}")
            wait = self.backoff * 2 ** attempt * random.uniform(0.5, 1.0)
            try:
                response = self._follow(url, until if until is not None else time.monotonic() + self.deadline)
                if response.status_code == 200:
                    return read(response)
            except (*TRANSIENT, _ShortBody) as exc:
                problem = f"{type(exc).__name__}: {exc}"
            else:
                response.close()
                if response.status_code not in RETRY_STATUS:
                    hint = " (is the User-Agent accepted?)" if response.status_code == 403 else ""
                    raise FetchError(url, f"HTTP {response.status_code}{hint}", status=response.status_code)
                problem = f"HTTP {response.status_code}"
                asked = retry_after(response.headers.get("Retry-After"))
                if asked is not None:
                    if asked > self.max_wait:
                        raise FetchError(url, f"{problem}; the server asks to wait {asked:.0f} s, "
                                              f"more than max_wait={self.max_wait:.0f} s", status=response.status_code)
                    wait = max(wait, asked)
            if attempt < self.retries:
                left = until - time.monotonic() if until is not None else wait
                self._sleep(max(0.0, min(wait, self.max_wait, left)))
        raise FetchError(url, f"gave up after {self.retries + 1} attempts; last: {problem}")

    def _follow(self, url: str, until: float) -> requests.Response:
        """One GET with its redirects followed by hand: each hop waits its turn in the rate limiter, goes only to
        the configured hosts (the User-Agent is never sent elsewhere), and there are at most MAX_REDIRECTS; each
        response's headers arrive before `until` (time.monotonic()) or it is a timeout."""
        for _ in range(MAX_REDIRECTS + 1):
            self.limiter.wait()
            _HEADERS_BY.until = until
            try:
                response = self.session.get(url, timeout=self.timeout, stream=True, allow_redirects=False)
            finally:
                _HEADERS_BY.until = None
            if response.status_code not in REDIRECT_STATUS:
                return response
            response.close()
            target = urljoin(url, response.headers.get("Location", ""))
            if _origin(target) not in {_origin(h) for h in self.hosts.values()}:
                raise FetchError(url, f"redirected to {target}, outside {', '.join(sorted(set(self.hosts.values())))}:"
                                      " not followed", status=response.status_code)
            url = target
        raise FetchError(url, f"more than {MAX_REDIRECTS} redirects: not followed", status=response.status_code)

    def _company_json(self, path: str, cik: int) -> tuple[dict[str, Any], Path]:
        """A company's JSON (companyfacts, submissions, companyconcept), refused unless it names that company's
        CIK: another company's payload is moved aside, never cached as this one's."""
        data, cached = self.get_json(path)
        given = data.get("cik")
        if not (isinstance(given, int | str) and str(given).strip().isdigit() and int(given) == cik):
            kept = self.cache.quarantine(path)
            raise FetchError(self.url(path), f"the payload is not CIK {cik}'s (its cik is {given!r}); kept aside "
                                             f"in {kept}")
        return data, cached

    def _replay(self, path: str, host: str) -> Path:
        """The cached copy of a payload, for a client that sends nothing."""
        cached = self.cache.path_for(path)
        if not cached.is_file():
            raise FetchError(self.url(path, host), f"not in the cache ({cached}) and offline")
        return cached

    def get(self, path: str, host: str = "data", *, fresh: bool = True) -> tuple[bytes, Path]:
        """A payload and its cache file: fetched (and cached) when `fresh`, else from the cache when there."""
        if self.offline:
            cached = self._replay(path, host)
            return cached.read_bytes(), cached
        if not fresh and (body := self.cache.read(path)) is not None:
            return body, self.cache.path_for(path)
        url = self.url(path, host)
        until = time.monotonic() + self.deadline
        body = self._send(url, lambda response: _whole_body(response, until), until)
        return body, self.cache.write(path, body, url)

    def get_json(self, path: str, host: str = "data", *, fresh: bool = True) -> tuple[dict[str, Any], Path]:
        """A JSON object and its cache file. A payload that does not parse is kept aside and fetched again;
        when it keeps failing, the error names the kept file."""
        kept: list[Path] = []
        problem = "in the cache"
        for _ in range(3):
            body, cached = self.get(path, host, fresh=fresh or bool(kept))
            try:
                parsed = orjson.loads(body)
            except orjson.JSONDecodeError as exc:
                kept.append(self.cache.quarantine(path))
                if self.offline:
                    break
                problem = str(exc)
                self._sleep(self.backoff)
                continue
            if not isinstance(parsed, dict):
                raise FetchError(self.url(path, host), f"expected a JSON object; payload in {cached}")
            return parsed, cached
        raise FetchError(self.url(path, host), f"malformed JSON ({problem}); payload kept in "
                                               f"{', '.join(map(str, kept))}")

    def download(self, path: str, host: str = "www", *, progress: bool | None = None) -> Path:
        """A large file (a bulk zip) streamed into the cache with a progress bar, kept only when whole;
        the cached copy when offline."""
        if self.offline:
            return self._replay(path, host)
        target = self.cache.path_for(path)
        url = self.url(path, host)
        partial = target.with_name(f".{target.name}.{os.getpid()}.part")
        partial.parent.mkdir(parents=True, exist_ok=True)
        problem = ""
        for _ in range(self.retries + 1):
            response = self._send(url, lambda r: r)
            size = int(response.headers.get("Content-Length") or 0) or None
            try:
                with partial.open("wb") as out, progress_bar(total=size, unit="B", unit_scale=True,
                                                             desc=target.name, progress=progress) as bar:
                    for block in response.iter_content(1 << 20):
                        out.write(block)
                        bar.update(len(block))
                got = partial.stat().st_size
                if size is None or got == size or response.headers.get("Content-Encoding"):
                    os.replace(partial, target)
                    return target
                problem = f"ended at {got} of {size} bytes"
            except TRANSIENT as exc:
                problem = f"broke off: {exc}"
            partial.unlink(missing_ok=True)
        raise FetchError(url, f"download {problem} after {self.retries + 1} attempts")

    # ----------------------------------------------------------------- endpoints
    def tickers(self) -> dict[str, int]:
        """Ticker → CIK, from www.sec.gov/files/company_tickers.json (fetched once per client)."""
        if self._tickers is None:
            data, _ = self.get_json("/files/company_tickers.json", "www")
            self._tickers = {str(row["ticker"]).upper(): int(row["cik_str"]) for row in data.values()}
        return self._tickers

    def cik(self, company: str | int) -> int:
        """The CIK of a ticker, or of a CIK given as a number or digits."""
        text = str(company).strip()
        if text.isdigit():
            return int(text)
        try:
            return self.tickers()[text.upper()]
        except KeyError:
            raise FactstoreError(f"unknown ticker {company!r}: not in the SEC's company_tickers.json") from None

    def companyfacts(self, cik: int) -> tuple[dict[str, Any], Path]:
        """Every XBRL fact the company filed: /api/xbrl/companyfacts/CIK##########.json."""
        return self._company_json(f"/api/xbrl/companyfacts/{cik_path(cik)}", cik)

    def submissions(self, cik: int) -> list[Path]:
        """The company's submissions JSON and its paged older files, as cache files. A paged file the server
        does not have (404, or not cached when offline) is left out: those filings fall back to their
        filing date."""
        data, main = self._company_json(f"/submissions/{cik_path(cik)}", cik)
        paths = [main]
        for page in data.get("filings", {}).get("files", []):
            try:
                paths.append(self.get_json(f"/submissions/{page['name']}", fresh=False)[1])
            except FetchError as exc:
                if exc.status != 404 and not self.offline:
                    raise
        return paths

    def companyconcept(self, cik: int, taxonomy: str, tag: str) -> tuple[dict[str, Any], Path]:
        """Every value of one concept: /api/xbrl/companyconcept/CIK##########/{taxonomy}/{tag}.json."""
        return self._company_json(f"/api/xbrl/companyconcept/CIK{cik:010d}/{taxonomy}/{tag}.json", cik)

    def frames(self, taxonomy: str, tag: str, unit: str, period: str) -> tuple[dict[str, Any], Path]:
        """One value per company for a calendar period: /api/xbrl/frames/{taxonomy}/{tag}/{unit}/{period}.json."""
        return self.get_json(f"/api/xbrl/frames/{taxonomy}/{tag}/{unit}/{period}.json")

    def xbrl_feed(self, month: str) -> tuple[bytes, Path]:
        """A month's EDGAR XBRL feed archive, /Archives/edgar/monthly/xbrlrss-YYYY-MM.xml (a month past for five
        weeks is final: its cached copy is used as it is)."""
        path = f"/Archives/edgar/monthly/xbrlrss-{month}.xml"
        settled = f"{datetime.now(UTC) - timedelta(days=35):%Y-%m}"
        return self.get(path, "www", fresh=month >= settled)

    def document(self, cik: int, accession: str, name: str) -> tuple[bytes, Path]:
        """A filing's document from the archives (immutable, so a cached copy is used as is). One that does not end
        with its closing tag is moved aside and refused, so that the next fetch or update asks for it again."""
        path = f"/Archives/edgar/data/{cik}/{accession.replace('-', '')}/{name}"
        body, cached = self.get(path, "www", fresh=False)
        if not whole_document(name, body):
            kept = self.cache.quarantine(path)
            raise FetchError(self.url(path, "www"), f"the document is cut short (it does not end with its closing "
                                                    f"tag); kept aside in {kept}")
        return body, cached


class _ShortBody(Exception):
    """A body cut short (by its Content-Length, or a compressed stream that does not end), or the SEC's throttling
    page sent with status 200."""


def _whole_body(response: requests.Response, until: float) -> bytes:
    """The body read whole before `until` (time.monotonic()): as many bytes as its Content-Length, a gzip or deflate
    stream that reaches its end (unpacked a block at a time, never past the caps of factstore.limits), and not one
    of the SEC's error pages."""
    blocks, got = [], 0
    try:
        while block := response.raw.read1(1 << 16, decode_content=False):  # what has arrived, up to 64 KiB
            blocks.append(block)
            got += len(block)
            if time.monotonic() > until:
                raise _ShortBody(f"still arriving at the deadline ({got} bytes)")
            if why := limits.too_big(got, got):
                raise FetchError(response.url, f"refused: {why}")
        raw = b"".join(blocks)
    finally:
        response.close()  # a body read to its end has given its connection back to the pool: it stays alive
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and len(raw) != int(declared):
        raise _ShortBody(f"got {len(raw)} of {declared} bytes")
    encoding = response.headers.get("Content-Encoding", "").strip().lower()
    if encoding in ("gzip", "deflate"):
        try:
            body, ended = limits.inflate(raw, 31 if encoding == "gzip" else 15, response.url)
        except zlib.error as exc:
            raise _ShortBody(f"a corrupt {encoding} stream: {exc}") from None
        except LoadError as exc:  # past the caps
            raise FetchError(response.url, exc.reason) from None
        if not ended:
            raise _ShortBody(f"the {encoding} stream stops before its end ({len(raw)} bytes)")
    elif encoding in ("", "identity"):
        body = raw
    else:
        raise _ShortBody(f"an encoding the client did not ask for: {encoding}")
    if len(body) < 50_000 and any(page in body for page in ERROR_PAGES):
        raise _ShortBody("the SEC's rate-limit page, sent with status 200")
    return body


def whole_document(name: str, body: bytes) -> bool:
    """Whether a filing document ends with its closing tag (a name of another kind is taken as it is)."""
    tag = CLOSING_TAG.get(Path(name).suffix.lower())
    return tag is None or re.search(tag + rb"\s*\Z", body[-4096:], re.IGNORECASE) is not None
