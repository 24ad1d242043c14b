"""The built-in offline examiner: deterministic rubric matching, no network.

It reads the candidate's sentences against each key point's cues. Sentences
addressed to the grader are dropped; sentences that state a known
misconception earn no credit and cost the misconception's penalty; bare
lists of terms earn little. Nothing here imports litellm.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from interviewer.bank.models import KeyPoint, LocalizedCues, Question
from interviewer.examiners.base import Examiner, Exchange, Probe, Turn
from interviewer.examiners.grade import (
    HINT_PENALTY,
    CriterionScore,
    DetectedMisconception,
    Grade,
    compute_overall,
    finish_grade,
)
from interviewer.examiners.offline import resemblance, roles
from interviewer.examiners.offline.cues import (
    AnswerIndex,
    active_lexicon,
    compile_cue,
    holds_word,
    turned_cues,
)
from interviewer.examiners.offline.guard import is_grader_addressed, is_question, is_refutation
from interviewer.examiners.offline.scoring import calibrated, load_model, predict, row_points
from interviewer.examiners.offline.text import (
    CLAUSE_MARKS,
    FUNCTION_WORDS,
    LIST_QUALITY,
    Sentence,
    compares_with,
    explanation_quality,
    is_japanese,
    latin_tokens,
    specificity,
    split_clauses,
    split_sentences,
    term_chain,
)
from interviewer.examiners.offline.topic import unjudged
from interviewer.i18n import ntr, tr

COVERED = 0.75  # a key point counts as covered at this fraction of its weight
SINGLE_TERM_CREDIT = 0.6  # a lone-term cue is weaker evidence than a relation
WORDS_PER_CLAIM = 6.0  # content words a sentence needs per key point it fully evidences
JA_CHARS_PER_CLAIM = 14.0
CHAIN_SHARE = 0.5  # an answer with this share of its sentences term chains is a buzzword list


@dataclass
class Contradiction:
    """A sentence that denies a key point ("the gradients are never scaled by N")."""

    key_point: str
    quote: str


@dataclass
class Analysis:
    """What the offline matcher found in one answer, before calibration."""

    criteria: list[CriterionScore]
    misconceptions: list[DetectedMisconception]
    dropped: list[str]  # sentences addressed to the grader
    contradictions: list[Contradiction] = field(default_factory=list)
    specificity: float = 0.0  # 0..1: numbers, formulas, named methods
    density: float = 0.0  # share of the answer's sentences that carry evidence
    unmatched: list[str] = field(default_factory=list)  # explaining sentences that neither earn nor lose anything
    explaining: list[str] = field(default_factory=list)  # sentences that explain (not lists, fragments or pleas)

    def coverage(self) -> dict[str, float]:
        return {c.id: c.score / c.max for c in self.criteria}


def _cue_lang(lang: str, text: str) -> str:
    """The cue set to use: trust the script of the text over the declared language."""
    if is_japanese(text):
        return "ja"
    return "en" if lang == "ja" else lang


def _cues_for(cues: LocalizedCues, cue_lang: str, claims: bool = False) -> list[tuple[str, str]]:
    """(cue, language of the cue): Italian and Japanese answers borrow English terms freely.

    English cues read on Japanese text see only the English words, not the Japanese word order,
    so they evidence key points but never detect wrong claims (claims=True).
    """
    out = [(c, cue_lang) for c in cues.get(cue_lang)]
    if cue_lang == "it" or (cue_lang == "ja" and not claims):
        out += [(c, "en") for c in cues.get("en")]
    return out


def _claim_budget(sentence: str, japanese: bool) -> float:
    """How many key points one sentence can fully evidence: long sentences can state several."""
    if japanese:
        return max(1.0, len(sentence) / JA_CHARS_PER_CLAIM)
    content = [w for w in latin_tokens(sentence) if w not in CLAUSE_MARKS and w not in FUNCTION_WORDS]
    return max(1.0, len(content) / WORDS_PER_CLAIM)


def analyse(question: Question, text: str, lang: str) -> Analysis:
    """Match an answer against the question's rubric: evidence, polarity, misconceptions."""
    rubric = question.rubric
    if rubric is None:
        raise ValueError(f"question {question.id} has no rubric to grade against")
    cue_lang = _cue_lang(lang, text)
    japanese = cue_lang == "ja"
    sentences = split_sentences(text)
    addressed = [is_grader_addressed(s.text) for s in sentences]
    kept = [s for s, a in zip(sentences, addressed, strict=True) if not a]
    dropped = [s.text for s, a in zip(sentences, addressed, strict=True) if a]
    index = AnswerIndex.build(kept, japanese)
    quality = [explanation_quality(s.text, japanese) for s in kept]
    # An answer made mostly of term chains is a buzzword list however its lines are dressed ("OPD: a dozen
    # terms", "KLペナルティ／参照モデル／…"); one such sentence in an answer that explains is an enumeration.
    chains = [term_chain(s.text, japanese) for s in kept]
    if kept and sum(chains) >= CHAIN_SHARE * len(kept):
        quality = [LIST_QUALITY if c else q for q, c in zip(quality, chains, strict=True)]

    found: list[DetectedMisconception] = []
    wrong_sentences: set[int] = set()
    # neither a rejected claim nor a question asserts anything: no misconception, no denial
    refuting = {i for i, sent in enumerate(kept) if is_refutation(sent.text) or is_question(sent.text)}
    lexicon = active_lexicon()
    for m in rubric.misconceptions:
        # Every sentence that states the claim loses key-point credit; the penalty counts once.
        owner = roles.claim_owner(m.id, lexicon)
        hits = sorted(
            (h for cue, cl in _cues_for(m.cues, cue_lang, claims=True) for h in index.find(compile_cue(cue, cl, False))
             if h.sentence not in refuting and not _set_against_rival(cue, cl, index, h.sentence)
             and not (owner and _said_of_another(cue, cl, index, h.sentence, owner))
             and not _across_unequal(cue, cl, index, h.sentence)),
            key=lambda h: h.sentence,
        )
        if hits:
            wrong_sentences.update(h.sentence for h in hits)
            found.append(
                DetectedMisconception(
                    id=m.id,
                    claim=m.claim.get(lang),
                    quote=hits[0].quote,
                    correction=m.correction.get(lang),
                    penalty=m.penalty,
                )
            )

    # Evidence and denials per key point, sentence by sentence.
    points = [_read_point(kp, index, quality, cue_lang) for kp in rubric.key_points]
    negated = [set(p.denied) for p in points]  # denials by negation, before reversals add theirs
    for kp, p in zip(rubric.key_points, points, strict=True):
        # A sentence that states a cue's relation in the opposite direction ("the min picks the optimistic
        # bound") and evidences the point nowhere else reverses it: read as a denial.
        others = [(s, cue) for q in points if q is not p for s, cues in q.cues.items() for cue in cues]
        for sentence in _reversals(kp, index, cue_lang, set(p.evidence), others):
            p.evidence.pop(sentence, None)
            p.denied.add(sentence)
    _swap_roles(rubric.key_points, points, index, cue_lang, roles.owners(question, lexicon), text, negated)
    # An answer whose every evidencing sentence is a term chain is a list however much it says around it
    # ("OPD: two dozen terms. Better than SFT and RL. Very efficient."): its chains earn what a list earns.
    # Not in Japanese, where 、 also joins the clauses of terse notes and chains are read less surely.
    evidencing = {s for p in points for s in p.evidence}
    if (not japanese and evidencing and all(chains[s] for s in evidencing)
            and any(quality[s] > LIST_QUALITY for s in evidencing)):
        for p in points:
            p.evidence = {s: c * LIST_QUALITY / quality[s] for s, c in p.evidence.items()}
        quality = [LIST_QUALITY if c else q for q, c in zip(quality, chains, strict=True)]
    # A sentence that denies a key point earns nothing for it; it keeps what it says about the others
    # (rubric statements themselves say "…and not a different choice of experts").
    denying = {s for p in points for s in p.denied if s not in p.evidence and s not in refuting}
    # One sentence evidences only as many key points as it has content for; the rest is split.
    budget = [_claim_budget(s.text, japanese) for s in kept]
    load: dict[int, float] = {}
    for p in points:
        for s, credit in p.evidence.items():
            if s not in wrong_sentences:
                load[s] = load.get(s, 0.0) + credit
    scale = {s: min(1.0, budget[s] / total) for s, total in load.items() if total > 0}

    criteria: list[CriterionScore] = []
    contradictions: list[Contradiction] = []
    for kp, p in zip(rubric.key_points, points, strict=True):
        credits = {s: c * scale[s] for s, c in p.evidence.items() if s not in wrong_sentences}
        best = max(credits.values(), default=0.0)
        quotes = [index.sentences[i].text for i, _ in sorted(credits.items(), key=lambda x: (-x[1], x[0]))[:2] if _ > 0]
        split = any(scale[s] < 1.0 for s in credits)
        uncertain = (0 < best < COVERED) or (best > 0 and (p.weak or split)) or (best > 0 and bool(p.denied))
        criteria.append(CriterionScore(
            id=kp.id, statement=kp.statement.get(lang), weight=kp.weight,
            score=round(kp.weight * best, 3), max=kp.weight, evidence=quotes, uncertain=uncertain,
        ))
        if best < COVERED:
            denials = sorted(s for s in p.denied if s in denying)
            if denials:
                contradictions.append(Contradiction(kp.id, index.sentences[denials[0]].text))

    content = [i for i, q in enumerate(quality) if q >= 0.5]
    evidenced = {s for s in load if s not in wrong_sentences}
    density = len(evidenced & set(content)) / len(content) if content else 0.0
    unmatched = [kept[i].text for i in content if i not in evidenced and i not in wrong_sentences and i not in denying]
    explaining = [kept[i].text for i, q in enumerate(quality) if q >= 1.0]
    return Analysis(criteria, found, dropped, contradictions, specificity(text), density, unmatched, explaining)


@dataclass
class _PointReading:
    evidence: dict[int, float]  # sentence -> credit as a fraction of the key point
    denied: set[int]
    weak: bool  # the best evidence is a lone term or a fragment
    cues: dict[int, list[str]] = field(default_factory=dict)  # sentence -> the cues it affirms


def _read_point(kp: KeyPoint, index: AnswerIndex, quality: list[float], cue_lang: str) -> _PointReading:
    evidence: dict[int, float] = {}
    strong_hit = False
    denied: set[int] = set()
    affirming: dict[int, list[str]] = {}
    for cue_text, cl in _cues_for(kp.cues, cue_lang):
        cue = compile_cue(cue_text, cl)
        strength = 1.0 if len(cue.terms) >= 2 else SINGLE_TERM_CREDIT
        found = index.polar(cue)
        for hit in found.affirmed:
            affirming.setdefault(hit.sentence, []).append(cue_text)
            credit = strength * quality[hit.sentence]
            strong_hit |= credit >= 1.0
            evidence[hit.sentence] = max(evidence.get(hit.sentence, 0.0), credit)
        # a lone negated word is too thin to call a contradiction; English cues read on Japanese text see
        # the English words only, not the Japanese negation around them (see _cues_for)
        if len(cue.terms) >= 2 and not (cue_lang == "ja" and cl != "ja"):
            # "with partial rollouts the batch no longer waits" describes a remedy, not the opposite claim:
            # it earns nothing for the point and contradicts nothing
            not_claims = {h.sentence for h in found.not_claims}
            denied.update(h.sentence for h in found.denied if h.sentence not in not_claims)
    return _PointReading(evidence, denied, bool(evidence) and not strong_hit, affirming)


def _reversals(kp: KeyPoint, index: AnswerIndex, cue_lang: str, evidence: set[int],
               elsewhere: list[tuple[int, str]]) -> set[int]:
    """Sentences that state a cue's relation in the opposite direction ("the min picks the optimistic
    bound") and state it the right way in none of their clauses: they reverse the point, and are read
    as denials.

    The turned cue must match within one clause, not just one sentence: "if the clip fraction
    climbs, reduce the epochs" pairs the metric with the remedy's direction, not the opposite claim.
    For the same reason a sentence whose words evidence the point only across clauses does not state
    it: "with a positive advantage clipping starts below 1-eps, and with a negative one above 1+eps"
    holds "positive advantage … above" in one sentence, and each of its clauses reverses the point.
    A sentence that names a rival in the point's relation but affirms another key point, within one
    clause, through a cue that names that rival (`elsewhere`: sentence, cue) states what the rubric
    itself says of the rival:
    "PipelineRL swaps the weights while generation goes on" does not take AReaL's continuous
    generation away, since both have it.
    """
    turned = [(t, cl) for cue, cl in _cues_for(kp.cues, cue_lang, claims=True)
              if cl == cue_lang and "+" in cue for t in turned_cues(cue, cl)]
    found: set[int] = set()
    clauses: dict[int, AnswerIndex] = {}  # a sentence's clauses are read once, whatever the number of turned cues
    for t, cl in turned:
        cue = compile_cue(t.cue, cl, False)
        for hit in index.find(cue):
            if hit.sentence in found:
                continue
            if hit.sentence not in clauses:
                clauses[hit.sentence] = AnswerIndex.build(split_clauses(hit.quote), index.japanese)
            within = clauses[hit.sentence]
            if t.rivals and any(s == hit.sentence and any(holds_word(c, r, cl) for r in t.rivals)
                                and within.find(compile_cue(c, cl)) for s, c in elsewhere):
                continue
            # a clause that states the turned relation, unless it names both rivals or compares with the new one
            naming = {h.sentence for h in within.find(compile_cue(t.named, cl, False))} if t.named else set()
            stating = [i for i in {h.sentence for h in within.find(cue)} - naming
                       if not compares_with(within.sentences[i].text, t.rivals, index.japanese)]
            if stating and not (hit.sentence in evidence and _stated_in_a_clause(kp, within, cue_lang)):
                found.add(hit.sentence)
    return found


def _swap_roles(key_points: list[KeyPoint], points: list[_PointReading], index: AnswerIndex, cue_lang: str,
                owned: dict[str, tuple[str, frozenset[str]]], text: str, negated: list[set[int]]) -> None:
    """A sentence that evidences a point about one named system while it speaks about a rival does not
    evidence it. Where the clause that states the point names the rival, it reverses the point ("GRPO
    trains a critic and computes GAE" for "PPO uses a critic with GAE"), unless it also evidences,
    speaking about that rival, a point the rival owns: then it states what the two share.
    A sentence that negates a point (`negated`: reversals are swaps already) while it speaks about a rival,
    named in it or, when it names no system, earlier in its paragraph, denies it of the rival: "Per slime …
    In più si libera memoria, così le risposte lunghe non vengono interrotte" says nothing against AReaL's
    interruptible rollouts."""
    if not owned:
        return
    texts = [s.text for s in index.sentences]
    breaks = [m.end() for m in _PARAGRAPH_BREAK.finditer(text)]
    paragraph = [bisect.bisect_right(breaks, s.start) for s in index.sentences]  # blank lines end a paragraph
    about: dict[tuple[str, int], roles.Topic | None] = {}
    clause_index: dict[tuple[str, ...], AnswerIndex] = {}  # one index per sentence's clauses, shared by its points

    def within(parts: list[str]) -> AnswerIndex:
        key = tuple(parts)
        found = clause_index.get(key)
        if found is None:
            found = clause_index[key] = AnswerIndex.build([Sentence(t, 0) for t in parts], index.japanese)
        return found

    for kp, p, negations in zip(key_points, points, negated, strict=True):
        if kp.id not in owned:
            continue
        owner, rivals = owned[kp.id]

        def stating(parts: list[str], kp: KeyPoint = kp, owner: str = owner) -> int | None:
            cues = _cues_for(kp.cues, cue_lang)
            found = next((h.sentence for c, cl in cues for h in within(parts).polar(compile_cue(c, cl)).affirmed), None)
            if found is not None:
                return found
            # no clause states the whole cue: the clause that states what it says of its system does ("So AReaL
            # favours throughput with a stale cache, and PipelineRL consistency with a recomputed one")
            return next((h.sentence for c, cl in cues for rest in [roles.without_system(c, owner)] if rest and rest != c.strip()
                         for h in within(parts).polar(compile_cue(rest, cl)).affirmed), None)

        def denying(parts: list[str], kp: KeyPoint = kp) -> int | None:
            return next((h.sentence for c, cl in _cues_for(kp.cues, cue_lang)
                         for h in within(parts).polar(compile_cue(c, cl)).denied), None)

        for s in negations & p.denied:
            said = roles.topic(texts, s, denying, owner, rivals)
            if said is None and not roles.names_in(texts[s], rivals | {owner}):  # a sentence that names none
                said = roles.paragraph_topic(texts, s, paragraph, rivals | {owner})
            if said is not None and said.system != owner:
                p.denied.discard(s)
        for s in p.evidence:
            about[kp.id, s] = roles.topic(texts, s, stating, owner, rivals)
    for kp, p in zip(key_points, points, strict=True):
        for s in list(p.evidence):
            found = about.get((kp.id, s))
            if found is None or found.system == owned[kp.id][0]:
                continue
            p.evidence.pop(s)
            # a rival named before the clause that states the point ("PPO trains a second network, …, and
            # every token gets how much better it did") or in the sentence before ("It drops the cache") is
            # less sure: the sentence earns nothing for the point, and is not reported as an error
            shared = any(owned.get(q.id, ("",))[0] == found.system and (t := about.get((q.id, s))) is not None
                         and t.system == found.system for q in key_points)
            if found.named_here and not shared:
                p.denied.add(s)


def _set_against_rival(cue_text: str, cue_lang: str, index: AnswerIndex, sentence: int) -> bool:
    """Whether a sentence of `index` that matches a wrong claim's cue sets the claim's named thing against
    its rival, and states the claim in none of its clauses: it compares the two rather than claims either.
    It does so when it also matches the cue with the rival named instead ("the clip bounds each step
    relative to pi_old, the KL bounds the drift relative to pi_ref"), or when one of its clauses holds the
    cue's other terms with the rival ("clipping bounds each step relative to pi_old, KL bounds the total
    distance from a fixed pi_ref")."""
    rival_turns = [t for t in turned_cues(cue_text, cue_lang) if t.rivals]
    if not rival_turns:
        return False
    clauses = AnswerIndex.build(split_clauses(index.sentences[sentence].text), index.japanese)
    if clauses.find(compile_cue(cue_text, cue_lang, False)):
        return False
    if any(h.sentence == sentence for t in rival_turns for h in index.find(compile_cue(t.cue, cue_lang, False))):
        return True
    terms = [t.strip() for t in cue_text.split("+")]
    for t in rival_turns:
        rest = [term for term, turned in zip(terms, t.cue.split("+"), strict=True) if term == turned.strip()]
        if rest and len(rest) < len(terms):
            with_rival = compile_cue(" + ".join([*rest, "|".join(t.rivals)]), cue_lang, False)
            if clauses.find(with_rival):
                return True
    return False


_UNEQUAL = re.compile(r"≠|!=|=/=")
_PARAGRAPH_BREAK = re.compile("\n\n")


def _across_unequal(cue_text: str, cue_lang: str, index: AnswerIndex, sentence: int) -> bool:
    """Whether a sentence matches a wrong claim's cue only across a "≠": shorthand "more GPUs ≠ lower
    latency" says the two differ, the opposite of claiming that more GPUs lower the latency."""
    parts = [p for p in _UNEQUAL.split(index.sentences[sentence].text) if p.strip()]
    if len(parts) < 2:
        return False
    sides = AnswerIndex.build([Sentence(p, 0) for p in parts], index.japanese)
    return not sides.find(compile_cue(cue_text, cue_lang, False))


def _said_of_another(cue_text: str, cue_lang: str, index: AnswerIndex, sentence: int,
                     owner: tuple[str, frozenset[str]]) -> bool:
    """Whether a sentence that matches a wrong claim about one system says what the claim says of another
    system: the clause that holds the claim's other terms is about that one ("SimKO: RLVR concentrates
    probability on the top-1 token", "Unlike GRPO, PPO trains a critic")."""
    system, others = owner
    rest = roles.without_system(cue_text, system)
    if not rest:
        return False
    claim = compile_cue(rest, cue_lang, False)

    def stating(parts: list[str]) -> int | None:
        within = AnswerIndex.build([Sentence(t, 0) for t in parts], index.japanese)
        return next((h.sentence for h in within.find(claim)), None)

    found = roles.topic([s.text for s in index.sentences], sentence, stating, system, others)
    return found is not None and found.system != system


def _stated_in_a_clause(kp: KeyPoint, clauses: AnswerIndex, cue_lang: str) -> bool:
    """Whether one of a sentence's clauses (read as sentences of their own) states the key point."""
    return any(clauses.polar(compile_cue(cue_text, cl)).affirmed for cue_text, cl in _cues_for(kp.cues, cue_lang))


CACHE_SIZE = 256  # exchanges remembered per examiner; an interview has a handful


K = TypeVar("K")
V = TypeVar("V")


def _remember(cache: dict[K, V], key: K, compute: Callable[[], V]) -> V:
    """`cache[key]`, computed on first use; the cache is emptied when it outgrows CACHE_SIZE."""
    if key not in cache:
        if len(cache) > CACHE_SIZE:
            cache.clear()
        cache[key] = compute()
    return cache[key]


class OfflineExaminer(Examiner):
    """Deterministic rubric matching; the default examiner."""

    name = "offline"

    def __init__(self) -> None:
        # grade() and next_probe() on the same exchange share one analysis, and one lift.
        self._cache: dict[tuple[str, str, str], Analysis] = {}
        self._lifts: dict[tuple[str, str, str], resemblance.Lift | None] = {}

    @staticmethod
    def _key(exchange: Exchange) -> tuple[str, str, str]:
        return exchange.question.id, exchange.lang, exchange.candidate_text()

    def analysis(self, exchange: Exchange) -> Analysis:
        """The matcher's findings for this exchange (cached: probe, grade and hint share one)."""
        key = self._key(exchange)
        return _remember(self._cache, key, lambda: analyse(exchange.question, key[2], exchange.lang))

    async def next_probe(self, exchange: Exchange) -> Probe | None:
        return self.pick_probe(exchange)

    def lift(self, exchange: Exchange) -> resemblance.Lift | None:
        """Credit by resemblance for this exchange (cached like the analysis)."""
        return _remember(self._lifts, self._key(exchange), lambda: self._lift(exchange, self.analysis(exchange)))

    def pick_probe(self, exchange: Exchange) -> Probe | None:
        """Probe the highest-weight key point not yet covered and not yet probed.

        When the answer reads like well-graded answers in other words (it earns a lift), the matcher's empty
        rows are not all missing: the key point the answer's sentences resemble least is asked first, so a
        candidate who made a point in plain words is not asked to make it again.
        """
        rubric = exchange.question.rubric
        if rubric is None or len(exchange.probes_asked()) >= exchange.max_probes:
            return None
        coverage = self.analysis(exchange).coverage()
        asked = set(exchange.probes_asked())
        candidates = [kp for kp in rubric.key_points if coverage[kp.id] < COVERED and kp.id not in asked]
        if not candidates:
            return None
        lift = self.lift(exchange) if len(candidates) > 1 else None
        if lift is not None and lift.closeness:
            closeness = lift.closeness
            # rows the matcher credited in part come after the empty ones: some of their idea is on the page
            kp = min(candidates, key=lambda k: (closeness.get(k.id, 1.0), -k.weight, rubric.key_points.index(k)))
        else:
            kp = max(candidates, key=lambda k: (k.weight, -rubric.key_points.index(k)))
        return Probe.of_text(kp.probe.get(exchange.lang), kp.id)

    async def grade(self, exchange: Exchange) -> Grade:
        return self.grade_sync(exchange)

    def grade_sync(self, exchange: Exchange) -> Grade:
        answered = exchange.answered()
        analysis = self.analysis(exchange)
        notes = []
        if analysis.dropped:
            n = len(analysis.dropped)
            notes.append(
                ntr(
                    "ignored {n} sentence addressed to the grader",
                    "ignored {n} sentences addressed to the grader",
                    n,
                    exchange.lang,
                ).format(n=n)
            )
        hint_penalty = HINT_PENALTY * exchange.hints_used
        lift = self.lift(exchange)
        criteria, misconceptions = calibrated(analysis, exchange.lang, lift=lift)
        plain = round(min(10.0, max(0.0, predict(analysis, load_model()) - hint_penalty)), 1)
        shift = round(compute_overall(criteria, misconceptions, hint_penalty) - plain, 1) if lift is not None else 0.0
        if lift is not None and not shift:  # capped where it stood: say nothing, quote nothing
            lift = None
            criteria, misconceptions = calibrated(analysis, exchange.lang)
        if lift is not None:
            notes.append(_lift_note(lift, exchange.lang))
        if any(c.uncertain for c in criteria):
            notes.append(tr("Criteria marked uncertain matched weakly; for a second opinion, grade again with the LLM examiner (--examiner llm).", exchange.lang))
        grade = finish_grade(
            exchange.question,
            exchange.lang,
            self.name,
            criteria,
            misconceptions,
            answered=answered,
            hint_penalty=hint_penalty,
            note=" ".join(notes) or None,
        )
        quoted = set(lift.soft.values()) if lift is not None else set()
        listed = unjudged([s for s in analysis.unmatched if s not in quoted], exchange.question, exchange.lang, grade.overall)
        return grade.model_copy(update={
            "unjudged": listed, "resemblance": lift.resemblance.grade if lift is not None else None,
            "resemblance_shift": shift if lift is not None else None,
        })

    @staticmethod
    def _lift(exchange: Exchange, analysis: Analysis) -> resemblance.Lift | None:
        """What resemblance to graded examples does to the grade, read from the sentences that explain. It may
        raise only an answer in which the matcher found no error and nothing addressed to the grader: no benefit
        of the doubt otherwise. It may lower any."""
        if len(analysis.explaining) < resemblance.MIN_SENTENCES:
            return None
        explaining = set(analysis.explaining)
        return resemblance.lift(
            exchange.question, exchange.lang, " ".join(analysis.explaining), row_points(analysis, load_model()),
            [c.id for c in analysis.criteria if c.score == 0], [s for s in analysis.unmatched if s in explaining],
            may_raise=not (analysis.misconceptions or analysis.contradictions or analysis.dropped),
        )


def _lift_note(lift: resemblance.Lift, lang: str) -> str:
    """What the grade says about the resemblance that moved it."""
    found = lift.resemblance
    if lift.elsewhere is not None:
        return tr(
            "This answer reads like a good answer to another question in the bank ({other}), not to this one: "
            "what it says earns no credit here.",
            lang,
        ).format(other=lift.elsewhere)
    n = found.neighbours
    message = ntr(
        "Part of this score comes from the answer's resemblance to graded example answers to this question "
        "({n} close one, graded {grade:.1f}); rows marked uncertain may have been credited that way.",
        "Part of this score comes from the answer's resemblance to graded example answers to this question "
        "({n} close ones, graded {grade:.1f} on average); rows marked uncertain may have been credited that way.",
        n, lang,
    ) if lift.raised else ntr(
        "A graded example answer to this question that reads like this one ({n} close one) was graded "
        "{grade:.1f}, lower than the rubric match alone: the score moved part of the way toward it.",
        "Graded example answers to this question that read like this one ({n} close ones) were graded "
        "{grade:.1f} on average, lower than the rubric match alone: the score moved part of the way toward them.",
        n, lang,
    )
    return message.format(n=n, grade=found.grade)


def grade_text(question: Question, text: str, lang: str = "en") -> Grade:
    """Grade one standalone answer (no follow-ups): the headless `grade` path."""
    exchange = Exchange(question, lang, [Turn("candidate", "answer", text)])
    return OfflineExaminer().grade_sync(exchange)
