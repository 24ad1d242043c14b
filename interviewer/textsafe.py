"""Untrusted text (model output, answers, server errors) made safe to print: no escape sequences.

Kept apart from the offline examiner's text analysis so that the TUI, the console and the CLI can
sanitise text without importing (and compiling the patterns of) the grader before the first screen.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


def strip_control(text: str) -> str:
    """Remove terminal escape sequences and control characters (newline and tab kept)."""
    return _CONTROL.sub("", _ANSI.sub("", text))


__all__ = ["strip_control"]
