"""TUI fixtures: the app on the small demo bank, a temporary store and a frozen clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.config import Config
from interviewer.tui.app import InterviewerApp
from interviewer.tui.services import Services
from tests.conftest import FIXTURES
from tests.llm.conftest import fake_llm  # noqa: F401  (the local fake model server, for TUI tests with a model)


async def settle_home(pilot) -> None:  # type: ignore[no-untyped-def]
    """Until Home has loaded the bank (its loader starts on a timer after the first paint) and workers are done."""
    for _ in range(200):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        status = pilot.app.screen.query("#home-status")
        if not status or str(status.first().render()).strip():
            return
        await pilot.pause(0.05)


class FrozenClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def services(tmp_path: Path) -> Services:
    config = Config(data_dir=tmp_path / "home")
    return Services(config, [FIXTURES], include_builtin=False, clock=FrozenClock())


@pytest.fixture
def make_app(services: Services):  # type: ignore[no-untyped-def]
    def make() -> InterviewerApp:
        return InterviewerApp(services=services)

    return make
