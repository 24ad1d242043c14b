"""A yes/no question."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [Binding("y", "yes", "Yes"), Binding("n,escape", "no", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(self.question)
            with Horizontal():
                yield Button("Quit (y)", variant="error", id="yes")
                yield Button("Stay (n)", variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)


class AskScreen(ModalScreen[str | None]):
    """A question with several answers: each (key, label) is a button and a key; Esc answers None."""

    BINDINGS = [Binding("escape", "answer('')", "Cancel")]

    def __init__(self, question: str, answers: list[tuple[str, str]]) -> None:
        super().__init__()
        self.question = question
        self.answers = answers
        for key, label in answers:
            self._bindings.bind(key, f"answer('{key}')", label, show=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(self.question)
            with Horizontal():
                for key, label in self.answers:
                    yield Button(f"{label} ({key})", id=f"answer-{key}", compact=True)

    def on_mount(self) -> None:
        self.query(Button).last().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "").removeprefix("answer-") or None)

    def action_answer(self, key: str) -> None:
        self.dismiss(key or None)
