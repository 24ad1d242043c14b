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
from interviewer.i18n import N_, _, ngettext
from interviewer.tui.widgets import Choice

if TYPE_CHECKING:
    from interviewer.tui.app import InterviewerApp

MODES = [(N_("Interview"), "interview"), (N_("Drill"), "drill"), (N_("Review (due)"), "review")]
TRACKS = [(N_("Mix"), "mix"), (N_("Algorithm"), "algorithm"), (N_("Infrastructure"), "infrastructure")]
LANGS = [("English", "en"), ("Italiano", "it"), ("日本語", "ja")]  # each in its own language
FEEDBACK = [(N_("After each question"), "each"), (N_("At the end"), "end")]
OFFLINE = N_("Offline (built-in)")
# (row id, label): the form's rows, in order
ROWS = [
    ("mode", N_("Mode")),
    ("track", N_("Track")),
    ("count", N_("Questions")),
    ("question", N_("Drill on")),
    ("lang", N_("Language")),
    ("examiner", N_("Examiner")),
    ("follow_ups", N_("Follow-ups")),
    ("feedback", N_("Feedback")),
]
TRANSLATED = {"mode": MODES, "track": TRACKS, "feedback": FEEDBACK}


def _options(options: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [(_(label), value) for label, value in options]
FOLLOW_UPS = [(str(n), n) for n in range(0, 6)]
COUNTS = [(str(n), n) for n in range(1, 11)]


class HomeScreen(Screen[None]):
    """Start an interview, a drill or a review."""

    BINDINGS = [
        Binding("ctrl+s", "start", N_("Start")),
        Binding("ctrl+r", "resume", N_("Resume")),
        Binding("ctrl+o", "history", N_("History")),
    ]

    def compose(self) -> ComposeResult:
        from interviewer.i18n import get_language

        widgets: dict[str, Choice] = {
            "mode": Choice(_options(MODES), value="interview", id="mode"),
            "track": Choice(_options(TRACKS), value="mix", id="track"),
            "count": Choice(COUNTS, value=3, id="count"),
            "question": Choice([], id="question", empty=_("(loading questions…)")),
            "lang": Choice(LANGS, value=get_language(), id="lang"),
            "examiner": Choice([(_(OFFLINE), "offline")], value="offline", id="examiner"),
            "follow_ups": Choice(FOLLOW_UPS, value=2, id="follow_ups"),
            "feedback": Choice(_options(FEEDBACK), value="each", id="feedback"),
        }
        with VerticalScroll(id="home"):
            yield Static(self._title(), id="title")
            with Vertical(classes="form"):
                for key, label in ROWS:
                    yield Horizontal(
                        Label(_(label), classes="field-label", id=f"label-{key}"), widgets[key], classes="field"
                    )
            yield Static("", id="home-status")
            with Horizontal(id="home-buttons"):
                yield Button(_("Start"), variant="primary", id="start", compact=True)
                yield Button(_("Resume"), id="resume", disabled=True, compact=True)
                yield Button(_("History"), id="history", compact=True)
        yield Footer()

    @staticmethod
    def _title() -> str:
        return "[b]interviewer[/b] · " + _("mock interviews for RL research and RL infrastructure")

    def retranslate(self) -> None:
        """Every label of the form in the language just chosen."""
        from interviewer.i18n import get_language

        lang_choice = self.query_one("#lang", Choice)
        lang_choice.set_value(get_language(), quiet=True)  # e.g. a resumed interview in another language
        lang_choice.refresh()
        self.query_one("#title", Static).update(self._title())
        for key, label in ROWS:
            self.query_one(f"#label-{key}", Label).update(_(label))
        for key, options in TRANSLATED.items():
            self.query_one(f"#{key}", Choice).set_options(_options(options))
        self.query_one("#examiner", Choice).set_options(self._examiners())
        self.query_one("#start", Button).label = _("Start")
        self.query_one("#history", Button).label = _("History")
        self._label_resume()
        self._show_loaded_status()

    def _examiners(self) -> list[tuple[str, str]]:
        model = getattr(self, "_model", None)
        offline = [(_(OFFLINE), "offline")]
        return [*offline, (_("LLM: {model}").format(model=model), "llm")] if model else offline

    def _label_resume(self) -> None:
        resume_id = getattr(self, "_resume_id", None)
        button = self.query_one("#resume", Button)
        button.label = _("Resume {id}").format(id=resume_id) if resume_id else _("Resume")

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
            self._model = cfg.model
            self.query_one("#examiner", Choice).set_options(self._examiners())
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
        forced = self.ia.forced_lang
        if forced:
            self.query_one("#lang", Choice).set_value(forced)
        self._resume_id = resume_id
        self.query_one("#resume", Button).disabled = resume_id is None
        self._label_resume()
        self._counts = (len(options), due)
        self._show_loaded_status()
        self._update_mode()

    def _show_loaded_status(self) -> None:
        counts = getattr(self, "_counts", None)
        if counts is None:
            return
        questions = ngettext("{n} question", "{n} questions", counts[0]).format(n=counts[0])
        due = ngettext("{n} due for review", "{n} due for review", counts[1]).format(n=counts[1])
        self._show_status(f"{questions} · {due}")

    def _show_status(self, text: str | Text) -> None:
        self.query_one("#home-status", Static).update(text)

    @on(Choice.Changed, "#mode")
    def _mode_changed(self) -> None:
        self._update_mode()

    @on(Choice.Changed, "#lang")
    def _lang_changed(self, event: Choice.Changed) -> None:
        self.ia.switch_language(str(event.value))

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
            self.notify(_("There is no unfinished interview."))
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
