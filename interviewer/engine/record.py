"""The stored shape of an interview: everything needed to show it or resume it.

An interview is rebuilt from this record alone, so it holds the plan, every
turn with its time, and every grade.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field

from interviewer.examiners.base import TurnKind
from interviewer.examiners.grade import Grade

Mode = Literal["interview", "drill", "review"]
FeedbackTiming = Literal["each", "end"]
QuestionStatus = Literal["pending", "active", "graded", "skipped"]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


class Plan(BaseModel):
    """What the interview will ask and how."""

    question_ids: list[str] = Field(min_length=1)
    lang: Literal["en", "it", "ja"] = "en"
    follow_ups: int = Field(default=2, ge=0, le=10)
    feedback: FeedbackTiming = "each"
    mode: Mode = "interview"
    time_limit_s: int | None = Field(default=None, ge=10, description="soft timer per question")


class TurnRecord(BaseModel):
    role: Literal["examiner", "candidate"]
    kind: TurnKind
    text: str
    key_point_id: str | None = None
    at: str = Field(default_factory=now)
    cancelled: bool = False


class QuestionRecord(BaseModel):
    question_id: str
    status: QuestionStatus = "pending"
    turns: list[TurnRecord] = Field(default_factory=list)
    grade: Grade | None = None
    interim_grades: list[Grade] = Field(default_factory=list)
    # Another examiner's grade, asked for after `grade` (the LLM's after an offline grade). It is kept for the
    # candidate to compare; `grade` stays the grade of record (reviews, averages, reports' scores).
    second_opinion: Grade | None = None
    hints: list[str] = Field(default_factory=list)
    started_at: str | None = None
    finished_at: str | None = None

    def answers(self) -> list[str]:
        return [t.text for t in self.turns if t.role == "candidate" and t.kind == "answer"]


class Usage(BaseModel):
    """LLM tokens and cost for the interview (zero for the offline examiner)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0


class SessionRecord(BaseModel):
    """One interview, as stored."""

    id: str = Field(default_factory=new_id)
    created_at: str = Field(default_factory=now)
    finished_at: str | None = None
    plan: Plan
    examiner: str = "offline"
    questions: list[QuestionRecord] = Field(default_factory=list)
    current: int = 0
    notes: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def overall(self) -> float | None:
        """Mean over the answered questions; skipped ones are not averaged in as 0."""
        scores = [q.grade.overall for q in self.questions if q.grade is not None and q.status != "skipped"]
        return round(sum(scores) / len(scores), 2) if scores else None
