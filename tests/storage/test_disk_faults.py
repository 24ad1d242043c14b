"""A read-only or full data directory (issue 15, F9), as real file-system conditions.

Each test mounts a tiny tmpfs inside a private mount namespace (`unshare -m`),
so nothing outside the test sees it, then runs `python -m interviewer` there.
Skipped, with the reason, where the machine does not allow mount namespaces.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

ANSWERS = "GRPO uses the group mean reward as the baseline.\n.\nThe baseline keeps the gradient unbiased.\n.\n"


@functools.cache
def _unshare() -> list[str] | str:
    """The unshare command that works here, or why none does."""
    if shutil.which("unshare") is None:
        return "unshare(1) is not installed"
    for cmd in (["unshare", "-m", "--propagation", "private"], ["unshare", "-m", "-r", "--propagation", "private"]):
        probe = subprocess.run([*cmd, "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs $d && umount $d"],
                               capture_output=True, text=True)
        if probe.returncode == 0:
            return cmd
    return f"mount namespaces with tmpfs are not permitted here ({probe.stderr.strip()[:120]})"


def sh(script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `script` (bash) in a private mount namespace with a tmpfs at $M and `iv` = the app."""
    cmd = _unshare()
    if isinstance(cmd, str):
        pytest.skip(cmd)
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    prelude = (f'set -u; M={mnt}; iv() {{ "{sys.executable}" -m interviewer --bank "{FIXTURES}" "$@"; }}; '
               f'mount -t tmpfs -o size=${{SIZE:-512k}} tmpfs $M; export INTERVIEWER_HOME=$M/home; ')
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([*cmd, "bash", "-c", prelude + script], capture_output=True, text=True, env=full_env,
                          cwd=ROOT, timeout=120)


def test_read_only_fresh_data_dir_is_a_clear_error(tmp_path: Path) -> None:
    r = sh('mount -o remount,ro $M; iv run --plain --questions demo-01 <<< "x"; echo "rc=$?"; '
           'iv history; echo "rc=$?"', tmp_path)
    assert r.stdout.count("rc=1") == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert f"{tmp_path}/mnt/home/interviewer.db: cannot write there" in r.stderr
    assert "read-only file system" in r.stderr


def test_read_only_with_an_intact_database(tmp_path: Path) -> None:
    r = sh(f'iv run --plain --questions demo-01 --follow-ups 0 --format json > {tmp_path}/rec.json <<< "$A" || exit 9; '
           'mount -o remount,ro $M; '
           'iv history --format json; echo "rc=$?"; '
           'iv run --plain --questions demo-01 <<< "x"; echo "rc=$?"', tmp_path, A=ANSWERS)
    assert "Traceback" not in r.stderr, r.stderr
    session = json.loads((tmp_path / "rec.json").read_text())["id"]
    assert session in r.stdout and "rc=0" in r.stdout  # history reads it
    assert "rc=1" in r.stdout and "the database itself is intact" in r.stderr
    assert "move it aside" not in r.stderr


def test_full_disk_plain_interview_goes_on_and_is_rescued(tmp_path: Path) -> None:
    rescue = tmp_path / "rescue.json"
    r = sh('iv history > /dev/null || exit 9; dd if=/dev/zero of=$M/filler bs=4k 2>/dev/null; '
           'iv run --plain --questions demo-01 --follow-ups 1 <<< "$A"; echo "rc=$?"', tmp_path,
           A=ANSWERS, INTERVIEWER_RESCUE_FILE=str(rescue))
    assert "rc=0" in r.stdout and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "the disk is full" in r.stdout and f"Saved to {rescue}" in r.stdout
    backup = json.loads(rescue.read_text())
    turns = backup["sessions"][0]["questions"][0]["turns"]
    answers = [t["text"] for t in turns if t["kind"] == "answer"]
    assert answers == ["GRPO uses the group mean reward as the baseline.", "The baseline keeps the gradient unbiased."]
    assert backup["sessions"][0]["questions"][0]["grade"] is not None
    home = tmp_path / "restored"
    env = {**os.environ, "INTERVIEWER_HOME": str(home)}
    imp = subprocess.run([sys.executable, "-m", "interviewer", "import", str(rescue)], capture_output=True, text=True,
                         env=env, cwd=ROOT)
    assert imp.returncode == 0, imp.stderr
    hist = subprocess.run([sys.executable, "-m", "interviewer", "history", "--format", "json"], capture_output=True,
                          text=True, env=env, cwd=ROOT)
    assert backup["sessions"][0]["id"] in hist.stdout


ENGINE = """
import asyncio, os, sys
from pathlib import Path
from interviewer.bank.loader import load_bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.storage.db import open_store

home = Path(os.environ["INTERVIEWER_HOME"]); filler = home.parent / "filler"
bank = load_bank([Path(sys.argv[1])], include_builtin=False)
store = open_store(home)
notices = []
iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=3), bank, OfflineExaminer(), store,
                     on_notice=notices.append)

async def main():
    step = await iv.submit_answer("first answer, saved normally")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)  # the disk fills up mid-interview
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError:
        pass
    finally:
        os.close(fd)
    await step.probe.collect(); iv.probe_done(step.probe)
    step = await iv.submit_answer("second answer, typed while the disk is full " * 40)
    assert iv.unsaved is not None, "the save should have failed"
    await step.probe.collect(); iv.probe_done(step.probe)
    filler.unlink()  # space returns
    step = await iv.submit_answer("third answer, after space returned")
    assert iv.unsaved is None

asyncio.run(main())
store.close()
again = open_store(home)
rec = again.load_session(iv.record.id)
print("ANSWERS", [t.text[:12] for t in rec.questions[0].turns if t.kind == "answer"])
print("NOTICES", notices)
"""


def test_full_disk_mid_interview_keeps_everything_and_saves_when_space_returns(tmp_path: Path) -> None:
    script = tmp_path / "engine.py"
    script.write_text(ENGINE)
    r = sh(f'"{sys.executable}" {script} {FIXTURES}', tmp_path, SIZE="256k")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ANSWERS ['first answer', 'second answe', 'third answer']" in r.stdout
    assert "Cannot save the interview" in r.stdout and "the disk is full" in r.stdout
    assert "The interview is saved again." in r.stdout
