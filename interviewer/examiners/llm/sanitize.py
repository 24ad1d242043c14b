"""Make model output safe for a terminal and candidate text safe for a prompt.

Streamed text arrives in arbitrary pieces, so an escape sequence can be split
across two chunks; the stream sanitiser holds back an unfinished sequence
until it can be removed whole.
"""

from __future__ import annotations

import re

from interviewer.examiners.offline.guard import is_grader_addressed
from interviewer.examiners.offline.text import split_sentences
from interviewer.textsafe import strip_control

_HOLD = 256  # longest escape sequence worth waiting for (OSC titles can be long)
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_OSC_END = re.compile(r"\x07|\x1b\\")


def _unfinished(tail: str) -> bool:
    """True when `tail` (starting with ESC) may be the start of a sequence still arriving."""
    if len(tail) == 1:
        return True
    if tail[1] == "[":
        return _CSI.match(tail) is None
    if tail[1] == "]":
        return _OSC_END.search(tail, 2) is None
    return False


REMOVED = "[removed: addressed to the grader]"


class StreamSanitizer:
    """Strips terminal control and escape sequences from a stream of text chunks."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, chunk: str) -> str:
        text = self._pending + chunk
        self._pending = ""
        esc = text.rfind("\x1b")
        if esc >= 0 and len(text) - esc < _HOLD and _unfinished(text[esc:]):
            text, self._pending = text[:esc], text[esc:]
        elif esc >= 0:  # an ESC inside an unfinished OSC may not be the last one: hold from the OSC start
            osc = text.rfind("\x1b]")
            if osc >= 0 and len(text) - osc < _HOLD and _unfinished(text[osc:]):
                text, self._pending = text[:osc], text[osc:]
        return strip_control(text)

    def flush(self) -> str:
        text, self._pending = self._pending, ""
        return strip_control(text)


def scrub(text: str) -> tuple[str, int]:
    """Replace sentences addressed to the grader before a model reads the answer; count them."""
    sentences = [s for s in split_sentences(text) if is_grader_addressed(s.text)]
    if not sentences:
        return text, 0
    out, pos = [], 0
    for s in sentences:
        out.append(text[pos : s.start])
        out.append(REMOVED)
        pos = s.start + len(s.text)
    out.append(text[pos:])
    return "".join(out), len(sentences)
