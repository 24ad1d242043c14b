"""The agreement statistics behind `interviewer eval` and bench_offline.py."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from interviewer.evaluation import Scored, agreement, mae, pair_order_accuracy, ranks, scatter, spearman


def reference_spearman(a: list[float], b: list[float]) -> float:
    """Textbook Spearman: rank = number smaller + (number equal + 1) / 2, then Pearson's formula."""

    def rank(xs: list[float]) -> list[float]:
        return [sum(y < x for y in xs) + (sum(y == x for y in xs) + 1) / 2 for x in xs]

    ra, rb = rank(a), rank(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den else math.nan


# Grades like the sets have: half points, so ties are common.
grade = st.integers(0, 20).map(lambda v: v / 2)
paired = st.integers(2, 40).flatmap(lambda n: st.tuples(st.lists(grade, min_size=n, max_size=n),
                                                        st.lists(grade, min_size=n, max_size=n)))


@given(paired)
def test_spearman_matches_the_textbook_formula_with_ties(ab: tuple[list[float], list[float]]) -> None:
    a, b = ab
    got, want = spearman(a, b), reference_spearman(a, b)
    assert (math.isnan(got) and math.isnan(want)) or abs(got - want) < 1e-9


@given(paired)
def test_bounds(ab: tuple[list[float], list[float]]) -> None:
    a, b = ab
    rho, acc = spearman(a, b), pair_order_accuracy(a, b)
    assert math.isnan(rho) or -1.0 <= rho <= 1.0
    assert math.isnan(acc) or 0.0 <= acc <= 1.0
    assert 0.0 <= mae(a, b) <= 10.0
    assert sorted(ranks(a)) == sorted(ranks(sorted(a)))
    assert sum(ranks(a)) == len(a) * (len(a) + 1) / 2  # average ranks keep the total


@given(st.lists(grade, min_size=3, max_size=30, unique=True))
def test_perfect_and_reversed_order(a: list[float]) -> None:
    assert abs(spearman(a, [3 * x + 1 for x in a]) - 1.0) < 1e-12  # any increasing transform
    assert abs(spearman(a, [-x for x in a]) + 1.0) < 1e-12
    assert pair_order_accuracy(a, a) == 1.0 and pair_order_accuracy(a, [-x for x in a]) == 0.0


def test_known_values() -> None:
    # Wikipedia's worked example (IQ against hours of TV): rho = -29/165.
    iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110]
    tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17]
    assert abs(spearman(iq, tv) - (-29 / 165)) < 1e-12
    assert ranks([1, 2, 2, 3]) == [1.0, 2.5, 2.5, 4.0]
    assert pair_order_accuracy([1, 2, 3], [1, 1, 3]) == (0.5 + 1 + 1) / 3  # a tie in the scores counts half
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))


def test_agreement_groups_and_fluent_wrong() -> None:
    items = [
        Scored("a", "q1", "en", "algorithm", 2, 1, "fluent_wrong"),
        Scored("b", "q1", "en", "algorithm", 5, 4, "partial"),
        Scored("c", "q1", "it", "algorithm", 9, 8, "strong"),
        Scored("d", "q2", "it", "infrastructure", 1, 6, "fluent_wrong"),
        Scored("e", "q2", "en", "infrastructure", 5, 5, "partial"),
        Scored("f", "q2", "it", "infrastructure", 8, 9, "strong", spread=1.5),
    ]
    a = agreement(items)
    assert a.n == 6 and a.fluent_wrong_below_partial == (1, 2)
    assert set(a.by_lang) == {"en", "it"} and set(a.by_track) == {"algorithm", "infrastructure"}
    assert a.by_kind["strong"].score == 8.5 and a.by_kind["strong"].ref == 8.5
    assert a.mean_spread == 1.5 and a.max_spread == 1.5
    plot = scatter(items)
    assert len(plot) == 13 and plot[0].startswith("    10 |")
    assert sum(int(tok) for row in plot[:11] for tok in row.split("|")[1].split() if tok.isdigit()) == 6
