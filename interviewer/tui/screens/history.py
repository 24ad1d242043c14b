"""History: past interviews, per-track score trends, and each interview's report."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Markdown, Sparkline, Static

from interviewer.i18n import N_, _, ngettext, word

if TYPE_CHECKING:
    from interviewer.tui.app import InterviewerApp


class HistoryScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", N_("Back")), Binding("b", "back", N_("Back"), show=False)]

    def compose(self) -> ComposeResult:
        yield Static(" [b]" + _("History") + "[/b]", id="history-title")
        with Horizontal(id="trends"):
            for track in ("algorithm", "infrastructure"):
                with Vertical(classes="trend"):
                    yield Label(word(track), id=f"label-{track}")
                    yield Sparkline([], id=f"spark-{track}", summary_function=max)
        yield DataTable(id="sessions", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="report-pane"):
            yield Markdown("_" + _("Select an interview to see its report.") + "_", id="report")
        yield Footer()

    def on_mount(self) -> None:
        app = cast("InterviewerApp", self.app)
        store, bank = app.services.store(), app.services.bank()
        self.records = store.sessions()
        table = self.query_one(DataTable)
        table.add_columns(_("id"), _("date"), _("mode"), _("examiner"), _("score"), _("questions"))
        scores: dict[str, list[float]] = {"algorithm": [], "infrastructure": []}
        for r in reversed(self.records):
            s = r.overall()
            table.add_row(
                r.id,
                r.created_at[:16].replace("T", " "),
                word(r.plan.mode) + ("" if r.finished else " " + _("(open)")),
                r.examiner,
                f"{s:.1f}" if s is not None else "–",
                ",".join(q.question_id for q in r.questions),
                key=r.id,
            )
        for r in self.records:
            for q in r.questions:
                if q.grade is not None and q.question_id in bank:
                    scores[bank.get(q.question_id).track].append(q.grade.overall)
        for track, values in scores.items():
            self.query_one(f"#spark-{track}", Sparkline).data = values or [0.0]
            over = ngettext("{score}/10 over {n} answer", "{score}/10 over {n} answers", len(values))
            mean = over.format(score=f"{sum(values) / len(values):.1f}", n=len(values)) if values else _("no answers yet")
            self.query_one(f"#label-{track}", Label).update(f"{word(track)}: {mean}")
        if not self.records:
            self.query_one("#report", Markdown).update("_" + _("No interviews yet.") + "_")
        table.focus()

    @on(DataTable.RowHighlighted)
    def _show(self, event: DataTable.RowHighlighted) -> None:
        from interviewer.reports import report_markdown

        app = cast("InterviewerApp", self.app)
        rid = event.row_key.value
        rec = next((r for r in self.records if r.id == rid), None)
        if rec is not None:
            self.query_one("#report", Markdown).update(report_markdown(rec, app.services.bank()))

    def action_back(self) -> None:
        self.dismiss(None)
