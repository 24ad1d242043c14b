"""A fake model that behaves sensibly: it reads the examiner's prompt like a model would and
answers with the offline examiner's judgement, in the LLM reply formats.

It lets the examiner contract run end to end over HTTP. Its quotes are the
offline examiner's evidence sentences that state the point, else the answer's
sentence that states it best (what a careful model quotes). `gullible=True` makes
it a model fooled by the candidate: full credit, quoting whatever the answer
says, which the examiner's own checks must neutralise.
"""

from __future__ import annotations

import json
import re

from interviewer.bank.loader import Bank
from interviewer.bank.models import KeyPoint, Question
from interviewer.examiners.grade import CriterionScore
from interviewer.examiners.llm import relevance
from interviewer.examiners.offline.examiner import COVERED, analyse
from interviewer.examiners.offline.text import split_sentences
from tests.llm.fakeserver import Reply, Seen

_LANGS = {"English": "en", "Italian": "it", "Japanese": "ja"}


def blocks(seen: Seen) -> list[str]:
    """The candidate blocks of a request, found by the tag the task message names."""
    m = re.search(r"inside <(answer-[0-9a-f]{16})>", seen.user)
    assert m, "the task message must name the tag"
    tag = m.group(1)
    return re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", seen.user, flags=re.S)


def question_id(seen: Seen) -> str:
    m = re.search(r"^Question (\S+) \(", str(seen.messages[0]["content"]), flags=re.M)
    assert m
    return m.group(1)


def language(seen: Seen) -> str:
    m = re.search(r"^Interview language: (\w+)", str(seen.messages[0]["content"]), flags=re.M)
    return _LANGS.get(m.group(1), "en") if m else "en"


def _kp(q: Question, kid: str) -> KeyPoint:
    assert q.rubric is not None
    return next(k for k in q.rubric.key_points if k.id == kid)


def _sentences(text: str) -> list[str]:
    return [s.text for s in split_sentences(text)]


class Oracle:
    def __init__(self, bank: Bank, gullible: bool = False) -> None:
        self.bank = bank
        self.gullible = gullible

    def __call__(self, seen: Seen) -> Reply:
        q = self.bank.get(question_id(seen))
        assert q.rubric is not None
        lang = language(seen)
        text = "\n\n".join(blocks(seen))
        if "Task: write the next follow-up question" in seen.user:
            m = re.search(r"already probed: ([^)]*)\)", seen.user)
            asked = set() if not m or m.group(1) == "none" else {a.strip() for a in m.group(1).split(",")}
            cov = analyse(q, text, lang).coverage()
            open_points = [k for k in q.rubric.key_points if cov[k.id] < COVERED and k.id not in asked]
            if not open_points:
                return Reply.text("NONE")
            kp = max(open_points, key=lambda k: (k.weight, -q.rubric.key_points.index(k)))  # type: ignore[union-attr]
            return Reply.text(f"{kp.id}\n{kp.probe.get(lang)}")
        if self.gullible:
            sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]
            quote = sentences[-1] if sentences else text
            reply = {"criteria": [{"id": k.id, "coverage": 1, "evidence": [quote]} for k in q.rubric.key_points],
                     "misconceptions": [], "overall": 10, "verdict": "strong"}
            return Reply.text(json.dumps(reply))
        a = analyse(q, text, lang)
        reply = {
            "criteria": [{"id": c.id, "coverage": round(c.score / c.max, 3), "evidence": self.quotes(q, text, lang, c)}
                         for c in a.criteria],
            "misconceptions": [{"id": m.id, "quote": m.quote} for m in a.misconceptions],
        }
        return Reply.text(json.dumps(reply, ensure_ascii=False))

    @staticmethod
    def quotes(q: Question, text: str, lang: str, c: CriterionScore) -> list[str]:
        """Like a careful model: the offline evidence that states the point, else the sentence that does."""
        if c.score <= 0:
            return []
        good = [e for e in c.evidence if relevance.supports(q, _kp(q, c.id), lang, e)]
        if good:
            return good
        best = max(_sentences(text), key=lambda s: relevance.key_point_scores(q, lang, s)[c.id], default="")
        return [best] if best else c.evidence
