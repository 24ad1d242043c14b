"""The interview engine: question -> answer -> probe(s) -> grade -> next.

No UI code here. The TUI, the plain line mode and the headless commands all
drive this one object. Every change is handed to the store before the
examiner is asked anything, so a crash never loses a submitted answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from interviewer.bank.loader import Bank
from interviewer.bank.models import Question
from interviewer.engine.record import Plan, QuestionRecord, SessionRecord, TurnRecord, now
from interviewer.examiners.base import Examiner, Exchange, Probe, Turn
from interviewer.examiners.errors import ExaminerUnavailable
from interviewer.examiners.grade import Grade
from interviewer.examiners.offline.examiner import COVERED, OfflineExaminer
from interviewer.i18n import N_, tr

log = logging.getLogger(__name__)
T = TypeVar("T")



class SessionStore(Protocol):
    """Where the engine commits the record; the SQLite store implements it."""

    def save_session(self, record: SessionRecord) -> None: ...


@dataclass
class Step:
    """What happened after a reply: a probe to stream, and/or a grade."""

    probe: Probe | None = None
    grade: Grade | None = None
    question_done: bool = False


class Interview:
    """One interview in progress, rebuilt from its record at any point."""

    def __init__(
        self,
        record: SessionRecord,
        bank: Bank,
        examiner: Examiner,
        store: SessionStore | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> None:
        missing = [q for q in record.plan.question_ids if q not in bank]
        if missing:
            raise KeyError(f"unknown question id(s): {', '.join(missing)}")
        self.record = record
        self.bank = bank
        self.examiner = examiner
        self.store = store
        self.on_notice = on_notice or (lambda _msg: None)
        self._offline = examiner if isinstance(examiner, OfflineExaminer) else OfflineExaminer()
        self._degraded = False
        # When the model may be tried again (loop time); None: not in this interview (no key, budget, the
        # candidate chose offline). A question never switches examiner halfway; the next one may.
        self._retry_at: float | None = None
        # A model that takes longer than this gets a notice; the UI may then call use_offline().
        self.slow_after: float | None = getattr(examiner, "slow_notice_after", None)
        self.slow_message = tr(N_("The model is slow, still waiting (Esc to use the offline examiner)."), record.plan.lang)
        self._waiting: asyncio.Task[object] | None = None
        self._offline_requested = False
        self.unsaved: str | None = None  # why the last save failed (disk full...); the record is kept in memory
        if not record.questions:
            record.questions = [QuestionRecord(question_id=q) for q in record.plan.question_ids]
        record.examiner = examiner.name
        claim = getattr(store, "claim", None)
        if callable(claim) and not record.finished:  # refuse now if another process has it open
            try:
                claim(record.id)
            except Exception as exc:  # a full disk cannot take the lease: go on in memory (SessionBusy is raised)
                self._save_failed(exc)
        bind = getattr(examiner, "bind_usage", None)
        if callable(bind):  # an LLM examiner adds its tokens and cost to this interview's record
            bind(record.usage)
        self._open_current()

    @classmethod
    def start(
        cls, plan: Plan, bank: Bank, examiner: Examiner, store: SessionStore | None = None, **kw: object
    ) -> Interview:
        """A new interview, saved at once: it can be resumed (with its draft) before the first answer."""
        interview = cls(SessionRecord(plan=plan), bank, examiner, store, **kw)  # type: ignore[arg-type]
        interview._save()
        return interview

    # -- state ----------------------------------------------------------------
    @property
    def plan(self) -> Plan:
        return self.record.plan

    @property
    def finished(self) -> bool:
        return self.record.finished

    @property
    def index(self) -> int:
        return self.record.current

    def current(self) -> QuestionRecord | None:
        if self.record.current >= len(self.record.questions):
            return None
        return self.record.questions[self.record.current]

    def question(self) -> Question | None:
        cur = self.current()
        return self.bank.get(cur.question_id) if cur else None

    def question_text(self) -> str:
        q = self.question()
        return q.text.get(self.plan.lang) if q else ""

    def exchange(self) -> Exchange:
        cur, q = self.current(), self.question()
        if cur is None or q is None:
            raise RuntimeError("the interview is finished")
        max_probes = self.plan.follow_ups
        if self.plan.mode == "drill" and q.rubric:
            max_probes = len(q.rubric.key_points)
        return Exchange(
            q,
            self.plan.lang,
            [Turn(t.role, t.kind, t.text, t.key_point_id) for t in cur.turns],
            max_probes=max_probes,
            hints_used=len(cur.hints),
        )

    def awaiting_answer(self) -> bool:
        cur = self.current()
        return cur is not None and cur.status == "active"

    def _save(self) -> None:
        """Commit the record; if the disk refuses (full, read-only), go on in memory and retry on every change."""
        if self.store is None:
            return
        try:
            self.store.save_session(self.record)
        except Exception as exc:  # nothing typed may be lost to a storage failure: the record stays in memory
            self._save_failed(exc)
            return
        if self.unsaved is not None:
            self.unsaved = None
            self.on_notice(tr(N_("The interview is saved again."), self.plan.lang))

    def _save_failed(self, exc: Exception) -> None:
        from interviewer.storage.db import SessionBusy

        if isinstance(exc, SessionBusy):  # another live process has this interview open: refuse, loudly
            raise exc
        log.warning("saving the interview failed: %s", exc)
        if self.unsaved is None:
            self.on_notice(tr(N_("Cannot save the interview ({why}). It goes on in memory and is saved as soon as "
                                 "the disk allows; nothing you typed is lost."), self.plan.lang).format(why=exc))
        self.unsaved = str(exc)

    def save(self) -> bool:
        """Try to commit now (e.g. on exit); True when the record is on disk."""
        self._save()
        return self.unsaved is None

    def rescue(self, path: str) -> None:
        """Write the record as a backup file `interviewer import` reads (when the store cannot take it)."""
        from interviewer.engine.rescue import write_backup

        write_backup(self.record, path)

    def _open_current(self) -> None:
        cur = self.current()
        if cur is None:
            if not self.record.finished_at:
                self.record.finished_at = now()
            return
        if cur.status == "pending":
            cur.status = "active"
            cur.started_at = now()
            cur.turns.append(TurnRecord(role="examiner", kind="question", text=self.question_text()))

    def _examiner(self) -> Examiner:
        return self._offline if self._degraded else self.examiner

    def _degrade(self, exc: Exception) -> None:
        retry_in = getattr(exc, "retry_in", None)
        self._degraded = True
        self._retry_at = None if retry_in is None else time.monotonic() + float(retry_in)
        if retry_in is None:
            text = N_("{error} — continuing with the offline examiner; nothing you wrote is lost.")
        else:
            text = N_("{error} — the offline examiner finishes this question; the model is tried again on the next "
                      "one. Nothing you wrote is lost.")
        msg = tr(text, self.plan.lang).format(error=exc)
        self.record.notes.append(msg)
        self.on_notice(msg)

    def _recover(self) -> None:
        """At a new question: back to the model once its pause is over."""
        if self._degraded and self._retry_at is not None and time.monotonic() >= self._retry_at:
            self._degraded = False
            self._retry_at = None

    def _tell(self, msg: str) -> None:
        """A notice that also goes into the record (a cut follow-up, an unenforceable budget)."""
        self.record.notes.append(msg)
        self.on_notice(msg)

    def _drain_notices(self) -> None:
        notices = getattr(self.examiner, "notices", None)
        if isinstance(notices, list):
            while notices:
                self._tell(str(notices.pop(0)))

    @property
    def waiting(self) -> bool:
        """True while the model is being waited for (use_offline() can end the wait)."""
        return self._waiting is not None and not self._waiting.done()

    def use_offline(self) -> bool:
        """The candidate stops waiting for a slow model: this and later questions use the offline examiner."""
        if not self.waiting or self._waiting is None:
            return False
        self._offline_requested = True
        self._waiting.cancel()
        return True

    async def _watched(self, call: Awaitable[T]) -> T:
        """Await an examiner call; past `slow_after` seconds say so, and let use_offline() end it."""
        if self.slow_after is None or self._degraded:
            return await call
        task: asyncio.Task[T] = asyncio.ensure_future(call)
        self._waiting = task
        self._offline_requested = False
        try:
            done, _pending = await asyncio.wait({task}, timeout=self.slow_after)
            if not done:
                self.on_notice(self.slow_message)
            return await task
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if self._offline_requested and task.cancelled() and (me is None or me.cancelling() == 0):
                raise ExaminerUnavailable(tr(N_("You chose the offline examiner instead of waiting for the model"),
                                             self.plan.lang)) from None
            task.cancel()  # the caller itself was cancelled (quit): stop the call too
            raise
        finally:
            self._waiting = None
            self._drain_notices()

    # -- actions --------------------------------------------------------------
    async def submit_answer(self, text: str) -> Step:
        """Store the answer, then ask the examiner for a probe or a grade."""
        cur = self.current()
        if cur is None or cur.status != "active":
            raise RuntimeError("no question is waiting for an answer")
        cur.turns.append(TurnRecord(role="candidate", kind="answer", text=text))
        self._save()  # committed before any examiner sees it
        interim = None
        if self.plan.mode == "drill":
            interim = await self._grade()
            cur.interim_grades.append(interim)
            self._save()
        probe = await self._next_probe()
        if probe is not None:
            return Step(probe=probe, grade=interim)
        grade = interim or await self._grade()
        return Step(grade=self._close(grade, "graded"), question_done=True)

    async def _next_probe(self) -> Probe | None:
        exchange = self.exchange()
        if self.plan.mode == "drill" and exchange.question.rubric is not None:
            coverage = self._offline.analysis(exchange).coverage()
            if all(v >= COVERED for v in coverage.values()):
                return None
        try:
            return await self._watched(self._examiner().next_probe(exchange))
        except ExaminerUnavailable as exc:
            self._degrade(exc)
            return await self._offline.next_probe(exchange)

    async def _grade(self) -> Grade:
        exchange = self.exchange()
        try:
            return await self._watched(self._examiner().grade(exchange))
        except ExaminerUnavailable as exc:
            self._degrade(exc)
            return await self._offline.grade(exchange)

    def probe_done(self, probe: Probe) -> None:
        """Commit a streamed probe (complete or cancelled, partial text kept)."""
        cur = self.current()
        if cur is None:
            return
        cur.turns.append(
            TurnRecord(
                role="examiner",
                kind="probe",
                text=probe.text,
                key_point_id=probe.key_point_id,
                cancelled=probe.cancelled,
            )
        )
        self._drain_notices()  # e.g. the follow-up was cut off: say so, it is in the record too
        self._save()

    async def stop_probing(self, last_reply: str | None = None) -> Grade:
        """The candidate ends the follow-ups: grade what is there.

        `last_reply` is text still in the answer box: it is stored as an answer
        first, so "grade now" never drops what was typed.
        """
        cur = self.current()
        if cur is None or cur.status != "active":
            raise RuntimeError("no question is waiting for an answer")
        if last_reply and last_reply.strip():
            cur.turns.append(TurnRecord(role="candidate", kind="answer", text=last_reply))
            self._save()
        grade = await self._grade()
        return self._close(grade, "graded")

    async def skip(self) -> Grade:
        return await self._give_up("skip", tr(N_("(skipped)"), self.plan.lang))

    async def dont_know(self) -> Grade:
        return await self._give_up("dont_know", tr(N_("I don't know."), self.plan.lang))

    async def _give_up(self, kind: str, text: str) -> Grade:
        cur = self.current()
        if cur is None or cur.status != "active":
            raise RuntimeError("no question is waiting for an answer")
        cur.turns.append(TurnRecord(role="candidate", kind=kind, text=text))
        self._save()
        answered = bool(cur.answers())
        grade = await self._grade() if answered else await self._offline.grade(self.exchange())
        return self._close(grade, "graded" if answered else "skipped")

    def hint(self) -> str | None:
        """Reveal one cue of the highest-weight uncovered key point; costs points."""
        cur, exchange = self.current(), self.exchange()
        rubric = exchange.question.rubric
        if cur is None or rubric is None:
            return None
        coverage = self._offline.analysis(exchange).coverage()
        open_points = [k for k in rubric.key_points if coverage[k.id] < COVERED]
        if not open_points:
            return None
        kp = open_points[len(cur.hints) % len(open_points)]
        cue = kp.cues.get(self.plan.lang)[0]
        words = [term.split("|")[0].strip().rstrip("=") for term in cue.split("+")]
        hint = " · ".join(words)
        cur.hints.append(hint)
        cur.turns.append(TurnRecord(role="examiner", kind="hint", text=hint, key_point_id=kp.id))
        self._save()
        return hint

    def _close(self, grade: Grade, status: str) -> Grade:
        cur = self.current()
        assert cur is not None
        cur.grade = grade
        cur.status = status  # type: ignore[assignment]
        cur.finished_at = now()
        self._save()
        return grade

    async def second_opinion(self, examiner: Examiner) -> Grade:
        """Grade the question just finished again with another examiner, and keep that grade beside the first.

        For an offline grade that could not judge some sentences: the model reads what the rubric's cues do not.
        """
        cur = self.current()
        if cur is None or cur.grade is None:
            raise RuntimeError("the question has no grade yet")
        bind = getattr(examiner, "bind_usage", None)
        if callable(bind):  # the model's tokens and cost count for this interview
            bind(self.record.usage)
        grade = await examiner.grade(self.exchange())
        if grade.examiner == self._offline.name:  # the model failed and the examiner fell back: no second opinion
            raise ExaminerUnavailable(grade.note or "the model did not grade the answer")
        cur.second_opinion = grade
        self._save()
        return grade

    def advance(self) -> Question | None:
        """Move to the next question (after a grade); None when the interview is over."""
        cur = self.current()
        if cur is not None and cur.status == "active":
            raise RuntimeError("the current question is not finished")
        self.record.current += 1
        self._recover()
        self._open_current()
        self._save()
        return self.question()

    def finish(self) -> None:
        """End early: remaining questions stay pending and the interview is closed."""
        if not self.record.finished_at:
            self.record.finished_at = now()
        self._save()
