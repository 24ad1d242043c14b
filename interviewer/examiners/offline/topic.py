"""Which of an answer's unmatched sentences are about the question: the offline grade's blind spot.

The matcher credits only the wording its cues and lexicon know. A correct
sentence in other words earns nothing, and from the score alone it looks the
same as a sentence that says nothing. A sentence that shares content words
with the question and its rubric, yet matches no key point and states no known
error, is one the examiner could not judge. When an answer has several of
them and a middling grade, the grade lists them and suggests a second opinion
(the LLM examiner) instead of pretending it read them. The score never
changes: this is a statement of confidence, not evidence.

Thresholds were set on the tuning sets (never a held-out set): with at least
two shared content words per sentence and four such sentences, the list
appears on about two thirds of the paraphrased correct answers and on few
good or partial ones.
"""

from __future__ import annotations

from functools import lru_cache

from interviewer.bank.models import Question
from interviewer.examiners.offline.lang import morphemes, stem
from interviewer.examiners.offline.text import FUNCTION_WORDS, fold_ja, is_japanese, latin_tokens

ON_TOPIC_WORDS = 2  # content words shared with the question and its rubric that make a sentence about it
UNJUDGED_MIN = 4  # sentences like that before the grade lists them
UNJUDGED_MAX_SCORE = 6.0  # above this the grade already credits most of the answer
_JA_CONTENT = ("名詞", "動詞", "形容詞")


def content_words(text: str, lang: str) -> frozenset[str]:
    """Stems (en/it) or dictionary forms (ja) of a text's content words; Latin words in Japanese text too."""
    if lang == "ja" or is_japanese(text):
        words = {m.lemma for m in morphemes(fold_ja(text))
                 if m.pos in _JA_CONTENT and m.pos2 not in ("非自立可能", "数詞") and len(m.lemma) >= 2}
        return frozenset(words | {stem(w, "en") for w in latin_tokens(text) if w.isascii() and len(w) >= 3})
    return frozenset(stem(w, lang) for w in latin_tokens(text) if len(w) >= 4 and w not in FUNCTION_WORDS)


@lru_cache(maxsize=256)
def _vocabulary(texts: tuple[str, ...], lang: str) -> frozenset[str]:
    return frozenset().union(*(content_words(t, lang) for t in texts))


def question_words(question: Question, lang: str) -> frozenset[str]:
    """The content words of the question text and of its key points' statements and probes, in `lang`."""
    texts = [question.text.get(lang)]
    if question.rubric is not None:
        for kp in question.rubric.key_points:
            texts += [kp.statement.get(lang), kp.probe.get(lang)]
    return _vocabulary(tuple(texts), lang)


def on_topic(sentences: list[str], question: Question, lang: str) -> list[str]:
    """The sentences that share at least ON_TOPIC_WORDS content words with the question."""
    vocabulary = question_words(question, lang)
    return [s for s in sentences if len(content_words(s, lang) & vocabulary) >= ON_TOPIC_WORDS]


def unjudged(unmatched: list[str], question: Question, lang: str, overall: float) -> list[str]:
    """What the grade lists as not judged: the unmatched sentences about the question, when there are
    UNJUDGED_MIN of them or more and the grade is middling (else nothing: the topic is read only then)."""
    if len(unmatched) < UNJUDGED_MIN or overall > UNJUDGED_MAX_SCORE:
        return []
    about = on_topic(unmatched, question, lang)
    return about if len(about) >= UNJUDGED_MIN else []


__all__ = ["ON_TOPIC_WORDS", "UNJUDGED_MAX_SCORE", "UNJUDGED_MIN", "content_words", "on_topic", "question_words", "unjudged"]
