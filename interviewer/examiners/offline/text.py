"""Text handling for the offline examiner: normalising, sentences, tokens.

Kept apart from matching so the rules for English, Italian and Japanese text
live in one place and can be property-tested on their own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Sentence ends: Western and Japanese punctuation, semicolons, line breaks.
_SENT_END = re.compile(r"(?<=[.!?;。！？；])\s+|(?<=[。！？；])|\n+")
# Decimals stay one token ("0.2"); "dr.grpo" splits into "dr" "grpo".
# Thousands ("16,384") and Greek letters (β, ε) are kept as tokens.
_WORD = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)+|[a-z0-9\u03b1-\u03c9]+(?:'[a-z0-9]+)*|[,:]")
CLAUSE_MARKS = frozenset({",", ":"})
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
_LIST_SEP = re.compile(r"[,、·•／]")
# Italian elided articles and prepositions: "dell'entropia" -> "dell entropia".
_ELISION = re.compile(r"\b(l|d|s|c|m|t|v|n|un|all|dall|dell|nell|sull|coll|quest|quell|tutt)'(?=[a-z0-9])")

# Words that make a sentence an explanation rather than a list of nouns.
FUNCTION_WORDS = frozenset(
    """
    a ai al alla also an anche are as at be because been being between both but by can che cioe come con
    cosa da degli dei del della delle di do does done dove e each essere every fa fanno for fra from get
    gets give gives gli ha had hanno has have he how i if il in into is it its just keep keeps la le
    less lo ma made make makes may meno mentre might more much must my nel nella no non not of ogni on
    one only our over per perche piu poiche possono puo quando quindi rende se serve she should si since
    so solo sono su than that the their them then therefore these they this those thus to too tra un una
    uno usa usando used uses using vengono very via viene was we were what when where whereas which
    while why will with would you your and or plus like it's that's there's what's here's they're we're
    sui sulle sul dal dalla dalle nei negli o oppure
    """.split()
)
JA_PARTICLES = ("は", "が", "を", "に", "で", "と", "の", "ので", "から", "ため", "ます", "です", "する", "れる", "なら")


def is_japanese(text: str) -> bool:
    """True when a meaningful share of the letters are kana or kanji."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    return sum(1 for c in letters if _CJK.match(c)) / len(letters) > 0.2


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Lowercase, NFKC, accents removed: 'Perché' -> 'perche'."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKC", text).lower()
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold_ja(text: str) -> str:
    """NFKC, lowercase, no spaces: kana keep their voicing marks, and "KL を外す" reads as "klを外す"."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).lower())


_CONTRACTIONS = (
    ("won't", "will not"),
    ("can't", "can not"),
    ("shan't", "shall not"),
    ("cannot", "can not"),
    ("n't", " not"),
)


def latin_tokens(text: str) -> list[str]:
    """Words (and commas and colons, kept as clause marks) of an English or Italian sentence."""
    return _WORD.findall(_reading(text)[0])


def latin_tokens_and_prefixes(text: str) -> tuple[list[str], set[int]]:
    """`latin_tokens`, and the positions of the words "non" written as a prefix ("non-zero", "non-assoc"),
    which negate their own word only, unlike Italian "non" (not)."""
    t, hyphened = _reading(text)
    tokens: list[str] = []
    prefixes: set[int] = set()
    for m in _WORD.finditer(t):
        if m.group() == "non" and hyphened.startswith("-", m.end()):
            prefixes.add(len(tokens))
        tokens.append(m.group())
    return tokens, prefixes


def _reading(text: str) -> tuple[str, str]:
    """The string words are read from, and the same string before hyphens became spaces: every step
    after that one keeps each character in place, so a word's end also indexes the second string."""
    t = fold(text).replace("’", "'")
    for a, b in _CONTRACTIONS:
        t = t.replace(a, b)
    t = _ARROW.sub(" : ", t)  # "bs varies -> tiling changes": an arrow or a semicolon ends a clause
    # a parenthetical remark is a unit of its own ("INT8 train: no (grad range too wide)"): the negation before it
    # does not reach into it, nor one inside it out; a formula's brackets ("KL(p||q)") are left alone
    t = _ASIDE.sub(r"\1 : \2 : ", t)
    hyphened = t
    t = t.replace("-", " ").replace("_", " ")
    t = re.sub(r"(?<![\d,])(\d+),(\d{1,2})(?![\d,])", r"\1.\2", t)  # Italian decimals: "2,77" -> "2.77"
    # Italian elisions: "l'importanza" -> "l importanza"
    t = _ELISION.sub(r"\1 ", t)
    return t, hyphened


_ARROW = re.compile(r"->|=>|[→⇒;]")
_ASIDE = re.compile(r"(^|\s)\(([^()]*)\)")


@dataclass(frozen=True)
class Sentence:
    """One sentence of the answer: its exact text (for quotes) and where it starts."""

    text: str
    start: int


_ABBREVIATION = re.compile(r"(?:(?<![A-Za-z])(?:e\.g|i\.e|vs|etc|cf|approx|resp|ca|fig|eq|sec|ch|al|dr|mr|ms|prof|no)\.|\b[A-Z]\.)$", re.IGNORECASE)


def split_sentences(text: str) -> list[Sentence]:
    """Split an answer into sentences, keeping each one's exact original text."""
    out: list[Sentence] = []
    pos = 0
    for m in _SENT_END.finditer(text):
        if "\n" not in m.group(0) and _ABBREVIATION.search(text[pos : m.start()]):
            continue  # "e.g. PPO" does not end a sentence
        _append(out, text, pos, m.start())
        pos = m.end()
    _append(out, text, pos, len(text))
    return out


_CLAUSE_END = re.compile(r"(?:[,;:()\u2013\u2014、；：（）]|\s\|(?=\s))\s*")  # " | " separates columns; p(y|x) stays


def split_clauses(sentence: str) -> list[Sentence]:
    """A sentence cut at commas, colons, semicolons, dashes and brackets (、 in Japanese): the
    finer unit in which a relation must hold when it is read as the opposite claim."""
    out: list[Sentence] = []
    pos = 0
    for m in _CLAUSE_END.finditer(sentence):
        _append(out, sentence, pos, m.start())
        pos = m.end()
    _append(out, sentence, pos, len(sentence))
    return out


def _append(out: list[Sentence], text: str, start: int, end: int) -> None:
    chunk = text[start:end]
    stripped = chunk.strip()
    if not stripped:
        return
    lead = len(chunk) - len(chunk.lstrip())
    out.append(Sentence(stripped, start + lead))


LIST_QUALITY = 0.25  # what a fragment or a bare list of terms is worth as evidence
_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")  # a bullet or a list number


def _without_marker(sentence: str) -> str:
    return _MARKER.sub("", sentence)


def explanation_quality(sentence: str, japanese: bool) -> float:
    """1.0 for a sentence that explains; lower for fragments and bare lists of terms.

    Buzzword lists use the right nouns without relating them: few words per
    comma-separated item and no function words.
    """
    body = _without_marker(sentence)
    segments = [s for s in _LIST_SEP.split(body) if s.strip()]
    if len(_HYPE.findall(fold(body))) + len(_HYPE_JA.findall(unicodedata.normalize("NFKC", body))) >= 2:  # "unlock next-generation, scalable efficiency": a pitch, not an explanation
        return LIST_QUALITY
    # Expert shorthand relates its terms with symbols ("H(p) const wrt θ ⇒ argmin CE = argmin KL"),
    # or lists what a named method does after its name ("DAPO: clip-higher, dynamic sampling, no KL").
    relations = len(_RELATION.findall(body))
    labelled = LABELLED_LIST_QUALITY if _LABELLED.match(body) else LIST_QUALITY
    if japanese:
        chars = len(re.sub(r"\s", "", body))
        if chars < 10:
            return LIST_QUALITY
        if len(segments) >= 4 and _few(relations, segments) and sorted(len(s.strip()) for s in segments)[len(segments) // 2] <= 8:
            return labelled
        if not relations and not any(p in body for p in JA_PARTICLES):
            return labelled
        return 1.0
    words = [w for w in latin_tokens(body) if w not in CLAUSE_MARKS]
    if len(words) < 4:
        return LIST_QUALITY
    if len(segments) >= 4 and _few(relations, segments) and sorted(len(s.split()) for s in segments)[len(segments) // 2] <= 2:
        return labelled
    # A list of nouns with a stray "The" or "one" in it is still a list: an explanation
    # relates its terms, so function words make up a real share of it.
    linking = sum(1 for w in words if w in FUNCTION_WORDS) + relations
    if linking == 0 or (len(words) >= 6 and linking / len(words) < MIN_LINKING_SHARE):
        return labelled
    return 1.0


MIN_LINKING_SHARE = 0.12
# A list holds a stray relation ("β=0.04" among a dozen terms) and still relates nothing: fewer than one
# relation symbol per STRAY_RELATIONS items.
STRAY_RELATIONS = 8
MANY_ITEMS = 5  # items a term chain strings together at least
BARE_SHARE = 0.8  # share of its items that are bare terms
BARE_LINKING = 0.3  # an item whose words are this share function words or more says something
# terms strung together by commas, slashes, bullets or hashes (not arrows: "signal -> interrupt reqs -> drop
# KV -> re-prefill" is how experts write a pipeline down)
_ITEM_SEP = re.compile(r"[,、·•／#・;；]|\s/\s")
_JA_BINDING = tuple(p for p in JA_PARTICLES if p != "の")  # "AのB" is still one noun phrase


def term_chain(sentence: str, japanese: bool) -> bool:
    """Is the sentence a string of many bare terms ("KLペナルティ／参照モデル／…", a dozen terms after a
    label)? It names things without relating them. (A strong answer may enumerate metric names in one
    such sentence; the examiner reads it as a list only when the answer is mostly such sentences.)"""
    body = _without_marker(sentence)
    items = [i.strip() for i in _ITEM_SEP.split(body) if i.strip()]
    if len(items) < MANY_ITEMS or not _few(len(_RELATION.findall(body)), items):
        return False

    def bare(item: str) -> bool:
        if japanese and is_japanese(item):
            return not any(p in item for p in _JA_BINDING)
        words = [w for w in latin_tokens(item) if w not in CLAUSE_MARKS]
        return len(words) <= 3 or sum(w in FUNCTION_WORDS for w in words) < BARE_LINKING * len(words)

    return sum(bare(i) for i in items) >= BARE_SHARE * len(items)


def _few(relations: int, segments: list[str]) -> bool:
    """Are the relation symbols too few to relate these segments (see STRAY_RELATIONS)?"""
    return relations * STRAY_RELATIONS < len(segments)


# A list after a method's name ("DAPO: clip-higher, dynamic sampling, no KL", "VeRL: Ray、FSDP/Megatron") is
# expert shorthand, but "PPO: GAE, critic, clip" is also how a buzzword list would dress up: more than a
# bare list, less than prose.
LABELLED_LIST_QUALITY = 0.6
_RELATION = re.compile(r"[⇒→←↔=≈≤≥<>↑↓∝]|=>|->|\bwrt\b")
# "DAPO:", "V3.2:", "Dr.GRPO:", "FP8 training:", "VeRL：": a head naming a method (an acronym or a
# mixed-case name), then what it does
_LABELLED = re.compile(r"^\s*(?:\S+\s+){0,2}?(?:[A-Z][A-Za-z0-9.\-/+]*[A-Z0-9][A-Za-z0-9.\-/+]*|[A-Za-z]+\.[A-Z]+)(?:\s+\S+)?\s*[:：]\s*\S")
# Sales words: two in one sentence make it a pitch. Technical words that merely sound grand ("scaling law",
# "state of the art") are not here.
_HYPE = re.compile(
    r"\b(?:unlock\w*|next[- ]gen(?:eration)?|game[- ]chang\w*|synerg\w*|holistic\w*|paradigm\w*|cutting[- ]edge"
    r"|cloud[- ]native|leverag\w*|seamless\w*|world[- ]class|revolutionar\w*|empower\w*|best[- ]in[- ]class"
    r"|frontier|hyper[- ]?scal\w*|olistic\w*|sinergi\w*|rivoluzionar\w*|all'avanguardia|di nuova generazione"
    r"|paradigma|scalabilita end to end)\b"
)
_HYPE_JA = re.compile(r"次世代|シナジー|ゲームチェンジ|パラダイム|最先端|革新的|シームレス|ホリスティック|エンドツーエンドで|スケーラブル")
_NUMBER = re.compile(r"\d")
_FORMULA = re.compile(r"[=^/√∇∑∏≤≥≈±×·]|\b(?:log|exp|sqrt|argmax|argmin|min|max|softmax)\b|[α-ωΑ-Ω]")
_NAMED = re.compile(r"\b(?:[A-Z][A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*|[a-z]+_[a-z_]+)\b")


def specificity(text: str) -> float:
    """0..1: how much the answer commits to specifics (numbers, formulas, named methods and APIs)."""
    hits = len(_NUMBER.findall(text)) + len(_FORMULA.findall(text)) + len(set(_NAMED.findall(text)))
    return min(1.0, hits / 8.0)


_COMPARED_LATIN = (r"\b(than|next to|relative to|compared (to|with)|vs\.?|versus|unlike|against|rispetto (a|al|allo|alla"
                   r"|ai|agli|alle|all'?)|a differenza d\w*|invece d\w*|contro)\s+(\S+\s+){0,2}?")
_COMPARED_JA = r"(と比べ|に比べ|と比較|より|と違|と異な|に対し)"


def compares_with(clause: str, words: tuple[str, ...], japanese: bool) -> bool:
    """Whether a clause names one of `words` only as what something is compared with ("cheap next to
    decode", "economico rispetto al decode", "デコードに比べて安い")."""
    if not words:
        return False
    alternatives = "|".join(re.escape(w) for w in words)
    if japanese:
        # up to a short verb between ("decode し直すより安い"), but not a topic or subject particle
        return re.search(rf"({alternatives})(?:(?![はが])\w){{0,4}}?{_COMPARED_JA}", fold_ja(clause)) is not None
    return re.search(rf"{_COMPARED_LATIN}({alternatives})", fold(clause)) is not None
