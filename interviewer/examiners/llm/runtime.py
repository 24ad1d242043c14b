"""Import litellm only when an LLM examiner really makes a call, and keep it quiet.

litellm fetches a price map from the internet at import time unless
LITELLM_LOCAL_MODEL_COST_MAP is set, prints help banners to stdout unless
debug info is suppressed (which would corrupt `--format json`), and routes
its INFO/DEBUG log records to stdout. All three are handled here, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import threading
import warnings
from typing import Any

_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "httpx", "httpcore", "openai")
_lock = threading.Lock()
_module: Any = None


def _silence_loggers() -> None:
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers[:] = [logging.NullHandler()]
        logger.propagate = False
        logger.setLevel(logging.CRITICAL)


def load_litellm() -> Any:
    """Import and configure litellm once; safe to call from any thread."""
    global _module
    if _module is not None:
        return _module
    with _lock:
        if _module is not None:
            return _module
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        os.environ.setdefault("LITELLM_LOG", "CRITICAL")
        # litellm's own types trip pydantic warnings at import and on first use; they are not ours to show.
        warnings.filterwarnings("ignore", message=r"Item '.*' on TypedDict class '.*' is using the `ReadOnly`")
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"litellm(\.|$)")
        # Anything litellm prints while importing goes nowhere, not to our stdout.
        with contextlib.redirect_stdout(io.StringIO()):
            import litellm
        for attr, value in (
            ("suppress_debug_info", True),  # no help banners on stdout
            ("set_verbose", False),
            ("telemetry", False),
            ("turn_off_message_logging", True),
            ("drop_params", True),
            ("disable_streaming_logging", True),  # per-chunk logging threads cost latency and log nothing we use
        ):
            setattr(litellm, attr, value)
        _silence_loggers()
        _module = litellm
        return litellm


async def aload_litellm() -> Any:
    """The same, off the event loop: the import takes seconds and must not freeze the TUI."""
    if _module is not None:
        return _module
    return await asyncio.to_thread(load_litellm)


def loaded() -> bool:
    """True once litellm was imported by this package (tests check the offline path stays clean)."""
    return _module is not None
