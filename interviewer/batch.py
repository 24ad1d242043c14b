"""Headless grading: one answer or a JSONL batch, through any examiner.

The output line format is a stable contract (documented in the README):
`{"id", "question_id", "score", "max_score", "criteria", "misconceptions",
"follow_up", "examiner"}` per input line, in input order; a bad line gives
`{"id", "error"}` and the batch goes on.

Records are split on `\n` only (JSON allows U+2028 and U+0085 raw inside a
string, so `str.splitlines()` would cut a record in two); each line is
decoded on its own, so one bad byte costs one line, not the batch. Blank
lines are skipped and produce no output line.

A model that cannot be reached does not cost lines either: a line whose
grade hits ExaminerUnavailable waits for the client's circuit breaker and
is tried again, and if the model is still out it is graded by the offline
examiner and labelled so (`examiner: "offline"`, a `note` saying why).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Literal

from pydantic import BaseModel, Field

from interviewer.bank.loader import Bank
from interviewer.bank.models import LANGS
from interviewer.examiners.base import Examiner, Exchange, Turn
from interviewer.examiners.errors import ExaminerError, ExaminerUnavailable
from interviewer.examiners.grade import CriterionScore, DetectedMisconception, Grade

MAX_ANSWER_CHARS = 20_000
# One JSONL record: a 20,000-character answer written as \uXXXX escapes is ~120 KB; anything much
# longer is refused without being kept in memory.
MAX_LINE_BYTES = 1 << 20
MAX_DISCARD_BYTES = 64 << 20  # an over-long line is skipped up to this much, then reading stops
UNAVAILABLE_RETRIES = 2  # waits for the model's breaker per line before the offline examiner grades it


class InputError(ValueError):
    """A request that cannot be graded; the message says why, `rid` names the line's id if known."""

    def __init__(self, message: str, rid: Any = None) -> None:
        super().__init__(message)
        self.rid = rid


@dataclass
class Request:
    id: str
    question_id: str
    answer: str
    lang: str


def check_answer(answer: str) -> str:
    if not answer.strip():
        raise InputError("the answer is empty")
    if len(answer) > MAX_ANSWER_CHARS:
        raise InputError(
            f"the answer has {len(answer):,} characters; the limit is {MAX_ANSWER_CHARS:,} "
            "(an interview answer, not a document)"
        )
    return answer


Line = str | bytes | InputError  # a record as read: text, undecoded bytes, or why it could not be read


def split_lines(data: bytes) -> list[bytes]:
    """Records of a JSONL byte string: split on b"\\n" only, a trailing "\\r" dropped."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> list[Line]:
    """The records of a JSONL stream, never holding more than `limit` bytes of one line.

    A longer line becomes an InputError in its place (the batch goes on);
    a line longer than MAX_DISCARD_BYTES (e.g. /dev/zero) ends the input.
    """
    out: list[Line] = []
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return out
        if len(line) <= limit or line.endswith(b"\n"):
            line = line[:-1] if line.endswith(b"\n") else line
            out.append(line[:-1] if line.endswith(b"\r") else line)
            continue
        n = len(out) + 1
        skipped = len(line)
        while not line.endswith(b"\n") and skipped < MAX_DISCARD_BYTES:
            line = stream.readline(limit)
            if not line:
                break
            skipped += len(line)
        if not line.endswith(b"\n") and line:
            out.append(InputError(f"line {n}: longer than {MAX_DISCARD_BYTES:,} bytes; the rest of the input "
                                  "was not read"))
            return out
        out.append(InputError(f"line {n}: longer than {limit:,} bytes (answers are limited to "
                              f"{MAX_ANSWER_CHARS:,} characters)"))


def decode_line(line: Line, lineno: int) -> str:
    """The text of one record, or an InputError naming the line."""
    if isinstance(line, InputError):
        raise line
    if isinstance(line, bytes):
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"line {lineno}: not valid UTF-8 (byte {exc.start + 1}: {line[exc.start:exc.start + 1]!r})"
                             ) from None
    return line


def is_blank(line: Line) -> bool:
    if isinstance(line, InputError):
        return False
    return not line.strip()


def parse_line(line: str, lineno: int, bank: Bank, default_lang: str) -> Request:
    """One JSONL line into a request; unknown keys are ignored."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"line {lineno}: invalid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise InputError(f"line {lineno}: invalid JSON: nested too deeply") from None
    if not isinstance(obj, dict):
        raise InputError(f"line {lineno}: expected a JSON object")
    rid = obj.get("id", f"line-{lineno}")
    qid, answer, lang = obj.get("question_id"), obj.get("answer"), obj.get("lang") or default_lang
    if not isinstance(qid, str):
        raise InputError(f"line {lineno}: field 'question_id' is missing or not a string", rid)
    if qid not in bank:
        raise InputError(f"line {lineno}: unknown question_id {qid!r}", rid)
    if not isinstance(answer, str):
        raise InputError(f"line {lineno}: field 'answer' is missing or not a string", rid)
    if lang not in LANGS:
        raise InputError(f"line {lineno}: field 'lang' must be one of {', '.join(LANGS)}", rid)
    try:
        check_answer(answer)
    except InputError as exc:
        raise InputError(f"line {lineno}: {exc}", rid) from None
    return Request(str(rid), qid, answer, lang)


class GradeResult(BaseModel):
    """One line of `grade` output: the stable headless contract."""

    id: str
    question_id: str
    score: float = Field(ge=0, le=10)
    max_score: Literal[10] = 10
    verdict: str
    criteria: list[CriterionScore]
    misconceptions: list[DetectedMisconception]
    follow_up: str | None
    examiner: str
    note: str | None = None
    samples: int = 1
    spread: float | None = None  # with --samples K > 1: max - min of the K overall scores (0 = they agree)
    unjudged: list[str] = Field(default_factory=list)  # offline: sentences about the question it could not match
    resemblance: float | None = None  # offline: the grade of the closest graded examples, when they moved the score
    resemblance_shift: float | None = None  # offline: how far they moved it (+ raised, - lowered)


async def grade_request(
    examiner: Examiner, bank: Bank, req: Request, follow_up: bool = True
) -> tuple[GradeResult, Grade]:
    """Grade one answer; return the contract line and the full feedback (`follow_up=False`: no probe call).

    A finished grade is kept whatever happens to the follow-up: if the model
    cannot write it, the offline examiner's probe is used and the note says so.
    """
    question = bank.get(req.question_id)
    if question.rubric is None:
        raise InputError(f"question {req.question_id!r} has no rubric to grade against")
    exchange = Exchange(question, req.lang, [Turn("candidate", "answer", req.answer)], max_probes=1)
    grade = await examiner.grade(exchange)
    notes = [grade.note] if grade.note else []
    follow_up_text: str | None = None
    if follow_up:
        try:
            probe = await examiner.next_probe(exchange)
            follow_up_text = await probe.collect() if probe else None
            if probe is not None and probe.truncated:
                notes.append(f"follow-up incomplete: {probe.truncated}")
        except ExaminerError as exc:
            from interviewer.examiners.offline.examiner import OfflineExaminer

            offline_probe = await OfflineExaminer().next_probe(exchange)
            follow_up_text = await offline_probe.collect() if offline_probe else None
            notes.append(f"offline follow-up: {exc}")
    result = GradeResult(
        id=req.id,
        question_id=req.question_id,
        score=grade.overall,
        verdict=grade.verdict,
        criteria=grade.criteria,
        misconceptions=grade.misconceptions,
        follow_up=follow_up_text,
        examiner=grade.examiner,
        note="; ".join(notes) or None,
        samples=grade.samples,
        spread=grade.spread,
        unjudged=grade.unjudged,
        resemblance=grade.resemblance,
        resemblance_shift=grade.resemblance_shift,
    )
    return result, grade


async def grade_or_fallback(
    examiner: Examiner, bank: Bank, req: Request, sem: asyncio.Semaphore | None = None,
    retries: int = UNAVAILABLE_RETRIES, follow_up: bool = True,
) -> GradeResult:
    """Grade with the examiner; while the model is paused wait and retry, then grade offline, labelled."""
    last: ExaminerUnavailable | None = None
    for attempt in range(retries + 1):
        try:
            if sem is None:
                return (await grade_request(examiner, bank, req, follow_up))[0]
            async with sem:
                return (await grade_request(examiner, bank, req, follow_up))[0]
        except ExaminerUnavailable as exc:
            last = exc
            if exc.retry_in is None or attempt == retries:
                break
            await asyncio.sleep(exc.retry_in + random.uniform(0.0, 0.25))  # outside the semaphore
    from interviewer.examiners.offline.examiner import OfflineExaminer

    result, _ = await grade_request(OfflineExaminer(), bank, req, follow_up)
    why = f"offline grade: the model could not grade this line ({last})"
    result.note = f"{why}; {result.note}" if result.note else why
    return result


def error_result(rid: Any, exc: Exception) -> dict[str, Any]:
    """The output line for a record that could not be graded: its id and why."""
    if isinstance(exc, InputError):
        return {"id": rid if exc.rid is None else exc.rid, "error": str(exc)}
    return {"id": rid, "error": f"{type(exc).__name__}: {exc}"}


async def grade_batch(
    lines: Sequence[Line],
    bank: Bank,
    examiner: Examiner,
    default_lang: str,
    concurrency: int = 4,
    on_done: Callable[[], None] | None = None,
    follow_up: bool = True,
) -> AsyncIterator[dict[str, Any]]:
    """Grade every line with up to `concurrency` in flight; yield results in input order.

    `lines` are str, undecoded bytes (see `read_lines`) or InputErrors; blank
    lines are skipped, and line numbers count every line of the input.
    """
    sem = asyncio.Semaphore(max(1, concurrency))

    async def one(n: int, line: Line) -> dict[str, Any]:
        rid: Any = f"line-{n}"
        try:
            req = parse_line(decode_line(line, n), n, bank, default_lang)
            rid = req.id
            return (await grade_or_fallback(examiner, bank, req, sem, follow_up=follow_up)).model_dump(mode="json")
        except Exception as exc:  # one failed line must not stop the batch
            return error_result(rid, exc)
        finally:
            if on_done:
                on_done()

    numbered = [(n, line) for n, line in enumerate(lines, 1) if not is_blank(line)]
    tasks = [asyncio.ensure_future(one(n, line)) for n, line in numbered]
    try:
        for task in tasks:
            yield await task
    finally:
        for task in tasks:
            task.cancel()
