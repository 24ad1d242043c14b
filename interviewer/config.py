"""Where the app keeps its state, and the user's config file.

All state lives under one data directory: `--data-dir`, else `INTERVIEWER_HOME`,
else the platform's user data directory. The config is `config.toml` there.
API keys are never part of the config: they come from the environment only.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interviewer.paths import CONFIG_NAME, resolve_data_dir


class ConfigError(Exception):
    """The config file is unreadable or invalid; the message names file and field."""


class Config(BaseModel):
    """User settings (config.toml). Every field is optional."""

    model_config = ConfigDict(extra="forbid")

    lang: Literal["en", "it", "ja"] = "en"
    examiner: Literal["offline", "llm"] = "offline"
    model: str | None = Field(default=None, description="LiteLLM model, e.g. openai/gpt-4.1-mini")
    api_base: str | None = Field(default=None, description="OpenAI-compatible base URL")
    fallback_models: list[str] = Field(default_factory=list)
    follow_ups: int = Field(default=2, ge=0, le=10)
    max_cost: float | None = Field(default=None, ge=0)
    timeout: float = Field(default=60.0, gt=0)
    samples: int = Field(default=1, ge=1, le=9, description="LLM examiner: grades per answer (median kept)")
    banks: list[Path] = Field(default_factory=list)
    theme: Literal["dark", "light"] = "dark"
    data_dir: Path = Field(default=Path("."), exclude=True)

    @property
    def db_path(self) -> Path:
        return self.data_dir / "interviewer.db"


def load_config(data_dir: Path | None = None) -> Config:
    """Read `config.toml` from the data directory; defaults when it does not exist."""
    root = resolve_data_dir(data_dir)
    path = root / CONFIG_NAME
    data: dict[str, object] = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not valid UTF-8 (byte {exc.start + 1}); save it as UTF-8 text") from None
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: {exc}") from None
    try:
        cfg = Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{path}: {_first_problem(exc)}") from None
    cfg.data_dir = root
    cfg.banks = [b if b.is_absolute() else root / b for b in cfg.banks]
    return cfg


def _first_problem(exc: ValidationError) -> str:
    """The first invalid setting and why, as "field: message"."""
    first = exc.errors()[0]
    return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"


def write_setting(data_dir: Path, key: str, value: str) -> Path:
    """Set one top-level setting in config.toml (the TUI remembers its theme this way).

    Only that line changes: the user's comments, order and other settings stay. The result is
    validated before it is written, and written atomically; a broken file is left untouched.
    """
    path = data_dir / CONFIG_NAME
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    lines = text.splitlines(keepends=True)
    new = f"{key} = {json.dumps(value, ensure_ascii=False)}\n"
    own = re.compile(rf"\s*{re.escape(key)}\s*=")
    first_table = next((i for i, line in enumerate(lines) if line.lstrip().startswith("[")), len(lines))
    mine = next((i for i in range(first_table) if own.match(lines[i])), None)
    if mine is not None:
        lines[mine] = new
    else:
        if first_table and not lines[first_table - 1].endswith("\n"):
            lines[first_table - 1] += "\n"
        lines.insert(first_table, new)
    updated = "".join(lines)
    try:
        Config.model_validate(tomllib.loads(updated))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}; not changed") from None
    except ValidationError as exc:
        raise ConfigError(f"{path}: {_first_problem(exc)}; not changed") from None
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=data_dir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(updated)
            os.replace(tmp, path)
        except OSError:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return path
