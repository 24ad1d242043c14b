"""Time from process start until the app's first screen shows in a tmux pane.

    python benchmarks/bench_tui_first_paint.py [--runs 5]

Each app is started in a fresh detached tmux session (100x30); the pane is
polled every 5 ms until a marker text of the first screen appears. The same
method times a Textual "hello world", so the figures compare like with like on
this machine (the issue's reference points were taken on another 2-core box).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HELLO = """
from textual.app import App
from textual.widgets import Static
class Hello(App):
    def compose(self):
        yield Static("Hello, world!")
Hello().run()
"""


def first_paint(command: str, marker: str, env: dict[str, str], timeout: float = 20.0) -> float:
    session = f"bench{os.getpid()}{time.monotonic_ns()}"
    for _attempt in range(5):
        t0 = time.perf_counter()
        started = subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command], env=env)
        if started.returncode == 0:
            break
        # The previous run's kill-session can leave the tmux server exiting
        # ("server exited unexpectedly"); wait for it and start again.
        time.sleep(0.2)
    else:
        raise RuntimeError("tmux new-session failed 5 times")
    try:
        while time.perf_counter() - t0 < timeout:
            out = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout
            if marker in out:
                return time.perf_counter() - t0
            time.sleep(0.005)
        raise TimeoutError(f"{marker!r} did not appear within {timeout}s")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not shutil.which("tmux"):
        sys.exit("tmux is needed: apt-get install tmux")
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "INTERVIEWER_HOME": home, "TERM": "xterm-256color"}
        hello = Path(home) / "hello.py"
        hello.write_text(HELLO, encoding="utf-8")
        py = sys.executable
        apps = {
            "tmux + python -c pass (floor)": (f"{py} -c 'import time; print(\"READY\"); time.sleep(30)'", "READY"),
            "Textual hello world": (f"{py} {hello}", "Hello, world!"),
            "interviewer (home screen)": (f"{py} -m interviewer", "mock interviews for RL"),
        }
        for name, (cmd, marker) in apps.items():
            first_paint(cmd, marker, env)  # warm the file cache and .pyc files
            times = [first_paint(cmd, marker, env) for _ in range(args.runs)]
            print(f"{name:32s} median {statistics.median(times):.3f} s  (min {min(times):.3f}, max {max(times):.3f}, n={args.runs})")
    print("target: interviewer first screen <= 0.3 s on a 2-core machine (issue 7)")


if __name__ == "__main__":
    main()
