"""The language chosen on Home applies to the whole app at once: labels, footer, palette, later screens."""

from __future__ import annotations

from textual.widgets import Button, Label, Static

from interviewer.i18n import get_language
from interviewer.tui.app import InterviewerApp
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.screens.interview import InterviewScreen
from interviewer.tui.services import Services
from interviewer.tui.widgets import Choice


def footer_descriptions(app: InterviewerApp) -> set[str]:
    return {b.description for _node, b, _enabled, _tip in app.screen.active_bindings.values() if b.show}


def palette_titles(app: InterviewerApp) -> set[str]:
    return {c.title for c in app.get_system_commands(app.screen)}


async def test_choosing_japanese_on_home_switches_everything(make_app, services: Services) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert {"Start", "Resume", "History", "Quit", "Help"} <= footer_descriptions(app)
        assert "History" in palette_titles(app)

        home.query_one("#lang", Choice).value = "ja"
        await pilot.pause()
        assert get_language() == "ja"
        assert {"開始", "再開", "履歴", "終了", "ヘルプ"} <= footer_descriptions(app)
        assert {"履歴", "終了", "テーマ", "キー操作"} <= palette_titles(app)
        assert home.query_one("#label-mode", Label).render().plain == "モード"  # type: ignore[union-attr]
        assert str(home.query_one("#start", Button).label) == "開始"
        assert "質問" in home.query_one("#home-status", Static).render().plain  # type: ignore[union-attr]
        assert home.query_one("#mode", Choice).render().plain == "◂ 面接 ▸"

        # a screen opened later starts out in Japanese: the interview, then the quit dialog
        await pilot.press("ctrl+s")
        await pilot.pause()
        interview = app.screen
        assert isinstance(interview, InterviewScreen)
        assert {"送信", "スキップ", "わからない"} <= footer_descriptions(app)
        assert "今すぐ採点" not in footer_descriptions(app)  # Grade now: once there is an answer to grade
        assert interview.query_one("#answer").border_title == "あなたの回答 · Ctrl+Sで送信"
        assert "質問 1/" in interview.status_text()
        interview.query_one("#answer").text = "下書き"  # type: ignore[attr-defined]
        await pilot.pause()
        assert "今すぐ採点" in footer_descriptions(app)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert str(app.screen.query_one("#yes", Button).label) == "終了（y）"
        await pilot.press("n")
        await pilot.pause()

    async with make_app().run_test(size=(100, 30)) as pilot:
        # remembered on Home: the next start is Japanese again, and switching back restores English
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert get_language() == "ja"
        pilot.app.screen.query_one("#lang", Choice).value = "en"
        await pilot.pause()
        assert {"Start", "Quit"} <= footer_descriptions(pilot.app)
        assert "History" in palette_titles(pilot.app)


async def test_lang_flag_wins_over_the_remembered_choice(services: Services) -> None:
    services.store().set_setting("home", {"lang": "ja"})
    app = InterviewerApp(services=services, lang="it")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert get_language() == "it"
        assert app.screen.query_one("#lang", Choice).value == "it"
        assert {"Inizia", "Esci"} <= footer_descriptions(app)
