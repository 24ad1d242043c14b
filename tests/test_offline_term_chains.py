"""Buzzword lists however they are dressed: a dozen terms after a label, terms joined by slashes. An answer
made of them names the right things without relating them and earns little; one enumeration inside an
answer that explains still counts."""

from __future__ import annotations

import pytest

from interviewer.bank.loader import Bank
from interviewer.examiners.offline.examiner import analyse, grade_text
from interviewer.examiners.offline.text import explanation_quality, split_sentences, term_chain

LABELLED_DOZEN = (
    "OPD: on-policy distillation, teacher-student, reverse KL, dense reward per token, exposure bias, "
    "compounding error, GKD, MiniLLM, Qwen3, small models, continual learning, compute efficiency."
)
SLASHED_JA = "KLペナルティ／参照モデル／β=0.04／k3推定量／unbiased／low variance／reverse KL／trust region／reward hacking対策／ポリシードリフト防止"
METRICS = (
    "To size the KV cache I watch what the server exports. "
    "vLLM exposes Prometheus metrics: kv_cache_usage_perc, num_requests_running, num_requests_waiting, "
    "num_preemptions, prefix cache hit rate, TTFT and inter-token latency. "
    "When requests wait while cache usage sits near 100% and preemptions climb, the cache is too small, so I "
    "raise gpu_memory_utilization or use an FP8 KV cache. "
    "When usage stays low and nothing waits, the batch is limited by max_num_seqs rather than memory."
)


@pytest.mark.parametrize(
    ("sentence", "japanese", "chain"),
    [
        (LABELLED_DOZEN, False, True),
        (SLASHED_JA, True, True),  # one stray "=" among ten terms relates nothing
        ("#RLHF #PPO #GAE #critic #baseline #variance", False, True),
        ("MoE / Router / Top-k / Routing Replay / R3 / TIS / IcePop", False, True),
        # what a named method does, in expert shorthand: few items
        ("DAPO: clip-higher, dynamic sampling, token-level loss, no KL", False, False),
        # relations between the terms
        ("AReaL: bottleneck = sync barrier → async rollout, staleness bound η, decoupled PPO", False, False),
        # prose that happens to enumerate
        ("The baseline, the critic, the clip and the KL term each reduce the variance of the update.", False, False),
        ("GRPOはグループ平均をベースラインにし、Criticを使わず、分散を下げ、メモリを節約し、学習を安定させる。", True, False),
    ],
)
def test_what_is_a_term_chain(sentence: str, japanese: bool, chain: bool) -> None:
    assert term_chain(sentence, japanese) is chain


def test_a_labelled_dozen_terms_is_a_list_not_a_full_answer(bank: Bank) -> None:
    """Before: the label made it read as shorthand (quality 0.6), the one sentence touched every row and was
    every content sentence of the answer, and the calibrated score reached 10."""
    assert explanation_quality(LABELLED_DOZEN, False) == 0.6  # the sentence alone reads as labelled shorthand
    grade = grade_text(bank.get("algo-17"), LABELLED_DOZEN, "en")
    assert grade.overall <= 2.5


def test_filler_sentences_around_a_labelled_chain_do_not_make_it_an_answer(bank: Bank) -> None:
    """heldout20 algo-17-r20-10: the same kind of chain plus two lines of praise. By sentence count it was
    a third of the answer, so it kept shorthand credit on all six rows and scored 10; every row's evidence
    is the chain, so it is read as the list it is."""
    padded = LABELLED_DOZEN + " Better than SFT and better than RL. Very efficient, state of the art."
    assert grade_text(bank.get("algo-17"), padded, "en").overall <= 2.5


def test_a_slashed_japanese_term_list_scores_low(bank: Bank) -> None:
    """Its terms are longer than the sentence-level list check allows (English terms in katakana text), and
    "β=0.04" is a relation symbol; as a whole answer of term chains it is still a list."""
    assert grade_text(bank.get("algo-08"), SLASHED_JA, "ja").overall <= 2.5


def test_an_enumeration_inside_an_answer_that_explains_still_counts(bank: Bank) -> None:
    """Naming the metrics is the content of a monitoring answer: the enumeration keeps its credit."""
    q = bank.get("infra-06")
    enumeration = split_sentences(METRICS)[1].text
    assert term_chain(enumeration, False)
    grade = grade_text(q, METRICS, "en")
    quoted = [c for c in grade.criteria if enumeration in c.evidence]
    assert quoted and all(c.score > 0 for c in quoted)
    alone = analyse(q, enumeration, "en")  # the same sentence as the whole answer is a list
    assert sum(c.score for c in alone.criteria) < sum(c.score for c in quoted)


def test_a_western_abbreviation_inside_japanese_does_not_end_the_sentence() -> None:
    sentences = [s.text for s in split_sentences("Std正規化についてはDr. GRPOの議論があります。次の文です。")]
    assert sentences == ["Std正規化についてはDr. GRPOの議論があります。", "次の文です。"]
