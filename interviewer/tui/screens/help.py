"""Every key, in one place."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

HELP = """\
# Keys

**Esc** (or F1) closes this help.

| Where | Key | Does |
|---|---|---|
| everywhere | F1 | this help |
| everywhere | Ctrl+P | command palette |
| everywhere | F2 | light / dark theme |
| everywhere | Ctrl+Q | quit (asks first when a draft would be left; the draft is kept) |
| home | ↑ ↓ or Tab, Shift+Tab | move between the rows of the form and the buttons |
| home | ← → or Space | change the value of the row |
| home | type letters | on "Drill on": filter the questions by id, topic or words |
| home | Enter | press the focused button |
| home | Ctrl+S | start |
| home | Ctrl+R | resume the last unfinished interview |
| home | Ctrl+O | history |
| interview | Ctrl+S | submit the answer |
| interview | Esc | stop the examiner's streaming text (the partial text is kept) |
| interview | Ctrl+N | skip the question |
| interview | Ctrl+D | "I don't know" (shows what a strong answer says) |
| interview | Ctrl+T | hint: reveals one cue, costs 0.5 points |
| interview | Ctrl+E | done with follow-ups: grade now |
| feedback | Enter | next question |
| feedback | PgUp PgDn ↑ ↓ | scroll |
| summary | e (or E) | export the report as a self-contained HTML file |
| summary | h, Esc | back home |
| history | ↑ ↓ | browse interviews; the report shows below |
| history | e (or E) | export the selected interview as HTML |

The mouse works too. Answers are saved as you type and when you submit.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape", "dismiss", "Close help"), Binding("f1", "dismiss", "Close", show=False)]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(HELP)
        yield Footer()  # the help's own keys, not the screen's underneath
