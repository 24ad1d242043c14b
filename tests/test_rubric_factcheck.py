"""Regressions from the independent fact-check of the rubric corrections (issue 12).

- Correct sentences an expert would say about a misconception changed in the corrections: the offline examiner
  flagged these before the fix-check narrowed the cues, and must not flag them again.
- The wrong claims those misconceptions exist for must still be flagged, so the narrowing did not disarm them.
- Sources the fact-check found moved or renamed must not come back.
"""

from __future__ import annotations

import pytest

from interviewer.bank.loader import Bank
from interviewer.examiners.offline.examiner import grade_text

# (question, language, correct sentence that was flagged before the fix-check)
CORRECT = [
    # algo-11 r3-makes-policies-identical: R3 narrows the gap, it does not remove it (arXiv 2510.11370).
    ("algo-11", "en", "Routing replay shrinks the training-inference mismatch but does not make the two policies "
     "identical, so an importance-sampling correction is still useful."),
    ("algo-11", "it", "Il routing replay riduce il divario tra training e inferenza ma non rende le due policy identiche, "
     "quindi una correzione di importance sampling resta utile."),
    # infra-08 colocated-overlap: colocated generation and training alternate; full overlap needs separate GPUs.
    ("infra-08", "en", "On colocated GPUs generation and training take turns, so overlapping them at the same moment "
     "needs separate rollout GPUs."),
    ("infra-08", "it", "Su GPU colocate generazione e training si alternano, quindi per farli girare contemporaneamente "
     "servono GPU di rollout separate."),
    ("infra-08", "ja", "同じ GPU を共有する構成では生成と学習は交互に行われるので、同時に重ねるには別の rollout 用 GPU が必要だ。"),
    # infra-07 local-grad-clipping: in plain DDP every rank holds the full all-reduced gradient, so local clipping is global.
    ("infra-07", "en", "With DDP you can simply clip locally on each GPU, because after the all-reduce every rank has the "
     "same full gradient."),
    ("infra-07", "it", "Con DDP si può semplicemente fare il clipping localmente su ogni GPU, perché dopo l'all-reduce ogni "
     "rank ha lo stesso gradiente completo."),
    ("infra-07", "en", "Under FSDP you cannot simply clip locally; the squared shard norms must be all-reduced first."),
]

# (question, language, wrong sentence, misconception that must still fire)
WRONG = [
    ("algo-11", "en", "Rollout routing replay makes the training and inference policies identical, so no "
     "importance-sampling correction is needed.", "r3-makes-policies-identical"),
    ("algo-11", "en", "With R3 the two engines are identical, so TIS is unnecessary.", "r3-makes-policies-identical"),
    ("algo-11", "it", "Con R3 le policy di training e inferenza diventano identiche, quindi non serve la correzione.",
     "r3-makes-policies-identical"),
    ("algo-11", "ja", "R3 を使えば学習と推論の方策は完全に一致するので補正は不要だ。", "r3-makes-policies-identical"),
    ("infra-08", "en", "On colocated GPUs generation and training can run at the same moment, so you get the full "
     "asynchronous overlap without any separate rollout GPUs.", "colocated-overlap"),
    ("infra-08", "en", "With colocation, rollout and training run concurrently on the same GPUs, so you do not need "
     "extra GPUs.", "colocated-overlap"),
    ("infra-08", "it", "Su GPU colocate generazione e training girano contemporaneamente, quindi non servono GPU di "
     "rollout separate.", "colocated-overlap"),
    ("infra-08", "ja", "コロケーション構成では生成と学習を同時に実行できるので、別の GPU は不要だ。", "colocated-overlap"),
    ("infra-07", "en", "With FSDP each GPU can simply clip with its own gradient norm, no extra communication needed.",
     "local-grad-clipping"),
    ("infra-07", "it", "Con FSDP il clipping locale su ogni GPU basta, senza comunicazione.", "local-grad-clipping"),
    ("infra-07", "ja", "FSDP でも各 GPU でローカルにクリップすればよい。", "local-grad-clipping"),
]

# URLs the fact-check found dead or renamed (verl moved recipe/ to a submodule in January 2026;
# Agent Lightning renamed its async page in August 2026).
DEAD_URLS = [
    "volcengine/verl/blob/main/recipe/fully_async_policy",
    "agent-lightning/stable/7-asynchronous-training",
]


@pytest.mark.parametrize(("qid", "lang", "sentence"), CORRECT)
def test_correct_sentence_is_not_flagged(bank: Bank, qid: str, lang: str, sentence: str) -> None:
    grade = grade_text(bank.get(qid), sentence, lang)
    assert grade.misconceptions == [], [m.id for m in grade.misconceptions]


@pytest.mark.parametrize(("qid", "lang", "sentence", "misconception"), WRONG)
def test_wrong_claim_is_still_flagged(bank: Bank, qid: str, lang: str, sentence: str, misconception: str) -> None:
    grade = grade_text(bank.get(qid), sentence, lang)
    assert misconception in [m.id for m in grade.misconceptions]


def test_no_reference_points_at_a_moved_page(bank: Bank) -> None:
    ids = [f"algo-{i:02d}" for i in range(1, 20)] + [f"infra-{i:02d}" for i in range(1, 17)]
    for qid in ids:
        rubric = bank.get(qid).rubric
        assert rubric is not None
        for ref in rubric.references:
            for dead in DEAD_URLS:
                assert dead not in (ref.url or ""), (qid, ref.id, ref.url)


def test_areal_behaviour_cap_is_not_presented_as_the_current_flag(bank: Bank) -> None:
    """AReaL replaced behav_imp_weight_cap by actor.rejection_sampling (PR #1088, April 2026)."""
    rubric = bank.get("algo-14").rubric
    assert rubric is not None
    point = next(k for k in rubric.key_points if k.id == "areal-decoupled-objective")
    for lang in ("en", "it", "ja"):
        text = point.statement.get(lang)
        assert "rejection_sampling" in text, lang


def test_megatron_cp_comm_type_values(bank: Bank) -> None:
    """Megatron's --cp-comm-type accepts p2p, a2a, allgather and a2a+p2p (megatron/training/arguments.py)."""
    rubric = bank.get("infra-11").rubric
    assert rubric is not None
    point = next(k for k in rubric.key_points if k.id == "ulysses-alternative")
    for lang in ("en", "it", "ja"):
        text = point.statement.get(lang)
        assert "allgather" in text and "all_gather" not in text, lang


def test_ep_replicated_tokens_need_no_dispatch(bank: Bank) -> None:
    """vLLM's allgather_reducescatter gathers tokens from all DP ranks (they start sharded); with replicated tokens
    (TP attention) dispatch needs no communication and only the combine reduces (vLLM AgRsAll2AllManager)."""
    rubric = bank.get("infra-10").rubric
    assert rubric is not None
    point = next(k for k in rubric.key_points if k.id == "all-to-all-cost")
    expected = {"en": "dispatch needs no communication", "it": "il dispatch non richiede comunicazione",
                "ja": "dispatch に通信は不要"}
    for lang, phrase in expected.items():
        assert phrase in point.statement.get(lang), lang
