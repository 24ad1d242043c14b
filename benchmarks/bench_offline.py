"""Offline examiner: quality on the calibration sets, and speed.

    python benchmarks/bench_offline.py

`--set blind` uses tests/data/blind (answers written without seeing the rubrics).
Prints Spearman between offline scores and reference grades (overall and per
language), the mean score of the adversarial kinds, how often a fluent-but-wrong
answer scores below a partial answer to the same question, the median ms per
answer, and the wall time of a 1,000-answer `grade --batch`, process start included.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.bank.loader import load_bank  # noqa: E402
from interviewer.calibration import CalibrationAnswer, load_all  # noqa: E402
from interviewer.evaluation import Scored, agreement  # noqa: E402
from interviewer.examiners.offline.examiner import grade_text  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--set",
        choices=["calibration", "blind"],
        default="calibration",
        help="calibration: written with the rubrics; blind: written without seeing the rubric cues",
    )
    parser.add_argument("--no-batch", action="store_true", help="skip the 1,000-answer batch timing")
    args = parser.parse_args()
    bank = load_bank()
    answers: list[CalibrationAnswer] = load_all(ROOT / "tests" / "data" / args.set)
    print(f"answer set: tests/data/{args.set}")
    answers = [a for a in answers if a.question_id in bank and bank.get(a.question_id).rubric is not None]
    scored: list[tuple[CalibrationAnswer, float]] = []
    times: list[float] = []
    for a in answers:
        q = bank.get(a.question_id)
        t0 = time.perf_counter()
        g = grade_text(q, a.answer, a.lang)
        times.append((time.perf_counter() - t0) * 1000)
        scored.append((a, g.overall))

    print(f"graded answers: {len(scored)} over {len({a.question_id for a, _ in scored})} questions")
    # The same statistics as `interviewer eval` (interviewer/evaluation.py), so the figures match.
    ag = agreement([Scored(a.id, a.question_id, a.lang, bank.get(a.question_id).track, a.grade, s, a.kind)
                    for a, s in scored])
    print(f"Spearman (all): {ag.spearman:.3f}   (target >= 0.85 on the held-out set)")
    for key, g in [*ag.by_lang.items(), *ag.by_track.items()]:
        print(f"  Spearman [{key}] n={g.n}: {g.spearman:.3f}")
    print(f"pair-order accuracy: {ag.pair_accuracy:.3f}")
    print(f"mean absolute error vs reference: {ag.mae:.2f}")
    for kind, m in ag.by_kind.items():
        print(f"mean score {kind:16s} {m.score:5.2f}  (n={m.n})")
    if ag.adversarial_mean is not None:
        print(f"mean of the three adversarial kinds: {ag.adversarial_mean:.2f}   (target <= 2.5)")
    (wins, pairs), (mean_wins, _) = ag.fluent_wrong_below_partial, ag.fluent_wrong_below_partial_means
    if pairs:
        print(f"fluent-but-wrong below partial, every pair: {wins}/{pairs} questions = {wins / pairs:.0%}   (target >= 80%)")
        print(f"fluent-but-wrong below partial, question means: {mean_wins}/{pairs} = {mean_wins / pairs:.0%}")

    print(f"median ms per answer: {statistics.median(times):.2f}  (p95 {sorted(times)[int(0.95 * len(times))]:.2f}; target <= 5 ms)")

    if args.no_batch:
        return
    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "batch.jsonl"
        with batch.open("w", encoding="utf-8") as f:
            for i in range(1000):
                a = answers[i % len(answers)]
                f.write(json.dumps({"id": str(i), "question_id": a.question_id, "answer": a.answer, "lang": a.lang}) + "\n")
        t0 = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-m", "interviewer", "grade", "--batch", str(batch)],
            capture_output=True,
            text=True,
            env={"INTERVIEWER_HOME": tmp, "PATH": "/usr/bin:/bin"},
            cwd=ROOT,
        )
        wall = time.perf_counter() - t0
        lines = out.stdout.count("\n")
        print(f"1,000-answer batch, process start included: {wall:.2f} s ({lines} lines, exit {out.returncode}; target <= 5 s)")


if __name__ == "__main__":
    main()
