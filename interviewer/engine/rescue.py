"""Backups of an interview the store could not take: the last resort of "nothing you typed is lost".

When the disk is full or read-only at exit, the interview is written as an
`interviewer import` backup to the first place that accepts it:
$INTERVIEWER_RESCUE_FILE, the current directory, the temp directory. The plain
mode asks the user for a path first; the TUI, whose terminal is gone by then,
tries the list and reports where the file went.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from interviewer.engine.record import SessionRecord, now


def backup(record: SessionRecord) -> dict[str, Any]:
    """The JSON `interviewer import` reads, for one interview."""
    return {"format": "interviewer-backup", "version": 1, "exported_at": now(),
            "sessions": [record.model_dump(mode="json")], "settings": {}}


def default_paths(record: SessionRecord) -> list[str]:
    """Where a backup goes when nobody is asked: the environment's choice, here, the temp directory."""
    name = f"interviewer-{record.id}.json"
    return [p for p in (os.environ.get("INTERVIEWER_RESCUE_FILE", ""), name, str(Path(tempfile.gettempdir()) / name)) if p]


def write_backup(record: SessionRecord, path: str) -> None:
    """Write one backup file (OSError when the place refuses it)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(backup(record), f, ensure_ascii=False, indent=1)


def rescue_to_first(record: SessionRecord, paths: list[str]) -> tuple[str | None, list[tuple[str, str]]]:
    """(the path written, or None; and (path, why) for every place that refused)."""
    refused: list[tuple[str, str]] = []
    for path in paths:
        try:
            write_backup(record, path)
        except OSError as exc:
            refused.append((path, str(exc.strerror or exc)))
            continue
        return path, refused
    return None, refused


__all__ = ["backup", "default_paths", "rescue_to_first", "write_backup"]
