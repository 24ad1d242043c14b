"""A second, weaker reading of the answer: overlap with the key point's own statement.

Cues are written by hand and are thinner in some languages than in others. Every
key point also has a full statement in en/it/ja, so a sentence that shares most
of a statement's distinctive words (Snowball stems in en/it, Sudachi lemmas in
ja; weighted by how specific each word is to this key point among the
question's key points) is taken as partial evidence. It is capped below full
credit, skipped for sentences with a negation, and always marked uncertain.
"""

from __future__ import annotations

import math
from functools import lru_cache

from interviewer.bank.models import Question
from interviewer.examiners.offline.cues import LATIN_NEGATORS
from interviewer.examiners.offline.lang import morphemes, stem
from interviewer.examiners.offline.text import CLAUSE_MARKS, FUNCTION_WORDS, fold_ja, latin_tokens

TOP_WORDS = 8  # sharing this many average words of a statement is full overlap
MIN_SHARED = 3
_JA_CONTENT = frozenset({"名詞", "動詞", "形容詞", "形状詞"})
_JA_NEG = frozenset({"ない", "ぬ", "ず", "ん", "無い"})
_GENERIC = frozenset({"model", "modello", "use", "usa", "make", "fa", "one", "also", "more", "can", "when"})


def words(text: str, lang: str) -> set[str]:
    """Content words of a sentence: stems (en/it) or lemmas (ja)."""
    if lang == "ja":
        return {m.lemma for m in morphemes(fold_ja(text)) if m.pos in _JA_CONTENT and len(m.lemma) >= 2 and m.pos2 != "非自立可能"}
    return {
        stem(w, lang)
        for w in latin_tokens(text)
        if w not in CLAUSE_MARKS and w not in FUNCTION_WORDS and w not in _GENERIC and len(w) >= 3 and not w.isdigit()
    }


def negated(text: str, lang: str) -> bool:
    if lang == "ja":
        return any(m.lemma in _JA_NEG and m.pos in ("助動詞", "形容詞") for m in morphemes(fold_ja(text)))
    return any(w in LATIN_NEGATORS for w in latin_tokens(text))


def profiles(question: Question, lang: str) -> tuple[dict[str, float], ...]:
    """Per key point: its statement's most distinctive words and their weights (IDF over the question's points)."""
    rubric = question.rubric
    if rubric is None:
        return ()
    return _profiles(tuple(kp.statement.get(lang) for kp in rubric.key_points), lang)


@lru_cache(maxsize=512)
def _profiles(statements: tuple[str, ...], lang: str) -> tuple[dict[str, float], ...]:
    bags = [words(st, lang) for st in statements]
    n = len(bags)
    return tuple({w: math.log((n + 1) / (0.5 + sum(w in b for b in bags))) for w in bag} for bag in bags)


def overlap(sentence_words: set[str], profile: dict[str, float]) -> float:
    """0..1: the statement's words the sentence shares, weighted by distinctiveness; sharing
    TOP_WORDS words of average weight counts as 1, and fewer than MIN_SHARED words as 0."""
    shared = [w for t, w in profile.items() if t in sentence_words]
    if len(shared) < MIN_SHARED or not profile:
        return 0.0
    unit = TOP_WORDS * sum(profile.values()) / len(profile)
    return min(1.0, sum(shared) / unit)


__all__ = ["negated", "overlap", "profiles", "words"]
