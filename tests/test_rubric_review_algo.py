"""Regressions from the expert review of the algorithm rubrics (/work/shared/reviews/rubric-review-algo.md).

Two kinds of check, each in English and, where the rubric has cues for them, Italian and Japanese:
- a correct sentence the review quoted must not be flagged as a misconception;
- a wrong sentence the review found credited must earn no credit for that key point.
"""

from __future__ import annotations

import pytest

from interviewer.bank.loader import Bank
from interviewer.examiners.offline.examiner import grade_text

# (question, language, correct sentence that must not be flagged)
CORRECT = [
    # algo-05 baseline-biases: a poorly chosen baseline can raise the variance (Sutton & Barto §13.4).
    ("algo-05", "en", "A poorly chosen baseline increases the variance, although it never changes the expected gradient."),
    ("algo-05", "it", "Una baseline scelta male aumenta la varianza, anche se non cambia mai il gradiente atteso."),
    ("algo-05", "ja", "選び方の悪いベースラインは分散を増やすこともあるが、勾配の期待値は決して変えない。"),
    # algo-09 adam-makes-it-harmless: a plain, non-differentiable all_reduce on the loss leaves training unaffected.
    ("algo-09", "en", "If it is the plain torch.distributed.all_reduce on the loss, with Adam or any optimizer it has no effect "
     "at all on training, only on the logged value."),
    ("algo-09", "it", "Se è il semplice all_reduce sulla loss, con Adam o con qualsiasi ottimizzatore non ha nessun effetto "
     "sull'addestramento, solo sul valore loggato."),
    ("algo-09", "ja", "損失に対する通常の all_reduce なら、Adam でも他のオプティマイザでも学習にはまったく影響しない。"),
    # algo-19 replay-direction-reversed: GSPO's Routing Replay reuses the old policy's training-pass routing.
    ("algo-19", "en", "GSPO's Routing Replay reuses the routing from the training forward pass of the old policy, while R3 "
     "uses the inference engine's routing."),
    ("algo-19", "it", "Il Routing Replay di GSPO riusa il routing del training della vecchia policy, mentre R3 usa il routing "
     "del motore di inferenza."),
    ("algo-19", "ja", "GSPO の Routing Replay は旧方策の学習時のルーティングを記録して新方策の計算に再利用し、R3 は推論エンジンの"
     "ルーティングを使う。"),
    # algo-07: the correct two-sided statement of where the clip bites.
    ("algo-07", "en", "With a positive advantage the gradient is zero once r rises above 1+eps, while if r falls below 1-eps "
     "the unclipped term is selected and the gradient is full."),
    # algo-16: the correct description of ProRL's reference reset and clip-higher.
    ("algo-16", "en", "ProRL periodically resets the reference policy to a recent snapshot of the current policy."),
    ("algo-16", "en", "ProRL raises eps_high to 0.4 so that low-probability tokens with positive advantage can grow."),
    # algo-12: the correct inference from the all-agree probability.
    ("algo-12", "en", "With pass rate p the chance that all G answers agree is p^G + (1-p)^G, so a larger G rescues very "
     "hard prompts."),
]

# (question, key point, language, wrong sentence that must earn nothing for that key point)
WRONG = [
    ("algo-05", "std-not-required", "en",
     "Per-group std normalisation removes a difficulty bias, so Dr. GRPO was wrong to drop it."),
    ("algo-05", "std-not-required", "it",
     "La normalizzazione per la std rimuove un bias di difficoltà, quindi Dr. GRPO ha sbagliato a toglierla."),
    ("algo-05", "std-not-required", "ja",
     "グループごとの標準偏差の正規化は難易度バイアスを取り除くので、Dr. GRPO は標準偏差を外すべきではなかった。"),
    ("algo-07", "zero-gradient-outside-band", "en",
     "With a positive advantage the objective becomes flat once r falls below 1-eps, so that sample gives zero gradient."),
    ("algo-07", "zero-gradient-outside-band", "it",
     "Con vantaggio positivo l'obiettivo diventa piatto quando r scende sotto 1-eps, quindi quel campione dà gradiente nullo."),
    ("algo-07", "zero-gradient-outside-band", "ja",
     "アドバンテージが正のとき、rが1-εを下回ると目的関数は平坦になり勾配はゼロになる。"),
    ("algo-11", "r3-rollout-routing-replay", "en",
     "R3 records the routing chosen by the training engine and replays it in the inference engine during rollout."),
    ("algo-11", "r3-rollout-routing-replay", "it",
     "R3 registra il routing del training e lo riapplica nell'inferenza durante il rollout."),
    ("algo-11", "r3-rollout-routing-replay", "ja", "R3 は学習時のルーティングを記録し、推論エンジンで再生する。"),
    ("algo-16", "stabilisers", "en",
     "ProRL periodically resets the current policy back to the reference model when training drifts."),
    ("algo-16", "stabilisers", "it",
     "ProRL resetta la policy corrente riportandola al modello di riferimento quando il training deriva."),
    ("algo-16", "stabilisers", "ja", "ProRL は学習が逸れると現在の方策を参照モデルに戻す。"),
    ("algo-16", "stabilisers", "en", "ProRL sets eps_high to 0.4 to stop low-probability tokens from growing."),
    ("algo-16", "stabilisers", "it", "ProRL imposta eps_high a 0.4 per impedire ai token a bassa probabilità di crescere."),
    ("algo-16", "stabilisers", "ja", "ProRL は eps_high を 0.4 にして低確率トークンが増えないようにする。"),
    ("algo-12", "group-size-signal", "en",
     "With pass rate p the chance that all G answers agree is p^G + (1-p)^G, so a smaller G rescues very hard prompts."),
    ("algo-12", "group-size-signal", "it",
     "La probabilità che tutte concordino è p^G + (1-p)^G, quindi un gruppo più piccolo salva i prompt difficili."),
    ("algo-12", "group-size-signal", "ja",
     "全員一致の確率は p^G + (1-p)^G なので、G を小さくすると難しいプロンプトを救える。"),
]


@pytest.mark.parametrize(("qid", "lang", "sentence"), CORRECT)
def test_correct_sentence_is_not_flagged(bank: Bank, qid: str, lang: str, sentence: str) -> None:
    grade = grade_text(bank.get(qid), sentence, lang)
    assert grade.misconceptions == [], [m.id for m in grade.misconceptions]


@pytest.mark.parametrize(("qid", "kp", "lang", "sentence"), WRONG)
def test_wrong_sentence_earns_nothing_for_the_point(bank: Bank, qid: str, kp: str, lang: str, sentence: str) -> None:
    grade = grade_text(bank.get(qid), sentence, lang)
    scores = {c.id: c.score for c in grade.criteria}
    assert kp in scores
    assert scores[kp] == 0, (kp, scores[kp])


PROBES_THAT_GAVE_IT_AWAY = [
    # (question, key point, phrases the review quoted from the old probe, per language)
    ("algo-02", "ce-decomposition", {"en": "subtract the entropy", "it": "sottratta l'entropia", "ja": "エントロピーを引く"}),
    ("algo-02", "kl-properties", {"en": "rather than a distance", "it": "e non distanza", "ja": "距離ではなく"}),
    ("algo-05", "loo-baseline", {"en": "RLOO", "it": "RLOO", "ja": "RLOO"}),
    ("algo-08", "k3-as-loss-gradient", {"en": "an unbiased estimate of the KL gradient", "it": "stima non distorta del gradiente",
                                        "ja": "勾配の不偏推定"}),
    ("algo-08", "gspo-nuance", {"en": "harmful", "it": "dannoso", "ja": "有害"}),
    ("algo-09", "adam-hides-scale", {"en": "hides a constant", "it": "nasconde un fattore", "ja": "定数倍を隠"}),
    ("algo-10", "implicit-reward", {"en": "which two models appear", "it": "quali due modelli", "ja": "どの二つのモデル"}),
    ("algo-11", "r3-rollout-routing-replay", {"en": "record during generation", "it": "registrare durante la generazione",
                                              "ja": "生成時に何を記録"}),
    ("algo-11", "masked-is-icepop", {"en": "Instead of down-weighting", "it": "Invece di ridurre il peso",
                                     "ja": "重み付けで弱める代わりに"}),
    ("algo-13", "dapo", {"en": "decoupled", "it": "disaccoppiato", "ja": "分離し"}),
    ("algo-13", "gspo", {"en": "whole response", "it": "intera risposta", "ja": "応答全体"}),
    # hints the cues cannot see (it/ja paraphrases), found when every probe was graded as an answer
    ("algo-19", "r1-grpo-rule-rewards", {"en": "without a value network", "it": "senza una rete di valore",
                                         "ja": "価値ネットワークなし"}),
    ("algo-05", "grpo-group-advantage", {"en": "no value network", "it": "non ha una rete del valore",
                                         "ja": "価値ネットワークがありません"}),
    ("algo-06", "tts-exploration", {"en": "no longer change", "it": "non cambiano", "ja": "変わら"}),
    ("algo-18", "pretraining-foundation", {"en": "already reason", "it": "sa già ragionare", "ja": "既に推論"}),
]


@pytest.mark.parametrize(("qid", "kp", "phrases"), PROBES_THAT_GAVE_IT_AWAY)
def test_probe_no_longer_states_the_answer(bank: Bank, qid: str, kp: str, phrases: dict[str, str]) -> None:
    rubric = bank.get(qid).rubric
    assert rubric is not None
    point = next(k for k in rubric.key_points if k.id == kp)
    for lang, phrase in phrases.items():
        assert phrase.lower() not in point.probe.get(lang).lower(), (lang, phrase)
