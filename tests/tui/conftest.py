"""TUI fixtures: the app on the small demo bank, a temporary store and a frozen clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.config import Config
from interviewer.tui.app import InterviewerApp
from interviewer.tui.services import Services
from tests.conftest import FIXTURES


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
