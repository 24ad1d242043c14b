"""Regressions from the expert review of the infrastructure rubrics (issue 12).

Each case is a sentence from the review (or its it/ja rendering). A correct sentence must not be
flagged as a misconception; a wrong sentence must earn no credit for the key point whose cue used
to reward it (and, where the rubric now names the wrong claim, it is flagged).
"""

from __future__ import annotations

import pytest

from interviewer.bank.loader import Bank
from interviewer.examiners.offline.examiner import analyse

# (question, lang, correct sentence, misconception that used to fire on it)
CORRECT_NOT_FLAGGED = [
    # infra-09: the engine records the log-probs it actually sampled (PipelineRL, arXiv 2509.19128)
    ("infra-09", "en", "Decoding on a stale KV cache samples from a hybrid distribution, but the engine records the "
     "log-probs it actually sampled, so the importance ratios stay valid.", "stale-kv-corrupts-logprobs"),
    ("infra-09", "it", "Con una cache KV stantia si campiona da una distribuzione ibrida, ma il motore registra le "
     "log-prob da cui ha davvero campionato, quindi i rapporti di importanza restano validi.", "stale-kv-corrupts-logprobs"),
    ("infra-09", "ja", "古いKVキャッシュの上でデコードすると混成の分布からサンプルすることになるが、エンジンは実際にサンプルした"
     "log-probを記録するので重要度比は有効なままである。", "stale-kv-corrupts-logprobs"),
]

# (question, lang, wrong sentence, key point it must not earn, misconception it should trigger or None)
WRONG_NOT_CREDITED = [
    # infra-09: the review's factual error, as the old statement put it
    ("infra-09", "en", "The sampled tokens and their recorded log-probs would then match neither policy, which breaks "
     "the importance ratios.", "stale-kv-hybrid-policy", None),
    ("infra-09", "en", "Keeping the old KV cache corrupts the recorded log-probs and breaks the importance ratios.",
     "stale-kv-hybrid-policy", "stale-kv-corrupts-logprobs"),
    ("infra-09", "it", "Tenere la cache vecchia falsa le log-prob registrate e rompe i rapporti di importanza.",
     "stale-kv-hybrid-policy", "stale-kv-corrupts-logprobs"),
    ("infra-09", "ja", "古いKVキャッシュを残すと記録したlog-probが壊れ、重要度比も崩れる。",
     "stale-kv-hybrid-policy", "stale-kv-corrupts-logprobs"),
]


@pytest.mark.parametrize(("qid", "lang", "text", "misconception"), CORRECT_NOT_FLAGGED)
def test_correct_sentence_is_not_flagged(bank: Bank, qid: str, lang: str, text: str, misconception: str) -> None:
    found = [m.id for m in analyse(bank.get(qid), text, lang).misconceptions]
    assert misconception not in found, found
    assert found == [], found


@pytest.mark.parametrize(("qid", "lang", "text", "point", "misconception"), WRONG_NOT_CREDITED)
def test_wrong_sentence_earns_no_credit(
    bank: Bank, qid: str, lang: str, text: str, point: str, misconception: str | None
) -> None:
    a = analyse(bank.get(qid), text, lang)
    assert a.coverage()[point] == 0, a.coverage()
    if misconception is not None:
        assert misconception in [m.id for m in a.misconceptions]
