"""Snapshots of every screen at 100x30 and 80x24 (pytest-textual-snapshot).

Content is fixed: the demo bank, fixed interview ids and dates, a frozen clock.
Update after an intended change with `pytest tests/tui --snapshot-update`.
"""

from __future__ import annotations

import pytest

from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.examiners.offline.examiner import OfflineExaminer, grade_text
from interviewer.tui.screens.feedback import FeedbackScreen
from interviewer.tui.screens.interview import InterviewScreen
from interviewer.tui.screens.summary import SummaryScreen
from interviewer.tui.services import Services
from tests.tui.conftest import settle_home

SIZES = [(100, 30), (80, 24)]
SMALL = (60, 20)  # the smallest terminal the app is laid out for
ANSWER = "GRPO samples a group of answers and uses their mean reward as the baseline. It is simple."


def fixed_record(n: int = 1) -> SessionRecord:
    return SessionRecord(
        id=f"20260101-09000{n}-abc00{n}",
        created_at=f"2026-01-0{n}T09:00:00+00:00",
        plan=Plan(question_ids=["demo-01"], follow_ups=1),
    )


def _freeze_times(record: SessionRecord, n: int) -> None:
    record.created_at = f"2026-01-0{n}T09:00:00+00:00"
    record.finished_at = f"2026-01-0{n}T09:10:00+00:00" if record.finished_at else None
    for q in record.questions:
        q.started_at = q.finished_at = f"2026-01-0{n}T09:05:00+00:00"
        for t in q.turns:
            t.at = f"2026-01-0{n}T09:01:00+00:00"


async def _graded(services: Services, n: int, answer: str) -> SessionRecord:
    iv = Interview(fixed_record(n), services.bank(), OfflineExaminer())
    await iv.submit_answer(answer)
    iv.record.questions[0].status = "active"
    await iv.stop_probing()
    iv.advance()
    _freeze_times(iv.record, n)
    services.store().save_session(iv.record)
    return iv.record


@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare, make_app, size) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=size, run_before=settle_home)


def test_home_light_theme(snap_compare, services) -> None:  # type: ignore[no-untyped-def]
    from interviewer.tui.app import InterviewerApp

    services.config.theme = "light"  # as config.toml's theme = "light" (or F2 last time) gives it
    assert snap_compare(InterviewerApp(services=services), terminal_size=SIZES[0], run_before=settle_home)


@pytest.mark.parametrize("size", [*SIZES, SMALL])
def test_interview(snap_compare, make_app, services, size) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.workers.wait_for_complete()
        iv = Interview(fixed_record(), services.bank(), OfflineExaminer(), services.store())
        await pilot.app.push_screen(InterviewScreen(services, iv))
        await pilot.pause()
        pilot.app.screen.query_one("#answer").text = ANSWER
        await pilot.press("ctrl+s")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        answer = pilot.app.screen.query_one("#answer")
        answer.cursor_blink = False  # a blinking cursor makes the snapshot depend on timing
        answer.text = "And the baseline lowers the variance"
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_feedback(snap_compare, make_app, services, size) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.workers.wait_for_complete()
        q = services.bank().get("demo-01")
        text = ANSWER + " GRPO trains a critic network to predict values."
        await pilot.app.push_screen(FeedbackScreen(grade_text(q, text, "en"), q))
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_summary(snap_compare, make_app, services, size) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.workers.wait_for_complete()
        record = await _graded(services, 1, ANSWER)
        await pilot.app.push_screen(SummaryScreen(services, record))
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_history(snap_compare, make_app, services, size) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.workers.wait_for_complete()
        await _graded(services, 1, "GRPO is an algorithm.")
        await _graded(services, 2, ANSWER)
        await _graded(services, 3, ANSWER + " The baseline reduces the variance of the gradient.")
        await pilot.press("ctrl+o")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=size, run_before=run)




def test_history_report_maximized(snap_compare, make_app, services) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.workers.wait_for_complete()
        await _graded(services, 1, ANSWER)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run)
