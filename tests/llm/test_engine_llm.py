"""The LLM examiner inside the interview engine: usage on the record, fallback to offline, and the
API-key canary (the key must never reach the store, transcripts, logs or reports)."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path

import pytest

from interviewer.bank.loader import Bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.render import grade_text_report
from interviewer.reports import report_html, report_json, report_markdown
from interviewer.storage.db import open_store
from tests.llm.conftest import make
from tests.llm.fakeserver import FakeLLM, Reply, Seen
from tests.llm.oracle import Oracle

WEAK = "GRPO is a policy optimisation method that samples several answers."


async def _answer_all(iv: Interview, answer: str) -> None:
    while not iv.finished:
        step = await iv.submit_answer(answer)
        while step.probe is not None:
            await step.probe.collect()
            iv.probe_done(step.probe)
            step = await iv.submit_answer("I would have to think about it.")
        iv.advance()


async def test_interview_with_llm_examiner(fake_llm: FakeLLM, demo_bank: Bank, tmp_path: Path) -> None:
    fake_llm.responder = Oracle(demo_bank)
    store = open_store(tmp_path)
    llm = make(fake_llm)
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=2), demo_bank, llm, store)
    await _answer_all(iv, WEAK)
    q = iv.record.questions[0]
    assert q.grade is not None and q.grade.examiner == "openai/test-model"
    assert [t.kind for t in q.turns].count("probe") == 2
    assert iv.record.usage.prompt_tokens == 111 * 3 and iv.record.usage.cost_usd is None  # 2 probes + 1 grade
    saved = store.load_session(iv.record.id)
    assert saved.usage.prompt_tokens == 333
    store.close()


async def test_unreachable_model_falls_back_and_says_so(fake_llm: FakeLLM, demo_bank: Bank, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    notices: list[str] = []
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=1), demo_bank, make(fake_llm), None,
                         on_notice=notices.append)
    step = await iv.submit_answer(WEAK)
    assert notices and "OPENAI_API_KEY is not set" in notices[0] and "offline examiner" in notices[0]
    assert step.probe is not None  # the offline examiner took over
    assert iv.record.questions[0].answers() == [WEAK], "nothing the candidate wrote is lost"
    assert fake_llm.requests == []


async def test_budget_falls_back_to_offline(fake_llm: FakeLLM, demo_bank: Bank) -> None:
    from interviewer.examiners.llm.examiner import LLMExaminer
    from tests.llm.conftest import FAST

    fake_llm.script(Reply.text("group-baseline\nWhere does the baseline come from?", usage=(1_000_000, 10)))
    llm = LLMExaminer("openai/gpt-4o-mini", api_base=fake_llm.url, policy=FAST, max_cost=0.1)
    notices: list[str] = []
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=2), demo_bank, llm, None, on_notice=notices.append)
    step = await iv.submit_answer(WEAK)
    assert step.probe is not None
    await step.probe.collect()
    iv.probe_done(step.probe)
    step = await iv.submit_answer("No idea.")
    assert any("--max-cost budget of $0.1 is reached" in n for n in notices)
    assert len(fake_llm.requests) == 1
    assert iv.record.usage.cost_usd == pytest.approx(0.15 + 10 * 0.6e-6)


async def test_api_key_canary(fake_llm: FakeLLM, demo_bank: Bank, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> None:
    canary = "sk-canary-" + secrets.token_hex(16)
    monkeypatch.setenv("OPENAI_API_KEY", canary)
    caplog.set_level(logging.DEBUG)
    oracle = Oracle(demo_bank)
    calls = {"n": 0}

    def responder(seen: Seen) -> Reply:
        calls["n"] += 1
        assert seen.headers.get("authorization") == f"Bearer {canary}"  # the key does reach the provider
        if calls["n"] <= 2:
            return oracle(seen)
        # then a provider that echoes the key in its errors, as some do
        return Reply.fail(500, f"upstream failed for key {canary} (Bearer {canary})")

    fake_llm.responder = responder
    store = open_store(tmp_path)
    notices: list[str] = []
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=2), demo_bank, make(fake_llm), store,
                         on_notice=notices.append)
    await _answer_all(iv, WEAK)
    assert iv.record.notes, "the failure must be recorded"
    store.close()
    blobs = [p.read_bytes() for p in tmp_path.glob("interviewer.db*")]
    assert blobs and all(canary.encode() not in b for b in blobs)
    rec = iv.record
    texts = [rec.model_dump_json(), report_json(rec), report_markdown(rec, demo_bank), report_html(rec, demo_bank),
             *notices, caplog.text, *capfd.readouterr()]
    texts += [grade_text_report(q.grade, demo_bank.get(q.question_id)) for q in rec.questions if q.grade]
    for text in texts:
        assert canary not in text
        assert canary[10:] not in text  # not even the random part


async def test_a_paused_model_is_tried_again_at_the_next_question(fake_llm: FakeLLM, demo_bank: Bank) -> None:
    """A model outage costs one question, not the rest of the interview: the breaker's pause ends, the next
    question uses the model again (a missing key or a spent budget still switches for good)."""
    import asyncio
    from dataclasses import replace

    from interviewer.examiners.llm.examiner import LLMExaminer
    from tests.llm.conftest import FAST

    policy = replace(FAST, breaker_threshold=1, breaker_cooldown=0.2)
    llm = LLMExaminer("openai/test-model", api_base=fake_llm.url, policy=policy)
    oracle = Oracle(demo_bank)
    down = {"on": True}
    fake_llm.responder = lambda seen: Reply.fail(503, "overloaded") if down["on"] else oracle(seen)
    notices: list[str] = []
    iv = Interview.start(Plan(question_ids=["demo-01", "demo-01"], follow_ups=0), demo_bank, llm, None,
                         on_notice=notices.append)
    step = await iv.submit_answer(WEAK)
    assert step.grade is not None and step.grade.examiner == "offline"
    assert any("tried again on the next one" in n for n in notices)
    down["on"] = False
    await asyncio.sleep(0.25)  # the pause is over
    iv.advance()
    step = await iv.submit_answer(WEAK)
    assert step.grade is not None and step.grade.examiner == "openai/test-model"
    assert [q.answers() for q in iv.record.questions] == [[WEAK], [WEAK]]
