"""No follow-up probe gives the answer away: see interviewer/bank/probe_leaks.py for what "distinctive" means.

Runs over the whole built-in bank, both tracks: no probe names a distinctive term, earns its own key
point when graded as an answer, or reads as one of its question's misconceptions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from interviewer.bank.loader import Bank
from interviewer.bank.models import LANGS, KeyPoint, Question
from interviewer.bank.probe_leaks import distinctive_terms, probe_leaks
from interviewer.examiners.offline.examiner import Analysis, analyse
from tests.conftest import ROOT

QUESTIONS = sorted(p.stem for p in (ROOT / "question_bank").glob("*.yaml"))


@pytest.mark.parametrize("qid", QUESTIONS)
def test_no_probe_names_a_distinctive_term(bank: Bank, qid: str) -> None:
    leaks = probe_leaks(bank.get(qid))
    assert not leaks, "\n".join(str(x) for x in leaks)


def test_the_check_finds_a_probe_that_names_a_sibling_answer(bank: Bank) -> None:
    # The newcomer run's first probe on algo-11 began "Il Routing Replay sulla vecchia policy...".
    q = bank.get("algo-11")
    assert "Routing Replay" in distinctive_terms(q)
    rubric = q.rubric
    assert rubric is not None
    kp = rubric.key_points[-1]
    probe = kp.probe.model_copy(update={"it": "Il Routing Replay ignora le scelte del motore di inferenza: che cosa registreresti?"})
    leaky_kp = kp.model_copy(update={"probe": probe})
    leaky = q.model_copy(update={"rubric": rubric.model_copy(update={"key_points": [*rubric.key_points[:-1], leaky_kp]})})
    found = {(x.key_point, x.lang, x.term) for x in probe_leaks(leaky)}
    assert (kp.id, "it", "Routing Replay") in found
    assert {(k, lang) for k, lang, _ in found} == {(kp.id, "it")}


def test_question_text_and_field_wide_acronyms_are_not_distinctive(bank: Bank) -> None:
    q: Question = bank.get("algo-13")  # the question itself lists Dr.GRPO, DAPO, GSPO, CISPO...
    terms = {t.lower() for t in distinctive_terms(q)}
    assert not {"dapo", "gspo", "cispo", "ppo", "grpo", "kl"} & terms


def _as_claims(text: str) -> str:
    """A probe's questions turned into statements: a candidate's question claims nothing, but a probe that
    leads ("so each GPU computes only part of a layer?") must not suggest a wrong claim either."""
    return re.sub(r"[?\uff1f]", lambda m: "\u3002" if m.group() == "\uff1f" else ".", text)


# A probe read back as an answer is graded by the offline examiner exactly like a candidate's text,
# with its question marks read as full stops.
def _probes_read_back(bank: Bank, qid: str) -> Iterator[tuple[KeyPoint, str, Analysis]]:
    """Every (key point, language) probe of a question, analysed as if a candidate had asserted it."""
    question = bank.get(qid)
    assert question.rubric is not None
    for kp in question.rubric.key_points:
        for lang in LANGS:
            yield kp, lang, analyse(question, _as_claims(kp.probe.get(lang)), lang)


@pytest.mark.parametrize("qid", QUESTIONS)
def test_no_probe_earns_its_own_point(bank: Bank, qid: str) -> None:
    """A probe asks for the missing idea: read back as an answer, it must not satisfy its own key point's cues."""
    leaks = [f"{kp.id} [{lang}]: {kp.probe.get(lang)}" for kp, lang, read in _probes_read_back(bank, qid)
             if read.coverage()[kp.id] > 0]
    assert leaks == []


@pytest.mark.parametrize("qid", QUESTIONS)
def test_no_probe_triggers_a_misconception(bank: Bank, qid: str) -> None:
    """The interviewer's own follow-up must never read as a wrong claim of its question (infra-11 ja once did)."""
    fired = [f"{kp.id} [{lang}] -> {[m.id for m in read.misconceptions]}: {kp.probe.get(lang)}"
             for kp, lang, read in _probes_read_back(bank, qid) if read.misconceptions]
    assert fired == []


def test_the_grading_checks_catch_the_old_leaky_probes(bank: Bank) -> None:
    # The checks above must be able to fail: the pre-fix wording of two probes, graded the same way.
    old_en = "Suppose the gradients really end up N times larger and you train with plain SGD."
    assert analyse(bank.get("algo-09"), old_en, "en").coverage()["gradient-scale-like-lr"] > 0
    infra = bank.get("infra-11")
    old_ja = "FSDP もパラメータを分割します。それで各 GPU が層の一部だけを計算することになりますか？通信コストはどうですか？"
    assert [m.id for m in analyse(infra, _as_claims(old_ja), "ja").misconceptions] == ["fsdp-is-tensor-parallel"]
    # asked by a candidate, the same question claims nothing
    assert analyse(infra, old_ja, "ja").misconceptions == []
