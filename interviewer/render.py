"""Plain-text and Markdown renderings of feedback, shared by the CLI, reports and the TUI."""

from __future__ import annotations

from interviewer.bank.models import Question
from interviewer.examiners.grade import Grade
from interviewer.examiners.offline.text import strip_control
from interviewer.i18n import N_, tr, word

# Source texts of the feedback labels; `labels(lang)` gives them in the answer's language.
_LABELS = {
    "score": N_("Score"),
    "criteria": N_("Rubric"),
    "evidence": N_("your words"),
    "none": N_("not covered"),
    "misconceptions": N_("Misconceptions"),
    "correction": N_("correction"),
    "adds": N_("What a strong answer adds"),
    "refs": N_("References"),
    "follow": N_("Follow-up"),
    "note": N_("Note"),
}
VERDICTS = {
    "strong": N_("strong"),
    "solid": N_("solid"),
    "partial": N_("partial"),
    "weak": N_("weak"),
    "no answer": N_("no answer"),
}


def labels(lang: str) -> dict[str, str]:
    """The feedback labels in `lang` (the grade's own language, whatever the UI shows)."""
    return {key: tr(text, lang) for key, text in _LABELS.items()}


def verdict_word(verdict: str, lang: str) -> str:
    """'strong', 'weak', … in `lang`; the stored and JSON value stays English."""
    return tr(VERDICTS[verdict], lang) if verdict in VERDICTS else verdict


def bar(fraction: float, width: int = 10) -> str:
    """A text score bar: `███████░░░`."""
    filled = round(max(0.0, min(1.0, fraction)) * width)
    return "█" * filled + "░" * (width - filled)


def grade_text_report(grade: Grade, question: Question, follow_up: str | None = None) -> str:
    """Feedback as plain text for terminals and screen readers (no escape sequences)."""
    t = labels(grade.lang)
    lines = [
        f"{question.id}: {t['score']} {grade.overall:.1f}/10 ({verdict_word(grade.verdict, grade.lang)}) · {word(grade.examiner, grade.lang)}",
        "",
        f"{t['criteria']}:",
    ]
    for c in grade.criteria:
        lines.append(f"  {bar(c.score / c.max)} {c.score:.1f}/{c.max:g}  {c.statement or c.id}")
        if c.evidence:
            for q in c.evidence:
                lines.append(f'      {t["evidence"]}: "{q}"')
        else:
            lines.append(f"      ({t['none']})")
    if grade.misconceptions:
        lines += ["", f"{t['misconceptions']}:"]
        for m in grade.misconceptions:
            lines.append(f'  - "{m.quote}" (-{m.penalty:g})')
            lines.append(f"    {t['correction']}: {m.correction}")
    if grade.strong_answer_adds:
        lines += ["", f"{t['adds']}:"] + [f"  - {x}" for x in grade.strong_answer_adds]
    if grade.references:
        lines += ["", f"{t['refs']}:"] + [f"  - {r}" for r in grade.references]
    if grade.note:
        lines += ["", f"{t['note']}: {grade.note}"]
    if follow_up:
        lines += ["", f"{t['follow']}: {follow_up}"]
    return strip_control("\n".join(lines))


def grade_markdown(grade: Grade, question: Question, table: bool = True) -> str:
    """Feedback as Markdown (reports; the TUI draws the rubric table itself: table=False)."""
    t = labels(grade.lang)
    out: list[str] = []
    if table:
        verdict = verdict_word(grade.verdict, grade.lang)
        out += [f"**{t['score']}: {grade.overall:.1f}/10** · {verdict} · _{word(grade.examiner, grade.lang)}_", ""]
        out += [f"| {t['criteria']} | {t['score']} | {t['evidence']} |", "|---|---|---|"]
        for c in grade.criteria:
            quote = " / ".join(f"“{_md(q)}”" for q in c.evidence) or f"_{t['none']}_"
            score = f"`{bar(c.score / c.max, 6)}` {c.score:.1f}/{c.max:g}"
            out.append(f"| {_md(c.statement or c.id)} | {score} | {quote} |")
    if grade.misconceptions:
        out += ["", f"### {t['misconceptions']}"]
        for m in grade.misconceptions:
            out.append(f"- “{_md(m.quote)}” → {_md(m.correction)} (−{m.penalty:g})")
    if grade.strong_answer_adds:
        out += ["", f"### {t['adds']}"] + [f"- {_md(x)}" for x in grade.strong_answer_adds]
    if grade.references:
        out += ["", f"### {t['refs']}"] + [f"- {_md(r)}" for r in grade.references]
    if grade.note:
        out += ["", f"_{t['note']}: {_md(grade.note)}_"]
    return strip_control("\n".join(out))


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
