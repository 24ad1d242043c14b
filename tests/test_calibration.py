"""Grading quality on the graded example answers: guards against regressions in rubrics or matcher.

The figures are reported by benchmarks/bench_offline.py; these are floors a change must keep.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

import pytest

from interviewer.bank.loader import Bank
from interviewer.calibration import CalibrationAnswer, load_all
from interviewer.evaluation import spearman
from interviewer.examiners.offline.examiner import grade_text
from tests.conftest import CALIBRATION, ROOT

KINDS = {"strong", "partial", "fluent_wrong", "off_topic", "buzzword", "grader_addressed"}


@pytest.fixture(scope="module")
def graded(bank: Bank) -> list[tuple[CalibrationAnswer, float]]:
    answers = load_all(CALIBRATION) + load_all(ROOT / "tests" / "data" / "adversarial")
    return [(a, grade_text(bank.get(a.question_id), a.answer, a.lang).overall) for a in answers]


def test_every_question_has_the_required_calibration_answers(bank: Bank) -> None:
    by_q: dict[str, list[CalibrationAnswer]] = defaultdict(list)
    for a in load_all(CALIBRATION):
        by_q[a.question_id].append(a)
    assert set(by_q) == set(bank.ids())
    for qid, answers in by_q.items():
        assert len(answers) >= 8, qid
        assert KINDS <= {a.kind for a in answers}, qid
        assert {a.lang for a in answers} & {"it", "ja"}, qid
        assert all(a.reason.strip() for a in answers)


def test_ranking_agrees_with_reference_grades(graded: list[tuple[CalibrationAnswer, float]]) -> None:
    assert spearman([a.grade for a, _ in graded], [s for _, s in graded]) >= 0.85


def test_adversarial_kinds_score_low(graded: list[tuple[CalibrationAnswer, float]]) -> None:
    adversarial = [s for a, s in graded if a.kind in {"fluent_wrong", "buzzword", "grader_addressed"}]
    assert statistics.fmean(adversarial) <= 1.5


def test_fluent_but_wrong_below_partial(graded: list[tuple[CalibrationAnswer, float]]) -> None:
    per_q: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for a, s in graded:
        per_q[a.question_id][a.kind].append(s)
    pairs = [(d["fluent_wrong"], d["partial"]) for d in per_q.values() if d["fluent_wrong"] and d["partial"]]
    wins = sum(statistics.fmean(fw) < statistics.fmean(p) for fw, p in pairs)
    assert wins / len(pairs) >= 0.95
