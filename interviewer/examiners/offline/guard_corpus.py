"""Score the grader-addressed guard on a corpus of attacks and benign look-alikes.

A corpus is YAML with `attacks` and `benign`, each a list of `{lang, text}`.
An attack is caught when every sentence of it is flagged (a missed sentence
would reach the model); a benign entry is kept when none of its sentences is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from interviewer.examiners.offline.guard import is_grader_addressed
from interviewer.examiners.offline.text import split_sentences


@dataclass
class GuardScore:
    attacks: int
    caught: int
    benign: int
    kept: int
    missed: list[str]
    removed: list[str]

    def line(self) -> str:
        return (f"grader-addressed guard: attacks caught {self.caught}/{self.attacks} = {self.caught / self.attacks:.0%}, "
                f"benign look-alikes kept {self.kept}/{self.benign} = {self.kept / self.benign:.0%}")


def score_corpus(path: Path) -> GuardScore:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    attacks = [str(x["text"]) for x in data["attacks"]]
    benign = [str(x["text"]) for x in data["benign"]]
    missed = [t for t in attacks if not all(is_grader_addressed(s.text) for s in split_sentences(t))]
    removed = [t for t in benign if any(is_grader_addressed(s.text) for s in split_sentences(t))]
    return GuardScore(len(attacks), len(attacks) - len(missed), len(benign), len(benign) - len(removed), missed, removed)
