"""Turn a model's grading reply into a Grade the candidate can trust.

The model only reports, per key point, a coverage in 0..1 and quotes; this
module validates that against the rubric, checks every quote against the
candidate's own text, and lets `finish_grade` compute the overall score in
code. A score, a verdict or any other number the model volunteers is ignored.

Evidence rules, per quote and per criterion it is given for:
- it must be there: a quote not in the candidate's text (fabricated) voids
  its criterion, and so does a quote of words addressed to the grader;
- it must be a real span: every piece between "..." has at least
  `MIN_PIECE_CHARS` characters and `MIN_PIECE_WORDS` words (Japanese:
  `MIN_JA_CHARS` characters), and a quote has at most `MAX_PIECES` pieces;
  a shorter quote ("sure", single words stitched with "...") proves nothing
  and is dropped;
- it must be about the key point: the sentences it touches must carry the
  key point's concepts (see `relevance`); a quote used for several criteria
  is checked for each, so one sentence cannot earn every point;
- a misconception's quote must state the claim (its concepts, not negated,
  not in a sentence that rejects it).
A criterion keeps its coverage only with at least one quote that passes.
"""

from __future__ import annotations

import json
import re
import statistics
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interviewer.bank.models import Question
from interviewer.examiners.base import Exchange
from interviewer.examiners.grade import (
    HINT_PENALTY,
    CriterionScore,
    DetectedMisconception,
    Grade,
    finish_grade,
)
from interviewer.examiners.llm import relevance
from interviewer.examiners.offline.guard import is_grader_addressed, is_refutation
from interviewer.examiners.offline.text import is_japanese, split_sentences
from interviewer.i18n import ntr, tr

MIN_PIECE_CHARS = 12  # non-space characters per piece of a quote: "sure" proves nothing
MIN_PIECE_WORDS = 3
MIN_JA_CHARS = 8  # Japanese has no spaces and packs more per character
MAX_PIECES = 3  # a quote may skip text with "..." at most twice
MAX_QUOTES = 2
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\])\s*")
_EDGE = " \t\n\"'“”‘’«»「」『』`"
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
_CHUNK = re.compile(r"\s+|\S+")
_WORDS = re.compile(r"\w+")
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})


class CriterionReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str
    coverage: float = Field(ge=0, le=1)
    evidence: list[str] = Field(default_factory=list)


class MisconceptionReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str
    quote: str


class GradeReply(BaseModel):
    """What the model is asked to return; extra keys (a score, a verdict) are ignored."""

    model_config = ConfigDict(extra="ignore")

    criteria: list[CriterionReply]
    misconceptions: list[MisconceptionReply] = Field(default_factory=list)


class ReplyError(ValueError):
    """The reply is not usable; the message goes back to the model in the repair attempt."""


def grade_schema(question: Question) -> dict[str, Any]:
    """The JSON schema for this question's reply (ids as enums; strict-mode compatible)."""
    assert question.rubric is not None
    kp_ids = [k.id for k in question.rubric.key_points]
    mc_ids = [m.id for m in question.rubric.misconceptions] or ["none"]
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["criteria", "misconceptions"],
        "properties": {
            "criteria": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["id", "coverage", "evidence"],
                    "properties": {
                        "id": {"type": "string", "enum": kp_ids},
                        "coverage": {"type": "number", "minimum": 0, "maximum": 1},
                        "evidence": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
            "misconceptions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["id", "quote"],
                    "properties": {"id": {"type": "string", "enum": mc_ids}, "quote": {"type": "string"}},
                },
            },
        },
    }


def extract_json(text: str) -> Any:
    """The JSON object in a reply: tolerates reasoning blocks, code fences and prose around it."""
    body = _THINK.sub("", text or "").strip()
    body = _FENCE.sub("", body).strip()
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        raise ReplyError("the reply contains no JSON object")
    try:
        return json.loads(body[start : end + 1])
    except json.JSONDecodeError as exc:
        raise ReplyError(f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def parse_reply(text: str, question: Question) -> GradeReply:
    """Validate the reply's shape and its ids against the rubric."""
    data = extract_json(text)
    try:
        reply = GradeReply.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise ReplyError(f"the JSON does not match the schema: {problems}") from None
    assert question.rubric is not None
    expected = [k.id for k in question.rubric.key_points]
    got = [c.id for c in reply.criteria]
    missing = [i for i in expected if i not in got]
    unknown = [i for i in got if i not in expected]
    dupes = sorted({i for i in got if got.count(i) > 1})
    if missing or unknown or dupes:
        parts = []
        if missing:
            parts.append(f"missing key point(s) {', '.join(missing)}")
        if unknown:
            parts.append(f"unknown key point id(s) {', '.join(unknown)}")
        if dupes:
            parts.append(f"key point(s) listed twice: {', '.join(dupes)}")
        raise ReplyError("criteria must list every key point id exactly once: " + "; ".join(parts))
    return reply


# -- evidence grounding -------------------------------------------------------
@lru_cache(maxsize=8192)
def _fold_char(c: str) -> str:
    return unicodedata.normalize("NFKC", c).casefold().translate(_FOLD)


def normalise(text: str) -> tuple[str, list[int]]:
    """Case- and whitespace-folded text, with each folded character's index in the original."""
    if text.isascii():  # the common case, a chunk at a time: lowercase, whitespace runs as one space
        parts: list[str] = []
        index: list[int] = []
        for m in _CHUNK.finditer(text):
            if m.group(0)[0].isspace():
                if parts and parts[-1] != " ":
                    parts.append(" ")
                    index.append(m.start())
            else:
                parts.append(m.group(0).lower())
                index.extend(range(m.start(), m.end()))
        return "".join(parts), index
    return normalise_any(text)


def normalise_any(text: str) -> tuple[str, list[int]]:
    """`normalise` for any text, a character at a time (NFKC, casefold, typographic quotes folded)."""
    out: list[str] = []
    where: list[int] = []
    for i, c in enumerate(text):
        if c.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                where.append(i)
            continue
        for f in _fold_char(c):
            if f.isspace():
                if out and out[-1] != " ":
                    out.append(" ")
                    where.append(i)
            else:
                out.append(f)
                where.append(i)
    return "".join(out), where


def trivial(piece: str) -> bool:
    """True for a piece of quote too short to show the candidate explained anything."""
    chars = len("".join(piece.split()))
    if is_japanese(piece):
        return chars < MIN_JA_CHARS
    return chars < MIN_PIECE_CHARS or len(_WORDS.findall(piece)) < MIN_PIECE_WORDS


@dataclass
class Found:
    """Where a quote is in the candidate's text: its exact spans and the sentences they touch."""

    spans: list[str]
    context: str
    trivial: bool  # found, but too short (or too many pieces) to count as evidence


@dataclass
class Source:
    """The candidate's text, indexed for quote look-ups, with the spans addressed to the grader."""

    text: str
    folded: str = ""
    where: list[int] = field(default_factory=list)
    blocked: list[tuple[int, int]] = field(default_factory=list)
    sentences: list[tuple[int, int]] = field(default_factory=list)

    @classmethod
    def of(cls, text: str) -> Source:
        folded, where = normalise(text)
        sentences = split_sentences(text)
        blocked = [(s.start, s.start + len(s.text)) for s in sentences if is_grader_addressed(s.text)]
        return cls(text, folded, where, blocked, [(s.start, s.start + len(s.text)) for s in sentences])

    def locate(self, quote: str) -> Found | None:
        """The quote's spans (pieces around '...') in the text, or None if it is not all there or
        touches words addressed to the grader (which are never evidence)."""
        pieces = [p.strip(_EDGE) for p in _ELLIPSIS.split(quote.strip(_EDGE + "."))]
        pieces = [p for p in pieces if p]
        if not pieces:
            return None
        spans: list[str] = []
        bounds: list[tuple[int, int]] = []
        pos = 0
        for piece in pieces:
            needle, _ = normalise(piece)
            needle = needle.strip()
            if not needle:
                return None
            at = self.folded.find(needle, pos)
            if at < 0:
                return None
            start, end = self.where[at], self.where[at + len(needle) - 1] + 1
            if any(start < b_end and end > b_start for b_start, b_end in self.blocked):
                return None  # words addressed to the grader are never evidence
            spans.append(self.text[start:end].strip())
            bounds.append((start, end))
            pos = at + len(needle)
        context = " ".join(self.text[s:e] for s, e in self.sentences
                           if any(s < b_end and e > b_start for b_start, b_end in bounds))
        too_short = len(pieces) > MAX_PIECES or any(trivial(sp) for sp in spans)
        return Found(spans, context or " ".join(spans), too_short)

    def find(self, quote: str) -> list[str] | None:
        """The exact original spans a quote stands for, or None if not usable as evidence."""
        found = self.locate(quote)
        return None if found is None or found.trivial else found.spans


def build_grade(reply: GradeReply, exchange: Exchange, examiner: str, ignored: int = 0) -> Grade:
    """Ground every quote per criterion, void unsupported criteria, and compute the score in code."""
    question = exchange.question
    assert question.rubric is not None
    lang = exchange.lang
    source = Source.of(exchange.candidate_text())
    by_id = {c.id: c for c in reply.criteria}
    rejected: list[str] = []
    too_short: list[str] = []
    off_point: list[str] = []
    scores_of: dict[str, dict[str, float]] = {}  # context -> key point scores, computed once per sentence
    criteria: list[CriterionScore] = []
    for kp in question.rubric.key_points:
        item = by_id[kp.id]
        coverage = max(0.0, min(1.0, item.coverage))
        evidence: list[str] = []
        grounded = True
        short = irrelevant = False
        for quote in item.evidence:
            found = source.locate(quote)
            if found is None:
                grounded = False
                break
            if found.trivial:
                short = True
                continue
            if found.context not in scores_of:
                scores_of[found.context] = relevance.key_point_scores(question, lang, found.context)
            if not relevance.supported(scores_of[found.context], kp.id):
                irrelevant = True
                continue
            evidence.extend(s for s in found.spans if s not in evidence)
        if coverage > 0 and not grounded:
            rejected.append(kp.id)
            coverage, evidence = 0.0, []
        elif coverage > 0 and not evidence:
            (too_short if short and not irrelevant else off_point if irrelevant else rejected).append(kp.id)
            coverage = 0.0
        if coverage == 0:
            evidence = []
        criteria.append(
            CriterionScore(
                id=kp.id,
                statement=kp.statement.get(lang),
                weight=kp.weight,
                score=round(kp.weight * coverage, 3),
                max=kp.weight,
                evidence=evidence[:MAX_QUOTES],
            )
        )
    rubric_mc = {m.id: m for m in question.rubric.misconceptions}
    found_mc: list[DetectedMisconception] = []
    for mc in reply.misconceptions:
        m = rubric_mc.get(mc.id)
        located = source.locate(mc.quote) if m is not None else None
        if m is None or located is None or located.trivial or any(d.id == m.id for d in found_mc):
            continue
        if is_refutation(located.context) or not relevance.states(question, m, lang, located.context):
            continue  # a correct sentence tagged as a misconception costs nothing
        found_mc.append(
            DetectedMisconception(
                id=m.id, claim=m.claim.get(lang), quote=located.spans[0], correction=m.correction.get(lang), penalty=m.penalty
            )
        )
    notes = []
    if rejected:
        notes.append(tr("evidence not found in the answer, so no credit for: {ids}", lang).format(ids=", ".join(rejected)))
    if too_short:
        notes.append(tr("quotes too short to be evidence, so no credit for: {ids}", lang).format(ids=", ".join(too_short)))
    if off_point:
        notes.append(tr("quotes that do not state the key point, so no credit for: {ids}", lang).format(ids=", ".join(off_point)))
    if ignored:
        notes.append(
            ntr(
                "ignored {n} sentence addressed to the grader", "ignored {n} sentences addressed to the grader", ignored, lang
            ).format(n=ignored)
        )
    return finish_grade(
        question,
        lang,
        examiner,
        criteria,
        found_mc,
        answered=exchange.answered(),
        hint_penalty=HINT_PENALTY * exchange.hints_used,
        note="; ".join(notes) or None,
    )


def combine_samples(grades: list[Grade], exchange: Exchange) -> Grade:
    """Self-consistency: each criterion's median score over the model's samples, the misconceptions
    most samples found, the score recomputed in code; the spread of the samples' overall scores says
    how far to trust it. Samples that fell back to the offline examiner are left out."""
    question = exchange.question
    assert question.rubric is not None
    model = [g for g in grades if g.examiner != "offline"]
    if len(model) < 2:
        return (model or grades)[0]
    criteria: list[CriterionScore] = []
    for i in range(len(question.rubric.key_points)):
        scores = [g.criteria[i].score for g in model]
        mid = statistics.median(scores)
        closest = min(model, key=lambda g: (abs(g.criteria[i].score - mid), not g.criteria[i].evidence))
        evidence = closest.criteria[i].evidence if mid > 0 else []
        criteria.append(closest.criteria[i].model_copy(update={"score": round(mid, 3), "evidence": evidence}))
    counts: dict[str, int] = {}
    first: dict[str, DetectedMisconception] = {}
    for g in model:
        for m in g.misconceptions:
            counts[m.id] = counts.get(m.id, 0) + 1
            first.setdefault(m.id, m)
    found = [first[m_id] for m_id in first if 2 * counts[m_id] > len(model)]
    notes = list(dict.fromkeys(g.note for g in model if g.note))
    if len(model) < len(grades):
        notes.append(f"{len(grades) - len(model)} of {len(grades)} samples fell back to offline and were left out")
    overall = [g.overall for g in model]
    grade = finish_grade(
        question, exchange.lang, model[0].examiner, criteria, found, answered=exchange.answered(),
        hint_penalty=HINT_PENALTY * exchange.hints_used, note="; ".join(notes) or None,
    )
    return grade.model_copy(update={"samples": len(model), "spread": round(max(overall) - min(overall), 2)})
