"""The one boundary between the app and a terminal: nothing from outside reaches it raw.

Model and server text (error bodies, probes, notes) is untrusted. A terminal
acts on escape sequences (OSC 52 writes the clipboard, OSC 0/2 the title),
C1 controls (U+009B is CSI) and bidi overrides (U+202E reorders what the user
reads). `safe()` removes them; `SafeStream` applies it to every write on
stdout/stderr of the command line, so a path nobody thought of is covered
too; `json_text()` keeps JSON output exact while escaping those characters;
`setup_logging()` gives the `interviewer` logger a sanitising handler.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import sys
from typing import Any, TextIO

from interviewer.textsafe import strip_control

# bidi embeddings/overrides/isolates (U+202A-U+202E, U+2066-U+2069) and the line/paragraph separators,
# which some terminals treat as line breaks
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_ESC_START = re.compile("[\x1b\x9b\x9d]")


def safe(text: str) -> str:
    """`text` without escape sequences, control characters (newline and tab kept) or bidi controls."""
    text = strip_control(text.replace("\r\n", "\n"))
    return _BIDI.sub("", text)


def json_text(obj: Any, **kw: Any) -> str:
    """`json.dumps(obj, ensure_ascii=False)`, with C1 controls and bidi controls written as \\uXXXX."""
    out = json.dumps(obj, ensure_ascii=False, **kw)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


class SafeStream(io.TextIOBase):
    """A text stream that passes every write through `safe()`.

    An escape sequence split across two writes is held back until it is
    complete (or the next newline), so it cannot be reassembled on the screen.
    """

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner
        self._pending = ""

    def write(self, s: str) -> int:
        text = self._pending + s
        self._pending = ""
        last = None
        for m in _ESC_START.finditer(text):
            last = m
        if last is not None and "\n" not in text[last.start():] and len(text) - last.start() < 256:
            text, self._pending = text[: last.start()], text[last.start():]
        if text:
            self.inner.write(safe(text))
        return len(s)

    def flush(self) -> None:
        if self._pending:
            self.inner.write(safe(self._pending))
            self._pending = ""
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", "utf-8")


def install() -> None:
    """Route the command line's stdout and stderr through `safe()` (idempotent)."""
    if not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)
    if not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)


class SafeFormatter(logging.Formatter):
    """Log records sanitised for the terminal and redacted of anything that looks like a key."""

    def format(self, record: logging.LogRecord) -> str:
        from interviewer.examiners.llm.errors import redact

        return safe(redact(super().format(record)))


def setup_logging(verbosity: int = 0) -> None:
    """The `interviewer` logger: silent by default; `-v` (or INTERVIEWER_LOG=LEVEL) writes to stderr.

    Without a handler Python's last-resort handler would print warnings raw;
    with `propagate = False` the app's messages never reach a handler the
    user did not ask for.
    """
    logger = logging.getLogger("interviewer")
    logger.propagate = False
    for h in list(logger.handlers):
        if getattr(h, "_interviewer", False):
            logger.removeHandler(h)
    env = os.environ.get("INTERVIEWER_LOG", "").strip().upper()
    level: int | None = None
    if verbosity >= 2:
        level = logging.DEBUG
    elif verbosity == 1:
        level = logging.INFO
    elif env in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        level = getattr(logging, env)
    handler: logging.Handler
    if level is None:
        handler = logging.NullHandler()
        logger.setLevel(logging.WARNING)
    else:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(SafeFormatter("interviewer: %(levelname)s: %(message)s"))
        logger.setLevel(level)
    setattr(handler, "_interviewer", True)  # noqa: B010 - marks our handler for a later re-setup
    logger.addHandler(handler)
