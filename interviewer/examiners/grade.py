"""The grade of one question's exchange, shared by every examiner.

The overall score is always computed here, from criterion scores, weights and
misconception penalties, never taken from a model: an examiner reports what
it found, and this module turns it into a number the same way for everyone.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from interviewer.bank.models import Question

HINT_PENALTY = 0.5  # points off the 0-10 score for each hint revealed

Verdict = Literal["strong", "solid", "partial", "weak", "no answer"]


class CriterionScore(BaseModel):
    """One rubric key point: how much of it the candidate covered, and their words as evidence."""

    model_config = ConfigDict(extra="forbid")

    id: str
    statement: str = ""
    weight: float = Field(gt=0)
    score: float = Field(ge=0)
    max: float = Field(gt=0)
    evidence: list[str] = Field(default_factory=list, description="exact quotes from the candidate")
    uncertain: bool = Field(
        default=False, description="the match is weak (one term, a fragment, or affirmed and denied): worth a second opinion"
    )


class DetectedMisconception(BaseModel):
    """A wrong claim found in the answer, with the candidate's words and the correction."""

    model_config = ConfigDict(extra="forbid")

    id: str
    claim: str = ""
    quote: str
    correction: str
    penalty: float = Field(default=2.0, ge=0)
    key_point: str | None = Field(
        default=None, description="set when the quote contradicts this rubric key point (no listed misconception needed)"
    )


class Grade(BaseModel):
    """Rubric-graded feedback for one question."""

    model_config = ConfigDict(extra="forbid")

    question_id: str
    lang: str = "en"
    examiner: str
    criteria: list[CriterionScore]
    misconceptions: list[DetectedMisconception] = Field(default_factory=list)
    hint_penalty: float = Field(default=0.0, ge=0)
    overall: float = Field(ge=0, le=10)
    max_score: float = 10.0
    verdict: Verdict
    strengths: list[str] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    strong_answer_adds: list[str] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list)
    note: str | None = Field(default=None, description="e.g. why an LLM grade fell back to offline")
    unjudged: list[str] = Field(
        default_factory=list,
        description="the candidate's sentences about the question that the offline examiner matched to nothing: "
        "they earned nothing and may state key points in other words (worth a second opinion)",
    )
    resemblance: float | None = Field(
        default=None, ge=0, le=10,
        description="offline: the reference grade of the closest graded example answers, when resemblance to them moved the score",
    )
    resemblance_shift: float | None = Field(
        default=None, ge=-10, le=10,
        description="offline: how far resemblance to graded example answers moved the score (+ raised, - lowered)",
    )
    samples: int = Field(default=1, ge=1, description="LLM grades combined (self-consistency, --samples)")
    spread: float | None = Field(default=None, ge=0, description="max - min of the overall over the samples")


def compute_overall(
    criteria: list[CriterionScore], misconceptions: list[DetectedMisconception], hint_penalty: float = 0.0
) -> float:
    """10 x covered weight / total weight, minus penalties, clamped to 0..10, one decimal."""
    total = sum(c.max for c in criteria)
    if total <= 0:
        return 0.0
    covered = sum(min(c.score, c.max) for c in criteria)
    raw = 10.0 * covered / total - sum(m.penalty for m in misconceptions) - hint_penalty
    return round(min(10.0, max(0.0, raw)), 1)


def verdict_for(score: float, answered: bool = True) -> Verdict:
    if not answered:
        return "no answer"
    if score >= 8.0:
        return "strong"
    if score >= 6.0:
        return "solid"
    if score >= 3.5:
        return "partial"
    return "weak"


def finish_grade(
    question: Question,
    lang: str,
    examiner: str,
    criteria: list[CriterionScore],
    misconceptions: list[DetectedMisconception],
    *,
    answered: bool = True,
    hint_penalty: float = 0.0,
    note: str | None = None,
) -> Grade:
    """Build a Grade: compute the score in code and fill in the rubric-derived feedback."""
    overall = compute_overall(criteria, misconceptions, hint_penalty) if answered else 0.0
    rubric = question.rubric
    by_id = {k.id: k for k in rubric.key_points} if rubric else {}
    strengths, gaps, covered = [], [], set()
    for c in criteria:
        kp = by_id.get(c.id)
        text = kp.statement.get(lang) if kp else c.statement
        if c.score >= 0.75 * c.max:
            strengths.append(text)
            covered.add(c.id)
        else:
            gaps.append(text)
    # what a strong answer adds: the model answer's lines about the points this one missed
    missing = set(by_id) - covered if answered else set(by_id)
    return Grade(
        question_id=question.id,
        lang=lang,
        examiner=examiner,
        criteria=criteria,
        misconceptions=misconceptions,
        hint_penalty=hint_penalty,
        overall=overall,
        verdict=verdict_for(overall, answered),
        strengths=strengths,
        gaps=gaps,
        strong_answer_adds=rubric.model_answer_missing(lang, missing) if rubric else [],
        references=[f"{r.title} ({r.locator()})" for r in rubric.references] if rubric else [],
        note=note,
    )
