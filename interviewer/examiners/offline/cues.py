"""Compile rubric cues and find them in an answer.

The cue syntax is documented in `interviewer.bank.models`. Matching is done
against an index of the answer built once, so grading a whole rubric costs a
few bisects per cue instead of a scan of the text per cue.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from interviewer.examiners.offline.text import (
    CLAUSE_MARKS,
    Sentence,
    fold_ja,
    latin_tokens,
)

LATIN_NEGATORS = frozenset(
    ["not", "no", "never", "without", "neither", "nor", "non", "senza", "mai", "nessun", "nessuna", "nessuno", "niente", "nulla", "nothing", "none", "instead", "rather", "invece", "anziche"]
)
# "not only X but also Y" affirms X.
_NOT_NEGATING_NEXT = frozenset(["only", "just", "solo", "soltanto", "necessarily"])
# "instead of X", "rather than X", "invece di X" negate X; bare "instead"/"invece" do not.
_NEGATE_ONLY_BEFORE = {
    "instead": frozenset({"of"}),
    "rather": frozenset({"than"}),
    "invece": frozenset({"di", "del", "della", "dei", "degli", "delle", "dello", "dell"}),
}
LATIN_WINDOW = 4

JA_NEGATORS = ("ない", "ません", "せず", "ずに", "なし", "無し", "不要", "ではなく", "じゃなく", "無く", "なく", "なかった")
# Words that contain a negator's characters but do not negate.
JA_NOT_NEGATING = (
    "少ない", "少なく", "危ない", "しかない", "違いない", "間違いなく", "まもなく", "ほどなく", "なくす", "なくし",
    "ないように", "ないよう", "なければならない", "なければなりません", "なければいけない", "なくてはならない",
    "なくてはいけない", "ねばならない", "なければ", "ないといけない", "ないといけません", "なきゃ", "なくちゃ",
    "かもしれない", "かもしれません", "つない", "でないと", "じゃないと", "みなし", "しないと",
    "すぎない", "すぎません", "過ぎない", "過ぎません",
)
# A clause ending in ず ("使わず、") negates; these words end in ず but do not.
JA_ZU_BENIGN = ("必ず", "まず", "はず", "ずつ", "かかわらず", "とりあえず", "相変わらず")
JA_WINDOW = 14
JA_CLAUSE = "、。,，；;！？!?\n"


@dataclass(frozen=True)
class Alt:
    """One alternative: a phrase of words (Latin) or a substring (Japanese)."""

    words: tuple[str, ...]
    exact: tuple[bool, ...]
    raw: str


@dataclass(frozen=True)
class Cue:
    """A compiled cue: every term must match in one sentence."""

    source: str
    terms: tuple[tuple[Alt, ...], ...]


def _compile_alt(alt: str, japanese: bool) -> Alt:
    alt = alt.strip()
    if japanese:
        body = fold_ja(alt.rstrip("="))
        # "ce=" in a Japanese cue: an ASCII word that must not match inside "reference"
        return Alt((body,), (alt.endswith("=") and body.isascii(),), alt)
    forced = alt.endswith("=")
    words = tuple(w for w in latin_tokens(alt.rstrip("=")) if w not in CLAUSE_MARKS)
    exact = tuple(forced or len(w) <= 3 for w in words)
    return Alt(words, exact, alt)


@lru_cache(maxsize=8192)
def compile_cue(cue: str, japanese: bool) -> Cue:
    terms = []
    for term in cue.split("+"):
        alts = tuple(a for a in (_compile_alt(x, japanese) for x in term.split("|")) if a.words and a.words[0])
        if alts:
            terms.append(alts)
    return Cue(cue, tuple(terms))


@dataclass
class Match:
    """Where a cue matched: the sentence index and its exact text."""

    sentence: int
    quote: str


@dataclass
class AnswerIndex:
    """The answer split into sentences and indexed for fast cue lookup."""

    text: str
    japanese: bool
    sentences: list[Sentence]
    tokens: list[str] = field(default_factory=list)
    token_sentence: list[int] = field(default_factory=list)
    positions: dict[str, list[int]] = field(default_factory=dict)
    vocab: list[str] = field(default_factory=list)
    ja_text: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, sentences: list[Sentence], japanese: bool) -> AnswerIndex:
        idx = cls(" ".join(s.text for s in sentences), japanese, sentences)
        if japanese:
            idx.ja_text = [fold_ja(s.text) for s in sentences]
            return idx
        positions: dict[str, list[int]] = defaultdict(list)
        for si, s in enumerate(sentences):
            for tok in latin_tokens(s.text):
                positions[tok].append(len(idx.tokens))
                idx.tokens.append(tok)
                idx.token_sentence.append(si)
        idx.positions = dict(positions)
        idx.vocab = sorted(positions)
        return idx

    # -- Latin -----------------------------------------------------------------
    def _word_positions(self, word: str, exact: bool) -> list[int]:
        if exact:
            return self.positions.get(word, [])
        out: list[int] = []
        i = bisect.bisect_left(self.vocab, word)
        while i < len(self.vocab) and self.vocab[i].startswith(word):
            out.extend(self.positions[self.vocab[i]])
            i += 1
        return out

    def _alt_spans(self, alt: Alt) -> list[tuple[int, int]]:
        spans = []
        for start in self._word_positions(alt.words[0], alt.exact[0]):
            end = start + 1
            ok = True
            for w, ex in zip(alt.words[1:], alt.exact[1:], strict=True):
                if end >= len(self.tokens) or self.token_sentence[end] != self.token_sentence[start]:
                    ok = False
                    break
                tok = self.tokens[end]
                if not (tok == w if ex else tok.startswith(w)):
                    ok = False
                    break
                end += 1
            if ok:
                spans.append((start, end))
        return spans

    def _negated_latin(self, start: int, covered: set[int]) -> bool:
        sent = self.token_sentence[start]
        i, seen = start - 1, 0
        while i >= 0 and seen < LATIN_WINDOW and self.token_sentence[i] == sent:
            tok = self.tokens[i]
            if tok in CLAUSE_MARKS:
                return False
            if tok in LATIN_NEGATORS and i not in covered:
                nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else ""
                prev = self.tokens[i - 1] if i > 0 else ""
                if nxt in _NOT_NEGATING_NEXT or prev == "finche":  # "not only", "finché non" (until)
                    pass
                elif tok in _NEGATE_ONLY_BEFORE and nxt not in _NEGATE_ONLY_BEFORE[tok]:
                    pass  # "CISPO invece clippa…" is "on the other hand", not "instead of"
                else:
                    return True
            i -= 1
            seen += 1
        return False

    def _match_latin(self, cue: Cue) -> list[int]:
        per_term = [[sp for alt in term for sp in self._alt_spans(alt)] for term in cue.terms]
        if any(not spans for spans in per_term):
            return []
        covered = {p for spans in per_term for s, e in spans for p in range(s, e)}
        valid = [[sp for sp in spans if not self._negated_latin(sp[0], covered)] for spans in per_term]
        sentence_sets = [{self.token_sentence[s] for s, _ in spans} for spans in valid]
        hits = []
        for sent in sorted(set.intersection(*sentence_sets)):
            in_sentence = [[sp for sp in spans if self.token_sentence[sp[0]] == sent] for spans in valid]
            if _disjoint_choice(in_sentence):
                hits.append(sent)
        return hits

    # -- Japanese --------------------------------------------------------------
    def _negated_ja(self, text: str, end: int, covered: list[tuple[int, int]]) -> bool:
        window = text[end : end + JA_WINDOW]
        for i, ch in enumerate(window):
            # A clause mark ends the scope; so does a topic or subject particle (は, が) right
            # after the term ("XはYではなく…", "Xには…がない" negate Y, not X), but not the は of では.
            topic = ch in "はが" and i <= 2 and (i == 0 or window[i - 1] != "で")
            if ch in JA_CLAUSE or topic:
                window = window[:i]
                break
        zu = end + len(window) - 1
        if (
            window.endswith("ず")
            and not any(s <= zu < e for s, e in covered)
            and not any(text.startswith(b, zu - len(b) + 1) for b in JA_ZU_BENIGN if zu - len(b) + 1 >= 0)
        ):
            return True
        for neg in JA_NEGATORS:
            pos = window.find(neg)
            while pos >= 0:
                abs_pos = end + pos
                # A negator inside a term of the cue (使わない, 不要) is what the cue asserts.
                inside_cue = any(s <= abs_pos < e for s, e in covered)
                benign = any(
                    neg in b and abs_pos >= b.index(neg) and text.startswith(b, abs_pos - b.index(neg)) for b in JA_NOT_NEGATING
                )
                if not inside_cue and not benign:
                    return True
                pos = window.find(neg, pos + 1)
        return False

    def _match_ja(self, cue: Cue) -> list[int]:
        out = []
        for si, text in enumerate(self.ja_text):
            spans_per_term = []
            for term in cue.terms:
                spans = []
                for alt in term:
                    needle = alt.words[0]
                    p = text.find(needle)
                    while p >= 0:
                        if not alt.exact[0] or _ascii_word_at(text, p, p + len(needle)):
                            spans.append((p, p + len(needle)))
                        p = text.find(needle, p + 1)
                spans_per_term.append(spans)
            if any(not s for s in spans_per_term):
                continue
            covered = [sp for spans in spans_per_term for sp in spans]
            valid = [[sp for sp in spans if not self._negated_ja(text, sp[1], covered)] for spans in spans_per_term]
            if all(valid) and _disjoint_choice(valid):
                out.append(si)
        return out

    # -- Public ----------------------------------------------------------------
    def find(self, cue: Cue) -> list[Match]:
        """Sentences in which every term of the cue matches, un-negated."""
        if not cue.terms:
            return []
        hits = self._match_ja(cue) if self.japanese else self._match_latin(cue)
        return [Match(i, self.sentences[i].text) for i in hits]


def _ascii_word_at(text: str, start: int, end: int) -> bool:
    """No ASCII letter or digit touches the match on either side."""
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    return not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum())


def _disjoint_choice(spans_per_term: list[list[tuple[int, int]]]) -> bool:
    """Can each term take its own span, none overlapping? ("reward model" must not
    satisfy both a "reward model" term and a "reward" term.)"""

    def pick(i: int, taken: list[tuple[int, int]]) -> bool:
        if i == len(spans_per_term):
            return True
        for s, e in spans_per_term[i][:16]:
            if all(e <= ts or s >= te for ts, te in taken) and pick(i + 1, [*taken, (s, e)]):
                return True
        return False

    return pick(0, [])


__all__ = ["AnswerIndex", "Cue", "Match", "compile_cue"]
