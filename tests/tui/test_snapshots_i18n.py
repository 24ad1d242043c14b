"""Home, Interview, Feedback and Summary in English, Italian and Japanese, at 120x40 and 80x24.

A full rubric (a frozen copy of algo-05 in tests/data/i18n_bank, so rubric
edits in the bank do not churn these pictures) so the feedback table is long:
the Japanese one must wrap by display width, keep Latin identifiers whole and
never cut a statement or quote with "…". The grades are the matcher's alone (no graded
examples), so rebuilding exemplars.npz does not churn them either.
Update after an intended change with `pytest tests/tui --snapshot-update`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from interviewer.config import Config
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.examiners.offline import resemblance
from interviewer.examiners.offline.examiner import OfflineExaminer, grade_text
from interviewer.tui.app import InterviewerApp
from interviewer.tui.screens.feedback import FeedbackScreen
from interviewer.tui.screens.interview import InterviewScreen
from interviewer.tui.screens.summary import SummaryScreen
from interviewer.tui.services import Services
from tests.conftest import FIXTURES, ROOT
from tests.tui.conftest import FrozenClock, settle_home

I18N_BANK = ROOT / "tests" / "data" / "i18n_bank"


@pytest.fixture(autouse=True)
def _without_examples(tmp_path: Path) -> Iterator[None]:
    resemblance.use_exemplars(tmp_path / "none.npz")
    yield
    resemblance.use_exemplars(None)


SIZES = [(120, 40), (80, 24)]
LANGS = ["en", "it", "ja"]
QUESTION = "algo-05"
ANSWERS = {
    "en": (
        "PPO uses a critic and GAE: the TD error delta_t = r_t + gamma V(s_{t+1}) - V(s_t), summed with weights "
        "(gamma*lambda)^l; lambda trades bias for variance. GRPO drops the critic and normalises rewards within a "
        "group: A_i = (r_i - mean) / std. Subtracting a baseline keeps the gradient unbiased and reduces variance."
    ),
    "it": (
        "PPO usa un critic e la GAE: l'errore TD delta_t = r_t + gamma V(s_{t+1}) - V(s_t), sommato con pesi "
        "(gamma*lambda)^l; lambda bilancia bias e varianza. GRPO elimina il critic e normalizza le ricompense nel "
        "gruppo: A_i = (r_i - media) / std. Sottrarre una baseline lascia il gradiente non distorto e riduce la varianza."
    ),
    "ja": (
        "PPO はクリティックと GAE を使い、TD 誤差 δ_t = r_t + γV(s_{t+1}) − V(s_t) を (γλ)^l の重みで足し合わせる。"
        "λ はバイアスと分散のトレードオフを決める。GRPO はクリティックを使わず、グループ内で報酬を正規化し、"
        "A_i = (r_i − mean) / std とする。ベースラインを引いても勾配は不偏のままで、分散は下がる。"
        "vLLM では gpu_memory_utilization を 0.9 にして KVキャッシュを確保する。"
    ),
}
FOLLOW = {"en": "And the std normalisation?", "it": "E la normalizzazione std?", "ja": "標準偏差の正規化は必要？"}


@pytest.fixture
def real_services(tmp_path: Path) -> Services:
    """A two-question bank and a temporary store; the language comes from config, as for a user."""
    return Services(Config(data_dir=tmp_path / "home"), [I18N_BANK, FIXTURES], include_builtin=False, clock=FrozenClock())


def _app(services: Services, lang: str) -> InterviewerApp:
    services._config = Config(data_dir=services.config.data_dir, lang=lang)
    return InterviewerApp(services=services)


def _record(lang: str, ids: list[str]) -> SessionRecord:
    return SessionRecord(
        id="20260101-090001-abc001",
        created_at="2026-01-01T09:00:00+00:00",
        plan=Plan(question_ids=ids, follow_ups=1, lang=lang),
    )


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_home(snap_compare, real_services, lang, size) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_app(real_services, lang), terminal_size=size, run_before=settle_home)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_interview(snap_compare, real_services, lang, size) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_home(pilot)
        services = real_services
        iv = Interview(_record(lang, [QUESTION]), services.bank(), OfflineExaminer(), services.store())
        await pilot.app.push_screen(InterviewScreen(services, iv))
        await pilot.pause()
        pilot.app.screen.query_one("#answer").text = ANSWERS[lang]
        await pilot.press("ctrl+s")
        await settle_home(pilot)
        answer = pilot.app.screen.query_one("#answer")
        answer.text = FOLLOW[lang]
        answer.cursor_blink = False  # a blinking cursor makes the picture depend on timing
        await pilot.pause()

    assert snap_compare(_app(real_services, lang), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_feedback(snap_compare, real_services, lang, size) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_home(pilot)
        q = real_services.bank().get(QUESTION)
        await pilot.app.push_screen(FeedbackScreen(grade_text(q, ANSWERS[lang], lang), q))
        await pilot.pause()

    assert snap_compare(_app(real_services, lang), terminal_size=size, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_feedback_scrolled_80x24(snap_compare, real_services, lang) -> None:  # type: ignore[no-untyped-def]
    """The rest of the full rubric at 80x24, one page down: still whole sentences, no "…"."""

    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_home(pilot)
        q = real_services.bank().get(QUESTION)
        await pilot.app.push_screen(FeedbackScreen(grade_text(q, ANSWERS[lang], lang), q))
        await pilot.pause()
        await pilot.press("pagedown")
        await pilot.pause()

    assert snap_compare(_app(real_services, lang), terminal_size=(80, 24), run_before=run)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_summary(snap_compare, real_services, lang, size) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_home(pilot)
        services = real_services
        iv = Interview(_record(lang, [QUESTION, "demo-01"]), services.bank(), OfflineExaminer())
        await iv.submit_answer(ANSWERS[lang])
        await iv.stop_probing()
        iv.advance()
        await iv.skip()
        iv.advance()
        await pilot.app.push_screen(SummaryScreen(services, iv.record))
        await pilot.pause()

    assert snap_compare(_app(real_services, lang), terminal_size=size, run_before=run)
