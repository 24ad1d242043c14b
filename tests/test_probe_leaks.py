"""No follow-up probe names the answer: see interviewer/bank/probe_leaks.py for what "distinctive" means.

Runs over the whole built-in bank, both tracks.
"""

from __future__ import annotations

import pytest

from interviewer.bank.loader import Bank
from interviewer.bank.models import Question
from interviewer.bank.probe_leaks import distinctive_terms, probe_leaks
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
