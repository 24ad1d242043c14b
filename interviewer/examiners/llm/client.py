"""The transport: litellm calls with timeouts, retries, a shared rate-limit gate and fallback models.

Retries happen only before the first streamed token, so a probe's text is
never duplicated. A 429's Retry-After holds back every request of this
client (with `--concurrency N` all N wait), not just the one that got it.

Fallback models: when the active model cannot serve (missing or rejected
key, unknown model, unreachable after the retries), the next model of the
list is tried, and stays active for later calls so a dead endpoint is not
retried on every call. `--api-base` applies to the models that share the
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
        self._dead: dict[int, str] = {}  # target index -> why it cannot be used
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
        """Run one model's attempts under the retry policy; raise the final Failure as an exception."""
        loop = asyncio.get_running_loop()
        n = 0
        deadline = self.policy.connect_timeout + self.policy.read_timeout + 5.0
        while True:
            n += 1
            await self._gate()
            self.attempts += 1
            try:
                async with asyncio.timeout(deadline):
                    return await attempt()
            except asyncio.CancelledError:
                raise
            except _EmptyStream:
                failure = Failure(f"{target.model} ended its reply before any text", True)
            except Exception as exc:
                failure = classify(exc, target.model, target.base, self.policy.read_timeout)
            too_long = failure.retry_after is not None and failure.retry_after > self.policy.retry_after_cap
            if not failure.retryable or n >= self.policy.max_attempts or too_long:
                if failure.retryable:
                    failure.message += f" (gave up after {n} attempt{'s' if n > 1 else ''})"
                raise _Failed(failure)
            delay = self.policy.delay_for(n, failure.retry_after)
            if failure.retry_after is not None:
                self._not_before = max(self._not_before, loop.time() + delay)
            log.info("retrying %s in %.3fs: %s", target.model, delay, failure.message)
            await self._sleep(delay)

    async def _run(self, call: Callable[[Any, Target], Awaitable[T]]) -> T:
        """Try the active model, then each fallback, as the failures allow."""
        litellm = await aload_litellm()
        reasons: list[str] = []
        for i in range(self._active, len(self.targets)):
            target = self.targets[i]
            if i in self._dead:
                reasons.append(self._dead[i])
                continue
            env = self.missing_key(litellm, target)
            if env:
                why = (f"{env} is not set: export {env}=... to use {target.model} "
                       "(keys are read from the environment only, never stored)")
                if env == key_env_var(target.model) == "OPENAI_API_KEY" and target.base:
                    why += "; a local OpenAI-compatible server that needs no key accepts any value"
                self._dead[i] = why
                reasons.append(why)
                continue
            try:
                result = await self._with_retries(target, lambda t=target: call(litellm, t))  # type: ignore[misc]
            except _Failed as failed:
                if failed.failure.scope == "request":
                    raise RequestFailed(failed.failure) from None
                self._dead[i] = failed.failure.message
                reasons.append(failed.failure.message)
                continue
            if i != self._active:
                log.info("falling back from %s to %s", self.model, target.model)
                self._active = i
            return result
        raise ExaminerUnavailable(redact("; then ".join(reasons)))

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
