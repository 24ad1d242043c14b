"""Build the offline examiner's graded example answers (exemplars.npz), or measure what they do.

    python tools/build_exemplars.py            write interviewer/examiners/offline/exemplars.npz
    python tools/build_exemplars.py --check    fail if the file differs from what the sets give
    python tools/build_exemplars.py --evaluate leave-one-set-out: each set graded with the others' examples

The examples are the graded answers of the tuning sets and of the report sets
already reported on (`heldout` to `heldout19`), embedded by the same encoder and
from the same text (the sentences that explain: no term lists, fragments or
lines addressed to the grader) as an answer being graded; answers with fewer
than two such sentences are never compared, so they are not kept. Left out:
`blind` (the set `interviewer eval` ships with, so its figures stay an honest
measure), and the report sets from `heldout20` on, not yet added (see
tests/data/README.md).
Same data in, same file out (vectors are stored as float16; --check allows for
the last bit).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.bank.loader import load_bank  # noqa: E402
from interviewer.calibration import CalibrationAnswer, load_all  # noqa: E402
from interviewer.evaluation import spearman  # noqa: E402
from interviewer.examiners.offline import resemblance  # noqa: E402
from interviewer.examiners.offline.examiner import analyse, grade_text  # noqa: E402

EXAMPLE_SETS = ["calibration", "adversarial", "tuning", "tuning2", "tuning3", "heldout",
                "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11", "tuning4",
                "heldout12", "heldout13", "heldout14", "heldout15", "tuning5", "heldout16", "heldout17", "heldout18", "heldout19"]
DATA = ROOT / "tests" / "data"


def gather(names: list[str]) -> list[tuple[str, str, CalibrationAnswer, str]]:
    """(set, question key, answer, text embedded or "") for every answer of the sets to a bank question."""
    bank = load_bank()
    out = []
    for name in names:
        for a in load_all(DATA / name):
            if a.question_id not in bank:
                continue
            q = bank.get(a.question_id)
            explaining = analyse(q, a.answer, a.lang).explaining
            # what the examiner compares, read the same way ("" for an answer it would not compare)
            out.append((name, resemblance.question_key(q), a,
                        " ".join(explaining) if len(explaining) >= resemblance.MIN_SENTENCES else ""))
    return out


def arrays(items: list[tuple[str, str, CalibrationAnswer, str]], vectors: np.ndarray) -> dict[str, np.ndarray]:
    """The examples: the answers with a text to compare, and their vectors (rows of `vectors`, one per item)."""
    kept = [i for i, it in enumerate(items) if it[3]]
    items, vectors = [items[i] for i in kept], vectors[kept]
    return {
        "keys": np.array([k for _, k, _, _ in items]),
        "vectors": vectors.astype(np.float16),
        "grades": np.array([a.grade for _, _, a, _ in items], dtype=np.float32),
    }


def write(path: Path, data: dict[str, np.ndarray]) -> None:
    with path.open("wb") as f:
        np.savez_compressed(f, **data)


def check(data: dict[str, np.ndarray]) -> bool:
    if not resemblance.EXEMPLARS.exists():
        print("exemplars.npz is missing")
        return False
    with np.load(resemblance.EXEMPLARS, allow_pickle=False) as disk:
        same = (disk["keys"].tolist() == data["keys"].tolist() and np.array_equal(disk["grades"], data["grades"])
                and disk["vectors"].shape == data["vectors"].shape
                and float(np.abs(disk["vectors"].astype(np.float32) - data["vectors"].astype(np.float32)).max()) <= 2e-3)
    print("exemplars.npz is up to date" if same else "exemplars.npz differs from the sets: rerun tools/build_exemplars.py")
    return same


def evaluate(items: list[tuple[str, str, CalibrationAnswer, str]], vectors: np.ndarray) -> None:
    """Grade each set with the examples of the others, and without any; print the figures by kind."""
    bank = load_bank()
    by_kind: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    rows: list[tuple[float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in EXAMPLE_SETS:
            others = [i for i, it in enumerate(items) if it[0] != name]
            path = Path(tmp) / f"without-{name}.npz"
            write(path, arrays([items[i] for i in others], vectors[others]))
            for set_name, _, a, _ in items:
                if set_name != name:
                    continue
                q = bank.get(a.question_id)
                resemblance.use_exemplars(Path(tmp) / "none.npz")
                plain = grade_text(q, a.answer, a.lang).overall
                resemblance.use_exemplars(path)
                lifted = grade_text(q, a.answer, a.lang).overall
                rows.append((a.grade, plain, lifted))
                by_kind[a.kind].append((a.grade, plain, lifted))
    resemblance.use_exemplars(None)
    ref, plain, lifted = (list(x) for x in zip(*rows, strict=True))
    print(f"leave-one-set-out over {len(rows)} answers: Spearman {spearman(ref, plain):.3f} -> {spearman(ref, lifted):.3f}, "
          f"MAE {statistics.fmean(abs(p - r) for p, r in zip(plain, ref, strict=True)):.2f} -> "
          f"{statistics.fmean(abs(p - r) for p, r in zip(lifted, ref, strict=True)):.2f}")
    for kind, xs in sorted(by_kind.items(), key=lambda kv: -statistics.fmean(x[0] for x in kv[1])):
        print(f"  {kind:17s} n={len(xs):4d}  reference {statistics.fmean(x[0] for x in xs):4.1f}  "
              f"without {statistics.fmean(x[1] for x in xs):4.1f}  with {statistics.fmean(x[2] for x in xs):4.1f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="fail if exemplars.npz is not what the sets give")
    parser.add_argument("--evaluate", action="store_true", help="leave-one-set-out figures; write nothing")
    args = parser.parse_args()
    items = gather(EXAMPLE_SETS)
    vectors = resemblance.embed([t or "-" for _, _, _, t in items])
    if args.evaluate:
        evaluate(items, vectors)
        return 0
    data = arrays(items, vectors)
    if args.check:
        return 0 if check(data) else 1
    write(resemblance.EXEMPLARS, data)
    print(f"wrote {resemblance.EXEMPLARS.relative_to(ROOT)}: {len(data['keys'])} graded answers to "
          f"{len(set(data['keys'].tolist()))} questions from {', '.join(EXAMPLE_SETS)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
