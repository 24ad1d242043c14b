"""Build the examiner a command or screen asked for.

The LLM examiner module is imported only here, and only when asked for, so
the offline paths never import litellm.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interviewer.config import Config
from interviewer.examiners.base import Examiner
from interviewer.examiners.offline.examiner import OfflineExaminer


class ExaminerConfigError(Exception):
    """The examiner cannot be built as configured; the message says which flag or setting to fix."""


@dataclass
class ExaminerChoice:
    """Which examiner to use and, for the LLM one, how to reach the model."""

    kind: str = "offline"
    model: str | None = None
    api_base: str | None = None
    fallback_models: list[str] = field(default_factory=list)
    max_cost: float | None = None
    timeout: float = 60.0
    samples: int = 1  # LLM grades per answer (self-consistency); the per-criterion median is kept

    @classmethod
    def from_config(
        cls, config: Config, kind: str | None = None, model: str | None = None, api_base: str | None = None
    ) -> ExaminerChoice:
        import os

        return cls(
            kind=kind or config.examiner,
            model=model or os.environ.get("INTERVIEWER_MODEL") or config.model,
            api_base=api_base or os.environ.get("INTERVIEWER_API_BASE") or config.api_base,
            fallback_models=list(config.fallback_models),
            max_cost=config.max_cost,
            timeout=config.timeout,
            samples=config.samples,
        )


def make_examiner(choice: ExaminerChoice) -> Examiner:
    if choice.kind == "offline":
        return OfflineExaminer()
    if choice.kind == "llm":
        if not choice.model:
            raise ExaminerConfigError(
                "the LLM examiner needs a model: pass --model provider/name, set INTERVIEWER_MODEL, "
                "or set `model` in config.toml"
            )
        from interviewer.examiners.llm.examiner import LLMExaminer

        return LLMExaminer.from_choice(choice)
    raise ExaminerConfigError(f"unknown examiner {choice.kind!r}: use offline or llm")
