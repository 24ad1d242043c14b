"""Graded answer sets for `interviewer eval`: reading them, and the set shipped in the wheel.

A set is JSONL, one graded answer per line:
`{"id", "question_id", "answer", "lang"?, "ref_score", "kind"?}`. Every line is
checked before anything is graded, so a typo costs no model calls.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from interviewer.bank.loader import Bank
from interviewer.bank.models import LANGS
from interviewer.batch import InputError, check_answer

BUILTIN_NAME = "eval_blind.jsonl"


class SetError(ValueError):
    """The set cannot be used; the message names the file, the line and the field."""


@dataclass(frozen=True)
class GradedAnswer:
    id: str
    question_id: str
    answer: str
    lang: str
    ref: float
    kind: str | None

    def batch_line(self) -> str:
        """The line `grade --batch` reads."""
        return json.dumps({"id": self.id, "question_id": self.question_id, "answer": self.answer, "lang": self.lang},
                          ensure_ascii=False)


def builtin_set() -> tuple[str, str]:
    """(label, text) of the shipped set: 210 answers written blind to the rubrics, graded by hand."""
    text = (resources.files("interviewer") / "data" / BUILTIN_NAME).read_text(encoding="utf-8")
    return f"built-in blind set ({BUILTIN_NAME})", text


def read_set(path: Path) -> tuple[str, str]:
    try:
        return str(path), path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SetError(f"cannot read {path}: {exc}") from None


def parse_set(label: str, text: str, bank: Bank, default_lang: str = "en", max_errors: int = 10) -> list[GradedAnswer]:
    """Every graded answer of a set, or SetError listing the first problems as `FILE:LINE: field: message`."""
    items: list[GradedAnswer] = []
    problems: list[str] = []
    seen: set[str] = set()
    # Only \n ends a record: JSON strings may hold U+2028 and friends raw.
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"{label}:{n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: invalid JSON: {exc.msg} at column {exc.colno}")
            continue
        except RecursionError:
            problems.append(f"{where}: invalid JSON: nested too deeply")
            continue
        if not isinstance(obj, dict):
            problems.append(f"{where}: expected a JSON object")
            continue
        before = len(problems)
        rid = obj.get("id", f"line-{n}")
        qid, answer, lang, ref, kind = (obj.get("question_id"), obj.get("answer"), obj.get("lang") or default_lang,
                                        obj.get("ref_score"), obj.get("kind"))
        if not isinstance(qid, str) or qid not in bank:
            problems.append(f"{where}: question_id: {'unknown question ' + repr(qid) if isinstance(qid, str) else 'missing or not a string'}")
        elif bank.get(qid).rubric is None:
            problems.append(f"{where}: question_id: {qid} has no rubric to grade against")
        if not isinstance(answer, str) or not answer.strip():
            problems.append(f"{where}: answer: missing, empty or not a string")
        else:
            try:  # the same limits `grade --batch` applies, checked before any answer is graded
                check_answer(answer)
            except InputError as exc:
                problems.append(f"{where}: answer: {exc}")
        if lang not in LANGS:
            problems.append(f"{where}: lang: must be one of {', '.join(LANGS)}")
        if isinstance(ref, bool) or not isinstance(ref, int | float) or not math.isfinite(ref) or not 0 <= ref <= 10:
            problems.append(f"{where}: ref_score: must be a number from 0 to 10")
        if kind is not None and not isinstance(kind, str):
            problems.append(f"{where}: kind: must be a string")
        if str(rid) in seen:
            problems.append(f"{where}: id: {rid!r} appears twice")
        seen.add(str(rid))
        if len(problems) > before:
            continue
        assert isinstance(qid, str) and isinstance(answer, str) and isinstance(ref, int | float)
        items.append(GradedAnswer(str(rid), qid, answer, lang, float(ref), kind or None))
    if problems:
        more = f"\n... and {len(problems) - max_errors} more" if len(problems) > max_errors else ""
        raise SetError("the graded set has problems:\n" + "\n".join(problems[:max_errors]) + more)
    if len(items) < 3:
        raise SetError(f"{label}: a graded set needs at least 3 answers (found {len(items)})")
    return items
