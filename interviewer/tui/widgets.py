"""Small widgets of our own.

`Choice` is a one-line option cycler: ◂ value ▸. The home screen has eight
settings; as Select widgets they cost a few hundred ms of styling before the
first paint on a 2-core machine, as Choices almost nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer


class Choice(Widget, can_focus=True):
    """Pick one of several options with ←/→ (or a click)."""

    DEFAULT_CSS = """
    Choice { height: 1; width: 1fr; max-width: 70; padding: 0 1; background: $boost; }
    Choice:focus { background: $accent 30%; text-style: bold; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("right,space", "move(1)", "Next", show=False),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        """The value changed."""

        def __init__(self, choice: Choice, value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(
        self, options: Sequence[tuple[str, Any]], value: Any = None, *, id: str | None = None, empty: str = "—"
    ) -> None:
        super().__init__(id=id)
        self._options: list[tuple[str, Any]] = list(options)
        self._empty = empty
        if value is not None:
            self.set_value(value, quiet=True)

    @property
    def value(self) -> Any:
        return self._options[self.index][1] if self._options else None

    @value.setter
    def value(self, value: Any) -> None:
        self.set_value(value)

    def set_value(self, value: Any, quiet: bool = False) -> bool:
        """Select the option with this value; False when there is none."""
        for i, (_, v) in enumerate(self._options):
            if v == value:
                if quiet:
                    self.set_reactive(Choice.index, i)
                else:
                    self.index = i
                return True
        return False

    def set_options(self, options: Sequence[tuple[str, Any]]) -> None:
        current = self.value
        self._options = list(options)
        if not self.set_value(current, quiet=True):
            self.set_reactive(Choice.index, 0)
        self.refresh()
        self.post_message(self.Changed(self, self.value))

    def render(self) -> Text:
        if not self._options:
            return Text(self._empty, style="italic")
        label = self._options[self.index][0]
        return Text.assemble(("◂ ", "dim"), label, (" ▸", "dim"))

    def watch_index(self, old: int, new: int) -> None:
        if old != new:
            self.post_message(self.Changed(self, self.value))

    def action_move(self, step: int) -> None:
        if self._options:
            self.index = (self.index + step) % len(self._options)

    def on_click(self, event: events.Click) -> None:
        self.action_move(-1 if event.x < 3 else 1)


def fit_footer(footer: Footer, width: int, narrow_below: int = 80) -> None:
    """A footer for the terminal's width: below `narrow_below` columns it packs its keys tighter and
    leaves out the palette key (Ctrl+P still opens it), so the screen's own keys stay visible."""
    footer.compact = narrow = width < narrow_below
    footer.show_command_palette = not narrow
