"""Grading quality on the graded example answers: guards against regressions in rubrics or matcher.

The figures are reported by benchmarks/bench_offline.py; these are floors a change must keep.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

import pytest

from benchmarks.bench_offline import fluent_wrong_below_partial, parity
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
        assert {a.kind for a in answers} >= KINDS, qid
        assert {a.lang for a in answers} & {"it", "ja"}, qid
        assert all(a.reason.strip() for a in answers)


def test_ranking_agrees_with_reference_grades(graded: list[tuple[CalibrationAnswer, float]]) -> None:
    # 0.85 before the second-generation examiner; 0.909 with it (claim polarity, stems/lemmas, calibrated rows)
    assert spearman([a.grade for a, _ in graded], [s for _, s in graded]) >= 0.89


def test_adversarial_kinds_score_low(graded: list[tuple[CalibrationAnswer, float]]) -> None:
    adversarial = [s for a, s in graded if a.kind in {"fluent_wrong", "buzzword", "grader_addressed"}]
    assert statistics.fmean(adversarial) <= 1.0  # 1.5 before; 0.35 now


def test_fluent_but_wrong_below_partial(graded: list[tuple[CalibrationAnswer, float]]) -> None:
    per_q: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for a, s in graded:
        per_q[a.question_id][a.kind].append(s)
    pairs = [(d["fluent_wrong"], d["partial"]) for d in per_q.values() if d["fluent_wrong"] and d["partial"]]
    wins = sum(statistics.fmean(fw) < statistics.fmean(p) for fw, p in pairs)
    assert wins / len(pairs) >= 0.95


@pytest.fixture(scope="module")
def blind(bank: Bank) -> list[tuple[CalibrationAnswer, float]]:
    return [(a, grade_text(bank.get(a.question_id), a.answer, a.lang).overall) for a in load_all(ROOT / "tests" / "data" / "blind")]


@pytest.fixture(scope="module")
def tuning(bank: Bank) -> list[tuple[CalibrationAnswer, float]]:
    return [(a, grade_text(bank.get(a.question_id), a.answer, a.lang).overall) for a in load_all(ROOT / "tests" / "data" / "tuning")]


def test_blind_set_floors(blind: list[tuple[CalibrationAnswer, float]]) -> None:
    """Answers written without seeing the rubrics.

    Spearman 0.816 before, 0.837 now. Fluent-wrong below partial by question means: 30/35 before,
    29/35 now (83%: the merged rubrics and the calibrated rows cost one question), so the floor is 80%.
    """
    assert spearman([a.grade for a, _ in blind], [s for _, s in blind]) >= 0.82
    pairs, _, mean_wins = fluent_wrong_below_partial(blind)
    assert mean_wins / pairs >= 0.80


def test_tuning_set_floors(tuning: list[tuple[CalibrationAnswer, float]]) -> None:
    """Answers written to beat keyword matching (negated, reversed, paraphrase, shorthand, rambling, code-mixed).

    Figures at the tuning freeze (0.739 before): Spearman 0.750, negated mean 0.95, reversed 1.20,
    fluent-wrong 1.46, mean parity spread 1.03. Paraphrase (3.3 against 8.6) and shorthand (4.9 against
    8.1) are far from their targets and have no floor here: keyword cues cannot credit answers without
    the vocabulary.
    """
    assert spearman([a.grade for a, _ in tuning], [s for _, s in tuning]) >= 0.74
    by_kind: dict[str, list[float]] = defaultdict(list)
    for a, s in tuning:
        by_kind[a.kind].append(s)
    assert statistics.fmean(by_kind["negated"]) <= 1.5
    assert statistics.fmean(by_kind["reversed"]) <= 2.0
    assert statistics.fmean(by_kind["fluent_wrong"]) <= 2.0
    spreads = parity(tuning)
    assert spreads and statistics.fmean(spreads) <= 1.2
