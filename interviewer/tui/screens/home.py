"""Home: choose a mode, questions, language, examiner; remembers the last choices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Static

from interviewer.console import safe
from interviewer.tui.widgets import Choice

if TYPE_CHECKING:
    from interviewer.tui.app import InterviewerApp

MODES = [("Interview", "interview"), ("Drill", "drill"), ("Review (due)", "review")]
TRACKS = [("Mix", "mix"), ("Algorithm", "algorithm"), ("Infrastructure", "infrastructure")]
LANGS = [("English", "en"), ("Italiano", "it"), ("日本語", "ja")]
FEEDBACK = [("After each question", "each"), ("At the end", "end")]
FOLLOW_UPS = [(str(n), n) for n in range(0, 6)]
COUNTS = [(str(n), n) for n in range(1, 11)]


class HomeScreen(Screen[None]):
    """Start an interview, a drill or a review."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start"),
        Binding("ctrl+r", "resume", "Resume"),
        Binding("ctrl+o", "history", "History"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="home"):
            yield Static("[b]interviewer[/b] · mock interviews for RL research and RL infrastructure", id="title")
            with Vertical(classes="form"):
                yield self._row("Mode", Choice(MODES, value="interview", id="mode"))
                yield self._row("Track", Choice(TRACKS, value="mix", id="track"))
                yield self._row("Questions", Choice(COUNTS, value=3, id="count"))
                yield self._row("Drill on", Choice([], id="question", empty="(loading questions…)"))
                yield self._row("Language", Choice(LANGS, value="en", id="lang"))
                yield self._row("Examiner", Choice([("Offline (built-in)", "offline")], value="offline", id="examiner"))
                yield self._row("Follow-ups", Choice(FOLLOW_UPS, value=2, id="follow_ups"))
                yield self._row("Feedback", Choice(FEEDBACK, value="each", id="feedback"))
            yield Static("", id="home-status")
            with Horizontal(id="home-buttons"):
                yield Button("Start", variant="primary", id="start", compact=True)
                yield Button("Resume", id="resume", disabled=True, compact=True)
                yield Button("History", id="history", compact=True)
        yield Footer()

    @staticmethod
    def _row(label: str, widget: Any) -> Horizontal:
        return Horizontal(Label(label, classes="field-label"), widget, classes="field")

    @property
    def ia(self) -> InterviewerApp:
        return cast("InterviewerApp", self.app)

    def on_mount(self) -> None:
        self._update_mode()

    def _apply_config(self) -> None:
        cfg = self.ia.services.config
        self.query_one("#lang", Choice).value = cfg.lang
        self.query_one("#follow_ups", Choice).value = cfg.follow_ups
        if cfg.model:
            self.query_one("#examiner", Choice).set_options(
                [("Offline (built-in)", "offline"), (f"LLM: {cfg.model}", "llm")]
            )
            self.query_one("#examiner", Choice).value = cfg.examiner
            if cfg.examiner == "llm":
                self.warm_llm()

    @work(thread=True, exclusive=True, group="load")
    def load_data(self) -> None:
        """Bank, store and last choices, after the first paint."""
        services = self.ia.services
        try:
            services.config  # noqa: B018 - validates config.toml; errors are shown below
            bank = services.bank()
            store = services.store()
            last = store.get_setting("home", {})
            unfinished = store.latest_unfinished()
            due = len(store.due())
        except Exception as exc:  # shown to the user, the app stays usable for help/quit
            self.app.call_from_thread(self._show_status, Text(safe(str(exc)), style="red"))  # never markup
            return
        options = [(f"{q.id} · {q.text.get('en')[:60]}", q.id) for q in bank.questions if q.rubric is not None]
        self.app.call_from_thread(self._loaded, options, last, unfinished.id if unfinished else None, due)

    @work(thread=True, group="warm")
    def warm_llm(self) -> None:
        """Import litellm in the background so the first LLM call does not pay for it."""
        try:
            from interviewer.examiners.llm import client

            warm = getattr(client, "warm_up", None)
            if warm is not None:
                warm()
        except Exception:  # the error surfaces, with a message, when the examiner is built
            return

    def _loaded(self, options: list[tuple[str, str]], last: dict[str, Any], resume_id: str | None, due: int) -> None:
        if not getattr(self, "_config_applied", False):
            self._config_applied = True
            self._apply_config()
        self.query_one("#question", Choice).set_options(options)
        for key in ("mode", "track", "lang", "examiner", "follow_ups", "feedback", "question"):
            value = last.get(key)
            if value is None:
                continue
            self.query_one(f"#{key}", Choice).set_value(value)  # ignored if no longer offered
        if "count" in last:
            self.query_one("#count", Choice).set_value(last["count"])
        self._resume_id = resume_id
        resume = self.query_one("#resume", Button)
        resume.disabled = resume_id is None
        resume.label = f"Resume {resume_id}" if resume_id else "Resume"
        self._show_status(f"{len(options)} questions · {due} due for review")
        self._update_mode()

    def _show_status(self, text: str | Text) -> None:
        self.query_one("#home-status", Static).update(text)

    @on(Choice.Changed, "#mode")
    def _mode_changed(self) -> None:
        self._update_mode()

    def _update_mode(self) -> None:
        mode = self.query_one("#mode", Choice).value
        self.query_one("#question", Choice).parent.display = mode == "drill"  # type: ignore[union-attr]
        self.query_one("#count", Choice).parent.display = mode != "drill"  # type: ignore[union-attr]
        self.query_one("#track", Choice).parent.display = mode == "interview"  # type: ignore[union-attr]

    def choices(self) -> dict[str, Any]:
        def val(sel: str) -> Any:
            return self.query_one(sel, Choice).value

        return {
            "mode": val("#mode"),
            "track": val("#track"),
            "count": val("#count"),
            "question": val("#question"),
            "lang": val("#lang"),
            "examiner": val("#examiner"),
            "follow_ups": val("#follow_ups"),
            "feedback": val("#feedback"),
        }

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        from interviewer.tui.screens.interview import InterviewScreen, build_plan

        services = self.ia.services
        choices = self.choices()
        try:
            plan = build_plan(services, choices)
        except ValueError as exc:
            self.notify(safe(str(exc)), severity="warning", markup=False)
            return
        try:
            examiner = services.examiner(choices["examiner"])
        except Exception as exc:  # config problems: say what to fix
            self.notify(safe(str(exc)), severity="error", timeout=8, markup=False)
            return
        services.store().set_setting("home", choices)
        self.app.push_screen(InterviewScreen.start(services, plan, examiner))

    @on(Button.Pressed, "#resume")
    def action_resume(self) -> None:
        from interviewer.tui.screens.interview import InterviewScreen

        resume_id = getattr(self, "_resume_id", None)
        if not resume_id:
            self.notify("There is no unfinished interview.")
            return
        services = self.ia.services
        record = services.store().load_session(resume_id)
        kind = "llm" if record.examiner not in ("offline",) and services.config.model else "offline"
        self.app.push_screen(InterviewScreen.resume(services, record, services.examiner(kind)))

    @on(Button.Pressed, "#history")
    def action_history(self) -> None:
        self.ia.action_history()

    def on_screen_resume(self) -> None:
        # after the screen is drawn: loading competes with the first paint for the GIL
        self.set_timer(0.05, self.load_data)
