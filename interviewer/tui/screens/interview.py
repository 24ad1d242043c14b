"""The interview screen: question, streamed transcript, answer editor, timer, status."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.events import Resize
from textual.markup import escape
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, Static, TextArea

from interviewer.console import safe
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.examiners.base import Examiner, Probe
from interviewer.examiners.grade import Grade
from interviewer.i18n import N_, _, ngettext, word
from interviewer.linebreak import Wrapped
from interviewer.render import score_breakdown
from interviewer.textsafe import strip_control
from interviewer.tui.services import Services
from interviewer.tui.widgets import fit_footer

if TYPE_CHECKING:
    from interviewer.tui.app import InterviewerApp

DRAFT_KEY = "draft:{}"
# Seconds spent on the current question, so the timer continues after a resume.
TIMER_KEY = "timer:{}"
# How often an open interview renews its lease and saves its timer.
CHECKPOINT_S = 10.0


def build_plan(services: Services, choices: dict[str, Any]) -> Plan:
    """Turn the home screen's choices into a plan; ValueError says what is missing."""
    bank = services.bank()
    gradable = [q for q in bank.questions if q.rubric is not None]
    mode = choices.get("mode") or "interview"
    if mode == "drill":
        qid = choices.get("question")
        if not qid:
            raise ValueError(_("Pick a question to drill on."))
        ids = [qid]
    elif mode == "review":
        ids = [q for q, _, _ in services.store().due() if q in bank][: choices.get("count") or 5]
        if not ids:
            raise ValueError(_("Nothing is due for review yet: run an interview first."))
    else:
        track = choices.get("track") or "mix"
        pool = [q.id for q in gradable if track == "mix" or q.track == track]
        if not pool:
            raise ValueError(_("No questions with rubrics in this track."))
        n = min(int(choices.get("count") or 3), len(pool))
        ids = sorted(random.sample(pool, n), key=pool.index)
    follow_ups = choices.get("follow_ups")
    return Plan(
        question_ids=ids,
        lang=choices.get("lang") or "en",
        follow_ups=2 if follow_ups is None else int(follow_ups),
        feedback=choices.get("feedback") or "each",
        mode=mode,
    )


class Message(Static):
    """One transcript message: the speaker, then the text exactly as written.

    Broken into lines by display width (`Wrapped`), so Japanese wraps between
    characters, Latin identifiers stay whole and no line starts with "、".
    """

    def __init__(self, role: str, text: str, style: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.role = role
        self.body = text
        self.body_style = style
        self.set_text(text)

    def label(self) -> str:
        """The speaker; drill feedback has none."""
        return {"candidate": _("You:"), "examiner": _("Examiner:")}.get(self.role, "")

    @property
    def source(self) -> str:
        """What the message shows, as plain text: the speaker and the text."""
        return f"{self.label()} {self.body}".lstrip()

    def set_text(self, text: str) -> None:
        self.body = text
        label = self.label()
        shown = Text.assemble((label, "bold"), " " if label else "", (strip_control(text), self.body_style))
        self.update(Wrapped(shown))


def interim_feedback(grade: Grade) -> str:
    """Drill feedback after one reply: the score, the key points covered, and how many are still open."""
    lines = [_("Feedback on this reply: {score}/10").format(score=f"{grade.overall:.1f}")]
    breakdown = score_breakdown(grade)
    if breakdown:
        lines.append("  " + breakdown)
    missing = 0
    for c in grade.criteria:
        if c.score >= 0.75 * c.max:
            lines.append(f"  ✓ {_short(c.statement or c.id)}")
        elif c.score > 0:
            lines.append("  ◐ " + _("partly: {point}").format(point=_short(c.statement or c.id)))
        else:
            missing += 1
    if missing:
        lines.append(
            "  "
            + ngettext("{n} key point not covered yet.", "{n} key points not covered yet.", missing).format(n=missing)
        )
    if grade.unjudged:  # a drill probes on; say that the examiner may simply not know the wording
        n = len(grade.unjudged)
        lines.append("  ? " + ngettext(
            "{n} of your sentences matched no key point: the offline examiner may not know its wording.",
            "{n} of your sentences matched no key point: the offline examiner may not know their wording.", n).format(n=n))
    return "\n".join(lines)


def _short(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


class InterviewScreen(Screen[None]):
    """Answer, get probed, see feedback."""

    BINDINGS = [
        Binding("ctrl+s", "submit", N_("Submit"), priority=True),
        Binding("escape", "cancel_stream", N_("Stop stream"), priority=True),
        # priority: these win over the editor's own Ctrl keys (Ctrl+E/Ctrl+D in TextArea)
        Binding("ctrl+n", "skip", N_("Skip"), priority=True),
        Binding("ctrl+d", "dont_know", N_("Don't know"), priority=True),
        Binding("ctrl+t", "hint", N_("Hint (-0.5)"), priority=True),
        Binding("ctrl+e", "end_followups", N_("Grade now"), priority=True),
    ]
    # below 24 rows the answer box and the question give the transcript some of their lines
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]

    busy: var[bool] = var(False)  # the examiner is grading or talking: Esc means something only then

    def __init__(self, services: Services, interview: Interview) -> None:
        super().__init__()
        self.services = services
        self.interview = interview
        services.interviews.append(interview)
        self.probe: Probe | None = None
        self._question_started = services.clock()
        self._draft_timer: Any = None
        self._typed = False  # the answer box holds more than whitespace
        self._last_message: Message | None = None

    @classmethod
    def start(cls, services: Services, plan: Plan, examiner: Examiner) -> InterviewScreen:
        store = services.store()
        return cls(services, Interview.start(plan, services.bank(), examiner, store))

    @classmethod
    def resume(cls, services: Services, record: SessionRecord, examiner: Examiner) -> InterviewScreen:
        return cls(services, Interview(record, services.bank(), examiner, services.store()))

    @property
    def ia(self) -> InterviewerApp:
        return cast("InterviewerApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        yield Static("", id="question")  # Wrapped: Japanese breaks by display width
        yield VerticalScroll(id="transcript")
        yield TextArea("", id="answer", soft_wrap=True, show_line_numbers=False, tab_behavior="indent")
        yield Footer()

    def on_mount(self) -> None:
        self.ia.switch_language(self.interview.plan.lang)  # a resumed interview keeps its own language
        self.app.clear_notifications()  # an old toast must not cover the new answer box
        # server and model text: sanitised and never parsed as markup (`[/]` would crash, `[@click=...]` act)
        self.interview.on_notice = lambda msg: self.notify(safe(msg), severity="warning", timeout=10, markup=False)
        self.query_one("#answer", TextArea).border_title = _("Your answer · Ctrl+S submits")
        self._show_question(replay=True)
        self.set_interval(1.0, self._tick)
        self.set_interval(CHECKPOINT_S, self.checkpoint)

    # -- display -------------------------------------------------------------------
    def _show_question(self, replay: bool = False) -> None:
        q = self.interview.question()
        if q is None:
            return
        self._question_started = self.services.clock() - self._saved_elapsed()
        panel = self.query_one("#question", Static)
        panel.border_title = f"{q.id} · {word(q.track)} · {word(q.difficulty)}"
        panel.update(Wrapped(strip_control(self.interview.question_text())))
        transcript = self.query_one("#transcript", VerticalScroll)
        transcript.remove_children()
        cur = self.interview.current()
        if replay and cur is not None:
            for turn in cur.turns:
                if turn.kind == "question":
                    continue
                if turn.kind == "hint":
                    self._add_hint(turn.text)
                else:
                    self._add(turn.role, turn.text)
        editor = self.query_one("#answer", TextArea)
        editor.text = self.services.store().get_setting(DRAFT_KEY.format(self.interview.record.id), "") or ""
        editor.move_cursor(editor.document.end)  # a restored draft is continued, not typed in front of
        editor.focus()
        self._tick()

    def _add(self, role: str, text: str, style: str = "") -> Message:
        msg = Message(role, text, style, classes="examiner feedback" if role == "feedback" else role)
        transcript = self.query_one("#transcript", VerticalScroll)
        transcript.mount(msg)
        transcript.scroll_end(animate=False)
        self._last_message = msg
        return msg

    def status_text(self) -> str:
        rec = self.interview.record
        k = min(self.interview.index + 1, len(rec.questions))
        elapsed = int(self.services.clock() - self._question_started)
        limit = rec.plan.time_limit_s or 300
        timer = f"{elapsed // 60:02d}:{elapsed % 60:02d}"
        if elapsed > limit:
            over = _("over {minutes} min").format(minutes=limit // 60)
            timer = f"[b $warning]{timer} ({over})[/]"
        usage = ""
        examiner = self.interview.examiner
        u = getattr(examiner, "usage", None)
        if u is not None and examiner.name != "offline":
            cost = getattr(u, "cost_usd", None)
            tokens = _("tokens {prompt}+{completion}").format(
                prompt=getattr(u, "prompt_tokens", 0), completion=getattr(u, "completion_tokens", 0)
            )
            usage = f" · {tokens} · " + (f"${cost:.4f}" if isinstance(cost, float) else _("cost unknown"))
        question = _("question {k}/{n}").format(k=k, n=len(rec.questions))
        return f" {word(rec.plan.mode)} · {question} · {escape(safe(word(examiner.name)))} · {timer}{usage}"

    def _tick(self) -> None:
        self.query_one("#status", Static).update(self.status_text())

    # -- drafts --------------------------------------------------------------------
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        typed = bool(event.text_area.text.strip())
        if typed != self._typed:  # Grade now applies to a reply in the box too
            self._typed = typed
            self.refresh_bindings()
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(0.5, self.save_draft)

    def save_draft(self) -> None:
        from interviewer.storage.db import StoreError

        text = self.query_one("#answer", TextArea).text
        with contextlib.suppress(StoreError):  # a full disk: the draft stays in the editor, the engine says so
            self.services.store().set_setting(DRAFT_KEY.format(self.interview.record.id), text)
            self.save_timer()

    def save_timer(self) -> None:
        """Remember the time spent on this question, so a resume continues the timer."""
        from interviewer.storage.db import StoreError

        elapsed = max(0.0, self.services.clock() - self._question_started)
        with contextlib.suppress(StoreError):  # a full or read-only disk must not block quitting
            self.services.store().set_setting(
                TIMER_KEY.format(self.interview.record.id), {"question": self.interview.index, "elapsed": elapsed}
            )

    def _saved_elapsed(self) -> float:
        saved = self.services.store().get_setting(TIMER_KEY.format(self.interview.record.id), None)
        if isinstance(saved, dict) and saved.get("question") == self.interview.index:
            return float(saved.get("elapsed") or 0.0)
        return 0.0

    def checkpoint(self) -> None:
        """Every few seconds: renew this process's lease on the interview and save the timer."""
        if self.interview.finished:
            return
        from interviewer.storage.db import SessionBusy, StoreError

        store = self.services.store()
        try:
            store.claim(self.interview.record.id)
        except SessionBusy as exc:  # another process took it over: say so, keep the draft
            self.notify(safe(str(exc)), severity="error", timeout=10, markup=False)
            return
        except StoreError:  # a full or read-only disk: said once by the engine, not every few seconds
            return
        self.save_timer()

    def _clear_draft(self) -> None:
        from interviewer.storage.db import StoreError

        with contextlib.suppress(StoreError):  # a full or read-only disk: the engine keeps the answer and says so
            self.services.store().set_setting(DRAFT_KEY.format(self.interview.record.id), "")

    def watch_busy(self) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys appear when they mean something: Esc (stop the stream, leave a slow model) while the
        examiner is busy, Grade now once the question has an answer (or one is typed); a narrow footer keeps the rest."""
        if action == "cancel_stream":
            return self.busy
        if action == "end_followups":
            cur = self.interview.current()
            return cur is not None and (self._typed or bool(cur.answers()))
        return True

    def on_resize(self, event: Resize) -> None:
        """Under 80 columns the footer packs its keys tighter and leaves out the palette key (Ctrl+P
        still opens it), so Skip and Hint stay on screen."""
        fit_footer(self.query_one(Footer), event.size.width)

    # -- actions -------------------------------------------------------------------
    async def _settled_editor(self) -> TextArea:
        """The answer box once it has handled every key that came before this one. Ctrl+S is a priority
        binding, so it can run while keys typed just before it (a script, a paste without bracketed
        paste) still wait in the editor's queue; reading the text then would drop them."""
        editor = self.query_one("#answer", TextArea)
        handled = asyncio.Event()
        editor.call_next(handled.set)
        await handled.wait()
        return editor

    async def action_submit(self) -> None:
        editor = await self._settled_editor()
        if self.busy:
            self.notify(_("The examiner is still talking (Esc stops it)."))
            return
        text = editor.text
        if not text.strip():
            self.notify(_("Type an answer first (or Ctrl+N to skip)."), severity="warning")
            return
        editor.text = ""
        self._clear_draft()
        self._add("candidate", text)
        self.run_answer(text)

    @work(exclusive=True, group="examiner")
    async def run_answer(self, text: str) -> None:
        self.busy = True
        try:
            step = await self.interview.submit_answer(text)
            if step.grade is not None and not step.question_done:
                self._add("feedback", interim_feedback(step.grade))
            if step.probe is not None:
                await self._stream(step.probe)
                return
            if step.grade is not None:
                self._question_done(step.grade)
        except Exception as exc:
            self._examiner_error(exc)
        finally:
            self.busy = False

    async def _stream(self, probe: Probe) -> None:
        """Stream the probe into the transcript, chunk by chunk (plain text: model output is never markup)."""
        self.probe = probe
        msg = self._add("examiner", "")
        try:
            async for chunk in probe:
                msg.set_text(msg.body + chunk)
                self.query_one("#transcript", VerticalScroll).scroll_end(animate=False)
        finally:
            self.probe = None
            self.interview.probe_done(probe)
            if probe.cancelled:
                msg.add_class("cancelled")

    async def action_cancel_stream(self) -> None:
        if self.probe is not None:
            await self.probe.cancel()
            self.notify(_("Stopped. The partial follow-up is kept."))
        elif self.interview.use_offline():  # waiting for a slow model: the offline examiner takes over
            self.notify(_("Switching to the offline examiner."), markup=False)

    def action_skip(self) -> None:
        if not self.busy:
            self._give_up("skip")

    def action_dont_know(self) -> None:
        if not self.busy:
            self._give_up("dont_know")

    @work(exclusive=True, group="examiner")
    async def _give_up(self, kind: str) -> None:
        self.busy = True
        try:
            self._clear_draft()
            grade = await (self.interview.skip() if kind == "skip" else self.interview.dont_know())
            self._question_done(grade)
        finally:
            self.busy = False

    def _examiner_error(self, exc: Exception) -> None:
        """The examiner failed after the answer was stored: say so in the interview language, never as markup."""
        error = _("Examiner error: {error}. Your answer is saved.").format(error=exc)
        self.notify(safe(error), severity="error", timeout=10, markup=False)

    @work(exclusive=True, group="examiner")
    async def action_end_followups(self) -> None:
        """Grade now; a reply still in the box is submitted first, never dropped."""
        if self.busy:
            self.notify(_("The examiner is still talking (Esc stops it)."))
            return
        editor = await self._settled_editor()
        pending = editor.text if editor.text.strip() else None
        cur = self.interview.current()
        if cur is None or (not cur.answers() and pending is None):
            self.notify(_("Answer first, then end the follow-ups."))
            return
        self.busy = True
        try:
            if pending is not None:
                editor.text = ""
                self._clear_draft()
                self._add("candidate", pending)
            self._question_done(await self.interview.stop_probing(pending))
        except Exception as exc:
            self._examiner_error(exc)
        finally:
            self.busy = False

    def action_hint(self) -> None:
        hint = self.interview.hint()
        if hint is None:
            self.notify(_("No hint left: every key point is covered."))
            return
        self._add_hint(hint)

    def _add_hint(self, cue: str) -> None:
        self._add("examiner", _("Hint (−0.5 points): think about") + " " + cue, style="italic")

    def _question_done(self, grade: Grade) -> None:
        from interviewer.tui.screens.feedback import FeedbackScreen

        question = self.interview.question()
        if question is None:
            return
        rec = self.interview.record
        last = self.interview.index + 1 >= len(rec.questions)
        if self.interview.plan.feedback == "each":
            ends_drill = last and self._single_drill()
            then = _("Back to Home") if ends_drill else _("Summary") if last else _("Next question")
            due = self.services.store().card_due(question.id)
            feedback = FeedbackScreen(grade, question, then=then, due=due, second_opinion=self._second_opinion_for(grade))
            self.app.push_screen(feedback, lambda _=None: self._next())
        else:
            self._next()

    def _second_opinion_for(self, grade: Grade) -> Callable[[], Awaitable[Grade]] | None:
        """With a model configured, an offline grade can be checked by the LLM examiner from its feedback (key o)."""
        from interviewer.examiners.factory import ExaminerChoice

        if grade.examiner != "offline" or grade.verdict == "no answer":
            return None
        if not ExaminerChoice.from_config(self.services.config, "llm").model:
            return None

        async def ask() -> Grade:
            return await self.interview.second_opinion(self.services.examiner("llm"))

        return ask

    def _single_drill(self) -> bool:
        return self.interview.plan.mode == "drill" and len(self.interview.record.questions) == 1

    def _next(self) -> None:
        if self.interview.advance() is None:
            if self._single_drill() and self.interview.plan.feedback == "each":
                self.app.pop_screen()  # the feedback was the drill's result: no "interview summary"
                return
            from interviewer.tui.screens.summary import SummaryScreen

            self.app.switch_screen(SummaryScreen(self.services, self.interview.record))
            return
        self._show_question()

    async def confirm_quit(self) -> None:
        """Ask before quitting mid-answer; the draft is kept for resume either way."""
        from interviewer.tui.screens.confirm import ConfirmScreen

        self.save_timer()
        if not self.query_one("#answer", TextArea).text.strip():
            self.app.exit()
            return
        self.save_draft()

        def done(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(
            ConfirmScreen(_("Quit now? Your draft answer is saved and comes back when you resume.")), done
        )
