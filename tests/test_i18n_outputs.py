"""Plain mode, CLI text and reports speak the interview's language, measured from outside."""

from __future__ import annotations

import asyncio
import re

import pytest

from interviewer.bank.loader import Bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.reports import report_html, report_markdown
from tests.conftest import run_cli

# The English UI words a candidate could meet in these outputs.
ENGLISH_LABELS = [
    "Criterion", "Weight", "Score", "Your words", "your words", "What a strong answer adds", "References",
    "Rubric", "not covered", "Misconceptions", "You", "Examiner", "Interview", "mean score", "answer",
    "follow-up", "strong", "solid", "partial", "weak", "end with a line", "I don't know",
]
ANSWER = {
    "ja": "PPO はクリティックと GAE を使う。GRPO はグループ内で報酬を正規化する。ベースラインは分散を下げる。",
    "it": "PPO usa un critic e la GAE. GRPO normalizza le ricompense nel gruppo. La baseline riduce la varianza.",
}


def _english_left(text: str) -> list[str]:
    return [w for w in ENGLISH_LABELS if re.search(rf"(?<![A-Za-z_-]){re.escape(w)}(?![A-Za-z_-])", text)]


def _record(bank: Bank, lang: str) -> SessionRecord:
    async def go() -> SessionRecord:
        iv = Interview(SessionRecord(plan=Plan(question_ids=["algo-05"], follow_ups=1, lang=lang)), bank, OfflineExaminer())
        await iv.submit_answer(ANSWER[lang])
        await iv.stop_probing()
        iv.advance()
        return iv.record

    return asyncio.run(go())


def _ui_text_of_html(page: str, rec: SessionRecord, bank: Bank) -> str:
    """The page's text without what comes from the bank or the candidate (rubric, references, answers)."""
    text = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    text = re.sub(r"<[^>]+>", "\n", text)
    q = bank.get("algo-05")
    assert q.rubric is not None
    content = [q.text.get(rec.plan.lang), ANSWER[rec.plan.lang]]
    content += [kp.statement.get(rec.plan.lang) for kp in q.rubric.key_points]
    grade = rec.questions[0].grade
    assert grade is not None
    content += grade.strong_answer_adds + grade.references + [t.text for t in rec.questions[0].turns]
    content += [e for c in grade.criteria for e in c.evidence]
    import html

    text = html.unescape(text)
    for c in sorted(content, key=len, reverse=True):
        text = text.replace(c, "")
    return text


@pytest.mark.parametrize("lang", ["it", "ja"])
def test_reports_have_no_english_labels(bank: Bank, lang: str) -> None:
    rec = _record(bank, lang)
    page = report_html(rec, bank)
    assert f"lang='{lang}'" in page and "white-space:pre-wrap" in page and "line-break:strict" in page
    assert _english_left(_ui_text_of_html(page, rec, bank)) == []
    md = report_markdown(rec, bank)
    for content in [ANSWER[lang], *rec.questions[0].grade.references, *rec.questions[0].grade.strong_answer_adds]:  # type: ignore[union-attr]
        md = md.replace(content, "")
    md = re.sub(r"^> .*$", "", md, flags=re.M)  # the question text
    md = re.sub(r"^\*\*[^*]+\*\* \([^)]*\): .*$", lambda m: m.group(0).split(":")[0], md, flags=re.M)
    assert _english_left(re.sub(r"\| [^|]*\|", "|", md)) == []


@pytest.mark.parametrize("lang", ["it", "ja"])
def test_plain_mode_and_grade_text_speak_the_language(lang: str) -> None:
    r = run_cli("run", "--plain", "--lang", lang, "--questions", "algo-05", "--follow-ups", "0", input=ANSWER[lang] + "\n.\n")
    assert r.returncode == 0, r.stderr
    # drop the bank's own text (question, rubric statements, strong-answer notes, references): indented or bulleted lines
    ui = "\n".join(line for line in r.stdout.splitlines() if not line.startswith(("  ", "PPO", "Come")))
    assert _english_left(ui) == [], ui
    label = {"ja": "スコア", "it": "Punteggio"}[lang]
    assert label in r.stdout
    g = run_cli("grade", "-q", "algo-05", "--lang", lang, "--format", "text", "--answer", ANSWER[lang])
    assert g.returncode == 0, g.stderr
    first = g.stdout.splitlines()[0]
    assert label in first and not _english_left(first), first


@pytest.mark.parametrize(
    ("lang", "answer", "claim"),
    [
        ("it", "GRPO usa un critic come PPO e calcola gli advantage con la GAE.", "GRPO addestra un value model (critic)"),
        ("ja", "GRPO も PPO と同じく Critic を学習して GAE で Advantage を計算します。", "GRPO は PPO と同じく価値モデル（Critic）を学習"),
    ],
)
def test_grade_json_names_the_wrong_claim_in_the_answers_language(lang: str, answer: str, claim: str) -> None:
    import json

    out = run_cli("grade", "-q", "algo-05", "--lang", lang, "--answer", answer)
    assert out.returncode == 0, out.stderr
    (found,) = [m for m in json.loads(out.stdout)["misconceptions"] if m["id"] == "grpo-has-critic"]
    assert found["claim"].startswith(claim)
