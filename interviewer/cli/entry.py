"""The `interviewer` entry point.

With no command (only --data-dir/--bank), the app opens without importing
click, pydantic or the bank first: they load after the first screen is drawn.
Anything else goes to the full command line in `interviewer.cli.main`.
"""

from __future__ import annotations

import sys
from pathlib import Path


def launch_tui_fast(argv: list[str]) -> bool:
    """Open the app straight away when the command line is only global options.

    Skips click, pydantic and the bank before the first paint (they load in a
    worker after it). Returns False when the arguments need the full CLI.
    """
    data_dir: Path | None = None
    banks: list[Path] = []
    args = list(argv)
    while args:
        opt = args.pop(0)
        name, eq, value = opt.partition("=")
        if name not in ("--data-dir", "--bank"):
            return False
        if not eq:
            if not args:
                return False
            value = args.pop(0)
        if name == "--data-dir":
            data_dir = Path(value)
        else:
            if not Path(value).is_dir():
                return False  # let click report the bad path
            banks.append(Path(value))
    from interviewer.console import setup_logging
    from interviewer.tui.app import InterviewerApp

    setup_logging()  # the app's warnings never reach the screen through Python's last-resort handler
    InterviewerApp(data_dir, banks).run_and_report()
    return True


def entry() -> None:
    """Console script and `python -m interviewer`."""
    if not launch_tui_fast(sys.argv[1:]):
        from interviewer.cli.main import main

        main()
