"""The transport: litellm calls with timeouts, retries, a shared rate-limit gate and fallback models.

Retries happen only before the first streamed token, so a probe's text is
never duplicated. A 429's Retry-After holds back every request of this
client (with `--concurrency N` all N wait), not just the one that got it.

Fallback models: when a model cannot serve (missing or rejected key,
unknown model, unreachable after the retries), the next model of the list is
tried. A model that is only unreachable is not given up for good: a circuit
breaker pauses it after `breaker_threshold` consecutive failed calls, and
after `breaker_cooldown` seconds one trial call (half-open) decides whether
it is used again. A missing or rejected key or an unknown model stays off. `--api-base` applies to the models that share the
primary model's provider prefix; others use their provider's endpoint. A
fallback entry may name its own endpoint as `provider/model@http://host/v1`.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from interviewer.examiners.errors import ExaminerError, ExaminerUnavailable
from interviewer.examiners.llm.errors import Failure, classify, key_env_var, provider_of, redact
from interviewer.examiners.llm.policy import RetryPolicy
from interviewer.examiners.llm.runtime import aload_litellm

log = logging.getLogger(__name__)
T = TypeVar("T")
_BASE_ENV_SUFFIXES = ("_API_BASE", "_BASE_URL", "_HOST", "_ENDPOINT")
_WITH_BASE = re.compile(r"^(.+?)@(https?://\S+)$")


class RequestFailed(ExaminerError):
    """This one request cannot be served (e.g. HTTP 400); the question falls back to offline."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


@dataclass(frozen=True)
class Target:
    """One model and the endpoint it is reached at (None: the provider's default)."""

    model: str
    base: str | None


@dataclass
class Completion:
    """A finished, non-streamed reply."""

    text: str
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    seconds: float


@dataclass
class OpenStream:
    """A streamed reply whose first text has arrived: from here on it is never retried."""

    model: str
    first: str
    chunks: AsyncIterator[Any]
    handle: Any
    started: float

    async def aclose(self) -> None:
        aclose = getattr(self.handle, "aclose", None)
        if aclose is not None:
            try:
                await aclose()
            except Exception as exc:  # closing a broken stream must not raise into the UI
                log.debug("closing the stream failed: %s", redact(str(exc)))


def chunk_text(chunk: Any) -> str:
    try:
        return chunk.choices[0].delta.content or ""
    except (AttributeError, IndexError):
        return ""


def chunk_finished(chunk: Any) -> bool:
    """True on the chunk that carries the model's finish_reason: the text is complete."""
    try:
        return bool(chunk.choices and chunk.choices[0].finish_reason)
    except (AttributeError, IndexError):
        return False


def chunk_usage(chunk: Any) -> tuple[int, int] | None:
    usage = getattr(chunk, "usage", None)
    if usage is None:
        return None
    p, c = getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)
    return (p, c) if isinstance(p, int) and isinstance(c, int) else None


@dataclass
class _Breaker:
    """The state of one target: closed (usable), open (paused until a time) or half-open (one trial)."""

    failures: int = 0  # consecutive calls that used up their attempts
    open_until: float = 0.0  # loop time; 0.0 while closed
    trial: bool = False  # a half-open trial call is in flight
    reason: str = ""
    permanent: bool = False  # a key or model problem: no trial will fix it in this process


class _EmptyStream(Exception):
    """The stream ended before any text: safe to retry."""


class LLMClient:
    """Calls one model (and its fallbacks) through litellm."""

    def __init__(
        self,
        model: str,
        api_base: str | None = None,
        fallback_models: list[str] | None = None,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.api_base = api_base.rstrip("/") if api_base else None
        primary = provider_of(model)
        self.targets: list[Target] = [Target(model, self.api_base)]
        for entry in fallback_models or []:
            m = _WITH_BASE.match(entry.strip())
            if m:
                target = Target(m.group(1), m.group(2).rstrip("/"))
            elif entry.strip():
                name = entry.strip()
                target = Target(name, self.api_base if provider_of(name) == primary else None)
            else:
                continue
            if target not in self.targets:
                self.targets.append(target)
        self.policy = policy or RetryPolicy()
        self._sleep = sleep
        self._active = 0
        self._breakers = [_Breaker() for _ in self.targets]
        self._not_before = 0.0  # loop time before which no request starts (Retry-After)
        self.attempts = 0  # requests sent, for tests and the benchmark

    @property
    def model(self) -> str:
        return self.targets[self._active].model

    @property
    def models(self) -> list[str]:
        return [t.model for t in self.targets]

    def missing_key(self, litellm: Any, target: Target) -> str | None:
        """The env var a model needs and does not have (names only; values are never read out)."""
        model, base = target.model, target.base
        try:
            missing = list(litellm.validate_environment(model=model, api_base=base).get("missing_keys") or [])
        except Exception:
            return None
        if base:
            missing = [k for k in missing if not k.endswith(_BASE_ENV_SUFFIXES)]
        return missing[0] if missing else None

    def _kwargs(self, target: Target, messages: list[dict[str, str]], max_tokens: int) -> dict[str, Any]:
        import httpx

        kw: dict[str, Any] = {
            "model": target.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "timeout": httpx.Timeout(self.policy.read_timeout, connect=self.policy.connect_timeout),
            "max_retries": 0,  # retries are ours
        }
        if target.base:
            kw["api_base"] = target.base
        return kw

    async def _gate(self) -> None:
        loop = asyncio.get_running_loop()
        wait = self._not_before - loop.time()
        if wait > 0:
            await self._sleep(wait)

    async def _with_retries(self, target: Target, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run one model's attempts under the retry policy; raise the final Failure as an exception.

        Each attempt has its own timeout, and the call as a whole a deadline
        (`call_deadline`): no retry starts that could not finish within it.
        """
        loop = asyncio.get_running_loop()
        n = 0
        per_attempt = self.policy.connect_timeout + self.policy.read_timeout + 5.0
        end = loop.time() + self.policy.call_deadline
        while True:
            n += 1
            await self._gate()
            self.attempts += 1
            try:
                async with asyncio.timeout(min(per_attempt, max(0.05, end - loop.time()))):
                    return await attempt()
            except asyncio.CancelledError:
                raise
            except _EmptyStream:
                failure = Failure(f"{target.model} ended its reply before any text", True)
            except Exception as exc:
                failure = classify(exc, target.model, target.base, self.policy.read_timeout)
            too_long = failure.retry_after is not None and failure.retry_after > self.policy.retry_after_cap
            delay = self.policy.delay_for(n, failure.retry_after)
            past_deadline = loop.time() + delay >= end
            if not failure.retryable or n >= self.policy.max_attempts or too_long or past_deadline:
                if failure.retryable:
                    failure.message += f" (gave up after {n} attempt{'s' if n > 1 else ''}"
                    failure.message += f" and {self.policy.call_deadline:g}s)" if past_deadline else ")"
                raise _Failed(failure)
            if failure.retry_after is not None:
                self._not_before = max(self._not_before, loop.time() + delay)
            log.info("retrying %s in %.3fs: %s", target.model, delay, failure.message)
            await self._sleep(delay)

    def _key_problem(self, litellm: Any, target: Target) -> str | None:
        env = self.missing_key(litellm, target)
        if not env:
            return None
        why = (f"{env} is not set: export {env}=... to use {target.model} "
               "(keys are read from the environment only, never stored)")
        if env == key_env_var(target.model) == "OPENAI_API_KEY" and target.base:
            why += "; a local OpenAI-compatible server that needs no key accepts any value"
        return why

    async def _run(self, call: Callable[[Any, Target], Awaitable[T]]) -> T:
        """Try each usable model in order (the primary first), as the breakers and failures allow."""
        litellm = await aload_litellm()
        loop = asyncio.get_running_loop()
        reasons: list[str] = []
        waits: list[float] = []
        for i, target in enumerate(self.targets):
            b = self._breakers[i]
            if b.permanent:
                reasons.append(b.reason)
                continue
            now = loop.time()
            if b.open_until > now or b.trial:  # paused, or a trial call is already deciding
                wait = max(b.open_until - now, 0.0) or self.policy.breaker_cooldown / 4
                waits.append(wait)
                reasons.append(f"{b.reason} (paused; tried again in {max(wait, 0.1):.1f}s)")
                continue
            why = self._key_problem(litellm, target)
            if why:
                b.permanent, b.reason = True, why
                reasons.append(why)
                continue
            trial = b.open_until > 0.0  # half-open: this call decides
            b.trial = trial
            try:
                result = await self._with_retries(target, lambda t=target: call(litellm, t))  # type: ignore[misc]
            except _Failed as failed:
                failure = failed.failure
                if failure.scope == "request":  # the model answered: it is up
                    b.failures, b.open_until = 0, 0.0
                    raise RequestFailed(failure) from None
                b.reason = failure.message
                if not failure.retryable:  # rejected key, unknown model: no trial will fix it
                    b.permanent = True
                else:
                    b.failures += 1
                    if trial or b.failures >= self.policy.breaker_threshold:
                        b.open_until = loop.time() + self.policy.breaker_cooldown
                        log.info("pausing %s for %gs: %s", target.model, self.policy.breaker_cooldown,
                                 failure.message)
                    waits.append(max(b.open_until - loop.time(), 0.0))
                reasons.append(failure.message)
                continue
            finally:
                b.trial = False
            b.failures, b.open_until = 0, 0.0
            for j in range(i):  # a fallback served: pause the models that just failed, until their trial
                earlier = self._breakers[j]
                if not earlier.permanent and earlier.failures and earlier.open_until == 0.0:
                    earlier.open_until = loop.time() + self.policy.breaker_cooldown
            if i != self._active:
                log.info("using %s (was %s)", target.model, self.model)
                self._active = i
            return result
        raise ExaminerUnavailable(redact("; then ".join(reasons)), min(waits) if waits else None)

    async def complete(
        self, messages: list[dict[str, str]], max_tokens: int, response_format: dict[str, Any] | None = None
    ) -> Completion:
        """A non-streamed call (grading)."""

        async def call(litellm: Any, target: Target) -> Completion:
            kw = self._kwargs(target, messages, max_tokens)
            if response_format is not None:
                kw["response_format"] = response_format
            t0 = time.perf_counter()
            resp = await litellm.acompletion(**kw)
            text = resp.choices[0].message.content or ""
            usage = getattr(resp, "usage", None)
            p = getattr(usage, "prompt_tokens", None)
            c = getattr(usage, "completion_tokens", None)
            return Completion(text, target.model, p if isinstance(p, int) else None, c if isinstance(c, int) else None,
                              time.perf_counter() - t0)

        return await self._run(call)

    async def open_stream(self, messages: list[dict[str, str]], max_tokens: int) -> OpenStream:
        """Start a streamed call and wait for its first text; everything before that is retried."""

        async def call(litellm: Any, target: Target) -> OpenStream:
            model = target.model
            kw = self._kwargs(target, messages, max_tokens)
            kw["stream"] = True
            kw["stream_options"] = {"include_usage": True}
            t0 = time.perf_counter()
            handle = await litellm.acompletion(**kw)
            chunks = handle.__aiter__()
            try:
                async for chunk in chunks:
                    text = chunk_text(chunk)
                    if text:
                        return OpenStream(model, text, chunks, handle, t0)
            except BaseException:
                await OpenStream(model, "", chunks, handle, t0).aclose()
                raise
            await OpenStream(model, "", chunks, handle, t0).aclose()
            raise _EmptyStream()

        return await self._run(call)


class _Failed(Exception):
    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure
