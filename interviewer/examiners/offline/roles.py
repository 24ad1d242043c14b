"""Which named system a sentence speaks about, so a key point about one is not credited to its rival.

An answer that swaps roles ("GRPO trains a critic and uses GAE; PPO compares each answer with its
group") uses every right word, only about the wrong system, and the cue matcher credits both points.
The lexicon's `systems` lists named systems that answers confuse (AReaL / PipelineRL, PPO / GRPO, ...).
A key point whose id names one of them is about that one, its owner; its rivals are the counterparts
that own key points of the same question (see `owners`).

A sentence that evidences such a point is read for its topic: the names in the clause that states the
point, else in the clauses before it, else, for a sentence that points back at the one before, in that
one ("PipelineRL takes the opposite route. It drops the cache and prefills again"). A clause that names
both sides compares them and decides nothing. A sentence whose topic is a rival does not evidence the
point. It denies it only when the clause that states the point names the rival, and then not if it also
evidences a point the rival owns (a property the two share).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

from interviewer.bank.lexicon import Lexicon
from interviewer.bank.models import Question
from interviewer.examiners.offline.cues import POINTS_BACK

LOOK_BACK = 2  # sentences read back for a topic, each one pointing back at the one before

_NAME = re.compile(r"[a-z0-9]+")
_DR_GRPO = re.compile(r"\bdr\.?\s*grpo")
# clause boundaries for a topic: punctuation and the words that set two systems side by side
_CLAUSE = re.compile(r"[,;:、，；：]|\s(?:while|whereas|but|mentre|ma|invece)\s|一方")
_OPENING, _CLOSING = "(（[", ")）]"
# a pronoun inside the clause that states the point names its system in an earlier sentence
_SUBJECT_PRONOUN = re.compile(r"\b(?:it|they)\b", re.IGNORECASE)
# a clause that names a system only to set it against the subject
_CONTRAST = re.compile(
    r"^\s*(?:unlike|compared (?:with|to)|in contrast (?:with|to)|as opposed to|rather than|instead of|a differenza d|"
    r"diversamente da|rispetto a|contrariamente a|invece d)\b"
    r"|(?:と違って|とは違って|と異なり|とは異なり|に対して|と比べて|に比べて|ではなく)\s*$",
    re.IGNORECASE,
)

# a system named only as the model of a comparison ("dropped exactly as in PPO", "come in PPO", "PPO と同様に")
_LIKENED = re.compile(
    r"\b(?:as in|as with|as does|as do|just like|like|same as|similar to|come in|come per|come fa|proprio come|come)"
    r"\s+(?:in\s+|the\s+|il\s+|lo\s+|la\s+|l')?[\w.-]+"
    r"|[A-Za-z][\w.-]*\s*(?:と同様|と同じ|のように|みたいに)",
    re.IGNORECASE,
)


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKC", text).lower()
    return _NAME.findall(_DR_GRPO.sub("drgrpo", folded))  # Dr. GRPO is its own method, not GRPO


def names_in(text: str, names: frozenset[str]) -> set[str]:
    """The system names written in `text` (in any language the names are written in Latin letters)."""
    return {w for w in _words(text) if w in names}


def clauses(text: str) -> list[str]:
    """A sentence cut where a new system may become its subject; a bracket is not cut ("Removed (DAPO,
    GSPO, Dr. GRPO): …" names its systems together)."""
    out, start, depth, seen = [], 0, 0, 0
    for m in _CLAUSE.finditer(text):
        for ch in text[seen:m.start()]:
            depth += (ch in _OPENING) - (ch in _CLOSING)
        seen = m.start()
        if depth <= 0:
            out.append(text[start:m.start()])
            start = m.end()
    out.append(text[start:])
    return [c for c in out if c.strip()]


_OWNED: dict[tuple[int, int], tuple[Question, Lexicon, dict[str, tuple[str, frozenset[str]]]]] = {}


def owners(question: Question, lexicon: Lexicon) -> dict[str, tuple[str, frozenset[str]]]:
    """`_owners`, read once per question and lexicon (a batch grades the same question many times)."""
    key = (id(question), id(lexicon))
    found = _OWNED.get(key)
    if found is None or found[0] is not question or found[1] is not lexicon:
        found = _OWNED[key] = (question, lexicon, _owners(question, lexicon))
    return found[2]


def _owners(question: Question, lexicon: Lexicon) -> dict[str, tuple[str, frozenset[str]]]:
    """Key point id -> (the system it is about, its rivals in this question).

    A key point is about the system its id names ("areal-discards-recomputes", "ppo-gae"): the rubric's
    author says so, where a statement may open on the contrast ("Unlike TRPO's hard constraint, PPO…").
    Its rivals are its counterparts that own key points of the question too: the question sets the two
    side by side. (GRPO clips the ratio as PPO does: where GRPO owns no point, a sentence about GRPO's
    clipping takes nothing from PPO's.)"""
    rubric = question.rubric
    if rubric is None or not lexicon.systems:
        return {}
    counterparts: dict[str, set[str]] = {}
    for group in lexicon.systems:
        for name in group:
            counterparts.setdefault(name, set()).update(n for n in group if n != name)
    owner: dict[str, str] = {}
    for kp in rubric.key_points:
        named = [w for w in _words(kp.id.replace("-", " ")) if w in counterparts]
        if len(named) == 1:
            owner[kp.id] = named[0]
    found: dict[str, tuple[str, frozenset[str]]] = {}
    for kp_id, system in owner.items():
        rivals = frozenset(counterparts[system] & set(owner.values()))
        if rivals:
            found[kp_id] = (system, rivals)
    return found


_CLAIMED: dict[tuple[str, int], tuple[Lexicon, tuple[str, frozenset[str]] | None]] = {}


def claim_owner(claim_id: str, lexicon: Lexicon) -> tuple[str, frozenset[str]] | None:
    """The one system a wrong claim's id names ("simko-sharpens"), and every other system of the lexicon,
    or None. "SimKO: RLVR concentrates probability on the top-1 token" says it of RLVR, not of SimKO."""
    key = (claim_id, id(lexicon))
    found = _CLAIMED.get(key)
    if found is None or found[0] is not lexicon:
        every = {name for group in lexicon.systems for name in group}
        named = [w for w in _words(claim_id.replace("-", " ")) if w in every]
        found = _CLAIMED[key] = (lexicon, (named[0], frozenset(every - {named[0]})) if len(named) == 1 else None)
    return found[1]


def without_system(cue: str, system: str) -> str:
    """The cue without its terms that name `system`: what the claim says of it ("simko + concentrates
    probability" -> "concentrates probability"); empty when every term names it."""
    named = frozenset({system})
    terms = [t for t in cue.split("+") if not any(names_in(alt, named) for alt in t.split("|"))]
    return "+".join(terms).strip()


class Topic(NamedTuple):
    """The system a sentence speaks about, and whether it is named in the one clause that states the point."""

    system: str
    named_here: bool


def topic(sentences: list[str], at: int, stating: Callable[[list[str]], int | None], owner: str,
          rivals: frozenset[str]) -> Topic | None:
    """The system sentence `at` speaks about when it states a point about `owner`, or None if undecided.

    `stating` picks, among the sentence's clauses, the one that states the point (None: no single one,
    and the whole sentence is read first). Then the clauses before it are read, nearest first, and, for a
    sentence that points back, the sentence before. The first that names a system decides; one that
    names both sides compares them.
    """
    names = rivals | {owner}
    parts = clauses(sentences[at])
    first = stating(parts)
    units = [(parts[i], i == first) for i in range(first, -1, -1)] if first is not None else [(sentences[at], False)]
    # only a sentence that points back ("It drops the cache…", "On every update it drops the cache…")
    # speaks of what the one before named
    back = at
    while back > max(0, at - LOOK_BACK) and (POINTS_BACK.match(sentences[back]) or (
            back == at and first is not None and _SUBJECT_PRONOUN.search(parts[first]))):
        back -= 1
        units += [(c, False) for c in reversed(clauses(sentences[back]))]
    return _first_named(units, names)


def paragraph_topic(sentences: list[str], at: int, paragraph: list[int], names: frozenset[str]) -> Topic | None:
    """The system the sentences before `at` in its paragraph speak about, nearest first, or None: "Per slime
    il limite vero è … In più si libera memoria …" goes on about slime. `paragraph` holds each sentence's
    paragraph number."""
    units = [(c, False) for i in range(at - 1, -1, -1) if paragraph[i] == paragraph[at]
             for c in reversed(clauses(sentences[i]))]
    return _first_named(units, names)


def _first_named(units: list[tuple[str, bool]], names: frozenset[str]) -> Topic | None:
    """The system named by the first unit that names one; None if none does, or the first names several."""
    for unit, here in units:
        if _CONTRAST.search(unit):
            continue  # "Unlike PipelineRL, it re-prefills": the system set against the subject is not the subject
        found = names_in(_LIKENED.sub(" ", unit), names)
        if len(found) == 1:
            return Topic(found.pop(), here)
        if found:
            return None
    return None
