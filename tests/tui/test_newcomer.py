"""The flows a new user tripped on (newcomer walkthrough items 1, 6, 9, 11-20, 22, 25; issue 14), as pilots."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Input, TextArea

from interviewer.config import Config
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.tui.app import InterviewerApp
from interviewer.tui.screens.feedback import FeedbackScreen
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.screens.interview import InterviewScreen
from interviewer.tui.screens.summary import SummaryScreen
from interviewer.tui.services import Services
from interviewer.tui.widgets import Choice
from tests.tui.conftest import FrozenClock, settle_home
from tests.tui.test_flows import start, transcript, type_answer

VERBATIM = "Use <br> and __init__ then </think> <|im_end|>\n# not a heading\n    indented *x* [link](url)"


def screen_text(app: InterviewerApp) -> str:
    """What the terminal shows right now, as plain text (one line per row)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Workers done, and Home loaded if it is showing: its loader starts on a timer after the first paint, so
    waiting for workers alone can return before it has begun (a CI run pressed Ctrl+R before Home knew of the
    unfinished interview)."""
    await settle_home(pilot)


# -- 1. the first draft and Ctrl+E --------------------------------------------------------
async def test_quit_before_the_first_submit_keeps_a_resumable_draft(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        app.screen.query_one("#answer", TextArea).text = "PARTIAL DRAFT: the group mean is"
        await pilot.pause(0.7)  # autosave
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    app2 = make_app()
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        resume = app2.screen.query_one("#resume", Button)
        assert not resume.disabled
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app2.screen, InterviewScreen)
        assert app2.screen.query_one("#answer", TextArea).text == "PARTIAL DRAFT: the group mean is"


async def test_grade_now_submits_the_text_in_the_box(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        await type_answer(pilot, "GRPO is an algorithm.")
        app.screen.query_one("#answer", TextArea).text = "The group mean reward is the baseline."
        await pilot.pause(0.7)
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert isinstance(app.screen, FeedbackScreen)
    (record,) = services.store().sessions()
    assert record.questions[0].answers() == ["GRPO is an algorithm.", "The group mean reward is the baseline."]
    assert services.store().get_setting(f"draft:{record.id}") == ""


async def test_grade_now_with_only_a_first_answer_in_the_box(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        app.screen.query_one("#answer", TextArea).text = "The group mean reward is the baseline."
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert isinstance(app.screen, FeedbackScreen)
    (record,) = services.store().sessions()
    assert record.questions[0].answers() == ["The group mean reward is the baseline."]


# -- 2. drill ----------------------------------------------------------------------------------
@pytest.fixture
def full_app(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The app on the built-in bank (35 questions), for the drill picker."""

    def make() -> InterviewerApp:
        services = Services(Config(data_dir=tmp_path / "full"), [], include_builtin=True, clock=FrozenClock())
        return InterviewerApp(services=services)

    return make


async def test_drill_picker_is_visible_and_filters_as_you_type(full_app) -> None:  # type: ignore[no-untyped-def]
    app = full_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        home = app.screen
        home.query_one("#mode", Choice).value = "drill"
        await pilot.pause()
        picker = home.query_one("#question", Choice)
        assert picker.size.height == 1 and "algo-01 ·" in screen_text(app)  # not a bare border line
        picker.focus()
        await pilot.press(*"cispo")  # typing on the picker goes to its filter
        await pilot.pause()
        assert home.query_one("#question-filter", Input).value == "cispo"
        ids = [v for _, v in picker._options]
        assert "algo-07" in ids and len(ids) < 35
        assert picker.value in ids and f"{picker.value} ·" in screen_text(app)
        home.query_one("#question-filter", Input).value = "infra-03"
        await pilot.pause()
        assert [v for _, v in picker._options] == ["infra-03"]
        home.query_one("#question-filter", Input).value = "fp8 training"  # words of the question or topics
        await pilot.pause()
        assert "infra-03" in [v for _, v in picker._options]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        assert app.screen.interview.record.plan.question_ids == [picker.value]


async def test_drill_gives_feedback_after_each_reply_and_ends_at_home(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, mode="drill")
        await type_answer(pilot, "GRPO uses the average reward of the group as a baseline.")
        shown = "\n".join(transcript(app.screen))
        assert "Feedback on this reply" in shown and "✓ GRPO samples a group" in shown
        assert "2 key points not covered yet" in shown
        await type_answer(pilot, "The baseline reduces the variance of the gradient.")
        await type_answer(pilot, "Dividing by the standard deviation is optional; Dr. GRPO removes it.")
        assert isinstance(app.screen, FeedbackScreen)
        assert "Back to Home" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)  # no "Interview summary" for one question


# -- 3. hints ----------------------------------------------------------------------------------
async def test_hint_penalty_is_shown_and_adds_up(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    from interviewer.render import grade_text_report
    from interviewer.reports import report_html

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, follow_ups=0)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await type_answer(pilot, "GRPO uses the group mean reward as the baseline, no critic.")
        assert isinstance(app.screen, FeedbackScreen)
        grade = app.screen.grade
        text = screen_text(app)
        assert "hints −0.5" in text and "hints 0.5 (1 hint)" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert "−0.5 hints" in screen_text(app)
    rows = sum(c.score for c in grade.criteria) / sum(c.max for c in grade.criteria) * 10
    assert round(rows - grade.hint_penalty, 1) == grade.overall
    question = services.bank().get("demo-01")
    cli = grade_text_report(grade, question)
    assert f"hints 0.5 (1 hint) = {grade.overall:.1f}/10" in cli
    (record,) = services.store().sessions()
    assert "hints 0.5 (1 hint)" in report_html(record, services.bank())


# -- 4. verbatim candidate text ----------------------------------------------------------------
async def test_answers_are_shown_as_typed_in_transcript_and_history(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot)
        await type_answer(pilot, VERBATIM)
        shown = screen_text(app)
        for piece in ("<br>", "__init__", "</think>", "<|im_end|>", "# not a heading", "indented *x* [link](url)"):
            assert piece in shown, piece
        assert shown.index("</think>") < shown.index("# not a heading")  # the line break is kept
        await pilot.press("ctrl+n")
        await settle(pilot)
        await pilot.press("enter")  # feedback -> summary
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await settle(pilot)
        pane = screen_text(app)  # the History screen with the report of this interview
        for piece in ("<br>", "__init__", "</think>", "<|im_end|>"):
            assert piece in pane, piece


async def test_bank_model_answer_keeps_its_asterisks(tmp_path: Path) -> None:
    from interviewer.bank.loader import load_bank
    from interviewer.tui.screens.history import HistoryScreen

    services = Services(Config(data_dir=tmp_path / "h"), [], include_builtin=True, clock=FrozenClock())
    iv = Interview.start(Plan(question_ids=["algo-07"], follow_ups=0), load_bank(), OfflineExaminer(), services.store())
    await iv.submit_answer("PPO clips the probability ratio.")  # not CISPO: its outline line is still listed
    iv.advance()
    app = InterviewerApp(services=services)
    async with app.run_test(size=(200, 200)) as pilot:
        await settle(pilot)
        await app.push_screen(HistoryScreen())
        await settle(pilot)
        pane = app.screen.query_one("#report-pane")
        pane.styles.height = 190
        await pilot.pause()
        assert "sg(clip(r))*A*log pi" in screen_text(app)


# -- 5. home navigation, help, quit dialog -----------------------------------------------------
async def test_home_focus_starts_on_the_first_row_and_arrows_move(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.focused is app.screen.query_one("#mode")
        await pilot.press("down")
        assert app.focused is app.screen.query_one("#track")
        await pilot.press("down", "up")
        assert app.focused is app.screen.query_one("#track")
        await pilot.press("f1")
        await pilot.pause()
        text = screen_text(app)
        assert "closes this help" in text and "←" in text and "Tab" in text
        assert "Close help" in text  # the footer shows the help's keys
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_quit_dialog_text_is_not_cut_off(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        app.screen.query_one("#answer", TextArea).text = "draft"
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        text = " ".join(screen_text(app).replace("█", " ").split())
        assert "Your draft answer is saved and comes back when you resume." in text
        label = app.screen.query_one("#confirm-question")  # Static(Wrapped(...)): wraps in any language
        assert label.size.height >= 2


# -- 6. resume ---------------------------------------------------------------------------------
async def test_resume_names_the_interview_and_the_timer_continues(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    clock = services.clock
    assert isinstance(clock, FrozenClock)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        clock.t += 75
        await pilot.pause(1.1)
        assert "01:15" in app.screen.status_text()
        await pilot.press("ctrl+q")
        await pilot.pause()
    clock.t += 3600  # time away does not count
    app2 = make_app()
    async with app2.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        text = screen_text(app2)
        assert "Resume · " in text and "interview · question 1/1" in text
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "01:15" in app2.screen.status_text()


@pytest.mark.parametrize(("answer", "finished"), [("a", True), ("k", False)])
async def test_starting_a_new_interview_asks_about_the_open_one(make_app, services: Services, answer: str, finished: bool) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        first = app.screen.interview.record.id
        await pilot.press("ctrl+q")
        await pilot.pause()
    app2 = make_app()
    async with app2.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+s")  # at once: before Home has read the store, the start waits for it
        await settle_home(pilot)
        assert "still open" in screen_text(app2) and "Abandon" in screen_text(app2)
        await pilot.press(answer)
        await pilot.pause()
        assert isinstance(app2.screen, InterviewScreen)
        assert app2.screen.interview.record.id != first
    old = services.store().load_session(first)
    assert old.finished is finished
    assert ("abandoned" in " ".join(old.notes)) is finished


async def test_a_second_app_cannot_resume_an_interview_open_in_another(tmp_path: Path) -> None:
    from tests.conftest import FIXTURES

    config = Config(data_dir=tmp_path / "shared")
    one = InterviewerApp(services=Services(config, [FIXTURES], include_builtin=False, clock=FrozenClock()))
    async with one.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        two = InterviewerApp(services=Services(config, [FIXTURES], include_builtin=False, clock=FrozenClock()))
        async with two.run_test(size=(100, 30)) as pilot2:
            await settle(pilot2)
            await pilot2.press("ctrl+r")
            await pilot2.pause()
            assert isinstance(two.screen, HomeScreen)
            assert any("open in another interviewer process" in str(n.message) for n in two._notifications)


# -- 7. review ---------------------------------------------------------------------------------
async def test_next_review_is_named_and_skips_are_not_averaged(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await start(pilot, follow_ups=0)
        await type_answer(pilot, "GRPO uses the group mean reward as the baseline, no critic.")
        assert isinstance(app.screen, FeedbackScreen)
        assert "next review in" in screen_text(app)
        await pilot.press("enter", "h")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await settle(pilot)
        assert "demo-01: next review in" in screen_text(app)
    store = services.store()
    rec = Interview.start(Plan(question_ids=["demo-01", "demo-01"], follow_ups=0), services.bank(), OfflineExaminer(), store)
    await rec.submit_answer("GRPO uses the group mean reward as the baseline, no critic.")
    rec.advance()
    await rec.skip()
    rec.advance()
    graded = rec.record.questions[0].grade
    assert graded is not None and rec.record.overall() == graded.overall
    from interviewer.tui.screens.summary import summary_markdown

    md = summary_markdown(rec.record, services)
    assert "_skipped_" in md and "1 question skipped (not counted in the mean)" in md
    assert "## Next review" in md and "- **demo-01**: next review in" in md


# -- 8. reports, summary, history --------------------------------------------------------------
async def test_summary_layout_and_both_export_keys(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, follow_ups=0)
        await type_answer(pilot, "GRPO is an algorithm.")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert "demo-01 · How does GRPO estimate" in text
        header = next(line for line in text.splitlines() if "Question" in line and "Score" in line)
        assert "Bar" in header and "Penalties" in header
        assert "1 answered question" in text and "question(s)" not in text
        await pilot.press("E")
        await pilot.pause()
    (record,) = services.store().sessions()
    assert (services.config.data_dir / "reports" / f"{record.id}.html").exists()


def test_weakest_points_are_grouped_per_question_and_short(services: Services) -> None:
    import asyncio

    from interviewer.tui.screens.summary import summary_markdown

    iv = Interview.start(Plan(question_ids=["demo-01", "demo-01"], follow_ups=0), services.bank(), OfflineExaminer(), services.store())
    for answer in ("GRPO is an algorithm.", "It is a method."):
        asyncio.run(iv.submit_answer(answer))
        iv.advance()
    md = summary_markdown(iv.record, services)
    section = md.split("## Weakest key points")[1].split("##")[0]
    assert section.count("- **demo-01**") == 2
    assert all(len(line) < 140 for line in section.splitlines())
    assert sum(1 for line in section.splitlines() if line.startswith("  - ")) <= 4


async def test_history_has_units_an_axis_and_an_export_key(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=0), services.bank(), OfflineExaminer(), services.store())
    await iv.submit_answer("GRPO uses the group mean reward as the baseline.")
    iv.advance()
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        text = screen_text(app)
        assert "over 1 answer" in text and "/10" in text and "oldest → newest" in text
        from interviewer.tui.screens.history import _bars

        assert _bars([0.0, 10.0, 5.0]).split("\n") == [" █ ", "▁██"]  # a fixed 0-10 scale, not min..max
        await pilot.press("e")
        await pilot.pause()
    assert (services.config.data_dir / "reports" / f"{iv.record.id}.html").exists()


async def test_report_toast_does_not_follow_into_the_next_interview(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, follow_ups=0)
        await type_answer(pilot, "GRPO is an algorithm.")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert len(app._notifications) == 1
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        assert len(app._notifications) == 0
