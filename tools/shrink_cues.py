"""Remove cue alternatives that the offline matcher no longer needs, and count them.

    python tools/shrink_cues.py [--write] [--bank DIR] [FILE ...]
    python tools/shrink_cues.py --compare tests/data/calibration --compare tests/data/blind   (proof on a copy)

The matcher now reads English and Italian by Snowball stem and Japanese by
Sudachi lemma, and lets phrases skip articles, so many hand-listed variants
match exactly what another alternative of the same term already matches:

- same words after compiling ("lowers the varian" and "lower varian");
- same stem sequence ("reduces varian", "reduced varian": stems "reduc varian");
- subsumed: a shorter alternative of the same term that matches wherever the
  longer one does ("reduc" covers "reduce", "reduction"; a phrase covers the
  longer phrase that starts with it, "critic" covers "critic model");
- in Japanese, the same dictionary form ("減らし", "減らす"); never a shorter substring, since
  Japanese negation is read after the match and a shorter match moves where that reading starts.

Alternatives with a negation in them ("no critic", "使わない") or ending in "="
are never removed or used to remove others, since their negation and exactness
are part of what they mean. Misconception cues are shrunk by written form only
(the matcher reads them without stems). The order of what remains is kept.

Without --write it prints, per file and in total, the number of cues and
alternatives before and after. With --write it rewrites the cue strings in
place, touching nothing else in the files. Same input, same output.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.examiners.offline.cues import LATIN_NEGATORS, Alt, _compile_alt  # noqa: E402
from interviewer.examiners.offline.lang import lemma_string  # noqa: E402

_FLOW = re.compile(r"^(\s*[a-z]{2}:\s*)(\[.*\])(\s*)$", re.DOTALL)
JA_NEGATIONS = ("ない", "ず", "ぬ", "ません", "不要", "なし", "無し", "無く", "なく", "せず")


@dataclass
class Counts:
    cues: int = 0
    before: int = 0
    after: int = 0

    def add(self, other: Counts) -> None:
        self.cues += other.cues
        self.before += other.before
        self.after += other.after


def _protected(raw: str, alt: Alt, lang: str) -> bool:
    """Alternatives whose negation or exactness is part of their meaning stay as written."""
    if raw.strip().endswith("="):
        return True
    if lang == "ja":
        return any(n in alt.words[0] for n in JA_NEGATIONS)
    return any(w in LATIN_NEGATORS for w in alt.words)


def _word_covers(a: str, a_stem: str, a_exact: bool, b: str, b_stem: str, b_exact: bool, stemmed: bool) -> bool:
    """Does word `a` match every token word `b` matches?"""
    if a_exact:
        return b_exact and (a == b or (stemmed and len(a) > 3 and len(b) > 3 and a_stem == b_stem))
    if not stemmed:
        return b.startswith(a)
    # a matches a token that starts with a, or whose stem starts with a's stem (>= 4 letters)
    stem_prefix = len(a_stem) >= 4 and b_stem.startswith(a_stem)
    if b.startswith(a):
        return stem_prefix or not b_stem or b_exact
    return stem_prefix  # "scaled" (stem "scale") covers "scaling" (stem "scale")


def _covers_latin(a: Alt, b: Alt, stemmed: bool) -> bool:
    if len(a.words) > len(b.words):
        return False
    for i in range(len(a.words)):
        if not _word_covers(a.words[i], a.stems[i], a.exact[i], b.words[i], b.stems[i], b.exact[i], stemmed):
            return False
    return True


def _covers_ja(a: Alt, b: Alt) -> bool:
    sa, sb = a.words[0], b.words[0]
    if sa.isascii() != sb.isascii():
        return False
    if sa.isascii():
        return sb.startswith(sa) if not a.exact[0] else sa == sb and b.exact[0]
    la, lb = lemma_string(sa), lemma_string(sb)
    # Only the same dictionary form: a shorter alternative ends its match earlier, and Japanese negation is
    # read after the match ("完全に一致" + "するので補正は不要" reads 不要 as a denial; "完全に一致するので" does not).
    return la == lb and len(la) >= 2


def shrink_term(term: str, lang: str, stemmed: bool) -> str:
    raws = [x.strip() for x in term.split("|") if x.strip()]
    compiled = [_compile_alt(x, lang, stemmed) for x in raws]
    usable = [bool(a.words and a.words[0]) and not _protected(r, a, lang) for r, a in zip(raws, compiled, strict=True)]

    def covers(i: int, j: int) -> bool:
        a, b = compiled[i], compiled[j]
        return _covers_ja(a, b) if lang == "ja" else _covers_latin(a, b, stemmed)

    kept = [j for j, a in enumerate(compiled) if a.words and a.words[0]]
    for j in list(kept):
        if not usable[j]:
            continue
        # removed only if an alternative that stays covers it (of two equivalent ones the first stays)
        if any(i != j and usable[i] and covers(i, j) and (not covers(j, i) or i < j) for i in kept):
            kept.remove(j)
    # every removed alternative must be covered by one that stays (the cover relation is not always transitive)
    changed = True
    while changed:
        changed = False
        for j, a in enumerate(compiled):
            if j not in kept and a.words and a.words[0] and not any(covers(i, j) for i in kept if usable[i]):
                kept = sorted([*kept, j])
                changed = True
    return "|".join(raws[j] for j in kept)


def shrink_cue(cue: str, lang: str, stemmed: bool) -> str:
    return " + ".join(shrink_term(t, lang, stemmed) for t in cue.split("+"))


def _term_covers(a: str, b: str, lang: str, stemmed: bool) -> bool:
    """Every alternative of term b is covered by some alternative of term a."""
    alts_a = [(x.strip(), _compile_alt(x, lang, stemmed)) for x in a.split("|") if x.strip()]
    for y in b.split("|"):
        if not y.strip():
            continue
        alt_b = _compile_alt(y, lang, stemmed)
        if not any(
            raw_a.strip() == y.strip()
            or (not _protected(raw_a, alt_a, lang) and not _protected(y, alt_b, lang)
                and (_covers_ja(alt_a, alt_b) if lang == "ja" else _covers_latin(alt_a, alt_b, stemmed)))
            for raw_a, alt_a in alts_a
        ):
            return False
    return True


def _cue_covers(a: str, b: str, lang: str, stemmed: bool) -> bool:
    """Cue a matches wherever cue b does: each term of a covers its own term of b, and a has no more terms.

    (Fewer terms is weaker evidence, so a one-term cue never makes a relation cue redundant.)
    """
    ta, tb = a.split("+"), b.split("+")
    if len(ta) != len(tb):
        return False
    used: set[int] = set()
    for term in ta:
        j = next((j for j, other in enumerate(tb) if j not in used and _term_covers(term, other, lang, stemmed)), None)
        if j is None:
            return False
        used.add(j)
    return True


def shrink_cues(cues: list[str], lang: str, stemmed: bool) -> list[str | None]:
    """Each cue shrunk, or None where another cue of the same list already covers it."""
    shrunk = [shrink_cue(c, lang, stemmed) for c in cues]
    out: list[str | None] = []
    for j, cue in enumerate(shrunk):
        covered = any(
            i != j and _cue_covers(other, cue, lang, stemmed) and (not _cue_covers(cue, other, lang, stemmed) or i < j)
            for i, other in enumerate(shrunk)
        )
        out.append(None if covered else cue)
    return out


def _alternatives(cue: str) -> int:
    return sum(len([x for x in t.split("|") if x.strip()]) for t in cue.split("+"))


def plan(path: Path) -> tuple[dict[str, str | None], Counts]:
    """New text for every cue string in one question file, and the counts."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    rubric = data.get("rubric") or {}
    changes: dict[str, str | None] = {}
    counts = Counts()
    groups = [(kp, True) for kp in rubric.get("key_points", [])] + [(m, False) for m in rubric.get("misconceptions", [])]
    for item, stemmed in groups:
        for lang, cues in (item.get("cues") or {}).items():
            result = shrink_cues(cues, lang, stemmed)
            counts.cues += len(cues)
            counts.before += sum(_alternatives(c) for c in cues)
            counts.after += sum(_alternatives(c) for c in result if c is not None)
            for cue, new in zip(cues, result, strict=True):
                # a string used in several places keeps the most conservative result (None = drop the line)
                prev = changes.get(cue, new) if cue in changes else new
                if prev is None or (new is not None and _alternatives(new) > _alternatives(prev)):
                    prev = new
                changes[cue] = prev
    return changes, counts


def rewrite(path: Path, changes: dict[str, str | None]) -> None:
    """Replace each cue string where it stands (or drop its list line), keeping the rest byte for byte."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    quoted = {json.dumps(old, ensure_ascii=False): new for old, new in changes.items() if new != old}
    quoted.update({f"'{old}'": new for old, new in changes.items() if new != old})
    out = []
    for line in lines:
        flow = _FLOW.match(line)
        if flow:  # en: ["cue", "cue"]
            try:
                items = json.loads(flow.group(2))
            except json.JSONDecodeError:
                items = None
            if isinstance(items, list) and all(isinstance(x, str) for x in items):
                mapped = [changes.get(x, x) for x in items]
                kept = [x for x in mapped if x is not None]
                if kept != items:
                    line = f"{flow.group(1)}{json.dumps(kept, ensure_ascii=False)}{flow.group(3)}"
                out.append(line)
                continue
        body = line.strip()
        item = body[2:].strip() if body.startswith("- ") else None
        if item is not None and item in quoted:
            new = quoted[item]
            if new is None:
                continue  # the whole cue is covered by another one
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}- {json.dumps(new, ensure_ascii=False)}\n")
        else:
            out.append(line)
    text = "".join(out)
    yaml.safe_load(text)  # still YAML
    path.write_text(text, encoding="utf-8")


def compare(original: Path, shrunk: Path, sets: list[Path]) -> int:
    """Grade every answer of the graded sets with both banks; print what moved. Returns the number of drops."""
    from interviewer.bank.loader import load_bank
    from interviewer.calibration import load_all
    from interviewer.examiners.offline.examiner import grade_text

    before, after = load_bank([original], include_builtin=False), load_bank([shrunk], include_builtin=False)
    drops = rises = same = 0
    for directory in sets:
        for a in load_all(directory):
            if a.question_id not in before or a.question_id not in after:
                continue
            x = grade_text(before.get(a.question_id), a.answer, a.lang).overall
            y = grade_text(after.get(a.question_id), a.answer, a.lang).overall
            if y < x:
                drops += 1
                print(f"  drop {a.id}: {x} -> {y}")
            elif y > x:
                rises += 1
                print(f"  rise {a.id}: {x} -> {y}")
            else:
                same += 1
    print(f"graded answers: {same} unchanged, {drops} lower, {rises} higher")
    return drops


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="question files (default: every *.yaml in --bank)")
    parser.add_argument("--bank", type=Path, default=ROOT / "question_bank", help="bank directory (default: %(default)s)")
    parser.add_argument("--write", action="store_true", help="rewrite the files in place")
    parser.add_argument(
        "--compare", action="append", type=Path, default=None, metavar="SET",
        help="shrink a temporary copy of the bank and grade this graded set (repeatable) with both; exit 1 if any score drops",
    )
    args = parser.parse_args(argv)
    if args.compare:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "bank"
            shutil.copytree(args.bank, copy)
            main([*map(str, sorted(copy.glob("*.yaml"))), "--write"])
            return 1 if compare(args.bank, copy, args.compare) else 0
    files = args.files or sorted(args.bank.glob("*.yaml"))
    total = Counts()
    for path in files:
        changes, counts = plan(path)
        total.add(counts)
        print(f"{path.name}: {counts.cues} cues, alternatives {counts.before} -> {counts.after}")
        if args.write:
            rewrite(path, changes)
    print(f"total: {total.cues} cues, alternatives {total.before} -> {total.after}"
          f" ({total.before / max(1, total.after):.1f}x fewer){'' if args.write else '  (dry run: add --write to rewrite)'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
