"""A local stand-in for the SEC (data.sec.gov and www.sec.gov) for tests: recorded files plus injected faults.

The server listens on 127.0.0.1 (ephemeral port) and serves bodies at exactly the SEC's paths.  Faults are queued
per path with :meth:`SecServer.fail` and consumed one per request; every GET is recorded in :attr:`SecServer.log`
so tests can check fair-access behaviour (user agent, request rate, back-off after 429/5xx).

Fault syntax (``name[:arg][*]``; a trailing ``*`` makes the fault permanent instead of one-shot):

- ``"429"`` / ``"500"`` / ``"503"`` / ``"404"``: that status with a small JSON body.  ``"429"`` carries
  ``Retry-After: 1``; ``"429:ra=2"`` sends ``Retry-After: 2``; ``"429:ra=date"`` sends an HTTP-date about 1 s
  ahead (rounded up to the next whole second, so 1-2 s).  ``ra=`` also works on 500/503/404.
- ``"slow:S"``: sleep S seconds, then serve normally.
- ``"truncate"``: status 200 with the full Content-Length, about half the body, then the connection is closed.
- ``"malformed"``: status 200 with the body cut in half (not valid JSON); Content-Length matches what is sent.
- ``"drop"``: close the connection without sending any response.
- ``"trickle:S"``: status 200 with the full Content-Length, then the body one byte every S seconds (slow-loris).
- ``"errorpage"``: status 200 with the SEC's "Request Rate Threshold Exceeded" page (as the SEC throttles).
- ``"gzip"``: status 200, the body gzipped, with ``Content-Encoding: gzip``.
- ``"gzipcut"``: status 200, ``Content-Encoding: gzip``, the gzipped body cut at 60% (its Content-Length matches
  what is sent: only the gzip stream tells that it is cut).
- ``"redirect:LOCATION"``: status 302 with ``Location: LOCATION`` (a path on this server, or a URL of another host);
  ``"redirect:/same/path*"`` redirects forever.
"""

from __future__ import annotations

import contextlib
import email.utils
import gzip
import json
import math
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any

STATUS_FAULTS = {"429", "500", "503", "404"}
FAULT_NAMES = STATUS_FAULTS | {"slow", "truncate", "malformed", "drop", "redirect", "errorpage", "gzip",
                             "gzipcut", "trickle"}
# what www.sec.gov sends, with status 200, to a client over its rate (abridged)
SEC_ERROR_PAGE = (b"<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>"
                  b"<h1>Your Request Originates from an Undeclared Automated Tool</h1><p>To allow for equitable access "
                  b"to all users, SEC reserves the right to limit requests originating from undeclared automated "
                  b"tools.</p></body></html>")
# Used by "truncate"/"malformed" when the path has no (or an empty) body of its own.
FILLER = json.dumps({"filler": "x" * 1024}).encode()

CONTENT_TYPES = {
    ".json": "application/json",
    ".htm": "text/html",
    ".html": "text/html",
    ".zip": "application/zip",
}


@dataclass
class Logged:
    """One request as the server saw it."""

    time: float  # time.monotonic() when the request arrived (before any fault/sleep)
    method: str
    path: str  # path including query string
    status: int  # status sent (0 if the connection was dropped before a status)
    user_agent: str | None
    fault: str | None  # the fault applied ("429", "500", "slow", "truncate", "malformed", "drop", ...) or None


@dataclass(frozen=True)
class _Fault:
    name: str
    retry_after: str | None = None  # "N" seconds or "date"
    seconds: float = 0.0  # for slow
    location: str = ""  # for redirect
    forever: bool = False


def _parse_fault(spec: str) -> _Fault:
    """Parse one fault spec such as ``"429:ra=2"``, ``"slow:0.5"`` or ``"malformed*"``."""
    forever = spec.endswith("*")
    body = spec[:-1] if forever else spec
    name, _, arg = body.partition(":")
    if name not in FAULT_NAMES:
        raise ValueError(f"unknown fault {spec!r}")
    if name in ("slow", "trickle"):
        try:
            seconds = float(arg)
        except ValueError:
            raise ValueError(f"slow fault needs seconds, e.g. 'slow:0.5', got {spec!r}") from None
        return _Fault(name, seconds=seconds, forever=forever)
    if name == "redirect":
        if not arg:
            raise ValueError(f"redirect fault needs a location, e.g. 'redirect:/other.json', got {spec!r}")
        return _Fault(name, location=arg, forever=forever)
    if name in STATUS_FAULTS:
        retry_after = "1" if name == "429" else None
        if arg:
            key, _, value = arg.partition("=")
            if key != "ra" or not (value == "date" or value.isdigit()):
                raise ValueError(f"bad fault argument in {spec!r} (expected ra=<seconds> or ra=date)")
            retry_after = value
        return _Fault(name, retry_after=retry_after, forever=forever)
    if arg:
        raise ValueError(f"fault {name!r} takes no argument: {spec!r}")
    return _Fault(name, forever=forever)


def _content_type(path: str) -> str:
    return CONTENT_TYPES.get(Path(path).suffix.lower(), "application/octet-stream")


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # server_close() must not wait for idle keep-alive handler threads
    owner: SecServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay silent about client disconnects and other handler errors."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer
    timeout = 30  # idle keep-alive connections are closed after this many seconds

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no Nagle delay between writes
        self.server.owner._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._track(self.connection, add=False)

    def do_GET(self) -> None:
        arrived = time.monotonic()
        owner = self.server.owner
        route = self.path.split("?", 1)[0]
        fault = owner._next_fault(route)
        body = owner._body(route)
        entry = Logged(arrived, "GET", self.path, 0, self.headers.get("User-Agent"), fault.name if fault else None)
        try:
            self._respond(entry, route, fault, body)
        except OSError:  # client went away mid-response
            self.close_connection = True

    def _respond(self, entry: Logged, route: str, fault: _Fault | None, body: bytes | None) -> None:
        owner = self.server.owner
        name = fault.name if fault else None
        if name == "drop":
            owner._record(entry)
            self.close_connection = True
            return
        if name in STATUS_FAULTS:
            assert fault is not None
            entry.status = int(name)
            owner._record(entry)
            headers = {}
            if fault.retry_after == "date":
                headers["Retry-After"] = email.utils.formatdate(math.ceil(time.time()) + 1, usegmt=True)
            elif fault.retry_after is not None:
                headers["Retry-After"] = fault.retry_after
            self._send(int(name), json.dumps({"error": f"injected {name}"}).encode(), "application/json", headers)
            return
        if name == "redirect":
            assert fault is not None
            entry.status = 302
            owner._record(entry)
            self._send(302, b"", "text/plain", {"Location": fault.location})
            return
        if name == "trickle":
            assert fault is not None
            full = body or FILLER
            entry.status = 200
            owner._record(entry)
            self.send_response(200)
            self.send_header("Content-Type", _content_type(route))
            self.send_header("Content-Length", str(len(full)))
            self.end_headers()
            for i in range(len(full)):
                self.wfile.write(full[i:i + 1])
                self.wfile.flush()
                time.sleep(fault.seconds)
            return
        if name in ("errorpage", "gzip", "gzipcut"):
            entry.status = 200
            owner._record(entry)
            if name == "errorpage":
                self._send(200, SEC_ERROR_PAGE, "text/html")
            else:
                packed = gzip.compress(body or FILLER)
                sent = packed if name == "gzip" else packed[: len(packed) * 6 // 10]
                self._send(200, sent, _content_type(route), {"Content-Encoding": "gzip"})
            return
        if name in ("truncate", "malformed"):
            full = body or FILLER
            half = full[: len(full) // 2]
            entry.status = 200
            owner._record(entry)
            if name == "malformed":
                if _is_json(half):  # e.g. a bare number cut in half; make sure it no longer parses
                    half += b"}{"
                self._send(200, half, _content_type(route))
                return
            self.send_response(200)
            self.send_header("Content-Type", _content_type(route))
            self.send_header("Content-Length", str(len(full)))
            self.end_headers()
            self.wfile.write(half)
            self.wfile.flush()
            self.close_connection = True  # the server then shuts the socket down: the client sees a short read
            return
        # normal (possibly slow) response
        entry.status = 200 if body is not None else 404
        owner._record(entry)
        if name == "slow":
            assert fault is not None
            time.sleep(fault.seconds)
        if body is None:
            self._send(404, json.dumps({"error": "not found", "path": route}).encode(), "application/json")
        else:
            self._send(200, body, _content_type(route))

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def most_in_window(times: list[float], seconds: float = 1.0) -> int:
    """Largest number of `times` in any half-open window ``[t, t + seconds)``."""
    times, best, j = sorted(times), 0, 0
    for i, start in enumerate(times):  # an optimal window can always start at one of the times
        j = max(j, i)
        while j < len(times) and times[j] < start + seconds:
            j += 1
        best = max(best, j - i)
    return best


def record_sends(client: Any) -> list[float]:
    """The moments (monotonic) at which `client` sends each request, appended as it sends them: what the rate
    limiter controls, unlike arrival times at this server, which a loaded machine can bunch together."""
    sent: list[float] = []
    get = client.session.get

    def timed_get(*args: Any, **kwargs: Any) -> Any:
        sent.append(time.monotonic())
        return get(*args, **kwargs)

    client.session.get = timed_get
    return sent


class SecServer:
    """Local HTTP stand-in for the SEC: ``with SecServer(routes) as sec: requests.get(sec.url + path)``."""

    def __init__(self, routes: dict[str, bytes | Path] | None = None) -> None:
        self.log: list[Logged] = []
        self.connections = 0  # TCP connections accepted (to check keep-alive reuse)
        self._routes: dict[str, bytes | Path] = {}
        self._faults: dict[str, deque[_Fault]] = {}
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None
        for path, body in (routes or {}).items():
            self.add(path, body)

    # ---- configuration -------------------------------------------------------------------------------------
    def add(self, path: str, body: bytes | Path) -> None:
        """Serve ``body`` (bytes, or a file read on each request) at exactly ``path`` (no query string)."""
        if not path.startswith("/") or "?" in path:
            raise ValueError(f"route must be an absolute path without query string: {path!r}")
        with self._lock:
            self._routes[path] = body

    def fail(self, path: str, *faults: str) -> None:
        """Queue faults for ``path``, consumed one per request in order (``"name*"`` is never consumed)."""
        parsed = [_parse_fault(f) for f in faults]
        with self._lock:
            self._faults.setdefault(path, deque()).extend(parsed)

    # ---- inspection ----------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """Base URL, ``http://127.0.0.1:<port>`` (no trailing slash)."""
        if self._httpd is None:
            raise RuntimeError("SecServer not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def requests_to(self, path: str) -> list[Logged]:
        """Logged requests for ``path`` (matches the full path with query, or the path without its query)."""
        with self._lock:
            return [e for e in self.log if e.path == path or e.path.split("?", 1)[0] == path]

    def max_in_window(self, seconds: float = 1.0) -> int:
        """Largest number of requests whose arrival times fall in any half-open window ``[t, t + seconds)``."""
        with self._lock:
            return most_in_window([e.time for e in self.log], seconds)

    # ---- lifecycle -----------------------------------------------------------------------------------------
    def start(self) -> SecServer:
        """Bind an ephemeral port on 127.0.0.1 and serve in a daemon thread."""
        if self._httpd is not None:
            return self
        httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="sec-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, close open client connections and the listening socket."""
        httpd, thread = self._httpd, self._thread
        if httpd is None:
            return
        httpd.shutdown()
        with self._lock:
            conns = list(self._open)
        for conn in conns:  # wake handler threads blocked on idle keep-alive connections
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        httpd.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> SecServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # ---- used by the handler -------------------------------------------------------------------------------
    def _next_fault(self, path: str) -> _Fault | None:
        with self._lock:
            queue = self._faults.get(path)
            if not queue:
                return None
            return queue[0] if queue[0].forever else queue.popleft()

    def _body(self, path: str) -> bytes | None:
        with self._lock:
            body = self._routes.get(path)
        if isinstance(body, Path):
            return body.read_bytes()
        return body

    def _record(self, entry: Logged) -> None:
        with self._lock:
            self.log.append(entry)

    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._open.add(conn)
                self.connections += 1
            else:
                self._open.discard(conn)


# ---- recorded real SEC data -------------------------------------------------------------------------------------

# Companyfacts companies without a submissions file in the real-data folder: ticker for company_tickers.json.
EXTRA_TICKERS = {1652044: "GOOGL", 1640147: "SNOW", 1997711: "LPA"}

# (file in real/filings, CIK, accession, primary document name per MANIFEST.md)
RECORDED_FILINGS = [
    ("AAPL_10-K_2024-11-01_0000320193-24-000123.html", 320193, "0000320193-24-000123", "aapl-20240928.htm"),
    ("AAPL_10-Q_2025-08-01_Q3FY25.html", 320193, "0000320193-25-000073", "aapl-20250628.htm"),
    ("AAPL_10-Q_2025-05-02_aapl-20250329.htm", 320193, "0000320193-25-000057", "aapl-20250329.htm"),
    ("NVDA_10-K_2025-02-26.html", 1045810, "0001045810-25-000023", "nvda-20250126.htm"),
    ("NVDA_10-Q_2025-08-27.html", 1045810, "0001045810-25-000209", "nvda-20250727.htm"),
]


def _primary_document(real: Path, cik: int, accession: str) -> str:
    """The primaryDocument the submissions JSON (recent filings, then paged files) gives for ``accession``."""
    subs = real / "submissions"
    files = [subs / f"CIK{cik:010d}.json", *sorted(subs.glob(f"CIK{cik:010d}-submissions-*.json"))]
    for i, f in enumerate(files):
        data = json.loads(f.read_bytes())
        table = data["filings"]["recent"] if i == 0 else data
        if accession in table["accessionNumber"]:
            return table["primaryDocument"][table["accessionNumber"].index(accession)]
    raise ValueError(f"accession {accession} not in submissions of CIK {cik}")


def _company_tickers(real: Path) -> bytes:
    """company_tickers.json in the SEC's format, one entry per ticker, from submissions (+ EXTRA_TICKERS)."""
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    for f in sorted((real / "submissions").glob("CIK*.json")):
        if "-submissions-" in f.name:
            continue
        data = json.loads(f.read_bytes())
        cik = int(data["cik"])
        seen.add(cik)
        rows += [{"cik_str": cik, "ticker": t, "title": data["name"]} for t in data.get("tickers") or []]
    for f in sorted((real / "companyfacts").glob("CIK*.json")):
        cik = int(f.stem[3:])
        if cik in seen or cik not in EXTRA_TICKERS:
            continue
        name = json.loads(f.read_bytes())["entityName"]
        rows.append({"cik_str": cik, "ticker": EXTRA_TICKERS[cik], "title": name})
    return json.dumps({str(i): row for i, row in enumerate(rows)}).encode()


def recorded_routes(real: Path) -> dict[str, Path | bytes]:
    """SEC paths -> recorded files in the real-data folder (companyfacts, submissions, tickers, filings)."""
    routes: dict[str, Path | bytes] = {}
    for f in sorted((real / "companyfacts").glob("CIK*.json")):
        routes[f"/api/xbrl/companyfacts/{f.name}"] = f
    for f in sorted((real / "submissions").glob("CIK*.json")):
        routes[f"/submissions/{f.name}"] = f
    routes["/files/company_tickers.json"] = _company_tickers(real)
    for name, cik, accession, _manifest_doc in RECORDED_FILINGS:
        f = real / "filings" / name
        if not f.exists() or not (real / "submissions" / f"CIK{cik:010d}.json").exists():
            continue
        doc = _primary_document(real, cik, accession)
        routes[f"/Archives/edgar/data/{cik}/{accession.replace('-', '')}/{doc}"] = f
    return routes
