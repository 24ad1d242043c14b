"""LLMExaminer: adaptive probes and evidence-grounded rubric grading through LiteLLM.

It honours the Examiner contract of the offline examiner and leans on it:
an unanswered question, an unusable reply or a rejected request gets the
offline result for that question (labelled in Grade.note), and an
unreachable model, a missing key or a spent budget raises
ExaminerUnavailable, on which the engine switches to offline and says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from interviewer.examiners.base import Examiner, Exchange, Probe, Turn
from interviewer.examiners.errors import BudgetExceeded
from interviewer.examiners.grade import Grade
from interviewer.examiners.llm import prompts
from interviewer.examiners.llm.client import (
    Completion,
    LLMClient,
    OpenStream,
    RequestFailed,
    chunk_finished,
    chunk_text,
    chunk_usage,
)
from interviewer.examiners.llm.errors import redact
from interviewer.examiners.llm.grading import (
    ReplyError,
    build_grade,
    combine_samples,
    grade_schema,
    parse_reply,
)
from interviewer.examiners.llm.policy import RetryPolicy
from interviewer.examiners.llm.runtime import aload_litellm
from interviewer.examiners.llm.sanitize import StreamSanitizer, scrub
from interviewer.examiners.llm.structured import schema_mode
from interviewer.examiners.llm.tokens import (
    CallUsage,
    ModelInfo,
    TokenCounter,
    UsageMeter,
    UsageSink,
    format_cost,
    model_info,
)
from interviewer.examiners.offline.examiner import OfflineExaminer

if TYPE_CHECKING:
    from interviewer.examiners.factory import ExaminerChoice

log = logging.getLogger(__name__)

PROBE_MAX_TOKENS = 160
GRADE_MAX_TOKENS = 1200
HEADER_LIMIT = 80  # characters read before deciding whether the first line is the key point id
_HEADER = re.compile(r"^[\s\[(`'\"*]*(?:id\s*[:=]\s*)?([A-Za-z0-9][A-Za-z0-9_-]*)[\])`'\"*:.]*\s*$")


class LLMExaminer(Examiner):
    """Probes and grades with a model reached through litellm."""

    def __init__(
        self,
        model: str,
        api_base: str | None = None,
        fallback_models: list[str] | None = None,
        max_cost: float | None = None,
        policy: RetryPolicy | None = None,
        *,
        context_window: int | None = None,
        probe_max_tokens: int = PROBE_MAX_TOKENS,
        grade_max_tokens: int = GRADE_MAX_TOKENS,
        samples: int = 1,
    ) -> None:
        self.name = model
        self.samples = max(1, samples)  # grades per answer; the model's own temperature makes them differ
        self.client = LLMClient(model, api_base, fallback_models, policy)
        self.max_cost = max_cost
        self.meter = UsageMeter()
        self.notices: list[str] = []  # things worth telling the user (interrupted streams, unpriced budget)
        self.context_window = context_window
        self.probe_max_tokens = probe_max_tokens
        self.grade_max_tokens = grade_max_tokens
        self._offline = OfflineExaminer()
        self._prefixes: dict[tuple[str, str], str] = {}
        self._info: dict[str, ModelInfo] = {}
        self._counters: dict[str, TokenCounter] = {}
        self._no_schema: set[str] = set()
        self._budget_hit: str | None = None
        self._warned_unpriced = False
        self._drains: set[asyncio.Task[None]] = set()

    @classmethod
    def from_choice(cls, choice: ExaminerChoice) -> LLMExaminer:
        """Build from the factory's ExaminerChoice (model, api_base, fallbacks, max_cost, timeout)."""
        if not choice.model:
            raise ValueError("the LLM examiner needs a model")
        return cls(
            model=choice.model,
            api_base=choice.api_base,
            fallback_models=list(choice.fallback_models),
            max_cost=choice.max_cost,
            policy=RetryPolicy.for_timeout(choice.timeout),
            samples=choice.samples,
        )

    def bind_usage(self, sink: UsageSink) -> None:
        """Add this examiner's tokens and cost to an interview record's Usage from now on."""
        self.meter.sink = sink

    @property
    def usage(self) -> UsageSink:
        return self.meter.sink

    # -- helpers ----------------------------------------------------------------
    def _model_info(self, litellm: Any, model: str) -> ModelInfo:
        if model not in self._info:
            self._info[model] = model_info(litellm, model)
        return self._info[model]

    def _counter(self, model: str) -> TokenCounter:
        if model not in self._counters:
            self._counters[model] = TokenCounter(model)
        return self._counters[model]

    def _prefix(self, exchange: Exchange) -> str:
        key = (exchange.question.id, exchange.lang)
        if key not in self._prefixes:
            self._prefixes[key] = prompts.system_prefix(exchange.question, exchange.lang)
        return self._prefixes[key]

    def _window(self, info: ModelInfo) -> int:
        return self.context_window or info.context_window

    def _check_budget(self, info: ModelInfo, prompt_tokens: int, max_tokens: int) -> None:
        """Refuse a call that would take the spend past --max-cost."""
        if self._budget_hit:
            raise BudgetExceeded(self._budget_hit)
        if self.max_cost is None:
            return
        if not info.priced:
            if not self._warned_unpriced:
                self._warned_unpriced = True
                msg = f"the price of {info.model} is unknown, so --max-cost ${self.max_cost:g} cannot be enforced"
                self.notices.append(msg)
                log.warning(msg)
            return
        spent = self.meter.sink.cost_usd if self.meter.sink.cost_usd is not None else self.meter.known_cost
        worst = info.cost(prompt_tokens, max_tokens) or 0.0
        if spent + worst > self.max_cost:
            self._budget_hit = (
                f"the --max-cost budget of ${self.max_cost:g} is reached ({format_cost(spent)} spent; the next "
                f"call could cost up to {format_cost(worst)}): no more LLM calls"
            )
            raise BudgetExceeded(self._budget_hit)

    def _record(
        self, kind: str, model: str, prompt_tokens: int, completion_tokens: int, seconds: float, reported: bool,
        litellm: Any,
    ) -> None:
        info = self._model_info(litellm, model)
        cost = info.cost(prompt_tokens, completion_tokens)
        self.meter.add(CallUsage(kind, model, prompt_tokens, completion_tokens, cost, seconds, reported))
        log.debug("%s call to %s: %d+%d tokens, %s", kind, model, prompt_tokens, completion_tokens, format_cost(cost))

    def _scrubbed(self, exchange: Exchange) -> tuple[Exchange, int]:
        """The exchange with sentences addressed to the grader replaced, and how many there were."""
        turns, ignored = [], 0
        for t in exchange.turns:
            if t.role == "candidate" and t.kind == "answer":
                text, n = scrub(t.text)
                ignored += n
                turns.append(Turn(t.role, t.kind, text, t.key_point_id))
            else:
                turns.append(t)
        return replace(exchange, turns=turns), ignored

    # -- probes -----------------------------------------------------------------
    async def next_probe(self, exchange: Exchange) -> Probe | None:
        rubric = exchange.question.rubric
        if rubric is None or len(exchange.probes_asked()) >= exchange.max_probes:
            return None
        await self._settle()
        litellm = await aload_litellm()
        model = self.client.model
        info = self._model_info(litellm, model)
        counter = self._counter(model)
        clean, _ = self._scrubbed(exchange)
        rendered = prompts.probe_messages(
            self._prefix(exchange), clean, counter, self._window(info), self.probe_max_tokens
        )
        prompt_tokens = counter.count_messages(rendered.messages)
        self._check_budget(info, prompt_tokens, self.probe_max_tokens)
        try:
            opened = await self.client.open_stream(rendered.messages, self.probe_max_tokens)
        except RequestFailed as exc:
            log.warning("probe request failed, using the offline probe: %s", exc)
            return self._offline.pick_probe(exchange)
        return await self._start_probe(opened, exchange, prompt_tokens, litellm)

    async def _start_probe(self, opened: OpenStream, exchange: Exchange, prompt_tokens: int, litellm: Any) -> Probe | None:
        """Read the header line (key point id or NONE), then hand the rest over as a Probe."""
        assert exchange.question.rubric is not None
        ids = {k.id for k in exchange.question.rubric.key_points}
        usage: dict[str, tuple[int, int]] = {}
        received = [opened.first]
        buf = opened.first
        header: str | None = None
        ended = False
        cut: str | None = None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.client.policy.stream_deadline  # a slow drip is cut here, text kept
        try:
            while "\n" not in buf.lstrip() and len(buf) < HEADER_LIMIT:
                async with asyncio.timeout_at(deadline):
                    chunk = await anext(opened.chunks)
                if (u := chunk_usage(chunk)) is not None:
                    usage["u"] = u
                text = chunk_text(chunk)
                received.append(text)
                buf += text
        except StopAsyncIteration:
            ended = True
        except Exception as exc:
            ended = True
            cut = self._note_cut(opened.model, exc)
        first_line, newline, body = buf.lstrip().partition("\n")
        head = first_line.strip()
        if (newline or ended) and head.strip("*.`'\" ").upper() == "NONE":
            header = "NONE"
        elif newline and len(head) <= HEADER_LIMIT:
            m = _HEADER.match(head)
            # the id line, however the model decorated it ("ID: x", "**x**", "Key point: x"), is never shown
            found = m.group(1) if m else None
            if found is None and not head.endswith(("?", "？")):
                found = next((i for i in sorted(ids) if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", head)), None)
            if found:
                header, buf = found, body
        done_text = "".join(received)

        def finish(extra: str = "") -> None:
            got = usage.get("u")
            completion = got[1] if got else self._counter(opened.model).count(done_text + extra)
            self._record("probe", opened.model, got[0] if got else prompt_tokens, completion,
                         time.perf_counter() - opened.started, got is not None, litellm)

        if header is not None and header.upper() == "NONE":
            await opened.aclose()
            finish()
            return None
        key_point = header if header in ids else None
        if key_point is not None and key_point in exchange.probes_asked():
            await opened.aclose()  # the model chose a point already probed: the offline picker never repeats
            finish()
            return self._offline.pick_probe(exchange)
        if ended and not buf.strip():
            await opened.aclose()
            finish()
            return self._offline.pick_probe(exchange)
        probe = Probe(self._stream(opened, buf.lstrip(), ended, usage, finish, deadline,
                                   lambda why: setattr(probe, "truncated", why)), key_point)
        probe.truncated = cut
        return probe

    async def _stream(
        self, opened: OpenStream, start: str, ended: bool, usage: dict[str, tuple[int, int]], finish: Any,
        deadline: float, on_cut: Callable[[str], None],
    ) -> AsyncIterator[str]:
        """The probe's text: sanitised for a terminal; a cut or too slow stream just ends, keeping what arrived."""
        sanitizer = StreamSanitizer()
        extra: list[str] = []
        state = "ended" if ended else "open"  # -> "finished" (the model said stop) or "ended"
        try:
            out = sanitizer.feed(start)
            if out:
                yield out
            if state == "open":
                try:
                    while True:
                        try:
                            async with asyncio.timeout_at(deadline):  # one bound for the whole stream
                                chunk = await anext(opened.chunks)
                        except StopAsyncIteration:
                            state = "ended"
                            break
                        if (u := chunk_usage(chunk)) is not None:
                            usage["u"] = u
                        text = chunk_text(chunk)
                        if text:
                            extra.append(text)
                            out = sanitizer.feed(text)
                            if out:
                                yield out
                        if chunk_finished(chunk):
                            state = "finished"
                            break
                except Exception as exc:  # after the first token: never retried, never raised into the UI
                    on_cut(self._note_cut(opened.model, exc))
            tail = sanitizer.flush()
            if tail:
                yield tail
        finally:
            if state == "finished":
                # The text is complete: hand it over now, and read the usage trailer in the background
                # so the connection goes back to the pool without the caller waiting for it.
                task = asyncio.get_running_loop().create_task(self._drain(opened, usage, "".join(extra), finish))
                self._drains.add(task)
                task.add_done_callback(self._drains.discard)
            else:
                finish("".join(extra))
                if state == "open":  # cancelled or cut: release the connection
                    await opened.aclose()

    async def _drain(self, opened: OpenStream, usage: dict[str, tuple[int, int]], text: str, finish: Any) -> None:
        try:
            async for chunk in opened.chunks:
                if (u := chunk_usage(chunk)) is not None:
                    usage["u"] = u
        except Exception as exc:
            log.debug("reading the end of a finished stream failed: %s", redact(str(exc)))
            await opened.aclose()
        finally:
            finish(text)

    def _note_cut(self, model: str, exc: BaseException) -> str:
        """Record (for the user) that a probe stopped early; return the reason."""
        if isinstance(exc, TimeoutError):
            why = f"it was still streaming after {self.client.policy.stream_deadline:g}s"
        else:
            why = f"the connection broke ({type(exc).__name__})"
        msg = f"the follow-up from {model} was cut off: {why}; the text that arrived is kept"
        self.notices.append(msg)
        log.info("%s: %s", msg, redact(str(exc)))
        return msg

    @property
    def slow_notice_after(self) -> float:
        """Seconds of waiting for the model before the user is told it is slow."""
        return self.client.policy.slow_notice_after

    async def _settle(self) -> None:
        """Wait for finished streams to record their usage: the budget and the record must see it."""
        if self._drains:
            _, late = await asyncio.wait(list(self._drains), timeout=self.client.policy.read_timeout)
            for task in late:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def aclose(self) -> None:
        await self._settle()

    # -- grading ----------------------------------------------------------------
    async def grade(self, exchange: Exchange) -> Grade:
        """One grade, or with `samples` K > 1 the per-criterion median of K grades (self-consistency)."""
        if self.samples <= 1 or not exchange.answered() or exchange.question.rubric is None:
            return await self._grade_once(exchange)
        grades = await asyncio.gather(*(self._grade_once(exchange) for _ in range(self.samples)))
        return combine_samples(list(grades), exchange)

    async def _grade_once(self, exchange: Exchange) -> Grade:
        question = exchange.question
        if question.rubric is None:
            raise ValueError(f"question {question.id} has no rubric to grade against")
        if not exchange.answered():
            return self._offline.grade_sync(exchange)  # nothing to read: no call, no cost
        await self._settle()
        litellm = await aload_litellm()
        clean, ignored = self._scrubbed(exchange)
        schema = grade_schema(question)
        reply_text = ""
        error: ReplyError | None = None
        for attempt in range(2):  # the first try, then one repair with the validation error
            model = self.client.model
            info = self._model_info(litellm, model)
            counter = self._counter(model)
            use_schema = self.sends_schema(model, info)

            repair = (reply_text, str(error)) if attempt == 1 and error is not None else None
            messages = self._grade_messages(exchange, clean, counter, info, schema, not use_schema, repair)
            prompt_tokens = counter.count_messages(messages)
            self._check_budget(info, prompt_tokens, self.grade_max_tokens)
            fmt = {"type": "json_schema", "json_schema": {"name": "grade", "schema": schema, "strict": True}}
            try:
                done = await self.client.complete(messages, self.grade_max_tokens, fmt if use_schema else None)
            except RequestFailed as exc:
                if exc.failure.schema_unsupported and use_schema:
                    self._no_schema.add(model)  # this model refuses response_format: schema in the prompt from now on
                    log.info("%s refused response_format; the schema goes in the prompt", model)
                    messages = self._grade_messages(exchange, clean, counter, info, schema, True, repair)
                    prompt_tokens = counter.count_messages(messages)
                    try:
                        done = await self.client.complete(messages, self.grade_max_tokens, None)
                    except RequestFailed as again:
                        return self._offline_grade(exchange, f"the model rejected the request: {again}")
                else:
                    return self._offline_grade(exchange, f"the model rejected the request: {exc}")
            self._record_completion("grade", done, prompt_tokens, litellm)
            reply_text = done.text
            try:
                reply = parse_reply(done.text, question)
            except ReplyError as exc:
                error = exc
                log.info("grade reply from %s unusable (%s)%s", done.model, exc, "; repairing" if attempt == 0 else "")
                continue
            return build_grade(reply, exchange, done.model, ignored)
        return self._offline_grade(exchange, f"the model's grade was unusable twice ({error})")

    def _grade_messages(
        self, exchange: Exchange, clean: Exchange, counter: TokenCounter, info: ModelInfo, schema: dict[str, Any],
        in_prompt: bool, repair: tuple[str, str] | None,
    ) -> list[dict[str, str]]:
        """The grade request's messages; `repair` = (the unusable reply, why) adds the repair turn."""
        rendered = prompts.grade_messages(
            self._prefix(exchange), clean, counter, self._window(info), self.grade_max_tokens, schema,
            schema_in_prompt=in_prompt,
        )
        if repair is None:
            return rendered.messages
        return [*rendered.messages, {"role": "assistant", "content": repair[0][:4000]},
                prompts.repair_message(repair[1], schema)]

    def sends_schema(self, model: str, info: ModelInfo) -> bool:
        """True when this model's grade request carries response_format (see `structured`)."""
        if model in self._no_schema:
            return False
        base = next((t.base for t in self.client.targets if t.model == model), None)
        return schema_mode(model, base, info.supports_schema)[0]

    def _record_completion(self, kind: str, done: Completion, prompt_tokens: int, litellm: Any) -> None:
        reported = done.prompt_tokens is not None and done.completion_tokens is not None
        p = done.prompt_tokens if done.prompt_tokens is not None else prompt_tokens
        c = done.completion_tokens if done.completion_tokens is not None else self._counter(done.model).count(done.text)
        self._record(kind, done.model, p, c, done.seconds, reported, litellm)

    def _offline_grade(self, exchange: Exchange, why: str) -> Grade:
        grade = self._offline.grade_sync(exchange)
        note = f"offline grade: {redact(why)}"
        return grade.model_copy(update={"note": f"{note}; {grade.note}" if grade.note else note})
