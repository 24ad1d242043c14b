"""Fault injection through the real command line against the local fake server (issue 15, F1/F3/F10/F11).

Every test starts its own HTTP server on 127.0.0.1 (tests/llm/fakeserver.py)
and runs `python -m interviewer` as a user would.
"""

from __future__ import annotations

import json
import time

import pytest

from interviewer.bank.loader import Bank, load_bank
from tests.conftest import FIXTURES, run_cli
from tests.llm.conftest import FAKE_KEY
from tests.llm.fakeserver import FakeLLM, Flaky, Reply
from tests.llm.oracle import Oracle

BANK = ["--bank", str(FIXTURES)]
ANSWER = "GRPO samples a group of answers and subtracts the group's mean reward as the baseline."
ENV = {"OPENAI_API_KEY": FAKE_KEY}


@pytest.fixture
def oracle_bank() -> Bank:
    return load_bank([FIXTURES], include_builtin=False)


def llm_flags(server: FakeLLM) -> list[str]:
    return ["--examiner", "llm", "--model", "openai/test-model", "--api-base", server.url]


def batch_input(n: int) -> str:
    return "".join(json.dumps({"id": f"r{i}", "question_id": "demo-01", "answer": f"{ANSWER} ({i})"}) + "\n"
                   for i in range(n))


def run_batch(server: FakeLLM, n: int) -> tuple[list[dict[str, object]], str, int, float]:
    t0 = time.perf_counter()
    r = run_cli(*BANK, "grade", "--batch", "-", *llm_flags(server), "--concurrency", "16",
                input=batch_input(n), env=ENV, timeout=300)
    seconds = time.perf_counter() - t0
    out = [json.loads(line) for line in r.stdout.splitlines()]
    return out, r.stderr, r.returncode, seconds


def check_all_graded(out: list[dict[str, object]], n: int) -> None:
    assert [o["id"] for o in out] == [f"r{i}" for i in range(n)]  # every line, in input order
    for o in out:
        assert "error" not in o, o
        if o["examiner"] != "openai/test-model":  # graded offline: labelled, with the reason
            assert o["examiner"] == "offline" and "offline" in str(o["note"]), o


def test_batch_survives_random_429_and_500(fake_llm: FakeLLM, oracle_bank: Bank) -> None:
    """200 lines, 16 at a time, 20% of requests answered 429/500 at random: no line is lost, none
    is reordered, and each run takes at most twice as long as the same batch with no faults.

    The fault-free batch runs before and after the faulty ones and the slower of the two is the
    baseline: the machine's load changes over minutes, and both are real runs under it."""
    n = 200
    oracle = Oracle(oracle_bank)
    fake_llm.responder = oracle
    clean, _, code, before_s = run_batch(fake_llm, n)
    assert code == 0
    check_all_graded(clean, n)
    runs: list[tuple[int, float]] = []
    for seed in (1, 2, 3):
        flaky = Flaky(oracle, 0.2, seed)
        fake_llm.responder = flaky
        out, err, code, seconds = run_batch(fake_llm, n)
        check_all_graded(out, n)
        by_model = sum(1 for o in out if o["examiner"] == "openai/test-model")
        assert flaky.failed > 40  # the faults really happened
        assert code == (0 if by_model == n else 3), err
        assert f"{n} line(s) graded: {by_model} by openai/test-model" in err
        runs.append((seed, seconds))
    fake_llm.responder = oracle
    _, _, code, after_s = run_batch(fake_llm, n)
    assert code == 0
    clean_s = max(before_s, after_s)
    for seed, seconds in runs:
        print(f"seed {seed}: {seconds:.1f}s with faults; fault-free {before_s:.1f}s before, {after_s:.1f}s after")
        assert seconds <= 2 * clean_s, f"seed {seed}: {seconds:.1f}s with faults vs {clean_s:.1f}s without"


def test_four_500s_on_the_first_request_lose_nothing(fake_llm: FakeLLM, oracle_bank: Bank) -> None:
    fake_llm.script(*[Reply.fail(500, "warming up")] * 4)
    fake_llm.responder = Oracle(oracle_bank)
    out, err, code, _ = run_batch(fake_llm, 20)
    check_all_graded(out, 20)
    assert code in (0, 3) and "20 line(s) graded" in err


def test_dead_model_grades_every_line_offline_and_says_so(fake_llm: FakeLLM) -> None:
    fake_llm.responder = lambda seen: Reply.fail(503, "down for maintenance")
    out, err, code, _ = run_batch(fake_llm, 12)
    check_all_graded(out, 12)
    assert all(o["examiner"] == "offline" for o in out)
    assert "down for maintenance" in str(out[0]["note"])
    assert code == 3 and "12 line(s) graded: 12 by offline" in err


HOSTILE = "clip \x1b]52;c;cHduZWQ=\x07 title \x1b]2;pwned\x1b\\ csi \x1b[2J c1 \x9b31m bidi \u202eevil end"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def assert_clean(text: str) -> None:
    for ch in RAW:
        assert ch not in text, repr(text)


def test_server_escapes_never_reach_the_terminal(fake_llm: FakeLLM, tmp_path: object) -> None:
    """F3: an error body with OSC 52, OSC 2, CSI, 8-bit CSI and a bidi override, on every terminal path."""
    fake_llm.responder = lambda seen: Reply.fail(500, HOSTILE)
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", ANSWER, *llm_flags(fake_llm), env=ENV)
    assert r.returncode == 1 and "clip" in r.stderr
    assert_clean(r.stdout + r.stderr)

    r = run_cli("doctor", "--model", "openai/test-model", "--api-base", fake_llm.url, env=ENV)
    assert "clip" in r.stdout
    assert_clean(r.stdout + r.stderr)

    # a rejected probe is logged as a warning: silent by default, sanitised with INTERVIEWER_LOG
    fake_llm.responder = lambda seen: (Reply.fail(400, HOSTILE) if seen.body.get("stream")
                                       else Reply.text(json.dumps({"criteria": [], "misconceptions": []})))
    quiet = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", ANSWER, *llm_flags(fake_llm), env=ENV)
    assert quiet.returncode == 0 and quiet.stderr == ""
    loud = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", ANSWER, *llm_flags(fake_llm),
                   env={**ENV, "INTERVIEWER_LOG": "warning"})
    assert "probe request failed" in loud.stderr and "clip" in loud.stderr
    assert_clean(loud.stdout + loud.stderr)

    # the failure is stored in the interview's notes; the Markdown report prints them
    fake_llm.responder = lambda seen: Reply.fail(500, HOSTILE)
    r = run_cli(*BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "0", "--format", "json",
                *llm_flags(fake_llm), input=f"{ANSWER}\n.\n", env=ENV)
    assert r.returncode == 0, r.stderr
    session = json.loads(r.stdout)["id"]
    assert_clean(r.stdout + r.stderr)
    md = run_cli(*BANK, "report", session, "--format", "md")
    assert "clip" in md.stdout
    assert_clean(md.stdout + md.stderr)
    js = run_cli(*BANK, "report", session, "--format", "json")
    assert_clean(js.stdout)  # JSON keeps the characters as \\u escapes


def test_url_password_is_never_printed_or_stored(fake_llm: FakeLLM) -> None:
    """F11: `--api-base http://user:pass@host/v1` works, and the password shows nowhere."""
    from pathlib import Path

    secret = "URLPASS-77aa-not-for-disk"
    base = fake_llm.url.replace("http://", f"http://user:{secret}@")
    fake_llm.responder = lambda seen: Reply.fail(500, "upstream trouble")
    flags = ["--examiner", "llm", "--model", "openai/test-model", "--api-base", base]
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", ANSWER, *flags, env=ENV)
    assert r.returncode == 1 and "http://***@127.0.0.1" in r.stderr and secret not in r.stdout + r.stderr
    r = run_cli(*BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "0", *flags,
                input=f"{ANSWER}\n.\n", env=ENV)
    assert r.returncode == 0 and "***@" in r.stdout and secret not in r.stdout + r.stderr
    r = run_cli("doctor", *flags[2:], env=ENV)
    assert secret not in r.stdout + r.stderr
    import os

    home = Path(os.environ["INTERVIEWER_HOME"])
    for f in home.rglob("*"):
        if f.is_file():
            assert secret.encode() not in f.read_bytes(), f


async def test_grade_is_kept_when_its_follow_up_fails(fake_llm: FakeLLM, oracle_bank: Bank) -> None:
    """F1: the model graded the answer, then the probe request failed every attempt: the model's grade
    stays, the follow-up comes from the offline examiner, and the note says so."""
    from interviewer.batch import Request, grade_request
    from tests.llm.conftest import make

    oracle = Oracle(oracle_bank)
    fake_llm.responder = lambda seen: Reply.fail(500, "probe path down") if seen.body.get("stream") else oracle(seen)
    result, _ = await grade_request(make(fake_llm), oracle_bank, Request("x", "demo-01", ANSWER, "en"))
    assert result.examiner == "openai/test-model" and result.follow_up
    assert result.note is not None and result.note.startswith("offline follow-up:") and "probe path down" in result.note
