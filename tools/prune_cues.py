"""Keep only the key-point cue alternatives the matcher needs to read the graded answers as it does.

    python tools/prune_cues.py            (dry run: counts before and after, and what changed)
    python tools/prune_cues.py --write    (rewrite question_bank/*.yaml in place)

The key-point cues grew one paraphrase at a time. Most alternatives never match
anything candidates write, and some of those that do match only wrong answers
and lend them credit. This tool keeps what the graded answers show is needed:

1. It grades every answer of the usage sets (the graded examples, `blind` and
   the last tuning set; never a set held out for reporting) and every key-point
   statement of the bank, alone and all together, in en/it/ja. For every
   key-point cue it records which alternatives land in a sentence the cue
   affirms or denies.
2. Per cue and language it keeps the fewest alternatives that still cover every
   such sentence (greedy set cover). An alternative whose negation or exactness
   is part of its meaning ("no critic", "シグナルがない", "ce=") is kept whenever it
   lands: it decides where a negation is read.
3. A cue that never lands is dropped. A key point left with no cue in a
   language keeps its first cue, with two alternatives per term.
4. A cue whose turned readings (see `reversed_cues`) would change keeps all of
   its alternatives: a term turns only when enough of it is about a direction.
5. It reads everything again with the pruned cues. Where a key point reads
   differently on any answer (score, evidence or denial), its cues keep every
   alternative that landed. This repeats until nothing differs.

Misconception cues are not pruned. They fire on wrong answers only, and on held-out
sets, pruning them let reversed answers through that their unused alternatives catch.
The shared lexicon (`question_bank/lexicon/concepts.yaml`) is not touched either.
Same input, same output.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from build_exemplars import EXAMPLE_SETS  # noqa: E402
from shrink_cues import _FLOW, _protected, rewrite  # noqa: E402

from interviewer.bank.loader import Bank, builtin_bank_dir, load_bank  # noqa: E402
from interviewer.bank.models import LANGS, Question  # noqa: E402
from interviewer.calibration import load_all  # noqa: E402
from interviewer.examiners.offline import cues as cue_module  # noqa: E402
from interviewer.examiners.offline.cues import (  # noqa: E402
    AnswerIndex,
    Cue,
    _compile_alt,
    concept_phrases,
    lexicon_says,
    reversed_cues,
)
from interviewer.examiners.offline.examiner import analyse  # noqa: E402

USAGE_SETS = [*EXAMPLE_SETS, "blind", "heldout12"]
KEEP_PER_TERM = 2  # alternatives per term of the one cue a key point keeps when none of its cues ever lands
MAX_ROUNDS = 5

Key = tuple[str, str]  # (cue text, language of its alternatives)
Sample = tuple[Question, str, str]  # question, answer, language


def samples(bank: Bank, sets: list[str]) -> list[Sample]:
    """The answers the pruned cues must read as the full ones do."""
    out: list[Sample] = []
    for q in bank.questions:
        assert q.rubric is not None
        for lang in LANGS:
            statements = [kp.statement.get(lang) for kp in q.rubric.key_points]
            out += [(q, text, lang) for text in [*statements, " ".join(statements)]]
    for name in sets:
        for a in load_all(ROOT / "tests" / "data" / name):
            if a.question_id in bank:
                out.append((bank.get(a.question_id), a.answer, a.lang))
    return out


@contextmanager
def recording() -> Iterator[dict[Key, list[frozenset[str]]]]:
    """Per cue: for every sentence it affirms or denies and every term, the alternatives landing there."""
    events: dict[Key, list[frozenset[str]]] = defaultdict(list)
    original = AnswerIndex.polar

    def polar(self: AnswerIndex, cue: Cue) -> cue_module.Polar:
        found = original(self, cue)
        sentences = {m.sentence for m in found.affirmed} | {m.sentence for m in found.denied}
        if sentences and cue.terms:
            key = (cue.source, cue.terms[0][0].lang)
            for variant in (cue, *cue.joint):
                for term in variant.terms:
                    for raws in _landing(self, term, sentences).values():
                        events[key].append(frozenset(raws))
        return found

    AnswerIndex.polar = polar  # type: ignore[method-assign]
    try:
        yield events
    finally:
        AnswerIndex.polar = original  # type: ignore[method-assign]


def _landing(index: AnswerIndex, term: tuple[cue_module.Alt, ...], sentences: set[int]) -> dict[int, set[str]]:
    """Per sentence of `sentences`, the alternatives of `term` the matcher finds there (with its own pre-checks)."""
    where: dict[int, set[str]] = defaultdict(set)
    for alt in term:
        if alt.lang != "ja":
            if index.prefix3.issuperset(alt.heads):
                for start, _ in index._alt_spans(alt):
                    if index.token_sentence[start] in sentences:
                        where[index.token_sentence[start]].add(alt.raw)
            continue
        first = alt.words[0][:1]
        for si in sentences:
            text = index.ja_text[si]
            if first not in text and not cue_module._HIRAGANA_FIRST <= first <= cue_module._HIRAGANA_LAST:
                continue
            js = index._ja_sentence(si)
            if cue_module._may_start(alt.words[0], text, js.lemmas) and index._ja_spans(js, alt):
                where[si].add(alt.raw)
    return where


def cover(events: list[frozenset[str]], lang: str) -> set[str]:
    """The fewest alternatives that land in every recorded sentence (greedy; ties by text)."""
    chosen = {raw for event in events for raw in event if _protected(raw, _compile_alt(raw, lang), lang)}
    left = [e for e in events if not e & chosen]
    while left:
        counts = Counter(raw for e in left for raw in e)
        best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
        chosen.add(best)
        left = [e for e in left if best not in e]
    return chosen


def _kept(alternative: str, needed: set[str], lang: str) -> bool:
    """Is a written alternative needed: itself, or a lexicon phrase it brings, landed."""
    if alternative.startswith("@"):
        return any(p in needed for p in concept_phrases(alternative[1:], lang))
    return alternative in needed or any(p in needed for p in lexicon_says(alternative, lang))


def prune_cue(cue: str, lang: str, needed: set[str]) -> str:
    """The cue with only its needed alternatives (a term with none keeps all: it landed through the lexicon)."""
    terms = []
    for term in cue.split("+"):
        alternatives = [x.strip() for x in term.split("|")]
        keep = [x for x in alternatives if _kept(x, needed, lang)]
        terms.append("|".join(keep or alternatives))
    pruned = " + ".join(terms)
    turned = [t.count("+") for t in reversed_cues(cue, lang)]
    return cue if turned != [t.count("+") for t in reversed_cues(pruned, lang)] else pruned


def plan(question: Question, needed: dict[Key, set[str]], kept: set[tuple[str, str]]) -> dict[str, str | None]:
    """New text (None: drop the line) for each key-point cue of one question; the key points in `kept`
    ((question id, key point id)) keep their cues as written."""
    changes: dict[str, str | None] = {}
    assert question.rubric is not None
    for kp in question.rubric.key_points:
        for lang in LANGS:
            cues = kp.cues.get(lang)
            if (question.id, kp.id) in kept:
                new: list[str | None] = list(cues)
            else:
                new = [prune_cue(c, lang, needed[(c, lang)]) if (c, lang) in needed else None for c in cues]
            if cues and all(n is None for n in new):
                new[0] = " + ".join("|".join(x.strip() for x in t.split("|")[:KEEP_PER_TERM]) for t in cues[0].split("+"))
            for cue, n in zip(cues, new, strict=True):
                # a string used by two key points keeps the longer of its two results
                prev = changes.get(cue)
                changes[cue] = n if prev is None or (n is not None and len(n) > len(prev)) else prev
    return changes


def drop_repeats(path: Path) -> None:
    """Pruning can leave two cues of one list the same: keep the first."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    out: list[str] = []
    seen: set[str] = set()
    for line in lines:
        body = line.strip()
        flow = _FLOW.match(line)
        try:
            items = json.loads(flow.group(2)) if flow else None
        except json.JSONDecodeError:
            items = None
        if isinstance(items, list) and len(set(map(str, items))) < len(items):  # en: ["cue", "cue"]
            line = f"{flow.group(1)}{json.dumps(list(dict.fromkeys(items)), ensure_ascii=False)}{flow.group(3)}"  # type: ignore[union-attr]
        if body.startswith("- "):
            if body in seen:
                continue
            seen.add(body)
        else:
            seen = set()
        out.append(line)
    text = "".join(out)
    yaml.safe_load(text)  # still YAML
    path.write_text(text, encoding="utf-8")


def readings(bank: Bank, sample: list[Sample]) -> list[dict[str, tuple[object, ...]]]:
    """Per answer, per key point: score, evidence and whether it is reported as contradicted."""
    out = []
    for q, text, lang in sample:
        found = analyse(bank.get(q.id), text, lang)
        denied = {c.key_point for c in found.contradictions}
        out.append({c.id: (round(c.score, 6), tuple(c.evidence), c.id in denied) for c in found.criteria})
    return out


def alternatives(bank: Bank) -> int:
    total = 0
    for q in bank.questions:
        assert q.rubric is not None
        for kp in q.rubric.key_points:
            for lang in LANGS:
                total += sum(c.count("|") + c.count("+") + 1 for c in kp.cues.get(lang))
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the bank's question files in place")
    parser.add_argument("--set", action="append", default=None, help=f"usage set under tests/data (default: {', '.join(USAGE_SETS)})")
    args = parser.parse_args(argv)
    source = builtin_bank_dir()
    bank = load_bank()
    sample = samples(bank, args.set or USAGE_SETS)
    with recording() as events:
        before = readings(bank, sample)
    needed = {key: cover(evs, key[1]) for key, evs in events.items()}
    landed = {key: {r for e in evs for r in e} for key, evs in events.items()}
    restored: set[tuple[str, str]] = set()  # key points whose cues keep every alternative that landed
    kept: set[tuple[str, str]] = set()  # ... and those that read differently even so: cues as written
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "bank"
        for rnd in range(1, MAX_ROUNDS + 1):
            shutil.copytree(source, work, dirs_exist_ok=True)
            for q in bank.questions:
                rewrite(work / f"{q.id}.yaml", plan(q, needed, kept))
                drop_repeats(work / f"{q.id}.yaml")
            pruned = load_bank([work], include_builtin=False)
            after = readings(pruned, sample)
            moved = {(s[0].id, kid) for s, b, a in zip(sample, before, after, strict=True) for kid in b if b[kid] != a.get(kid)}
            answers = sum(1 for b, a in zip(before, after, strict=True) if b != a)
            print(f"round {rnd}: {alternatives(pruned)} key-point alternatives; {answers}/{len(sample)} answers read"
                  f" differently, on {len(moved)} key points")
            if not moved:
                break
            kept |= moved & restored
            restored |= moved
            for q in bank.questions:
                assert q.rubric is not None
                for kp in q.rubric.key_points:
                    if (q.id, kp.id) in restored:
                        for lang in LANGS:
                            needed.update({(c, lang): landed[(c, lang)] for c in kp.cues.get(lang) if (c, lang) in landed})
        print(f"key-point alternatives: {alternatives(bank)} -> {alternatives(pruned)}"
              f"{'' if args.write else '  (dry run: add --write to rewrite the bank)'}")
        if args.write:
            for q in bank.questions:
                rewrite(source / f"{q.id}.yaml", plan(q, needed, kept))
                drop_repeats(source / f"{q.id}.yaml")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
