"""Headless grading: one answer or a JSONL batch, through any examiner.

The output line format is a stable contract (documented in the README):
`{"id", "question_id", "score", "max_score", "criteria", "misconceptions",
"follow_up", "examiner"}` per input line, in input order; a bad line gives
`{"id", "error"}` and the batch goes on.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from interviewer.bank.loader import Bank
from interviewer.bank.models import LANGS
from interviewer.examiners.base import Examiner, Exchange, Turn
from interviewer.examiners.grade import CriterionScore, DetectedMisconception, Grade

MAX_ANSWER_CHARS = 20_000


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


def parse_line(line: str, lineno: int, bank: Bank, default_lang: str) -> Request:
    """One JSONL line into a request; unknown keys are ignored."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"line {lineno}: invalid JSON: {exc.msg} at column {exc.colno}") from None
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


async def grade_request(
    examiner: Examiner, bank: Bank, req: Request, follow_up: bool = True
) -> tuple[GradeResult, Grade]:
    """Grade one answer; return the contract line and the full feedback (`follow_up=False`: no probe call)."""
    question = bank.get(req.question_id)
    if question.rubric is None:
        raise InputError(f"question {req.question_id!r} has no rubric to grade against")
    exchange = Exchange(question, req.lang, [Turn("candidate", "answer", req.answer)], max_probes=1)
    grade = await examiner.grade(exchange)
    probe = await examiner.next_probe(exchange) if follow_up else None
    follow_up_text = await probe.collect() if probe else None
    result = GradeResult(
        id=req.id,
        question_id=req.question_id,
        score=grade.overall,
        verdict=grade.verdict,
        criteria=grade.criteria,
        misconceptions=grade.misconceptions,
        follow_up=follow_up_text,
        examiner=grade.examiner,
        note=grade.note,
        samples=grade.samples,
        spread=grade.spread,
    )
    return result, grade


async def grade_batch(
    lines: list[str],
    bank: Bank,
    examiner: Examiner,
    default_lang: str,
    concurrency: int = 4,
    on_done: Callable[[], None] | None = None,
    follow_up: bool = True,
) -> AsyncIterator[dict[str, Any]]:
    """Grade every line with up to `concurrency` in flight; yield results in input order."""
    sem = asyncio.Semaphore(max(1, concurrency))

    async def one(n: int, line: str) -> dict[str, Any]:
        rid: Any = f"line-{n}"
        try:
            req = parse_line(line, n, bank, default_lang)
            rid = req.id
            async with sem:
                result, _ = await grade_request(examiner, bank, req, follow_up)
                return result.model_dump(mode="json")
        except InputError as exc:
            return {"id": rid if exc.rid is None else exc.rid, "error": str(exc)}
        except Exception as exc:  # one failed line must not stop the batch
            return {"id": rid, "error": f"{type(exc).__name__}: {exc}"}
        finally:
            if on_done:
                on_done()

    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    tasks = [asyncio.ensure_future(one(n, line)) for n, line in numbered]
    try:
        for task in tasks:
            yield await task
    finally:
        for task in tasks:
            task.cancel()

