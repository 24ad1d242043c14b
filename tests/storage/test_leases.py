"""One writer per unfinished interview: a second resume is refused, never silently merged (reliability F8)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interviewer.bank.loader import Bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.storage.db import SessionBusy, Store
from tests.conftest import FIXTURES, ROOT, run_cli


def _open_session(db: Path, bank: Bank) -> str:
    with Store(db) as store:
        iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=0), bank, OfflineExaminer(), store)
        return iv.record.id


async def test_two_stores_on_one_file_second_resume_is_refused(tmp_path: Path, demo_bank: Bank) -> None:
    db = tmp_path / "interviewer.db"
    sid = _open_session(db, demo_bank)
    a, b = Store(db), Store(db)
    ia = Interview(a.load_session(sid), demo_bank, OfflineExaminer(), a)
    with pytest.raises(SessionBusy, match="open in another interviewer process"):
        Interview(b.load_session(sid), demo_bank, OfflineExaminer(), b)
    # a stale copy loaded before A claimed it cannot overwrite A's answers either
    stale = b.load_session(sid)
    await ia.submit_answer("ANSWER-FROM-A")
    with pytest.raises(SessionBusy):
        b.save_session(stale)
    assert a.load_session(sid).questions[0].answers() == ["ANSWER-FROM-A"]
    a.close()  # releases the lease: now B may resume, and sees A's answer
    ib = Interview(b.load_session(sid), demo_bank, OfflineExaminer(), b)
    assert ib.record.questions[0].answers() == ["ANSWER-FROM-A"]
    b.close()


def test_lease_of_a_dead_process_is_taken_over(tmp_path: Path, demo_bank: Bank) -> None:
    db = tmp_path / "interviewer.db"
    sid = _open_session(db, demo_bank)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with Store(db) as s:
        s.claim(sid)
        s.conn.execute("UPDATE leases SET pid = ?, token = 'gone'", (int(dead.stdout),))
    with Store(db) as s:  # the crashed holder does not block a resume (kill -9 must stay recoverable)
        Interview(s.load_session(sid), demo_bank, OfflineExaminer(), s)


def test_two_processes_resuming_one_interview(tmp_path: Path, demo_bank: Bank) -> None:
    home = tmp_path / "home"
    sid = _open_session(home / "interviewer.db", demo_bank)
    env = {**os.environ, "INTERVIEWER_HOME": str(home)}
    a = subprocess.Popen(
        [sys.executable, "-m", "interviewer", "--bank", str(FIXTURES), "resume", sid],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )
    try:
        assert a.stdout is not None and a.stdin is not None
        assert a.stdout.readline().startswith(f"Resuming interview {sid}")
        b = run_cli("--bank", str(FIXTURES), "resume", sid, input="ANSWER-FROM-B\n.\n", env={"INTERVIEWER_HOME": str(home)})
        assert b.returncode == 1
        assert f"interview {sid} is open in another interviewer process (pid {a.pid}" in b.stderr
        a.stdin.write("ANSWER-FROM-A\n.\n")
        a.stdin.close()
        assert a.wait(timeout=60) == 0
    finally:
        if a.poll() is None:
            a.kill()
            time.sleep(0.1)
    with Store(home / "interviewer.db") as s:
        rec = s.load_session(sid)
    assert rec.finished and rec.questions[0].answers() == ["ANSWER-FROM-A"]
