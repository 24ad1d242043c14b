"""`interviewer serve`: the real server, the real page and websocket, the real app process behind it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from interviewer.cli.commands_serve import bind_warning
from tests.conftest import FIXTURES, ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    home = tmp_path / "served-home"
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "interviewer", "--data-dir", str(home), "--bank", str(FIXTURES), "serve", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ),
        start_new_session=True,
    )
    yield proc, port, home
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


async def test_serve_page_and_websocket_run_the_app(server) -> None:  # type: ignore[no-untyped-def]
    proc, port, home = server
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        page = None
        for _ in range(150):
            try:
                async with http.get(base + "/") as r:
                    page = (r.status, await r.text())
                    break
            except aiohttp.ClientConnectionError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.1)
        assert page is not None and page[0] == 200
        assert f"ws://127.0.0.1:{port}/ws" in page[1]
        seen = b""
        async with http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30") as ws:
            deadline = time.monotonic() + 60
            while b"due for review" not in seen and time.monotonic() < deadline:
                msg = await ws.receive(timeout=60)
                if msg.type == aiohttp.WSMsgType.BINARY:
                    seen += msg.data  # the app's terminal output
                elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
            assert b"mock interviews for RL" in seen  # the home screen, drawn by a real app process
            assert b"36 questions" in seen  # ... which loaded the built-in bank plus the one given to `serve`
    assert (home / "interviewer.db").exists()  # the app behind the page uses the given data dir


def test_serve_binds_loopback_by_default_and_warns_otherwise() -> None:
    assert bind_warning("127.0.0.1", 8000) is None
    assert bind_warning("::1", 8000) is None
    assert bind_warning("localhost", 8000) is None
    for host in ("0.0.0.0", "192.168.1.5", "lab-machine"):
        warning = bind_warning(host, 8000)
        assert warning is not None and "no login" in warning and host in warning
    from interviewer.cli.main import (
        cli,
        main,  # noqa: F401 - registers the commands
    )

    serve = cli.commands["serve"]
    host_option = next(p for p in serve.params if p.name == "host")
    assert host_option.default == "127.0.0.1"


def test_readme_history_and_report_commands_work_as_written(tmp_path: Path) -> None:
    """The README's `Using it` lines for history and report run as printed (walkthrough item 14)."""
    import asyncio
    import shlex

    from interviewer.bank.loader import load_bank
    from interviewer.engine.interview import Interview
    from interviewer.engine.record import Plan
    from interviewer.examiners.offline.examiner import OfflineExaminer
    from interviewer.storage.db import open_store

    home = tmp_path / "home"  # INTERVIEWER_HOME of every test
    with open_store(home) as store:
        iv = Interview.start(Plan(question_ids=["algo-01"], follow_ups=0), load_bank(), OfflineExaminer(), store)
        asyncio.run(iv.submit_answer("An answer."))
        iv.advance()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [
        line.split("#")[0].strip()
        for line in readme.split("## Using it")[1].split("```")[1].splitlines()
        if line.startswith(("interviewer history", "interviewer report"))
    ]
    assert len(lines) == 2 and not any("|" in line for line in lines)
    for line in lines:
        args = shlex.split(line)[1:]
        r = subprocess.run(
            [sys.executable, "-m", "interviewer", *args], capture_output=True, text=True, cwd=tmp_path,
            env={**os.environ, "INTERVIEWER_HOME": str(home)}, timeout=60,
        )
        assert r.returncode == 0, (line, r.stderr)
    assert iv.record.id in (tmp_path / "report.html").read_text(encoding="utf-8")
