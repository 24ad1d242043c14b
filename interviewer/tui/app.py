"""The Textual app: home, interview, feedback, summary and history screens.

Only Textual and this package's light modules load before the first screen;
the bank, the store and (for an LLM examiner) litellm load in workers after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen

from interviewer.i18n import N_, _, get_language, set_language
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.services import Services
from interviewer.tui.translate import retranslate_app, screen_changed, translate_node_bindings

if TYPE_CHECKING:
    from interviewer.config import Config
    from interviewer.engine.record import Plan
    from interviewer.examiners.base import Examiner


class InterviewerApp(App[None]):
    """Mock interviews for RL research and RL-infrastructure roles."""

    TITLE = "interviewer"
    CSS_PATH = str(Path(__file__).with_name("interviewer.tcss"))
    BINDINGS = [
        Binding("f1", "help", N_("Help")),
        Binding("f2", "toggle_theme", N_("Theme")),
        Binding("ctrl+q", "request_quit", N_("Quit"), priority=True),
    ]

    def __init__(
        self,
        config: Config | Path | None = None,
        extra_banks: Iterable[Path] = (),
        services: Services | None = None,
        lang: str | None = None,
        start: tuple[Plan, Examiner] | None = None,
    ) -> None:
        """`config` is a loaded Config, or the data directory to load it from after the first paint.

        `lang` (from --lang) wins over the language remembered on Home and over config.toml.
        `start` (from `run --questions …`) opens that interview over Home at once.
        """
        super().__init__()
        self.services = services or Services(config, list(extra_banks))
        self.theme = "textual-light" if self.services.theme() == "light" else "textual-dark"
        self.forced_lang = lang
        self._start = start
        set_language(lang or self.services.lang())
        translate_node_bindings(self)

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, screen_changed)
        self.push_screen(HomeScreen())
        if self._start is not None:
            self.call_after_refresh(self._open_planned)

    def _open_planned(self) -> None:
        assert self._start is not None
        plan, examiner = self._start
        self._start = None
        self.open_interview(plan, examiner)

    def open_interview(self, plan: Plan, examiner: Examiner) -> bool:
        """Start an interview over the current screen; False (and the reason shown) when it cannot start."""
        from interviewer.console import safe
        from interviewer.tui.screens.interview import InterviewScreen

        try:
            screen = InterviewScreen.start(self.services, plan, examiner)  # saved at once: resumable from now
        except Exception as exc:  # e.g. the data directory cannot be written: the current screen stays
            self.notify(safe(str(exc)), severity="error", timeout=10, markup=False)
            return False
        self.push_screen(screen)
        return True

    def switch_language(self, lang: str) -> None:
        """The whole app, footer and command palette included, now speaks `lang`."""
        if lang == get_language():
            return
        set_language(lang)
        retranslate_app(self)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            yield command._replace(title=_(command.title), help=_(command.help))
        yield SystemCommand(_("Help: keys"), _("Show every key binding"), self.action_help)
        yield SystemCommand(_("History"), _("Past interviews and score trends"), self.action_history)
        yield SystemCommand(_("Toggle light/dark theme"), _("Switch the colour theme"), self.action_toggle_theme)

    def action_command_palette(self) -> None:
        """Textual's palette, with its placeholder in the interview language."""
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(CommandPalette(placeholder=_("Search for commands…"), id="--command-palette"))

    def action_help(self) -> None:
        from interviewer.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_history(self) -> None:
        from interviewer.tui.screens.history import HistoryScreen

        self.push_screen(HistoryScreen())

    def action_toggle_theme(self) -> None:
        """Switch light/dark and keep the choice for the next start (config.toml's `theme`)."""
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"
        problem = self.services.remember_theme("light" if self.theme == "textual-light" else "dark")
        if problem:
            from interviewer.console import safe

            self.notify(_("The theme is changed for this session only: {problem}").format(problem=safe(problem)),
                        severity="warning", markup=False)

    async def action_request_quit(self) -> None:
        """Quit; the interview screen asks first when a draft answer would be left."""
        screen = self.screen
        confirm = getattr(screen, "confirm_quit", None)
        if confirm is not None:
            await confirm()
            return
        self.exit()

    def on_unmount(self) -> None:
        self.services.close()

    def run_and_report(self) -> None:
        """Run the app, then print what could not wait for the terminal (where a rescued interview went)."""
        import sys

        self.run()
        for message in self.services.exit_messages:
            sys.stderr.write(message + "\n")
