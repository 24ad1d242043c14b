"""Session summary: per-question and per-track scores, weakest points, drills, export."""

from __future__ import annotations

from collections import defaultdict

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from interviewer.engine.record import SessionRecord
from interviewer.i18n import N_, _, ngettext, word
from interviewer.render import bar, md_escape
from interviewer.tui.services import Services
from interviewer.tui.textblocks import blocks


def summary_markdown(record: SessionRecord, services: Services) -> str:
    """The session at a glance: each question with its title, score and penalties, then what to work on."""
    bank = services.bank()
    lang = record.plan.lang
    title = {"drill": _("Drill summary"), "review": _("Review summary")}.get(record.plan.mode, _("Interview summary"))
    lines = [f"# {title} · {record.id}", ""]
    overall = record.overall()
    answered = [q for q in record.questions if q.grade is not None and q.status != "skipped"]
    skipped = [q for q in record.questions if q.status == "skipped"]
    if overall is not None:
        mean = ngettext(
            "Mean score: {score}/10 over {n} answered question",
            "Mean score: {score}/10 over {n} answered questions",
            len(answered),
        ).format(score=f"{overall:.1f}", n=len(answered))
        lines.append(f"**{mean}**")
    else:
        lines.append("_" + _("No question was answered.") + "_")
    if skipped:
        lines.append("")
        lines.append(
            ngettext("{n} question skipped (not counted in the mean).", "{n} questions skipped (not counted in the mean).", len(skipped)).format(n=len(skipped))
        )
    lines += [
        "",
        "| " + " | ".join((_("Question"), _("Score"), _("Bar"), _("Penalties"))) + " |",  # no _() in f-strings
        "|---|---|---|---|",
    ]
    by_track: dict[str, list[float]] = defaultdict(list)
    weak: list[tuple[str, list[tuple[float, str]]]] = []
    for q in record.questions:
        question = bank.get(q.question_id) if q.question_id in bank else None
        name = q.question_id + (" · " + _short(question.text.get(lang), 48) if question else "")
        if q.grade is None or q.status == "skipped":
            status = _("skipped") if q.status == "skipped" else _("not answered")
            lines.append(f"| {md_escape(name)} | – | _{status}_ | |")
            continue
        g = q.grade
        by_track[question.track if question else "?"].append(g.overall)
        penalties = []
        if g.misconceptions:
            penalties.append(f"−{sum(m.penalty for m in g.misconceptions):g} " + _("misconceptions"))
        if g.hint_penalty:
            penalties.append(f"−{g.hint_penalty:g} " + _("hints"))
        score = f"{g.overall:.1f}"
        if q.second_opinion is not None:  # shown beside the grade of record, which the mean and reviews keep
            score += " (" + _("second opinion {score}").format(score=f"{q.second_opinion.overall:.1f}") + ")"
        lines.append(f"| {md_escape(name)} | {score} | `{bar(g.overall / 10)}` | {', '.join(penalties)} |")
        points = sorted((c.score / c.max, c.statement or c.id) for c in g.criteria if c.score / c.max < 0.5)
        if points:
            weak.append((q.question_id, points[:2]))
    if by_track:
        lines += ["", "## " + _("Per track"), ""]
        for track, scores in sorted(by_track.items()):
            over = ngettext("over {n} question", "over {n} questions", len(scores)).format(n=len(scores))
            lines.append(f"- **{word(track)}**: {sum(scores) / len(scores):.1f}/10 {over}")
    reviews = _next_reviews(record, services)
    if reviews:
        lines += ["", "## " + _("Next review"), "", *reviews]
    if weak:
        lines += ["", "## " + _("Weakest key points"), ""]
        for qid, points in weak:
            lines.append(f"- **{qid}**")
            lines += [f"  - `{bar(f, 6)}` {md_escape(_short(text, 90))}" for f, text in points]
    drills = sorted((q.grade.overall, q.question_id) for q in answered if q.grade is not None and q.grade.overall < 7)
    if drills:
        lines += ["", "## " + _("Suggested drills"), ""]
        lines += [
            "- " + _("Drill **{qid}** (scored {score}): Home → Mode: Drill, type {qid} in Find").format(qid=qid, score=f"{score:.1f}")
            for score, qid in drills
        ]
    return "\n".join(lines)


def _next_reviews(record: SessionRecord, services: Services) -> list[str]:
    """When each question of this session comes back for spaced-repetition review."""
    from interviewer.storage.review import due_phrase

    store = services.store()
    out = []
    for qid in dict.fromkeys(q.question_id for q in record.questions if q.grade is not None):
        due = store.card_due(qid)
        if due:
            out.append(f"- **{qid}**: {md_escape(due_phrase(due, record.plan.lang))}")
    return out


def _short(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def export_html(screen: Screen[None], services: Services, record: SessionRecord) -> None:
    """Write the interview's HTML report under the data dir; in a browser (`serve`), also open it there."""
    from interviewer.reports import report_html

    out_dir = services.config.data_dir / "reports"
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{record.id}.html"
    path.write_text(report_html(record, services.bank()), encoding="utf-8")
    screen.notify(_("Report written to {path}").format(path=path), timeout=6, markup=False)
    if screen.app.is_web:
        screen.app.deliver_text(path, open_method="browser", mime_type="text/html")


class SummaryScreen(Screen[None]):
    BINDINGS = [
        Binding("e,E", "export", N_("Export report (HTML)")),
        Binding("h", "home", N_("Home")),
        Binding("escape", "home", N_("Home"), show=False),
    ]

    def __init__(self, services: Services, record: SessionRecord) -> None:
        super().__init__()
        self.services = services
        self.record = record

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary"):
            # our own Markdown, drawn with display-width wrapping (Japanese stays readable)
            yield Static(blocks(summary_markdown(self.record, self.services)), id="summary-body")
        yield Footer()

    def action_export(self) -> None:
        export_html(self, self.services, self.record)

    def action_home(self) -> None:
        self.dismiss(None)
