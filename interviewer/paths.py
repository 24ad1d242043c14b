"""Where state lives: the data directory and the config file in it.

Kept free of pydantic so the TUI can read its theme before the first paint.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

CONFIG_NAME = "config.toml"


def default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("interviewer", appauthor=False))


def resolve_data_dir(data_dir: Path | None) -> Path:
    """--data-dir, else $INTERVIEWER_HOME, else the platform's user data directory."""
    if data_dir is not None:
        return data_dir.expanduser()
    env = os.environ.get("INTERVIEWER_HOME")
    return Path(env).expanduser() if env else default_data_dir()


def peek_setting(data_dir: Path | None, key: str, default: object) -> object:
    """One raw value from config.toml without validation: for the TUI's first paint only."""
    path = resolve_data_dir(data_dir) / CONFIG_NAME
    try:
        return tomllib.loads(path.read_text(encoding="utf-8")).get(key, default)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return default
