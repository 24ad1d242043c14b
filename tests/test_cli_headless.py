"""The headless commands end to end, as a script would use them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import FIXTURES, run_cli

BANK = ["--bank", str(FIXTURES)]
STRONG = (
    "GRPO samples a group of responses and subtracts the group's mean reward as the baseline instead of a critic. "
    "The baseline reduces variance and keeps the gradient unbiased. Dividing by the std is optional per Dr. GRPO."
)


def test_grade_one_answer_json() -> None:
    r = run_cli(*BANK, "grade", "--question", "demo-01", "--answer", STRONG)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["question_id"] == "demo-01" and out["max_score"] == 10 and out["examiner"] == "offline"
    assert out["score"] >= 8 and out["follow_up"] is None
    assert all(c["evidence"] for c in out["criteria"] if c["score"] > 0)


def test_grade_from_stdin_text_format() -> None:
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer-file", "-", "--format", "text", input="GRPO uses groups.")
    assert r.returncode == 0 and "demo-01: Score" in r.stdout and "Follow-up:" in r.stdout
    assert "\x1b" not in r.stdout


def test_grade_italian_follow_up_in_italian() -> None:
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", "GRPO è un algoritmo.", "--lang", "it")
    assert json.loads(r.stdout)["follow_up"].startswith("Da dove viene")


def test_grade_bad_inputs_are_clear() -> None:
    r = run_cli(*BANK, "grade", "-q", "nope-01", "--answer", "x")
    assert r.returncode == 2 and "unknown question id 'nope-01'" in r.stderr
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", "   ")
    assert r.returncode == 2 and "the answer is empty" in r.stderr
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer-file", "-", input="x" * 1_000_000)
    assert r.returncode == 2 and "limit is 20,000" in r.stderr
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer-file", "/does/not/exist")
    assert r.returncode == 2 and "/does/not/exist" in r.stderr
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer", "x", "--examiner", "llm")
    assert r.returncode == 2 and "INTERVIEWER_MODEL" in r.stderr
    assert "Traceback" not in r.stderr


def test_batch_in_order_with_bad_lines(tmp_path: Path) -> None:
    lines = [
        json.dumps({"id": "a", "question_id": "demo-01", "answer": STRONG, "extra": 1}),
        "{not json",
        json.dumps({"id": "c", "question_id": "nope", "answer": "x"}),
        json.dumps({"id": "d", "question_id": "demo-01", "answer": ""}),
        json.dumps({"id": "e", "question_id": "demo-01", "answer": "x" * 1_000_000}),
        json.dumps({"id": "f", "question_id": "demo-01", "answer": "GRPO non usa un critic.", "lang": "it"}),
        json.dumps([1, 2]),
    ]
    f = tmp_path / "in.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run_cli(*BANK, "grade", "--batch", str(f), "--concurrency", "3")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", "line-2", "c", "d", "e", "f", "line-7"]
    assert out[0]["score"] >= 8 and out[0]["max_score"] == 10
    assert "invalid JSON" in out[1]["error"]
    assert "unknown question_id 'nope'" in out[2]["error"]
    assert "empty" in out[3]["error"]
    assert "limit" in out[4]["error"]
    assert "score" in out[5] and "error" not in out[5]
    assert "expected a JSON object" in out[6]["error"]
    assert "5 of 7 line(s) failed" in r.stderr


def test_schema_grade() -> None:
    r = run_cli("schema", "grade")
    schema = json.loads(r.stdout)
    assert {"id", "question_id", "score", "max_score", "criteria", "misconceptions", "follow_up", "examiner"} <= set(
        schema["properties"]
    )


def test_run_plain_through_a_pipe() -> None:
    stdin = "GRPO is a policy method.\n.\nThe group mean reward is the baseline.\n.\n:idk\n"
    r = run_cli(*BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "1", input=stdin)
    assert r.returncode == 0, r.stderr
    assert "[1/1] demo-01" in r.stdout and "Where does GRPO" in r.stdout and "Score" in r.stdout
    assert "\x1b" not in r.stdout


def test_run_plain_json_record_and_eof() -> None:
    r = run_cli(*BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "0", "--format", "json", input=STRONG)
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout)
    assert record["questions"][0]["grade"]["overall"] >= 8
    assert record["finished_at"]


def test_run_plain_strips_escape_sequences_from_answers_echo() -> None:
    r = run_cli(*BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "0", input="\x1b[2J\x1b]0;pwn\x07GRPO uses the group mean as baseline\n.\n")
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout


def test_run_without_plain_checks_the_plan_before_opening_the_tui() -> None:
    """Plan options mean "start this interview", in the TUI too: a bad id is a clear error, no app opens."""
    r = run_cli("run", "--questions", "nope")
    assert r.returncode == 2 and "unknown question id(s): nope" in r.stderr


def test_a_pass_command_needs_no_end_line() -> None:
    """':skip' on the first line answers at once; typed inside an answer it is just text."""
    from io import StringIO

    from interviewer.cli.commands_run import read_answer

    stream = StringIO(":skip\nGRPO drops the critic.\n:idk\n.\n :IDK \n")
    assert read_answer(stream) == ":skip"
    assert read_answer(stream) == "GRPO drops the critic.\n:idk"
    assert read_answer(stream) == ":IDK"
    assert read_answer(stream) is None
