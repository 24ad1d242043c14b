"""Self-consistency (--samples), `eval` with a model, and the team setup (a shared OpenAI-compatible
endpoint such as a LiteLLM proxy, reached with a bearer key) through the command line."""

from __future__ import annotations

import itertools
import json
import threading
from pathlib import Path

import pytest

from interviewer.bank.loader import Bank, load_bank
from tests.conftest import FIXTURES, run_cli
from tests.llm.fakeserver import FakeLLM, Reply, Seen
from tests.llm.oracle import Oracle

BANK = ["--bank", str(FIXTURES)]
ANSWER = "GRPO samples a group of answers and subtracts the group's mean reward as the baseline."
QUOTE = "subtracts the group's mean reward as the baseline"


@pytest.fixture
def demo() -> Bank:
    return load_bank([FIXTURES], include_builtin=False)


def flags(server: FakeLLM) -> list[str]:
    return ["--examiner", "llm", "--model", "openai/test-model", "--api-base", server.url]


def grade_reply(coverage: float) -> Reply:
    return Reply.text(json.dumps({"criteria": [
        {"id": "group-baseline", "coverage": coverage, "evidence": [QUOTE]},
        {"id": "baseline-variance", "coverage": 0, "evidence": []},
        {"id": "std-normalization", "coverage": 0, "evidence": []},
    ], "misconceptions": []}))


def test_samples_take_the_median_and_report_the_spread(fake_llm: FakeLLM) -> None:
    coverages = itertools.cycle([1.0, 0.5, 0.0])
    lock = threading.Lock()

    def responder(seen: Seen) -> Reply:
        if seen.body.get("stream"):
            return Reply.text("NONE")
        with lock:
            return grade_reply(next(coverages))

    fake_llm.responder = responder
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", ANSWER, *flags(fake_llm), "--samples", "3",
                env={"OPENAI_API_KEY": "sk-test"})
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["samples"] == 3 and out["spread"] == 5.0
    assert out["score"] == 2.5  # median coverage 0.5 of a weight-3 point out of 6, computed in code
    assert len([s for s in fake_llm.requests if not s.body.get("stream")]) == 3
    text = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", ANSWER, *flags(fake_llm), "--samples", "3",
                   "--format", "text", env={"OPENAI_API_KEY": "sk-test"})
    assert "Confidence: low (3 gradings, scores within 5.0 points)" in text.stdout


def test_eval_with_a_model(fake_llm: FakeLLM, demo: Bank, tmp_path: Path) -> None:
    fake_llm.responder = Oracle(demo)
    answers = [(ANSWER, 5), ("No idea, sorry.", 0),
               ("GRPO samples a group and subtracts the group's mean reward as the baseline; a baseline "
                "reduces the variance of the gradient and keeps it unbiased.", 8)]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps({"id": f"x{i}", "question_id": "demo-01", "answer": a, "ref_score": s})
                              for i, (a, s) in enumerate(answers)) + "\n", encoding="utf-8")
    r = run_cli(*BANK, "eval", "--set", str(path), *flags(fake_llm), "--samples", "2", "--format", "json",
                env={"OPENAI_API_KEY": "sk-test"})
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["examiner"] == "openai/test-model" and report["samples"] == 2
    assert report["tokens"]["prompt"] > 0 and report["cost_usd"] is None  # unpriced model: unknown, not 0
    assert report["agreement"]["mean_spread"] == 0.0  # the oracle is deterministic
    assert not any(s.body.get("stream") for s in fake_llm.requests), "eval asks for grades only, no probes"
    assert len(fake_llm.requests) == 3 * 2  # three answers x two samples


def test_team_endpoint_with_a_bearer_key(fake_llm: FakeLLM, demo: Bank, tmp_path: Path) -> None:
    """A cohort shares one OpenAI-compatible endpoint (e.g. a LiteLLM proxy with a master key and
    per-user virtual keys): the app sends the user's key as a bearer token and never stores it."""
    key = "sk-cohort-virtual-key-5f1e9a7c"
    fake_llm.responder = Oracle(demo)
    home = tmp_path / "home"
    r = run_cli(*BANK, "--data-dir", str(home), "run", "--plain", "--questions", "demo-01", "--follow-ups", "1",
                "--format", "json", "--examiner", "llm", "--model", "openai/cohort-qwen3-8b",
                "--api-base", fake_llm.url, input=f"{ANSWER}\n.\nNo idea.\n.\n", env={"OPENAI_API_KEY": key})
    assert r.returncode == 0, r.stderr
    assert fake_llm.requests and all(s.headers.get("authorization") == f"Bearer {key}" for s in fake_llm.requests)
    assert all(s.body["model"] == "cohort-qwen3-8b" for s in fake_llm.requests)
    assert key not in r.stdout + r.stderr
    for f in home.rglob("*"):
        if f.is_file():
            assert key.encode() not in f.read_bytes(), f
