"""The built-in offline examiner: deterministic rubric matching, no network.

It reads the candidate's sentences against each key point's cues. Sentences
addressed to the grader are dropped; sentences that state a known
misconception earn no credit and cost the misconception's penalty; bare
lists of terms earn little. Nothing here imports litellm.
"""

from __future__ import annotations

from dataclasses import dataclass

from interviewer.bank.models import KeyPoint, LocalizedCues, Question
from interviewer.examiners.base import Examiner, Exchange, Probe, Turn
from interviewer.examiners.grade import CriterionScore, DetectedMisconception, Grade, finish_grade
from interviewer.examiners.offline.cues import AnswerIndex, compile_cue
from interviewer.examiners.offline.guard import is_grader_addressed, is_refutation
from interviewer.examiners.offline.text import explanation_quality, is_japanese, split_sentences
from interviewer.i18n import ntr

COVERED = 0.75  # a key point counts as covered at this fraction of its weight
SINGLE_TERM_CREDIT = 0.6  # a lone-term cue is weaker evidence than a relation


@dataclass
class Analysis:
    """What the offline matcher found in one answer."""

    criteria: list[CriterionScore]
    misconceptions: list[DetectedMisconception]
    dropped: list[str]  # sentences addressed to the grader

    def coverage(self) -> dict[str, float]:
        return {c.id: c.score / c.max for c in self.criteria}


def _cue_lang(lang: str, text: str) -> str:
    """The cue set to use: trust the script of the text over the declared language."""
    if is_japanese(text):
        return "ja"
    return "en" if lang == "ja" else lang


def _cues_for(cues: LocalizedCues, cue_lang: str) -> list[str]:
    out = cues.get(cue_lang)
    if cue_lang == "it":  # Italian answers borrow English terms freely
        out += cues.get("en")
    return out


def analyse(question: Question, text: str, lang: str) -> Analysis:
    """Match an answer against the question's rubric."""
    rubric = question.rubric
    if rubric is None:
        raise ValueError(f"question {question.id} has no rubric to grade against")
    cue_lang = _cue_lang(lang, text)
    japanese = cue_lang == "ja"
    sentences = split_sentences(text)
    kept = [s for s in sentences if not is_grader_addressed(s.text)]
    dropped = [s.text for s in sentences if is_grader_addressed(s.text)]
    index = AnswerIndex.build(kept, japanese)
    quality = [explanation_quality(s.text, japanese) for s in kept]

    found: list[DetectedMisconception] = []
    wrong_sentences: set[int] = set()
    refuting = {i for i, sent in enumerate(kept) if is_refutation(sent.text)}
    for m in rubric.misconceptions:
        # Every sentence that states the claim loses key-point credit; the penalty counts once.
        hits = sorted(
            (h for cue in _cues_for(m.cues, cue_lang) for h in index.find(compile_cue(cue, japanese))
             if h.sentence not in refuting),
            key=lambda h: h.sentence,
        )
        if hits:
            wrong_sentences.update(h.sentence for h in hits)
            found.append(
                DetectedMisconception(
                    id=m.id,
                    claim=m.claim,
                    quote=hits[0].quote,
                    correction=m.correction.get(lang),
                    penalty=m.penalty,
                )
            )

    criteria = [_score_point(kp, index, quality, wrong_sentences, cue_lang, lang) for kp in rubric.key_points]
    return Analysis(criteria, found, dropped)


def _score_point(
    kp: KeyPoint,
    index: AnswerIndex,
    quality: list[float],
    wrong: set[int],
    cue_lang: str,
    lang: str,
) -> CriterionScore:
    best = 0.0
    evidence: dict[int, float] = {}
    for cue_text in _cues_for(kp.cues, cue_lang):
        cue = compile_cue(cue_text, index.japanese)
        strength = 1.0 if len(cue.terms) >= 2 else SINGLE_TERM_CREDIT
        for hit in index.find(cue):
            if hit.sentence in wrong:
                continue
            credit = strength * quality[hit.sentence]
            evidence[hit.sentence] = max(evidence.get(hit.sentence, 0.0), credit)
            best = max(best, credit)
    quotes = [index.sentences[i].text for i, _ in sorted(evidence.items(), key=lambda x: (-x[1], x[0]))[:2]]
    return CriterionScore(
        id=kp.id,
        statement=kp.statement.get(lang),
        weight=kp.weight,
        score=round(kp.weight * best, 3),
        max=kp.weight,
        evidence=quotes,
    )


class OfflineExaminer(Examiner):
    """Deterministic rubric matching; the default examiner."""

    name = "offline"

    def __init__(self) -> None:
        # grade() and next_probe() on the same exchange share one analysis.
        self._cache: dict[tuple[str, str, str], Analysis] = {}

    def analysis(self, exchange: Exchange) -> Analysis:
        """The matcher's findings for this exchange (cached: probe, grade and hint share one)."""
        key = (exchange.question.id, exchange.lang, exchange.candidate_text())
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > 256:
                self._cache.clear()
            found = self._cache[key] = analyse(exchange.question, key[2], exchange.lang)
        return found

    async def next_probe(self, exchange: Exchange) -> Probe | None:
        return self.pick_probe(exchange)

    def pick_probe(self, exchange: Exchange) -> Probe | None:
        """Probe the highest-weight key point not yet covered and not yet probed."""
        rubric = exchange.question.rubric
        if rubric is None or len(exchange.probes_asked()) >= exchange.max_probes:
            return None
        coverage = self.analysis(exchange).coverage()
        asked = set(exchange.probes_asked())
        candidates = [kp for kp in rubric.key_points if coverage[kp.id] < COVERED and kp.id not in asked]
        if not candidates:
            return None
        kp = max(candidates, key=lambda k: (k.weight, -rubric.key_points.index(k)))
        return Probe.of_text(kp.probe.get(exchange.lang), kp.id)

    async def grade(self, exchange: Exchange) -> Grade:
        return self.grade_sync(exchange)

    def grade_sync(self, exchange: Exchange) -> Grade:
        answered = exchange.answered()
        analysis = self.analysis(exchange)
        note = None
        if analysis.dropped:
            n = len(analysis.dropped)
            note = ntr(
                "ignored {n} sentence addressed to the grader", "ignored {n} sentences addressed to the grader", n, exchange.lang
            ).format(n=n)
        return finish_grade(
            exchange.question,
            exchange.lang,
            self.name,
            analysis.criteria,
            analysis.misconceptions,
            answered=answered,
            hint_penalty=0.5 * exchange.hints_used,
            note=note,
        )


def grade_text(question: Question, text: str, lang: str = "en") -> Grade:
    """Grade one standalone answer (no follow-ups): the headless `grade` path."""
    exchange = Exchange(question, lang, [Turn("candidate", "answer", text)])
    return OfflineExaminer().grade_sync(exchange)
