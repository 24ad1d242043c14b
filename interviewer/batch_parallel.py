"""Offline batches on several cores: the answers to one question go to one worker process.

The offline examiner is CPU-bound and deterministic, and most of its start-up cost is compiling a
question's cues. A long batch is therefore split by question across forked worker processes, each of
which compiles only the questions it grades; the output is the same lines, in input order, as grading
in one process. Only on Linux (fork keeps the loaded bank; other platforms grade in one process).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from interviewer.bank.loader import Bank
from interviewer.batch import (
    InputError,
    Line,
    Request,
    decode_line,
    error_result,
    grade_request,
    is_blank,
    parse_line,
)
from interviewer.examiners.base import Examiner

BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
MIN_LINES = 200  # below this, forking costs more than it saves
_bank: Bank | None = None  # the parent's bank, inherited by the forked workers
_follow_up = True


def default_jobs() -> int:
    """The cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


def _grade_group(task: list[tuple[int, Request]]) -> list[tuple[int, dict[str, Any]]]:
    """In a worker: grade one question's answers with the offline examiner."""
    from interviewer.examiners.offline.examiner import OfflineExaminer

    assert _bank is not None
    examiner = OfflineExaminer()

    async def run() -> list[tuple[int, dict[str, Any]]]:
        out = []
        for n, req in task:
            try:
                result = (await grade_request(examiner, _bank, req, _follow_up))[0].model_dump(mode="json")
            except Exception as exc:  # one failed line must not stop the batch
                result = error_result(req.id, exc)
            out.append((n, result))
        return out

    return asyncio.run(run())


def grade_offline_parallel(
    examiner: Examiner,
    lines: Sequence[Line],
    bank: Bank,
    default_lang: str,
    jobs: int | None = None,
    follow_up: bool = True,
    on_done: Callable[[], None] | None = None,
) -> Iterator[dict[str, Any]] | None:
    """Results in input order, graded by `jobs` worker processes (default: the cores, at most 4);
    None when the caller should grade in-process: another examiner, one job, a short batch, or a
    platform without fork."""
    jobs = jobs or default_jobs()
    if (examiner.name != "offline" or jobs < 2 or not sys.platform.startswith("linux")
            or sum(1 for line in lines if not is_blank(line)) < MIN_LINES):
        return None
    return _run(lines, bank, default_lang, jobs, follow_up, on_done)


def _run(
    lines: Sequence[Line], bank: Bank, default_lang: str, jobs: int, follow_up: bool, on_done: Callable[[], None] | None
) -> Iterator[dict[str, Any]]:
    import multiprocessing

    global _bank, _follow_up
    ready: dict[int, dict[str, Any]] = {}
    order: list[int] = []
    groups: dict[str, list[tuple[int, Request]]] = defaultdict(list)
    for n, line in enumerate(lines, 1):
        if is_blank(line):
            continue
        order.append(n)
        try:
            req = parse_line(decode_line(line, n), n, bank, default_lang)
        except InputError as exc:
            ready[n] = error_result(f"line-{n}", exc)
            continue
        groups[req.question_id].append((n, req))
    tasks = sorted(groups.values(), key=len, reverse=True)  # the longest first: the workers end together
    _bank, _follow_up = bank, follow_up
    done = 0

    def advance() -> Iterator[dict[str, Any]]:
        nonlocal done
        while done < len(order) and order[done] in ready:
            if on_done:
                on_done()
            yield ready.pop(order[done])
            done += 1

    # One BLAS thread per worker: the workers already fill the cores, and the sentence encoder's numpy
    # threads on top of them made a 1,000-answer batch twice as slow as one process. Read by OpenBLAS
    # when a worker first loads numpy (the parent has not: nothing here embeds before the fork).
    for var in BLAS_THREAD_VARS:
        os.environ.setdefault(var, "1")
    with multiprocessing.get_context("fork").Pool(min(jobs, max(1, len(tasks)))) as pool:
        yield from advance()
        for results in pool.imap_unordered(_grade_group, tasks):
            ready.update(results)
            yield from advance()
    yield from advance()


__all__ = ["MIN_LINES", "default_jobs", "grade_offline_parallel"]
