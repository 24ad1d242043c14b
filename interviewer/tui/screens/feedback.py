"""Feedback for one question: rubric table with bars and quotes, misconceptions, score."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from interviewer.bank.models import Question
from interviewer.examiners.grade import Grade
from interviewer.i18n import N_, _, ntr, tr, word
from interviewer.linebreak import Wrapped
from interviewer.render import bar, grade_markdown, labels
from interviewer.tui.textblocks import blocks


def rubric_table(grade: Grade) -> Table:
    """Criterion, score bar and the candidate's own words, wrapping cleanly at 80 columns.

    Statements and quotes are `Wrapped`: broken by display width, never cut
    with "…", so Japanese stays readable in narrow columns.
    """
    t = labels(grade.lang)
    table = Table(expand=True, show_lines=True, box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(t["criteria"], ratio=5, justify="left")
    table.add_column(t["score"], width=10, no_wrap=True, justify="left")
    table.add_column(t["evidence"], ratio=4, justify="left")
    for c in grade.criteria:
        fraction = c.score / c.max
        colour = "green" if fraction >= 0.75 else "yellow" if fraction > 0 else "red"
        quotes = Wrapped("\n".join(f"“{q}”" for q in c.evidence)) if c.evidence else Wrapped(t["none"], style="italic dim")
        table.add_row(
            Wrapped(c.statement or c.id),
            Text.assemble((bar(fraction, 6), colour), f"\n{c.score:.1f}/{c.max:g}", justify="left"),
            quotes,
        )
    return table


class FeedbackScreen(Screen[None]):
    """Readable at a glance: score and verdict first, then the evidence."""

    BINDINGS = [
        Binding("n", "continue", N_("Next"), show=False),
        Binding("escape", "continue", N_("Next"), show=False),
    ]

    def __init__(self, grade: Grade, question: Question, then: str | None = None, due: str | None = None) -> None:
        """`then` names what Enter leads to ("Summary", "Back to Home"); `due` is the card's next review time."""
        super().__init__()
        self.grade = grade
        self.question = question
        self.due = due
        self._bindings.bind("enter", "continue", then or _("Next question"))

    def compose(self) -> ComposeResult:
        g = self.grade
        score_word, _sep, _rest = tr("score {score}", g.lang).partition("{score}")
        title = Text.assemble(" ", (self.question.id, "bold"), " · " + score_word, (f"{g.overall:.1f}/10", "bold"))
        title.append(f"{_rest} · {word(g.verdict, g.lang)} · {word(g.examiner, g.lang)}")
        if g.hint_penalty:
            title.append(" · " + tr("hints −{penalty}", g.lang).format(penalty=f"{g.hint_penalty:g}"))
        if self.due:
            from interviewer.storage.review import due_phrase

            title.append(" · " + due_phrase(self.due, g.lang))
        yield Static(title, id="feedback-title", classes=f"verdict-{g.verdict.replace(' ', '-')}")
        with VerticalScroll(id="feedback"):
            if g.unjudged:  # the offline grade's blind spot, said before the table a low score heads
                notice = ntr("{n} sentence about the question matched no rubric point: see “{label}” below.",
                             "{n} sentences about the question matched no rubric point: see “{label}” below.",
                             len(g.unjudged), g.lang)
                yield Static(Text(notice.format(n=len(g.unjudged), label=labels(g.lang)["unjudged"]), style="bold yellow"),
                             id="unjudged-notice")
            yield Static(rubric_table(g), id="rubric-table")
            # below the table: misconceptions, what a strong answer adds, references (wrapped for CJK)
            yield Static(blocks(grade_markdown(g, self.question, table=False)), id="feedback-details")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#feedback", VerticalScroll).focus()

    def action_continue(self) -> None:
        self.dismiss(None)
