"""User flows through the TUI with the offline examiner (Textual pilot)."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from interviewer.tui.screens.feedback import FeedbackScreen
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.screens.interview import InterviewScreen, Message
from interviewer.tui.screens.summary import SummaryScreen
from interviewer.tui.services import Services
from interviewer.tui.widgets import Choice
from tests.tui.conftest import settle_home

STRONG = (
    "GRPO samples a group of responses and subtracts the group's mean reward as the baseline instead of a critic. "
    "The baseline reduces variance and keeps the gradient unbiased. Dividing by the std is optional per Dr. GRPO."
)


def transcript(screen) -> list[str]:  # type: ignore[no-untyped-def]
    """The transcript as plain text, one entry per message (candidate text exactly as shown)."""
    out = []
    for m in screen.query_one("#transcript").children:
        out.append(m.source if isinstance(m, Message) else m.render().plain)
    return out


async def type_answer(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    area = pilot.app.screen.query_one("#answer", TextArea)
    area.text = text
    await pilot.pause()
    await pilot.press("ctrl+s")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def start(pilot, mode: str = "interview", count: str = "1", follow_ups: int = 2) -> None:  # type: ignore[no-untyped-def]
    await settle_home(pilot)  # the drill picker has no questions until the bank has loaded
    home = pilot.app.screen
    assert isinstance(home, HomeScreen)
    home.query_one("#mode", Choice).value = mode
    home.query_one("#count", Choice).value = int(count)
    home.query_one("#follow_ups", Choice).value = follow_ups
    if mode == "drill":
        home.query_one("#question", Choice).value = "demo-01"
    await pilot.pause()
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert isinstance(pilot.app.screen, InterviewScreen)


async def test_full_interview_to_summary(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        await type_answer(pilot, "GRPO is a policy optimisation method.")
        screen = app.screen
        assert isinstance(screen, InterviewScreen)
        texts = transcript(screen)
        assert texts[0] == "You: GRPO is a policy optimisation method." and "Where does GRPO" in texts[1]
        await type_answer(pilot, "The group mean reward is the baseline.")
        await type_answer(pilot, "Not sure.")
        assert isinstance(app.screen, FeedbackScreen)
        assert "score 5.0/10" in app.screen.query_one("#feedback-title").render().plain
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("e")
        await pilot.pause()
    (record,) = services.store().sessions()
    assert record.finished and record.questions[0].grade is not None
    assert (services.config.data_dir / "reports" / f"{record.id}.html").exists()


async def test_drill_until_covered(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, mode="drill")
        await type_answer(pilot, "GRPO uses the average reward of the group as a baseline.")
        await type_answer(pilot, "The baseline reduces the variance of the gradient.")
        assert isinstance(app.screen, InterviewScreen)
        await type_answer(pilot, "Dividing by the standard deviation is optional; Dr. GRPO removes it.")
        assert isinstance(app.screen, FeedbackScreen)
        assert app.screen.grade.overall >= 9
    (record,) = services.store().sessions()
    assert len(record.questions[0].interim_grades) == 3


async def test_skip_and_dont_know(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, count="2")
        # the demo bank has one question; a 2-question plan caps to what exists
        await pilot.press("ctrl+n")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, FeedbackScreen) and app.screen.grade.verdict == "no answer"
    (record,) = services.store().sessions()
    assert record.questions[0].status == "skipped"


async def test_cancel_stream_keeps_partial_and_resume_restores_draft(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        await type_answer(pilot, "GRPO is an algorithm.")
        await pilot.press("escape")  # nothing streaming any more: harmless
        area = app.screen.query_one("#answer", TextArea)
        area.text = "half-written thought about the baseline"
        await pilot.pause(0.7)  # autosave
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
    (record,) = services.store().sessions()
    assert not record.finished and record.questions[0].turns[-1].kind == "probe"
    # a new app resumes the interview with the draft in the editor
    app2 = make_app()
    async with app2.run_test(size=(100, 30)) as pilot:
        await app2.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app2.screen, InterviewScreen)
        assert app2.screen.query_one("#answer", TextArea).text == "half-written thought about the baseline"
        assert len(transcript(app2.screen)) == 2


async def test_help_and_history(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "HistoryScreen"


async def test_history_report_reads_on_the_whole_screen(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    from interviewer.tui.screens.history import HistoryScreen
    from tests.tui.test_snapshots import ANSWER, _graded

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        for n in range(1, 8):  # enough interviews to fill the table
            await _graded(services, n, ANSWER)
        await pilot.press("ctrl+o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen) and screen.has_class("-short")
        pane = screen.query_one("#report-pane")
        before = pane.size.height
        await pilot.press("enter")
        await pilot.pause()
        assert screen.maximized is pane and app.focused is pane
        assert pane.size.height > 2 * before  # the report gets the screen, not its five lines
        await pilot.press("escape")  # back to the list, still in History
        await pilot.pause()
        assert screen.maximized is None and app.screen is screen
        assert app.focused is screen.query_one("#sessions")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen


async def test_end_followups_and_hint(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert "Hint" in transcript(app.screen)[-1]
        await type_answer(pilot, "GRPO is an algorithm.")
        await pilot.press("ctrl+e")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, FeedbackScreen)
        assert app.screen.grade.hint_penalty == 0.5


async def test_choice_keys_and_remembered_choices(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        lang = app.screen.query_one("#lang", Choice)
        lang.focus()
        await pilot.press("right")
        assert lang.value == "it"
        await pilot.press("right", "right")
        assert lang.value == "en"  # wraps around
        await pilot.press("left")
        assert lang.value == "ja"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        assert "GRPO はどのように" in app.screen.interview.question_text()
    app2 = make_app()
    async with app2.run_test(size=(80, 24)) as pilot:
        await app2.workers.wait_for_complete()
        await pilot.pause()
        assert app2.screen.query_one("#lang", Choice).value == "ja"


async def test_store_refusing_at_exit_leaves_an_importable_backup(make_app, services: Services, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The disk turns read-only mid-interview: the answers stay in memory, and on quit they go to a backup file."""
    import json

    backup = tmp_path / "rescued.json"
    monkeypatch.setenv("INTERVIEWER_RESCUE_FILE", str(backup))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        services.store().read_only = True  # what Store sets when the file system turns read-only
        await type_answer(pilot, "GRPO is a policy optimisation method.")
        screen = app.screen
        assert isinstance(screen, InterviewScreen) and screen.interview.unsaved is not None
        app.exit()
        await pilot.pause()
    assert any("Saved to " + str(backup) in m for m in services.exit_messages)
    data = json.loads(backup.read_text(encoding="utf-8"))
    assert data["format"] == "interviewer-backup"
    turns = [t["text"] for q in data["sessions"][0]["questions"] for t in q["turns"]]
    assert "GRPO is a policy optimisation method." in turns


async def test_run_with_questions_opens_that_interview(services: Services) -> None:  # type: ignore[no-untyped-def]
    """`interviewer run --questions demo-01` (no --plain) starts that interview over Home, not Home alone."""
    from interviewer.engine.record import Plan
    from interviewer.examiners.offline.examiner import OfflineExaminer
    from interviewer.tui.app import InterviewerApp

    app = InterviewerApp(services=services, start=(Plan(question_ids=["demo-01"], follow_ups=0), OfflineExaminer()))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        assert app.screen.interview.question().id == "demo-01"
        await type_answer(pilot, STRONG)
        assert isinstance(app.screen, FeedbackScreen)
        await pilot.press("enter")
        await pilot.pause()
    (record,) = services.store().sessions()
    assert record.plan.question_ids == ["demo-01"] and record.questions[0].grade is not None


async def test_theme_choice_is_remembered_at_the_next_start(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from interviewer.tui.app import InterviewerApp
    from tests.conftest import FIXTURES

    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('# mine\nlang = "it"\n', encoding="utf-8")
    app = InterviewerApp(services=Services(home, [FIXTURES], include_builtin=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_home(pilot)
        assert app.theme == "textual-dark"
        await pilot.press("f2")
        await pilot.pause()
        assert app.theme == "textual-light"
    assert (home / "config.toml").read_text(encoding="utf-8") == '# mine\nlang = "it"\ntheme = "light"\n'
    again = InterviewerApp(services=Services(home, [FIXTURES], include_builtin=False))
    async with again.run_test(size=(80, 24)) as pilot:
        assert again.theme == "textual-light"
        await pilot.press("f2")
        await pilot.pause()
    assert 'theme = "dark"' in (home / "config.toml").read_text(encoding="utf-8")


async def test_theme_that_cannot_be_saved_still_changes_and_says_why(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from interviewer.tui.app import InterviewerApp
    from tests.conftest import FIXTURES

    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("follow_ups = 99\n", encoding="utf-8")  # invalid: the app must not rewrite it
    app = InterviewerApp(services=Services(home, [FIXTURES], include_builtin=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        assert app.theme == "textual-light"
        notes = [str(n.message) for n in app._notifications]
        assert any("session only" in n and "follow_ups" in n for n in notes), notes
    assert (home / "config.toml").read_text(encoding="utf-8") == "follow_ups = 99\n"


async def test_submit_waits_for_keys_already_sent_to_the_answer_box(make_app) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+S is a priority binding: it can run while keys typed just before it still wait in the
    editor's queue (a script, a paste without bracketed paste). Those keys belong to the answer."""
    from textual import events

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot)
        screen = app.screen
        editor = screen.query_one("#answer", TextArea)
        editor.focus()
        await pilot.pause()
        for ch in "GRPO uses the group mean":
            editor.post_message(events.Key(ch if ch != " " else "space", ch))
        pending = screen.action_submit()  # before the editor has handled a single one of them
        if pending is not None:
            await pending
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert transcript(screen)[0].endswith("GRPO uses the group mean")


async def test_feedback_names_the_sentences_it_could_not_judge_before_the_table(make_app, bank) -> None:  # type: ignore[no-untyped-def]
    from interviewer.examiners.offline.examiner import grade_text
    from tests.test_offline_unjudged import PLAIN

    question = bank.get("algo-03")
    grade = grade_text(question, PLAIN["ja"], "ja")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_home(pilot)
        app.push_screen(FeedbackScreen(grade, question))
        await pilot.pause()
        notice = app.screen.query_one("#unjudged-notice")
        assert f"{len(grade.unjudged)}文がどの評価基準にも一致しませんでした" in notice.render().plain
        assert notice.region.y < 5  # on the first screen, above the rubric table a 0.0 heads


@pytest.mark.usefixtures("no_close_example")  # wording no graded example resembles
def test_drill_feedback_after_a_reply_says_when_sentences_matched_nothing(bank) -> None:  # type: ignore[no-untyped-def]
    from interviewer.examiners.offline.examiner import grade_text
    from interviewer.tui.screens.interview import interim_feedback
    from tests.test_offline_unjudged import PLAIN, TEXTBOOK

    plain = interim_feedback(grade_text(bank.get("algo-03"), PLAIN["en"], "en"))
    assert "? 5 of your sentences matched no key point: the offline examiner may not know their wording." in plain
    assert "matched no key point" not in interim_feedback(grade_text(bank.get("algo-03"), TEXTBOOK, "en"))
