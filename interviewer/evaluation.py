"""Agreement between an examiner's scores and reference grades.

One place for the statistics that `interviewer eval` and
`benchmarks/bench_offline.py` print, so both report the same figures for the
same set: Spearman's rank correlation (ties get their average rank), the
share of correctly ordered pairs, mean absolute error, per-kind means, and
how often a fluent-but-wrong answer scores below a partial answer to the
same question.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

#: the kinds of graded answer the shipped sets use, in report order
KINDS = ("strong", "partial", "fluent_wrong", "buzzword", "grader_addressed", "off_topic")
ADVERSARIAL = ("fluent_wrong", "buzzword", "grader_addressed")


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks; tied values share the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def pearson(a: Sequence[float], b: Sequence[float]) -> float:
    """Pearson's r; NaN when either side is constant or there are fewer than 2 values."""
    if len(a) != len(b):
        raise ValueError("pearson: sequences differ in length")
    if len(a) < 2:
        return math.nan
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    va = math.sqrt(sum((x - ma) ** 2 for x in a))
    vb = math.sqrt(sum((y - mb) ** 2 for y in b))
    if va == 0 or vb == 0:
        return math.nan
    return max(-1.0, min(1.0, cov / (va * vb)))


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rho with ties: Pearson's r of the average ranks."""
    return pearson(ranks(a), ranks(b))


def pair_order_accuracy(ref: Sequence[float], got: Sequence[float]) -> float:
    """Among pairs the reference orders (different grades), the share the scores order the same way.

    A pair the scores tie counts one half: the examiner did not tell them apart.
    NaN when the reference ties every pair.
    """
    agree = 0.0
    pairs = 0
    for i in range(len(ref)):
        for j in range(i + 1, len(ref)):
            r = ref[i] - ref[j]
            if r == 0:
                continue
            pairs += 1
            g = got[i] - got[j]
            agree += 0.5 if g == 0 else float((g > 0) == (r > 0))
    return agree / pairs if pairs else math.nan


def question_pair_order(items: Sequence[Scored], min_gap: float = 1.0) -> float:
    """Among pairs of answers to the same question whose reference grades are at least `min_gap`
    apart, the share the scores order the same way (a tie in the scores counts half)."""
    by_q: dict[str, list[Scored]] = defaultdict(list)
    for s in items:
        by_q[s.question_id].append(s)
    good = total = 0.0
    for group in by_q.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if abs(a.ref - b.ref) < min_gap:
                    continue
                total += 1
                good += 0.5 if a.score == b.score else float((a.score - b.score) * (a.ref - b.ref) > 0)
    return good / total if total else math.nan


def mae(ref: Sequence[float], got: Sequence[float]) -> float:
    return statistics.fmean(abs(x - y) for x, y in zip(ref, got, strict=True)) if ref else math.nan


UNDER_GRADED = 2.0  # points below the reference that make a grade too low, for the unjudged-list figure


@dataclass(frozen=True)
class Scored:
    """One graded answer: its reference grade and the examiner's score (both 0..10)."""

    id: str
    question_id: str
    lang: str
    track: str
    ref: float
    score: float
    kind: str | None = None
    spread: float | None = None  # max - min of the overall over self-consistency samples
    unjudged: bool = False  # the offline grade listed sentences it could not judge (Grade.unjudged)
    lifted: bool = False  # resemblance to graded example answers raised the offline score (Grade.resemblance_shift > 0)
    lowered: bool = False  # ... or lowered it


@dataclass(frozen=True)
class Group:
    n: int
    spearman: float


@dataclass(frozen=True)
class KindMean:
    n: int
    score: float
    ref: float


@dataclass
class Agreement:
    """Everything `eval` reports about one examiner on one set."""

    n: int
    spearman: float
    pair_accuracy: float  # every pair of answers the reference orders
    mae: float
    question_pair_accuracy: float = math.nan  # same-question pairs graded >= 1 point apart
    by_lang: dict[str, Group] = field(default_factory=dict)
    by_track: dict[str, Group] = field(default_factory=dict)
    by_kind: dict[str, KindMean] = field(default_factory=dict)
    adversarial_mean: float | None = None
    #: questions with both kinds: (questions where every fluent-wrong < every partial, such questions)
    fluent_wrong_below_partial: tuple[int, int] = (0, 0)
    #: the same, comparing the two kinds' means per question
    fluent_wrong_below_partial_means: tuple[int, int] = (0, 0)
    mean_spread: float | None = None
    max_spread: float | None = None
    #: the offline "not matched to the rubric" list: (answers with it, of those graded >= UNDER_GRADED below the
    #: reference, answers graded that far below); how well it points at grades that are too low
    unjudged: tuple[int, int, int] = (0, 0, 0)
    #: offline resemblance to graded examples: (answers it raised, their mean score minus reference grade)
    lifted: tuple[int, float | None] = (0, None)
    #: the same for the answers it lowered
    lowered: tuple[int, float | None] = (0, None)


def _groups(items: Iterable[Scored], key: str) -> dict[str, Group]:
    parts: dict[str, list[Scored]] = defaultdict(list)
    for s in items:
        parts[str(getattr(s, key))].append(s)
    return {
        k: Group(len(v), spearman([s.ref for s in v], [s.score for s in v]))
        for k, v in sorted(parts.items())
        if len(v) > 2
    }


def fluent_wrong_vs_partial(items: Iterable[Scored]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Per question with both kinds: (every pair ordered right, means ordered right), each as (wins, questions)."""
    per_q: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in items:
        if s.kind in ("fluent_wrong", "partial"):
            per_q[s.question_id][s.kind].append(s.score)
    pairs = wins = mean_wins = 0
    for kinds in per_q.values():
        if kinds["fluent_wrong"] and kinds["partial"]:
            pairs += 1
            wins += max(kinds["fluent_wrong"]) < min(kinds["partial"])
            mean_wins += statistics.fmean(kinds["fluent_wrong"]) < statistics.fmean(kinds["partial"])
    return (wins, pairs), (mean_wins, pairs)


def agreement(items: Sequence[Scored]) -> Agreement:
    """Compute every figure for a list of scored answers."""
    ref = [s.ref for s in items]
    got = [s.score for s in items]
    by_kind: dict[str, list[Scored]] = defaultdict(list)
    for s in items:
        if s.kind:
            by_kind[s.kind].append(s)
    order = [k for k in KINDS if k in by_kind] + sorted(k for k in by_kind if k not in KINDS)
    kinds = {
        k: KindMean(len(by_kind[k]), statistics.fmean(s.score for s in by_kind[k]),
                    statistics.fmean(s.ref for s in by_kind[k]))
        for k in order
    }
    adversarial = [s.score for k in ADVERSARIAL for s in by_kind.get(k, [])]
    every, means = fluent_wrong_vs_partial(items)
    spreads = [s.spread for s in items if s.spread is not None]
    return Agreement(
        n=len(items),
        spearman=spearman(ref, got),
        pair_accuracy=pair_order_accuracy(ref, got),
        mae=mae(ref, got),
        question_pair_accuracy=question_pair_order(items),
        by_lang=_groups(items, "lang"),
        by_track=_groups(items, "track"),
        by_kind=kinds,
        adversarial_mean=statistics.fmean(adversarial) if adversarial else None,
        fluent_wrong_below_partial=every,
        fluent_wrong_below_partial_means=means,
        mean_spread=statistics.fmean(spreads) if spreads else None,
        max_spread=max(spreads) if spreads else None,
        unjudged=(sum(s.unjudged for s in items), sum(s.unjudged and s.ref - s.score >= UNDER_GRADED for s in items),
                  sum(s.ref - s.score >= UNDER_GRADED for s in items)),
        lifted=(len(raised := [s.score - s.ref for s in items if s.lifted]), statistics.fmean(raised) if raised else None),
        lowered=(len(down := [s.score - s.ref for s in items if s.lowered]), statistics.fmean(down) if down else None),
    )


def scatter(items: Sequence[Scored]) -> list[str]:
    """An agreement plot as text: reference grade across, examiner score up, both rounded to whole points.

    Each cell counts the answers that fall in it; perfect agreement fills the
    diagonal, drawn with dots where no answer falls.
    """
    grid = [[0] * 11 for _ in range(11)]
    for s in items:
        grid[round(max(0.0, min(10.0, s.score)))][round(max(0.0, min(10.0, s.ref)))] += 1
    lines = []
    for row in range(10, -1, -1):
        cells = "".join(f"{grid[row][col]:>4d}" if grid[row][col] else ("   ·" if col == row else "    ")
                        for col in range(11))
        lines.append(f"{row:>6d} |{cells}")
    lines.append("       +" + "-" * 44)
    lines.append("        " + "".join(f"{v:>4d}" for v in range(11)))
    return lines
