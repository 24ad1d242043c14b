"""Compile rubric cues and find them in an answer, with the polarity of each finding.

The cue syntax is documented in `interviewer.bank.models` and docs/RUBRIC_GUIDE.md.
English and Italian words match by prefix *or* by Snowball stem prefix
("scaled" finds "scaling"); Japanese alternatives match the folded surface text
*or* the dictionary forms from SudachiPy ("減らす" finds "減らせば", "減らし").

Each cue is read with its polarity: a sentence *affirms* a cue when every term
matches un-negated, and *denies* it when every term matches but one is negated
("the gradients are never scaled by N", "勾配はスケールされません"). A denial
earns nothing, and the examiner reports it as a contradiction of the key point.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from interviewer.bank.lexicon import Lexicon, builtin_lexicon
from interviewer.examiners.offline.lang import Morpheme, lemma_string, morphemes, stem
from interviewer.examiners.offline.text import (
    CLAUSE_MARKS,
    Sentence,
    fold_ja,
    latin_tokens,
    latin_tokens_and_prefixes,
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
# Italian negative concord: "non insegna nulla", "non c'è nessun segnale" say "nothing", "no signal"; the
# "non" agrees with the negative word, it does not negate it. (After a copula "nulla" is the adjective
# "zero": "la varianza non è nulla" does deny.)
_CONCORD = frozenset(["nulla", "niente", "nessun", "nessuna", "nessuno"])
_COPULA = frozenset(["e", "sono", "era", "sia", "essere", "diventa", "resta", "rimane", "risulta"])
# "instead of X", "rather than X": a cue term that lists such a form itself ("log p + rather than the pass
# rate|expected reward") states its claim as a contrast, so that negation is the claim, not its denial.
_CONTRASTING = frozenset(["instead", "rather", "invece", "anziche"])
# A negation does not reach past these: "not X but Y" affirms Y.
_SCOPE_STOP = frozenset(["but", "ma", "pero", "however", "whereas", "mentre", "while", "although", "though", "yet", "because", "perche", "poiche", "which", "and",
                         "except", "tranne", "eccetto", "salvo"])  # "changes nothing except wasted communication"
_AND_IT = frozenset(["e", "ed"])  # Italian "and" (folded, so also "è"; see _negator_latin)
# "vs SFT", "unlike PPO", "compared with RL", "rispetto all'SFT": what follows is the other side of a comparison.
_COMPARED = frozenset(["vs", "versus", "unlike", "compared", "contrary", "rispetto", "differenza", "diversamente"])
# "più bassa di", "meno rumorosa di", "maggiore di": Italian comparatives, whose "di" is English "than"
_MORE_LESS = frozenset(["piu", "meno", "maggiore", "minore", "inferiore", "superiore", "migliore", "peggiore"])
# A negation after these in its clause is a condition, not a claim ("if you average per rank instead of …").
_CONDITION = frozenset(["if", "unless", "whether", "se", "qualora", "purche"])
# "switch to kernels whose results do not depend on the batch", "kernel i cui risultati non dipendono dal batch":
# a negation in a relative clause describes the thing it names (a remedy, a design), it does not deny a claim
# ("per cui" is "so that": not a relative clause)
_RELATIVE_CUI_AFTER = frozenset(["il", "la", "lo", "i", "gli", "le"])
# A sentence that opens with an imperative ("Put generation and training on different machines, so neither
# side waits", "Separa generazione e training, così nessuno aspetta") prescribes a remedy: a negation in the
# clause that says what it brings ("so", "così", "affinché") describes the remedy's effect, not a claim.
_IMPERATIVE = frozenset([
    "put", "let", "use", "run", "separate", "split", "decouple", "overlap", "move", "make", "keep", "add", "cap",
    "give", "spread", "refill", "schedule", "send", "stream", "launch", "switch", "route", "pack", "interrupt",
    "pause", "resume", "reuse", "colocate", "disaggregate", "allow", "enable", "set", "apply", "replace", "bound",
    "limit", "metti", "usa", "separa", "dividi", "sovrapponi", "sposta", "fai", "tieni", "aggiungi", "limita",
    "lascia", "manda", "interrompi", "riusa", "riempi", "distribuisci",
])
# A denied removal or loss keeps what follows it ("without dropping any token", "senza perdere il segnale"),
# unless the cue itself holds the verb: word starts, en and it. A denied halt is not one of them: "weights can
# be swapped without pausing" denies that a swap must pause.
_PRIVATIVE_LATIN = ("lose", "lost", "losing", "drop", "discard", "throw", "remov", "ignor", "vanish", "disappear", "perd",
                    "pers", "scart", "butt", "elimin", "spar", "svan")
# Italian words ending like a gerund that are not one
_NOT_GERUND = frozenset(["quando", "secondo", "tremendo", "stupendo", "orrendo", "comando", "prendo", "rendo", "vendo", "mando"])
_SO_THAT = frozenset(["so", "cosi", "affinche", "cosicche"])
# A sentence that opens "Fix:", "Fix =", "Rimedio:" prescribes what to do: its negations are instructions.
_PRESCRIPTION = frozenset(["fix", "fixes", "remedy", "remedies", "solution", "mitigation", "mitigations", "workaround",
                           "rimedio", "rimedi", "soluzione", "soluzioni", "mitigazione", "mitigazioni"])
# Where a sentence turns: a negation before it does not deny a relation completed after it.
_CONTRAST = frozenset(["but", "however", "whereas", "yet", "ma", "pero", "mentre", "tuttavia", "bensi"])
# After a comma these join a new clause, which a negation before them does not reach (see _across_contrast).
_COORDINATING = frozenset(["and", "e", "ed"])
# Articles and possessives a phrase may contain or omit: "reduc varian" matches "reduces the variance".
PHRASE_OPTIONAL = frozenset(["the", "a", "an", "its", "their", "his", "her", "our", "il", "lo", "la", "i", "gli", "le", "un", "una", "uno", "l", "suo", "sua", "loro"])
DENIAL_REACH = 20  # tokens: a denial's terms lie this close to the negated one
JA_DENIAL_REACH = 40  # characters, for the English words of a Japanese answer
LATIN_WINDOW = 4  # content words: "has nothing to do with the X" still reaches X
# Words that do not use up the window: "never need loss scaling or per-tensor scales" denies both.
# Italian existential negation counts like English "there is no": "non c'è alcun miglioramento rispetto all'SFT"
# reaches SFT as "no improvement over SFT" does ("c'è"/"ci sono" and "alcun" are its "there is" and "any";
# the folded "e" of "c'è" is skipped in _negator_latin: elsewhere it may be "and", which joins another claim)
_FILLER = frozenset(["the", "a", "an", "to", "do", "with", "of", "by", "any", "be", "been", "is", "are", "was", "were", "or", "nor", "need", "needs", "il", "la", "lo", "gli", "le", "un", "una", "di", "da", "essere", "o", "ne", "serve", "bisogno",
                     "c", "ci", "sono", "alcun", "alcuna", "alcuno", "alcuni", "alcune",
                     # Italian articulated prepositions are "to the", "of the", "on the"
                     "al", "all", "alla", "allo", "ai", "agli", "alle", "del", "dell", "della", "dello", "dei", "degli", "delle",
                     "dal", "dall", "dalla", "nel", "nell", "nella", "sul", "sull", "sulla"])

# Japanese predicate negation, read from SudachiPy morphemes after the term.
_JA_NEG_AUX = frozenset({"ない", "ぬ", "ず", "ん"})  # 助動詞: 使わない, ありません (ん = ぬ), せず
_JA_NEG_ADJ = frozenset({"ない", "無い"})  # 形容詞: ではない, 無く
_JA_NEG_WORDS = frozenset({"不要", "無し", "なし", "不可能", "不可", "無関係", "関係ない"})
# A ない that does not deny the predicate before it: しかない (only), かもしれない (maybe),
# 違いない (surely), すぎない (merely).
_JA_NEG_BENIGN_BEFORE = frozenset({"しか", "しれる", "知れる", "違い", "過ぎる", "すぎる"})
# なければ(ならない), ないと(いけない), ないように: obligation or purpose, not denial.
_JA_NEG_BENIGN_AFTER = frozenset({"ば", "と", "よう", "ように"})
_JA_OBLIGATION = frozenset({"なる", "いける", "行ける", "だめ", "駄目"})
_JA_CLAUSE_PARTICLES = frozenset({"けど", "けれど", "けれども", "のに", "ので", "から", "し", "が", "て", "で", "と", "ば", "たら"})
# "Xだけでは足りない": X is not enough alone, which does not deny X
_JA_INSUFFICIENT = frozenset({"足りる", "足る"})
# "学習から外されず", "勾配を失わない": a denied removal keeps the term (not discarded = still counted), unless
# the removal is itself part of the cue. A denied loss keeps it too: "token の signal が消えない" (the signal does
# not vanish). So does a denied agreement, which states a difference: "計算し直した確率が一致せず" (the
# recomputed probabilities do not match). Of the halts only the intransitive ones: "止まらずに流し続け" (keeps
# flowing), while "生成を止めずに重みを入れ替えられる" (swapped without pausing generation) denies that a swap
# must pause.
_JA_PRIVATIVE = frozenset({"捨てる", "切り捨てる", "外す", "除く", "取り除く", "除外", "失う", "落とす", "無視", "破棄", "削除", "消す",
                           "消える", "無くなる", "なくなる", "消失", "消滅", "欠落", "脱落", "一致", "合う", "揃う", "止まる", "途切れる"})
JA_WINDOW = 8  # morphemes after the term
# Past the window, only a negated copula that ends the sentence denies the clause before it: "…近くに保つための
# ものではありません" (it is not for keeping … close). A negated verb that far away states a claim of its own
# ("atomic add で問題を解決することもできません"). Chosen on the Japanese answers of the graded sets (1,953): the
# negated ones scored 1.33 -> 1.20 before examples, no correct answer lost a point; letting any final negation
# count took them to 0.85 but contradicted two correct answers.
JA_FINAL_REACH = 16
# "…ていない", "…ておらず": て/で before these auxiliaries is aspect ("has not", "is not …ing"), not a clause
# boundary, so the negation after it still belongs to the term before it.
_JA_TE_AUX = frozenset({"いる", "おる", "ある", "しまう", "いく", "くる", "おく"})
# Italian "non … più" is "no longer" when più ends the clause or comes before one of these
_CEASE_PIU_BEFORE = frozenset(
    "il lo la i gli le l un una uno a al alla ai agli alle da in nel nella con per su quando se perche dopo ora adesso".split()
)
_JA_COMPLEMENT_BEFORE_WA = frozenset({"で", "に", "と", "こと"})  # "ではない", "にはならない", "とは言えない", "ことはできない"
_SIMPLE_ALT = re.compile(r"^[a-z]+(?: [a-z]+)*$")
# A sentence that opens by pointing back at the one before ("That lowers the variance", "Questo riduce la
# varianza", "これにより分散が下がる"): its subject is said there, so a relation may be read across the pair.
POINTS_BACK = re.compile(
    r"^(?:(?:and|so|thus|hence|e|quindi|così)\s+)?(?:this|that|these|those|it|they|questo|questa|questi|queste|ciò|cio|esso|essa)\b"
    r"|^(?:これ|それ)(?:により|によって|で|は|が|を)|^(?:こうして|そのため|このため|これら)",
    re.IGNORECASE,
)
_ASKS = re.compile(r"[?？]\s*$|何|どんな|どのよう|なぜ|どうして")
_ASCII_WORD = re.compile(r"[a-z0-9\u03b1-\u03c9]+(?:\.[0-9]+)*")


@dataclass(frozen=True)
class Alt:
    """One alternative: a phrase of words (Latin) or a string (Japanese).

    `stems` holds the Snowball stem of each Latin word (empty in Japanese, whose
    dictionary forms are looked up lazily).
    """

    words: tuple[str, ...]
    exact: tuple[bool, ...]
    raw: str
    stems: tuple[str, ...] = ()
    lang: str = "en"
    # the first three letters of each word: an answer with no word starting so cannot hold the phrase
    heads: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", tuple(w[:3] for w in self.words))


@dataclass(frozen=True)
class Cue:
    """A compiled cue: every term must match in one sentence."""

    source: str
    terms: tuple[tuple[Alt, ...], ...]
    # The same cue with two or three of its terms read together from one lexicon phrase: "less noisy"
    # satisfies both terms of "varian + reduc" because the lexicon says it means "reduce variance".
    joint: tuple[Cue, ...] = ()
    # per term, where its alternatives sit by how they start (Latin: first three letters of the first
    # word; Japanese: first character), so an answer is only tried against alternatives it could hold
    starts: tuple[dict[str, tuple[int, ...]], ...] = field(init=False, compare=False, repr=False)
    # per term: does the term list a contrast form of itself ("rather than the pass rate")? see _CONTRASTING
    contrasting: tuple[bool, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "contrasting", tuple(any(alt.words[0] in _CONTRASTING for alt in term) for term in self.terms))
        starts = []
        for term in self.terms:
            where: dict[str, list[int]] = defaultdict(list)
            for i, alt in enumerate(term):
                where[alt.heads[0] if alt.lang != "ja" else alt.words[0][:1]].append(i)
            starts.append({k: tuple(v) for k, v in where.items()})
        object.__setattr__(self, "starts", tuple(starts))


@lru_cache(maxsize=131072)
def _compile_alt(alt: str, lang: str, stemmed: bool = True) -> Alt:
    alt = alt.strip()
    if lang == "ja":
        body = fold_ja(alt.rstrip("="))
        # "ce=" in a Japanese cue: an ASCII word that must not match inside "reference"
        # (the dictionary form is looked up only when a sentence could contain it: see _ja_spans)
        return Alt((body,), (alt.endswith("=") and body.isascii(),), alt, (), lang)
    forced = alt.endswith("=")
    plain = alt.rstrip("=")
    if _SIMPLE_ALT.match(plain):  # most alternatives: lowercase ASCII words, nothing to fold
        words = tuple(plain.split())
    else:
        words = tuple(w for w in latin_tokens(plain) if w not in CLAUSE_MARKS)
    if len(words) > 1:  # articles inside a phrase are optional: "reduc the varian" is "reduc varian"
        words = (words[0], *(w for w in words[1:] if w not in PHRASE_OPTIONAL)) if words[0] not in PHRASE_OPTIONAL else words
    exact = tuple(forced or len(w) <= 3 for w in words)
    # "=" pins the written form: no stem matching ("migliore=" must not find "migliora")
    stems = tuple("" if (forced or not stemmed) else stem(w, lang) for w in words)
    return Alt(words, exact, alt, stems, lang)


@lru_cache(maxsize=65536)
def compile_cue(cue: str, lang: str | bool, stemmed: bool = True, expand: bool | None = None) -> Cue:
    """Compile a cue for `lang` ("en", "it", "ja"; True/False mean ja/en, as before).

    stemmed=False keeps the written forms only (prefix matching, no Snowball stems): misconception
    cues use it, because a false wrong-claim costs a correct answer points.
    expand (default: as stemmed) adds, to every alternative that names a concept of the lexicon,
    the phrases answers use for that concept ("value network" for "critic"); ``@critic`` names the
    concept itself.
    """
    if isinstance(lang, bool):
        lang = "ja" if lang else "en"
    expand = stemmed if expand is None else expand
    written = [[x.strip() for x in term.split("|")] for term in cue.split("+")]
    terms = [_compile_term(term, lang, stemmed, expand) for term in written]
    joint: list[Cue] = []
    if expand and len(written) >= 2:
        for taken, says in _joint_readings(tuple(tuple(t) for t in written), lang, stemmed):
            rest = [t for i, t in enumerate(terms) if i not in taken and t]
            together = tuple(dict.fromkeys(_compile_alt(x, lang, stemmed) for x in says))
            joint.append(Cue(cue, (*rest, together)))
    return Cue(cue, tuple(t for t in terms if t), tuple(joint))


def _compile_term(alternatives: list[str], lang: str, stemmed: bool, expand: bool) -> tuple[Alt, ...]:
    texts: list[str] = []
    for x in alternatives:
        if x.startswith("@"):
            texts.extend(concept_phrases(x[1:], lang))
            continue
        texts.append(x)
        if expand:
            texts.extend(lexicon_says(x, lang, stemmed))
    return tuple(dict.fromkeys(a for a in (_compile_alt(x, lang, stemmed) for x in texts) if a.words and a.words[0]))


# -- The concept lexicon (interviewer.bank.lexicon) -----------------------------
_lexicon: Lexicon | None = None


def use_lexicon(lexicon: Lexicon | None) -> None:
    """Grade with this lexicon (None: the shipped one); compiled cues are rebuilt."""
    global _lexicon
    _lexicon = lexicon
    compile_cue.cache_clear()
    _lexicon_terms.cache_clear()
    lexicon_says.cache_clear()
    _keys_starting.cache_clear()
    _phrase_terms.cache_clear()
    _joint_readings.cache_clear()
    turned_cues.cache_clear()
    _opposite_words.cache_clear()


def active_lexicon() -> Lexicon:
    """The lexicon the matcher reads: the one `use_lexicon` set, else the built-in one."""
    return _lexicon if _lexicon is not None else builtin_lexicon()


def concept_phrases(concept_id: str, lang: str) -> list[str]:
    """``@id`` in a cue: the concept's terms and `says` in `lang` (nothing when it has no such form)."""
    concept = active_lexicon().get(concept_id)
    form = concept.form(lang) if concept else None
    return [*form.term, *form.says] if form else []


@lru_cache(maxsize=8)
def _lexicon_terms(lang: str, stemmed: bool) -> dict[str, tuple[tuple[Alt, tuple[str, ...]], ...]]:
    """Lexicon terms with their `says`, indexed by how the term starts (see _word_key): an alternative
    can only name a term that starts like it."""
    index: dict[str, list[tuple[Alt, tuple[str, ...]]]] = defaultdict(list)
    for concept in active_lexicon().concepts:
        form = concept.form(lang)
        if form and form.says:
            for t in form.term:
                term = _compile_alt(t, lang, stemmed)
                if term.words and term.words[0]:  # Japanese terms are one string; Latin ones match word for word
                    index[f"{len(term.words)}:{_word_key(term.words[0], lang)}"].append((term, tuple(form.says)))
    return {k: tuple(v) for k, v in index.items()}


@lru_cache(maxsize=4096)
def _keys_starting(lang: str, stemmed: bool, prefix: str) -> tuple[str, ...]:
    """Index keys for an alternative of one or two letters ("kl" names "kl penalty"'s key "2:kl")."""
    return tuple(k for k in _lexicon_terms(lang, stemmed) if k.startswith(prefix))


@lru_cache(maxsize=131072)
def lexicon_says(alt: str, lang: str, stemmed: bool = True) -> tuple[str, ...]:
    """What answers say for the concepts this alternative names: every `says` phrase of a concept
    whose term the alternative matches ("reduc varian" names "reduce variance")."""
    if alt.endswith("=") or not alt:
        return ()
    mine = _compile_alt(alt, lang, stemmed)
    if not mine.words or not mine.words[0]:
        return ()
    found: list[str] = []
    index = _lexicon_terms(lang, stemmed)
    head = mine.words[0]
    # a term the alternative names starts with it (or shares its stem, hence its first three letters)
    n = f"{len(mine.words)}:"
    keys = [n + _word_key(head, lang)] if len(head) >= 3 or lang == "ja" else _keys_starting(lang, stemmed, n + head)
    for key in keys:
        for term, says in index.get(key, ()):
            if _names(mine, term):
                found.extend(says)
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=16384)
def turned_cues(cue: str, lang: str) -> tuple[Turned, ...]:
    """The cue with one term turned to the opposite direction, per term that holds a direction word of
    the lexicon's `opposites` ("min + pessimistic" gives "min + optimistic"). Only a term that is about
    a direction is turned: one that takes both ("rises|falls"), or whose alternatives are mostly
    something else ("monitor|track|rises"), has no opposite; nor is a cue that names the other side in
    another term ("hybrid + e4m3 + e5m2"). A term naming one of the lexicon's `rivals` is turned too,
    and comes with what it named and what it now names, so that a clause naming both sides, or the
    new one only as the object of a comparison ("one extra prefill, cheap next to decode"), is not
    read as a swap."""
    opposite, keys, rivals, changes = _opposite_words(lang)
    if not opposite:
        return ()
    terms = [[x.strip() for x in term.split("|")] for term in cue.split("+")]
    out: list[Turned] = []
    for i, term in enumerate(terms):
        # a change is turned only where the cue is a quantity and its change ("entropy + collapse|drop"):
        # beside an agent ("baseline + reduce + variance") it may be qualified ("a poorly chosen baseline
        # increases the variance" is true)
        found = [(alt, (k, n) if k not in changes or len(terms) == 2 else ("", -1))
                 for alt in term for k, n in [_direction_word(alt, lang, keys)]]
        held = {k for _, (k, _) in found if k}
        if not held or any(opposite[k] & held for k in held) or 3 * sum(1 for _, (k, _) in found if k) < len(term):
            continue  # no direction, both directions, or a term mostly about something else ("monitor|rise")
        others = [alt for j, other in enumerate(terms) if j != i for alt in other]
        if any(holds_word(alt, o, lang) for k in held for o in opposite[k] for alt in others):
            continue
        turned = [t for alt, (k, n) in found if k for o in sorted(opposite[k]) for t in [_turn(alt, lang, k, n, o)]
                  if not any(t.startswith(x) or x.startswith(t) for x in term)]
        if turned:
            swapped = sorted({k for k in held if k in rivals})
            out.append(Turned(
                " + ".join("|".join(dict.fromkeys(turned)) if j == i else "|".join(t) for j, t in enumerate(terms)),
                "|".join(alt for alt, (k, _) in found if k in rivals),
                tuple(sorted({o for k in swapped for o in opposite[k]})),
            ))
    return tuple(out)


class Turned(NamedTuple):
    """A cue turned to the opposite direction or to a rival."""

    cue: str
    named: str  # the turned term's alternatives that named a rival, as a cue term ("" for a direction)
    rivals: tuple[str, ...]  # the rival words the turned cue names instead


def holds_word(alt: str, word: str, lang: str) -> bool:
    """Whether a cue alternative holds a direction word (a Latin word by prefix, Japanese inside)."""
    if lang == "ja":
        return word in alt
    return re.search(rf"(?:^|\s){re.escape(word)}", alt) is not None


@lru_cache(maxsize=4)
def _opposite_words(lang: str) -> tuple[dict[str, set[str]], list[str], frozenset[str], frozenset[str]]:
    """The lexicon's direction words, changes and rivals for `lang`, each with its opposites, the words
    longest first, which of them are rivals and which are changes."""
    opposite: dict[str, set[str]] = defaultdict(set)
    lexicon = active_lexicon()
    rivals, changes = lexicon.rivals.pairs(lang), lexicon.changes.pairs(lang)
    for a, b in [*lexicon.opposites.pairs(lang), *changes, *rivals]:
        opposite[a].add(b)
        opposite[b].add(a)
    return (dict(opposite), sorted(opposite, key=len, reverse=True), frozenset(w for pair in rivals for w in pair),
            frozenset(w for pair in changes for w in pair))


def _direction_word(alt: str, lang: str, keys: list[str]) -> tuple[str, int]:
    """The first direction word of an alternative and where it is (character offset in Japanese, word
    index in Latin scripts, where a word matches a stem by prefix); ("", -1) when there is none."""
    if lang == "ja":
        for k in keys:
            if k in alt:
                return k, alt.index(k)
        return "", -1
    words = alt.split(" ")
    spans = _split_keys(tuple(keys))
    for n, word in enumerate(words):
        for k, span in spans:
            # the cheap test first: most (word, key) pairs differ in their first word
            if (word.startswith(span[0]) and n + len(span) <= len(words) and words[n:n + len(span) - 1] == span[:-1]
                    and words[n + len(span) - 1].startswith(span[-1])):
                return k, n
    return "", -1


@lru_cache(maxsize=8)
def _split_keys(keys: tuple[str, ...]) -> tuple[tuple[str, list[str]], ...]:
    """Direction words and rivals with their words, split once (a batch turns tens of thousands of cues)."""
    return tuple((k, k.split(" ")) for k in keys)


def _turn(alt: str, lang: str, key: str, at: int, opposite: str) -> str:
    if lang == "ja":
        return alt[:at] + opposite + alt[at + len(key):]
    words = alt.split(" ")
    return " ".join([*words[:at], opposite, *words[at + len(key.split(" ")):]])


_JA_FUNCTION_POS = frozenset({"助詞", "助動詞", "補助記号", "接尾辞"})


@lru_cache(maxsize=8)
def _phrase_terms(lang: str, stemmed: bool) -> tuple[tuple[tuple[int, tuple[str, ...]], ...], dict[str, tuple[tuple[int, int, Alt], ...]]]:
    """Multi-word lexicon terms ("reduce variance", "分散を減らす") split into content words, for reading
    a `says` phrase across several cue terms: (word count and `says` per entry, and an index from the
    first characters of a word to (entry, word position, word))."""
    entries: list[tuple[int, tuple[str, ...]]] = []
    index: dict[str, list[tuple[int, int, Alt]]] = defaultdict(list)
    for concept in active_lexicon().concepts:
        form = concept.form(lang)
        if not form or not form.says:
            continue
        for term in form.term:
            if lang == "ja":
                words = tuple(
                    Alt((m.surface,), (False,), m.surface, (), "ja")
                    for m in morphemes(fold_ja(term)) if m.pos not in _JA_FUNCTION_POS
                )
            else:
                words = tuple(_compile_alt(w, lang, stemmed) for w in _compile_alt(term, lang, stemmed).words)
            if 2 <= len(words) <= 3:
                e = len(entries)
                entries.append((len(words), tuple(form.says)))
                for k, w in enumerate(words):
                    index[_word_key(w.words[0], lang)].append((e, k, w))
    return tuple((n, says) for n, says in entries), {k: tuple(v) for k, v in index.items()}


def _word_key(word: str, lang: str) -> str:
    return word[:1] if lang == "ja" else word[:3]


@lru_cache(maxsize=65536)
def _joint_readings(written: tuple[tuple[str, ...], ...], lang: str, stemmed: bool) -> tuple[tuple[frozenset[int], tuple[str, ...]], ...]:
    """(cue terms, `says` phrases) for every multi-word lexicon term whose words distinct terms of the
    cue name one each ("varian" and "reduc" name the two words of "reduce variance")."""
    entries, index = _phrase_terms(lang, stemmed)
    if not entries:
        return ()
    named: dict[tuple[int, int], set[int]] = defaultdict(set)
    for ti, term in enumerate(written):
        for x in term:
            if not x or x.startswith("@"):
                continue
            a = _compile_alt(x, lang, stemmed)
            if len(a.words) != 1 or not a.words[0]:
                continue
            for e, k, w in index.get(_word_key(a.words[0], lang), ()):
                if _names_word(a, w):
                    named[(e, k)].add(ti)
    found = []
    for e in sorted({e for e, _ in named}):
        n, says = entries[e]
        namers = [named.get((e, k), set()) for k in range(n)]
        if all(namers):
            taken = _assign(namers, frozenset())
            if taken is not None:
                found.append((taken, says))
    return tuple(found)


def _assign(namers: list[set[int]], taken: frozenset[int]) -> frozenset[int] | None:
    """Give each word its own cue term, or None."""
    if not namers:
        return taken
    for i in sorted(namers[0] - taken):
        done = _assign(namers[1:], taken | {i})
        if done is not None:
            return done
    return None


def _names_word(alt: Alt, word: Alt) -> bool:
    if len(alt.words) != 1 or alt.raw.endswith("="):
        return False
    if alt.lang == "ja":
        return word.words[0].startswith(alt.words[0])
    return _names(alt, word)


def names_term(alt: str, term: str, lang: str) -> bool:
    """Does cue alternative `alt` name lexicon term `term` (so that it takes the term's `says`)?"""
    return not alt.endswith("=") and _names(_compile_alt(alt, lang), _compile_alt(term, lang))


def _names(alt: Alt, term: Alt) -> bool:
    """Does the alternative match wherever the term is written?"""
    if alt.lang == "ja":
        body = alt.words[0]
        return len(body) >= 2 and term.words[0].startswith(body) and not alt.exact[0]
    if len(alt.words) != len(term.words):
        return False
    for w, st, ex, tw, tst in zip(alt.words, alt.stems, alt.exact, term.words, term.stems, strict=True):
        if ex:
            if tw != w:
                return False
        elif not (tw.startswith(w) or (st and tst and tst.startswith(st) and len(st) >= 4)):
            return False
    return True


@dataclass
class Match:
    """Where a cue matched: the sentence index and its exact text."""

    sentence: int
    quote: str


@dataclass
class Polar:
    """Sentences that affirm a cue, and sentences that state it only to deny it."""

    affirmed: list[Match]
    denied: list[Match]
    # denied sentences that do not state the opposite claim, so they earn nothing and contradict nothing:
    # the state has ended ("no longer waits", "non aspetta più", "待たなくなる"), a risk is avoided ("per non
    # far collassare"), a condition or a prescription ("if you …", "Don't wait …", "Fix: no split-K"), or
    # the negation sits apart from the rest of the cue (across a "but", 20+ words away, the other side of "vs")
    not_claims: list[Match] = field(default_factory=list)


@dataclass
class _StemIndex:
    stems: list[str]
    positions: dict[str, list[int]]
    vocab: list[str]


@dataclass
class _JaSentence:
    text: str
    morphs: tuple[Morpheme, ...]
    lemmas: str
    lemma_owner: list[int]  # lemma-string offset -> morpheme index


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
    ja_all: str = ""  # the folded Japanese sentences joined, for a quick "is every term here?" check
    _stems: dict[str, _StemIndex] = field(default_factory=dict)
    _ja: list[_JaSentence | None] = field(default_factory=list)
    _memo: dict[tuple[str, str, bool, str], list[int]] = field(default_factory=dict)
    _alt_memo: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    prefix3: set[str] = field(default_factory=set)
    token_end: list[int] = field(default_factory=list)  # Japanese answers: where each English word ends
    # "non" written as a word prefix ("non-associative", "non-zero"): it negates that word only
    prefix_non: set[int] = field(default_factory=set)
    # sentences that point back at the one before, and the index of those pairs, built on first use
    bridges: list[int] = field(default_factory=list)
    _paired: AnswerIndex | None = None

    @classmethod
    def build(cls, sentences: list[Sentence], japanese: bool) -> AnswerIndex:
        idx = cls(" ".join(s.text for s in sentences), japanese, sentences)
        # a question asks and claims nothing, so it lends nothing to a pair ("それは何と等価ですか？")
        idx.bridges = [i for i in range(1, len(sentences)) if POINTS_BACK.match(sentences[i].text)
                       and not any(_ASKS.search(sentences[j].text) for j in (i - 1, i))]
        if japanese:
            idx.ja_text = [fold_ja(s.text) for s in sentences]
            idx.ja_all = "".join(idx.ja_text)
            idx._ja = [None] * len(sentences)
            # Japanese answers borrow English terms ("rollout を sampling して"): index those words
            # too, so English cues can match them; negation is still read from the Japanese predicate.
            ja_positions: dict[str, list[int]] = defaultdict(list)
            for si, text in enumerate(idx.ja_text):
                for m in _ASCII_WORD.finditer(text):
                    ja_positions[m.group(0)].append(len(idx.tokens))
                    idx.tokens.append(m.group(0))
                    idx.token_sentence.append(si)
                    idx.token_end.append(m.end())
            idx.positions = dict(ja_positions)
            idx.vocab = sorted(ja_positions)
            idx.prefix3 = {t[:3] for t in idx.vocab}
            return idx
        positions: dict[str, list[int]] = defaultdict(list)
        for si, s in enumerate(sentences):
            tokens, prefixes = latin_tokens_and_prefixes(s.text)
            idx.prefix_non.update(len(idx.tokens) + k for k in prefixes)
            for tok in tokens:
                positions[tok].append(len(idx.tokens))
                idx.tokens.append(tok)
                idx.token_sentence.append(si)
        idx.positions = dict(positions)
        idx.vocab = sorted(positions)
        idx.prefix3 = {t[:3] for t in idx.vocab}
        return idx

    # -- Latin -----------------------------------------------------------------
    def _stem_index(self, lang: str) -> _StemIndex:
        found = self._stems.get(lang)
        if found is None:
            stems = [stem(t, lang) for t in self.tokens]
            positions: dict[str, list[int]] = defaultdict(list)
            for i, s in enumerate(stems):
                positions[s].append(i)
            found = self._stems[lang] = _StemIndex(stems, dict(positions), sorted(positions))
        return found

    def _word_positions(self, word: str, stemmed: str, exact: bool, lang: str) -> list[int]:
        key = (word, stemmed, exact, lang)
        found_before = self._memo.get(key)
        if found_before is None:
            found_before = self._memo[key] = self._word_positions_uncached(word, stemmed, exact, lang)
        return found_before

    def _word_positions_uncached(self, word: str, stemmed: str, exact: bool, lang: str) -> list[int]:
        if exact or not stemmed:
            if exact:
                if stemmed and len(word) == 3 and lang == "en":  # a three-letter word's English plural: "gpu" finds "GPUs"
                    return sorted(self.positions.get(word, []) + self.positions.get(word + "s", []))
                return self.positions.get(word, []) if not stemmed or len(word) <= 3 else sorted(
                    set(self.positions.get(word, [])) | set(self._stem_index(lang).positions.get(stemmed, []))
                )
            found_raw: list[int] = []
            i = bisect.bisect_left(self.vocab, word)
            while i < len(self.vocab) and self.vocab[i].startswith(word):
                found_raw.extend(self.positions[self.vocab[i]])
                i += 1
            return sorted(found_raw)
        si = self._stem_index(lang)
        found: set[int] = set()
        i = bisect.bisect_left(self.vocab, word)
        while i < len(self.vocab) and self.vocab[i].startswith(word):
            found.update(self.positions[self.vocab[i]])
            i += 1
        if len(stemmed) >= 4:
            i = bisect.bisect_left(si.vocab, stemmed)
            while i < len(si.vocab) and si.vocab[i].startswith(stemmed):
                found.update(si.positions[si.vocab[i]])
                i += 1
        else:
            found.update(si.positions.get(stemmed, []))
        return sorted(found)

    def _word_at(self, pos: int, word: str, stemmed: str, exact: bool, lang: str) -> bool:
        tok = self.tokens[pos]
        if exact and (tok == word or not stemmed or len(word) <= 3):
            return tok == word or (bool(stemmed) and lang == "en" and len(word) == 3 and tok == word + "s")
        if not exact and (tok.startswith(word) or not stemmed):
            return tok.startswith(word)
        st = self._stem_index(lang).stems[pos]
        if exact:
            return st == stemmed
        return st.startswith(stemmed) if len(stemmed) >= 4 else st == stemmed

    def _alt_spans(self, alt: Alt) -> list[tuple[int, int]]:
        # compiled alternatives live in compile_cue's cache for the whole grading, so id() is a stable key
        found = self._alt_memo.get(id(alt))
        if found is None:
            found = self._alt_memo[id(alt)] = self._alt_spans_uncached(alt)
        return found

    def _alt_spans_uncached(self, alt: Alt) -> list[tuple[int, int]]:
        spans = []
        for start in self._word_positions(alt.words[0], alt.stems[0], alt.exact[0], alt.lang):
            end = start + 1
            ok = True
            for w, st, ex in zip(alt.words[1:], alt.stems[1:], alt.exact[1:], strict=True):
                skipped = 0
                while end < len(self.tokens) - 1 and skipped < 2 and self.tokens[end] in PHRASE_OPTIONAL and self.tokens[end] != w:
                    end += 1
                    skipped += 1
                if end >= len(self.tokens) or self.token_sentence[end] != self.token_sentence[start]:
                    ok = False
                    break
                if not self._word_at(end, w, st, ex, alt.lang):
                    ok = False
                    break
                end += 1
            if ok:
                spans.append((start, end))
        return spans

    def _negator_latin(self, start: int, covered: set[int]) -> int:
        """The token that negates a match starting at `start`, or -1.

        A match inside a means adjunct ("by pushing the ratio…", "spingendo il rapporto…") that follows a
        negated verb of its own is not what is denied: "the optimiser cannot gain anything by pushing the
        ratio outside the interval" denies the gain, not that the ratio is bounded by the interval."""
        sent = self.token_sentence[start]
        i, seen = start - 1, 0
        means, verb_between = False, False
        while i >= 0 and seen < LATIN_WINDOW and self.token_sentence[i] == sent:
            tok = self.tokens[i]
            if i not in covered and not means and self._means_at(i):
                means = True
            elif means and i not in covered and tok not in _FILLER and tok not in LATIN_NEGATORS:
                verb_between = True
            if means and verb_between and tok in LATIN_NEGATORS and i not in covered:
                return -1
            if tok in CLAUSE_MARKS or (tok in _SCOPE_STOP and i not in covered):
                return -1
            if tok in _AND_IT and self.tokens[i + 1] == "non":
                # "che non puoi eliminare e non dipende dal modello": two negated verbs coordinated. The folded
                # Italian "e" is also "è", so it stops a scope only before "non", where "è" cannot stand
                # ("è nulla" is "is zero")
                return -1
            if tok in _AND_IT and i >= 2 and self.tokens[i - 1] == "e" and self.tokens[i - 2] == "c":
                return -1  # "il reward model non c'è e i dati sono offline": the "e" after "c'è" is "and"
            if tok in LATIN_NEGATORS and i in covered:
                return -1  # the cue's own negation ("non dipende") stands between: anything before it negates another verb
            if tok in LATIN_NEGATORS and i not in covered and (i not in self.prefix_non or i == start - 1):
                nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else ""
                prev = self.tokens[i - 1] if i > 0 else ""
                chained = any(j in covered and self.tokens[j] in LATIN_NEGATORS for j in range(max(0, i - 3), i))
                if nxt in _NOT_NEGATING_NEXT or prev == "finche" or (tok == "non" and self._concord(i, start)):
                    pass  # "not only", "finché non" (until), "non insegna nulla" (negative concord)
                elif chained:
                    pass  # "non cambia mai": the negation the cue itself asserts, continued (Italian double negative)
                elif self._bare_adverb(i):
                    pass  # "CISPO invece clippa…" is "on the other hand", not "instead of"
                elif self._removal_negated(i, start, covered):
                    return -1  # "without dropping any token": the removal is denied, not the token
                else:
                    return i
            i -= 1
            seen += tok not in _FILLER and not (tok == "e" and i > 0 and self.tokens[i - 1] == "c")
        return -1

    def _removal_negated(self, neg: int, start: int, covered: set[int]) -> bool:
        """Is the first word after the negator at `neg` (before the match at `start`) a verb of removal or
        loss that the cue does not hold?"""
        j = next((j for j in range(neg + 1, start) if self.tokens[j] not in _FILLER), None)
        return j is not None and j not in covered and self.tokens[j].startswith(_PRIVATIVE_LATIN)

    def _means_at(self, i: int) -> bool:
        """Does the token at `i` open a means adjunct: "by" before an -ing word, or an Italian gerund?"""
        tok = self.tokens[i]
        if tok == "by":
            return i + 1 < len(self.tokens) and self.tokens[i + 1].endswith("ing")
        return len(tok) >= 6 and tok.endswith(("ando", "endo")) and tok not in _NOT_GERUND

    def _bare_adverb(self, i: int) -> bool:
        """Is the token at `i` a bare "instead"/"rather"/"invece" ("on the other hand"), not "instead of"?"""
        tok = self.tokens[i]
        nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else ""
        return tok in _NEGATE_ONLY_BEFORE and nxt not in _NEGATE_ONLY_BEFORE[tok]

    def _object_nothing(self, end: int, covered: set[int]) -> bool:
        """Is a verb's match followed by "nothing" as its object ("averaging twice changes nothing")?"""
        return (end < len(self.tokens) and self.tokens[end] == "nothing" and end not in covered
                and self.token_sentence[end] == self.token_sentence[end - 1])

    def _concord(self, neg: int, start: int) -> bool:
        """Is the "non" at `neg` in negative concord with the word the match starts with ("non insegna nulla")?"""
        word = self.tokens[start]
        if word not in _CONCORD:
            return False
        return not (word == "nulla" and self.tokens[start - 1] in _COPULA)

    def _not_a_claim(self, neg: int) -> bool:
        """Is the negator at `neg` inside a condition or a prescription, so that it asserts nothing?
        "if you average per machine instead of over all tokens, long answers get the wrong weight" warns;
        "Don't wait for the stragglers: …", "Non aspettare i ritardatari", "Fix: no split-K" prescribe."""
        toks, sent = self.tokens, self.token_sentence[neg]
        first = neg
        while first > 0 and self.token_sentence[first - 1] == sent:
            first -= 1
        clause = first
        for j in range(neg - 1, first - 1, -1):
            if toks[j] in CLAUSE_MARKS:
                clause = j + 1
                break
        if any(t in _CONDITION for t in toks[clause:neg]):
            return True
        if any(toks[j] == "whose" or (toks[j] == "cui" and toks[j - 1] in _RELATIVE_CUI_AFTER) for j in range(max(clause, 1), neg)):
            return True
        if any(toks[j] != "rather" and self._bare_adverb(j) for j in range(clause, neg)):
            return True  # "CISPO invece non butta via il gradiente": the contrasted method's behaviour, not a denial
        head = toks[first:neg]
        if not head or head in (["do"], ["please", "do"]):  # a sentence that opens with its negation
            nxt = toks[neg + 1] if neg + 1 < len(toks) and self.token_sentence[neg + 1] == sent else ""
            if toks[neg] == "never" or (toks[neg] == "not" and head == ["do"]):  # "Never …", "Don't …"
                return True
            if toks[neg] == "non" and nxt.endswith(("are", "ere", "ire")):  # Italian negative imperative: non + infinitive
                return True
        if head and head[0] in _IMPERATIVE and any(t in _SO_THAT for t in toks[first + 1:neg]):
            return True  # "Let writing and learning overlap, so the writers never wait": what the remedy brings
        return len(head) >= 3 and head[0] in _PRESCRIPTION  # "Fix: fixed-order reductions, no split-K"

    def _claims_nothing_latin(self, neg: int) -> bool:
        """Is the negator at `neg` "no longer" / "not … anymore" / Italian "non … più" (no longer), or the
        negation of a purpose ("per non …", "so as not to")? Either presupposes the state it names."""
        toks, sent = self.tokens, self.token_sentence[neg]
        nxt = toks[neg + 1] if neg + 1 < len(toks) else ""
        if toks[neg] == "no" and nxt == "longer":
            return True
        if toks[neg] not in ("not", "non"):
            return False
        before = toks[max(0, neg - 2):neg]
        if before[-1:] in (["per"], ["order"]) or before == ["so", "as"]:
            return True  # "per non far collassare", "so as not to", "in order not to": a risk avoided, not denied
        for j in range(neg + 1, min(len(toks), neg + 8)):
            if self.token_sentence[j] != sent or toks[j] in CLAUSE_MARKS:
                return False
            if toks[j] == "anymore" or (toks[j] == "any" and j + 1 < len(toks) and toks[j + 1] == "more"):
                return True
            if toks[j] == "piu" and toks[neg] == "non":
                after = toks[j + 1] if j + 1 < len(toks) and self.token_sentence[j + 1] == sent else ""
                # "più" ending the clause or before an article or preposition; before an adjective it is "more"
                return not after or after in CLAUSE_MARKS or after in _CEASE_PIU_BEFORE
        return False

    def _polar_latin(self, cue: Cue) -> tuple[list[int], list[int], list[int]]:
        per_term = []
        # cheap reject before the call: most phrases hold a word that starts unlike any answer word
        prefix3 = self.prefix3
        has_heads = prefix3.issuperset
        for term, starts in zip(cue.terms, cue.starts, strict=True):
            spans = [sp for alt in _starting(term, starts, prefix3) if has_heads(alt.heads) for sp in self._alt_spans(alt)]
            if not spans:
                return [], [], []
            per_term.append(spans)
        # the negator of every span (-1: none), read once
        if self.japanese:
            chars = [(self.token_end[s] - len(self.tokens[s]), self.token_end[e - 1]) for spans in per_term for s, e in spans]
            negs = [[self._negator_ja(self._ja_sentence(self.token_sentence[sp[0]]), self.token_end[sp[1] - 1], chars)
                     for sp in spans] for spans in per_term]
        else:
            covered = {p for spans in per_term for s, e in spans for p in range(s, e)}
            # a phrase inside a longer match of the same term is negated as the longer one is
            # ("non si tratta di un modello che stima il ritorno": "stima il ritorno" is denied too)
            negs = [[self._negator_latin(min(s for s, e in spans if s <= sp[0] and e >= sp[1]), covered)
                     if not self._object_nothing(sp[1], covered) else sp[1] for sp in spans]
                    for spans in per_term]
            negs = [[-1 if n >= 0 and contrasting and self.tokens[n] in _CONTRASTING else n for n in ns]
                    for ns, contrasting in zip(negs, cue.contrasting, strict=True)]
        valid = [[sp for sp, n in zip(spans, ns, strict=True) if n < 0] for spans, ns in zip(per_term, negs, strict=True)]
        candidates = set.intersection(*[{self.token_sentence[s] for s, _ in spans} for spans in per_term])
        affirmed, denied, not_claims = [], [], []
        for sent in sorted(candidates):
            in_valid = [[sp for sp in spans if self.token_sentence[sp[0]] == sent] for spans in valid]
            if all(in_valid) and _disjoint_choice(in_valid):
                affirmed.append(sent)
                continue
            in_all = [[sp for sp in spans if self.token_sentence[sp[0]] == sent] for spans in per_term]
            if _disjoint_choice(in_all):
                denied.append(sent)
                negated = [(sp, n) for spans, ns in zip(per_term, negs, strict=True) for sp, n in zip(spans, ns, strict=True)
                           if n >= 0 and self.token_sentence[sp[0]] == sent]
                spans = [sp for sp, _ in negated]
                if negated and (all(self._claims_nothing_at(sp, n) for sp, n in negated)
                                or (self.japanese and self._far_apart(self._chars(in_all), self._chars([spans])[0], JA_DENIAL_REACH))
                                or (not self.japanese and (self._across_contrast(in_all, spans) or self._far_apart(in_all, spans)
                                                           or self._compared_with(in_all)))):
                    not_claims.append(sent)
        return affirmed, denied, not_claims

    def _across_contrast(self, spans_per_term: list[list[tuple[int, int]]], negated: list[tuple[int, int]]) -> bool:
        """Is the negation on the other side of a "but" from the rest of the cue, or in an earlier clause
        joined by a comma and "and"? "Subtracting it does not change the direction on average, but makes the
        signal less noisy" denies the first clause only: the terms meet in no one part of the sentence that
        also holds a negated term. "It caps the weight, detaches it so no learning flows through it, and
        still lets every token push its own probability" denies nothing about every token: a negation does
        not reach a later coordinated clause that is affirmative. The later clause shares the earlier one's
        subject, though: "Unsloth only does SFT, and it does not reduce memory" denies that Unsloth reduces
        memory; and one negative clause after another may deny together ("there is no need for a KL penalty,
        and resetting the reference does nothing")."""
        toks = self.tokens
        first = min(s for spans in spans_per_term for s, _ in spans)
        last = max(e for spans in spans_per_term for _, e in spans)
        contrast = [i for i in range(first, last) if toks[i] in _CONTRAST]
        joined = [i for i in range(first, last) if toks[i] in _COORDINATING and i > 0 and toks[i - 1] == ","]
        if not contrast and not joined:
            return False

        def part(cuts: list[int], pos: int) -> int:
            return bisect.bisect_right(cuts, pos)

        def negative(clause: int) -> bool:
            """Does the coordinated clause hold a negation of its own ("…, and it does not reduce memory")?"""
            lo = joined[clause - 1] if clause else 0
            hi = joined[clause] if clause < len(joined) else len(toks)
            sent = self.token_sentence[first]
            return any(toks[j] in LATIN_NEGATORS for j in range(lo, hi) if self.token_sentence[j] == sent)

        def reaches(s: int, e: int, ns: int) -> bool:
            """Does a term's span meet the negated span starting at `ns`: same part between contrasts, and
            the same clause, an earlier one, or a later one that is negative too ("X does not A, and
            Y does not B" may deny "X + B")?"""
            if not part(contrast, s) == part(contrast, e - 1) == part(contrast, ns):
                return False
            clause = part(joined, s)
            return clause == part(joined, e - 1) and (clause <= part(joined, ns) or negative(clause))

        for ns, _ in negated:
            if all(any(reaches(s, e, ns) for s, e in spans) for spans in spans_per_term):
                return False
        return True

    def _compared_with(self, spans_per_term: list[list[tuple[int, int]]]) -> bool:
        """Is one term only ever the other side of a comparison? "vs SFT: no exposure bias" says the
        new method has none; it does not deny that SFT has it."""
        return any(all(self._compared_at(s) for s, _ in spans) for spans in spans_per_term)

    def _compared_at(self, start: int) -> bool:
        """Do the three words before `start` open the other side of a comparison ("vs", "unlike", "lower
        variance than k1", "varianza più bassa di k1")?"""
        for j in range(max(0, start - 3), start):
            tok = self.tokens[j]
            if tok in _COMPARED or (tok == "than" and (j == 0 or self.tokens[j - 1] != "rather")):  # "rather than" negates
                return True
            if tok == "di" and any(t in _MORE_LESS for t in self.tokens[max(0, j - 2):j]):
                return True
        return False

    def _chars(self, spans_per_term: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
        """English-word spans of a Japanese answer as character offsets in their sentence."""
        return [[(self.token_end[s] - len(self.tokens[s]), self.token_end[e - 1]) for s, e in spans] for spans in spans_per_term]

    @staticmethod
    def _far_apart(spans_per_term: list[list[tuple[int, int]]], negated: list[tuple[int, int]], reach: int = DENIAL_REACH) -> bool:
        """Does every negated term lie far from some other term of the cue? Then the negation belongs to
        another part of a long sentence ("…, so it learns faster and doesn't need a verifier": the
        teacher's logits, named twenty words before, are not what is denied)."""
        for ns, ne in negated:
            if all(any(s < ne + reach and e > ns - reach for s, e in spans) for spans in spans_per_term):
                return False
        return True

    def _claims_nothing_at(self, sp: tuple[int, int], neg: int) -> bool:
        """Does the negator of an English-word span assert nothing against the cue: "no longer", a purpose, a
        condition or a prescription (read in Japanese in a Japanese answer)?"""
        if self.japanese:
            return self._claims_nothing_ja(self._ja_sentence(self.token_sentence[sp[0]]), neg)
        return self._claims_nothing_latin(neg) or self._not_a_claim(neg)

    # -- Japanese --------------------------------------------------------------
    def _ja_sentence(self, si: int) -> _JaSentence:
        found = self._ja[si]
        if found is None:
            text = self.ja_text[si]
            morphs = morphemes(text)
            owner: list[int] = []
            for k, m in enumerate(morphs):
                owner.extend([k] * len(m.lemma))
            found = self._ja[si] = _JaSentence(text, morphs, "".join(m.lemma for m in morphs), owner)
        return found

    def _ja_spans(self, js: _JaSentence, alt: Alt) -> list[tuple[int, int]]:
        text, needle = js.text, alt.words[0]
        lemma = lemma_string(needle) if not needle.isascii() else ""
        spans: set[tuple[int, int]] = set()
        p = text.find(needle)
        while p >= 0:
            if not alt.exact[0] or _ascii_word_at(text, p, p + len(needle)):
                spans.add((p, p + len(needle)))
            p = text.find(needle, p + 1)
        if lemma:
            p = js.lemmas.find(lemma)
            while p >= 0:
                first = js.lemma_owner[p]
                # a lemma match starts where a word starts ("減" in "削減する" is not "減らす")
                if p == 0 or js.lemma_owner[p - 1] != first:
                    last = js.lemma_owner[p + len(lemma) - 1]
                    spans.add((js.morphs[first].start, js.morphs[last].end))
                p = js.lemmas.find(lemma, p + 1)
        return sorted(spans)

    def _negator_ja(self, js: _JaSentence, end: int, covered: list[tuple[int, int]]) -> int:
        """The morpheme that negates a match ending at `end`, or -1."""
        morphs = js.morphs
        k = next((i for i, m in enumerate(morphs) if m.end > end), len(morphs))
        if k < len(morphs) and morphs[k].start < end:
            k += 1  # the term ends inside this word (減 in 減らさない): read what follows it
        obligation = False
        for step, i in enumerate(range(k, min(len(morphs), k + max(JA_WINDOW, JA_FINAL_REACH)))):
            m = morphs[i]
            prev = morphs[i - 1] if i > 0 else None
            beyond = step >= JA_WINDOW  # past the window only the sentence's own final predicate negates
            if m.pos == "補助記号":
                return -1
            # "XはYではなく…", "Xには…がない": a topic or subject particle right after the term ends its scope,
            # unless は only marks the predicate's own complement: "指標にはならない" (is not a measure),
            # "とは言えない" (cannot be called), "解決することはできない" (cannot solve)
            if (m.pos == "助詞" and m.surface in ("は", "が") and step <= 1
                    and not (prev and m.surface == "は" and prev.surface in _JA_COMPLEMENT_BEFORE_WA)):
                return -1
            inside = any(s <= m.start < e for s, e in covered)
            negator = (
                (m.pos == "助動詞" and m.lemma in _JA_NEG_AUX)
                or (m.pos == "形容詞" and m.lemma in _JA_NEG_ADJ)
                or m.lemma in _JA_NEG_WORDS
            )
            if negator and not inside and m.lemma in _JA_NEG_WORDS and prev is not None and prev.pos == "名詞" and step > 0 \
                    and not any(s <= prev.start < e for s, e in covered):
                return -1  # "GSPO も KL 項なしで": なし denies the noun it follows (項), not the term before it
            if negator and not inside:
                nxt = morphs[i + 1] if i + 1 < len(morphs) else None
                conditional = nxt is not None and nxt.surface in _JA_NEG_BENIGN_AFTER and m.lemma != "ず"
                benign = (
                    (prev is not None and prev.lemma in _JA_NEG_BENIGN_BEFORE)
                    # "差しか見ない" (looks only at the difference), "だけでは足りない" (is not enough alone); past the
                    # window, しか anywhere after the term ("高速リンクでしか割に合いません")
                    or any(p.surface == "しか" for p in morphs[k if beyond else max(0, i - 3):i])
                    # "ステップ数だけが軸ではない", "X だけでなく": not only X, which keeps X (だけ right after a term,
                    # and no verb before the negator: "rank だけが呼んでもハングしない" denies the hang)
                    or any(p.surface in ("だけ", "のみ") and p.pos == "助詞" and any(p.start == e for _, e in covered)
                           and not any(q.pos == "動詞" for q in morphs[j + 1:i]) for j, p in enumerate(morphs[:i]))
                    or next((p.lemma for p in reversed(morphs[:i]) if p.pos != "助動詞"
                             and p.surface not in ("て", "で") and p.lemma not in _JA_TE_AUX), "") in _JA_INSUFFICIENT
                    # "起きていないか(を確認する)": an embedded question asks, it does not deny
                    or (nxt is not None and nxt.surface == "か")
                    or _removal_denied(morphs[:i], covered)
                    or conditional
                    # the second half of "しなければならない", "しないといけない": an obligation
                    or (obligation and prev is not None and prev.lemma in _JA_OBLIGATION)
                )
                obligation = obligation or conditional
                if not benign and (not beyond or (_ends_sentence(morphs, i) and _denies_copula(morphs, i))):
                    return i
            if m.pos == "助詞" and m.pos2 == "接続助詞" and m.surface in _JA_CLAUSE_PARTICLES and step > 0 \
                    and not (m.surface in ("て", "で") and i + 1 < len(morphs) and morphs[i + 1].lemma in _JA_TE_AUX):
                return -1
            if m.surface in ("なら", "ならば") and m.pos == "助動詞" and step > 0:  # not なる's なら (ゼロにならない)
                return -1  # "detach した値なら…影響しません": the term sits in a condition, the negation in the main clause
            if m.surface == "と" and prev is not None and prev.pos == "動詞":
                return -1  # "間違えると意味がない": a condition ("if it errs") ends the clause
        return -1

    @staticmethod
    def _claims_nothing_ja(js: _JaSentence, neg: int) -> bool:
        """Is the negator at `neg` the ない of "なくなる" (has stopped: 待たなくなる, 必要がなくなった), or does
        it follow "<number>まで" in its clause ("η = 4 くらいまでは劣化なし": a bound, not a denial of what lies beyond)?"""
        morphs = js.morphs
        nxt = morphs[neg + 1] if neg + 1 < len(morphs) else None
        if nxt is not None and nxt.lemma == "なる":
            return True
        for i in range(neg - 1, -1, -1):
            m = morphs[i]
            if m.pos == "補助記号" and m.surface not in ("〜", "~", "=", "＝"):
                return False
            if m.surface == "まで" and any(any(ch.isdigit() for ch in p.surface) for p in morphs[max(0, i - 3):i]):
                return True
        return False

    def _polar_ja(self, cue: Cue) -> tuple[list[int], list[int], list[int]]:
        affirmed, denied, not_claims = [], [], []
        for si in range(len(self.ja_text)):
            text = self.ja_text[si]
            # cheap pre-check: every term needs a surface or lemma foothold in this sentence
            if not all(any(c in text for c in starts) for starts in cue.starts):
                continue
            js = self._ja_sentence(si)
            lemmas = js.lemmas  # cheap reject: neither the written form nor the dictionary form can start here
            spans_per_term = [sorted({sp for c, where in starts.items() if c in text or _HIRAGANA_FIRST <= c <= _HIRAGANA_LAST
                                      for i in where if _may_start(term[i].words[0], text, lemmas)
                                      for sp in self._ja_spans(js, term[i])}) for term, starts in zip(cue.terms, cue.starts, strict=True)]
            if any(not s for s in spans_per_term):
                continue
            covered = [sp for spans in spans_per_term for sp in spans]
            negators = [[self._negator_ja(js, max(e for s, e in spans if s <= sp[0] and e >= sp[1]), covered) for sp in spans]
                        for spans in spans_per_term]
            valid = [[sp for sp, n in zip(spans, ns, strict=True) if n < 0] for spans, ns in zip(spans_per_term, negators, strict=True)]
            if all(valid) and _disjoint_choice(valid):
                affirmed.append(si)
            elif _disjoint_choice(spans_per_term):
                denied.append(si)
                negs = [n for ns in negators for n in ns if n >= 0]
                if negs and (all(self._claims_nothing_ja(js, n) for n in negs) or _turns_down_for_rest(js, negs, valid)):
                    not_claims.append(si)
        return affirmed, denied, not_claims

    # -- Public ----------------------------------------------------------------
    def polar(self, cue: Cue) -> Polar:
        """Sentences that affirm the cue, and sentences that match it only under a negation."""
        if not cue.terms:
            return Polar([], [])
        latin_cue = bool(cue.terms[0]) and cue.terms[0][0].lang != "ja"
        aff, den, cea = self._polar_latin(cue) if latin_cue else self._polar_ja(cue)
        if cue.joint:
            affirmed, denied, not_claims = set(aff), set(den), set(cea)
            outright = set(den) - set(cea)  # a sentence one reading denies outright is not a mere cessation
            for variant in cue.joint:
                more_aff, more_den, more_cea = self._polar_latin(variant) if latin_cue else self._polar_ja(variant)
                affirmed.update(more_aff)
                denied.update(more_den)
                not_claims.update(more_cea)
                outright.update(set(more_den) - set(more_cea))
            aff, den = sorted(affirmed), sorted(denied - affirmed)
            cea = sorted(not_claims.intersection(den) - outright)
        if self.bridges and len(cue.terms) > 1 and self._holds_every_term(cue, latin_cue):
            aff = sorted(set(aff) | self._bridged(cue, set(aff) | set(den)))
        return Polar([Match(i, self.sentences[i].text) for i in aff], [Match(i, self.sentences[i].text) for i in den],
                     [Match(i, self.sentences[i].text) for i in cea])

    def _holds_every_term(self, cue: Cue, latin_cue: bool) -> bool:
        """Does every term of the cue occur somewhere in the answer? (Else no pair of sentences states it.)"""
        if not latin_cue:
            return all(any(c in self.ja_all for c in starts) for starts in cue.starts)
        prefix3 = self.prefix3
        return all(any(prefix3.issuperset(alt.heads) and self._alt_spans(alt) for alt in _starting(term, starts, prefix3))
                   for term, starts in zip(cue.terms, cue.starts, strict=True))

    def _bridged(self, cue: Cue, read: set[int]) -> set[int]:
        """Sentences that state the cue with the help of the sentence before, which they point back at:
        "The critic serves as a baseline. That lowers the variance." Only an affirmation is read across the
        pair, and only where neither sentence already affirms or denies the cue on its own."""
        if self._paired is None:
            # the pair keeps a clause mark between its sentences: a negation in one does not reach the other
            # ("…updated with the advantage instead of the raw return. That lowers the variance")
            def pair(before: str, after: str) -> str:
                return before.rstrip("。") + "。" + after if self.japanese else before + " : " + after

            pairs = [Sentence(pair(self.sentences[i - 1].text, self.sentences[i].text), self.sentences[i - 1].start)
                     for i in self.bridges]
            self._paired = AnswerIndex.build(pairs, self.japanese)
            self._paired.bridges = []
        found = set()
        for m in self._paired.polar(cue).affirmed:
            i = self.bridges[m.sentence]
            if i not in read and i - 1 not in read:
                found.add(i)
        return found

    def find(self, cue: Cue) -> list[Match]:
        """Sentences in which every term of the cue matches, un-negated."""
        return self.polar(cue).affirmed


def _turns_down_for_rest(js: _JaSentence, negs: list[int], valid: list[list[tuple[int, int]]]) -> bool:
    """Is every negator the なく of "AのではなくB" (or んじゃなく), with every other term of the cue un-negated
    after it? The sentence turns down A and states B ("reward に KL を混ぜるのではなく、loss に直接足す":
    the KL goes into the loss): it denies nothing of the cue, though it does not state it either."""
    morphs = js.morphs
    for n in negs:
        m, prev = morphs[n], morphs[n - 1] if n > 0 else None
        nxt = morphs[n + 1] if n + 1 < len(morphs) else None
        # A is a clause made a noun by の ("混ぜるのではなく"), not a bare noun: "確率比ではなく Advantage を切る"
        # turns down the ratio as what is clipped, and so denies it
        if prev is not None and prev.surface == "じゃ":
            head = n - 2
        elif prev is not None and prev.surface == "は" and n > 1 and morphs[n - 2].surface == "で":
            head = n - 3
        else:
            return False
        contrast = head >= 0 and morphs[head].surface in ("の", "ん") and morphs[head].pos2 == "準体助詞"
        if not (m.lemma == "ない" and m.surface.startswith("なく") and contrast and nxt is not None and nxt.surface != "。"):
            return False
    cut = max(morphs[n].end for n in negs)
    rest = [spans for spans in valid if spans]
    return bool(rest) and len(rest) < len(valid) and all(any(s >= cut for s, _ in spans) for spans in rest)


_HIRAGANA_FIRST, _HIRAGANA_LAST = "\u3041", "\u309f"


def _ends_sentence(morphs: Sequence[Morpheme], i: int) -> bool:
    """Is the negator at `i` the sentence's final predicate (only auxiliaries, final particles and the stop after it)?"""
    return all(m.pos in ("助動詞", "補助記号") or m.pos2 == "終助詞" for m in morphs[i + 1:])


def _denies_copula(morphs: Sequence[Morpheme], i: int) -> bool:
    """Is the negator at `i` that of a copula ("ではない", "ではありません", "じゃない"), which denies the whole
    clause before it, rather than a verb's own ("持ちません")?"""
    j = i - 1
    while j >= 0 and morphs[j].lemma in ("ある", "ます"):
        j -= 1
    if j >= 0 and morphs[j].surface == "じゃ":
        return True
    return j >= 1 and morphs[j].surface == "は" and morphs[j - 1].surface == "で"


def _removal_denied(before: Sequence[Morpheme], covered: list[tuple[int, int]]) -> bool:
    """Is the predicate that a negator negates (the morphemes `before` it, skipping auxiliaries and する) a verb
    of removal outside the cue? "どのトークンも学習から外されず" keeps every token in training."""
    verb = next((m for m in reversed(before) if m.pos != "助動詞" and not (m.pos == "動詞" and m.lemma == "する")), None)
    return verb is not None and verb.lemma in _JA_PRIVATIVE and not any(s <= verb.start < e for s, e in covered)


def _starting(term: tuple[Alt, ...], starts: dict[str, tuple[int, ...]], prefix3: set[str]) -> list[Alt]:
    """The term's alternatives whose first word starts like some answer word, in the term's order."""
    keys = [k for k in starts if k in prefix3] if len(starts) <= len(prefix3) else [k for k in prefix3 if k in starts]
    if not keys:
        return []
    if len(keys) == 1:
        return [term[i] for i in starts[keys[0]]]
    return [term[i] for i in sorted(i for k in keys for i in starts[k])]


def _may_start(needle: str, text: str, lemmas: str) -> bool:
    """Can a Japanese alternative match in this sentence, by written form or by dictionary form?

    A dictionary form starts with the written form's first character unless that is hiragana
    ("し始め" -> "する", "じゃなく" -> "だ"); only then is the analyser asked (once per alternative).
    """
    head = needle[:1]
    if head in text:
        return True
    return _HIRAGANA_FIRST <= head <= _HIRAGANA_LAST and lemma_string(needle)[:1] in lemmas


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


__all__ = ["AnswerIndex", "Cue", "Match", "Polar", "compile_cue", "concept_phrases", "lexicon_says", "names_term", "use_lexicon"]
