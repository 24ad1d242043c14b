"""With the LLM examiner (a local fake OpenAI-compatible server), probe text streams into the
transcript chunk by chunk, and Esc stops it keeping the partial text."""

from __future__ import annotations

import asyncio

import pytest

from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.tui.screens.interview import InterviewScreen, Message
from interviewer.tui.services import Services
from tests.llm.conftest import FAKE_KEY, make
from tests.llm.fakeserver import FakeLLM, Reply

# litellm touches deprecated pydantic attributes and ReadOnly TypedDicts: its business, not a test failure
pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"),
    pytest.mark.filterwarnings("ignore:Item .* is using the `ReadOnly` qualifier:UserWarning"),
]

PROBE = "baseline-variance\nWhat does subtracting the baseline change about the gradient, and what does it leave alone?"
CHUNKS = [PROBE[:18], *[PROBE[i : i + 12] for i in range(18, len(PROBE), 12)]]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    s = FakeLLM()
    yield s
    s.close()


def _message_texts(screen: InterviewScreen) -> list[str]:
    """Every transcript entry: the candidate's verbatim text, the examiner's Markdown source."""
    return [m.source if isinstance(m, Message) else m.render().plain for m in screen.query_one("#transcript").children]


async def _screen(pilot, services: Services, server: FakeLLM) -> InterviewScreen:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    examiner = make(server)
    iv = Interview(SessionRecord(plan=Plan(question_ids=["demo-01"], follow_ups=1)), services.bank(), examiner, services.store())
    await pilot.app.push_screen(InterviewScreen(services, iv))
    await pilot.pause()
    return pilot.app.screen


async def test_probe_streams_incrementally(make_app, services: Services, server: FakeLLM) -> None:  # type: ignore[no-untyped-def]
    server.script(Reply.stream(CHUNKS, chunk_delay=0.15))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _screen(pilot, services, server)
        screen.query_one("#answer").text = "GRPO uses the group mean as the baseline."
        await pilot.press("ctrl+s")
        seen: list[str] = []
        for _ in range(80):
            await asyncio.sleep(0.05)
            texts = _message_texts(screen)
            if len(texts) >= 2:
                seen.append(texts[1])
            if seen and seen[-1].endswith("leave alone?"):
                break
        await app.workers.wait_for_complete()
        lengths = sorted({len(s) for s in seen})
        assert len(lengths) >= 3, f"expected several partial renders, saw {lengths}"
        assert seen[-1].endswith(PROBE.split("\n", 1)[1])
        assert "baseline-variance" not in seen[-1]  # the header line is not shown
    (record,) = services.store().sessions()
    probe = record.questions[0].turns[-1]
    assert probe.kind == "probe" and probe.key_point_id == "baseline-variance" and not probe.cancelled


async def test_escape_cancels_and_keeps_partial(make_app, services: Services, server: FakeLLM) -> None:  # type: ignore[no-untyped-def]
    server.script(Reply.stream(CHUNKS, chunk_delay=0.2))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _screen(pilot, services, server)
        screen.query_one("#answer").text = "GRPO uses the group mean as the baseline."
        await pilot.press("ctrl+s")
        for _ in range(60):
            await asyncio.sleep(0.05)
            texts = _message_texts(screen)
            if len(texts) >= 2 and len(texts[1]) > len("Examiner: ") + 10:
                break
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not screen.busy
    (record,) = services.store().sessions()
    probe = record.questions[0].turns[-1]
    assert probe.kind == "probe" and probe.cancelled
    assert probe.text and len(probe.text) < len(PROBE.split("\n", 1)[1])
