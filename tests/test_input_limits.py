"""Bad input gets a clear error, never a traceback, and never exhausts memory (issue 15, F12)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.conftest import FIXTURES, ROOT, run_cli

BANK = ["--bank", str(FIXTURES)]


def test_non_utf8_config_is_a_clear_error() -> None:
    home = Path(os.environ["INTERVIEWER_HOME"])
    home.mkdir(parents=True)
    (home / "config.toml").write_bytes(b'lang = "en"\n# caf\xe9\n')
    r = run_cli("list")
    assert r.returncode == 1 and "config.toml: not valid UTF-8 (byte 18)" in r.stderr
    assert "Traceback" not in r.stderr


def test_yaml_complex_key_is_a_clear_error(tmp_path: Path) -> None:
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "q.yaml").write_text("? [1, 2]\n: x\n", encoding="utf-8")
    r = run_cli("bank", "validate", str(bank))
    assert r.returncode == 1 and "a key must be a plain value, not a list" in r.stdout and "line 1" in r.stdout
    r = run_cli("--bank", str(bank), "list")
    assert r.returncode == 1 and "a key must be a plain value" in r.stderr
    assert "Traceback" not in r.stderr


def test_bank_validate_reports_a_clash_with_the_builtin_bank(tmp_path: Path) -> None:
    bank = tmp_path / "mine"
    bank.mkdir()
    shutil.copy(ROOT / "question_bank" / "algo-05.yaml", bank / "copy.yaml")
    r = run_cli("bank", "validate", str(bank))
    assert r.returncode == 1 and "duplicate id 'algo-05'" in r.stdout
    assert run_cli("bank", "validate", str(FIXTURES)).returncode == 0  # ids of its own are fine


def test_answer_file_dev_zero_is_refused_without_reading_it_all() -> None:
    r = run_cli(*BANK, "grade", "-q", "demo-01", "--answer-file", "/dev/zero", timeout=30)
    assert r.returncode == 2 and "more than 20,000 characters" in r.stderr


def test_plain_mode_enforces_the_answer_limit() -> None:
    huge = "word " * 5_000 + "\n" + "x" * 20_000
    stdin = f"{huge}\n.\nGRPO uses the group mean reward as the baseline.\n.\n"
    r = run_cli(*BANK, "run", "--plain", "--questions", "demo-01", "--follow-ups", "0", "--format", "json", input=stdin)
    assert r.returncode == 0, r.stderr
    assert "more than 20,000 characters" in r.stderr
    import json

    record = json.loads(r.stdout)
    answers = [t["text"] for t in record["questions"][0]["turns"] if t["kind"] == "answer"]
    assert answers == ["GRPO uses the group mean reward as the baseline."]
