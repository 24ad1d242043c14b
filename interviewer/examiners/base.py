"""The examiner interface: one contract, two implementations (offline and LLM).

An examiner is asked two things about a question's exchange so far: the next
follow-up probe (or none), whose text may stream, and the grade.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Literal

from interviewer.bank.models import Question
from interviewer.examiners.grade import Grade

Role = Literal["examiner", "candidate"]
TurnKind = Literal["question", "probe", "answer", "hint", "skip", "dont_know"]


@dataclass
class Turn:
    """One message of a question's exchange."""

    role: Role
    kind: TurnKind
    text: str
    key_point_id: str | None = None


@dataclass
class Exchange:
    """Everything an examiner may use about one question: the question, language and turns."""

    question: Question
    lang: str
    turns: list[Turn] = field(default_factory=list)
    max_probes: int = 2
    hints_used: int = 0

    def answers(self) -> list[str]:
        return [t.text for t in self.turns if t.role == "candidate" and t.kind == "answer"]

    def candidate_text(self) -> str:
        """All the candidate's answers to this question, in order."""
        return "\n\n".join(self.answers())

    def probes_asked(self) -> list[str]:
        return [t.key_point_id or "" for t in self.turns if t.kind == "probe"]

    def answered(self) -> bool:
        return any(a.strip() for a in self.answers())


class Probe:
    """A follow-up question whose text arrives in chunks.

    Offline probes arrive as one chunk; LLM probes arrive token by token.
    `cancel()` stops the stream and keeps what arrived so far in `text`.
    """

    def __init__(
        self,
        chunks: AsyncIterator[str],
        key_point_id: str | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.key_point_id = key_point_id
        self.text = ""
        self.cancelled = False
        self.done = False
        self.truncated: str | None = None  # why the text stopped early (a cut or too slow stream), for the user
        self._chunks = chunks
        self._on_close = on_close

    def __aiter__(self) -> AsyncIterator[str]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[str]:
        try:
            async for chunk in self._chunks:
                if self.cancelled:
                    break
                self.text += chunk
                yield chunk
        finally:
            self.done = True
            await self._close()

    async def _close(self) -> None:
        aclose = getattr(self._chunks, "aclose", None)
        if aclose is not None:
            with contextlib.suppress(RuntimeError, asyncio.CancelledError):  # already closed
                await aclose()
        if self._on_close:
            self._on_close()

    async def collect(self) -> str:
        """Read the whole probe and return its text."""
        async for _ in self:
            pass
        return self.text

    async def cancel(self) -> str:
        """Stop streaming; the partial text stays in `text`."""
        self.cancelled = True
        if not self.done:
            self.done = True
            await self._close()
        return self.text

    @classmethod
    def of_text(cls, text: str, key_point_id: str | None = None) -> Probe:
        async def one() -> AsyncIterator[str]:
            yield text

        return cls(one(), key_point_id)


class Examiner(ABC):
    """Asks follow-up probes and grades a question's exchange against its rubric."""

    #: "offline", or the model name for an LLM examiner
    name: str = "examiner"

    @abstractmethod
    async def next_probe(self, exchange: Exchange) -> Probe | None:
        """The next follow-up for this exchange, or None when no more are needed."""

    @abstractmethod
    async def grade(self, exchange: Exchange) -> Grade:
        """Rubric-graded feedback for the exchange."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook, nothing to release by default
        """Release connections; the default has none."""
