"""The engine side of the newcomer fixes: saved from the start, grade-now keeps the reply, skips not averaged."""

from __future__ import annotations

from pathlib import Path

from interviewer.bank.loader import Bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.storage.db import Store


def test_an_interview_is_stored_before_the_first_answer(tmp_path: Path, demo_bank: Bank) -> None:
    with Store(tmp_path / "i.db") as store:
        iv = Interview.start(Plan(question_ids=["demo-01"]), demo_bank, OfflineExaminer(), store)
        (unfinished,) = store.sessions(unfinished_only=True)
        assert unfinished.id == iv.record.id and store.latest_unfinished() is not None
        assert unfinished.questions[0].status == "active"


async def test_stop_probing_stores_the_last_reply_first(demo_bank: Bank) -> None:
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=2), demo_bank, OfflineExaminer())
    await iv.submit_answer("GRPO is an algorithm.")
    grade = await iv.stop_probing("The group mean reward is the baseline, no critic.")
    assert iv.record.questions[0].answers()[-1] == "The group mean reward is the baseline, no critic."
    assert any("group mean reward" in q for c in grade.criteria for q in c.evidence)


async def test_skipped_questions_are_not_averaged_as_zero(demo_bank: Bank) -> None:
    iv = Interview.start(Plan(question_ids=["demo-01", "demo-01"], follow_ups=0), demo_bank, OfflineExaminer())
    grade = (await iv.submit_answer("GRPO uses the group mean reward as the baseline, no critic.")).grade
    iv.advance()
    await iv.skip()
    assert grade is not None and iv.record.overall() == grade.overall > 0


def test_engine_notices_follow_the_interview_language_not_the_process_one(demo_bank: Bank) -> None:
    """`run --plain --lang it` with an English config: the engine's own notices are Italian from the start."""
    from interviewer.i18n import get_language, set_language, tr

    before = get_language()
    set_language("en")
    try:
        iv = Interview.start(Plan(question_ids=["demo-01"], lang="it"), demo_bank, OfflineExaminer())
        english = "The model is slow, still waiting (Esc to use the offline examiner)."
        assert iv.slow_message == tr(english, "it") != english
    finally:
        set_language(before)
