"""`interviewer eval`: agreement with hand-graded answers, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from interviewer.bank.loader import Bank
from interviewer.calibration import load_all
from interviewer.evaluation import Scored, agreement
from interviewer.examiners.offline.examiner import grade_text
from tests.conftest import ROOT, run_cli
from tests.test_evaluation import reference_spearman


def test_shipped_set_matches_the_blind_yaml() -> None:
    out = subprocess.run([sys.executable, "tools/export_eval_set.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "210 answers" in out.stdout


def test_offline_eval_reproduces_the_benchmark_figures(bank: Bank) -> None:
    r = run_cli("eval", "--examiner", "offline", "--format", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    # What benchmarks/bench_offline.py --set blind computes: grade_text over tests/data/blind.
    answers = load_all(ROOT / "tests" / "data" / "blind")
    ref = agreement([Scored(a.id, a.question_id, a.lang, bank.get(a.question_id).track, a.grade,
                            grade_text(bank.get(a.question_id), a.answer, a.lang).overall, a.kind) for a in answers])
    got = report["agreement"]
    assert got["n"] == ref.n == 210
    assert abs(got["spearman"] - ref.spearman) < 1e-9 and abs(got["mae"] - ref.mae) < 1e-9
    assert got["fluent_wrong_below_partial"] == list(ref.fluent_wrong_below_partial)
    assert {k: v["spearman"] for k, v in got["by_lang"].items()} == {k: v.spearman for k, v in ref.by_lang.items()}
    assert report["cost_usd"] == 0.0 and report["tokens"] == {"prompt": 0, "completion": 0}
    assert r.stderr == ""  # no progress bar when stderr is not a terminal


def test_outside_set_text_json_and_html(tmp_path: Path) -> None:
    rows = [
        ("o1", "algo-05", "en", 9, "strong", "PPO uses a learned critic with GAE; lambda trades bias for variance. "
         "GRPO drops the critic and normalises rewards by the group mean and std."),
        ("o2", "algo-05", "en", 2, "fluent_wrong", "GRPO uses a critic and the baseline adds bias to the gradient."),
        ("o3", "algo-05", "it", 5, "partial", "Sottrarre una baseline riduce la varianza senza introdurre bias."),
        ("o4", "algo-01", "en", 0, None, "I like pizza."),
        ("o5", "infra-01", "en", 4, None, "Weights are synced from the trainer to the inference engine."),
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps({"id": i, "question_id": q, "lang": lg, "ref_score": s, "kind": k,
                                          "answer": a}) for i, q, lg, s, k, a in rows) + "\n", encoding="utf-8")
    html = tmp_path / "report.html"
    r = run_cli("eval", "--set", str(path), "--examiner", "offline", "--format", "json", "-o", str(html))
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    scores = {x["id"]: x["score"] for x in report["answers"]}
    outside = reference_spearman([float(s) for _, _, _, s, _, _ in rows], [scores[i] for i, *_ in rows])
    assert abs(report["agreement"]["spearman"] - outside) < 0.01
    page = html.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<svg" in page and page.count("<circle") == 5
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "<script" not in page
    text = run_cli("eval", "--set", str(path), "--examiner", "offline")
    assert text.returncode == 0
    assert "Spearman (all)" in text.stdout and "pair-order accuracy" in text.stdout
    assert "Agreement plot" in text.stdout and "cost $0 (offline)" in text.stdout


def test_bad_set_names_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"id": "a", "question_id": "algo-05", "answer": "x", "ref_score": 11}\n'
        '{"id": "b", "question_id": "nope", "answer": "x", "ref_score": 3}\n'
        "not json\n", encoding="utf-8")
    r = run_cli("eval", "--set", str(path))
    assert r.returncode == 2
    assert f"{path}:1: ref_score: must be a number from 0 to 10" in r.stderr
    assert f"{path}:2: question_id: unknown question 'nope'" in r.stderr
    assert f"{path}:3: invalid JSON" in r.stderr


def test_set_answers_meet_the_batch_limits_before_anything_is_graded(tmp_path: Path) -> None:
    from interviewer.batch import MAX_ANSWER_CHARS

    path = tmp_path / "long.jsonl"
    lines = [json.dumps({"id": f"a{i}", "question_id": "algo-05", "answer": "GRPO uses the group mean.", "ref_score": 3})
             for i in range(3)]
    lines.append(json.dumps({"id": "huge", "question_id": "algo-05", "answer": "x" * (MAX_ANSWER_CHARS + 1), "ref_score": 1}))
    lines.append("[" * 100_000)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run_cli("eval", "--set", str(path), "--examiner", "offline")
    assert r.returncode == 2
    assert f"{path}:4: answer: the answer has {MAX_ANSWER_CHARS + 1:,} characters; the limit is {MAX_ANSWER_CHARS:,}" in r.stderr
    assert f"{path}:5: invalid JSON" in r.stderr


def test_eval_reports_how_well_the_not_matched_list_finds_low_grades(bank: Bank, tmp_path: Path) -> None:
    from tests.test_offline_unjudged import PLAIN, TEXTBOOK

    rows = [{"id": f"plain-{lang}", "question_id": "algo-03", "answer": text, "lang": lang, "ref_score": 7.5, "kind": "paraphrase"}
            for lang, text in PLAIN.items()]
    rows.append({"id": "textbook", "question_id": "algo-03", "answer": TEXTBOOK, "lang": "en", "ref_score": 8, "kind": "good"})
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    r = run_cli("eval", "--set", str(path), "--examiner", "offline", "--format", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    # The plain-words answers the graded examples do not lift are listed and graded far too low (the Italian
    # and Japanese ones at least; an English one resembles a graded answer and is lifted); the textbook one is not.
    grades = [grade_text(bank.get("algo-03"), row["answer"], row["lang"]) for row in rows]
    listed = [bool(g.unjudged) for g in grades]
    under = [g.overall <= row["ref_score"] - 2 for g, row in zip(grades, rows, strict=True)]
    low = sum(1 for g, u in zip(grades, under, strict=True) if g.unjudged and u)
    assert [a["unjudged"] for a in report["answers"]] == listed
    assert listed[1:] == [True, True, False] and low >= 2
    assert report["agreement"]["unjudged"] == [sum(listed), low, sum(under)]
    text = run_cli("eval", "--set", str(path), "--examiner", "offline").stdout
    share = f"{low / sum(listed):.0%}"
    assert f"'not matched to the rubric' list: on {sum(listed)} answers; {low} of them graded 2+ points below the reference ({share})" in text


def test_eval_reports_the_grades_resemblance_raised_and_lowered(tmp_path: Path) -> None:
    from tests.test_resemblance import BLIND, TUNING3

    answer = TUNING3["infra-08-t3-10"]  # an Italian paraphrase the examples know: certainly raised
    thin = BLIND["algo-05-blind-grader_addressed-en"]  # thin sentences and a fake override: lowered
    rows = [{"id": answer.id, "question_id": answer.question_id, "answer": answer.answer, "lang": answer.lang,
             "ref_score": answer.grade, "kind": answer.kind},
            {"id": thin.id, "question_id": thin.question_id, "answer": thin.answer, "lang": thin.lang,
             "ref_score": thin.grade, "kind": thin.kind},
            {"id": "buzz", "question_id": "infra-08", "answer": "AReaL, PipelineRL, slime, veRL, OpenRLHF, staleness.",
             "lang": "en", "ref_score": 0.5, "kind": "buzzword"},
            {"id": "other", "question_id": "infra-08", "answer": "The KV cache stores keys and values of earlier tokens. "
             "Paged attention splits it into blocks.", "lang": "en", "ref_score": 0.0, "kind": "other_question"}]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    report = json.loads(run_cli("eval", "--set", str(path), "--examiner", "offline", "--format", "json").stdout)
    assert [a["lifted"] for a in report["answers"]] == [True, False, False, False]
    assert [a["lowered"] for a in report["answers"]] == [False, True, False, False]
    raised, bias = report["agreement"]["lifted"]
    assert raised == 1 and abs(bias) <= 1.5
    lowered, bias = report["agreement"]["lowered"]
    assert lowered == 1 and abs(bias) <= 1.5
    text = run_cli("eval", "--set", str(path), "--examiner", "offline").stdout
    assert "resemblance to graded example answers raised 1 grades" in text
    assert "resemblance to graded example answers lowered 1 grades" in text
