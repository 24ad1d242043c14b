"""Render the examiner's prompts from the template files in `prompts/`.

Layout, for provider prompt caches: message 1 (system) holds the examiner's
role, the instruction hierarchy, the question and the rubric, and is
byte-identical for every call about one question; everything that changes
(the task, the transcript, the random tag) comes after it.

Candidate text is data. Each request draws a fresh random tag; every answer
goes inside `<tag> ... </tag>`, and any occurrence of the tag in the
candidate's text is neutralised, so an answer can neither close its block
nor forge an examiner turn. Earlier follow-ups were written by a model and
are untrusted too: they go inside `<tag from="examiner"> ... </tag>` blocks,
scrubbed of sentences addressed to the grader, never in the trusted text.

Trim policy (the conversation must fit the model's context window): the
system prefix and the task instructions are never cut. The transcript must
fit in `context window - reserved completion tokens - 5% margin`. While it
does not, the longest candidate answer (oldest first among equals) has its
middle replaced by `[... N characters omitted ...]`, keeping head and tail,
down to 400 characters each; then the oldest probe/answer pairs are dropped,
always keeping the latest answer. Quotes from the kept text still match the
full answer, so evidence grounding is unaffected.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from interviewer.bank.models import Question
from interviewer.examiners.base import Exchange, Turn
from interviewer.examiners.llm.sanitize import scrub
from interviewer.examiners.llm.tokens import TokenCounter

LANG_NAMES = {"en": "English", "it": "Italian (italiano)", "ja": "Japanese (日本語)"}
MIN_KEEP = 400  # characters an answer is never trimmed below
MARGIN = 0.05
_TAG_PREFIX = "answer-"
PROBE_ATTR = 'from="examiner"'  # marks a data block holding an earlier model-written follow-up


def prompts_dir() -> Path:
    """The shipped `prompts/` (inside the wheel, or the source checkout)."""
    packaged = Path(str(resources.files("interviewer"))) / "prompts"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "prompts"


@cache
def template(name: str) -> Template:
    return Template((prompts_dir() / f"{name}.md").read_text(encoding="utf-8"))


def new_tag() -> str:
    """A per-request delimiter the candidate cannot guess."""
    return _TAG_PREFIX + secrets.token_hex(8)


def neutralise(text: str, tag: str) -> str:
    """Defuse any occurrence of the request's tag inside untrusted text."""
    return re.sub(re.escape(tag), "[tag removed]", text, flags=re.IGNORECASE)


def lang_name(lang: str) -> str:
    return LANG_NAMES.get(lang, LANG_NAMES["en"])


def system_prefix(question: Question, lang: str) -> str:
    """The cacheable prefix: role, instruction hierarchy, question and rubric."""
    rubric = question.rubric
    if rubric is None:
        raise ValueError(f"question {question.id} has no rubric")
    points = "\n".join(
        f"- {kp.id} ({kp.weight:g}): {kp.statement.en} Example probe: {kp.probe.get(lang)}" for kp in rubric.key_points
    )
    wrong = "\n".join(f"- {m.id}: {m.claim.en}" for m in rubric.misconceptions) or "- (none listed)"
    return template("examiner_system").substitute(
        lang_name=lang_name(lang),
        question_id=question.id,
        track=question.track,
        difficulty=question.difficulty,
        question_text=question.text.get(lang),
        key_points=points,
        misconceptions=wrong,
    ).strip()


@dataclass
class _Segment:
    kind: str  # "probe" | "answer" | "note"
    text: str
    pair: int  # which probe/answer round it belongs to (0 = the first answer)
    keep: int | None = None  # characters kept when trimmed

    def shown(self) -> str:
        if self.keep is None or self.keep >= len(self.text):
            return self.text
        head, tail = self.keep // 2, self.keep - self.keep // 2
        return f"{self.text[:head]}\n[... {len(self.text) - self.keep} characters omitted ...]\n{self.text[-tail:]}"

    def size(self) -> int:
        return len(self.text) if self.keep is None else min(self.keep, len(self.text))


def _segments(turns: list[Turn]) -> list[_Segment]:
    segs: list[_Segment] = []
    rnd = 0
    for t in turns:
        if t.kind == "question":
            continue
        if t.kind == "probe":
            rnd += 1
            segs.append(_Segment("probe", t.text, rnd))
        elif t.kind == "hint":
            segs.append(_Segment("note", f"(hint given to the candidate: {t.text})", rnd))
        elif t.role == "candidate" and t.kind == "answer":
            segs.append(_Segment("answer", t.text, rnd))
        elif t.role == "candidate":
            note = "(the candidate skipped)" if t.kind == "skip" else "(the candidate said they do not know)"
            segs.append(_Segment("note", note, rnd))
    return segs


def _render(segs: list[_Segment], tag: str) -> str:
    out: list[str] = ["Examiner: (the question above)"]
    for s in segs:
        if s.kind == "probe":
            # A probe was written by a model: untrusted data, inside a block like the answers, and
            # scrubbed of anything addressed to the grader.
            probe, _ = scrub(" ".join(s.text.split()))
            out.append(f"Examiner follow-up:\n<{tag} {PROBE_ATTR}>\n{neutralise(probe, tag)}\n</{tag}>")
        elif s.kind == "note":
            out.append(f"Examiner note: {neutralise(s.text, tag)}")
        else:
            out.append(f"<{tag}>\n{neutralise(s.shown(), tag)}\n</{tag}>")
    return "\n".join(out)


def fit_transcript(turns: list[Turn], tag: str, budget: int, counter: TokenCounter) -> tuple[str, bool]:
    """The transcript, trimmed by the policy above to `budget` tokens; True if anything was cut."""
    segs = _segments(turns)
    text = _render(segs, tag)
    trimmed = False
    while counter.count(text) > budget:
        answers = [s for s in segs if s.kind == "answer" and s.size() > MIN_KEEP]
        if answers:
            longest = max(answers, key=lambda s: s.size())  # max() keeps the oldest among equals
            longest.keep = max(MIN_KEEP, longest.size() // 2)
        else:
            rounds = sorted({s.pair for s in segs})
            last_answer_round = max((s.pair for s in segs if s.kind == "answer"), default=0)
            droppable = [r for r in rounds if r != last_answer_round]
            if not droppable:
                break
            segs = [s for s in segs if s.pair != droppable[0]]
        trimmed = True
        text = _render(segs, tag)
    return text, trimmed


def transcript_budget(context_window: int, reserve: int, fixed_tokens: int) -> int:
    """Tokens left for the transcript once the fixed prompt and the reply are accounted for."""
    return max(256, int(context_window * (1 - MARGIN)) - reserve - fixed_tokens)


@dataclass
class Rendered:
    """Messages ready for litellm, plus what the examiner needs to check the reply."""

    messages: list[dict[str, str]]
    tag: str
    trimmed: bool


def _messages(
    prefix: str, name: str, fields: dict[str, str], exchange: Exchange, counter: TokenCounter,
    context_window: int, reserve: int,
) -> Rendered:
    tag = new_tag()
    tmpl = template(name)
    fixed = counter.count_messages(
        [{"role": "system", "content": prefix}, {"role": "user", "content": tmpl.substitute(**fields, tag=tag, transcript="")}]
    )
    budget = transcript_budget(context_window, reserve, fixed)
    transcript, trimmed = fit_transcript(exchange.turns, tag, budget, counter)
    task = tmpl.substitute(**fields, tag=tag, transcript=transcript).strip()
    return Rendered([{"role": "system", "content": prefix}, {"role": "user", "content": task}], tag, trimmed)


def probe_messages(
    prefix: str, exchange: Exchange, counter: TokenCounter, context_window: int, reserve: int
) -> Rendered:
    asked = ", ".join(i for i in exchange.probes_asked() if i) or "none"
    fields = {"asked": asked, "lang_name": lang_name(exchange.lang)}
    return _messages(prefix, "probe", fields, exchange, counter, context_window, reserve)


def grade_messages(
    prefix: str, exchange: Exchange, counter: TokenCounter, context_window: int, reserve: int,
    schema: dict[str, Any], schema_in_prompt: bool,
) -> Rendered:
    if schema_in_prompt:
        rules = ("Reply with one JSON object only, no prose and no code fence, matching this JSON schema:\n"
                 + json.dumps(schema, separators=(",", ":"), ensure_ascii=False))
    else:
        rules = "Reply with the JSON object only."
    return _messages(prefix, "grade", {"format_rules": rules}, exchange, counter, context_window, reserve)


def repair_message(error: str, schema: dict[str, Any]) -> dict[str, str]:
    text = template("grade_repair").substitute(
        error=error, schema=json.dumps(schema, separators=(",", ":"), ensure_ascii=False)
    )
    return {"role": "user", "content": text.strip()}
