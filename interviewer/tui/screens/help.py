"""Every key, in one place."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from interviewer.i18n import N_, _
from interviewer.tui.textblocks import blocks

# (where, key, what it does): one row each, so translators see short, separate texts
ROWS = [
    (N_("everywhere"), "F1", N_("this help")),
    (N_("everywhere"), "Ctrl+P", N_("command palette")),
    (N_("everywhere"), "F2", N_("light / dark theme")),
    (N_("everywhere"), "Ctrl+Q", N_("quit (asks first when a draft would be left; the draft is kept)")),
    (N_("home"), N_("↑ ↓ or Tab, Shift+Tab"), N_("move between the rows of the form and the buttons")),
    (N_("home"), N_("← → or Space"), N_("change the value of the row")),
    (N_("home"), N_("type letters"), N_("on \"Drill on\": filter the questions by id, topic or words")),
    (N_("home"), "Enter", N_("press the focused button")),
    (N_("home"), "Ctrl+S", N_("start")),
    (N_("home"), "Ctrl+R", N_("resume the last unfinished interview")),
    (N_("home"), "Ctrl+O", N_("history")),
    (N_("interview"), "Ctrl+S", N_("submit the answer")),
    (N_("interview"), "Esc", N_("stop the examiner's streaming text (the partial text is kept)")),
    (N_("interview"), "Ctrl+N", N_("skip the question")),
    (N_("interview"), "Ctrl+D", N_("\"I don't know\" (shows what a strong answer says)")),
    (N_("interview"), "Ctrl+T", N_("hint: reveals one cue, costs 0.5 points")),
    (N_("interview"), "Ctrl+E", N_("done with follow-ups: grade now")),
    (N_("feedback"), "Enter", N_("next question")),
    (N_("feedback"), "PgUp PgDn ↑ ↓", N_("scroll")),
    (N_("summary"), N_("e (or E)"), N_("export the report as a self-contained HTML file")),
    (N_("summary"), "h, Esc", N_("back home")),
    (N_("history"), "↑ ↓", N_("browse interviews; the report shows below")),
    (N_("history"), N_("Enter or r"), N_("read the report on the whole screen; Esc returns to the list")),
    (N_("history"), N_("e (or E)"), N_("export the selected interview as HTML")),
]


def help_markdown() -> str:
    """The key table in the current language."""
    head = (_("Where"), _("Key"), _("Does"))  # calls outside f-strings: Babel on Python 3.11 skips those
    lines = ["# " + _("Keys"), "", _("**Esc** (or F1) closes this help."), ""]
    lines += ["| {} | {} | {} |".format(*head), "|---|---|---|"]
    lines += [f"| {_(where)} | {_(key)} | {_(does)} |" for where, key, does in ROWS]
    lines += ["", _("The mouse works too. Answers are saved as you type and when you submit.")]
    return "\n".join(lines) + "\n"


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape", "dismiss", N_("Close help")), Binding("f1", "dismiss", N_("Close"), show=False)]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(blocks(help_markdown()))  # table cells wrap (Japanese too) instead of being cut
        yield Footer()  # the help's own keys, not the screen's underneath
