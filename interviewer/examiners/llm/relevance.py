"""Does a quoted sentence talk about a given key point (or state a given misconception)?

A model's quote proves only that the candidate wrote those words; this module
checks that the words are about the criterion they are quoted for, so one
real sentence cannot earn credit for every key point.

What counts as a key point's concepts (chosen because the rubric already
names them, in every language, and needs no model):

* each *term* of its detection cues (a `+`-separated part, with its `|`
  alternatives) in the answer's language and in English (candidates borrow
  English terms), matched like the offline examiner reads cues: word
  prefixes in English/Italian, substrings in Japanese;
* the content words of its statement (stemmed, 4+ letters, not function
  words, not words of the question itself, which every answer repeats).

A concept shared by k key points of the question weighs 1/k: "PPO" in a
PPO question says little about which point is meant. The sentences a quote
touches (the quote "and near it") score a sum of weights per key point. The
quote supports a key point when that score is at least `STRONG_HITS`, or at
least `MIN_HITS` and at least `RATIO` of the best score any key point of the
question gets from the same sentences: a sentence that is clearly about
another point does not count for this one.

Measured over the calibration and blind sets (the offline examiner's
evidence sentences as the quotes a careful model would give): 91.8% of
those quotes support their own key point, and 81.2% of them are refused for
a key point the offline examiner finds nowhere in that answer (some of those
do touch the point, so this understates it). A lower STRONG_HITS keeps more
real evidence (4: 97.7%) but lets a long sentence count for neighbouring
points (4: 60.9% refused). See `tests/llm/test_grounding.py`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from interviewer.bank.models import KeyPoint, LocalizedCues, LocalizedText, Misconception, Question
from interviewer.examiners.offline.lang import stem
from interviewer.examiners.offline.text import FUNCTION_WORDS, fold_ja, latin_tokens

T = TypeVar("T")

MIN_HITS = 1.0  # concept weight a quote's sentences need to count for a key point at all
STRONG_HITS = 10.0  # ... enough on its own
RATIO = 0.5  # ... otherwise at least this share of the best-scoring key point's
CLAIM_SHARE = 0.6  # of a misconception's claim words a paraphrase must repeat
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_JA_TERMS = re.compile(r"[\u30a0-\u30ff]{3,}|[\u4e00-\u9fff]{2,}")
_GENERIC = frozenset(
    "about also answer because both case does each either every example fact first from into just many more most "
    "much only other same some such than that their them then there these they this those through thus used uses "
    "using very what when where which while with without would della delle dello degli sono come anche quando "
    "questo questa quello quella perche ogni tutti tutte".split()
)
_NEGATORS = frozenset(
    "not no never without neither nor non senza mai nessun nessuna nessuno niente nulla nothing none".split()
)
_JA_NEGATORS = ("ない", "ません", "せず", "ずに", "なし", "不要", "ではなく", "じゃなく", "なく")


@dataclass(frozen=True)
class Unit:
    """One concept: it is present when any alternative is."""

    phrases: tuple[tuple[str, ...], ...]  # Latin alternatives: word prefixes in order (exact when marked '=')
    exact: tuple[tuple[bool, ...], ...]
    substrings: tuple[str, ...]  # Japanese alternatives, folded
    weight: float = 1.0

    def key(self) -> tuple[object, ...]:
        return (self.phrases, self.substrings)


def _alt_unit_parts(alt: str) -> tuple[tuple[str, ...], tuple[bool, ...]] | str | None:
    raw = alt.strip()
    if not raw:
        return None
    if _CJK.search(raw):
        return fold_ja(raw.rstrip("="))
    words = tuple(w for w in latin_tokens(raw.rstrip("=")) if w not in (",", ":"))
    if not words:
        return None
    return words, tuple(raw.endswith("=") or len(w) <= 3 for w in words)


def _cue_units(cues: LocalizedCues, langs: Iterable[str]) -> list[Unit]:
    units: list[Unit] = []
    for lang in langs:
        for cue in cues.get(lang):
            for term in cue.split("+"):
                phrases: list[tuple[str, ...]] = []
                exact: list[tuple[bool, ...]] = []
                subs: list[str] = []
                for alt in term.split("|"):
                    part = _alt_unit_parts(alt)
                    if isinstance(part, str):
                        subs.append(part)
                    elif part is not None:
                        phrases.append(part[0])
                        exact.append(part[1])
                if phrases or subs:
                    units.append(Unit(tuple(phrases), tuple(exact), tuple(subs)))
    return units


def _statement_units(text: LocalizedText, lang: str, skip: set[str]) -> list[Unit]:
    units: list[Unit] = []
    if lang == "ja":
        body = text.get("ja")
        for t in sorted(set(_JA_TERMS.findall(body))):
            units.append(Unit((), (), (fold_ja(t),)))
        words = [w for w in latin_tokens(body) if w.isascii() and len(w) >= 3]
        lang_for_stem = "en"
    else:
        words = latin_tokens(text.get(lang))
        lang_for_stem = lang
    stems = sorted({stem(w, lang_for_stem) for w in words
                    if len(w) >= 4 and w.isalpha() and w not in FUNCTION_WORDS and w not in _GENERIC} - skip)
    units += [Unit(((s,),), ((False,),), ()) for s in stems if len(s) >= 3]
    return units


@dataclass(frozen=True)
class Concepts:
    units: tuple[Unit, ...]


def _dedupe(units: list[Unit]) -> list[Unit]:
    seen: dict[tuple[object, ...], Unit] = {}
    for u in units:
        seen.setdefault(u.key(), u)
    return list(seen.values())


def _langs(lang: str) -> tuple[str, ...]:
    return (lang,) if lang == "en" else (lang, "en")


def _per_question(build: Callable[[Question, str], T]) -> Callable[[Question, str], T]:
    """Build once per question object and language. Questions are pydantic models (unhashable), and
    banks may reuse an id, so the entry keeps the object itself to check that id() still names it."""
    memo: dict[tuple[int, str], tuple[Question, T]] = {}

    @functools.wraps(build)
    def get(question: Question, lang: str) -> T:
        hit = memo.get((id(question), lang))
        if hit is None or hit[0] is not question:
            hit = memo[(id(question), lang)] = (question, build(question, lang))
        return hit[1]

    return get


@_per_question
def key_point_concepts(question: Question, lang: str) -> dict[str, Concepts]:
    """Every key point's concepts for answers in `lang`; concepts all points share weigh half."""
    assert question.rubric is not None
    skip = {stem(w, "en" if lang == "ja" else lang) for w in latin_tokens(question.text.get(lang))}
    skip |= {stem(w, "en") for w in latin_tokens(question.text.en)}
    per: dict[str, list[Unit]] = {}
    for kp in question.rubric.key_points:
        per[kp.id] = _dedupe(_cue_units(kp.cues, _langs(lang)) + _statement_units(kp.statement, lang, skip))
    counts: dict[tuple[object, ...], int] = {}
    for units in per.values():
        for u in units:
            counts[u.key()] = counts.get(u.key(), 0) + 1
    return {
        kid: Concepts(tuple(Unit(u.phrases, u.exact, u.substrings, 1 / counts[u.key()]) for u in units))
        for kid, units in per.items()
    }


@dataclass(frozen=True)
class Claim:
    """A misconception as the rubric detects it (whole cues) and as it is worded (the claim's stems)."""

    cues: tuple[tuple[Unit, ...], ...]
    words: tuple[Unit, ...]


@_per_question
def misconception_claims(question: Question, lang: str) -> dict[str, Claim]:
    assert question.rubric is not None
    out = {}
    for m in question.rubric.misconceptions:
        cues = []
        for cue_lang in _langs(lang):
            for cue in m.cues.get(cue_lang):
                one = LocalizedCues(en=[cue], it=[cue], ja=[cue])
                cues.append(tuple(_cue_units(one, ("en",))))
        # Italian quotes are read against the Italian claim where the rubric has one (its English terms come along).
        # Japanese ones keep the English claim: its words would be matched as bare substrings, and on the graded
        # sets that accepted 51 sentences of correct answers instead of 16, for 6 more of wrong ones.
        italian = lang == "it" and m.claim.it is not None
        claim = LocalizedText(en=m.claim.en, it=m.claim.get("it"), ja=m.claim.en)
        out[m.id] = Claim(tuple(cues), tuple(_statement_units(claim, "it" if italian else "en", set())))
    return out


class Context:
    """The sentences around a quote, tokenised once for concept look-ups."""

    def __init__(self, text: str) -> None:
        self.tokens = [w for w in latin_tokens(text) if w not in (",", ":")]
        self.words = set(self.tokens)
        self.prefixes = {w[:k] for w in self.words for k in range(1, len(w) + 1)}
        self.ja = fold_ja(text)
        self._seen: dict[tuple[tuple[str, ...], tuple[bool, ...], bool], bool] = {}

    def _phrase(self, phrase: tuple[str, ...], exact: tuple[bool, ...], polarity: bool) -> bool:
        if len(phrase) == 1 and not polarity:  # the common case, without a scan
            return phrase[0] in (self.words if exact[0] else self.prefixes)
        key = (phrase, exact, polarity)
        hit = self._seen.get(key)
        if hit is None:
            hit = self._find(phrase, exact, polarity)
            self._seen[key] = hit
        return hit

    def _find(self, phrase: tuple[str, ...], exact: tuple[bool, ...], polarity: bool) -> bool:
        if not all(w in (self.words if ex else self.prefixes) for w, ex in zip(phrase, exact, strict=True)):
            return False  # a word of the phrase is absent: no need to scan
        n, tokens = len(phrase), self.tokens
        first, first_exact = phrase[0], exact[0]
        starts = [i for i, t in enumerate(tokens[: len(tokens) - n + 1])
                  if (t == first if first_exact else t.startswith(first))]
        for i in starts:
            if all((tokens[i + k] == w) if ex else tokens[i + k].startswith(w)
                   for k, (w, ex) in enumerate(zip(phrase[1:], exact[1:], strict=True), 1)) and (
                    not polarity or not any(t in _NEGATORS for t in tokens[max(0, i - 3) : i])):
                return True
        return False

    def has(self, unit: Unit, polarity: bool = False) -> bool:
        """True when the concept is present (and, with `polarity`, not negated just before it)."""
        if any(self._phrase(p, e, polarity) for p, e in zip(unit.phrases, unit.exact, strict=True)):
            return True
        for sub in unit.substrings:
            at = self.ja.find(sub)
            while at >= 0:
                tail = self.ja[at + len(sub) : at + len(sub) + 6]
                if not polarity or not any(neg in tail for neg in _JA_NEGATORS):
                    return True
                at = self.ja.find(sub, at + 1)
        return False

    def score(self, concepts: Concepts, polarity: bool = False) -> float:
        return sum(u.weight for u in concepts.units if self.has(u, polarity))


@dataclass
class _Index:
    """Every key point's concepts flattened into look-up tables (built once per question and language)."""

    weights: list[tuple[str, float]]  # per unit: key point id, weight
    single: dict[tuple[str, bool], list[int]]  # one-word alternative (word, exact) -> units
    multi: list[tuple[tuple[str, ...], tuple[bool, ...], int]]
    ja: dict[str, list[int]]


@_per_question
def _index(question: Question, lang: str) -> _Index:
    idx = _Index([], {}, [], {})
    for kid, concepts in key_point_concepts(question, lang).items():
        for u in concepts.units:
            n = len(idx.weights)
            idx.weights.append((kid, u.weight))
            for phrase, exact in zip(u.phrases, u.exact, strict=True):
                if len(phrase) == 1:
                    idx.single.setdefault((phrase[0], exact[0]), []).append(n)
                else:
                    idx.multi.append((phrase, exact, n))
            for sub in u.substrings:
                idx.ja.setdefault(sub, []).append(n)
    return idx


def key_point_scores(question: Question, lang: str, context: str) -> dict[str, float]:
    """Each key point's concept score for `context` (the sentences a quote touches)."""
    idx = _index(question, lang)
    ctx = Context(context)
    present: set[int] = set()
    for (word, exact), units in idx.single.items():
        if word in (ctx.words if exact else ctx.prefixes):
            present.update(units)
    for phrase, exacts, n in idx.multi:
        # most phrases fail on their first word: test it before any scan
        if n not in present and phrase[0] in (ctx.words if exacts[0] else ctx.prefixes) \
                and ctx._phrase(phrase, exacts, False):
            present.add(n)
    for sub, units in idx.ja.items():
        if sub in ctx.ja:
            present.update(units)
    scores = {kid: 0.0 for kid in key_point_concepts(question, lang)}
    for n in present:
        kid, weight = idx.weights[n]
        scores[kid] += weight
    return scores


def supported(scores: dict[str, float], kp_id: str) -> bool:
    """The rule above, on the scores of one context."""
    s = scores.get(kp_id, 0.0)
    return s >= STRONG_HITS or (s >= MIN_HITS and s >= RATIO * max(scores.values(), default=0.0))


def supports(question: Question, kp: KeyPoint, lang: str, context: str) -> bool:
    """True when `context` (the sentences a quote touches) talks about this key point."""
    return supported(key_point_scores(question, lang, context), kp.id)


def states(question: Question, m: Misconception, lang: str, context: str) -> bool:
    """True when `context` asserts the misconception: one of its cues matches whole (no term negated),
    or `CLAIM_SHARE` of the claim's content words are there, none negated."""
    claim = misconception_claims(question, lang)[m.id]
    ctx = Context(context)
    if any(units and all(ctx.has(u, polarity=True) for u in units) for units in claim.cues):
        return True
    if not claim.words:
        return False
    return sum(ctx.has(u, polarity=True) for u in claim.words) >= CLAIM_SHARE * len(claim.words)
