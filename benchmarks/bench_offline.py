"""Offline examiner: quality on the calibration sets, and speed.

    python benchmarks/bench_offline.py [--set calibration|blind|adversarial|DIR ...] [--no-batch]

`--set blind` uses tests/data/blind (answers written without seeing the rubrics);
`--set DIR` any directory of graded YAML in the same format (kinds such as negated,
paraphrase or rambling, and `parity` ids for the same content in en/it/ja).
Prints Spearman between offline scores and reference grades (overall and per
language), the mean score of the adversarial kinds, how often a fluent-but-wrong
answer scores below a partial answer to the same question, the median ms per
answer, and the wall time of a 1,000-answer `grade --batch`, process start included (with the default
worker processes, one per core up to 4, and in one process with --jobs 1).
The statistics come from interviewer/evaluation.py, the code `interviewer eval` uses.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.bank.loader import Bank, load_bank  # noqa: E402
from interviewer.calibration import CalibrationAnswer, load_all  # noqa: E402
from interviewer.evaluation import Scored, fluent_wrong_vs_partial, question_pair_order, spearman  # noqa: E402
from interviewer.examiners.offline import resemblance  # noqa: E402
from interviewer.examiners.offline.examiner import grade_text  # noqa: E402


def _scored(scored: list[tuple[CalibrationAnswer, float]]) -> list[Scored]:
    return [Scored(a.id, a.question_id, a.lang, a.question_id.split("-")[0], a.grade, s, a.kind) for a, s in scored]


def pair_order(scored: list[tuple[CalibrationAnswer, float]], min_gap: float = 1.0) -> float:
    """Share of same-question answer pairs (reference grades >= min_gap apart) ordered like the reference; ties count half."""
    return question_pair_order(_scored(scored), min_gap)


def fluent_wrong_below_partial(scored: list[tuple[CalibrationAnswer, float]]) -> tuple[int, int, int]:
    """(questions, every fluent-wrong below every partial, question means in order)."""
    (wins, pairs), (mean_wins, _) = fluent_wrong_vs_partial(_scored(scored))
    return pairs, wins, mean_wins


def parity(scored: list[tuple[CalibrationAnswer, float]]) -> list[float]:
    """Score spread (max - min) of each parity group: the same content in en/it/ja."""
    groups: dict[str, list[float]] = defaultdict(list)
    for a, s in scored:
        if a.parity:
            groups[f"{a.question_id}/{a.parity}"].append(s)
    return [max(v) - min(v) for v in groups.values() if len(v) >= 2]


def resolve_set(name: str) -> Path:
    """calibration, blind, adversarial (tests/data/<name>) or any directory of graded YAML."""
    builtin = ROOT / "tests" / "data" / name
    path = builtin if builtin.is_dir() else Path(name)
    if not path.is_dir():
        raise SystemExit(f"--set {name}: not tests/data/{name} and not a directory")
    return path


def report(scored: list[tuple[CalibrationAnswer, float]]) -> None:
    """Print every figure of the issue's targets, overall, per language and per kind."""
    ref = [a.grade for a, _ in scored]
    got = [s for _, s in scored]
    print(f"graded answers: {len(scored)} over {len({a.question_id for a, _ in scored})} questions")
    print(f"Spearman (all): {spearman(ref, got):.3f}   (target >= 0.90; set B >= 0.82)")
    for lang in ("en", "it", "ja"):
        sub = [(a.grade, s) for a, s in scored if a.lang == lang]
        if len(sub) > 2:
            print(f"  Spearman [{lang}] n={len(sub)}: {spearman([x for x, _ in sub], [y for _, y in sub]):.3f}")
    itja = [(a.grade, s) for a, s in scored if a.lang in ("it", "ja")]
    if len(itja) > 2:
        print(f"  Spearman [it+ja] n={len(itja)}: {spearman([x for x, _ in itja], [y for _, y in itja]):.3f}   (target >= 0.85)")
    for track in ("algo", "infra"):
        sub = [(a.grade, s) for a, s in scored if a.question_id.startswith(track)]
        if len(sub) > 2:
            print(f"  Spearman [{track}] n={len(sub)}: {spearman([x for x, _ in sub], [y for _, y in sub]):.3f}")
    print(f"pair-order accuracy (same question, grades >= 1 apart): {pair_order(scored):.3f}   (target >= 0.95)")
    mae = statistics.fmean(abs(x - y) for x, y in zip(ref, got, strict=True))
    print(f"MAE vs reference: {mae:.2f}   (target <= 1.2; set B <= 1.5)")
    for lang in ("en", "it", "ja"):
        sub = [abs(a.grade - s) for a, s in scored if a.lang == lang]
        if sub:
            print(f"  MAE [{lang}]: {statistics.fmean(sub):.2f}")

    by_kind: dict[str, list[tuple[CalibrationAnswer, float]]] = defaultdict(list)
    for a, s in scored:
        by_kind[a.kind].append((a, s))
    targets = {"negated": "<= 2.5", "fluent_wrong": "<= 2.0", "paraphrase": ">= 8.5", "grader_addressed": "max <= 3 (B: <= 2)"}
    print("per kind: n, mean score, mean reference, max score, MAE, and per language mean")
    for kind in sorted(by_kind):
        items = by_kind[kind]
        scores = [s for _, s in items]
        langs = "  ".join(
            f"{lang} {statistics.fmean([s for a, s in items if a.lang == lang]):.2f}"
            for lang in ("en", "it", "ja") if any(a.lang == lang for a, _ in items)
        )
        print(
            f"  {kind:18s} n={len(items):3d}  mean {statistics.fmean(scores):5.2f}  ref {statistics.fmean(a.grade for a, _ in items):5.2f}"
            f"  max {max(scores):4.1f}  MAE {statistics.fmean(abs(a.grade - s) for a, s in items):4.2f}   [{langs}]"
            + (f"  target {targets[kind]}" if kind in targets else "")
        )
    pairs, wins, mean_wins = fluent_wrong_below_partial(scored)
    if pairs:
        print(f"fluent-wrong below partial, question means: {mean_wins}/{pairs} = {mean_wins / pairs:.0%}   (target >= 85%)")
        print(f"fluent-wrong below partial, every pair:     {wins}/{pairs} = {wins / pairs:.0%}")
    spreads = parity(scored)
    if spreads:
        within = sum(sp <= 1.0 for sp in spreads)
        print(
            f"parity (same content en/it/ja): {within}/{len(spreads)} groups within 1.0, mean spread {statistics.fmean(spreads):.2f},"
            f" worst {max(spreads):.1f}   (target: every group within 1.0)"
        )


def report_unjudged(scored: list[tuple[CalibrationAnswer, float]], listed: set[int]) -> None:
    """How well the "not matched to the rubric" list points at grades that are too low (2+ points under).

    `listed` holds the positions in `scored` of the answers whose grade carries the list."""
    if not scored:
        return
    under = {i for i, (a, s) in enumerate(scored) if a.grade - s >= UNDER_GRADED}
    shown = [a for i, (a, _) in enumerate(scored) if i in listed]
    hit = len(under & listed)
    recall = f"{hit}/{len(under)} = {hit / len(under):.0%}" if under else "n/a"
    precision = f"{hit}/{len(shown)} = {hit / len(shown):.0%}" if shown else "n/a"
    print(f"'not matched to the rubric' list: on {len(shown)}/{len(scored)} answers; of the answers graded"
          f" {UNDER_GRADED:g}+ points too low it is on {recall}; of those it is on, {precision} are graded that low")
    kinds = sorted({a.kind for a, _ in scored})
    print("  per kind: " + "  ".join(
        f"{k} {sum(1 for a in shown if a.kind == k)}/{sum(1 for a, _ in scored if a.kind == k)}" for k in kinds))


UNDER_GRADED = 2.0


def print_cue_data(bank: Bank) -> None:
    """How much hand-written cue data the grader carries: rubric alternatives plus the shared lexicon."""
    from interviewer.bank.lexicon import builtin_lexicon

    cues = alternatives = 0
    for q in bank.questions:
        if q.rubric is None:
            continue
        for owner in [*q.rubric.key_points, *q.rubric.misconceptions]:
            for lang in ("en", "it", "ja"):
                for cue in owner.cues.get(lang):
                    cues += 1
                    alternatives += cue.count("|") + cue.count("+") + 1
    lexicon = builtin_lexicon()
    print(
        f"cue data: {cues} cues, {alternatives} rubric alternatives + {lexicon.alternatives()} lexicon phrases "
        f"in {len(lexicon.concepts)} concepts (issue target: under 16,000 in all)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--set",
        action="append",
        default=None,
        help="calibration (default), blind, adversarial, or a directory of graded YAML; repeat to pool sets",
    )
    parser.add_argument("--no-batch", action="store_true", help="skip the 1,000-answer batch timing")
    parser.add_argument("--no-lexicon", action="store_true", help="grade without the concept lexicon (for comparison)")
    args = parser.parse_args()
    bank = load_bank()
    if args.no_lexicon:
        from interviewer.bank.lexicon import Lexicon
        from interviewer.examiners.offline.cues import use_lexicon

        use_lexicon(Lexicon())
    print_cue_data(bank)
    answers: list[CalibrationAnswer] = []
    for name in args.set or ["calibration"]:
        path = resolve_set(name)
        print(f"answer set: {path}")
        answers += load_all(path)
    answers = [a for a in answers if a.question_id in bank and bank.get(a.question_id).rubric is not None]
    scored: list[tuple[CalibrationAnswer, float]] = []
    listed: set[int] = set()
    lifted: list[float] = []  # score minus reference of the answers resemblance raised
    lowered: list[float] = []  # ... and of those it lowered
    times: list[float] = []
    for a in answers:
        grade_text(bank.get(a.question_id), a.answer, a.lang)  # warm: lazy analysers load once per process
        break
    for a in answers:
        q = bank.get(a.question_id)
        t0 = time.perf_counter()
        g = grade_text(q, a.answer, a.lang)
        times.append((time.perf_counter() - t0) * 1000)
        scored.append((a, g.overall))
        if g.unjudged:
            listed.add(len(scored) - 1)
        if g.resemblance_shift:
            (lifted if g.resemblance_shift > 0 else lowered).append(g.overall - a.grade)
    report(scored)
    report_unjudged(scored, listed)
    for moved, verb in ((lifted, "raised"), (lowered, "lowered")):
        if moved:
            print(f"resemblance to graded examples {verb} {len(moved)}/{len(scored)} grades; those score "
                  f"{statistics.fmean(moved):+.2f} against the reference on average")
    warm: list[float] = []
    for a in answers:  # second pass: compiled cues and analysers cached, as in a long batch or session
        t0 = time.perf_counter()
        grade_text(bank.get(a.question_id), a.answer + " ", a.lang)
        warm.append((time.perf_counter() - t0) * 1000)
    print(f"median ms per answer, first pass (cues compiled on first use): {statistics.median(times):.2f}  (p95 {sorted(times)[int(0.95 * len(times))]:.2f})")
    print(f"median ms per answer, steady state: {statistics.median(warm):.2f}  (p95 {sorted(warm)[int(0.95 * len(warm))]:.2f}; target <= 5 ms)")
    encoder: list[float] = []
    for a in answers:  # the part of it that is the sentence encoder (resemblance embeds each answer once)
        t0 = time.perf_counter()
        resemblance.embed([a.answer])
        encoder.append((time.perf_counter() - t0) * 1000)
    print(f"  of which the sentence encoder, one whole answer: median {statistics.median(encoder):.2f} ms")

    if args.no_batch:
        return
    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "batch.jsonl"
        with batch.open("w", encoding="utf-8") as f:
            for i in range(1000):
                a = answers[i % len(answers)]
                f.write(json.dumps({"id": str(i), "question_id": a.question_id, "answer": a.answer, "lang": a.lang}) + "\n")
        for label, jobs in (("default workers", []), ("one process, --jobs 1", ["--jobs", "1"])):
            t0 = time.perf_counter()
            cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run(
                [sys.executable, "-m", "interviewer", "grade", *jobs, "--batch", str(batch)],
                capture_output=True,
                text=True,
                env={"INTERVIEWER_HOME": tmp, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
                cwd=ROOT,
            )
            wall = time.perf_counter() - t0
            cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
            lines = out.stdout.count("\n")
            print(f"1,000-answer batch ({label}), process start included: {wall:.2f} s wall, {cpu:.2f} s CPU"
                  f" ({lines} lines, exit {out.returncode}; target <= 5 s)")


if __name__ == "__main__":
    main()
