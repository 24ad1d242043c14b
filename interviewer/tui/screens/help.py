"""Every key, in one place."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from interviewer.i18n import N_, _

# (where, key, what it does): one row each, so translators see short, separate texts
ROWS = [
    (N_("everywhere"), "F1", N_("this help")),
    (N_("everywhere"), "Ctrl+P", N_("command palette")),
    (N_("everywhere"), "F2", N_("light / dark theme")),
    (N_("everywhere"), "Ctrl+Q", N_("quit (asks first when a draft would be left; the draft is kept)")),
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
    (N_("summary"), "E", N_("export the report as a self-contained HTML file")),
    (N_("history"), "↑ ↓", N_("browse interviews; the report shows below")),
]


def help_markdown() -> str:
    """The key table in the current language."""
    head = (_("Where"), _("Key"), _("Does"))  # calls outside f-strings: Babel on Python 3.11 skips those
    lines = ["# " + _("Keys"), "", "| {} | {} | {} |".format(*head), "|---|---|---|"]
    lines += [f"| {_(where)} | {key} | {_(does)} |" for where, key, does in ROWS]
    lines += ["", _("The mouse works too. Answers are saved as you type and when you submit.")]
    return "\n".join(lines) + "\n"


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape", "dismiss", N_("Close")), Binding("f1", "dismiss", N_("Close"), show=False)]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(help_markdown())
