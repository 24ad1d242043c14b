"""Plain-text and Markdown renderings of feedback, shared by the CLI, reports and the TUI."""

from __future__ import annotations

import re

from interviewer.bank.models import Question
from interviewer.examiners.grade import HINT_PENALTY, Grade
from interviewer.i18n import N_, ntr, tr, word
from interviewer.textsafe import strip_control

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
    "unjudged": N_("Not matched to the rubric"),
    # a row whose evidence is weak (a lone term, a split sentence, or credit by resemblance to graded examples)
    "uncertain": N_("uncertain"),
}


def labels(lang: str) -> dict[str, str]:
    """The feedback labels in `lang` (the grade's own language, whatever the UI shows)."""
    return {key: tr(text, lang) for key, text in _LABELS.items()}


UNJUDGED_SHOWN = 5  # sentences quoted under "Not matched to the rubric"; the rest are counted


def unjudged_lines(grade: Grade) -> list[str]:
    """Why the listed sentences earned nothing, the first few of them, and how many more there are."""
    lang = grade.lang
    out = [tr("These sentences are about the question but match no key point the offline examiner knows, so they "
              "earned nothing. If they state key points in your own words, grade again with the LLM examiner "
              "(--examiner llm) for a second opinion.", lang)]
    out += [f"“{s}”" for s in grade.unjudged[:UNJUDGED_SHOWN]]
    if (more := len(grade.unjudged) - UNJUDGED_SHOWN) > 0:
        out.append(ntr("… and {n} more sentence", "… and {n} more sentences", more, lang).format(n=more))
    return out


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


def score_breakdown(grade: Grade) -> str | None:
    """How the rubric rows and the penalties make the header score; None when nothing is taken off.

    e.g. "rubric 14.0/18 = 7.8 − misconceptions 2 − hints 0.5 (1 hint) = 5.3/10".
    """
    mis = sum(m.penalty for m in grade.misconceptions)
    hints = grade.hint_penalty
    total = sum(c.max for c in grade.criteria)
    if (mis <= 0 and hints <= 0) or total <= 0:
        return None
    covered = sum(min(c.score, c.max) for c in grade.criteria)
    rubric = 10.0 * covered / total
    digits = 1 if abs(round(rubric, 1) - mis - hints - grade.overall) < 0.05 or rubric - mis - hints < 0 else 2
    lang = grade.lang
    parts = [tr("rubric", lang) + f" {covered:.1f}/{total:g} = {rubric:.{digits}f}"]
    if mis > 0:
        parts.append(tr("misconceptions", lang) + f" {mis:g}")
    if hints > 0:
        n = max(1, round(hints / HINT_PENALTY))
        parts.append(tr("hints", lang) + f" {hints:g} (" + ntr("{n} hint", "{n} hints", n, lang).format(n=n) + ")")
    text = " − ".join(parts) + f" = {grade.overall:.1f}/10"
    if rubric - mis - hints < 0:
        text += " " + tr("(a score never goes below 0)", lang)
    return text


def grade_text_report(grade: Grade, question: Question, follow_up: str | None = None) -> str:
    """Feedback as plain text for terminals and screen readers (no escape sequences)."""
    t = labels(grade.lang)
    lines = [
        f"{question.id}: {t['score']} {grade.overall:.1f}/10 ({word(grade.verdict, grade.lang)})"
        f" · {word(grade.examiner, grade.lang)}",
    ]
    breakdown = score_breakdown(grade)
    if breakdown:
        lines.append(f"  {breakdown}")
    lines += ["", f"{t['criteria']}:"]
    for c in grade.criteria:
        flag = f" ({t['uncertain']})" if c.uncertain else ""
        lines.append(f"  {bar(c.score / c.max)} {c.score:.1f}/{c.max:g}{flag}  {c.statement or c.id}")
        if c.evidence:
            for q in c.evidence:
                lines.append(f'      {t["evidence"]}: "{q}"')
        else:
            lines.append(f"      ({t['none']})")
    if grade.hint_penalty:
        lines += ["", tr("Hints", grade.lang) + f": −{grade.hint_penalty:g}"]
    if grade.misconceptions:
        lines += ["", f"{t['misconceptions']}:"]
        for m in grade.misconceptions:
            lines.append(f'  - "{m.quote}" (-{m.penalty:g})')
            lines.append(f"    {t['correction']}: {m.correction}")
    if grade.unjudged:
        why, *rest = unjudged_lines(grade)
        lines += ["", f"{t['unjudged']}:", f"  {why}"] + [f"  - {x}" for x in rest]
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
    t = labels(grade.lang)
    out: list[str] = []
    breakdown = score_breakdown(grade)
    if table:
        verdict = word(grade.verdict, grade.lang)
        out += [f"**{t['score']}: {grade.overall:.1f}/10** · {verdict} · _{_md(word(grade.examiner, grade.lang))}_", ""]
        if breakdown:
            out += [_md(breakdown), ""]
        out += [f"| {t['criteria']} | {t['score']} | {t['evidence']} |", "|---|---|---|"]
        for c in grade.criteria:
            quote = " / ".join(f"“{_md(q)}”" for q in c.evidence) or f"_{t['none']}_"
            score = f"`{bar(c.score / c.max, 6)}` {c.score:.1f}/{c.max:g}" + (f" _{t['uncertain']}_" if c.uncertain else "")
            out.append(f"| {_md(c.statement or c.id)} | {score} | {quote} |")
    if breakdown and not table:
        out += [_md(breakdown)]
    if grade.misconceptions:
        out += ["", f"### {t['misconceptions']}"]
        for m in grade.misconceptions:
            out.append(f"- “{_md(m.quote)}” → {_md(m.correction)} (−{m.penalty:g})")
    if grade.unjudged:
        why, *rest = unjudged_lines(grade)
        out += ["", f"### {t['unjudged']}", _md(why), ""] + [f"- {_md(x)}" for x in rest]
    if grade.strong_answer_adds:
        out += ["", f"### {t['adds']}"] + [f"- {_md(x)}" for x in grade.strong_answer_adds]
    if grade.references:
        out += ["", f"### {t['refs']}"] + [f"- {_md(r)}" for r in grade.references]
    if conf := confidence(grade):
        out += ["", f"_{_md(conf)}_"]
    if grade.note:
        out += ["", f"_{t['note']}: {_md(grade.note)}_"]
    return strip_control("\n".join(out))


# Markdown syntax characters; escaping them (CommonMark backslash escapes) shows them as typed.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>#|~&!])")
# Block markers only count at the start of a line: lists, quotes, setext rules, "1." / "1)".
_MD_LINE_START = re.compile(r"^(?:(\d+)([.)])|([-+=>]))")


def _escape_line(line: str) -> str:
    line = _MD_INLINE.sub(r"\\\1", line)
    return _MD_LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", line)


def md_escape(text: str) -> str:
    """Text shown verbatim by a Markdown renderer, on one line (table cells, list items).

    Candidate answers and bank text are data, not Markdown: `__init__`, `<br>`,
    `</think>` and `sg(clip(r))*A*log pi` must appear exactly as written.
    """
    return _escape_line(" ".join(strip_control(text).split("\n")))


def md_verbatim(text: str) -> str:
    """Multi-line text shown verbatim by a Markdown renderer: escaped, line breaks and indentation kept."""
    out = []
    for line in strip_control(text).split("\n"):
        stripped = line.lstrip(" ")
        out.append("\u00a0" * (len(line) - len(stripped)) + _escape_line(stripped))
    # a backslash at the end of a line is a hard line break; blank lines stay paragraph breaks
    joined = ""
    for i, line in enumerate(out):
        if i:
            joined += "\\\n" if out[i - 1] and line else "\n"
        joined += line
    return joined


_md = md_escape
