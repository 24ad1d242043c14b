"""Timeouts and the retry policy: capped exponential backoff with jitter, honouring Retry-After.

litellm's own `num_retries` is not used (it needs tenacity, and it cannot
know that a streamed probe must never be retried after its first token).
Every number is a field so tests can run the whole policy in milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


@dataclass(frozen=True)
class RetryPolicy:
    """How long to wait for a model and how often to try again."""

    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    max_attempts: int = 4  # first try included
    base_delay: float = 0.5
    max_delay: float = 8.0
    jitter: float = 0.5  # the delay is scaled by a random factor in [1 - jitter, 1]
    retry_after_cap: float = 60.0  # a longer Retry-After is not waited for: the call fails instead
    # The whole call, retries and waits included, and a streamed probe from its first token to its
    # end: `timeout` bounds one attempt, these bound what the user sits through (None: derived).
    total_timeout: float | None = None
    stream_timeout: float | None = None
    # Circuit breaker: after this many consecutive calls that used up their attempts the model is
    # paused for `breaker_cooldown` seconds, then one trial call decides (half-open).
    breaker_threshold: int = 2
    breaker_cooldown: float = 5.0
    slow_notice_after: float = 8.0  # seconds of waiting before the user is told the model is slow

    @classmethod
    def for_timeout(cls, timeout: float) -> RetryPolicy:
        """The default policy with the user's read timeout (`timeout` in config)."""
        return cls(connect_timeout=min(10.0, timeout), read_timeout=timeout)

    @property
    def call_deadline(self) -> float:
        """Seconds one call may take in all, retries included."""
        if self.total_timeout is not None:
            return self.total_timeout
        return 2.0 * (self.connect_timeout + self.read_timeout) + 5.0  # default 145 s, not 4 x 75 s

    @property
    def stream_deadline(self) -> float:
        """Seconds a streamed reply may take after its first token (a slow drip is cut here)."""
        return self.stream_timeout if self.stream_timeout is not None else 2.0 * self.read_timeout

    def backoff(self, attempt: int, rng: random.Random | None = None) -> float:
        """Delay before retry number `attempt` (1-based): min(cap, base * 2^(n-1)) with jitter."""
        raw = min(self.max_delay, self.base_delay * 2.0 ** max(0, attempt - 1))
        draw: float = rng.random() if rng is not None else random.random()
        factor = 1.0 - self.jitter * draw
        return raw * factor

    def delay_for(self, attempt: int, retry_after: float | None) -> float:
        """The wait before the next attempt: Retry-After when the server gave one, else backoff."""
        if retry_after is not None:
            return max(0.0, retry_after)
        return self.backoff(attempt)


def parse_retry_after(headers: Mapping[str, str] | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms`, or `Retry-After` (seconds or an HTTP date)."""
    if not headers:
        return None
    lower = {str(k).lower(): str(v) for k, v in headers.items()}
    ms = lower.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = lower.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
