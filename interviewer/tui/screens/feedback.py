"""Feedback for one question: rubric table with bars and quotes, misconceptions, score."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from rich import box
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from interviewer.bank.models import Question
from interviewer.console import safe
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
            Text.assemble((bar(fraction, 6), colour), f"\n{c.score:.1f}/{c.max:g}",
                          (f"\n{t['uncertain']}" if c.uncertain else "", "italic yellow"), justify="left"),
            quotes,
        )
    return table


class FeedbackScreen(Screen[None]):
    """Readable at a glance: score and verdict first, then the evidence."""

    BINDINGS = [
        Binding("n", "continue", N_("Next"), show=False),
        Binding("escape", "continue", N_("Next"), show=False),
    ]

    def __init__(
        self,
        grade: Grade,
        question: Question,
        then: str | None = None,
        due: str | None = None,
        second_opinion: Callable[[], Awaitable[Grade]] | None = None,
        heading: str | None = None,
    ) -> None:
        """`then` names what Enter leads to ("Summary", "Back to Home"); `due` is the card's next review time;
        `second_opinion` grades the answer again with the LLM examiner (key o); `heading` opens the title."""
        super().__init__()
        self.grade = grade
        self.question = question
        self.due = due
        self.heading = heading
        self._second_opinion = second_opinion
        self._asking = False
        self._bindings.bind("enter", "continue", then or _("Next question"))
        if second_opinion is not None:
            self._bindings.bind("o", "second_opinion", _("Second opinion (LLM)"))

    def compose(self) -> ComposeResult:
        g = self.grade
        score_word, _sep, _rest = tr("score {score}", g.lang).partition("{score}")
        title = Text.assemble(" ", (f"{self.heading} · " if self.heading else "", "bold"), (self.question.id, "bold"),
                              " · " + score_word, (f"{g.overall:.1f}/10", "bold"))
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
                notice = notice.format(n=len(g.unjudged), label=labels(g.lang)["unjudged"])
                if self._second_opinion is not None:
                    notice += " " + tr("Press o for a second opinion from the LLM examiner.", g.lang)
                yield Static(Text(notice, style="bold yellow"), id="unjudged-notice")
            yield Static(rubric_table(g), id="rubric-table")
            # below the table: misconceptions, what a strong answer adds, references (wrapped for CJK)
            yield Static(blocks(grade_markdown(g, self.question, table=False)), id="feedback-details")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#feedback", VerticalScroll).focus()

    def action_continue(self) -> None:
        self.dismiss(None)

    @work(group="second-opinion")
    async def action_second_opinion(self) -> None:
        """Ask the LLM examiner to grade the same answer; show its feedback on top of this one (Enter comes back).
        A press while the model is still answering is ignored (`_asking`), never a second request."""
        if self._second_opinion is None or self._asking:
            return
        self._asking = True
        self.notify(tr("Asking the model for a second opinion…", self.grade.lang), timeout=4)
        try:
            grade = await self._second_opinion()
        except Exception as exc:  # no key, no server, a refused reply: say why; the first grade stands
            message = tr("No second opinion: {error}", self.grade.lang).format(error=exc)
            self.notify(safe(message), severity="error", timeout=10, markup=False)
            return
        finally:
            self._asking = False
        heading = tr("Second opinion", grade.lang)
        self.app.push_screen(FeedbackScreen(grade, self.question, then=_("Back"), heading=heading))
