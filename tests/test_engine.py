"""The interview engine: flows, persistence before grading, resume, fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.bank.loader import Bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.examiners.base import Examiner, Exchange, Probe
from interviewer.examiners.errors import ExaminerUnavailable
from interviewer.examiners.grade import Grade
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.storage.db import Store

WEAK = "GRPO is a policy optimisation method."
STRONG = (
    "GRPO samples a group of responses and subtracts the group's mean reward as the baseline instead of a critic. "
    "The baseline reduces variance and keeps the gradient unbiased. Dividing by the std is optional per Dr. GRPO."
)


class MemoryStore:
    def __init__(self) -> None:
        self.saved: list[str] = []

    def save_session(self, record: SessionRecord) -> None:
        self.saved.append(record.model_dump_json())


def plan(**kw: object) -> Plan:
    return Plan(question_ids=["demo-01"], **kw)  # type: ignore[arg-type]


async def test_full_interview_with_probes(demo_bank: Bank) -> None:
    store = MemoryStore()
    iv = Interview.start(plan(follow_ups=2), demo_bank, OfflineExaminer(), store)
    assert iv.question_text().startswith("How does GRPO")
    step = await iv.submit_answer(WEAK)
    assert step.probe is not None and not step.question_done
    assert await step.probe.collect()
    iv.probe_done(step.probe)
    step = await iv.submit_answer("It uses the mean reward of the group as the baseline.")
    assert step.probe is not None
    iv.probe_done(step.probe)
    step = await iv.submit_answer("I am not sure.")
    assert step.question_done and step.grade is not None
    assert iv.advance() is None and iv.finished
    kinds = [t.kind for t in iv.record.questions[0].turns]
    assert kinds == ["question", "answer", "probe", "answer", "probe", "answer"]
    assert 0 < step.grade.overall < 10


async def test_strong_answer_needs_no_probe(demo_bank: Bank) -> None:
    iv = Interview.start(plan(), demo_bank, OfflineExaminer())
    step = await iv.submit_answer(STRONG)
    assert step.probe is None and step.question_done and step.grade and step.grade.overall >= 8


async def test_skip_and_dont_know(demo_bank: Bank) -> None:
    iv = Interview.start(Plan(question_ids=["demo-01", "demo-01"]), demo_bank, OfflineExaminer())
    g = await iv.skip()
    assert g.overall == 0 and iv.record.questions[0].status == "skipped"
    iv.advance()
    g = await iv.dont_know()
    assert g.verdict == "no answer" and g.strong_answer_adds
    assert iv.advance() is None


async def test_drill_until_every_point_is_covered(demo_bank: Bank) -> None:
    iv = Interview.start(plan(mode="drill"), demo_bank, OfflineExaminer())
    replies = [
        "GRPO uses the average reward of the group as a baseline.",
        "The baseline reduces the variance of the gradient.",
        "Dividing by the standard deviation is optional; Dr. GRPO removes it.",
    ]
    done = False
    for reply in replies:
        step = await iv.submit_answer(reply)
        assert step.grade is not None  # drill: feedback after each reply
        if step.probe:
            iv.probe_done(step.probe)
        done = step.question_done
    assert done and iv.record.questions[0].grade is not None
    assert iv.record.questions[0].grade.overall >= 9


async def test_answer_is_stored_before_the_examiner_sees_it(demo_bank: Bank, tmp_path: Path) -> None:
    class Exploding(Examiner):
        name = "exploding"

        async def next_probe(self, exchange: Exchange) -> Probe | None:
            raise RuntimeError("boom")

        async def grade(self, exchange: Exchange) -> Grade:
            raise RuntimeError("boom")

    store = Store(tmp_path / "db.sqlite")
    iv = Interview.start(plan(), demo_bank, Exploding(), store)
    with pytest.raises(RuntimeError):
        await iv.submit_answer("my precious answer")
    again = Store(tmp_path / "db.sqlite").load_session(iv.record.id)
    assert again.questions[0].answers() == ["my precious answer"]


async def test_resume_from_stored_record(demo_bank: Bank, tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    iv = Interview.start(Plan(question_ids=["demo-01", "demo-01"], follow_ups=1), demo_bank, OfflineExaminer(), store)
    step = await iv.submit_answer(WEAK)
    assert step.probe
    await step.probe.cancel()
    iv.probe_done(step.probe)
    store.close()
    record = Store(tmp_path / "db.sqlite").load_session(iv.record.id)
    resumed = Interview(record, demo_bank, OfflineExaminer())
    assert resumed.awaiting_answer() and resumed.index == 0
    step = await resumed.submit_answer("the group mean reward is the baseline")
    assert step.question_done
    assert resumed.advance() is not None


async def test_unreachable_examiner_falls_back_to_offline(demo_bank: Bank) -> None:
    class Down(Examiner):
        name = "openai/model"

        async def next_probe(self, exchange: Exchange) -> Probe | None:
            raise ExaminerUnavailable("cannot reach http://127.0.0.1:9/v1")

        async def grade(self, exchange: Exchange) -> Grade:
            raise ExaminerUnavailable("cannot reach http://127.0.0.1:9/v1")

    notices: list[str] = []
    iv = Interview.start(plan(follow_ups=0), demo_bank, Down(), on_notice=notices.append)
    step = await iv.submit_answer(STRONG)
    assert step.grade is not None and step.grade.examiner == "offline"
    assert notices and "offline examiner" in notices[0] and iv.record.notes


async def test_hint_costs_points(demo_bank: Bank) -> None:
    iv = Interview.start(plan(follow_ups=0), demo_bank, OfflineExaminer())
    hint = iv.hint()
    assert hint
    step = await iv.submit_answer(STRONG)
    assert step.grade and step.grade.hint_penalty == 0.5 and step.grade.overall == 9.5


def test_unknown_question_in_plan(demo_bank: Bank) -> None:
    with pytest.raises(KeyError):
        Interview.start(Plan(question_ids=["nope"]), demo_bank, OfflineExaminer())
