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
    from interviewer.engine.interview import Interview
    from interviewer.examiners.base import Examiner
    from interviewer.storage.db import Store


@dataclass
class Services:
    """Config, bank and store, each loaded on first use (after the first paint)."""

    config_or_dir: Config | Path | None = None
    extra_banks: list[Path] = field(default_factory=list)
    include_builtin: bool = True
    clock: Callable[[], float] = time.monotonic
    _config: Config | None = None
    _bank: Bank | None = None
    _store: Store | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    interviews: list[Interview] = field(default_factory=list)  # opened in this app: saved or rescued on close
    exit_messages: list[str] = field(default_factory=list)  # for stderr once the terminal is restored

    @property
    def config(self) -> Config:
        """The validated config (pydantic loads here, not at start-up)."""
        if self._config is None:
            from interviewer.config import Config, load_config

            given = self.config_or_dir
            self._config = given if isinstance(given, Config) else load_config(given)
            self.extra_banks = [*self._config.banks, *self.extra_banks]
        return self._config

    def theme(self) -> str:
        """The theme from config.toml, read without validating (for the first paint)."""
        if self._config is not None:
            return self._config.theme
        from interviewer.paths import peek_setting

        return str(peek_setting(self.config_or_dir if isinstance(self.config_or_dir, Path) else None, "theme", "dark"))

    def remember_theme(self, theme: str) -> str | None:
        """Keep the theme the user chose in config.toml; the reason when it cannot be kept."""
        from interviewer.config import ConfigError, write_setting
        from interviewer.paths import resolve_data_dir

        given = self._config or self.config_or_dir
        data_dir = given.data_dir if given is not None and not isinstance(given, Path) else resolve_data_dir(given)
        try:
            write_setting(data_dir, "theme", theme)
        except ConfigError as exc:
            return str(exc)
        if self._config is not None:
            self._config.theme = "light" if theme == "light" else "dark"
        return None

    def lang(self) -> str:
        """The interview language from config.toml, read without validating (for the first paint)."""
        given = self._config or self.config_or_dir
        if given is not None and not isinstance(given, Path):
            return given.lang
        from interviewer.paths import peek_setting

        return str(peek_setting(self.config_or_dir if isinstance(self.config_or_dir, Path) else None, "lang", "en"))

    def bank(self) -> Bank:
        config = self.config
        with self._lock:
            if self._bank is None:
                from interviewer.bank.loader import load_bank

                del config  # its banks are in self.extra_banks now

                self._bank = load_bank(self.extra_banks, include_builtin=self.include_builtin)
            return self._bank

    def store(self) -> Store:
        data_dir = self.config.data_dir
        with self._lock:
            if self._store is None:
                from interviewer.storage.db import open_store

                self._store = open_store(data_dir)
            return self._store

    def examiner(self, kind: str) -> Examiner:
        from interviewer.examiners.factory import ExaminerChoice, make_examiner

        return make_examiner(ExaminerChoice.from_config(self.config, kind))

    def close(self) -> None:
        """Last save of every interview the store refused (full or read-only disk), else a backup file."""
        for interview in self.interviews:
            if interview.unsaved is not None and not interview.save():
                self.exit_messages.append(_rescue(interview))
        if self._store is not None:
            self._store.close()
            self._store = None


def _rescue(interview: Interview) -> str:
    """Write the backup where it fits and say so (printed once the terminal is back)."""
    from interviewer.engine.rescue import rescue_unattended
    from interviewer.i18n import tr

    _refused, backup_json, last = rescue_unattended(interview.record)
    why = tr("\n[!] The interview could not be saved: {why}", interview.plan.lang).format(why=interview.unsaved).strip()
    return "\n".join([*([backup_json] if backup_json is not None else []), why, last])
