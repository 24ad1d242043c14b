"""The LLM examiner through the command line: clean JSON on stdout, batches with 429s, doctor."""

from __future__ import annotations

import json
import threading

import pytest
from click.testing import CliRunner

from interviewer.bank.loader import Bank, load_bank
from tests.conftest import FIXTURES, run_cli
from tests.llm.conftest import FAKE_KEY
from tests.llm.fakeserver import FakeLLM, Reply, Seen
from tests.llm.oracle import Oracle

BANK = ["--bank", str(FIXTURES)]
ANSWER = "GRPO samples a group of answers and subtracts the group's mean reward as the baseline."


@pytest.fixture
def oracle_bank() -> Bank:
    return load_bank([FIXTURES], include_builtin=False)


def llm_flags(server: FakeLLM) -> list[str]:
    return ["--examiner", "llm", "--model", "openai/test-model", "--api-base", server.url]


def test_grade_json_and_batch_with_429s(fake_llm: FakeLLM, oracle_bank: Bank) -> None:
    oracle = Oracle(oracle_bank)
    lock = threading.Lock()
    count = {"n": 0}

    def responder(seen: Seen) -> Reply:
        with lock:
            count["n"] += 1
            n = count["n"]
        # three 429s spread over the batch: fewer than the 4 attempts one request may take, so no
        # request can be unlucky every time (every third request failing made this test flaky)
        if n in (3, 6, 9):
            return Reply.fail(429, "slow down", {"retry-after-ms": "20"})
        return oracle(seen)

    fake_llm.responder = responder
    lines = [json.dumps({"id": f"a{i}", "question_id": "demo-01", "answer": ANSWER}) for i in range(8)]
    lines.insert(3, "{not json")
    r = run_cli(*BANK, "grade", "--batch", "-", *llm_flags(fake_llm), "--concurrency", "4",
                input="\n".join(lines) + "\n", env={"OPENAI_API_KEY": FAKE_KEY})
    out = [json.loads(line) for line in r.stdout.splitlines()]  # every stdout line is JSON
    assert r.returncode == 1 and len(out) == 9
    assert [o["id"] for o in out] == ["a0", "a1", "a2", "line-4", "a3", "a4", "a5", "a6", "a7"]
    good = [o for o in out if "error" not in o]
    assert len(good) == 8 and all(o["examiner"] == "openai/test-model" for o in good)
    assert all(o["follow_up"] for o in good)
    assert "LiteLLM" not in r.stderr and "Traceback" not in r.stderr
    assert FAKE_KEY not in r.stdout + r.stderr


def test_grade_unreachable_is_a_clear_error(fake_llm: FakeLLM) -> None:
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", ANSWER, "--examiner", "llm", "--model",
                "openai/test-model", "--api-base", fake_llm.url, env={"OPENAI_API_KEY": ""})
    assert r.returncode == 1 and r.stdout == ""
    assert "OPENAI_API_KEY is not set" in r.stderr and "Traceback" not in r.stderr


def test_plain_interview_json_with_llm(fake_llm: FakeLLM, oracle_bank: Bank) -> None:
    fake_llm.responder = Oracle(oracle_bank)
    r = run_cli(*BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "1", "--format", "json",
                *llm_flags(fake_llm), "--max-cost", "1", input=f"{ANSWER}\n.\nNo idea.\n.\n",
                env={"OPENAI_API_KEY": FAKE_KEY})
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout)  # stdout holds only the record
    assert record["examiner"] == "openai/test-model"
    assert record["questions"][0]["grade"]["examiner"] == "openai/test-model"
    assert record["usage"]["prompt_tokens"] > 0 and record["usage"]["cost_usd"] is None
    assert "LiteLLM" not in r.stderr


def _doctor(*args: str) -> tuple[int, str]:
    from interviewer.cli import commands_doctor  # noqa: F401 - registers the command
    from interviewer.cli.main import cli

    result = CliRunner().invoke(cli, ["doctor", *args])
    return result.exit_code, result.output


def test_doctor_ready(fake_llm: FakeLLM) -> None:
    code, out = _doctor("--model", "openai/test-model", "--api-base", fake_llm.url)
    assert code == 0, out
    assert "OPENAI_API_KEY: set (value not shown)" in out and FAKE_KEY not in out
    assert "answered in" in out and "reachable" in out
    assert len(fake_llm.requests) == 1 and fake_llm.requests[0].body["max_tokens"] == 5
    assert "structured json_schema in response_format (OpenAI-compatible server" in out


def test_doctor_diagnoses(fake_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _doctor("--model", "openai/test-model", "--api-base", "http://127.0.0.1:9/v1", "--format", "json")
    data = json.loads(out)
    assert code == 1 and not data["ok"] and "http://127.0.0.1:9/v1" in data["diagnosis"]
    monkeypatch.delenv("OPENAI_API_KEY")
    code, out = _doctor("--model", "openai/test-model", "--api-base", fake_llm.url)
    assert code == 1 and "OPENAI_API_KEY is not set" in out and "skipped" in out
    code, out = _doctor("--model", "nonsense-provider/x")
    assert code == 1 and "provider/model form" in out
    code, out = _doctor()
    assert code == 0 and "offline examiner needs no model" in out
    assert fake_llm.requests == []
