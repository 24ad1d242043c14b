"""tools/shrink_cues.py removes only alternatives the matcher no longer needs, and rewrites cues in place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interviewer.bank.loader import load_bank, load_question
from interviewer.calibration import load_calibration
from interviewer.examiners.offline.examiner import grade_text
from tests.conftest import ROOT
from tools.shrink_cues import main, plan, shrink_cue

UNSHRUNK = ROOT / "tests" / "data" / "shrink_input"  # two rubrics from before the bank was shrunk


@pytest.mark.parametrize(
    ("cue", "lang", "stemmed", "expected"),
    [
        ("baseline + reduc|reduce|reduces|reduction", "en", True, "baseline + reduc"),
        ("reduc varian|reduc the varian|reduces the varian|lower varian", "en", True, "reduc varian|lower varian"),
        ("critic|critic model|value", "en", True, "critic|value"),
        ("scaled|scaling|scales", "en", True, "scaled"),  # one Snowball stem: scale
        ("scaled|scaling|scales", "en", False, "scaled|scaling|scales"),  # misconceptions keep written forms
        ("grpo + critic|no critic|without critic", "en", True, "grpo + critic|no critic|without critic"),  # negations stay
        ("mean=|means", "en", True, "mean=|means"),  # pinned forms stay
        ("varianza|varianze", "it", True, "varianza"),
        ("広げる|広げ|拡大", "ja", True, "広げる|拡大"),  # same dictionary form (Sudachi)
        # a shorter Japanese match moves where negation is read (after it): both stay
        ("分散|分散を減らす", "ja", True, "分散|分散を減らす"),
        ("完全に一致|完全に一致するので", "ja", False, "完全に一致|完全に一致するので"),
        ("使う|使わない", "ja", True, "使う|使わない"),  # a negated form is its own claim
    ],
)
def test_shrink_cue(cue: str, lang: str, stemmed: bool, expected: str) -> None:
    assert shrink_cue(cue, lang, stemmed) == expected


def test_rewrite_on_a_copy_keeps_scores_and_is_idempotent(tmp_path: Path) -> None:
    bank_dir = tmp_path / "bank"
    bank_dir.mkdir()
    for qid in ("algo-05", "algo-08"):  # block lists and flow lists
        shutil.copy(UNSHRUNK / f"{qid}.yaml", bank_dir)
    _, before = plan(bank_dir / "algo-08.yaml")
    assert main(["--bank", str(bank_dir), "--write"]) == 0
    _, after = plan(bank_dir / "algo-08.yaml")
    assert after.before == before.after < before.before  # fewer alternatives, and a second run changes nothing
    assert after.after == after.before
    original, shrunk = load_bank([UNSHRUNK], include_builtin=False), load_bank([bank_dir], include_builtin=False)
    for qid in ("algo-05", "algo-08"):
        q, errors = load_question(bank_dir / f"{qid}.yaml")
        assert q is not None, errors
        for a in load_calibration(ROOT / "tests" / "data" / "calibration" / f"{qid}.yaml"):
            old = grade_text(original.get(qid), a.answer, a.lang).overall
            assert grade_text(shrunk.get(qid), a.answer, a.lang).overall == old, a.id


def test_check_rubric_verifies_a_shrunk_custom_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tools.check_rubric import main as check_rubric

    shutil.copy(UNSHRUNK / "algo-05.yaml", tmp_path)
    assert main(["--bank", str(tmp_path), "--write"]) == 0
    assert check_rubric([str(tmp_path / "algo-05.yaml")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("OK")


def test_the_shipped_bank_is_already_shrunk() -> None:
    """The bank was rewritten by the tool (scores of all graded answers unchanged); a second run finds nothing."""
    for path in sorted((ROOT / "question_bank").glob("*.yaml")):
        _, counts = plan(path)
        assert counts.after == counts.before, path.name
