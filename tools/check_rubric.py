"""Check a question's rubric against the offline examiner, for rubric authors.

    python tools/check_rubric.py algo-05 [algo-06 ...]   (no ids: every question)
    python tools/check_rubric.py path/to/custom.yaml      (a question file of your own bank)

For each question: every key point's statement (en/it/ja) must hit its own
cues; no statement may trigger a misconception; each misconception's claim
should trigger its own English cues; no probe names a distinctive term
(interviewer/bank/probe_leaks.py); and the calibration answers in
tests/data/calibration/<id>.yaml (and adversarial variants in tests/data/adversarial/<id>.yaml)
are graded next to their reference grades.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.bank.loader import load_question  # noqa: E402
from interviewer.bank.models import LANGS, Question  # noqa: E402
from interviewer.bank.probe_leaks import probe_leaks  # noqa: E402
from interviewer.calibration import load_calibration  # noqa: E402
from interviewer.examiners.offline.examiner import analyse, grade_text  # noqa: E402


def check(question: Question) -> int:
    problems = 0
    rubric = question.rubric
    if rubric is None:
        print(f"{question.id}: no rubric yet")
        return 1
    for lang in LANGS:
        for kp in rubric.key_points:
            a = analyse(question, kp.statement.get(lang), lang)
            cov = a.coverage()[kp.id]
            if cov < 0.75:
                problems += 1
                print(f"  [{lang}] statement of {kp.id!r} does not hit its own cues (coverage {cov:.2f})")
            if a.misconceptions:
                problems += 1
                ids = ", ".join(m.id for m in a.misconceptions)
                print(f"  [{lang}] statement of {kp.id!r} triggers misconception(s): {ids}")
        full = "\n".join(kp.statement.get(lang) for kp in rubric.key_points)
        g = grade_text(question, full, lang)
        if g.overall < 9:
            problems += 1
            print(f"  [{lang}] all statements together score {g.overall} (< 9)")
    for leak in probe_leaks(question):
        problems += 1
        print(f"  {leak}")
    for m in rubric.misconceptions:
        a = analyse(question, m.claim.en, "en")
        if m.id not in {x.id for x in a.misconceptions}:
            print(f"  [en] warning: claim of misconception {m.id!r} does not trigger its own cues")
    for folder in ("calibration", "adversarial"):
        path = ROOT / "tests" / "data" / folder / f"{question.id}.yaml"
        if not path.exists():
            if folder == "calibration":
                print(f"  no calibration file {path.relative_to(ROOT)}")
            continue
        answers = load_calibration(path)
        print(f"  {folder} ({len(answers)} answers): ref -> offline")
        for ans in answers:
            g = grade_text(question, ans.answer, ans.lang)
            flag = "  <-- off by >2.5" if abs(g.overall - ans.grade) > 2.5 else ""
            mis = f" misconceptions={[m.id for m in g.misconceptions]}" if g.misconceptions else ""
            credited = [c.id for c in g.criteria if c.score > 0]
            print(f"    {ans.id:34s} {ans.kind:16s} {ans.lang} {ans.grade:4.1f} -> {g.overall:4.1f}{mis}{flag}")
            if folder == "adversarial" and ans.kind == "fluent_wrong" and credited:
                print(f"        credited: {credited}")
    return problems


def redundant_alternatives(path: Path) -> int:
    """Alternatives the stem/lemma matcher no longer needs (tools/shrink_cues.py removes them)."""
    from tools.shrink_cues import plan

    counts = plan(path)[1]
    return counts.before - counts.after


def main(ids: list[str]) -> int:
    # an argument ending in .yaml/.toml is a file (a custom bank); anything else is a built-in question id
    files = [Path(i) if i.endswith((".yaml", ".yml", ".toml")) else ROOT / "question_bank" / f"{i}.yaml" for i in ids] if ids else sorted(
        (ROOT / "question_bank").glob("*.yaml")
    )
    total = 0
    for f in files:
        q, errs = load_question(f)
        if q is None:
            for e in errs:
                print(e)
            total += len(errs)
            continue
        print(f"{q.id}:")
        total += check(q)
        if f.suffix in (".yaml", ".yml"):
            extra = redundant_alternatives(f)
            if extra:
                print(f"  note: {extra} cue alternative(s) are redundant under stem/lemma matching (python tools/shrink_cues.py {f})")
    print("OK" if total == 0 else f"{total} problem(s)")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
