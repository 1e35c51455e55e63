"""Fair access: at most N requests in any window of one second, however many threads and clients ask."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class RateLimiter:
    """A sliding window over send times: a request waits until fewer than `rate` requests were sent in the
    last `per` seconds, and, for a caller with a rate of its own, fewer than that many of its own.

    `margin` widens the window a little so that network jitter cannot squeeze N+1 arrivals into one
    second at the server's end (0.05 s once let a busy test machine's server see 11 in a second).
    `RateLimiter.shared(n)` gives a caller its share of the one window of the whole process (10 requests a
    second, the SEC's limit): at most n of its own requests a second and, with every other caller together,
    never more than 10, whatever rates they ask for.
    """

    PROCESS_RATE = 10
    _process: RateLimiter | None = None
    _process_lock = threading.Lock()

    @classmethod
    def shared(cls, rate: int = PROCESS_RATE) -> Throttle:
        """A caller's share of the process-wide window, at most `rate` requests a second of its own."""
        with cls._process_lock:
            if cls._process is None:
                cls._process = cls(cls.PROCESS_RATE)
            return Throttle(cls._process, rate)

    def __init__(self, rate: int = 10, per: float = 1.0, *, margin: float = 0.1,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        if rate < 1:
            raise ValueError("rate: at least one request per window")
        self.rate, self.window = rate, per + margin
        self._sent: deque[tuple[float, object]] = deque()  # (send time, caller) within the last window
        self._lock = threading.Lock()
        self._clock, self._sleep = clock, sleep

    def wait(self, caller: object = None, rate: int | None = None) -> None:
        """Block until one more request fits in the window (and in `caller`'s own `rate` there), and count it.
        The lock is not held while sleeping, so a strict caller does not hold up the others."""
        limit = self.rate if rate is None else min(rate, self.rate)
        while True:
            with self._lock:
                now = self._clock()
                while self._sent and self._sent[0][0] + self.window <= now:
                    self._sent.popleft()
                mine = [t for t, c in self._sent if c is caller]
                delay = max(self._sent[-self.rate][0] + self.window - now if len(self._sent) >= self.rate else 0.0,
                            mine[-limit] + self.window - now if len(mine) >= limit else 0.0)
                if delay <= 0:
                    self._sent.append((now, caller))
                    return
            self._sleep(delay)


class Throttle:
    """One caller's share of a RateLimiter: at most `rate` of its requests per window, within the window's
    limit for all callers together."""

    def __init__(self, limiter: RateLimiter, rate: int) -> None:
        if rate < 1:
            raise ValueError("rate: at least one request per window")
        self.limiter, self.rate = limiter, rate

    def wait(self) -> None:
        """Block until this caller may send one more request, and count it."""
        self.limiter.wait(self, self.rate)
