"""The grader-addressed guard (shared by both examiners) on its attack / look-alike corpus.

    python benchmarks/bench_guard.py

Prints the share of attacks caught and of benign look-alikes kept, for
tests/data/injection/corpus.yaml (en/it/ja), the sentences it gets wrong, and
the guard's cost per sentence over the calibration and blind answers.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.calibration import load_all  # noqa: E402
from interviewer.examiners.offline.guard import is_grader_addressed  # noqa: E402
from interviewer.examiners.offline.guard_corpus import score_corpus  # noqa: E402
from interviewer.examiners.offline.text import split_sentences  # noqa: E402


def main() -> None:
    result = score_corpus(ROOT / "tests" / "data" / "injection" / "corpus.yaml")
    print(result.line())
    for t in result.missed:
        print(f"  missed: {t}")
    for t in result.removed:
        print(f"  removed: {t}")
    sentences = [s.text for d in ("calibration", "blind") for a in load_all(ROOT / "tests" / "data" / d)
                 for s in split_sentences(a.answer)]
    t0 = time.perf_counter()
    for s in sentences:
        is_grader_addressed(s)
    per = (time.perf_counter() - t0) / len(sentences) * 1e6
    print(f"cost: {per:.0f} µs per sentence over {len(sentences)} answer sentences")


if __name__ == "__main__":
    main()
