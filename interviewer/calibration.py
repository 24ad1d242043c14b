"""Graded example answers (calibration sets) used by tests and benchmarks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

# The built-in sets use the first six kinds; tuning and held-out sets add adversarial ones
# (negated, reversed, paraphrase, shorthand, other_question, rambling, code_mixed, ...).
KINDS = ("strong", "partial", "fluent_wrong", "off_topic", "buzzword", "grader_addressed")
Kind = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]


class CalibrationAnswer(BaseModel):
    """One answer with the grade a careful human examiner gave it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: Kind
    lang: Literal["en", "it", "ja"]
    grade: float = Field(ge=0, le=10)
    reason: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    question_id: str = ""
    parity: str | None = Field(default=None, description="answers sharing this id say the same thing in en/it/ja")


class CalibrationFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question_id: str
    answers: list[CalibrationAnswer] = Field(min_length=1)


def load_calibration(path: Path) -> list[CalibrationAnswer]:
    data = CalibrationFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    return [a.model_copy(update={"question_id": data.question_id}) for a in data.answers]


def load_all(directory: Path) -> list[CalibrationAnswer]:
    out: list[CalibrationAnswer] = []
    for f in sorted(directory.glob("*.yaml")):
        out.extend(load_calibration(f))
    return out
