"""tools/map_outline.py proposes which key points each model-answer line states, and writes a valid field."""

from __future__ import annotations

from pathlib import Path

from interviewer.bank.loader import load_bank
from tests.conftest import ROOT
from tools.map_outline import main, propose


def _bank_without_points(tmp_path: Path) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir()
    text = (ROOT / "question_bank" / "algo-01.yaml").read_text(encoding="utf-8")
    (bank / "algo-01.yaml").write_text(text.split("\n  model_answer_points:\n", 1)[0] + "\n", encoding="utf-8")
    return bank


def test_it_proposes_the_point_each_line_states(tmp_path: Path) -> None:
    question = load_bank([_bank_without_points(tmp_path)], include_builtin=False).get("algo-01")
    assert question.rubric is not None and question.rubric.model_answer_points is None
    proposed = [ids for ids, _, _ in propose(question)]
    assert len(proposed) == len(question.rubric.model_answer.get("en"))
    # the line on continuous actions, the one on stochastic policies, the one on the LLM setting
    assert proposed[1] == ["argmax-continuous-actions"]
    assert proposed[2] == ["stochastic-policies"]
    assert proposed[-1] == ["llm-setting"]


def test_write_appends_a_field_the_loader_accepts_and_leaves_an_existing_one(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bank = _bank_without_points(tmp_path)
    assert main(["--bank", str(bank), "--write"]) == 0
    written = load_bank([bank], include_builtin=False).get("algo-01")
    assert written.rubric is not None and written.rubric.model_answer_points is not None
    assert len(written.rubric.model_answer_points) == len(written.rubric.model_answer.get("ja"))
    before = (bank / "algo-01.yaml").read_text(encoding="utf-8")
    assert main(["--bank", str(bank), "--write"]) == 0
    assert "has model_answer_points, left alone" in capsys.readouterr().out
    assert (bank / "algo-01.yaml").read_text(encoding="utf-8") == before


def test_the_shipped_bank_says_which_points_every_line_states() -> None:
    bank = load_bank()
    for question in bank.questions:
        assert question.rubric is not None and question.rubric.model_answer_points is not None, question.id
