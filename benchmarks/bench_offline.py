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
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.bank.loader import load_bank  # noqa: E402
from interviewer.calibration import CalibrationAnswer, load_all  # noqa: E402
from interviewer.examiners.offline.examiner import grade_text  # noqa: E402


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


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
    ref = [a.grade for a, _ in scored]
    got = [s for _, s in scored]
    print(f"Spearman (all): {spearman(ref, got):.3f}   (target >= 0.85 on the held-out set)")
    for lang in ("en", "it", "ja"):
        sub = [(a.grade, s) for a, s in scored if a.lang == lang]
        if len(sub) > 2:
            print(f"  Spearman [{lang}] n={len(sub)}: {spearman([x for x, _ in sub], [y for _, y in sub]):.3f}")
    for track in ("algo", "infra"):
        sub = [(a.grade, s) for a, s in scored if a.question_id.startswith(track)]
        if len(sub) > 2:
            print(f"  Spearman [{track}] n={len(sub)}: {spearman([x for x, _ in sub], [y for _, y in sub]):.3f}")
    mae = statistics.fmean(abs(x - y) for x, y in zip(ref, got, strict=True))
    print(f"mean absolute error vs reference: {mae:.2f}")

    by_kind: dict[str, list[float]] = defaultdict(list)
    for a, s in scored:
        by_kind[a.kind].append(s)
    for kind in ("strong", "partial", "fluent_wrong", "buzzword", "grader_addressed", "off_topic"):
        if by_kind[kind]:
            print(f"mean score {kind:16s} {statistics.fmean(by_kind[kind]):5.2f}  (n={len(by_kind[kind])})")
    adversarial = by_kind["fluent_wrong"] + by_kind["buzzword"] + by_kind["grader_addressed"]
    if adversarial:
        print(f"mean of the three adversarial kinds: {statistics.fmean(adversarial):.2f}   (target <= 2.5)")

    per_q: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for a, s in scored:
        per_q[a.question_id][a.kind].append(s)
    pairs = wins = mean_wins = 0
    for kinds in per_q.values():
        if kinds["fluent_wrong"] and kinds["partial"]:
            pairs += 1
            wins += max(kinds["fluent_wrong"]) < min(kinds["partial"])
            mean_wins += statistics.fmean(kinds["fluent_wrong"]) < statistics.fmean(kinds["partial"])
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
