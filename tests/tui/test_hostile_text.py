"""Server text in the TUI (issue 15, F2): shown as text, never parsed as markup or run as an action."""

from __future__ import annotations

import pytest

from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.tui.screens.interview import InterviewScreen
from interviewer.tui.services import Services
from tests.llm.conftest import FAKE_KEY, make
from tests.llm.fakeserver import FakeLLM, Reply

HOSTILE = "upstream [/] failed at [/v1/chat/completions] [@click=app.quit]click me[/] \x1b]52;c;cHduZWQ=\x07"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    s = FakeLLM()
    s.responder = lambda seen: Reply.fail(500, HOSTILE)
    yield s
    s.close()


async def test_server_error_with_markup_neither_crashes_nor_acts(make_app, services: Services,  # type: ignore[no-untyped-def]
                                                                 server: FakeLLM) -> None:
    app = make_app()
    quits: list[str] = []
    real_exit = app.exit

    def exit_spy(*args: object, **kw: object) -> None:
        quits.append("exit")
        real_exit(*args, **kw)  # type: ignore[arg-type]

    app.exit = exit_spy  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.app.workers.wait_for_complete()
        iv = Interview(SessionRecord(plan=Plan(question_ids=["demo-01"], follow_ups=1)), services.bank(),
                       make(server), services.store())
        await pilot.app.push_screen(InterviewScreen(services, iv))
        await pilot.pause()
        screen = pilot.app.screen
        screen.query_one("#answer").text = "GRPO uses the group mean as the baseline."
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        notes = [str(n.message) for n in app._notifications]
        shown = [n for n in notes if "[/v1/chat/completions]" in n]
        assert shown, notes  # the notice is there, with the brackets as literal text
        assert "[@click=app.quit]" in shown[0] and "\x1b" not in shown[0]
        for toast in app.screen.query("Toast"):  # rendered on screen: the click would be an action
            await pilot.click(toast)
        await pilot.pause()
        assert app.is_running and quits == []
        assert isinstance(app.screen, InterviewScreen)
    (record,) = services.store().sessions()
    assert record.questions[0].turns[1].text.startswith("GRPO")  # the answer is kept
