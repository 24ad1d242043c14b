"""The installed wheel finds its data; the offline paths never import litellm."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_wheel_ships_bank_and_prompts(tmp_path: Path) -> None:
    wheel_dir, target = tmp_path / "wheel", tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheel_dir), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next(wheel_dir.glob("interviewer-*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    code = (
        "import interviewer, json;"
        "from interviewer.bank.loader import builtin_bank_dir, load_bank;"
        "from pathlib import Path;"
        f"d = builtin_bank_dir(); assert str(d).startswith({str(target)!r}), d;"
        "assert (Path(interviewer.__file__).parent / 'prompts').is_dir();"
        "from interviewer.i18n import tr, LOCALE_DIR;"
        f"assert str(LOCALE_DIR).startswith({str(target)!r}), LOCALE_DIR;"
        "assert (LOCALE_DIR / 'ja' / 'LC_MESSAGES' / 'interviewer.mo').is_file();"
        "assert tr('Score', 'ja') == 'スコア' and tr('Score', 'it') == 'Punteggio';"
        "from interviewer.eval_set import builtin_set, parse_set;"
        "label, text = builtin_set(); assert len(parse_set(label, text, load_bank())) == 210;"
        "from interviewer.bank.lexicon import builtin_lexicon, builtin_lexicon_path;"
        f"assert str(builtin_lexicon_path()).startswith({str(target)!r}) and len(builtin_lexicon().concepts) > 100;"
        "from interviewer.examiners.offline.resemblance import EXEMPLARS;"
        f"assert str(EXEMPLARS).startswith({str(target)!r}) and EXEMPLARS.is_file(), EXEMPLARS;"
        "print(len(load_bank()))"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "35"


def test_offline_paths_do_not_import_litellm() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from interviewer.cli.main import cli, main\n"
        "import interviewer.cli.commands_grade, interviewer.cli.commands_run\n"
        "r = CliRunner().invoke(cli, ['grade', '-q', 'algo-05', '--answer', 'baseline reduces variance'])\n"
        "assert r.exit_code == 0, r.output\n"
        "r = CliRunner().invoke(cli, ['list', '--format', 'json'])\n"
        "print('litellm' in sys.modules, 'textual' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False False"


def test_readme_and_ci_install_only_from_the_lock() -> None:
    """The README's test quickstart and .ci/run install the same way: a pinned pip, the hashed lock, then
    the package built without an isolated (unhashed) build environment; and both run the same test command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    pip_first = "python -m pip install --require-hashes -r requirements-pip.lock && "
    assert pip_first + "pip install --require-hashes -r requirements.lock && pip install --no-deps --no-build-isolation . &&" in readme
    quick = "pip install --require-hashes -r requirements.lock && pip install --no-deps --no-build-isolation -e . && python -m pytest"
    assert pip_first + quick in readme
    assert "\npython -m pytest\n" in ci
    assert [line.split("  #")[0] for line in ci.splitlines() if "pip install" in line and not line.lstrip().startswith("#")] == [
        "python -m pip install -q --require-hashes -r requirements-pip.lock",
        "python -m pip install -q --require-hashes -r requirements.lock",
        "python -m pip install -q --no-deps --no-build-isolation -e .",
    ]
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert "\nhatchling==" in lock and "\neditables==" in lock
    pins = [line for line in (ROOT / "requirements-pip.lock").read_text(encoding="utf-8").splitlines() if line and line[0] != "#"]
    assert pins[0].startswith("pip==") and "--hash=sha256:" in pins[1]
