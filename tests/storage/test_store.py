"""The SQLite store: durability, integrity, migrations, backups, spaced repetition."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interviewer.bank.loader import Bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.storage.db import SCHEMA_VERSION, Store, StoreError
from tests.conftest import FIXTURES, ROOT, run_cli

BANK = ["--bank", str(FIXTURES)]
STRONG = (
    "GRPO samples a group of responses and subtracts the group's mean reward as the baseline instead of a critic. "
    "The baseline reduces variance and keeps the gradient unbiased. Dividing by the std is optional per Dr. GRPO."
)


async def _graded_session(store: Store, bank: Bank, answer: str = STRONG) -> str:
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=0), bank, OfflineExaminer(), store)
    await iv.submit_answer(answer)
    iv.advance()
    return iv.record.id


def test_file_mode_wal_and_schema_version(tmp_path: Path) -> None:
    store = Store(tmp_path / "x.db")
    assert stat.S_IMODE(os.stat(tmp_path / "x.db").st_mode) == 0o600
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_corrupt_database_is_refused_and_untouched(tmp_path: Path) -> None:
    db = tmp_path / "interviewer.db"
    db.write_bytes(b"this is not a database at all" * 10)
    before = db.read_bytes()
    with pytest.raises(StoreError, match="not an interviewer database"):
        Store(db)
    assert db.read_bytes() == before
    r = run_cli("--data-dir", str(tmp_path), "history")
    assert r.returncode == 1 and "not an interviewer database" in r.stderr and "Traceback" not in r.stderr


def test_damaged_sqlite_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "interviewer.db"
    Store(db).close()
    data = bytearray(db.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    db.write_bytes(bytes(data))
    before = db.read_bytes()
    with pytest.raises(StoreError):
        Store(db).sessions()
    assert db.read_bytes() == before


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "interviewer.db"
    Store(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    with pytest.raises(StoreError, match="newer interviewer"):
        Store(db)
    assert db.read_bytes() == before


async def test_graded_question_becomes_a_card(tmp_path: Path, demo_bank: Bank) -> None:
    store = Store(tmp_path / "db")
    await _graded_session(store, demo_bank, "GRPO is an algorithm.")
    cards = store.cards()
    assert [q for q, _ in cards] == ["demo-01"]
    assert store.due(at="2999-01-01T00:00:00+00:00")[0][0] == "demo-01"
    weak_due = cards[0][1]
    store2 = Store(tmp_path / "db2")
    await _graded_session(store2, demo_bank, STRONG)
    assert store2.cards()[0][1] > weak_due  # a strong answer comes back later


async def test_export_import_is_idempotent(tmp_path: Path, demo_bank: Bank) -> None:
    a = Store(tmp_path / "a.db")
    sid = await _graded_session(a, demo_bank)
    backup = a.export_all()
    b = Store(tmp_path / "b.db")
    assert b.import_all(backup) == 1
    assert b.import_all(json.loads(json.dumps(backup))) == 1
    assert [r.id for r in b.sessions()] == [sid]
    assert b.cards() == a.cards() and len(b.reviews()) == 1
    with pytest.raises(StoreError):
        b.import_all({"sessions": []})


def test_kill_9_loses_nothing_submitted(tmp_path: Path) -> None:
    """A real process killed mid-interview keeps every answer it had read."""
    home = tmp_path / "home"
    proc = subprocess.Popen(
        [sys.executable, "-m", "interviewer", "--data-dir", str(home), *BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write("first answer about GRPO\n.\n")
    proc.stdin.flush()
    deadline = time.time() + 30
    seen = ""
    while "Where does GRPO" not in seen and time.time() < deadline:
        seen += proc.stdout.readline()
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    proc.stdin.write("second answer: the group mean\n.\n")
    proc.stdin.flush()
    while "?" not in proc.stdout.readline() and time.time() < deadline:
        pass
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = Store(home / "interviewer.db")
    (rec,) = store.sessions()
    assert rec.questions[0].answers() == ["first answer about GRPO", "second answer: the group mean"]
    assert not rec.finished
    r = run_cli("--data-dir", str(home), *BANK, "resume", input=":idk\n")
    assert r.returncode == 0, r.stderr
    assert Store(home / "interviewer.db").sessions()[0].finished


def test_two_instances_at_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    script = "\n".join(["GRPO uses the group mean reward as baseline.", ".", ":idk"]) + "\n"
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "interviewer", "--data-dir", str(home), *BANK, "run", "--plain", "--questions", "demo-01,demo-01", "--follow-ups", "1"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for _ in range(4)
    ]
    for p in procs:
        _out, err = p.communicate(script * 2, timeout=120)
        assert p.returncode == 0, err
    store = Store(home / "interviewer.db")
    assert len(store.sessions()) == 4
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert len(store.reviews()) == 8


async def test_history_report_and_stats_commands(tmp_path: Path, demo_bank: Bank) -> None:
    home = tmp_path / "home"
    store = Store(home / "interviewer.db")
    sid = await _graded_session(store, demo_bank)
    store.close()
    r = run_cli("--data-dir", str(home), *BANK, "history", "--format", "json")
    (h,) = json.loads(r.stdout)
    assert h["id"] == sid and h["mode"] == "interview" and h["examiner"] == "offline"
    assert h["questions"][0]["answers"] == [STRONG] and h["questions"][0]["score"] >= 8
    out = tmp_path / "r.html"
    r = run_cli("--data-dir", str(home), *BANK, "report", sid, "--format", "html", "-o", str(out))
    page = out.read_text(encoding="utf-8")
    assert r.returncode == 0 and "<style>" in page and "class='fill'" in page
    assert "http" not in page.split("<body>")[0].replace("charset", "")  # no external resources
    assert "subtracts the group&#x27;s mean reward" in page
    r = run_cli("--data-dir", str(home), *BANK, "report", sid, "--format", "md")
    assert "## 1. demo-01" in r.stdout
    r = run_cli("--data-dir", str(home), *BANK, "stats", "--format", "json")
    data = json.loads(r.stdout)
    assert data["tracks"]["algorithm"]["n"] == 1 and len(data["trend"]) == 1
    r = run_cli("--data-dir", str(home), *BANK, "report", "nope")
    assert r.returncode == 2 and "no interview with id 'nope'" in r.stderr
