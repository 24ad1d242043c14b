"""tools/prune_cues.py keeps the cue alternatives graded answers used, drops the rest, and grades the same."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from interviewer.bank.loader import load_bank
from interviewer.examiners.offline.examiner import grade_text
from tests.conftest import ROOT
from tools.prune_cues import Liveness, fingerprint, main, plan, record

BOGUS = "frobnicated quux"  # an alternative no answer holds


def _copy_with_bogus(tmp_path: Path) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir()
    text = (ROOT / "question_bank" / "algo-05.yaml").read_text(encoding="utf-8")
    first = '"gae|generalized advantage + lambda|'
    assert first in text
    (bank / "algo-05.yaml").write_text(text.replace(first, f'"gae|{BOGUS}|generalized advantage + lambda|', 1), encoding="utf-8")
    return bank


def _one_answer_set(tmp_path: Path) -> Path:
    data = yaml.safe_load((ROOT / "tests" / "data" / "calibration" / "algo-05.yaml").read_text(encoding="utf-8"))
    data["answers"] = [a for a in data["answers"] if a["id"] == "algo-05-strong-en"]
    sets = tmp_path / "set"
    sets.mkdir()
    (sets / "algo-05.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return sets


def test_plan_keeps_what_was_used_and_leaves_misconceptions_alone(tmp_path: Path) -> None:
    bank = _copy_with_bogus(tmp_path)
    path = bank / "algo-05.yaml"
    cue = next(c for c in yaml.safe_load(path.read_text(encoding="utf-8"))["rubric"]["key_points"][0]["cues"]["en"] if BOGUS in c)
    # the recording saw "gae" and "lambda" in one matched sentence of this cue, nothing else anywhere
    changes, before, after = plan(path, Liveness({(cue, "en", "gae"), (cue, "en", "lambda")}))
    assert changes[cue] == "gae + lambda"
    assert after < before
    rubric = yaml.safe_load(path.read_text(encoding="utf-8"))["rubric"]
    mistaken = {c for m in rubric["misconceptions"] for cues in m["cues"].values() for c in cues}
    assert not mistaken & set(changes)  # misconception cues are never planned
    # a key point none of whose cues matched in a language keeps every cue as written
    it_cues = rubric["key_points"][0]["cues"]["it"]
    assert all(changes[c] == c for c in it_cues)


def test_recording_on_a_copy_drops_an_unused_alternative_and_grades_the_same(tmp_path: Path) -> None:
    bank, sets = _copy_with_bogus(tmp_path), _one_answer_set(tmp_path)
    seen = record(bank, [sets], 1, [])
    used = {raw for _, lang, raw in seen if lang == "en"}
    assert "gae" in used and BOGUS not in used
    answer = yaml.safe_load((sets / "algo-05.yaml").read_text(encoding="utf-8"))["answers"][0]["answer"]
    before = grade_text(load_bank([bank], include_builtin=False).get("algo-05"), answer, "en")
    saved = tmp_path / "recording.json"
    saved.write_text(json.dumps({"bank": fingerprint(bank), "seen": sorted(seen)}), encoding="utf-8")
    assert main(["--bank", str(bank), "--load", str(saved), "--pinned", str(tmp_path / "none.yaml"), "--jobs", "1", "--write"]) == 0
    assert BOGUS not in (bank / "algo-05.yaml").read_text(encoding="utf-8")
    assert main(["--bank", str(bank), "--load", str(saved), "--jobs", "1"]) == 2  # it fits only the bank it was made on
    after = grade_text(load_bank([bank], include_builtin=False).get("algo-05"), answer, "en")
    assert after.overall == before.overall
    assert [(c.id, c.score) for c in after.criteria] == [(c.id, c.score) for c in before.criteria]


def test_pinned_sentences_name_questions_of_the_bank() -> None:
    pinned = yaml.safe_load((ROOT / "tests" / "data" / "prune_pinned.yaml").read_text(encoding="utf-8"))
    bank = load_bank()
    assert pinned and all(p["question"] in bank and p["lang"] in ("en", "it", "ja") and p["text"].strip() for p in pinned)


def test_shipped_bank_copy_fingerprint_changes_with_a_cue(tmp_path: Path) -> None:
    bank = tmp_path / "bank"
    shutil.copytree(ROOT / "question_bank", bank)
    old = fingerprint(bank)
    path = bank / "algo-05.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('"gae|', '"gae|gae estimator|', 1), encoding="utf-8")
    assert fingerprint(bank) != old
