"""The offline examiner judges what a sentence claims: polarity, stems and lemmas, evidence budget,
the calibrated score that still adds up, uncertain criteria, and the bare-term-list guard."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interviewer.bank.lexicon import builtin_lexicon
from interviewer.bank.loader import Bank
from interviewer.calibration import load_all
from interviewer.examiners.grade import Grade
from interviewer.examiners.offline import roles
from interviewer.examiners.offline.cues import AnswerIndex, compile_cue
from interviewer.examiners.offline.examiner import analyse, grade_text
from interviewer.examiners.offline.scoring import FEATURES, load_model
from interviewer.examiners.offline.text import split_clauses, split_sentences
from tests.conftest import ROOT, turned_texts

NEGATED_ALGO09 = (
    "Nothing happens. It does not matter whether the all-reduce is SUM or AVG, and it does not matter whether it is on "
    "the autograd path: the gradients are never scaled by N or N^k, the learning rate is not effectively multiplied, and "
    "there is no divergence, no NaN and no GradScaler overflow. An extra all-reduce inside an if rank == 0 branch cannot "
    "hang the job, NCCL never deadlocks on mismatched collectives."
)


def _polar(text: str, cue: str, lang: str) -> tuple[int, int]:
    idx = AnswerIndex.build(split_sentences(text), lang == "ja")
    found = idx.polar(compile_cue(cue, lang))
    return len(found.affirmed), len(found.denied)


def _adds_up(g: Grade) -> bool:
    total = sum(c.max for c in g.criteria)
    raw = 10 * sum(c.score for c in g.criteria) / total - sum(m.penalty for m in g.misconceptions) - g.hint_penalty
    return abs(max(0.0, min(10.0, raw)) - g.overall) <= 0.051


@pytest.mark.parametrize(
    ("text", "cue", "lang", "expected"),
    [
        ("The gradients are scaled by N.", "gradient + scal + n", "en", (1, 0)),
        ("The gradients are never scaled by N.", "gradient + scal + n", "en", (0, 1)),
        ("You never need loss scaling or per-tensor scales.", "per tensor + scal", "en", (0, 1)),
        ("Maximum likelihood has nothing to do with the empirical distribution.", "likelihood + empirical", "en", (0, 1)),
        ("Not only the mean but also the std is used.", "mean + std", "en", (1, 0)),
        ("It does not drop the critic, but it normalises by the group std.", "normalis + group", "en", (1, 0)),
        ("Il gradiente non viene scalato.", "gradient + scal", "it", (0, 1)),
        # coordinated negations: each negates its own verb ("e" before "non" is "and", not "è")
        ("L'entropia non si elimina e non dipende dal modello.", "entropia + non dipende + modello", "it", (1, 0)),
        ("L'entropia non è costante e dipende dal modello.", "entropia + costante", "it", (0, 1)),
        # existential negation: "non c'è alcun X rispetto all'Y" denies as "there is no X over Y" does
        ("There is no improvement over SFT on the mismatch.", "sft + mismatch", "en", (0, 1)),
        ("Non c'è alcun miglioramento rispetto all'SFT sul problema del mismatch.", "sft + mismatch", "it", (0, 1)),
        ("Non ci sono vantaggi nel clipping del rapporto.", "clipping + rapporto", "it", (0, 1)),
        # "does not work without": a double negation still denies the cue that holds "without"
        ("GSPO does not work without routing replay.", "gspo + without routing replay", "en", (0, 1)),
        # a parenthetical remark is a unit of its own: "no" before it does not reach in, nor past it
        ("INT8 train ≈ no (grad range too wide).", "int8 + grad + range", "en", (1, 0)),
        ("GSPO: seq-level clip -> no noisy token IS weights (MoE).", "gspo + moe", "en", (1, 0)),
        ("KL(p||q) is not symmetric.", "kl + symmetric", "en", (0, 1)),  # a formula's brackets are not an aside
        ("CISPOは重要度重みをクリップします。", "cispo + クリップ", "ja", (1, 0)),
        ("CISPOは重要度重みをクリップしません。", "cispo + クリップ", "ja", (0, 1)),
        ("CISPOは重要度重みをクリップせず、勾配を残す。", "cispo + クリップ", "ja", (0, 1)),
        ("勾配をクリップしなければならない。", "勾配 + クリップ", "ja", (1, 0)),
        ("データが少ないと分散が大きい。", "データ + 分散", "ja", (1, 0)),
        # は after a case particle or こと marks the predicate's complement: the negation still reaches the term
        ("atomic add で問題を解決することはできず、固定の順序が必要です。", "atomic + 解決する", "ja", (0, 1)),
        ("GPU-Util は効率の指標にはなりません。", "gpu-util + 効率の指標", "ja", (0, 1)),
        ("GPU-Util は効率の指標とは言えない。", "gpu-util + 効率の指標", "ja", (0, 1)),
        ("atomic add で問題を解決することは簡単です。", "atomic + 解決する", "ja", (1, 0)),
        # a denied removal keeps the term: not excluded from training = still trained on
        ("どのトークンも学習から外されず、影響だけが抑えられる。", "トークン + 学習", "ja", (1, 0)),
        ("範囲外のトークンも捨てられずに勾配に寄与する。", "トークン + 勾配", "ja", (1, 0)),
        ("fork token も gradient を失わない。", "token + gradient", "ja", (1, 0)),
        # a denied loss keeps the term too, and a denied agreement states a difference
        ("low-probability な token の signal が消えない。", "token + signal", "ja", (1, 0)),
        ("学習側で計算し直した確率が一致せず、ずれが生じる。", "計算し直す + 確率", "ja", (1, 0)),
        ("生成役と学習役を分けて止まらずに流し続ける。", "生成 + 流し続ける", "ja", (1, 0)),
        # ... unless the removal is what the cue says
        ("範囲外のトークンは捨てられない。", "トークン + 捨てる", "ja", (0, 1)),
        # "X だけが Y ではない" says X is not the only Y, which keeps X; a verb after だけ ends that reading
        ("学習ステップ数だけが軸ではない。", "ステップ数 + 軸", "ja", (1, 0)),
        ("一部の rank だけが All Reduce を呼んでもハングしない。", "rank + ハング", "ja", (0, 1)),
        ("トークンは学習に使われない。", "トークン + 学習", "ja", (0, 1)),
        # a sentence-final negated copula denies the whole clause before it, however long
        ("GRPOのKL penaltyは、policyをreference modelの近くに保つためのものではありません。", "reference + 近く", "ja", (0, 1)),
        # ... but a distant negated verb states a claim of its own
        ("atomic add で問題を解決することもできません。", "atomic", "ja", (1, 0)),
        # て before いる/おる is aspect, not a clause boundary
        ("TRL は GRPO や PPO などの RL アルゴリズムをサポートしていません。", "trl + サポート", "ja", (0, 1)),
        ("AReaL は生成と学習を切り離しておらず、非同期化もしていない。", "areal + 切り離す", "ja", (0, 1)),
        ("KV の領域が足りていない。", "kv + 領域", "ja", (1, 0)),  # "not enough", as "足りない"
        # an embedded question asks; a condition holds the term apart from the main clause's negation
        ("KV が満杯で preemption が起きていないかを確認します。", "preemption + 起きる", "ja", (1, 0)),
        ("それがログ用に detach した値なら学習自体には影響しません。", "detach + 値", "ja", (1, 0)),
        ("baseline の期待値はゼロにならないので、勾配が変わる。", "期待値 + ゼロ", "ja", (0, 1)),  # なる's なら: no condition
    ],
)
def test_polarity(text: str, cue: str, lang: str, expected: tuple[int, int]) -> None:
    assert _polar(text, cue, lang) == expected


@pytest.mark.parametrize(
    ("text", "cue", "lang"),
    [
        ("The reward gets scaled up.", "reward + scaling", "en"),  # Snowball stem "scale"
        ("Using a baseline reduces the variance.", "baseline + reduc varian", "en"),  # the article is skipped
        ("La baseline riduce la varianza.", "baseline + riduzion|riduc + varianz", "it"),
        ("探索で能力の境界を広げられる。", "探索 + 広げる", "ja"),  # dictionary form via Sudachi
        ("分散を減らせば安定する。", "分散 + 減らす", "ja"),
        ("ZeRO splits the optimizer states across GPUs.", "split + optimizer + gpu", "en"),  # a three-letter word's plural
    ],
)
def test_inflections_match_without_listed_variants(text: str, cue: str, lang: str) -> None:
    assert _polar(text, cue, lang)[0] == 1


def test_pinned_form_does_not_match_by_stem() -> None:
    assert _polar("Il modello migliora.", "modello + migliore=", "it") == (0, 0)
    assert _polar("Il modello usa piu GPU.", "modello + gpus=", "it") == (0, 0)
    assert _polar("Two PRMs are summed.", "prm + summed", "en")[0] == 1  # a three-letter word's plural, in English only
    assert _polar("Le gpus sono due.", "gpu + due", "it") == (0, 0)


def test_negated_answer_scores_low_and_reports_contradictions(bank: Bank) -> None:
    g = grade_text(bank.get("algo-09"), NEGATED_ALGO09, "en")
    assert g.overall <= 2.5
    contradictions = [m for m in g.misconceptions if m.key_point]
    assert contradictions, "a denial of the rubric is reported even with no listed misconception"
    kp = {k.id: k for k in bank.get("algo-09").rubric.key_points}  # type: ignore[union-attr]
    for m in contradictions:
        assert m.id == f"contradicts-{m.key_point}"
        assert m.correction == kp[m.key_point].statement.get("en")
        assert m.quote in NEGATED_ALGO09
        criterion = next(c for c in g.criteria if c.id == m.key_point)
        assert m.quote not in criterion.evidence
    assert _adds_up(g)


def test_denial_is_not_evidence_for_the_point_it_denies(bank: Bank) -> None:
    text = "INT8 is better for training because integer arithmetic is exact, so you never need loss scaling or per-tensor scales."
    g = grade_text(bank.get("infra-03"), text, "en")
    assert all(text not in c.evidence for c in g.criteria if c.id == "scaling-granularity")


def test_one_sentence_cannot_fully_evidence_many_points(bank: Bank) -> None:
    short = "If the loss is only all-reduced for logging, the gradients are unaffected, SUM multiplies by N and rank 0 can hang."
    a = analyse(bank.get("algo-09"), short, "en")
    credited = [c for c in a.criteria if c.score > 0]
    assert sum(c.score / c.max for c in credited) <= 2.0 + 1e-9
    assert all(c.uncertain for c in credited if c.score < c.max)


def test_same_content_same_credit_across_languages(bank: Bank) -> None:
    q = bank.get("algo-13")
    en = grade_text(q, "CISPO clips the importance-sampling weight instead of the token update, so the gradient is not stopped "
                       "and rare reflective tokens stay in training, but a bias remains.", "en")
    ja = grade_text(q, "CISPOはトークンの更新ではなく重要度重みをクリップして勾配を止めないので、稀な反省トークンも学習に残りますが、"
                       "バイアスが残ります。", "ja")
    assert en.overall > 0 and abs(en.overall - ja.overall) <= 1.0


@pytest.mark.parametrize(
    "text",
    [
        "PPO GAE critic lambda bias variance GRPO group mean std baseline unbiased Dr. GRPO RLOO DAPO.",
        "The PPO GAE critic lambda bias variance GRPO group mean std baseline unbiased Dr. GRPO RLOO DAPO.",
        "PPO GAE critic lambda bias variance GRPO group mean std baseline unbiased Dr. GRPO leave-one-out DAPO.",
    ],
)
def test_bare_term_list_scores_low_with_or_without_a_stray_article(bank: Bank, text: str) -> None:
    assert grade_text(bank.get("algo-05"), text, "en").overall <= 2.0


def test_uncertain_criteria_suggest_a_second_opinion(bank: Bank) -> None:
    g = grade_text(bank.get("algo-09"), "With SUM the loss gets bigger.", "en")
    if any(c.uncertain for c in g.criteria):
        assert g.note and "--examiner llm" in g.note


def test_calibrated_rows_add_up_on_every_graded_answer(bank: Bank) -> None:
    for name in ("calibration", "blind", "tuning"):
        for a in load_all(ROOT / "tests" / "data" / name)[::3]:
            g = grade_text(bank.get(a.question_id), a.answer, a.lang)
            assert _adds_up(g), a.id
            assert all(0 <= c.score <= c.max for c in g.criteria), a.id


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abc xyz not never ない ず。、.,0123=+")), max_size=120))
def test_grades_always_add_up(text: str) -> None:
    from interviewer.bank.loader import load_bank

    q = load_bank().get("algo-07")
    if not text.strip():
        return
    for lang in ("en", "ja"):
        g = grade_text(q, text, lang)
        assert 0 <= g.overall <= 10 and _adds_up(g)


def test_shipped_coefficients_match_the_model() -> None:
    data = json.loads((ROOT / "interviewer" / "examiners" / "offline" / "calibration.json").read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURES
    model = load_model()
    assert len(model.coef) == len(FEATURES)
    assert model.contradiction_penalty >= 1.0 and model.misconception_scale == 1.0


def test_listing_does_not_load_the_analysers() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from interviewer.cli.main import cli\n"
        "r = CliRunner().invoke(cli, ['list', '--format', 'json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print('sudachipy' in sys.modules, 'Stemmer' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False False"


CEASED = {  # the remedy: the sync bottleneck no longer bites, which presupposes it did
    "en": "With partial rollouts, long responses are paused and resumed in the next iteration, so the whole batch no longer "
          "waits for the longest response.",
    "it": "Con i rollout parziali le risposte lunghe vengono fermate e riprese all'iterazione successiva, quindi il batch non "
          "aspetta più la risposta più lunga.",
    "ja": "部分ロールアウトにすれば、長い応答は途中で止めて次のイテレーションで続きを生成できるので、一番長い応答をバッチ全体が"
          "待つことはなくなります。",
}


@pytest.mark.parametrize("lang", ["en", "it", "ja"])
def test_no_longer_is_a_remedy_not_a_contradiction(bank: Bank, lang: str) -> None:
    g = grade_text(bank.get("infra-08"), CEASED[lang], lang)
    assert not [m for m in g.misconceptions if m.id.startswith("contradicts-")]
    assert next(c for c in g.criteria if c.id == "sync-bottleneck").score == 0  # it is not evidence either
    plain = {"en": "In synchronous RL the batch does not wait for the longest response.",
             "it": "Nell'RL sincrono il batch non aspetta la risposta più lunga.",
             "ja": "同期型の RL では、バッチは一番長い応答を待ちません。"}[lang]
    assert "contradicts-sync-bottleneck" in [m.id for m in grade_text(bank.get("infra-08"), plain, lang).misconceptions]


@pytest.mark.parametrize(("text", "lang"), [
    ("To fix it, switch to kernels whose results do not depend on the batch, trading some speed.", "en"),
    ("Per risolverlo si passa a kernel i cui risultati non dipendono dal batch, a costo di un po' di velocità.", "it"),
])
def test_a_negation_in_a_relative_clause_describes_not_denies(bank: Bank, text: str, lang: str) -> None:
    """A relative clause names a remedy's property; the sentence does not deny that logits depend on the batch."""
    g = grade_text(bank.get("infra-05"), text, lang)
    assert "contradicts-batch-variance-nondeterminism" not in [m.id for m in g.misconceptions]
    plain = {"en": "The results do not depend on the batch.", "it": "I risultati non dipendono dal batch."}[lang]
    assert "contradicts-batch-variance-nondeterminism" in [m.id for m in grade_text(bank.get("infra-05"), plain, lang).misconceptions]
    idx = AnswerIndex.build(split_sentences("Il batch è grande, per cui il risultato non dipende dal batch."), False)
    assert not idx.polar(compile_cue("risultat + dipend + batch", "it")).not_claims  # "per cui" is "so": a plain denial


def test_italian_non_piu_before_an_adjective_is_a_comparison() -> None:
    idx = AnswerIndex.build(split_sentences("Il batch non è più lento della risposta più lunga."), False)
    found = idx.polar(compile_cue("batch + lent", "it"))
    assert len(found.denied) == 1 and not found.not_claims  # "not slower", a plain negation


@pytest.mark.parametrize(
    ("qid", "lang", "text", "misconception"),
    [  # correct sentences that used to trigger a listed wrong claim
        ("algo-08", "en", "Because samples come from the old policy, the gradient of the KL term is only an approximation "
                          "of the true KL gradient.", "kl-against-old-policy"),
        ("infra-12", "en", "Deterministic mode: fix seeds, torch.use_deterministic_algorithms(True), which raises for ops "
                           "that use atomic adds.", "atomics-fix"),
        ("infra-12", "ja", "また atomic add で問題を解決することはできず、batch size に依存しない固定の reduction 順序を持つ kernel が必要です。",
         "atomics-fix"),
        ("infra-12", "en", "Fixing seeds and deterministic modes only guarantees repeatability for the same batch.", "flags-enough"),
        ("infra-16", "ja", "数百 GPU の大型 MoE なら slime、GPU 1 枚なら Unsloth です。", "unsloth-multinode"),
        ("infra-06", "ja", "nvidia-smi の GPU-Util は時間の割合にすぎず、効率の指標にはなりません。", "gpu-util-means-efficiency"),
        ("algo-13", "en", "SimKO: top-K boost / top-1 penalty -> pass@K.", "simko-sharpens"),
        ("algo-15", "ja", "RL で学習したモデルは pass@1 ではベースモデルに勝つものの、k を大きくするとベースが追いつく。", "evidence-reversed"),
        # a question restates the interview question; it claims nothing
        ("infra-12", "en", "Can atomic add solve it?", "atomics-fix"),
        # a warning against dropping, not a claim that partial rollouts drop
        ("infra-04", "en", "Simply dropping the unfinished ones biases the data toward short responses.", "partial-discards-unfinished"),
        # scheduling fixes that really do keep a synchronous loop on-policy
        ("infra-04", "en", "Scheduling fixes stay on-policy: global load balancing and request migration across engines.",
         "async-still-on-policy"),
        # the wrong claim's words without its verb: what R1 avoided, and temperature as one fix among several
        ("algo-03", "en", "DeepSeek-R1 used accuracy plus format rewards and avoided neural reward models for reasoning "
                          "because of reward hacking.", "rm-beats-verifier"),
        ("algo-16", "en", "GRPO with DAPO-style fixes: decoupled clipping and dynamic sampling, plus a high rollout "
                          "temperature, all to fight entropy collapse.", "temperature-solves-collapse"),
        # the wrong claim set against its rival clause by clause compares the two (the lexicon's `rivals`)
        ("algo-08", "en", "Note it is different from the clip: the clip bounds each step relative to pi_old, the KL bounds "
                          "total drift relative to pi_ref.", "kl-against-old-policy"),
        # 同じく is "like" (FSDP shards like ZeRO-3), not "SP and CP are the same"
        ("infra-11", "ja", "Megatron が TP・PP・SP・CP・EP などで計算を分割するのに対し、FSDP は ZeRO-3 と同じくパラメータ・勾配・"
                           "オプティマイザ状態をシャーディングします。", "sp-equals-cp"),
    ],
)
def test_correct_sentences_do_not_trigger_wrong_claims(bank: Bank, qid: str, lang: str, text: str, misconception: str) -> None:
    assert misconception not in [m.id for m in grade_text(bank.get(qid), text, lang).misconceptions]


# -- Reversed direction and swapped roles (the lexicon's `opposites` and `rivals`) ---

def test_a_spaced_bar_separates_clauses_and_a_bare_one_does_not() -> None:
    assert [c.text for c in split_clauses("APC on full blocks | RadixAttention, pi a|s")] == [
        "APC on full blocks", "RadixAttention", "pi a|s"]


def test_a_cue_is_turned_per_direction_word() -> None:
    assert "min|minimum + upper bound|optimist" in turned_texts("min|minimum + lower bound|pessimistic", "en")
    assert turned_texts("最小|min + 悲観|下限", "ja") == ("最大 + 悲観|下限", "最小|min + 楽観|上限")
    assert turned_texts("kl + increas|decreas", "en") == ()  # the term already takes both directions
    assert turned_texts("baseline + variance", "en") == ()  # no direction word
    assert turned_texts("hybrid + e4m3 + e5m2", "en") == ()  # the cue names both rivals already
    # a change (the lexicon's `changes`) is turned where the cue is a quantity and its change, not beside an agent
    assert "entropy + increas" in turned_texts("entropy + decreas|drop|collapse", "en")
    assert turned_texts("baseline + decreas|drop + variance", "en") == ()


REVERSED = [  # sentences from graded answers that state a key point's relation the other way round
    ("algo-07", "en", "PPO clips the ratio and then takes the minimum so that the objective is an optimistic upper bound "
                      "of the true improvement, which speeds up learning.", "min-pessimistic-bound"),
    ("algo-07", "it", "Nel clipping di PPO si prende il minimo perché vogliamo la stima più ottimistica del miglioramento: "
                      "il min seleziona il termine che promette di più.", "min-pessimistic-bound"),
    ("algo-07", "ja", "min を取るのは楽観的な上界を使うためで、これにより一回の更新で最大限の改善を得られます。", "min-pessimistic-bound"),
    # each clause has the wrong side; only the sentence as a whole holds "positive advantage … above"
    ("algo-07", "en", "For a token with a positive advantage, clipping kicks in when the ratio falls below 1-eps, and for "
                      "a negative advantage when it goes above 1+eps.", "zero-gradient-outside-band"),
    # entropy said to rise: the lexicon's rise / fall pairs turn "entropy + collapse|drop|…"
    ("algo-06", "en", "RL training broadens the model's distribution: entropy rises over training.", "entropy-collapse"),
    ("algo-06", "it", "Durante l'addestramento RL l'entropia della policy aumenta costantemente, quindi il modello esplora "
                      "sempre di più.", "entropy-collapse"),
    ("algo-06", "ja", "RL 学習中、方策のエントロピーは着実に増加するので、モデルはどんどん探索するようになる。", "entropy-collapse"),
]
SWAPPED = [  # sentences from graded answers that give one named thing's role to its rival (the lexicon's `rivals`)
    ("infra-03", "en", "Within FP8, E5M2 is the high-precision variant used for weights, and E4M3 is the wide-range "
                       "variant used for gradients.", "e4m3-e5m2"),
    ("infra-03", "it", "Nel training FP8 si usa E5M2 per pesi e attivazioni, perché ha più mantissa, ed E4M3 per i "
                       "gradienti, perché ha più range.", "e4m3-e5m2"),
    ("infra-03", "ja", "E5M2 は精度重視なので forward に、E4M3 はレンジ重視なので勾配に使います。", "e4m3-e5m2"),
    ("infra-06", "en", "Prefill is memory-bandwidth-bound, so you measure it with MBU, while decode is compute-bound "
                       "and MFU is the right metric.", "mfu-mbu"),
    ("infra-02", "ja", "PD 分離では、prefill はメモリ帯域律速、decode は計算律速なので別々の GPU に置きます。", "pd-why"),
    ("infra-05", "it", "La differenza principale è che vLLM si basa su RadixAttention, mentre SGLang ha introdotto "
                       "PagedAttention.", "vllm-design"),
    ("infra-16", "it", "AReaL è rigorosamente sincrono: genera e allena a turni alternati sulla stessa versione della "
                       "policy.", "areal-profile"),
    ("infra-09", "it", "In AReaL la cache KV viene conservata dopo l'aggiornamento dei pesi.", "pipelinerl-keeps-stale-kv"),
]


@pytest.mark.parametrize(("qid", "lang", "text", "point"), REVERSED + SWAPPED)
def test_a_reversed_relation_contradicts_the_key_point(bank: Bank, qid: str, lang: str, text: str, point: str) -> None:
    g = grade_text(bank.get(qid), text, lang)
    assert f"contradicts-{point}" in [m.id for m in g.misconceptions]
    assert next(c for c in g.criteria if c.id == point).score == 0


# -- Swapped systems: the topic of a sentence (the lexicon's `systems`, examiners/offline/roles.py) ---

SWAPPED_SYSTEMS = [  # (qid, lang, the roles given the right way, the same roles swapped, the points the swap takes)
    ("algo-05", "ja",
     "PPO では価値モデル（critic）を学習して GAE で advantage を計算します。"
     "GRPO は critic を使わず、同じプロンプトから複数の回答をサンプリングしてグループ平均をベースラインにします。",
     "GRPO では価値モデル（critic）を学習して GAE で advantage を計算します。"
     "PPO は critic を使わず、同じプロンプトから複数の回答をサンプリングしてグループ平均をベースラインにします。",
     {"ppo-gae"}),
    ("algo-05", "it",
     "In PPO si addestra un value model (critic) e si calcola l'advantage con la GAE. GRPO invece non usa il critic: "
     "campiona più risposte per lo stesso prompt e usa la media del gruppo come baseline.",
     "In GRPO si addestra un value model (critic) e si calcola l'advantage con la GAE. PPO invece non usa il critic: "
     "campiona più risposte per lo stesso prompt e usa la media del gruppo come baseline.",
     {"ppo-gae", "grpo-group-advantage"}),
    # the sentence that states the point names no system and points back: its topic is the one the sentence
    # before names (the swapped sentence earns nothing; it is not sure enough to be reported as an error)
    ("infra-09", "en",
     "In PipelineRL the old KV cache is kept and decoding continues on it with the new weights. AReaL takes the "
     "opposite route. It aborts the requests, discards the KV cache and re-prefills the prompt plus the partial output "
     "under the new weights.",
     "In AReaL the old KV cache is kept and decoding continues on it with the new weights. PipelineRL takes the "
     "opposite route. It aborts the requests, discards the KV cache and re-prefills the prompt plus the partial output "
     "under the new weights.",
     {"areal-discards-recomputes"}),
]


@pytest.mark.parametrize(("qid", "lang", "right", "swapped", "points"), SWAPPED_SYSTEMS)
def test_a_point_about_one_system_is_reversed_by_a_sentence_about_its_rival(
    bank: Bank, qid: str, lang: str, right: str, swapped: str, points: set[str]
) -> None:
    right_way = analyse(bank.get(qid), right, lang)
    assert {c.id for c in right_way.criteria if c.score > 0} >= points and not right_way.contradictions
    swap = analyse(bank.get(qid), swapped, lang)
    assert all(c.score == 0 for c in swap.criteria if c.id in points)
    if qid == "algo-05":  # the swap names GRPO in the very clause that states PPO's point: an error is reported
        assert "ppo-gae" in {c.key_point for c in swap.contradictions}
    else:  # known only from the sentence before: no credit, and no error reported
        assert not {c.key_point for c in swap.contradictions} & points


def test_a_key_point_belongs_to_the_system_its_id_names(bank: Bank) -> None:
    owned = roles.owners(bank.get("infra-09"), builtin_lexicon())
    assert owned["areal-discards-recomputes"] == ("areal", frozenset({"pipelinerl"}))
    assert "recompute-cost" not in owned
    # Dr. GRPO is its own method; GRPO owns no point of algo-13, so nothing there is set against it
    assert roles.owners(bank.get("algo-13"), builtin_lexicon())["dr-grpo"][0] == "drgrpo"
    assert roles.owners(bank.get("algo-07"), builtin_lexicon()) == {}


def test_the_topic_is_the_nearest_system_named_before_the_point() -> None:
    owner, rivals = "areal", frozenset({"pipelinerl"})
    # "It" is AReaL, from the sentence before; "unlike PipelineRL" sets a contrast and is not the subject
    sentences = ["AReaL interrupts generation.", "It re-prefills the prefix, unlike PipelineRL, which keeps the cache."]
    assert roles.topic(sentences, 1, lambda parts: 0, owner, rivals) == ("areal", False)
    assert roles.topic(["PipelineRL is different.", "It keeps the cache."], 1, lambda parts: 0, owner, rivals) == (
        "pipelinerl", False)
    assert roles.topic(["PipelineRL keeps the cache."], 0, lambda parts: 0, owner, rivals) == ("pipelinerl", True)
    # a pronoun in the clause that states the point points back too
    assert roles.topic(["PipelineRL throws the cache away.", "On every update it re-prefills."], 1, lambda parts: 0,
                       owner, rivals) == ("pipelinerl", False)
    # a sentence that does not point back names its own topic, or none
    assert roles.topic(["PipelineRL is different.", "Caches are kept."], 1, lambda parts: 0, owner, rivals) is None
    assert roles.topic(["PipelineRL と違って、AReaL は prefix を prefill し直します。"], 0, lambda parts: 1, owner, rivals) == (
        "areal", True)
    # a bracket lists its systems together: "Removed (DAPO, GSPO): …" names both
    assert roles.topic(["Rimossa (DAPO, GSPO): long-CoT deve allontanarsi."], 0, lambda parts: 1, "dapo",
                       frozenset({"gspo"})) is None
    # a clause that names both compares them and decides nothing
    assert roles.topic(["Both AReaL and PipelineRL keep generating."], 0, lambda parts: 0, owner, rivals) is None
    # a system named as the model of a comparison is not the subject
    assert roles.topic(["AReaL drops the cache exactly as in PipelineRL."], 0, lambda parts: 0, owner, rivals) == (
        "areal", True)
    assert roles.topic(["PipelineRL と同様に AReaL もキャッシュを捨てます。"], 0, lambda parts: 0, owner, rivals) == (
        "areal", True)


def test_a_wrong_claim_belongs_to_the_system_its_id_names() -> None:
    lexicon = builtin_lexicon()
    system, others = roles.claim_owner("simko-sharpens", lexicon) or ("", frozenset())
    assert system == "simko" and {"grpo", "rlvr", "maxrl"} <= others
    assert roles.claim_owner("dr-grpo-adds-normalization", lexicon) == (
        "drgrpo", frozenset(n for g in lexicon.systems for n in g) - {"drgrpo"})
    assert roles.claim_owner("tis-is-ppo-clipping", lexicon) is None  # two systems: no single owner
    assert roles.without_system("simko + concentrates probability|boosts the top 1", "simko") == (
        "concentrates probability|boosts the top 1")


@pytest.mark.parametrize(
    ("lang", "said_of_another", "said_of_simko"),
    [
        ("en", "- SimKO: RLVR concentrates probability on the top-1 token, which hurts pass@K; SimKO boosts the top-K "
               "candidates of correct answers.",
         "SimKO concentrates more probability on the top-1 token to raise pass@1."),
        ("it", "- MaxRL e SimKO: puntano a migliorare pass@k rispetto a GRPO, che concentra la probabilità sul top-1.",
         "SimKO concentra la probabilità sul token top-1 per aumentare pass@1."),
    ],
)
def test_a_wrong_claim_said_of_another_system_is_not_reported(bank: Bank, lang: str, said_of_another: str,
                                                              said_of_simko: str) -> None:
    def findings(text: str) -> list[str]:
        return [m.id for m in grade_text(bank.get("algo-13"), text, lang).misconceptions]

    assert "simko-sharpens" not in findings(said_of_another)
    assert "simko-sharpens" in findings(said_of_simko)


@pytest.mark.parametrize(
    ("qid", "lang", "text", "point"),
    [
        ("algo-07", "en", "Taking the minimum makes the objective a pessimistic lower bound on the unclipped surrogate.",
         "min-pessimistic-bound"),
        ("algo-07", "ja", "min を取ることで目的関数は悲観的な下界になります。", "min-pessimistic-bound"),
        ("algo-07", "en", "With a positive advantage the clip binds once the ratio goes above 1+eps, and with a negative "
                          "advantage once it falls below 1-eps.", "zero-gradient-outside-band"),
        # entropy raised again by a remedy, after its collapse: the point is stated, not reversed
        ("algo-06", "en", "Policy entropy collapses early in RL training. To keep exploring, people add an entropy bonus, "
                          "which increases the entropy again, or raise the temperature.", "entropy-collapse"),
        ("algo-06", "it", "L'entropia della policy crolla presto; per mantenerla si aggiunge un bonus di entropia che la fa "
                          "aumentare di nuovo.", "entropy-collapse"),
        ("algo-06", "ja", "RL 学習中にエントロピーは急速に低下する。エントロピーボーナスを加えるとエントロピーが再び上がる。",
         "entropy-collapse"),
        # the metric rises and the remedy lowers something else: two clauses, not the opposite claim
        ("algo-12", "en", "If the clip fraction climbs well past 0.1-0.2, reduce the number of updates per batch.",
         "ppo-epochs-off-policy"),
        # comparisons with the rival, from correct graded answers: not a swap
        ("infra-09", "en", "Recomputation costs one prefill, which is cheap relative to decode.", "recompute-cost"),
        ("infra-09", "en", "The cost is an extra prefill per interrupted request, which is cheap next to decode.",
         "recompute-cost"),
        ("infra-09", "it", "Il costo è un prefill in più, che però è compute-bound ed efficiente rispetto al decode.",
         "recompute-cost"),
        ("infra-03", "en", "E4M3 has the precision for weights and activations; E5M2 has the range for gradients.",
         "e4m3-e5m2"),
        ("infra-09", "ja", "再構築のコストは prefill 一回分で、同じトークンを decode し直すよりずっと安いですが、コンテキスト長に応じて増えます。",
         "recompute-cost"),
        # both systems keep generating: the rubric says it of PipelineRL too, so naming it swaps nothing
        ("infra-08", "it", "PipelineRL continua a generare e cambia i pesi al volo.", "areal-fully-async"),
        # " | " separates columns of shorthand: RadixAttention's column is not PagedAttention's
        ("infra-05", "en", "- KV: PagedAttention, 16-tok blocks, hash-based APC on full blocks | RadixAttention, radix tree "
                           "+ LRU, page=1 -> token-level reuse", "vllm-design"),
    ],
)
def test_the_stated_direction_is_not_a_reversal(bank: Bank, qid: str, lang: str, text: str, point: str) -> None:
    assert f"contradicts-{point}" not in [m.id for m in grade_text(bank.get(qid), text, lang).misconceptions]


# -- Negations that assert nothing against the key point ---------------------------

@pytest.mark.parametrize(
    ("text", "cue", "lang", "expected"),
    [  # (affirmed, denied, denied but not a contradiction)
        ("Cause: FP non-assoc + shape-dependent reductions (split-K, split-KV).", "split k + reduction", "en", (1, 0, 0)),
        ("The gradient is non-zero outside the band.", "zero + gradient", "en", (0, 1, 0)),  # "non-" negates its own word
        ("clips IS weight not token → rare fork tokens keep grad;", "fork + token", "en", (1, 0, 0)),  # an arrow ends the clause
        ("Averaging it again changes nothing except wasted communication.", "communication + wasted", "en", (1, 0, 0)),
        ("Clip-higher e dynamic sampling per non far collassare l'entropia.", "collass + entropia", "it", (0, 1, 1)),
        ("We add an entropy bonus so as not to collapse the entropy.", "collapse + entropy", "en", (0, 1, 1)),
        ("If you average the loss per rank instead of over all tokens, long answers get the wrong weight.",
         "loss + all tokens", "en", (0, 1, 1)),
        ("Don't wait for the stragglers: close the step when enough samples are in.", "wait + stragglers", "en", (0, 1, 1)),
        ("Non aspettare i ritardatari: si chiude il giro quando c'è abbastanza materiale.", "aspett + ritardatar", "it", (0, 1, 1)),
        ("Fix = fixed-order, shape-independent reductions (no split-K, fixed KV split size);", "split k + shape", "en", (0, 1, 1)),
        ("vs SFT: niente exposure bias, si impara sugli stati dello student.", "sft + exposure bias", "it", (0, 1, 1)),
        ("Togliere la media non cambia la direzione del gradiente, ma rende il segnale meno rumoroso.",
         "direzione + rumoros", "it", (0, 1, 1)),  # the negation and the rest of the cue sit on two sides of "ma"
        # a negation does not reach a later affirmative clause joined by ", and"; a negative one it does
        ("It caps the weight, detaches it so no learning flows through it, and still lets every token push its probability.",
         "every token + learn", "en", (0, 1, 1)),
        ("Il peso viene limitato, non passa gradiente attraverso di esso, e ogni token resta nell'update.",
         "ogni token + gradiente", "it", (0, 1, 1)),
        ("Unsloth only does SFT, and it does not reduce memory.", "unsloth + memory", "en", (0, 1, 0)),
        ("There is no need for a KL penalty, and resetting the reference does nothing.", "kl + reset", "en", (0, 1, 0)),
        ("Atomics make runs differ, mostly in the bwd pass.", "atomic + backward", "en", (1, 0, 0)),  # shorthand
        # Italian negative concord: "non insegna nulla" says "teaches nothing"; after a copula "nulla" is "zero"
        ("Se sono tutte giuste, quella domanda non insegna nulla.", "giust + nulla", "it", (1, 0, 0)),
        ("Non c'è nessun segnale quando sono tutte giuste.", "nessun segnale + giust", "it", (1, 0, 0)),
        ("La varianza non è nulla quando le risposte differiscono.", "varianza + nulla", "it", (0, 1, 0)),
        # a term that lists its own contrast form ("rather than the pass rate") is claimed by "rather than"
        ("MaxRL targets the log-likelihood rather than expected reward.",
         "log likelihood + expected reward|rather than the pass rate", "en", (1, 0, 0)),
        ("MaxRL targets the log-likelihood rather than expected reward.", "log likelihood + expected reward", "en", (0, 1, 0)),
        # a verb whose object is "nothing" is negated
        ("Averaging twice changes nothing.", "averag + twice + chang", "en", (0, 1, 0)),
        # the other side of a comparative: "lower variance than k1", "varianza più bassa di k1"
        ("It is non-negative and has lower variance than k1.", "k1 + negative", "en", (0, 1, 1)),
        ("È non negativo e ha varianza più bassa di k1.", "k1 + negativ", "it", (0, 1, 1)),
        ("Use a fixed number of splits rather than a fixed split size.", "split size + fixed", "en", (0, 1, 0)),  # "rather than" denies
        # bare "invece"/"instead": the contrasted method's behaviour, not a denial ("invece di" still negates)
        ("CISPO invece non butta via il gradiente dei token rari.", "token + rari + butta", "it", (0, 1, 1)),
        ("Si usa CISPO invece di buttare via il gradiente dei token rari.", "token + rari + butta", "it", (0, 1, 0)),
        # a match inside a means adjunct after a negated verb of its own is not what is denied
        ("The optimiser cannot gain anything by pushing the ratio outside the interval.", "ratio + interval", "en", (1, 0, 0)),
        ("L'ottimizzatore non può guadagnare spingendo il rapporto fuori dall'intervallo.", "rapporto + intervallo", "it",
         (1, 0, 0)),
        ("You cannot reduce the variance by subtracting a baseline.", "reduc varian + baseline", "en", (0, 1, 0)),
        # a denied removal or loss keeps what follows it; a denied halt does not
        ("Rare tokens keep learning without losing their gradient.", "token + gradient", "en", (1, 0, 0)),
        ("I token rari continuano a imparare senza perdere il gradiente.", "token + gradiente", "it", (1, 0, 0)),
        ("The weights can be swapped without pausing the generation.", "weights + generation", "en", (0, 1, 0)),
        # a plain denial stays one
        ("Synchronous training does not wait for the stragglers.", "wait + stragglers", "en", (0, 1, 0)),
        ("Il batch non aspetta i ritardatari.", "aspett + ritardatar", "it", (0, 1, 0)),
    ],
)
def test_what_a_negation_denies(text: str, cue: str, lang: str, expected: tuple[int, int, int]) -> None:
    found = AnswerIndex.build(split_sentences(text), False).polar(compile_cue(cue, lang))
    assert (len(found.affirmed), len(found.denied), len(found.not_claims)) == expected


@pytest.mark.parametrize(
    ("text", "cue", "lang", "expected"),
    [  # a sentence that points back at the one before states a relation with it (sentence numbers affirmed, denied)
        ("The critic is used as a baseline, so the actor follows the advantage instead of the raw return. "
         "That lowers the variance of the gradient.", "baseline + lower varian", "en", ([1], [])),
        ("Il critic viene usato come baseline. Questo riduce la varianza del gradiente.", "baseline + riduc varianza", "it", ([1], [])),
        ("Critic をベースラインとして使います。これにより方策勾配の分散が下がります。", "ベースライン + 分散が下が", "ja", ([1], [])),
        # a denial in either sentence is not bridged over, and a sentence that does not point back is not read with the one before
        ("The critic is used as a baseline. That does not lower the variance.", "baseline + lower varian", "en", ([], [])),
        ("The critic is not a baseline. That lowers the variance.", "baseline + lower varian", "en", ([], [])),
        ("The critic is used as a baseline. Exploration lowers the variance.", "baseline + lower varian", "en", ([], [])),
        ("Critic をベースラインとして使います。これにより分散が下がりません。", "ベースライン + 分散が下が", "ja", ([], [])),
        # a sentence that states it alone is not doubled by the pair
        ("A baseline lowers the variance. That is why it helps.", "baseline + lower varian", "en", ([0], [])),
    ],
)
def test_a_sentence_that_points_back_states_a_relation_with_the_one_before(
    text: str, cue: str, lang: str, expected: tuple[list[int], list[int]]
) -> None:
    found = AnswerIndex.build(split_sentences(text), lang == "ja").polar(compile_cue(cue, lang))
    assert ([m.sentence for m in found.affirmed], [m.sentence for m in found.denied]) == expected


@pytest.mark.parametrize(
    ("qid", "lang", "text", "point"),
    [  # correct sentences from graded answers that were reported as contradicting a key point
        ("algo-08", "it", "È non negativo, unbiased per KL(π_θ‖π_ref) se i campioni vengono da π_θ, con varianza minore di "
                          "k1 = log(π_θ/π_ref).", "k3-properties"),  # "non negativo" is far from k1
        ("algo-10", "ja", "Bradley-Terry では chosen と rejected の差しか見ないので、その項はキャンセルされます。", "derivation"),
        ("infra-12", "ja", "同じ入力から毎回まったく同じビット列を得るには、乱数の種を固定するだけでは足りません。", "enable-determinism"),
        ("algo-06", "ja", "毎回余分な計算がかかり、選ぶ側（答え合わせの仕組みや多数決）が間違えると意味がありません。", "signal-and-selection"),
        ("algo-08", "ja", "GSPO も KL 項なしで目的関数を書いており、系列レベルのクリッピングで更新の安定性を保っています。", "gspo-nuance"),
        ("infra-07", "en", "If you average the loss per machine or per chunk instead of over all tokens globally, long "
                           "answers get the wrong weight.", "microbatch-accumulation"),
        ("algo-12", "it", "se tutti i tentativi sono uguali, tutti giusti o tutti sbagliati, quella domanda non insegna nulla.",
         "group-size-signal"),  # negative concord
        ("algo-13", "en", "MaxRL targets the log-likelihood of success rather than expected reward, which improves pass@k.", "maxrl"),
        ("algo-17", "en", "With SFT the student never sees its own mistakes during training, so once it goes slightly off "
                          "track at inference it keeps drifting.", "vs-sft-exposure-bias"),
        # the benefit of training on its own samples, not a denial that SFT's errors compound
        ("algo-17", "en", "The student learns in the situations it actually ends up in, so small mistakes do not snowball "
                          "during long generations.", "vs-sft-exposure-bias"),
        ("algo-17", "it", "Lo studente impara nelle situazioni in cui finisce davvero, quindi i piccoli errori non si accumulano "
                          "durante generazioni lunghe.", "vs-sft-exposure-bias"),
        # "non puoi eliminare e non dipende dal modello": two negated verbs, coordinated
        ("algo-02", "it", "Il costo si divide in due pezzi: l'entropia dei dati, che non puoi eliminare e non dipende dal "
                          "modello, più un costo extra che è zero solo se il modello coincide con i dati.", "ce-kl-same-optimum"),
        # "<number>まで…ない" bounds a range; English cues read on Japanese text see no Japanese negation
        ("infra-14", "ja", "AReaL の実験では、Decoupled PPO があれば η が 4〜8 くらいまで性能がほぼ落ちずにスループットが大きく上がりました。",
         "typical-values"),
        ("infra-14", "ja", "実際の値は、AReaL の experiment だと η = 4 くらいまではほぼ degradation なしで、coding の recipe では 16 も使っています。",
         "typical-values"),
        # "AのではなくB": A is turned down, B is stated about the same KL
        ("algo-08", "ja", "ポイントは、PPO-RLHF のように reward に KL を混ぜるのではなく、loss に直接足していることです。",
         "kl-in-loss-not-reward"),
        ("algo-08", "ja", "語彙全体の分布を比べるのではなく、生成されたトークンごとに確率の比 x を使い、「x − log x − 1」を計算します。",
         "k3-estimator-formula"),
        # shorthand naming vLLM's batch-invariant mode beside SGLang's deterministic one: both engines have one
        ("infra-05", "en", "fix: recompute logp in trainer, TIS/MIS, batch-invariant kernels (VLLM_BATCH_INVARIANT=1 / SGL "
                           "deterministic), routing replay", "sglang-design"),
        # "not exactly what the trainer computes" states the mismatch
        ("infra-05", "en", "A different crowd size adds numbers in a different order, so the probability the sampler recorded "
                           "is not exactly what the training copy computes afterwards.", "rollout-train-mismatch"),
        # a negation said of the rival, named earlier in the paragraph, denies nothing of the point's owner
        ("infra-13", "it", "Per slime il limite vero è la velocità di una singola risposta lunga. In più si libera memoria "
                           "sulle schede di generazione, così le risposte lunghe non vengono interrotte e ricalcolate.",
         "areal-remedy"),
        # 変えずに (without changing the code) is how FSDP is used, not a denial of it
        ("infra-11", "ja", "FSDP はモデルのコードをほぼ変えずに使えますが、それ単体ではアクティベーションが減らないので、"
                           "長コンテキストでは CP や TP と組み合わせる必要があります。", "choice-tradeoff"),
    ],
)
def test_correct_sentences_do_not_contradict(bank: Bank, qid: str, lang: str, text: str, point: str) -> None:
    assert f"contradicts-{point}" not in [m.id for m in grade_text(bank.get(qid), text, lang).misconceptions]


@pytest.mark.parametrize(("text", "lang", "fires"), [
    # RL's reward, described as the contrast, is not the claim that OPD's signal is sparse
    ("Compared with RL: that approach gives a single score for the whole answer, while OPD's teacher scores every "
     "token the student samples.", "en", False),
    ("Rispetto all'RL, che dà un unico punteggio per tutta la risposta, nell'OPD il teacher valuta ogni token.", "it", False),
    ("RL needs ten times more GPU hours than on-policy distillation for the same score.", "en", False),
    ("La distillazione on-policy richiede circa dieci volte più ore GPU dell'RL.", "it", True),
    ("OPD は RL と同じように、報酬は系列全体に1つのスコアとして与えられます。", "ja", True),
])
def test_opd_sparse_signal_fires_on_the_claim_not_on_rl(bank: Bank, text: str, lang: str, fires: bool) -> None:
    g = grade_text(bank.get("algo-17"), text, lang)
    assert ("opd-sparse-signal" in [m.id for m in g.misconceptions]) is fires


@pytest.mark.parametrize(("qid", "text", "lang", "finding"), [
    # a view reported to be corrected ("it is often said …, but") is not the candidate's claim
    ("infra-12", "atomic add が原因だとよく言われますが、LLM の forward pass では通常 atomic add は使われていません。", "ja",
     "atomics-main-cause"),
    # "the more pessimistic of the clipped and the unclipped" is the right reading of the min
    ("algo-07", "Il minimo rende l'obiettivo pessimistico: si prende sempre il valore peggiore tra clippato e non clippato.", "it",
     "min-always-picks-clipped"),
    # "not batch invariant" states the key point; it does not deny it
    ("infra-05", "The kernels are not batch invariant: the same sequence gets different logits depending on the batch.", "en",
     "contradicts-batch-variance-nondeterminism"),
    ("infra-05", "生成側が返した確率と、学習側が同じ系列を計算し直した確率が一致しません。", "ja", "contradicts-rollout-train-mismatch"),
])
def test_correct_sentences_raise_no_finding(bank: Bank, qid: str, text: str, lang: str, finding: str) -> None:
    assert finding not in [m.id for m in grade_text(bank.get(qid), text, lang).misconceptions]


@pytest.mark.parametrize(("qid", "text", "lang", "finding"), [
    ("infra-12", "推論の非決定性は atomic add が主な原因です。", "ja", "atomics-main-cause"),
    ("algo-07", "Il minimo sceglie sempre il termine clippato.", "it", "min-always-picks-clipped"),
    # a bare noun turned down ("確率比ではなく") is denied what follows; so is a clause's own subject
    ("algo-07", "PPO のクリッピングは、確率比ではなく Advantage の値を [−ε, ε] に切り詰める仕組みです。", "ja",
     "contradicts-ratio-clipped-surrogate"),
    ("algo-08", "KL は loss に直接足すのではなく、reward に混ぜます。", "ja", "contradicts-kl-in-loss-not-reward"),
    # the wrong claim stated in a clause of its own, with the rival named after it
    ("algo-08", "GRPO computes the KL to pi_old, the policy that sampled the rollouts, not to pi_ref.", "en",
     "kl-against-old-policy"),
    # the same negation in a paragraph about the point's own system denies it
    ("infra-13", "Per AReaL il problema è lo spreco di GPU. In più le risposte lunghe non vengono interrotte e ricalcolate "
                 "quando arrivano i nuovi pesi.", "it", "contradicts-areal-remedy"),
    # a comparison whose clauses give each system the other's design: the clause that states what the point
    # says of AReaL names PipelineRL
    ("infra-09", "So AReaL favours throughput with a stale cache, and PipelineRL favours consistency with a recomputed one.",
     "en", "contradicts-areal-discards-recomputes"),
])
def test_the_wrong_claims_still_do(bank: Bank, qid: str, text: str, lang: str, finding: str) -> None:
    assert finding in [m.id for m in grade_text(bank.get(qid), text, lang).misconceptions]


# -- Wrong claims and denials that a correct sentence only seems to make ------------

@pytest.mark.parametrize(
    ("qid", "lang", "correct", "wrong", "finding"),
    [
        # the rival (pi_ref) is named in the clause that holds the claim's other term (KL): a comparison
        ("algo-08", "en", "Note it is different from the PPO clip: clipping bounds each step relative to pi_old, KL "
                          "bounds the total distance from a fixed pi_ref.",
         "The KL penalty in GRPO is computed against the old policy that generated the rollouts.", "kl-against-old-policy"),
        # shorthand "A ≠ B" says the two differ
        ("infra-13", "en", "more GPUs ≠ lower latency for the longest sample",
         "Adding more GPUs gives lower latency for the longest sample.", "more-gpus-fix-tail"),
        # a negation in what an imperative remedy brings ("so …", "così …") describes the remedy's effect
        ("infra-04", "en", "Let generation and training run on different machines, so the rollout workers never wait "
                           "for the trainer.", "Rollouts are short, so the trainer never waits.",
         "contradicts-gpu-idle-small-batch"),
        ("infra-04", "it", "Separa generazione e addestramento su macchine diverse, così chi genera non aspetta mai il "
                           "trainer.", "I rollout sono corti, quindi il trainer non aspetta mai.",
         "contradicts-gpu-idle-small-batch"),
    ],
)
def test_a_correct_sentence_does_not_make_the_claim_it_seems_to(bank: Bank, qid: str, lang: str, correct: str,
                                                                wrong: str, finding: str) -> None:
    def findings(text: str) -> list[str]:
        return [m.id for m in grade_text(bank.get(qid), text, lang).misconceptions]

    assert finding not in findings(correct)
    assert finding in findings(wrong)
