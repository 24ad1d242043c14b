"""`interviewer doctor`: is the LLM examiner ready? Config, key, endpoint, and one tiny request.

Key values are never printed, only the names of the env vars and whether
they are set. Everything is diagnosed with the same error mapping the
examiner uses, so the advice here is the advice a failing interview gives.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import asdict, dataclass
from typing import Literal

import click

from interviewer.cli.main import Ctx, cli, pass_ctx
from interviewer.console import json_text, safe
from interviewer.examiners.errors import ExaminerError
from interviewer.examiners.factory import ExaminerChoice
from interviewer.paths import CONFIG_NAME

Status = Literal["ok", "info", "warn", "fail"]
MARK = {"ok": "ok  ", "info": "    ", "warn": "warn", "fail": "FAIL"}


@dataclass
class Check:
    name: str
    status: Status
    detail: str


def _source(flag: str | None, env: str, config_value: str | None) -> str:
    if flag:
        return "--flag"
    if os.environ.get(env):
        return env
    return CONFIG_NAME if config_value else "unset"


def _usd_per_million(value: float | None) -> str:
    return "unknown" if value is None else f"${value * 1e6:.2f}/M"


async def diagnose(choice: ExaminerChoice, live: bool) -> list[Check]:
    """Every check for one examiner choice, in the order a user would fix things."""
    from interviewer.examiners.llm.client import LLMClient
    from interviewer.examiners.llm.errors import endpoint_label, key_env_var, provider_of
    from interviewer.examiners.llm.policy import RetryPolicy
    from interviewer.examiners.llm.runtime import aload_litellm
    from interviewer.examiners.llm.structured import schema_mode
    from interviewer.examiners.llm.tokens import model_info

    checks: list[Check] = []
    model = choice.model
    assert model is not None
    litellm = await aload_litellm()
    try:
        _, provider, _, _ = litellm.get_llm_provider(model=model, api_base=choice.api_base)
        checks.append(Check("provider", "ok", f"{provider} (from {model!r})"))
    except Exception:
        checks.append(Check("provider", "fail", f"litellm does not recognise the provider of {model!r}: use the "
                                                "provider/model form, e.g. openai/gpt-4.1-mini or hosted_vllm/NAME"))
        return checks
    checks.append(Check("endpoint", "info", endpoint_label(model, choice.api_base)))
    client = LLMClient(model, choice.api_base, choice.fallback_models,
                       RetryPolicy(connect_timeout=min(10.0, choice.timeout), read_timeout=min(30.0, choice.timeout),
                                   max_attempts=2, base_delay=0.5))
    for i, target in enumerate(client.targets):
        label = "key" if i == 0 else f"key ({target.model})"
        missing = client.missing_key(litellm, target)
        if missing:
            checks.append(Check(label, "fail" if i == 0 else "warn", f"{missing} is not set: export {missing}=..."))
        elif provider_of(target.model) in {"hosted_vllm", "ollama", "ollama_chat", "lm_studio", "llamafile"}:
            checks.append(Check(label, "ok", "no key needed"))
        else:
            env = key_env_var(target.model)
            state = "set (value not shown)" if os.environ.get(env) else "not required or provided another way"
            checks.append(Check(label, "ok", f"{env}: {state}"))
    info = model_info(litellm, model)
    window = f"context {info.max_input_tokens:,} tokens" if info.max_input_tokens else "context window unknown (8,192 assumed)"
    checks.append(Check("model map", "info",
                        f"price in {_usd_per_million(info.input_cost)}, out {_usd_per_million(info.output_cost)}"
                        f"{'' if info.priced else ' (cost will show as unknown)'}; "
                        f"{window}"))
    checks.append(Check("structured", "info", schema_mode(model, choice.api_base, info.supports_schema)[1]))
    if choice.max_cost is not None and not info.priced:
        checks.append(Check("budget", "warn", f"--max-cost ${choice.max_cost:g} cannot be enforced: the price is unknown"))
    if not live:
        return checks
    if any(c.status == "fail" for c in checks):
        checks.append(Check("request", "info", "skipped: fix the failures above first"))
        return checks
    t0 = time.perf_counter()
    try:
        done = await client.complete([{"role": "user", "content": "Reply with the single word OK."}], max_tokens=5)
    except ExaminerError as exc:
        checks.append(Check("request", "fail", str(exc)))
        return checks
    ms = (time.perf_counter() - t0) * 1000
    reply = " ".join(done.text.split())[:40] or "(empty reply)"
    used = f" (fallback {done.model})" if done.model != model else ""
    checks.append(Check("request", "ok", f"answered in {ms:.0f} ms{used}: {reply!r}"))
    return checks


def verdict(choice: ExaminerChoice, checks: list[Check]) -> tuple[bool, str]:
    failures = [c for c in checks if c.status == "fail"]
    if failures:
        return False, (f"not ready: {failures[0].detail.rstrip('.')}. Until this is fixed, an interview with the LLM examiner "
                       "falls back to the offline examiner.")
    if choice.kind != "llm":
        return True, (f"the model is reachable; the default examiner is {choice.kind}: pass --examiner llm "
                      "or set examiner = \"llm\" in config.toml to use it")
    return True, f"ready: the LLM examiner will use {choice.model}"


@cli.command()
@click.option("--model", default=None, help="LiteLLM model to check (default: flag, INTERVIEWER_MODEL, config).")
@click.option("--api-base", default=None, help="OpenAI-compatible base URL. Env: INTERVIEWER_API_BASE.")
@click.option("--offline-only", "no_request", is_flag=True, help="Skip the live request to the model.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pass_ctx
def doctor(c: Ctx, model: str | None, api_base: str | None, no_request: bool, fmt: str) -> None:
    """Check the LLM examiner setup: config, key env var (by name), endpoint, one tiny request.

    Exit 0 when ready (or when no model is configured: the offline examiner needs nothing), else 1.
    """
    choice = ExaminerChoice.from_config(c.config, None, model, api_base)
    config_path = c.config.data_dir / CONFIG_NAME
    checks = [Check("config", "ok", f"{config_path} ({'found' if config_path.exists() else 'not found, defaults'})")]
    checks.append(Check("examiner", "info", f"default {choice.kind}; model {choice.model or '-'} "
                                            f"({_source(model, 'INTERVIEWER_MODEL', c.config.model)}); api base "
                                            f"{choice.api_base or '-'} ({_source(api_base, 'INTERVIEWER_API_BASE', c.config.api_base)})"))
    if not choice.model:
        ok = choice.kind != "llm"
        checks.append(Check("model", "info" if ok else "fail",
                            "no model configured: set --model, INTERVIEWER_MODEL or `model` in config.toml"))
        diagnosis = ("ready: the offline examiner needs no model, key or network" if ok
                     else "not ready: examiner = \"llm\" needs a model")
    else:
        checks += asyncio.run(diagnose(choice, live=not no_request))
        ok, diagnosis = verdict(choice, checks)
    from interviewer.examiners.llm.errors import redact_url  # a password in --api-base is never printed

    checks = [Check(x.name, x.status, redact_url(x.detail)) for x in checks]
    diagnosis = redact_url(diagnosis)
    if fmt == "json":
        click.echo(json_text({"ok": ok, "checks": [asdict(x) for x in checks], "diagnosis": diagnosis}, indent=2))
    else:
        for x in checks:
            click.echo(safe(f"[{MARK[x.status]}] {x.name:<10} {x.detail}"))
        click.echo()
        click.echo(safe(diagnosis))
    if not ok:
        raise SystemExit(1)


