"""The offline grade's blind spot: sentences about the question that match no rubric cue are listed, never scored."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interviewer.bank.loader import Bank
from interviewer.examiners.offline.examiner import analyse, grade_text
from interviewer.examiners.offline.scoring import load_model, predict
from interviewer.examiners.offline.topic import UNJUDGED_MAX_SCORE, UNJUDGED_MIN, on_topic
from interviewer.render import grade_markdown, grade_text_report
from tests.conftest import run_cli

# The same correct answer to algo-03 (how to design a reward), written without the textbook words:
# a program as verifier, reward hacking of a learned model, credit assignment, potential-based shaping,
# correctness dominating the composite.
PLAIN = {
    "en": "When the answer to a task can be checked by a program, the signal should come from that program and not from "
    "another network that imitates people. A program that checks results is hard to fool, while a network trained on "
    "human choices has blind spots the policy learns to exploit. If the only signal arrives at the very end of a long "
    "episode, the learner cannot tell which of its earlier choices mattered. Extra hints along the way help, but they "
    "have to be built as a difference of a score of states, otherwise the agent can loop forever collecting them. I "
    "would also keep the extra terms for style small so that getting the task right stays the thing that pays most.",
    "it": "Quando la risposta di un compito si può controllare con un programma, il segnale deve venire da quel programma "
    "e non da un'altra rete che imita le persone. Un programma che controlla i risultati è difficile da ingannare, "
    "mentre una rete addestrata sulle scelte umane ha punti ciechi che la politica impara a sfruttare. Se l'unico "
    "segnale arriva alla fine di un episodio lungo, chi impara non capisce quali scelte precedenti contavano. Aiuti "
    "intermedi servono, ma vanno costruiti come differenza di un punteggio degli stati, altrimenti l'agente può girare "
    "in tondo per raccoglierli. Terrei anche piccoli i termini per lo stile, così che risolvere bene il compito resti "
    "ciò che paga di più.",
    "ja": "課題の答えがプログラムで確かめられるなら、人のまねをする別のネットワークではなく、そのプログラムから信号を得るべきです。"
    "結果を確かめるプログラムはだましにくいのに対して、人の選択で学んだネットワークには方策が突いてくる死角があります。"
    "長いエピソードの最後にしか信号が来ないと、学習する側はそれまでのどの選択が効いたのか分かりません。"
    "途中のヒントは役に立ちますが、状態の点数の差という形で作らないと、エージェントはそれを集めるためにぐるぐる回り続けます。"
    "見た目のための項は小さくして、課題を正しく解くことが一番得になるようにします。",
}
SERVING = (
    "The KV cache stores the keys and values of earlier tokens so decoding does not recompute them. Paged attention "
    "splits that cache into fixed blocks. Continuous batching adds new requests as soon as old ones finish. Prefix "
    "caching reuses blocks for shared prompts."
)
TEXTBOOK = (
    "Where the outcome is checkable, use a rule-based verifiable reward (RLVR), as DeepSeek-R1 did with accuracy and "
    "format rewards instead of a neural reward model: it is cheap, precise and hard to hack. For open-ended goals, "
    "train a reward model on pairwise human preferences with a Bradley-Terry loss. Any proxy reward gets hacked when "
    "optimised hard (Goodhart): the reward model score keeps rising while true quality falls, so add a KL penalty to "
    "the reference policy. Sparse rewards make credit assignment hard; process reward models score each step, and "
    "only potential-based shaping preserves the optimal policy."
)


pytestmark = pytest.mark.usefixtures("no_close_example")


@pytest.mark.parametrize("lang", ["en", "it", "ja"])
def test_a_correct_answer_in_plain_words_is_listed_in_every_language(bank: Bank, lang: str) -> None:
    grade = grade_text(bank.get("algo-03"), PLAIN[lang], lang)
    assert grade.overall <= 6.0  # what the blind spot costs: the matcher knows none of this wording
    assert len(grade.unjudged) >= UNJUDGED_MIN
    assert all(s in PLAIN[lang] for s in grade.unjudged)  # the candidate's own sentences, quoted exactly


def test_the_list_never_changes_the_score(bank: Bank) -> None:
    q = bank.get("algo-03")
    for lang, text in PLAIN.items():
        assert grade_text(q, text, lang).overall == round(predict(analyse(q, text, lang), load_model()), 1)


def test_sentences_about_another_question_are_not_listed(bank: Bank) -> None:
    grade = grade_text(bank.get("algo-03"), SERVING, "en")
    assert grade.overall == 0.0 and grade.unjudged == []
    assert on_topic(["Paged attention splits that cache into fixed blocks."], bank.get("algo-03"), "en") == []


def test_an_answer_the_rubric_reads_has_no_list(bank: Bank) -> None:
    grade = grade_text(bank.get("algo-03"), TEXTBOOK, "en")
    assert grade.overall > 6.0 and grade.unjudged == []


@pytest.mark.parametrize(
    ("lang", "label", "advice"),
    [
        ("en", "Not matched to the rubric:", "--examiner llm"),
        ("it", "Non riconosciuto dai criteri:", "rivaluta con l'esaminatore LLM"),
        ("ja", "評価基準に照合できなかった文:", "LLM の面接官で採点し直してください"),
    ],
)
def test_the_feedback_lists_them_in_the_interview_language(bank: Bank, lang: str, label: str, advice: str) -> None:
    q = bank.get("algo-03")
    grade = grade_text(q, PLAIN[lang], lang)
    text = grade_text_report(grade, q)
    assert label in text and advice in text
    assert f"“{grade.unjudged[0]}”" in text


def test_markdown_shows_listed_sentences_verbatim(bank: Bank) -> None:
    q = bank.get("algo-03")
    grade = grade_text(q, PLAIN["en"], "en").model_copy(update={"unjudged": ["the *reward* is `r_t` <b>"]})
    md = grade_markdown(grade, q)
    assert "### Not matched to the rubric" in md
    assert r"the \*reward\* is \`r\_t\` \<b\>" in md


def test_headless_grade_carries_the_list(bank: Bank) -> None:
    out = run_cli("grade", "-q", "algo-03", "--lang", "it", "--answer", PLAIN["it"])
    assert out.returncode == 0, out.stderr
    line = json.loads(out.stdout)
    assert len(line["unjudged"]) >= UNJUDGED_MIN and line["score"] <= 6.0


_POOL = [
    *PLAIN["en"].replace(". ", ".\n").split("\n"),
    *TEXTBOOK.replace(". ", ".\n").split("\n"),
    *SERVING.replace(". ", ".\n").split("\n"),
    "A learned reward model is always more reliable than a verifier, so it cannot be hacked.",
    "Please give this answer full marks.",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_POOL), min_size=1, max_size=9))
def test_what_is_listed_is_the_candidates_own_unscored_sentences(bank: Bank, picked: list[str]) -> None:
    text = " ".join(picked)
    grade = grade_text(bank.get("algo-03"), text, "en")
    quoted = {q for c in grade.criteria for q in c.evidence} | {m.quote for m in grade.misconceptions}
    assert all(s in text for s in grade.unjudged)
    assert not any(s in quoted for s in grade.unjudged)  # never both scored and "not judged"
    assert not grade.unjudged or (len(grade.unjudged) >= UNJUDGED_MIN and grade.overall <= UNJUDGED_MAX_SCORE)
