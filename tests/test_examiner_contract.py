"""The examiner contract, run against the offline examiner."""

from __future__ import annotations

import pytest

from interviewer.bank.loader import Bank
from interviewer.examiners.base import Examiner
from interviewer.examiners.offline.examiner import OfflineExaminer
from tests import examiner_contract as contract

STRONG = (
    "GRPO samples a group of answers per prompt and subtracts the group's mean reward as the baseline, "
    "so it does not need a critic. Subtracting an action-independent baseline reduces the variance of "
    "the gradient while keeping it unbiased. Dividing by the std is optional; Dr. GRPO drops it because "
    "it introduces a difficulty bias."
)


@pytest.fixture(params=["offline"])
def examiner(request: pytest.FixtureRequest) -> Examiner:
    return OfflineExaminer()


async def test_grade_shape_and_evidence(examiner: Examiner, demo_bank: Bank) -> None:
    grade = await contract.check_grades_a_strong_answer(examiner, demo_bank.get("demo-01"), STRONG)
    assert grade.overall >= 8


async def test_empty_answer(examiner: Examiner, demo_bank: Bank) -> None:
    await contract.check_empty_answer_scores_zero(examiner, demo_bank.get("demo-01"))


@pytest.mark.parametrize("lang", ["en", "it", "ja"])
async def test_probes(examiner: Examiner, demo_bank: Bank, lang: str) -> None:
    q = demo_bank.get("demo-01")
    probes = await contract.check_probes(examiner, q, "GRPO is an RL algorithm.", lang)
    assert len(probes) == 2
    assert probes[0].text == q.rubric.key_points[0].probe.get(lang)  # highest weight first


async def test_no_probe_when_everything_is_covered(examiner: Examiner, demo_bank: Bank) -> None:
    probes = await contract.check_probes(examiner, demo_bank.get("demo-01"), STRONG)
    assert probes == []


async def test_grader_addressed(examiner: Examiner, demo_bank: Bank) -> None:
    await contract.check_grader_addressed_does_not_help(examiner, demo_bank.get("demo-01"), "GRPO uses groups.")


async def test_builtin_questions_grade_cleanly(examiner: Examiner, bank: Bank) -> None:
    for q in bank.questions:
        if q.rubric is None:
            continue
        answer = " ".join(kp.statement.en for kp in q.rubric.key_points)
        grade = await contract.check_grades_a_strong_answer(examiner, q, answer)
        assert grade.overall >= 9, q.id
