"""Map every litellm (and transport) exception to retry or not, plus a message a user can act on.

litellm's messages are written for its own developers: a refused connection
is `InternalServerError: Connection error.` with no URL, and a missing key is
an InternalServerError about "credentials". The classification here names
the env var, the URL and the flag to change. Messages are redacted so an API
key can never reach the store, a transcript or a log through an error.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass
from typing import Any, Literal

from interviewer.examiners.llm.policy import parse_retry_after

# "model": this model cannot serve us (try a fallback, else go offline);
# "request": this one request is unusable (this question falls back to offline).
Scope = Literal["model", "request"]

_DEFAULT_BASES = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "ollama": "http://localhost:11434",
    "ollama_chat": "http://localhost:11434",
    "gemini": "https://generativelanguage.googleapis.com",
    "mistral": "https://api.mistral.ai/v1",
    "groq": "https://api.groq.com/openai/v1",
    "deepseek": "https://api.deepseek.com",
    "openrouter": "https://openrouter.ai/api/v1",
    "together_ai": "https://api.together.xyz/v1",
}
_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)", re.I)
_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^\s/@]+@")  # http://user:pass@host
_SECRET_SHAPES = [
    (_URL_USERINFO, r"\1***@"),
    (re.compile(r"\b(sk|rk|pk)-[A-Za-z0-9_\-*]{6,}"), r"\1-***"),
    (re.compile(r"(?i)\bbearer\s+\S+"), "Bearer ***"),
    (re.compile(r"(?i)(api[_-]?key['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+"), r"\1***"),
]
_LITELLM_PREFIX = re.compile(r"^(litellm\.)?\w+(Error|Exception|Timeout)?:\s*(\w+(Error|Exception):\s*)?(\w+Exception\s*-\s*)?")


@dataclass
class Failure:
    """What went wrong with one attempt, and what to do about it."""

    message: str
    retryable: bool
    scope: Scope = "model"
    status: int | None = None
    retry_after: float | None = None
    schema_unsupported: bool = False


def redact(text: str) -> str:
    """Remove anything that looks like a credential: env var values named *KEY/*TOKEN/..., sk-..., Bearer ...,
    and the user:password part of a URL."""
    for name, value in os.environ.items():
        if len(value) >= 6 and _SECRET_NAME.search(name) and value in text:
            text = text.replace(value, "***")
    for pattern, repl in _SECRET_SHAPES:
        text = pattern.sub(repl, text)
    return text


def redact_url(text: str) -> str:
    """Only the user:password part of any URL in `text` replaced by ***."""
    return _URL_USERINFO.sub(r"\1***@", text)


def provider_of(model: str) -> str:
    """`openai/gpt-4.1-mini` -> `openai`; a bare name is treated as OpenAI, as litellm does."""
    return model.split("/", 1)[0] if "/" in model else "openai"


def endpoint_label(model: str, api_base: str | None) -> str:
    """The URL a user would check: --api-base, else the provider's default endpoint."""
    if api_base:
        return redact(api_base)
    provider = provider_of(model)
    return _DEFAULT_BASES.get(provider, f"the {provider} API")


def key_env_var(model: str) -> str:
    """The env var a provider reads its key from (by litellm's convention)."""
    return f"{provider_of(model).upper()}_API_KEY"


def short(exc: BaseException, limit: int = 240) -> str:
    """The useful part of an exception message, redacted, on one line."""
    text = " ".join(str(exc).split())
    text = _LITELLM_PREFIX.sub("", text, count=1).strip() or type(exc).__name__
    text = redact(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and cur not in out and len(out) < 12:
        out.append(cur)
        cur = cur.__cause__ or cur.__context__
    return out


def _headers(exc: BaseException) -> Any:
    headers = getattr(exc, "litellm_response_headers", None)
    if headers:
        return headers
    response = getattr(exc, "response", None)
    return getattr(response, "headers", None)


def _is_connect_error(exc: BaseException) -> bool:
    import httpx

    for e in _chain(exc):
        if isinstance(e, httpx.ConnectError | ConnectionError):
            return True
        name = type(e).__name__
        if name in {"ConnectError", "APIConnectionError"} or "Connection error" in str(e):
            return True
    return False


def _is_connect_timeout(exc: BaseException) -> bool:
    import httpx

    return any(isinstance(e, httpx.ConnectTimeout) for e in _chain(exc))


def _is_read_timeout(exc: BaseException) -> bool:
    """A timeout however litellm wrapped it (a stream's read timeout arrives as a 500 or a connection error)."""
    import httpx

    for e in _chain(exc):
        if isinstance(e, httpx.TimeoutException | asyncio.TimeoutError | TimeoutError):
            return True
        low = str(e).lower()
        if "timeout on reading data" in low or "read timed out" in low or "request timed out" in low:
            return True
    return False


def classify(exc: BaseException, model: str, api_base: str | None, timeout: float | None = None) -> Failure:
    """Decide retry / no-retry for one failed attempt and explain it."""
    where = endpoint_label(model, api_base)
    msg = short(exc)
    low = msg.lower()
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    name = type(exc).__name__
    retry_after = parse_retry_after(_headers(exc))

    if name in {"Timeout", "APITimeoutError"} or status == 408 or _is_read_timeout(exc):
        if _is_connect_timeout(exc):
            return Failure(f"could not connect to {where} within the connect timeout: is the server up? "
                           "(check --api-base / INTERVIEWER_API_BASE)", True, status=408)
        secs = f" within {timeout:g}s" if timeout else ""
        return Failure(f"{model} at {where} did not answer{secs} (read timeout; raise `timeout` in config.toml "
                       "for a slow local model)", True, status=408)
    if "missing credentials" in low or "api_key client option must be set" in low or (
        "api key" in low and ("not set" in low or "missing" in low or "no api key" in low)
    ):
        env = key_env_var(model)
        return Failure(f"{env} is not set: export {env}=... for {model} (the key is read from the environment only)",
                       False, status=status)
    if name == "AuthenticationError" or status == 401:
        env = key_env_var(model)
        return Failure(f"{where} rejected the API key (HTTP 401): check {env}", False, status=401)
    if name == "PermissionDeniedError" or status == 403:
        env = key_env_var(model)
        return Failure(f"{where} refused access to {model} (HTTP 403): check {env} and the model's permissions",
                       False, status=403)
    if name == "NotFoundError" or status == 404:
        return Failure(f"model {model} was not found at {where} (HTTP 404): check --model "
                       "(LiteLLM form provider/name) and --api-base", False, status=404)
    if name == "RateLimitError" or status == 429:
        return Failure(f"{where} is rate limiting requests (HTTP 429): lower --concurrency or retry later",
                       True, status=429, retry_after=retry_after)
    if _is_connect_error(exc) and (status is None or status >= 500):
        return Failure(f"cannot reach {where}: connection failed ({msg}). Is the server running? "
                       "Check --api-base / INTERVIEWER_API_BASE", True, status=status)
    if "llm provider not provided" in low or name == "LiteLLMUnknownProvider":
        return Failure(f"litellm does not recognise the provider of {model!r}: use the provider/model form, "
                       "e.g. openai/gpt-4.1-mini or hosted_vllm/NAME with --api-base", False, status=status)
    if name == "ContextWindowExceededError":
        return Failure(f"the prompt is longer than {model}'s context window ({msg})", False, "request", status)
    if (status is not None and status >= 500) or name in {"InternalServerError", "ServiceUnavailableError",
                                                        "BadGatewayError", "MidStreamFallbackError"}:
        return Failure(f"{where} returned a server error (HTTP {status or 500}): {msg}", True, status=status,
                       retry_after=retry_after)
    if name in {"BadRequestError", "UnsupportedParamsError", "UnprocessableEntityError",
                "ContentPolicyViolationError", "APIResponseValidationError", "JSONSchemaValidationError"} or (
        status is not None and 400 <= status < 500
    ):
        unsupported = "response_format" in low or "json_schema" in low or "response format" in low
        return Failure(f"{model} rejected the request (HTTP {status or 400}): {msg}", False, "request", status,
                       schema_unsupported=unsupported)
    if name == "APIConnectionError":
        return Failure(f"cannot reach {where}: {msg}. Check --api-base / INTERVIEWER_API_BASE", True, status=status)
    return Failure(f"unexpected error from {model} at {where}: {type(exc).__name__}: {msg}", False, status=status)
