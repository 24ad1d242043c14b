"""Drop key-point cue alternatives that no graded answer has ever needed, and count them.

    python tools/prune_cues.py [--hold-out SET ...] [--save FILE | --load FILE] [--write]

Most alternatives of the bank were written ahead of any answer: "does not scale to continuous action"
next to "continuous action". Grading every answer of the graded sets under tests/data shows which
alternatives a cue really used. This tool grades them all with a recorder on the matcher (with the
rubric's own key-point statements, together and one by one) and keeps, per
key-point cue, the alternatives that found text in a sentence where the whole cue matched (affirmed or
denied), directly, through a lexicon phrase they stand for, through a turned form (an opposite or a
rival), or as one word of a lexicon term read across two terms. The rest go, and so does a cue one of
whose terms never found anything. The concept lexicon loses the `says` phrases no cue ever found.

What it never removes:
- misconception cues: a wrong claim that no set has made in one language yet must still be caught there;
- every cue of a key point in a language where none of its cues ever matched (nothing to learn from);
- the written order of what stays.

Removing an alternative can still change a grade: a term whose alternatives are mostly direction words
is turned into its opposite ("rises" -> "falls") only past a share, and a cue is not turned when
another term names the opposite. `--compare` style checks belong to the caller: grade the sets with the
old and the new bank (see tests/data/README.md and tools/shrink_cues.py --compare).

Sentences that a test pins to a reading (and no graded answer happens to hold) are listed in
tests/data/prune_pinned.yaml and recorded too.

Hold out the sets you report on (`--hold-out heldout21`): what a set decides must not be measured on it.
Recording grades about 8,000 answers (about 5 minutes on two cores); `--save` keeps the recording.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.examiners.offline import cues as C  # noqa: E402
from tools.shrink_cues import rewrite  # noqa: E402

DATA = ROOT / "tests" / "data"
PINNED = DATA / "prune_pinned.yaml"  # single sentences whose reading a test pins (tests/test_offline_*.py)
Seen = set[tuple[str, str, str]]  # (cue source, lang, alternative as written)


def graded_sets(hold_out: list[str]) -> list[Path]:
    """Every graded-answer set under tests/data, less the held-out ones (sets of other shapes are skipped)."""
    from interviewer.calibration import load_calibration

    out = []
    for d in sorted(p for p in DATA.iterdir() if p.is_dir() and p.name not in hold_out):
        files = sorted(d.glob("*.yaml"))
        try:
            if files and load_calibration(files[0]):
                out.append(d)
        except Exception:  # a directory of another kind (attacks, fixtures, banks)
            continue
    return out


def _record_share(args: tuple[str, list[str], int, int, list[dict[str, str]]]) -> list[tuple[str, str, str]]:
    """Grade every n-th answer with the matcher's span lookups recorded (runs in a worker process)."""
    bank_dir, dirs, k, n, pinned = args
    from interviewer.bank.loader import load_bank
    from interviewer.calibration import load_all
    from interviewer.examiners.offline.examiner import grade_text

    seen: Seen = set()
    current: list[set[tuple[str, str, int]]] = []  # per polar() call: (lang, alternative, sentence)
    alt_spans, ja_spans = C.AnswerIndex._alt_spans, C.AnswerIndex._ja_spans

    def on_alt(self: C.AnswerIndex, alt: C.Alt) -> list[tuple[int, int]]:
        found = alt_spans(self, alt)
        if current:
            current[-1].update((alt.lang, alt.raw, self.token_sentence[start]) for start, _ in found)
        return found

    def on_ja(self: C.AnswerIndex, js: Any, alt: C.Alt) -> list[tuple[int, int]]:
        found = ja_spans(self, js, alt)
        if found and current:
            si = next(i for i, x in enumerate(self._ja) if x is js)
            current[-1].add((alt.lang, alt.raw, si))
        return found

    def recording(polar: Any) -> Any:
        def wrapped(self: C.AnswerIndex, cue: C.Cue) -> Any:
            current.append(set())
            try:
                result = polar(self, cue)
            finally:
                got = current.pop()
            matched = {si for sentences in result for si in sentences}  # affirmed, denied or not a claim
            seen.update((cue.source, lang, raw) for lang, raw, si in got if si in matched)
            return result
        return wrapped

    # a development tool's own process: the shipped matcher carries no recorder
    C.AnswerIndex._alt_spans = on_alt  # type: ignore[method-assign]
    C.AnswerIndex._ja_spans = on_ja  # type: ignore[method-assign]
    C.AnswerIndex._polar_latin = recording(C.AnswerIndex._polar_latin)  # type: ignore[method-assign]
    C.AnswerIndex._polar_ja = recording(C.AnswerIndex._polar_ja)  # type: ignore[method-assign]
    bank = load_bank([Path(bank_dir)], include_builtin=False)
    answers = [a for d in dirs for a in load_all(Path(d))]
    for a in answers[k::n]:
        if a.question_id in bank:
            grade_text(bank.get(a.question_id), a.answer, a.lang)
    for p in pinned[k::n]:
        grade_text(bank.get(p["question"]), p["text"], p["lang"])
    if not dirs:
        return sorted(seen)
    # the rubric's own statements are the answer every key point must keep matching
    for q in bank.questions[k::n]:
        if q.rubric is None:
            continue
        for lang in ("en", "it", "ja"):
            statements = [kp.statement.get(lang) for kp in q.rubric.key_points]
            grade_text(q, "\n".join(statements), lang)
            for text in statements:
                grade_text(q, text, lang)
    return sorted(seen)


def record(bank: Path, sets: list[Path], jobs: int, pinned: list[dict[str, str]]) -> Seen:
    dirs = [str(d) for d in sets]
    with ProcessPoolExecutor(jobs) as pool:
        shares = pool.map(_record_share, [(str(bank), dirs, k, jobs, pinned) for k in range(jobs)])
        return {tuple(x) for share in shares for x in share}  # type: ignore[misc]


def _terms(cue: str) -> list[list[str]]:
    return [[x.strip() for x in term.split("|") if x.strip()] for term in cue.split("+")]


class Liveness:
    """Which written alternatives of a key-point cue the recording shows were used."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        self.anywhere = {(lang, raw) for _, lang, raw in seen}

    def alternatives(self, cue: str, lang: str) -> list[list[str]]:
        terms = _terms(cue)
        live = [[x for x in term if self._used(cue, x, lang)] for term in terms]
        # one word of a lexicon term read across two cue terms ("varian" + "reduc" as "reduce variance")
        written = tuple(tuple(t) for t in terms)
        for taken, says in C._joint_readings(written, lang, True):
            if any((cue, lang, s) in self.seen for s in says):
                for ti in taken:
                    live[ti] = [x for x in terms[ti] if x in live[ti] or len(C._compile_alt(x, lang).words) == 1]
        return live

    def _used(self, cue: str, x: str, lang: str) -> bool:
        if (cue, lang, x) in self.seen:
            return True
        if x.startswith("@"):
            return any((cue, lang, p) in self.seen for p in C.concept_phrases(x[1:], lang))
        if any((cue, lang, s) in self.seen for s in C.lexicon_says(x, lang)):
            return True
        opposite, keys, _, _ = C._opposite_words(lang)
        word, at = C._direction_word(x, lang, keys)
        # turned cues have sources of their own: a turned form found anywhere keeps the alternative
        return bool(word) and any((lang, C._turn(x, lang, word, at, o)) in self.anywhere for o in opposite[word])


def _key_point_cues(path: Path) -> Iterator[tuple[str, str, list[str]]]:
    rubric = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("rubric") or {}
    for kp in rubric.get("key_points", []):
        for lang, cues in (kp.get("cues") or {}).items():
            yield kp["id"], lang, cues


def plan(path: Path, live: Liveness) -> tuple[dict[str, str | None], int, int]:
    """New text for every key-point cue string of one file, and the alternatives before and after."""
    changes: dict[str, str | None] = {}
    for _, lang, cues in _key_point_cues(path):
        proposed: dict[str, str | None] = {}
        for cue in cues:
            kept = live.alternatives(cue, lang)
            proposed[cue] = None if any(not t for t in kept) else " + ".join("|".join(t) for t in kept)
        if all(v is None for v in proposed.values()):
            proposed = {c: c for c in cues}  # nothing matched in this language: keep what was written
        for cue in cues:
            new = proposed[cue]
            old = changes.get(cue, new)
            if cue in changes and old != new:  # the same string in two places keeps the larger result
                new = max((old, new), key=lambda s: -1 if s is None else sum(len(t) for t in _terms(s)))
            changes[cue] = new
    after = sum(sum(len(t) for t in _terms(v)) for v in changes.values() if v is not None)
    before = sum(sum(len(t) for t in _terms(c)) for c in changes)
    return changes, before, after


def prune_lexicon(path: Path, live: Liveness, write: bool) -> tuple[int, int]:
    """Drop the `says` phrases of the concept lexicon that no cue ever found in a matched sentence (terms,
    opposites and rivals stay). The file is written back in flow style after its header comments."""
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    before = after = 0
    for concept in data.get("concepts", []):
        for lang in ("en", "it", "ja"):
            form = concept.get(lang)
            if isinstance(form, dict) and form.get("says"):
                before += len(form["says"])
                form["says"] = [x for x in form["says"] if (lang, str(x).strip()) in live.anywhere]
                after += len(form["says"])
    if write:
        lines = text.splitlines(keepends=True)
        header = "".join(line for line in lines[: next(i for i, x in enumerate(lines) if not x.startswith("#"))])
        path.write_text(header + yaml.safe_dump(data, allow_unicode=True, width=200, sort_keys=False, default_flow_style=True),
                        encoding="utf-8")
    return before, after


def fingerprint(bank: Path) -> str:
    """A recording names the cues as written: it fits only the bank it was made on."""
    digest = hashlib.sha256()
    for path in sorted(bank.rglob("*.yaml")):
        digest.update(path.relative_to(bank).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bank", type=Path, default=ROOT / "question_bank", help="bank directory (default: %(default)s)")
    parser.add_argument("--hold-out", action="append", default=[], metavar="SET", help="a set under tests/data not to learn from")
    parser.add_argument("--save", type=Path, help="write the recording to this JSON file")
    parser.add_argument("--load", type=Path, help="read a recording instead of grading")
    parser.add_argument("--pinned", type=Path, default=PINNED, help="sentences whose reading tests pin (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--write", action="store_true", help="rewrite the files in place")
    args = parser.parse_args(argv)
    pinned = yaml.safe_load(args.pinned.read_text(encoding="utf-8")) if args.pinned.exists() else []
    if args.load:
        saved = json.loads(args.load.read_text(encoding="utf-8"))
        if saved.get("bank") != fingerprint(args.bank):
            print(f"{args.load}: recorded on another version of {args.bank}; record again", file=sys.stderr)
            return 2
        seen: Seen = {(str(a), str(b), str(c)) for a, b, c in saved["seen"]}
        seen |= record(args.bank, [], args.jobs, pinned)
    else:
        sets = graded_sets(args.hold_out)
        print(f"recording {len(sets)} graded sets (held out: {', '.join(args.hold_out) or 'none'})")
        seen = record(args.bank, sets, args.jobs, pinned)
        if args.save:
            saved = {"bank": fingerprint(args.bank), "seen": sorted(seen)}
            args.save.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    live = Liveness(seen)
    total_before = total_after = 0
    for path in sorted(args.bank.glob("*.yaml")):
        changes, before, after = plan(path, live)
        total_before += before
        total_after += after
        print(f"{path.name}: key-point alternatives {before} -> {after}")
        if args.write:
            rewrite(path, changes)
    print(f"total: key-point alternatives {total_before} -> {total_after}{'' if args.write else '  (dry run: add --write)'}")
    lexicon = args.bank / "lexicon" / "concepts.yaml"
    if lexicon.is_file():
        before, after = prune_lexicon(lexicon, live, args.write)
        print(f"lexicon: says phrases {before} -> {after}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
