"""Errors an examiner raises that the engine knows how to handle."""

from __future__ import annotations


class ExaminerError(Exception):
    """An examiner failed; the message is written for the user and says what to fix."""


class ExaminerUnavailable(ExaminerError):
    """The examiner cannot be reached (network, key, budget): fall back to offline.

    `retry_in` is the number of seconds after which the model may be tried
    again (a paused circuit breaker); None means it will not recover in this
    process (a missing key, a spent budget), so waiting is pointless.
    """

    def __init__(self, message: str, retry_in: float | None = None) -> None:
        super().__init__(message)
        self.retry_in = retry_in


class BudgetExceeded(ExaminerUnavailable):
    """`--max-cost` was reached: no more LLM calls in this interview."""
