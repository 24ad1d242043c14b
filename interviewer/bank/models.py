"""Pydantic models for questions and rubrics.

The bank is data: one YAML or TOML file per question. These models are the
single definition of what such a file may contain, so that `bank validate`,
the offline examiner and the LLM prompts all agree on one shape.

Cue syntax (used by the offline examiner, see `interviewer.examiners.offline`):
a cue is one or more *terms* joined by ``+``; all terms must occur in the same
sentence of the answer, in any order. A term lists alternatives joined by
``|``. In English and Italian an alternative matches words that *start* with
it or whose Snowball stem starts with its stem (``reduce`` matches "reduction",
``scaled`` matches "scaling"); alternatives of three characters or fewer match
whole words only, and one ending in ``=`` matches exactly that written form;
several words form a phrase matched in order (articles optional). In Japanese
an alternative matches anywhere in the sentence, or by dictionary form
(SudachiPy). A term preceded by a negation ("not", "non", "senza") or, in
Japanese, followed by one (ない, ません, ず), does not count, unless the negation
is itself part of the cue; such a sentence contradicts the key point.
See docs/RUBRIC_GUIDE.md.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

LANGS: tuple[str, ...] = ("en", "it", "ja")
Lang = Literal["en", "it", "ja"]
Track = Literal["algorithm", "infrastructure"]
Difficulty = Literal["foundational", "intermediate", "advanced"]

Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", min_length=1, max_length=64)]
NonEmpty = Annotated[str, Field(min_length=1)]

_CUE_RE = re.compile(r"^[^+|]+(\|[^+|]+)*(\+[^+|]+(\|[^+|]+)*)*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LocalizedText(_Strict):
    """The same text in every supported language."""

    en: NonEmpty
    it: NonEmpty
    ja: NonEmpty

    def get(self, lang: str) -> str:
        return str(getattr(self, lang, None) or self.en)

    @field_validator("en", "it", "ja")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()


class OptionalLocalizedText(_Strict):
    """English required; Italian and Japanese fall back to English."""

    en: NonEmpty
    it: str | None = None
    ja: str | None = None

    def get(self, lang: str) -> str:
        return str(getattr(self, lang, None) or self.en)


class LocalizedList(_Strict):
    """A list of lines per language (English required)."""

    en: list[NonEmpty] = Field(min_length=1)
    it: list[NonEmpty] | None = None
    ja: list[NonEmpty] | None = None

    def get(self, lang: str) -> list[str]:
        return list(getattr(self, lang, None) or self.en)


def _check_cue(cue: str) -> str:
    cue = cue.strip()
    if not cue:
        raise ValueError("a cue must not be empty")
    if not _CUE_RE.match(cue):
        raise ValueError(f"malformed cue {cue!r}: empty term or alternative around '+' or '|'")
    for term in cue.split("+"):
        for alt in term.split("|"):
            if not alt.strip().rstrip("="):
                raise ValueError(f"malformed cue {cue!r}: empty alternative")
    return cue


class LocalizedCues(_Strict):
    """Detection cues per language, each a list of at least one cue."""

    en: list[str] = Field(min_length=1)
    it: list[str] = Field(min_length=1)
    ja: list[str] = Field(min_length=1)

    def get(self, lang: str) -> list[str]:
        return list(getattr(self, lang))

    @field_validator("en", "it", "ja")
    @classmethod
    def _valid_cues(cls, cues: list[str]) -> list[str]:
        return [_check_cue(c) for c in cues]


class KeyPoint(_Strict):
    """One idea a strong answer states, with how to detect it and probe for it."""

    id: Slug
    statement: LocalizedText
    weight: float = Field(gt=0, le=10)
    cues: LocalizedCues
    probe: LocalizedText
    sources: list[Slug] = Field(min_length=1)


class Misconception(_Strict):
    """A wrong claim candidates commonly make, and its correction."""

    id: Slug
    # The wrong claim in each language (what `grade --format json` names); a plain string is the English
    # claim, and Italian and Japanese fall back to it (banks written before claims were translated).
    claim: OptionalLocalizedText
    cues: LocalizedCues
    correction: OptionalLocalizedText
    penalty: float = Field(default=2.0, ge=0, le=10)

    @field_validator("claim", mode="before")
    @classmethod
    def _plain_claim(cls, value: object) -> object:
        return {"en": value} if isinstance(value, str) else value


class Reference(_Strict):
    """A source: a paper (arXiv id), a documentation page (URL) or a book chapter."""

    id: Slug
    title: NonEmpty
    arxiv: Annotated[str, Field(pattern=r"^\d{4}\.\d{4,5}(v\d+)?$")] | None = None
    url: Annotated[str, Field(pattern=r"^https?://\S+$")] | None = None
    citation: str | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _has_locator(self) -> Reference:
        if not (self.arxiv or self.url or self.citation):
            raise ValueError("a reference needs an arxiv id, a url or a citation")
        return self

    def locator(self) -> str:
        if self.arxiv:
            return f"arXiv:{self.arxiv}"
        return self.url or self.citation or ""


class Rubric(_Strict):
    """Weighted key points, misconceptions, references and a model-answer outline."""

    key_points: list[KeyPoint] = Field(min_length=1, max_length=12)
    misconceptions: list[Misconception] = Field(default_factory=list, max_length=8)
    references: list[Reference] = Field(min_length=1)
    model_answer: LocalizedList
    # The key points each model-answer line states, line by line: the feedback's "What a strong answer adds"
    # then lists only the lines about points the answer missed. Optional; without it every line is listed.
    model_answer_points: list[Annotated[list[Slug], Field(min_length=1)]] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Rubric:
        _unique([k.id for k in self.key_points], "key point")
        _unique([m.id for m in self.misconceptions], "misconception")
        ref_ids = [r.id for r in self.references]
        _unique(ref_ids, "reference")
        by_source: dict[str, str] = {}
        for r in self.references:  # the feedback lists references: the same source twice reads as a slip
            if (first := by_source.setdefault(r.locator(), r.id)) != r.id:
                raise ValueError(f"references {first!r} and {r.id!r} cite the same source {r.locator()}")
        for kp in self.key_points:
            missing = [s for s in kp.sources if s not in ref_ids]
            if missing:
                raise ValueError(
                    f"key point {kp.id!r} cites unknown reference(s) {', '.join(missing)}"
                )
        if self.model_answer_points is not None:
            self._check_model_answer_points(self.model_answer_points)
        return self

    def _check_model_answer_points(self, points: list[list[str]]) -> None:
        for lang in LANGS:
            lines = getattr(self.model_answer, lang)
            if lines is not None and len(lines) != len(points):
                raise ValueError(f"model_answer_points has {len(points)} entries but model_answer.{lang} has "
                                 f"{len(lines)} lines: give one list of key point ids per line")
        kp_ids = {k.id for k in self.key_points}
        for n, ids in enumerate(points, 1):
            if unknown := [i for i in ids if i not in kp_ids]:
                raise ValueError(f"model_answer_points entry {n} names unknown key point(s) {', '.join(unknown)}")

    def model_answer_missing(self, lang: str, missing: set[str]) -> list[str]:
        """The model-answer lines that state a key point in `missing` (every line when the rubric does not
        say which line states which point)."""
        lines = self.model_answer.get(lang)
        if self.model_answer_points is None:
            return lines
        return [line for line, ids in zip(lines, self.model_answer_points, strict=True) if missing.intersection(ids)]

    @property
    def total_weight(self) -> float:
        return sum(k.weight for k in self.key_points)


def _unique(ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise ValueError(f"duplicate {what} id {item!r}")
        seen.add(item)


class Question(_Strict):
    """A question with its texts in every language and its rubric."""

    id: Slug
    track: Track
    topics: list[NonEmpty] = Field(min_length=1)
    difficulty: Difficulty
    text: LocalizedText
    rubric: Rubric | None = None
