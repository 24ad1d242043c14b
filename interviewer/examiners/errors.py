"""Errors an examiner raises that the engine knows how to handle."""

from __future__ import annotations


class ExaminerError(Exception):
    """An examiner failed; the message is written for the user and says what to fix."""


class ExaminerUnavailable(ExaminerError):
    """The examiner cannot be reached (network, key, budget): fall back to offline."""


class BudgetExceeded(ExaminerUnavailable):
    """`--max-cost` was reached: no more LLM calls in this interview."""
