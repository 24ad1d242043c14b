"""Check the shared concept lexicon against the bank, for lexicon and rubric authors.

    python tools/check_lexicon.py [--bank DIR ...] [--verbose]

For each concept and language it reports:
- a term that no key-point cue of the bank names (its `says` phrases then serve
  only cues that write ``@concept``), which is usually a term spelt differently
  from the cues ("value-function" where cues write "value function");
- a `says` phrase that some cue of that language already lists word for word
  (harmless, but it is not what the lexicon is for).
It ends with the counts the issue tracks: rubric alternatives and lexicon phrases.
Exit 1 when the lexicon file itself has a problem (schema, negation, duplicate id).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.bank.lexicon import LexiconProblem, builtin_lexicon  # noqa: E402
from interviewer.bank.loader import load_bank  # noqa: E402
from interviewer.bank.models import LANGS  # noqa: E402
from interviewer.examiners.offline.cues import names_term  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bank", action="append", type=Path, default=[], help="also read this bank directory")
    parser.add_argument("--verbose", action="store_true", help="list every redundant `says` phrase")
    args = parser.parse_args(argv)
    try:
        lexicon = builtin_lexicon()
    except LexiconProblem as exc:
        print("\n".join(f"{exc.path}: {where}: {msg}" for where, msg in exc.items))
        return 1
    bank = load_bank(args.bank)
    # every key-point alternative per language, indexed by its first word (Latin) or kept whole (Japanese)
    alts: dict[str, set[str]] = defaultdict(set)
    rubric_alts = 0
    for q in bank.questions:
        if q.rubric is None:
            continue
        for owner in [*q.rubric.key_points, *q.rubric.misconceptions]:
            for lang in LANGS:
                for cue in owner.cues.get(lang):
                    for term in cue.split("+"):
                        for alt in term.split("|"):
                            rubric_alts += 1
                            if owner in q.rubric.key_points:
                                alts[lang].add(alt.strip())
    first_words: dict[str, dict[str, list[str]]] = {lang: defaultdict(list) for lang in LANGS}
    for lang in ("en", "it"):
        for alt in alts[lang]:
            first_words[lang][alt.split(" ")[0]].append(alt)
    unnamed = redundant = 0
    for concept in lexicon.concepts:
        for lang in LANGS:
            form = concept.form(lang)
            if form is None:
                continue
            for term in form.term:
                if lang == "ja":
                    candidates = [term[:k] for k in range(2, len(term) + 1) if term[:k] in alts[lang]]
                else:
                    head = term.lower().split(" ")[0]
                    candidates = [a for k in range(1, len(head) + 1) for a in first_words[lang].get(head[:k], [])]
                if not any(names_term(a, term, lang) for a in candidates):
                    unnamed += 1
                    print(f"{concept.id}.{lang}: no key-point cue names the term {term!r}")
            for phrase in form.says:
                if phrase in alts[lang]:
                    redundant += 1
                    if args.verbose:
                        print(f"{concept.id}.{lang}: {phrase!r} is already a cue alternative")
    print(
        f"{len(lexicon.concepts)} concepts, {lexicon.alternatives()} lexicon phrases; {rubric_alts} rubric alternatives; "
        f"{unnamed} term(s) no cue names; {redundant} `says` phrase(s) already in cues"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
