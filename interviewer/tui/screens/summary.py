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
from interviewer.render import bar
from interviewer.tui.services import Services
from interviewer.tui.textblocks import blocks

# question states shown when a question has no grade
STATUS = {"pending": N_("pending"), "active": N_("in progress"), "skipped": N_("skipped"), "graded": N_("graded")}


def summary_markdown(record: SessionRecord, services: Services) -> str:
    bank = services.bank()
    lines = [_("# Interview summary · {id}").format(id=record.id), ""]
    overall = record.overall()
    mean = _("Mean score: {score}/10").format(score=f"{overall:.1f}") if overall is not None else ""
    lines.append(f"**{mean}**" if overall is not None else "_" + _("No question was graded.") + "_")
    lines += ["", "| " + _("Question") + " | " + _("Score") + " | |", "|---|---|---|"]
    by_track: dict[str, list[float]] = defaultdict(list)
    weak: list[tuple[float, str, str]] = []
    for q in record.questions:
        if q.grade is None:
            lines.append(f"| {q.question_id} | – | _{_(STATUS.get(q.status, q.status))}_ |")
            continue
        track: str = bank.get(q.question_id).track if q.question_id in bank else "?"
        by_track[track].append(q.grade.overall)
        lines.append(f"| {q.question_id} | {q.grade.overall:.1f} | `{bar(q.grade.overall / 10)}` |")
        for c in q.grade.criteria:
            weak.append((c.score / c.max, q.question_id, c.statement or c.id))
    if by_track:
        lines += ["", "## " + _("Per track"), ""]
        for track, scores in sorted(by_track.items()):
            over = ngettext("{score}/10 over {n} question", "{score}/10 over {n} questions", len(scores))
            lines.append(f"- **{word(track)}**: " + over.format(score=f"{sum(scores) / len(scores):.1f}", n=len(scores)))
    weakest = sorted(weak)[:5]
    if weakest:
        lines += ["", "## " + _("Weakest key points"), ""]
        lines += [f"- `{bar(f, 6)}` {qid}: {text}" for f, qid, text in weakest]
    drills = sorted(
        (q.grade.overall, q.question_id) for q in record.questions if q.grade is not None and q.grade.overall < 7
    )
    if drills:
        lines += ["", "## " + _("Suggested drills"), ""]
        drill = _("Drill **{id}** (scored {score}): Home → Mode: Drill")
        lines += ["- " + drill.format(id=qid, score=f"{score:.1f}") for score, qid in drills]
    return "\n".join(lines)


class SummaryScreen(Screen[None]):
    BINDINGS = [
        Binding("e", "export", N_("Export report (HTML)")),
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
        from interviewer.reports import report_html

        out_dir = self.services.config.data_dir / "reports"
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"{self.record.id}.html"
        path.write_text(report_html(self.record, self.services.bank()), encoding="utf-8")
        self.notify(_("Report written to {path}").format(path=path), timeout=10)

    def action_home(self) -> None:
        self.dismiss(None)
