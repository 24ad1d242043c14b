"""The TUI reads the store from worker threads while the UI thread writes or closes it (a CI run once crashed there)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from interviewer.engine.record import Plan, SessionRecord
from interviewer.storage.db import open_store


def test_closing_the_store_while_other_threads_read_it_is_safe(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    for _ in range(40):
        store.save_session(SessionRecord(plan=Plan(question_ids=["demo-01"])))
    errors: list[BaseException] = []
    closed = 0
    lock = threading.Lock()

    def read() -> None:
        nonlocal closed
        try:
            for _ in range(2000):
                assert len(store.sessions()) in (40, 41) and store.cards() == []
        except sqlite3.ProgrammingError:  # "Cannot operate on a closed database": the reader just stops
            with lock:
                closed += 1
        except BaseException as exc:  # any other failure (an assertion, a wrong error) is the test's
            errors.append(exc)

    readers = [threading.Thread(target=read) for _ in range(4)]
    for t in readers:
        t.start()
    time.sleep(0.05)
    store.save_session(SessionRecord(plan=Plan(question_ids=["demo-01"])))  # a write among the reads
    store.close()
    for t in readers:
        t.join(timeout=30)
    assert errors == [] and closed >= 1  # some reader was still reading when the store closed: no crash
