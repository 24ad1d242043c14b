"""Fixtures for the LLM examiner tests: a local fake model server and fast timeouts.

Only the environment is touched (a fake OPENAI_API_KEY); litellm itself is
never monkeypatched, and nothing leaves 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from interviewer.examiners.llm.examiner import LLMExaminer
from interviewer.examiners.llm.policy import RetryPolicy
from tests.llm.fakeserver import FakeLLM

FAKE_KEY = "sk-test-fake-key-0123456789"
MODEL = "openai/test-model"
FAST = RetryPolicy(connect_timeout=0.5, read_timeout=0.6, max_attempts=3, base_delay=0.005, max_delay=0.02,
                   retry_after_cap=2.0, stream_timeout=5.0)


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    server = FakeLLM()
    yield server
    server.close()


def make(server: FakeLLM, **kw: object) -> LLMExaminer:
    kw.setdefault("policy", FAST)
    return LLMExaminer(MODEL, api_base=server.url, **kw)  # type: ignore[arg-type]


@pytest.fixture
def llm(fake_llm: FakeLLM) -> LLMExaminer:
    return make(fake_llm)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """litellm touches deprecated pydantic attributes; that is its business, not a test failure."""
    for item in items:
        if "tests/llm" in str(item.fspath):
            item.add_marker(pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"))
            item.add_marker(pytest.mark.filterwarnings("ignore:Item .* is using the `ReadOnly` qualifier:UserWarning"))
