"""Plain-text and Markdown renderings of feedback, shared by the CLI, reports and the TUI."""

from __future__ import annotations

from interviewer.bank.models import Question
from interviewer.examiners.grade import Grade
from interviewer.examiners.offline.text import strip_control
from interviewer.i18n import tr

LABELS = {
    "en": {
        "score": "Score", "criteria": "Rubric", "evidence": "your words", "none": "not covered",
        "misconceptions": "Misconceptions", "correction": "correction", "adds": "What a strong answer adds",
        "refs": "References", "follow": "Follow-up", "note": "Note",
    },
    "it": {
        "score": "Punteggio", "criteria": "Rubrica", "evidence": "le tue parole", "none": "non trattato",
        "misconceptions": "Errori concettuali", "correction": "correzione",
        "adds": "Cosa aggiunge una risposta forte", "refs": "Riferimenti", "follow": "Domanda di approfondimento",
        "note": "Nota",
    },
    "ja": {
        "score": "スコア", "criteria": "評価基準", "evidence": "あなたの言葉", "none": "未言及",
        "misconceptions": "誤解", "correction": "訂正", "adds": "優れた回答が加える点", "refs": "参考文献",
        "follow": "フォローアップ", "note": "注記",
    },
}


def bar(fraction: float, width: int = 10) -> str:
    """A text score bar: `███████░░░`."""
    filled = round(max(0.0, min(1.0, fraction)) * width)
    return "█" * filled + "░" * (width - filled)


def confidence(grade: Grade) -> str | None:
    """How far the self-consistency samples agreed (None for a single grade)."""
    if grade.samples < 2 or grade.spread is None:
        return None
    level = (tr("high", grade.lang) if grade.spread <= 1.0 else tr("medium", grade.lang) if grade.spread <= 2.5
             else tr("low", grade.lang))
    return tr("Confidence: {level} ({n} gradings, scores within {spread:.1f} points)", grade.lang).format(
        level=level, n=grade.samples, spread=grade.spread)


def grade_text_report(grade: Grade, question: Question, follow_up: str | None = None) -> str:
    """Feedback as plain text for terminals and screen readers (no escape sequences)."""
    t = LABELS.get(grade.lang, LABELS["en"])
    lines = [
        f"{question.id}: {t['score']} {grade.overall:.1f}/10 ({grade.verdict}) · {grade.examiner}",
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
    if conf := confidence(grade):
        lines += ["", conf]
    if grade.note:
        lines += ["", f"{t['note']}: {grade.note}"]
    if follow_up:
        lines += ["", f"{t['follow']}: {follow_up}"]
    return strip_control("\n".join(lines))


def grade_markdown(grade: Grade, question: Question, table: bool = True) -> str:
    """Feedback as Markdown (reports; the TUI draws the rubric table itself: table=False)."""
    t = LABELS.get(grade.lang, LABELS["en"])
    out: list[str] = []
    if table:
        out += [f"**{t['score']}: {grade.overall:.1f}/10** · {grade.verdict} · _{grade.examiner}_", ""]
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
    if conf := confidence(grade):
        out += ["", f"_{_md(conf)}_"]
    if grade.note:
        out += ["", f"_{t['note']}: {_md(grade.note)}_"]
    return strip_control("\n".join(out))


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
