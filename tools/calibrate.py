"""Fit the offline examiner's calibrated score and write its coefficients file.

    python tools/calibrate.py [--set calibration --set adversarial --set blind --set DIR ...] [--holdout NAME] [--check]

Every graded answer in the sets is matched once (raw evidence, polarity,
misconceptions, specificity, density); then the numbers of
`interviewer.examiners.offline.scoring.Model` are fitted to the reference
grades by a deterministic pattern search on the squared error of the score the
grade will actually show (clipping, reachable rows and rounded penalties
included). The result goes to interviewer/examiners/offline/calibration.json,
which ships in the wheel. Same data in, same file out.

--holdout NAME fits without that set and prints the error on it (a check
for overfitting; nothing is written). --check fails if the file on disk differs
from what the fit produces.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_offline import resolve_set  # noqa: E402
from interviewer.bank.loader import load_bank  # noqa: E402
from interviewer.calibration import load_all  # noqa: E402
from interviewer.evaluation import spearman  # noqa: E402
from interviewer.examiners.offline.examiner import Analysis, analyse  # noqa: E402
from interviewer.examiners.offline.scoring import COEFFICIENTS, IDENTITY, Model, predict  # noqa: E402

DEFAULT_SETS = ["calibration", "adversarial", "blind", "tuning", "tuning3", "heldout2"]
NONNEGATIVE = {0, 1, 2, 4}  # more evidence, specificity or density never lowers the score
FIXED = {5}  # the misconception scale stays 1: rubric authors set and document each penalty
MIN_CONTRADICTION = 1.0  # a contradicted key point is reported as an error, so it costs at least a point


def _vector(m: Model) -> list[float]:
    return [*m.coef, m.misconception_scale, m.contradiction_penalty]


def _model(v: list[float]) -> Model:
    return Model(tuple(v[:5]), v[5], v[6])


def loss(model: Model, data: list[list[tuple[Analysis, float]]]) -> float:
    """Mean over sets of each set's mean squared error: every set counts the same, however large."""
    return statistics.fmean(statistics.fmean((predict(a, model) - ref) ** 2 for a, ref in items) for items in data)


def fit(data: list[list[tuple[Analysis, float]]]) -> Model:
    """Pattern search from the uncalibrated score: try +-step on each coefficient, halve the step when stuck."""
    v = _vector(IDENTITY)
    best = loss(_model(v), data)
    steps = [0.2, 0.2, 0.2, 1.0, 0.2, 0.2, 0.5]
    for _ in range(400):
        improved = False
        for i in range(len(v)):
            for sign in (1, -1):
                trial = list(v)
                trial[i] = round(trial[i] + sign * steps[i], 6)
                if i in FIXED or (i in NONNEGATIVE and trial[i] < 0) or (i == 6 and trial[i] < MIN_CONTRADICTION):
                    continue
                cand = loss(_model(trial), data)
                if cand < best - 1e-9:
                    v, best, improved = trial, cand, True
                    break
        if not improved:
            steps = [s / 2 for s in steps]
            if max(steps) < 1e-3:
                break
    return _model(v)


def gather(names: list[str]) -> dict[str, list[tuple[Analysis, float]]]:
    bank = load_bank()
    out: dict[str, list[tuple[Analysis, float]]] = {}
    for name in names:
        path = resolve_set(name) if (ROOT / "tests" / "data" / name).is_dir() or Path(name).is_dir() else None
        if path is None:
            print(f"skipping {name}: not found")
            continue
        answers = [a for a in load_all(path) if a.question_id in bank]
        out[name] = [(analyse(bank.get(a.question_id), a.answer, a.lang), a.grade) for a in answers]
    return out


def describe(label: str, model: Model, data: list[tuple[Analysis, float]]) -> None:
    got = [predict(a, model) for a, _ in data]
    ref = [r for _, r in data]
    mae = statistics.fmean(abs(g - r) for g, r in zip(got, ref, strict=True))
    print(f"  {label:28s} n={len(data):4d}  MAE {mae:.2f}  Spearman {spearman(ref, got):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", action="append", default=None, help="graded sets to fit on (default: %(default)s)")
    parser.add_argument("--holdout", default=None, help="fit without this set and report on it; write nothing")
    parser.add_argument("--check", action="store_true", help="fail if calibration.json is not what the fit produces")
    args = parser.parse_args()
    sets = gather(args.set or DEFAULT_SETS)
    train = [items for name, items in sets.items() if name != args.holdout]
    model = fit(train)
    print("coefficients:", json.dumps(model.to_json()))
    for name, items in sets.items():
        describe(f"{name} (uncalibrated)", IDENTITY, items)
        describe(f"{name} (calibrated)", model, items)
    if args.holdout:
        return 0
    payload = {**model.to_json(), "fitted_on": {Path(name).name: len(items) for name, items in sets.items()}}
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    if args.check:
        same = COEFFICIENTS.exists() and COEFFICIENTS.read_text(encoding="utf-8") == text
        print("calibration.json is up to date" if same else "calibration.json differs from the fit")
        return 0 if same else 1
    COEFFICIENTS.write_text(text, encoding="utf-8")
    print(f"wrote {COEFFICIENTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
