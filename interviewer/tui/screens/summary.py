"""Session summary: per-question and per-track scores, weakest points, drills, export."""

from __future__ import annotations

from collections import defaultdict

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from interviewer.engine.record import SessionRecord
from interviewer.render import bar
from interviewer.tui.services import Services


def summary_markdown(record: SessionRecord, services: Services) -> str:
    bank = services.bank()
    lines = [f"# Interview summary · {record.id}", ""]
    overall = record.overall()
    lines.append(f"**Mean score: {overall:.1f}/10**" if overall is not None else "_No question was graded._")
    lines += ["", "| Question | Score | |", "|---|---|---|"]
    by_track: dict[str, list[float]] = defaultdict(list)
    weak: list[tuple[float, str, str]] = []
    for q in record.questions:
        if q.grade is None:
            lines.append(f"| {q.question_id} | – | _{q.status}_ |")
            continue
        track: str = bank.get(q.question_id).track if q.question_id in bank else "?"
        by_track[track].append(q.grade.overall)
        lines.append(f"| {q.question_id} | {q.grade.overall:.1f} | `{bar(q.grade.overall / 10)}` |")
        for c in q.grade.criteria:
            weak.append((c.score / c.max, q.question_id, c.statement or c.id))
    if by_track:
        lines += ["", "## Per track", ""]
        for track, scores in sorted(by_track.items()):
            lines.append(f"- **{track}**: {sum(scores) / len(scores):.1f}/10 over {len(scores)} question(s)")
    weakest = sorted(weak)[:5]
    if weakest:
        lines += ["", "## Weakest key points", ""]
        lines += [f"- `{bar(f, 6)}` {qid}: {text}" for f, qid, text in weakest]
    drills = sorted(
        (q.grade.overall, q.question_id) for q in record.questions if q.grade is not None and q.grade.overall < 7
    )
    if drills:
        lines += ["", "## Suggested drills", ""]
        lines += [f"- Drill **{qid}** (scored {score:.1f}): Home → Mode: Drill" for score, qid in drills]
    return "\n".join(lines)


class SummaryScreen(Screen[None]):
    BINDINGS = [
        Binding("e", "export", "Export report (HTML)"),
        Binding("h", "home", "Home"),
        Binding("escape", "home", "Home", show=False),
    ]

    def __init__(self, services: Services, record: SessionRecord) -> None:
        super().__init__()
        self.services = services
        self.record = record

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary"):
            yield Markdown(summary_markdown(self.record, self.services))
        yield Footer()

    def action_export(self) -> None:
        from interviewer.reports import report_html

        out_dir = self.services.config.data_dir / "reports"
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"{self.record.id}.html"
        path.write_text(report_html(self.record, self.services.bank()), encoding="utf-8")
        self.notify(f"Report written to {path}", timeout=10)

    def action_home(self) -> None:
        self.dismiss(None)
