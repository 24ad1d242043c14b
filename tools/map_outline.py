"""Propose `model_answer_points` for rubrics that lack it: which key points each model-answer line states.

    python tools/map_outline.py [--bank DIR] [--write] [QUESTION_ID ...]

The feedback's "What a strong answer adds" lists only the model-answer lines about key points the answer
missed, so each line needs the ids of the points it states. This tool proposes them from the English texts:
a line states the key point whose statement shares the largest share of its words, and a second one when
that one shares nearly as many (the line sums up both). The proposal is a starting point for the rubric's
author, who reads it before committing; lines it is unsure of (little overlap with any statement) are
flagged. Without --write it prints the proposal; with --write it appends the field to each rubric file that
has none (files that already have one are left alone).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.bank.loader import load_bank  # noqa: E402
from interviewer.bank.models import Question  # noqa: E402

SECOND = 0.15  # a second point is named when its overlap is within this of the best one's
SECOND_MIN = 0.5  # and shares at least this much of the line's words
UNSURE = 0.5  # a best overlap below this is flagged for the author
_STOP = frozenset(
    "the a an of to and or in on for with is are be by as that this it its at from than but not can which into "
    "their there so do does more less each one two only when also per via".split()
)


def _words(text: str) -> set[str]:
    """Content words, cut to five letters (a crude stem: 'sampled' and 'samples' meet)."""
    return {w[:5] for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1}


def propose(question: Question) -> list[tuple[list[str], float, str]]:
    """(key point ids, best overlap, line) per English model-answer line."""
    rubric = question.rubric
    if rubric is None:
        return []
    points = [(kp.id, _words(kp.statement.get("en"))) for kp in rubric.key_points]
    out = []
    for line in rubric.model_answer.get("en"):
        words = _words(line)
        ranked = sorted(((len(words & w) / max(1, len(words)), kp_id) for kp_id, w in points), key=lambda x: -x[0])
        (best, first), (second, other) = ranked[0], ranked[1] if len(ranked) > 1 else (0.0, "")
        ids = [first] + ([other] if other and second >= SECOND_MIN and second >= best - SECOND else [])
        out.append((ids, best, line))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", help="question ids (default: every question with a rubric)")
    parser.add_argument("--bank", type=Path, default=ROOT / "question_bank", help="bank directory")
    parser.add_argument("--write", action="store_true", help="append the field to rubric files that lack it")
    args = parser.parse_args(argv)
    bank = load_bank([args.bank], include_builtin=False)
    for question in bank.questions:
        if (args.ids and question.id not in args.ids) or question.rubric is None:
            continue
        if question.rubric.model_answer_points is not None:
            print(f"{question.id}: has model_answer_points, left alone")
            continue
        proposal = propose(question)
        print(f"{question.id}:")
        for ids, best, line in proposal:
            flag = "  UNSURE" if best < UNSURE else ""
            print(f"  [{', '.join(ids)}]{flag}  {line[:100]}")
        if args.write:
            path = bank.sources[question.id]
            text = path.read_text(encoding="utf-8").rstrip("\n")
            block = "\n".join(f"    - [{', '.join(ids)}]" for ids, _, _ in proposal)
            path.write_text(f"{text}\n  model_answer_points:\n{block}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
