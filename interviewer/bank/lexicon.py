"""The shared concept lexicon: how answers say a concept without the rubric's words.

One file, `question_bank/lexicon/concepts.yaml`, lists concepts of the field
("critic", "reduce variance", "all-reduce") with, per language, the canonical
`term` that rubric cues use and the phrases that mean the same in an answer
(`says`: plain-language paraphrases, expert shorthand, the Italian or Japanese
forms engineers really use). The offline examiner reads a `says` phrase as if
the answer had written the term, so every rubric that cues the term credits the
paraphrase too, and a cue may name a concept directly as ``@critic``.

Kept out of the question files on purpose: a paraphrase learnt once serves all
35 questions and any custom bank, instead of being repeated in every cue.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from interviewer.bank.models import LANGS, Question

# A `says` phrase is read un-negated by the matcher; a negation inside it would invert its polarity.
_LATIN_NEGATION = re.compile(r"\b(not|no|never|without|non|senza|mai|nessun\w*|nothing|none|neither|nor)\b")
# (ずれ "drift", 必ず "always", 少ない "few", 待ちっぱなし "left waiting" are not negations)
_JA_NEGATION = re.compile(r"(?<![少危])ない|ません|(?<!必)ず(?![れつ])|(?<!っぱ)なし|無い|不要")

ConceptId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", min_length=1, max_length=64)]


class ConceptForm(BaseModel):
    """A concept in one language: the term cues use, and what answers say instead."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    term: list[str] = Field(min_length=1)
    says: list[str] = Field(default_factory=list)

    @field_validator("term", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @field_validator("term", "says")
    @classmethod
    def _no_blank(cls, value: list[str]) -> list[str]:
        out = [v.strip() for v in value]
        if any(not v or "|" in v or "+" in v or v.startswith("@") for v in out):
            raise ValueError("entries must be non-blank phrases without '|', '+' or a leading '@'")
        return out


class Concept(BaseModel):
    """One concept of the field, in any of en/it/ja."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: ConceptId
    note: str | None = None
    en: ConceptForm | None = None
    it: ConceptForm | None = None
    ja: ConceptForm | None = None

    def form(self, lang: str) -> ConceptForm | None:
        return getattr(self, lang, None) if lang in LANGS else None


Pair = tuple[Annotated[str, Field(min_length=1)], Annotated[str, Field(min_length=1)]]


class Opposites(BaseModel):
    """Direction words per language, in pairs ("pessimist" / "optimist", "悲観" / "楽観").

    A key-point cue that holds one word of a pair is also read with the other: a sentence that
    states the cue's relation in the opposite direction ("the min picks the *optimistic* bound")
    contradicts the key point instead of passing unnoticed. Latin words are stems matched by
    prefix; Japanese ones are replaced inside an alternative.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    en: list[Pair] = Field(default_factory=list)
    it: list[Pair] = Field(default_factory=list)
    ja: list[Pair] = Field(default_factory=list)

    def pairs(self, lang: str) -> list[Pair]:
        return list(getattr(self, lang, [])) if lang in LANGS else []

    @field_validator("en", "it", "ja")
    @classmethod
    def _distinct(cls, pairs: list[Pair]) -> list[Pair]:
        out = []
        for a, b in pairs:
            a, b = a.strip().lower(), b.strip().lower()
            if not a or not b or a == b or any(ch in a + b for ch in "|+@"):
                raise ValueError(f"pair {[a, b]!r}: two different non-blank words without '|', '+' or '@'")
            out.append((a, b))
        return out


class Lexicon(BaseModel):
    """The whole lexicon file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    concepts: list[Concept] = Field(default_factory=list)
    opposites: Opposites = Field(default_factory=Opposites)
    # A quantity's own change ("rises" / "falls"), read like direction words only in a cue of two terms,
    # the quantity and its change: what an agent does to a quantity may be qualified ("a poorly chosen
    # baseline increases the variance").
    changes: Opposites = Field(default_factory=Opposites)
    # Named things answers swap ("FSDP" / "Megatron", "E4M3" / "E5M2"), read like direction words, except
    # that a clause naming both sides is a comparison ("a prefill, cheap next to decode"), not a swap.
    rivals: Opposites = Field(default_factory=Opposites)
    # Named systems that answers confuse, in groups, written alike in every language ("areal", "pipelinerl",
    # "slime"): a key point about one of them is not evidenced by a sentence about another
    # (examiners/offline/roles.py).
    systems: list[list[str]] = Field(default_factory=list)

    @field_validator("systems")
    @classmethod
    def _one_word_names(cls, groups: list[list[str]]) -> list[list[str]]:
        out = []
        for group in groups:
            names = [n.strip().lower() for n in group]
            if len(names) < 2 or len(set(names)) < len(names) or not all(re.fullmatch(r"[a-z0-9]+", n) for n in names):
                raise ValueError(f"group {names!r}: two or more different names, each one word of Latin letters and digits")
            out.append(names)
        return out

    def get(self, concept_id: str) -> Concept | None:
        return self._by_id().get(concept_id)

    def _by_id(self) -> dict[str, Concept]:
        return {c.id: c for c in self.concepts}

    def alternatives(self) -> int:
        """How many phrases the lexicon holds (terms and `says`, every language)."""
        return sum(len(f.term) + len(f.says) for c in self.concepts for f in (c.en, c.it, c.ja) if f)


class LexiconProblem(ValueError):
    """A lexicon file that cannot be used; the message names the file and each field."""

    def __init__(self, path: Path, items: list[tuple[str, str]]):
        self.path = path
        self.items = items  # (field, problem)
        super().__init__("; ".join(f"{path}: {where}: {msg}" if where else f"{path}: {msg}" for where, msg in items))


def builtin_lexicon_path() -> Path:
    """`question_bank/lexicon/concepts.yaml`, inside the wheel or the source checkout."""
    from interviewer.bank.loader import builtin_bank_dir

    return builtin_bank_dir() / "lexicon" / "concepts.yaml"


def problems(lexicon: Lexicon) -> list[tuple[str, str]]:
    """(field, problem) for what the schema cannot see: duplicate ids, a negation inside a `says` phrase
    of a concept whose term has none (the phrase would read as the term's denial)."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i, c in enumerate(lexicon.concepts):
        if c.id in seen:
            found.append((f"concepts[{i}].id", f"duplicate concept id {c.id!r}"))
        seen.add(c.id)
        for lang in LANGS:
            form = c.form(lang)
            if form is None:
                continue
            pattern = _JA_NEGATION if lang == "ja" else _LATIN_NEGATION
            if any(pattern.search(t.lower()) for t in form.term):
                continue  # a negative concept ("critic-free": 価値関数不要) may say its negation
            for k, phrase in enumerate(form.says):
                if pattern.search(phrase.lower()):
                    found.append((f"concepts[{i}].{lang}.says[{k}]", f"{phrase!r} contains a negation"))
    return found


def read_lexicon(path: Path) -> Lexicon:
    """Parse and check one lexicon file, or raise LexiconProblem naming the file and field."""
    from interviewer.bank.loader import parse_file

    data, errs = parse_file(path)
    if data is None:
        raise LexiconProblem(path, [(e.location, e.message) for e in errs])
    try:
        lexicon = Lexicon.model_validate(data)
    except ValidationError as exc:
        raise LexiconProblem(path, [(".".join(str(p) for p in e["loc"]), e["msg"]) for e in exc.errors()]) from None
    bad = problems(lexicon)
    if bad:
        raise LexiconProblem(path, bad)
    return lexicon


_REF = re.compile(r"(?:^|[+|])\s*@([^+|\s]+)")


def unknown_references(question: Question, lexicon: Lexicon) -> list[tuple[str, str]]:
    """(field, problem) for every ``@concept`` a cue names that the lexicon lacks in the cue's language."""
    rubric = question.rubric
    if rubric is None:
        return []
    found: list[tuple[str, str]] = []
    owners = [(f"rubric.key_points[{i}]", kp.cues) for i, kp in enumerate(rubric.key_points)]
    owners += [(f"rubric.misconceptions[{i}]", m.cues) for i, m in enumerate(rubric.misconceptions)]
    for where, cues in owners:
        for lang in LANGS:
            for k, cue in enumerate(cues.get(lang)):
                for ref in _REF.findall(cue):
                    concept = lexicon.get(ref)
                    if concept is None:
                        found.append((f"{where}.cues.{lang}[{k}]", f"unknown concept @{ref} (not in the lexicon)"))
                    elif concept.form(lang) is None:
                        found.append((f"{where}.cues.{lang}[{k}]", f"concept @{ref} has no {lang} form in the lexicon"))
    return found


def names_concepts(question: Question) -> bool:
    """Does any cue of this question name a concept (cheap: no lexicon is read)?"""
    rubric = question.rubric
    if rubric is None:
        return False
    owners = [kp.cues for kp in rubric.key_points] + [m.cues for m in rubric.misconceptions]
    return any("@" in cue for cues in owners for lang in LANGS for cue in cues.get(lang))


@lru_cache(maxsize=1)
def builtin_lexicon() -> Lexicon:
    """The shipped lexicon (empty when a trimmed install has none)."""
    path = builtin_lexicon_path()
    return read_lexicon(path) if path.is_file() else Lexicon()


__all__ = [
    "Concept",
    "ConceptForm",
    "Lexicon",
    "LexiconProblem",
    "Opposites",
    "builtin_lexicon",
    "builtin_lexicon_path",
    "names_concepts",
    "problems",
    "read_lexicon",
    "unknown_references",
]
