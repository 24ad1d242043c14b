"""Feedback for one question: rubric table with bars and quotes, misconceptions, score."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from interviewer.bank.models import Question
from interviewer.examiners.grade import Grade
from interviewer.render import grade_markdown


class FeedbackScreen(Screen[None]):
    """Readable at a glance: score and verdict first, then the evidence."""

    BINDINGS = [
        Binding("enter", "continue", "Next question"),
        Binding("n", "continue", "Next", show=False),
        Binding("escape", "continue", "Next", show=False),
    ]

    def __init__(self, grade: Grade, question: Question) -> None:
        super().__init__()
        self.grade = grade
        self.question = question

    def compose(self) -> ComposeResult:
        g = self.grade
        yield Static(
            f" [b]{self.question.id}[/b] · score [b]{g.overall:.1f}/10[/b] · {g.verdict} · {g.examiner}",
            id="feedback-title",
            classes=f"verdict-{g.verdict.replace(' ', '-')}",
        )
        with VerticalScroll(id="feedback"):
            yield Markdown(grade_markdown(g, self.question))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#feedback", VerticalScroll).focus()

    def action_continue(self) -> None:
        self.dismiss(None)
