"""After an offline grade, key o asks the LLM examiner (a local fake server) for a second opinion."""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.config import Config
from interviewer.examiners.grade import Grade
from interviewer.tui.screens.feedback import FeedbackScreen
from interviewer.tui.services import Services
from tests.conftest import FIXTURES
from tests.llm.conftest import MODEL
from tests.llm.fakeserver import FakeLLM, Reply
from tests.llm.oracle import Oracle
from tests.tui.conftest import FrozenClock
from tests.tui.test_flows import start, type_answer

# litellm touches deprecated pydantic attributes and ReadOnly TypedDicts: its business, not a test failure
pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"),
    pytest.mark.filterwarnings("ignore:Item .* is using the `ReadOnly` qualifier:UserWarning"),
]

ANSWER = "GRPO subtracts the group's mean reward as the baseline instead of a critic."


def _services(tmp_path: Path, server: FakeLLM | None) -> Services:
    config = Config(data_dir=tmp_path / "home", model=MODEL if server else None, api_base=server.url if server else None,
                    timeout=5.0)
    return Services(config, [FIXTURES], include_builtin=False, clock=FrozenClock())


def _app(services: Services):  # type: ignore[no-untyped-def]
    from interviewer.tui.app import InterviewerApp

    return InterviewerApp(services=services)


async def _offline_feedback(pilot) -> FeedbackScreen:  # type: ignore[no-untyped-def]
    await start(pilot, follow_ups=0)
    await type_answer(pilot, ANSWER)
    screen = pilot.app.screen
    assert isinstance(screen, FeedbackScreen) and screen.grade.examiner == "offline"
    return screen


async def test_second_opinion_is_shown_and_kept_beside_the_grade(tmp_path: Path, fake_llm: FakeLLM) -> None:
    server = fake_llm
    services = _services(tmp_path, server)
    server.responder = Oracle(services.bank())
    app = _app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        first = await _offline_feedback(pilot)
        assert "o" in first._bindings.key_to_bindings
        await pilot.press("o")
        await first.workers.wait_for_complete()
        await pilot.pause()
        second = app.screen
        assert isinstance(second, FeedbackScreen) and second is not first
        assert second.grade.examiner == MODEL
        assert second.query_one("#feedback-title").render().plain.startswith(" Second opinion · demo-01")
        await pilot.press("enter")  # back to the offline feedback, which goes on as before
        await pilot.pause()
        assert app.screen is first
        await pilot.press("enter")
        await pilot.pause()
        from interviewer.tui.screens.summary import SummaryScreen, summary_markdown

        assert isinstance(app.screen, SummaryScreen)
        record = services.store().sessions()[0]
        offline, opinion = record.questions[0].grade, record.questions[0].second_opinion
        assert offline is not None and opinion is not None
        assert f"| {offline.overall:.1f} (second opinion {opinion.overall:.1f}) |" in summary_markdown(record, services)
    (record,) = services.store().sessions()
    q = record.questions[0]
    assert q.grade is not None and q.grade.examiner == "offline"  # the grade of record stays
    assert q.second_opinion is not None and q.second_opinion.examiner == MODEL
    assert any("Task:" in seen.user for seen in server.requests)  # the model was really asked, over HTTP


async def test_a_failed_second_opinion_says_why_and_keeps_the_grade(tmp_path: Path, fake_llm: FakeLLM) -> None:
    server = fake_llm
    services = _services(tmp_path, server)
    server.script(*[Reply.fail(400, "model 'test-model' does not exist")] * 4)
    app = _app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        first = await _offline_feedback(pilot)
        await pilot.press("o")
        await first.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is first
        said = [str(n.message) for n in app._notifications]
        assert any("No second opinion" in m and "HTTP 400" in m for m in said), said
    (record,) = services.store().sessions()
    assert record.questions[0].second_opinion is None and record.questions[0].grade is not None


async def test_without_a_model_there_is_no_second_opinion_key(tmp_path: Path) -> None:
    app = _app(_services(tmp_path, None))
    async with app.run_test(size=(100, 30)) as pilot:
        first = await _offline_feedback(pilot)
        assert "o" not in first._bindings.key_to_bindings


async def test_the_not_matched_notice_names_the_key_when_a_model_can_answer(make_app, bank) -> None:  # type: ignore[no-untyped-def]
    from interviewer.examiners.offline.examiner import grade_text
    from tests.test_offline_unjudged import PLAIN
    from tests.tui.conftest import settle_home

    question = bank.get("algo-03")
    grade = grade_text(question, PLAIN["it"], "it")

    async def never() -> Grade:
        raise AssertionError("not asked in this test")

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_home(pilot)
        app.push_screen(FeedbackScreen(grade, question, second_opinion=never))
        await pilot.pause()
        notice = app.screen.query_one("#unjudged-notice").render().plain
        assert "non corrispondono a nessun punto dei criteri" in notice and "Premi o per un secondo parere" in notice


async def test_pressing_o_again_while_the_model_answers_sends_no_second_request(tmp_path: Path, fake_llm: FakeLLM) -> None:
    services = _services(tmp_path, fake_llm)
    oracle = Oracle(services.bank())

    def slow(seen):  # type: ignore[no-untyped-def]
        reply = oracle(seen)
        reply.delay = 0.5
        return reply

    fake_llm.responder = slow
    app = _app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        first = await _offline_feedback(pilot)
        await pilot.press("o")
        await pilot.pause(0.1)
        await pilot.press("o")
        await first.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, FeedbackScreen) and app.screen.grade.examiner == MODEL
    assert sum("Task:" in seen.user for seen in fake_llm.requests) == 1
