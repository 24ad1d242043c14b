"""History: past interviews, per-track score trends, and each interview's report."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Markdown, Static

from interviewer.i18n import N_, _, ngettext, word
from interviewer.tui.widgets import fit_footer

if TYPE_CHECKING:
    from interviewer.tui.app import InterviewerApp


def _bars(values: list[float]) -> str:
    """Two rows of block characters, one column per score, on a fixed 0-10 scale."""
    ticks = " ▁▂▃▄▅▆▇█"
    top, bottom = "", ""
    for v in values:
        eighths = round(max(0.0, min(10.0, v)) / 10 * 16)
        bottom += ticks[min(8, eighths)] if eighths else "▁"
        top += ticks[max(0, eighths - 8)]
    return top + "\n" + bottom


class ReportPane(VerticalScroll):
    """The selected interview's report; it can take the whole screen (containers cannot by default)."""

    ALLOW_MAXIMIZE = True


class HistoryScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("b", "back", N_("Back"), show=False),
        Binding("r,R", "read", N_("Read report")),
        Binding("e,E", "export", N_("Export report (HTML)")),
    ]
    # Under 30 rows the table gives its lines to the report (80x24 left it about five).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    ESCAPE_TO_MINIMIZE = False  # action_back restores the list and its focus

    def compose(self) -> ComposeResult:
        yield Static(" [b]" + _("History") + "[/b]", id="history-title")
        with Horizontal(id="trends"):
            for track in ("algorithm", "infrastructure"):
                with Vertical(classes="trend"):
                    yield Static(word(track), id=f"label-{track}", classes="trend-label")  # wraps when narrow
                    # a fixed 0-10 scale (Textual's Sparkline rescales to the data's own min..max)
                    yield Static("", id=f"spark-{track}", classes="spark")
        yield Label(_("score 0–10 per answer, oldest → newest"), id="trend-axis")
        yield DataTable(id="sessions", cursor_type="row", zebra_stripes=True)
        with ReportPane(id="report-pane"):
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
                word(r.examiner),
                f"{s:.1f}" if s is not None else "–",
                ",".join(q.question_id for q in r.questions),
                key=r.id,
            )
        for r in self.records:
            for q in r.questions:
                if q.grade is not None and q.question_id in bank:
                    scores[bank.get(q.question_id).track].append(q.grade.overall)
        for track, values in scores.items():
            self.query_one(f"#spark-{track}", Static).update(_bars(values[-60:]))
            mean = (
                ngettext("mean {score}/10 over {n} answer", "mean {score}/10 over {n} answers", len(values)).format(
                    score=f"{sum(values) / len(values):.1f}", n=len(values)
                )
                + " · "
                + _("last {score}").format(score=f"{values[-1]:.1f}")
                if values
                else _("no answers yet")
            )
            self.query_one(f"#label-{track}", Static).update(Text(f"{word(track)}: {mean}"))
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
            self.selected = rec
            self.query_one("#report", Markdown).update(report_markdown(rec, app.services.bank()))

    @on(DataTable.RowSelected)
    def _read_selected(self) -> None:
        self.action_read()

    def action_read(self) -> None:
        """The report on the whole screen, focused for scrolling (Esc gives the table back)."""
        if getattr(self, "selected", None) is None:
            self.notify(_("Select an interview first."))
            return
        pane = self.query_one("#report-pane", ReportPane)
        self.maximize(pane, container=False)
        pane.focus()

    def action_export(self) -> None:
        """The selected interview as a self-contained HTML file in the data dir's reports/."""
        from interviewer.tui.screens.summary import export_html

        rec = getattr(self, "selected", None)
        if rec is None:
            self.notify(_("Select an interview first."))
            return
        export_html(self, cast("InterviewerApp", self.app).services, rec)

    def on_resize(self, event: Resize) -> None:
        """History has more keys than the interview; its Japanese and Italian labels need 100 columns."""
        fit_footer(self.query_one(Footer), event.size.width, narrow_below=100)

    def action_back(self) -> None:
        if self.maximized is not None:
            self.minimize()
            self.query_one(DataTable).focus()
            return
        self.dismiss(None)
