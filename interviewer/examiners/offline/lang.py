"""Language analysers for the offline examiner, loaded on first use.

English and Italian words are reduced to Snowball stems (PyStemmer), so a cue
written as "scaled" also finds "scaling" and "scales". Japanese sentences are
split into morphemes by SudachiPy (sudachidict-core), which gives each word
its dictionary form and part of speech; the examiner reads predicate negation
(ない, ぬ/ん, ず) from those instead of from a list of character strings.

Nothing here is imported eagerly: the analysers cost ~0.25 s to load and only
grading needs them, never `interviewer list` or the TUI's first screen.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_STEMMER_LANG = {"en": "english", "it": "italian"}


@lru_cache(maxsize=4)
def _stemmer(lang: str) -> Any:
    import Stemmer  # type: ignore[import-not-found]  # PyStemmer (no stubs); lazy on purpose

    return Stemmer.Stemmer(_STEMMER_LANG.get(lang, "english"))


@lru_cache(maxsize=65536)
def stem(word: str, lang: str) -> str:
    """The Snowball stem of one folded word ("gradients" -> "gradient")."""
    if len(word) <= 3 or not word.isalpha():
        return word
    out: str = _stemmer(lang).stemWord(word)
    return out


@dataclass(frozen=True)
class Morpheme:
    """One Japanese word: where it sits in the folded sentence, its lemma and part of speech."""

    start: int
    end: int
    surface: str
    lemma: str
    pos: str
    pos2: str


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    from sudachipy import Dictionary, SplitMode  # type: ignore[import-untyped]  # lazy on purpose

    return Dictionary(dict="core").tokenizer(mode=SplitMode.C)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


@lru_cache(maxsize=8192)
def morphemes(folded: str) -> tuple[Morpheme, ...]:
    """Morphemes of a folded Japanese sentence (NFKC, lowercase, no spaces), with offsets into it."""
    if not folded:
        return ()
    out = []
    for m in _tokenizer().tokenize(folded):
        pos = m.part_of_speech()
        out.append(Morpheme(m.begin(), m.end(), m.surface(), _fold(m.dictionary_form()), pos[0], pos[1]))
    return tuple(out)


@lru_cache(maxsize=65536)
def lemma_string(folded: str) -> str:
    """A Japanese phrase with every word in dictionary form, joined: "減らせず" -> "減らせるず"."""
    return "".join(m.lemma for m in morphemes(folded))


__all__ = ["Morpheme", "lemma_string", "morphemes", "stem"]
