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
from textual.screen import Screen

from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.services import Services

if TYPE_CHECKING:
    from interviewer.config import Config


class InterviewerApp(App[None]):
    """Mock interviews for RL research and RL-infrastructure roles."""

    TITLE = "interviewer"
    CSS_PATH = str(Path(__file__).with_name("interviewer.tcss"))
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "toggle_theme", "Theme"),
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        config: Config | Path | None = None,
        extra_banks: Iterable[Path] = (),
        services: Services | None = None,
    ) -> None:
        """`config` is a loaded Config, or the data directory to load it from after the first paint."""
        super().__init__()
        self.services = services or Services(config, list(extra_banks))
        self.theme = "textual-light" if self.services.theme() == "light" else "textual-dark"

    def on_mount(self) -> None:
        self.push_screen(HomeScreen())

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help: keys", "Show every key binding", self.action_help)
        yield SystemCommand("History", "Past interviews and score trends", self.action_history)
        yield SystemCommand("Toggle light/dark theme", "Switch the colour theme", self.action_toggle_theme)

    def action_help(self) -> None:
        from interviewer.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_history(self) -> None:
        from interviewer.tui.screens.history import HistoryScreen

        self.push_screen(HistoryScreen())

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

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
