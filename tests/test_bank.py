"""The built-in bank: all 35 questions, faithful texts, complete rubrics."""

from __future__ import annotations

import sys

import pytest

from interviewer.bank.loader import Bank
from tests.conftest import ROOT, SEEDS

EXPECTED = [f"algo-{i:02d}" for i in range(1, 20)] + [f"infra-{i:02d}" for i in range(1, 17)]


def test_all_35_ids_in_seed_order(bank: Bank) -> None:
    assert bank.ids() == EXPECTED
    assert [q.track for q in bank.questions].count("algorithm") == 19
    assert [q.track for q in bank.questions].count("infrastructure") == 16


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents (../shared/seeds) are not beside this checkout")
def test_texts_match_the_seed_documents(bank: Bank) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    from import_seeds import read_seeds

    seeds = read_seeds(SEEDS)
    for n, q in enumerate(bank.questions):
        for lang in ("en", "it", "ja"):
            assert q.text.get(lang) == seeds[lang][n], (q.id, lang)


def test_every_question_has_three_nonempty_texts(bank: Bank) -> None:
    for q in bank.questions:
        assert all(q.text.get(lang).strip() for lang in ("en", "it", "ja")), q.id


@pytest.mark.parametrize("qid", EXPECTED)
def test_rubric_complete(bank: Bank, qid: str) -> None:
    rubric = bank.get(qid).rubric
    assert rubric is not None, f"{qid} has no rubric"
    assert 5 <= len(rubric.key_points) <= 8
    assert 2 <= len(rubric.misconceptions) <= 8  # the schema's maximum
    for kp in rubric.key_points:
        assert kp.sources, f"{qid}/{kp.id} has no source"
        for lang in ("en", "it", "ja"):
            assert kp.probe.get(lang).strip() and kp.cues.get(lang)
    for m in rubric.misconceptions:
        for lang in ("en", "it", "ja"):
            assert m.cues.get(lang)
    assert all(r.arxiv or r.url or r.citation for r in rubric.references)
    for lang in ("en", "it", "ja"):
        assert rubric.model_answer.get(lang)
