"""Write the graded set that `interviewer eval` uses by default, from tests/data/blind/*.yaml.

    python tools/export_eval_set.py [--check]

The blind answers were written without seeing the rubrics, so they are the
honest yardstick for any examiner. The JSONL copy lives inside the package
(interviewer/data/eval_blind.jsonl) so it ships in the wheel; `--check`
exits 1 when the copy is out of date (a test runs it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.calibration import load_all  # noqa: E402

SOURCE = ROOT / "tests" / "data" / "blind"
TARGET = ROOT / "interviewer" / "data" / "eval_blind.jsonl"


def render() -> str:
    lines = []
    for a in load_all(SOURCE):
        row = {"id": a.id, "question_id": a.question_id, "lang": a.lang, "kind": a.kind, "ref_score": a.grade,
               "answer": a.answer}
        lines.append(json.dumps(row, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the shipped copy differs from the YAML")
    args = ap.parse_args()
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python tools/export_eval_set.py", file=sys.stderr)
            return 1
        print(f"{TARGET.relative_to(ROOT)} is up to date ({text.count(chr(10))} answers)")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} answers to {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
