"""Fair access: at most N requests in any window of one second, however many threads ask."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class RateLimiter:
    """A sliding window over send times: the (N+1)th request waits until the 1st is `per` seconds old.

    `margin` widens the window a little so that network jitter cannot squeeze N+1 arrivals into one
    second at the server's end. `RateLimiter.shared(n)` is one limiter for the whole process, so that
    several clients together still keep the limit.
    """

    _shared: dict[int, RateLimiter] = {}
    _shared_lock = threading.Lock()

    @classmethod
    def shared(cls, rate: int) -> RateLimiter:
        """The process-wide limiter for this rate."""
        with cls._shared_lock:
            return cls._shared.setdefault(rate, cls(rate))

    def __init__(self, rate: int = 10, per: float = 1.0, *, margin: float = 0.05,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        if rate < 1:
            raise ValueError("rate: at least one request per window")
        self.rate, self.window = rate, per + margin
        self._sent: deque[float] = deque(maxlen=rate)
        self._lock = threading.Lock()
        self._clock, self._sleep = clock, sleep

    def wait(self) -> None:
        """Block until one more request fits in the window, and count it."""
        with self._lock:
            if len(self._sent) == self.rate:
                delay = self._sent[0] + self.window - self._clock()
                if delay > 0:
                    self._sleep(delay)
            self._sent.append(self._clock())
