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
     "log-probs it actually sampled, so the importance ratios stay valid.", "kv-weight-independent"),
    ("infra-09", "it", "Con una cache KV stantia si campiona da una distribuzione ibrida, ma il motore registra le "
     "log-prob da cui ha davvero campionato, quindi i rapporti di importanza restano validi.", "kv-weight-independent"),
    ("infra-09", "ja", "古いKVキャッシュの上でデコードすると混成の分布からサンプルすることになるが、エンジンは実際にサンプルした"
     "log-probを記録するので重要度比は有効なままである。", "kv-weight-independent"),
    # infra-10: with tensor-parallel attention, EP can combine with all-gather/reduce-scatter (vLLM EP docs)
    ("infra-10", "en", "In vLLM, when attention is tensor-parallel, expert parallelism combines the expert outputs with an "
     "all-reduce across the EP group, as in tensor parallelism.", "ep-every-expert-every-token"),
    ("infra-10", "it", "In vLLM, quando l'attenzione è tensor parallel, l'expert parallelism combina gli output degli "
     "esperti con un all-reduce sul gruppo EP, come nel tensor parallel.", "ep-every-expert-every-token"),
    ("infra-10", "ja", "vLLMでattentionがテンソル並列のとき、Expert Parallelismはエキスパートの出力をall-reduceでEPグループ全体に"
     "合算し、テンソル並列と同様に扱う。", "ep-every-expert-every-token"),
    # infra-08: Agent Lightning v1.0 documents collocated asynchronous training
    ("infra-08", "en", "Some frameworks such as Agent Lightning run asynchronous training on the same colocated GPUs by "
     "carrying unfinished rollout groups over to later steps, so no separate rollout GPUs are needed", "colocated-overlap"),
    ("infra-08", "it", "Alcuni framework come Agent Lightning fanno training asincrono sulle stesse GPU colocate portando i "
     "gruppi di rollout incompleti agli step successivi, quindi non servono GPU di rollout separate.", "colocated-overlap"),
    ("infra-08", "ja", "Agent Lightning のようなフレームワークは、未完了のロールアウトグループを後のステップに持ち越すことで、"
     "コロケーションした同じGPUで非同期学習を行うので、別のロールアウト用GPUは不要です。", "colocated-overlap"),
    # infra-04: APRIL's over-provisioning is one of the rubric's own remedies (arXiv 2509.18521)
    ("infra-04", "en", "Increasing the batch size with over-provisioning and early termination, as in APRIL, fixes much of "
     "the long tail.", "more-gpus-fix-tail"),
    ("infra-04", "it", "Aumentare il batch con over-provisioning e terminazione anticipata, come in APRIL, risolve gran "
     "parte della coda lunga.", "more-gpus-fix-tail"),
    ("infra-04", "ja", "APRIL のように過剰にリクエストを出して早期終了させつつバッチサイズを増やせば、ロングテールの大部分は"
     "解消する。", "more-gpus-fix-tail"),
    # infra-07: in plain DDP every rank already holds the full all-reduced gradient
    ("infra-07", "en", "In plain DDP, gradients are all-reduced before clipping, so every rank holds the identical full "
     "gradient and clipping locally gives the same result as global clipping.", "local-grad-clipping"),
    # infra-05: keeping the stale KV on an in-flight update is a real option (PipelineRL; SGLang PR #10071)
    ("infra-05", "en", "PipelineRL keeps the old KV cache across in-flight weight updates, and SGLang allows flush_cache=False, "
     "so there is no need to flush.", "weights-swap-free"),
    ("infra-05", "it", "PipelineRL tiene la vecchia cache KV durante gli aggiornamenti in volo, e SGLang permette "
     "flush_cache=False, quindi non serve svuotare la cache.", "weights-swap-free"),
    ("infra-05", "ja", "PipelineRLはin-flight更新でも古いKVキャッシュをそのまま使い、SGLangもflush_cache=Falseを許すので、"
     "キャッシュをリセットする必要はない。", "weights-swap-free"),
]

# (question, lang, wrong sentence, key point it must not earn, misconception it should trigger or None)
WRONG_NOT_CREDITED = [
    # infra-09: the review's factual error, as the old statement put it
    ("infra-09", "en", "The sampled tokens and their recorded log-probs would then match neither policy, which breaks "
     "the importance ratios.", "stale-kv-hybrid-policy", None),
    ("infra-09", "en", "Keeping the old KV cache corrupts the recorded log-probs and breaks the importance ratios.",
     "stale-kv-hybrid-policy", None),
    ("infra-09", "it", "Tenere la cache vecchia falsa le log-prob registrate e rompe i rapporti di importanza.",
     "stale-kv-hybrid-policy", None),
    ("infra-09", "ja", "古いKVキャッシュを残すと記録したlog-probが壊れ、重要度比も崩れる。",
     "stale-kv-hybrid-policy", None),
    # infra-10: the narrowed misconception still catches the dense-TP picture of EP
    ("infra-10", "en", "Under expert parallelism every expert processes every token and the outputs are summed with an "
     "all-reduce.", "all-to-all-cost", "ep-every-expert-every-token"),
    ("infra-10", "it", "Ogni esperto elabora tutti i token e gli output vengono sommati con un all-reduce.",
     "all-to-all-cost", "ep-every-expert-every-token"),
    ("infra-10", "ja", "全エキスパートが全トークンを処理し、出力をall-reduceで合算する。", "all-to-all-cost",
     "ep-every-expert-every-token"),
    # infra-08: the narrowed misconception still catches concurrent generate+train on colocated GPUs
    ("infra-08", "en", "With colocation, generation and training run at the same time on the same GPUs.",
     "disaggregation-buffer", "colocated-overlap"),
    ("infra-08", "it", "Con la colocazione generazione e training girano contemporaneamente sulle stesse GPU.",
     "disaggregation-buffer", "colocated-overlap"),
    ("infra-08", "ja", "コロケーションした同じGPUで生成と学習を同時に走らせられる。", "disaggregation-buffer", "colocated-overlap"),
    # infra-07: in plain DDP local clipping equals global clipping; that must not earn the global-norm point
    ("infra-07", "en", "In plain DDP, gradients are all-reduced before clipping, so every rank holds the identical full "
     "gradient and clipping locally gives the same result as global clipping.", "global-grad-clipping", None),
    ("infra-07", "it", "Nel DDP semplice i gradienti sono già sommati con l'all-reduce prima del clipping, quindi ogni rank "
     "ha lo stesso gradiente completo e il clipping locale dà lo stesso risultato di quello globale.",
     "global-grad-clipping", None),
    ("infra-07", "ja", "素のDDPではクリッピングの前に勾配がall-reduceされるので、全ランクが同じ完全な勾配を持ち、ローカルで"
     "クリップしてもグローバルと同じ結果になる。", "global-grad-clipping", None),
    # infra-05: deterministic mode gives reproducibility, not sampler/trainer equality (slime rl-systems.md)
    ("infra-05", "en", "SGLang deterministic mode with slime makes the rollout log-probs equal to the trainer's.",
     "rollout-train-mismatch", None),
    ("infra-05", "it", "La modalità deterministica di SGLang con slime rende le log-prob del rollout uguali a quelle del "
     "trainer.", "rollout-train-mismatch", None),
    ("infra-05", "ja", "SGLangの決定的モードをslimeで使えば、ロールアウトのログ確率が学習側と一致する。",
     "rollout-train-mismatch", None),
    # infra-04: the narrowed cue still catches the wrong claim
    ("infra-04", "en", "Simply increasing the batch size fixes the tail.", "async-decoupling", "more-gpus-fix-tail"),
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


# (question, lang, correct sentence the review found uncredited, key point that must now credit it)
CORRECT_CREDITED = [
    # infra-11: ring/P2P context parallelism overlaps its KV exchange and may span nodes (Megatron a2a+p2p)
    ("infra-11", "en", "Let context parallelism span nodes with ring P2P, since its KV exchange overlaps with attention.",
     "overlap-design"),
    ("infra-11", "it", "Il CP ad anello può estendersi su più nodi perché lo scambio di KV si sovrappone al calcolo "
     "dell'attenzione.", "overlap-design"),
    ("infra-11", "ja", "リング型のCPはKVの受け渡しをattentionの計算と重ねられるので、ノードをまたいで配置してもよい。",
     "overlap-design"),
]


@pytest.mark.parametrize(("qid", "lang", "text", "point"), CORRECT_CREDITED)
def test_correct_sentence_is_credited(bank: Bank, qid: str, lang: str, text: str, point: str) -> None:
    a = analyse(bank.get(qid), text, lang)
    assert a.coverage()[point] > 0, a.coverage()
    assert a.misconceptions == []
