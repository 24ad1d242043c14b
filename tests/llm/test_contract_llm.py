"""The examiner contract (tests/test_examiner_contract.py), run for the LLM examiner.

Every contract test is imported as is and runs here with an `examiner` that
is the LLM examiner talking HTTP to a local fake model; the fake answers like
a sensible model would (see oracle.py), so the checks exercise the whole
path: prompts, streaming, parsing, grounding and scoring in code.
"""

from __future__ import annotations

import pytest

from interviewer.bank.loader import Bank, load_bank
from interviewer.examiners.base import Examiner
from tests.conftest import FIXTURES
from tests.llm.conftest import make
from tests.llm.fakeserver import FakeLLM
from tests.llm.oracle import Oracle
from tests.test_examiner_contract import *  # noqa: F403 - the same tests, collected again with the fixture below


@pytest.fixture(scope="session")
def oracle_bank() -> Bank:
    return load_bank([FIXTURES])


@pytest.fixture(params=["llm"])
def examiner(request: pytest.FixtureRequest, fake_llm: FakeLLM, oracle_bank: Bank) -> Examiner:
    fake_llm.responder = Oracle(oracle_bank)
    return make(fake_llm)
