"""What the TUI needs from the domain core, loaded after the first paint.

Screens get the bank, the store and examiners from here, never by importing
storage or litellm themselves, so the app draws its first screen before any
of that is loaded and tests can hand in a small bank and a temporary store.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interviewer.bank.loader import Bank
    from interviewer.config import Config
    from interviewer.examiners.base import Examiner
    from interviewer.storage.db import Store


@dataclass
class Services:
    """Config plus lazily created bank and store."""

    config: Config
    extra_banks: list[Path] = field(default_factory=list)
    include_builtin: bool = True
    clock: Callable[[], float] = time.monotonic
    _bank: Bank | None = None
    _store: Store | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def bank(self) -> Bank:
        with self._lock:
            if self._bank is None:
                from interviewer.bank.loader import load_bank

                self._bank = load_bank(self.extra_banks, include_builtin=self.include_builtin)
            return self._bank

    def store(self) -> Store:
        with self._lock:
            if self._store is None:
                from interviewer.storage.db import open_store

                self._store = open_store(self.config.data_dir)
            return self._store

    def examiner(self, kind: str) -> Examiner:
        from interviewer.examiners.factory import ExaminerChoice, make_examiner

        return make_examiner(ExaminerChoice.from_config(self.config, kind))

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
