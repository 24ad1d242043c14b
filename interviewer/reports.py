"""Interview reports (Markdown, self-contained HTML, JSON) and history summaries.

Built from the stored session record only, so a report looks the same
whenever and wherever it is produced.
"""

from __future__ import annotations

import html
from collections import defaultdict
from typing import Any

from interviewer.bank.loader import Bank
from interviewer.console import json_text
from interviewer.engine.record import SessionRecord
from interviewer.examiners.grade import Grade
from interviewer.i18n import N_, tr, word
from interviewer.render import (
    bar,
    grade_markdown,
    labels,
    md_escape,
    md_verbatim,
    score_breakdown,
    unjudged_lines,
)

SPEAKERS = {"candidate": N_("You"), "examiner": N_("Examiner")}
KINDS = {
    "answer": N_("answer"),
    "probe": N_("follow-up"),
    "hint": N_("hint"),
    "question": N_("question"),
    "skip": N_("skipped"),
    "dont_know": N_("I don't know"),
}


def session_summary(rec: SessionRecord) -> dict[str, Any]:
    """The per-interview shape of `history --format json`."""
    return {
        "id": rec.id,
        "start": rec.created_at,
        "end": rec.finished_at,
        "mode": rec.plan.mode,
        "lang": rec.plan.lang,
        "examiner": rec.examiner,
        "score": rec.overall(),
        "notes": rec.notes,
        "usage": rec.usage.model_dump(),
        "questions": [
            {
                "question_id": q.question_id,
                "status": q.status,
                "answers": q.answers(),
                "probes": [t.text for t in q.turns if t.kind == "probe"],
                "score": q.grade.overall if q.grade else None,
                "grade": q.grade.model_dump(mode="json") if q.grade else None,
                "second_opinion": q.second_opinion.model_dump(mode="json") if q.second_opinion else None,
            }
            for q in rec.questions
        ],
    }


def report_json(rec: SessionRecord) -> str:
    return json_text(session_summary(rec), indent=2)


def report_markdown(rec: SessionRecord, bank: Bank) -> str:
    """The interview as Markdown, in the interview's own language."""
    lang = rec.plan.lang
    overall = rec.overall()
    ended = rec.finished_at or tr("not finished", lang)
    mean = tr("mean score {score}/10", lang).format(score=f"{overall:.1f}") if overall is not None else None
    lines = [
        "# " + tr("Interview {id}", lang).format(id=rec.id),
        "",
        "- " + tr("started {start}, ended {end}", lang).format(start=rec.created_at, end=ended),
        "- "
        + tr("mode {mode}, language {lang}, examiner {examiner}", lang).format(
            mode=word(rec.plan.mode, lang), lang=lang, examiner=word(rec.examiner, lang)
        ),
        "- " + (mean or tr("not graded yet", lang)),
    ]
    for note in rec.notes:
        lines.append("- " + tr("note: {note}", lang).format(note=note))
    for n, q in enumerate(rec.questions, 1):
        question = bank.get(q.question_id) if q.question_id in bank else None
        lines += ["", f"## {n}. {q.question_id}", ""]
        if question:
            lines += [f"> {md_escape(question.text.get(rec.plan.lang))}", ""]
        for t in q.turns:
            if t.kind == "question":
                continue
            who = "**" + tr(SPEAKERS[t.role], lang) + "**"
            suffix = " _(" + tr("cancelled", lang) + ")_" if t.cancelled else ""
            # what was typed (or streamed) is data: shown as written, line breaks kept
            lines.append(f"{who} ({tr(KINDS.get(t.kind, t.kind), lang)}):\\\n{md_verbatim(t.text)}{suffix}")
            lines.append("")
        if q.grade and question:
            lines.append(grade_markdown(q.grade, question))
        if q.second_opinion and question:
            lines += ["", "### " + tr("Second opinion", lang), "", grade_markdown(q.second_opinion, question)]
    return "\n".join(lines) + "\n"


_CSS = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
.q{color:#444;font-style:italic}.turn{margin:.4rem 0;white-space:pre-wrap}.you{color:#0b5394}.ex{color:#6a329f}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;padding:.35rem;vertical-align:top;text-align:left}
.bar{background:#eee;width:8rem;height:.7rem;border-radius:.35rem;overflow:hidden;display:inline-block}
.fill{display:block;background:#2e7d32;height:100%}.quote{color:#333;font-size:.9rem}.mis{color:#b71c1c}
.score{font-size:1.1rem;font-weight:bold}
.said,.quote{white-space:pre-wrap}
body{line-break:strict;word-break:normal;overflow-wrap:break-word}
@media (prefers-color-scheme: dark){body{background:#111;color:#eee}.q,.quote{color:#bbb}.bar{background:#333}}
"""


def _grade_html(g: Grade) -> list[str]:
    """One grade as HTML: score line, rubric table, what it could not judge, misconceptions, additions, references."""
    e = html.escape
    parts: list[str] = []
    t_ = labels(g.lang)
    parts.append(f"<p class='score'>{g.overall:.1f}/10 · {e(word(g.verdict, g.lang))} · {e(word(g.examiner, g.lang))}</p>")
    breakdown = score_breakdown(g)
    if breakdown:
        parts.append(f"<p class='breakdown'>{e(breakdown)}</p>")
    heads = (tr("Criterion", g.lang), tr("Weight", g.lang), t_["score"], tr("Your words", g.lang))
    parts.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in heads) + "</tr>")
    for c in g.criteria:
        pct = round(100 * c.score / c.max)
        quotes = "<br>".join(f"“{e(x)}”" for x in c.evidence) or f"<i>{e(t_['none'])}</i>"
        flag = f" <i>{e(t_['uncertain'])}</i>" if c.uncertain else ""
        parts.append(
            f"<tr><td>{e(c.statement or c.id)}</td><td>{c.weight:g}</td>"
            f"<td><span class='bar' title='{pct}%'><span class='fill' style='width:{pct}%'></span></span> "
            f"{c.score:.1f}/{c.max:g}{flag}</td><td class='quote'>{quotes}</td></tr>"
        )
    parts.append("</table>")
    if g.unjudged:
        why, *quoted = unjudged_lines(g)
        parts.append(f"<h3>{e(t_['unjudged'])}</h3><p>{e(why)}</p><ul>")
        parts += [f"<li class='quote'>{e(x)}</li>" for x in quoted]
        parts.append("</ul>")
    if g.misconceptions:
        parts.append(f"<h3>{e(t_['misconceptions'])}</h3><ul>")
        for m in g.misconceptions:
            parts.append(f"<li class='mis'>“{e(m.quote)}” → {e(m.correction)} (−{m.penalty:g})</li>")
        parts.append("</ul>")
    if g.strong_answer_adds:
        parts.append(f"<h3>{e(t_['adds'])}</h3><ul>")
        parts += [f"<li>{e(x)}</li>" for x in g.strong_answer_adds]
        parts.append("</ul>")
    if g.references:
        parts.append(f"<h3>{e(t_['refs'])}</h3><ul>")
        parts += [f"<li>{e(r)}</li>" for r in g.references]
        parts.append("</ul>")
    return parts


def report_html(rec: SessionRecord, bank: Bank) -> str:
    """One self-contained HTML file: inline CSS, no scripts, no external resources."""
    e = html.escape
    lang = rec.plan.lang
    title = e(tr("Interview {id}", lang).format(id=rec.id))
    parts = [
        f"<!doctype html><html lang='{e(lang)}'><head><meta charset='utf-8'>",
        f"<title>{title}</title><style>{_CSS}</style></head><body>",
        f"<h1>{title}</h1>",
        f"<p>{e(rec.created_at)} · {e(word(rec.plan.mode, lang))} · {e(word(rec.examiner, lang))}",
    ]
    overall = rec.overall()
    if overall is not None:
        parts.append(f" · <span class='score'>{overall:.1f}/10</span>")
    parts.append("</p>")
    for note in rec.notes:
        parts.append(f"<p class='mis'>{e(note)}</p>")
    for n, q in enumerate(rec.questions, 1):
        question = bank.get(q.question_id) if q.question_id in bank else None
        parts.append(f"<h2>{n}. {e(q.question_id)}</h2>")
        if question:
            parts.append(f"<p class='q'>{e(question.text.get(rec.plan.lang))}</p>")
        for t in q.turns:
            if t.kind == "question":
                continue
            cls = "you" if t.role == "candidate" else "ex"
            who, kind = e(tr(SPEAKERS[t.role], lang)), e(tr(KINDS.get(t.kind, t.kind), lang))
            parts.append(f"<p class='turn'><b class='{cls}'>{who}</b> ({kind}): <span class='said'>{e(t.text)}</span></p>")
        if q.grade is not None:
            parts += _grade_html(q.grade)
        if q.second_opinion is not None:
            parts.append(f"<h3>{e(tr('Second opinion', lang))}</h3>")
            parts += _grade_html(q.second_opinion)
    parts.append("</body></html>")
    return "\n".join(parts)


def stats(records: list[SessionRecord], bank: Bank, due_count: int) -> dict[str, Any]:
    """Per-track and per-topic averages, the trend over time, and what is due."""
    by_track: dict[str, list[float]] = defaultdict(list)
    by_topic: dict[str, list[float]] = defaultdict(list)
    trend: list[dict[str, Any]] = []
    for rec in records:
        for q in rec.questions:
            if q.grade is None or q.question_id not in bank:
                continue
            question = bank.get(q.question_id)
            by_track[question.track].append(q.grade.overall)
            for topic in question.topics:
                by_topic[topic].append(q.grade.overall)
        if rec.overall() is not None:
            trend.append({"session": rec.id, "date": rec.created_at[:10], "score": rec.overall()})

    def avg(d: dict[str, list[float]]) -> dict[str, dict[str, float]]:
        return {k: {"mean": round(sum(v) / len(v), 2), "n": len(v)} for k, v in sorted(d.items())}

    return {"tracks": avg(by_track), "topics": avg(by_topic), "trend": trend, "due": due_count}


def sparkline(values: list[float], top: float = 10.0) -> str:
    ticks = "▁▂▃▄▅▆▇█"
    return "".join(ticks[min(7, int(v / top * 7.999))] for v in values)


__all__ = ["bar", "report_html", "report_json", "report_markdown", "session_summary", "sparkline", "stats"]
