"""Home: choose a mode, questions, language, examiner; remembers the last choices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Static

from interviewer.console import safe
from interviewer.i18n import N_, _, get_language, ngettext, word
from interviewer.tui.widgets import Choice

if TYPE_CHECKING:
    from interviewer.tui.app import InterviewerApp

MODES = [(N_("Interview"), "interview"), (N_("Drill"), "drill"), (N_("Review (due)"), "review")]
TRACKS = [(N_("Mix"), "mix"), (N_("Algorithm"), "algorithm"), (N_("Infrastructure"), "infrastructure")]
LANGS = [("English", "en"), ("Italiano", "it"), ("日本語", "ja")]  # each in its own language
FEEDBACK = [(N_("After each question"), "each"), (N_("At the end"), "end")]
OFFLINE = N_("Offline (built-in)")
# (row id, label): the form's rows, in order ("find" is the drill picker's filter)
ROWS = [
    ("mode", N_("Mode")),
    ("track", N_("Track")),
    ("count", N_("Questions")),
    ("find", N_("Find")),
    ("question", N_("Drill on")),
    ("lang", N_("Language")),
    ("examiner", N_("Examiner")),
    ("follow_ups", N_("Follow-ups")),
    ("feedback", N_("Feedback")),
]
TRANSLATED = {"mode": MODES, "track": TRACKS, "feedback": FEEDBACK}
FOLLOW_UPS = [(str(n), n) for n in range(0, 6)]
COUNTS = [(str(n), n) for n in range(1, 11)]


def _options(options: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [(_(label), value) for label, value in options]


def question_options(bank: Any, lang: str) -> list[tuple[str, str, str]]:
    """(label in `lang`, id, lowercase haystack in every language) for each gradable question."""
    return [
        (
            f"{q.id} · {', '.join(q.topics[:2])} · {q.text.get(lang)}",
            q.id,
            " ".join([q.id, *q.topics, *(q.text.get(la) for la in ("en", "it", "ja"))]).lower(),
        )
        for q in bank.questions
        if q.rubric is not None
    ]


def _now() -> str:
    from interviewer.engine.record import now

    return now()


def resume_label(record: Any) -> str:
    """Names the interview Resume will open: "Resume · 2026-12-02 14:03 · interview · 2/3"."""
    from datetime import datetime

    started = datetime.fromisoformat(record.created_at).astimezone().strftime("%Y-%m-%d %H:%M")
    total = len(record.questions) or len(record.plan.question_ids)
    k = min(record.current + 1, total)
    return _("Resume · {date} · {mode} · question {k}/{n}").format(date=started, mode=word(record.plan.mode), k=k, n=total)


class HomeScreen(Screen[None]):
    """Start an interview, a drill or a review."""

    _all_questions: list[tuple[str, str, str]]  # (label, id, haystack) for the drill picker

    BINDINGS = [
        Binding("ctrl+s", "start", N_("Start")),
        Binding("ctrl+r", "resume", N_("Resume")),
        Binding("ctrl+o", "history", N_("History")),
        # priority: the scrolling container would otherwise take ↑/↓ for scrolling
        Binding("up", "app.focus_previous", N_("Previous row"), show=False, priority=True),
        Binding("down", "app.focus_next", N_("Next row"), show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        widgets: dict[str, Any] = {
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
                    if key == "find":
                        with Horizontal(classes="field", id="filter-row"):
                            yield Label(_(label), classes="field-label", id="label-find")
                            yield Input(placeholder=_("type to filter: id, topic or words"), id="question-filter", select_on_focus=False)
                            yield Static("", id="question-count")
                        continue
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
        lang_choice = self.query_one("#lang", Choice)
        lang_choice.set_value(get_language(), quiet=True)  # e.g. a resumed interview in another language
        lang_choice.refresh()
        self.query_one("#title", Static).update(self._title())
        for key, label in ROWS:
            self.query_one(f"#label-{key}", Label).update(_(label))
        self.query_one("#question-filter", Input).placeholder = _("type to filter: id, topic or words")
        for key, options in TRANSLATED.items():
            self.query_one(f"#{key}", Choice).set_options(_options(options))
        self.query_one("#examiner", Choice).set_options(self._examiners())
        self.query_one("#start", Button).label = _("Start")
        self.query_one("#history", Button).label = _("History")
        unfinished = getattr(self, "_unfinished", None)
        resume = self.query_one("#resume", Button)
        resume.label = resume_label(unfinished) if unfinished is not None and getattr(self, "_resume_id", None) else _("Resume")
        resume.refresh(layout=True)
        if self._all_questions:  # the drill picker shows each question in the chosen language
            self._all_questions = question_options(self.ia.services.bank(), get_language())
            self._filter_questions(self.query_one("#question-filter", Input).value)
        self._show_loaded_status()

    def _examiners(self) -> list[tuple[str, str]]:
        model = getattr(self, "_model", None)
        offline = [(_(OFFLINE), "offline")]
        return [*offline, (_("LLM: {model}").format(model=model), "llm")] if model else offline

    @property
    def ia(self) -> InterviewerApp:
        return cast("InterviewerApp", self.app)

    def on_mount(self) -> None:
        self._update_mode()
        self.query_one("#mode", Choice).focus()  # ↑/↓ (or Tab) move between rows, ←/→ change a value
        self._all_questions = []

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
            next_card = next(((q, d) for q, d in store.cards() if q in bank and d > _now()), None)
        except Exception as exc:  # shown to the user, the app stays usable for help/quit
            self.app.call_from_thread(self._show_status, Text(safe(str(exc)), style="red"))  # never markup
            return
        lang = self.ia.forced_lang or str(last.get("lang") or services.config.lang)
        questions = question_options(bank, lang)
        self.app.call_from_thread(self._loaded, questions, last, unfinished, due, next_card)

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

    def _loaded(
        self,
        questions: list[tuple[str, str, str]],
        last: dict[str, Any],
        unfinished: Any,
        due: int,
        next_card: tuple[str, str] | None,
    ) -> None:
        if not getattr(self, "_config_applied", False):
            self._config_applied = True
            self._apply_config()
        self._all_questions = questions
        self._filter_questions(self.query_one("#question-filter", Input).value)
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
        self._unfinished = unfinished
        self._resume_id = unfinished.id if unfinished else None
        resume = self.query_one("#resume", Button)
        resume.disabled = unfinished is None
        resume.label = resume_label(unfinished) if unfinished else _("Resume")
        resume.refresh(layout=True)
        self._counts = (len(questions), due, next_card)
        self._show_loaded_status()
        if getattr(self, "_start_when_loaded", False):
            self._start_when_loaded = False
            self.action_start()
        self._update_mode()

    def _show_loaded_status(self) -> None:
        counts = getattr(self, "_counts", None)
        if counts is None:
            return
        n_questions, due, next_card = counts
        status = ngettext("{n} question", "{n} questions", n_questions).format(n=n_questions)
        status += " · " + ngettext("{n} due for review", "{n} due for review", due).format(n=due)
        if next_card is not None:
            from interviewer.storage.review import due_phrase

            status += " · " + _("{question}: {when}").format(
                question=next_card[0], when=due_phrase(next_card[1], get_language())
            )
        self._show_status(status)

    # -- the drill picker: type to filter --------------------------------------------
    @on(Input.Changed, "#question-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._filter_questions(event.value)

    def _filter_questions(self, query: str) -> None:
        """Keep the questions whose id, topics or text (any language) contain every typed word."""
        terms = query.lower().split()
        matches = [(label, qid) for label, qid, hay in self._all_questions if all(t in hay for t in terms)]
        picker = self.query_one("#question", Choice)
        picker._empty = _("(no question matches)") if self._all_questions else picker._empty
        picker.set_options(matches)
        self.query_one("#question-count", Static).update(f"{len(matches)}/{len(self._all_questions)}")

    def on_key(self, event: events.Key) -> None:
        """Typing on the drill picker goes to its filter."""
        picker = self.query_one("#question", Choice)
        if self.focused is picker and event.is_printable and event.character and event.character != " ":
            box = self.query_one("#question-filter", Input)
            box.focus()
            box.value += event.character
            box.cursor_position = len(box.value)
            event.stop()

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
        self.query_one("#filter-row").display = mode == "drill"
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
        """Start; with an interview still open, ask first whether to abandon it or keep it for later.

        Pressed before the loader has read the store (the first fraction of a second), the start waits
        for it: otherwise it would not know about the open interview, nor the choices made last time."""
        if not getattr(self, "_config_applied", False):
            self._start_when_loaded = True
            return
        open_id = getattr(self, "_resume_id", None)
        if not open_id:
            self._start()
            return
        from interviewer.tui.screens.confirm import AskScreen

        def answered(choice: str | None) -> None:
            if choice == "a":
                self._abandon(open_id)
            if choice in ("a", "k"):
                self._start()

        label = self.query_one("#resume", Button).label
        self.app.push_screen(
            AskScreen(
                _("An interview is still open ({label}). Abandon it, or keep it to resume later?").format(
                    label=str(label).removeprefix(_("Resume")).strip(" ·")
                ),
                [("a", _("Abandon it")), ("k", _("Keep for later")), ("c", _("Cancel"))],
            ),
            answered,
        )

    def _abandon(self, session_id: str) -> None:
        """Close an open interview for good: it stays in History, marked abandoned."""
        from interviewer.engine.record import now

        store = self.ia.services.store()
        try:
            record = store.load_session(session_id)
            record.finished_at = now()
            record.notes.append(_("abandoned: a new interview was started"))
            store.save_session(record)
        except Exception as exc:  # e.g. another process has it open: it stays open
            self.notify(safe(str(exc)), severity="warning", timeout=8, markup=False)
            return
        self._resume_id = None
        resume = self.query_one("#resume", Button)
        resume.disabled, resume.label = True, _("Resume")
        self._unfinished = None

    def _start(self) -> None:
        from interviewer.tui.screens.interview import build_plan

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
        if self.ia.open_interview(plan, examiner):
            self._resume_id = None  # "keep for later" leaves it in History; the new one is resumed next

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
        try:
            screen = InterviewScreen.resume(services, record, services.examiner(kind))
        except Exception as exc:  # another process has it open (SessionBusy), or a config problem
            self.notify(safe(str(exc)), severity="error", timeout=10, markup=False)
            return
        self.app.push_screen(screen)

    @on(Button.Pressed, "#history")
    def action_history(self) -> None:
        self.ia.action_history()

    def on_screen_resume(self) -> None:
        # after the screen is drawn: loading competes with the first paint for the GIL
        self.set_timer(0.05, self.load_data)
