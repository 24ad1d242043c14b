"""Timeouts against the local fake server (issue 15, F10): a bound on the whole call and on a dripping
stream, a read timeout named as one, truncation reported, a slow-model notice and the way out of it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from interviewer.bank.loader import Bank
from interviewer.bank.models import Question
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.base import Exchange, Turn
from interviewer.examiners.errors import ExaminerUnavailable
from interviewer.examiners.llm.examiner import LLMExaminer
from tests.llm.conftest import FAST, MODEL
from tests.llm.fakeserver import FakeLLM, Reply, drip, hang
from tests.llm.oracle import Oracle

ANSWER = "GRPO samples a group of answers and subtracts the group's mean reward as the baseline."
PROBE = "baseline-variance\nWhat does subtracting the baseline change about the gradient, and what stays the same?"


@pytest.fixture
def q(demo_bank: Bank) -> Question:
    return demo_bank.get("demo-01")


def exchange(q: Question) -> Exchange:
    return Exchange(q, "en", [Turn("examiner", "question", q.text.get("en")), Turn("candidate", "answer", ANSWER)],
                    max_probes=1)


async def test_stream_read_timeout_is_named_a_timeout(fake_llm: FakeLLM, q: Question) -> None:
    fake_llm.responder = lambda seen: hang(3.0)
    llm = LLMExaminer(MODEL, api_base=fake_llm.url, policy=replace(FAST, max_attempts=1, read_timeout=0.4))
    with pytest.raises(ExaminerUnavailable) as info:
        await llm.next_probe(exchange(q))
    msg = str(info.value)
    assert "did not answer within 0.4s (read timeout" in msg and "HTTP 500" not in msg


async def test_total_deadline_bounds_all_attempts(fake_llm: FakeLLM, q: Question) -> None:
    """Ten attempts of 0.4 s each would take 4 s or more; the call's deadline ends it at 1 s."""
    fake_llm.responder = lambda seen: hang(3.0)
    policy = replace(FAST, max_attempts=10, read_timeout=0.4, total_timeout=1.0)
    llm = LLMExaminer(MODEL, api_base=fake_llm.url, policy=policy)
    t0 = time.perf_counter()
    with pytest.raises(ExaminerUnavailable, match=r"gave up after \d attempts? and 1s"):
        await llm.grade(exchange(q))
    assert time.perf_counter() - t0 < 2.0


async def test_dripping_stream_is_cut_and_reported(fake_llm: FakeLLM, q: Question) -> None:
    fake_llm.script(drip(PROBE, every=0.15))  # ~35 pieces: 5 s in all
    llm = LLMExaminer(MODEL, api_base=fake_llm.url, policy=replace(FAST, stream_timeout=1.0))
    t0 = time.perf_counter()
    probe = await llm.next_probe(exchange(q))
    assert probe is not None
    text = await probe.collect()
    assert time.perf_counter() - t0 < 2.5
    assert text and len(text) < len(PROBE.split("\n", 1)[1])  # what arrived is kept
    assert probe.truncated and "still streaming after 1s" in probe.truncated
    assert any("cut off" in n for n in llm.notices)


async def test_cut_follow_up_is_told_to_the_user_and_recorded(fake_llm: FakeLLM, demo_bank: Bank) -> None:
    oracle = Oracle(demo_bank)
    fake_llm.responder = lambda seen: (Reply.stream([PROBE[:20], PROBE[20:40], PROBE[40:]], cut_after=2)
                                       if seen.body.get("stream") else oracle(seen))
    notices: list[str] = []
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=1), demo_bank,
                         LLMExaminer(MODEL, api_base=fake_llm.url, policy=FAST), on_notice=notices.append)
    step = await iv.submit_answer(ANSWER)
    assert step.probe is not None
    await step.probe.collect()
    iv.probe_done(step.probe)
    assert any("cut off" in n and "connection broke" in n for n in notices), notices
    assert any("cut off" in n for n in iv.record.notes)


async def test_slow_model_notice_and_escape_to_offline(fake_llm: FakeLLM, demo_bank: Bank) -> None:
    fake_llm.responder = lambda seen: hang(5.0)
    notices: list[str] = []
    llm = LLMExaminer(MODEL, api_base=fake_llm.url, policy=replace(FAST, read_timeout=8.0, slow_notice_after=0.3))
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=0), demo_bank, llm, on_notice=notices.append)
    t0 = time.perf_counter()
    submit = asyncio.ensure_future(iv.submit_answer(ANSWER))
    while not any("slow" in n for n in notices):
        await asyncio.sleep(0.05)
        assert time.perf_counter() - t0 < 3.0, notices
    assert iv.waiting and "Esc to use the offline examiner" in notices[0]
    assert iv.use_offline()
    step = await submit
    assert time.perf_counter() - t0 < 3.0
    assert step.grade is not None and step.grade.examiner == "offline" and step.question_done
    assert any("You chose the offline examiner" in n for n in notices)
    assert iv.record.questions[0].turns[-1].text == ANSWER  # nothing typed is lost
