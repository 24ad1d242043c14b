"""Find follow-up probes that give an answer away by naming it.

A probe asks for the missing idea; it must not state it. The failure that a
check can catch reliably is a probe that *names* a method, system or result
the candidate has not mentioned, when that name is what a key point asks for:
"Il Routing Replay sulla vecchia policy..." tells a candidate who never said
"Routing Replay" one of the answers.

A term is *distinctive* for a question when it is
- a name (an acronym or mixed-case word such as RLOO, IcePop, ProRL; a word
  with a digit such as R3, k3, V3.2; or a run of Title Case words such as
  "Rollout Routing Replay") written in the statement of one of its key points,
  in any language, so that stating it is part of some key point's answer;
- absent from the question text (a probe may repeat what the question says);
- not one of the field-wide acronyms in ``COMMON_NAMES`` (RL, KL, PPO, GRPO...),
  which set the scene rather than answer anything.

A probe leaks when it contains a distinctive term, whether of its own key
point or of a sibling (naming a sibling's answer gives that one away before it
is probed). Paraphrased hints ("which property of the optimiser hides...")
cannot be found by word matching; reviewers catch those, and the rubric-review
regression tests pin the fixed wording.

Matching follows the offline examiner's cue rules, reimplemented here so the
check does not depend on the matcher's internals: words match words that start
with them (whole words for three characters or fewer) and several words match
consecutive words, after NFKC, lowercasing and accent folding; Japanese probes
are matched the same way on their Latin-script words, since names stay in Latin
script there.

Custom-bank authors run it with ``python tools/check_rubric.py`` (leaks count as
problems) or call :func:`probe_leaks` on a loaded question.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from interviewer.bank.models import LANGS, Question

# Acronyms that frame the whole field; naming them in a probe answers nothing.
COMMON_NAMES = frozenset(
    """
    rl rlhf rlvr llm llms lm kl sft ppo grpo moe cot gpu gpus tpu tv is sgd adam adamw fp16 bf16 fp32 fp8
    avg sum max min ddp fsdp nccl math aime api cpu
    """.split()
)
# Acronyms, mixed case, words with digits, and runs of Title Case words.
_NAME = re.compile(
    r"(?<![\w])(?:[A-Za-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*|[A-Za-z]+[0-9][A-Za-z0-9]*)(?:[.-][A-Za-z0-9]+)*"
    r"|(?:[A-Z][a-z]+ )+[A-Z][a-z]+"
)


@dataclass(frozen=True)
class Leak:
    """One probe that names a distinctive term of its question's key points."""

    question: str
    key_point: str
    lang: str
    term: str

    def __str__(self) -> str:
        return f"{self.question} {self.key_point} [{self.lang}]: probe names {self.term!r}"


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return re.sub(r"[^0-9a-z]+", " ", text).split()


def contains(term: str, text: str) -> bool:
    """True when the term's words start consecutive words of the text (whole words when short)."""
    want, words = _words(term), _words(text)
    n = len(want)
    if not n:
        return False
    for i in range(len(words) - n + 1):
        if all((w == t) if len(t) <= 3 else w.startswith(t) for t, w in zip(want, words[i : i + n], strict=True)):
            return True
    return False


def distinctive_terms(question: Question) -> set[str]:
    """Names written in the question's key-point statements that the question text does not contain."""
    rubric = question.rubric
    if rubric is None:
        return set()
    question_text = " \n ".join(question.text.get(lang) for lang in LANGS)
    out = set()
    for kp in rubric.key_points:
        for lang in LANGS:
            for match in _NAME.finditer(kp.statement.get(lang)):
                # "KL-regularised", "RLVR-trained": a lowercase tail is an ordinary word, not part of the name
                name = re.sub(r"(?:-[a-z]+)+$", "", match.group(0))
                if " ".join(_words(name)) in COMMON_NAMES or contains(name, question_text):
                    continue
                out.add(name)
    return out


def probe_leaks(question: Question) -> list[Leak]:
    """Every (key point, language) whose probe names a distinctive term."""
    rubric = question.rubric
    if rubric is None:
        return []
    names = sorted(distinctive_terms(question))
    return [
        Leak(question.id, kp.id, lang, name)
        for kp in rubric.key_points
        for lang in LANGS
        for name in names
        if contains(name, kp.probe.get(lang))
    ]
