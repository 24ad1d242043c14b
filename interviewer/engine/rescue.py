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
from interviewer.i18n import tr


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


def saved_line(path: str, lang: str) -> str:
    """Where the backup went and how to restore it, in `lang`."""
    return tr("Saved to {path}; restore it with `interviewer import {path}`.", lang).format(path=path)


def refused_line(path: str, why: str, lang: str) -> str:
    return tr("cannot write {path}: {why}", lang).format(path=path, why=why)


def rescue_unattended(record: SessionRecord) -> tuple[list[str], str | None, str]:
    """Nobody to ask (a pipe, or the TUI after its terminal is gone): try the default places in turn.

    Returns, in the interview's language, a line per place that refused, the backup itself (JSON, for
    stderr) when none took it, and the closing line: where it went, or that it is the JSON above.
    """
    from interviewer.console import json_text

    lang = record.plan.lang
    written, refused = rescue_to_first(record, default_paths(record))
    lines = [refused_line(path, why, lang) for path, why in refused]
    if written:
        return lines, None, saved_line(written, lang)
    return lines, json_text(backup(record)), tr(
        "No file could be written: the backup above (stderr) can be saved and restored with `interviewer import`.", lang)


__all__ = ["backup", "default_paths", "refused_line", "rescue_to_first", "rescue_unattended", "saved_line", "write_backup"]
