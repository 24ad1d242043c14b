"""The shared concept lexicon: paraphrases credited once for every rubric, polarity kept, errors named."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from interviewer.bank.lexicon import Lexicon, LexiconProblem, builtin_lexicon, read_lexicon
from interviewer.bank.loader import load_question
from interviewer.examiners.offline.cues import AnswerIndex, compile_cue, use_lexicon
from interviewer.examiners.offline.examiner import analyse
from interviewer.examiners.offline.text import split_sentences
from tests.conftest import FIXTURES, run_cli, turned_texts

DEMO: dict[str, Any] = yaml.safe_load((FIXTURES / "demo-01.yaml").read_text(encoding="utf-8"))

SMALL = Lexicon.model_validate(
    {
        "concepts": [
            {
                "id": "baseline",
                "en": {"term": "baseline", "says": ["expected score to compare against", "reference level"]},
                "it": {"term": "baseline", "says": ["punteggio atteso di confronto"]},
                "ja": {"term": "ベースライン", "says": ["比較用の期待スコア"]},
            },
            {
                "id": "reduce-variance",
                "en": {"term": "reduce variance", "says": ["makes the updates less noisy"]},
                "it": {"term": "riduce la varianza", "says": ["rende gli aggiornamenti meno rumorosi"]},
                "ja": {"term": "分散を減らす", "says": ["ノイズを小さく"]},
            },
        ]
    }
)


@pytest.fixture
def small_lexicon() -> Iterator[Lexicon]:
    use_lexicon(SMALL)
    try:
        yield SMALL
    finally:
        use_lexicon(None)


def polar(cue: str, text: str, lang: str) -> tuple[int, int]:
    index = AnswerIndex.build(split_sentences(text), lang == "ja")
    found = index.polar(compile_cue(cue, lang))
    return len(found.affirmed), len(found.denied)


def demo(tmp_path: Path) -> Any:
    q, problems = load_question(FIXTURES / "demo-01.yaml")
    assert q is not None and not problems
    return q


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Subtracting an expected score to compare against makes the updates less noisy."),
        ("it", "Sottrarre un punteggio atteso di confronto rende gli aggiornamenti meno rumorosi."),
        ("ja", "比較用の期待スコアを引くとノイズを小さくできます。"),
    ],
)
def test_paraphrase_credits_the_key_point_in_every_language(small_lexicon: Lexicon, tmp_path: Path, lang: str, text: str) -> None:
    q = demo(tmp_path)
    assert analyse(q, text, lang).coverage()["baseline-variance"] > 0
    use_lexicon(Lexicon())
    assert analyse(q, text, lang).coverage()["baseline-variance"] == 0  # the credit came from the lexicon


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Subtracting an expected score to compare against never makes the updates less noisy."),
        ("it", "Sottrarre un punteggio atteso di confronto non rende gli aggiornamenti meno rumorosi."),
        ("ja", "比較用の期待スコアを引いてもノイズを小さくできません。"),
    ],
)
def test_negated_paraphrase_is_a_contradiction(small_lexicon: Lexicon, tmp_path: Path, lang: str, text: str) -> None:
    a = analyse(demo(tmp_path), text, lang)
    assert a.coverage()["baseline-variance"] == 0
    assert "baseline-variance" in {c.key_point for c in a.contradictions}


def test_concept_reference_in_a_cue(small_lexicon: Lexicon) -> None:
    assert polar("@baseline + @reduce-variance", "A reference level reduces the variance.", "en") == (1, 0)
    assert polar("@baseline + @reduce-variance", "A reference level does not reduce the variance.", "en") == (0, 1)
    assert polar("@baseline", "比較用の期待スコアを使う。", "ja") == (1, 0)


def test_misconception_cues_are_not_expanded(small_lexicon: Lexicon) -> None:
    # stemmed=False is how the examiner compiles misconception cues: written forms only
    words = {a.raw for term in compile_cue("baseline", "en", False).terms for a in term}
    assert words == {"baseline"}
    assert {a.raw for term in compile_cue("baseline", "en").terms for a in term} >= {"reference level"}


def test_unknown_concept_names_file_and_field(tmp_path: Path) -> None:
    doc = copy.deepcopy(DEMO)
    doc["rubric"]["key_points"][0]["cues"]["en"][0] = "@no-such-concept + mean"
    path = tmp_path / "demo-01.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    _, problems = load_question(path)
    assert [(p.location, p.message) for p in problems] == [
        ("rubric.key_points[0].cues.en[0]", "unknown concept @no-such-concept (not in the lexicon)")
    ]
    r = run_cli("bank", "validate", str(tmp_path))
    assert r.returncode == 1 and "demo-01.yaml: rubric.key_points[0].cues.en[0]: unknown concept @no-such-concept" in r.stdout


def test_negation_inside_says_is_rejected_with_its_field(tmp_path: Path) -> None:
    path = tmp_path / "concepts.yaml"
    path.write_text(
        "concepts:\n  - id: critic\n    en: {term: critic, says: [value network, no value network]}\n", encoding="utf-8"
    )
    with pytest.raises(LexiconProblem, match=r"concepts\[0\]\.en\.says\[1\]: 'no value network' contains a negation"):
        read_lexicon(path)
    path.write_text("concepts:\n  - id: Critic\n    en: {term: critic}\n", encoding="utf-8")
    with pytest.raises(LexiconProblem, match=r"concepts\.0\.id"):
        read_lexicon(path)


def test_opposites_are_checked_with_their_field(tmp_path: Path) -> None:
    path = tmp_path / "concepts.yaml"
    path.write_text("opposites:\n  en:\n    - [increas, decreas]\n    - [more, more]\n", encoding="utf-8")
    with pytest.raises(LexiconProblem, match=r"opposites\.en: .*\['more', 'more'\]"):
        read_lexicon(path)
    path.write_text("opposites:\n  fr: [[plus, moins]]\n", encoding="utf-8")
    with pytest.raises(LexiconProblem, match=r"opposites\.fr"):
        read_lexicon(path)
    path.write_text("opposites:\n  en: [[Pessimist, optimist]]\n", encoding="utf-8")
    assert read_lexicon(path).opposites.pairs("en") == [("pessimist", "optimist")]
    path.write_text("changes:\n  it: [[aument, aument]]\n", encoding="utf-8")
    with pytest.raises(LexiconProblem, match=r"changes\.it"):
        read_lexicon(path)
    path.write_text("rivals:\n  it: [[prefill, prefill]]\n", encoding="utf-8")
    with pytest.raises(LexiconProblem, match=r"rivals\.it: .*\['prefill', 'prefill'\]"):
        read_lexicon(path)


def test_systems_are_groups_of_one_word_names(tmp_path: Path) -> None:
    path = tmp_path / "concepts.yaml"
    path.write_text("systems:\n  - [AReaL, PipelineRL, slime]\n", encoding="utf-8")
    assert read_lexicon(path).systems == [["areal", "pipelinerl", "slime"]]
    for bad in ("[[areal, pipeline rl]]", "[[areal]]", "[[ppo, PPO]]"):
        path.write_text(f"systems: {bad}\n", encoding="utf-8")
        with pytest.raises(LexiconProblem, match=r"concepts\.yaml: systems: .*group"):
            read_lexicon(path)


def test_a_custom_lexicon_turns_cues_with_its_own_opposites(tmp_path: Path) -> None:
    path = tmp_path / "concepts.yaml"
    path.write_text("opposites:\n  en: [[warm, cold]]\n", encoding="utf-8")
    use_lexicon(read_lexicon(path))
    try:
        assert turned_texts("soup + warm", "en") == ("soup + cold",)
        assert turned_texts("min + pessimistic", "en") == ()
    finally:
        use_lexicon(None)
    assert turned_texts("min + pessimistic", "en") == ("min + optimist",)


def test_shipped_lexicon_is_valid_and_loaded_lazily() -> None:
    lexicon = builtin_lexicon()
    assert len(lexicon.concepts) >= 50 and lexicon.alternatives() > 500
    assert len({c.id for c in lexicon.concepts}) == len(lexicon.concepts)


def _shipped_phrases() -> list[tuple[str, str, str, str]]:
    out = []
    for c in builtin_lexicon().concepts:
        for lang in ("en", "it"):
            form = c.form(lang)
            if form:
                out.extend((c.id, lang, form.term[0], phrase) for phrase in form.says)
    return out


def test_every_shipped_phrase_reads_as_its_term_and_keeps_polarity() -> None:
    """Each `says` phrase, written in a sentence, affirms a cue of its term; after "not"/"non" it denies it."""
    failures = []
    for cid, lang, term, phrase in _shipped_phrases():
        yes = "It is about {}." if lang == "en" else "Si tratta di {}."
        no = "It is not {}." if lang == "en" else "Non si tratta di {}."
        # "not only X" affirms X by design: phrases that start with "only" are checked for the affirmation alone
        negatable = phrase.split()[0] not in ("only", "just", "solo", "soltanto")
        if polar(term, yes.format(phrase), lang)[0] != 1 or (negatable and polar(term, no.format(phrase), lang)[0] != 0):
            failures.append(f"{cid}.{lang}: {phrase!r}")
    assert failures == []
