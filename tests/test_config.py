"""config.toml: what the app writes back (the theme) keeps the user's file intact."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interviewer.config import ConfigError, load_config, write_setting
from interviewer.examiners.factory import ExaminerChoice


def test_write_setting_changes_one_line_and_keeps_comments(tmp_path: Path) -> None:
    text = '# my settings\nlang = "it"  # interview language\ntheme = "dark"\n\n[extra]\nnote = 1\n'
    (tmp_path / "config.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.toml: extra: Extra inputs are not permitted; not changed"):
        write_setting(tmp_path, "theme", "light")  # the file was already invalid: left as it is
    assert (tmp_path / "config.toml").read_text(encoding="utf-8") == text
    text = text.replace("\n[extra]\nnote = 1\n", "")
    (tmp_path / "config.toml").write_text(text, encoding="utf-8")
    write_setting(tmp_path, "theme", "light")
    assert (tmp_path / "config.toml").read_text(encoding="utf-8") == text.replace('theme = "dark"', 'theme = "light"')
    assert load_config(tmp_path).theme == "light" and load_config(tmp_path).lang == "it"


def test_write_setting_adds_the_key_before_any_table_and_creates_the_file(tmp_path: Path) -> None:
    write_setting(tmp_path / "new", "theme", "light")
    assert (tmp_path / "new" / "config.toml").read_text(encoding="utf-8") == 'theme = "light"\n'
    assert not [p for p in (tmp_path / "new").iterdir() if p.name != "config.toml"]  # no temporary file left


def test_write_setting_refuses_a_value_the_config_rejects(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"theme: Input should be 'dark' or 'light'; not changed"):
        write_setting(tmp_path, "theme", "sepia")
    assert not (tmp_path / "config.toml").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_write_setting_on_a_read_only_directory_names_the_file(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(ConfigError, match=r"config.toml: cannot write"):
            write_setting(tmp_path, "theme", "light")
    finally:
        tmp_path.chmod(0o700)


@given(st.lists(st.sampled_from(['lang = "ja"', "# a comment", "", "follow_ups = 3", 'model = "x/y"  # trailing']), max_size=6),
       st.sampled_from(["dark", "light"]))
def test_write_setting_keeps_every_other_setting(lines: list[str], theme: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        unique = list(dict.fromkeys(lines))  # TOML forbids a key twice
        (home / "config.toml").write_text("\n".join(unique), encoding="utf-8")
        before = tomllib.loads((home / "config.toml").read_text(encoding="utf-8"))
        write_setting(home, "theme", theme)
        after = tomllib.loads((home / "config.toml").read_text(encoding="utf-8"))
        assert after == {**before, "theme": theme}


def test_samples_comes_from_the_config(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("samples = 3\n", encoding="utf-8")
    assert ExaminerChoice.from_config(load_config(tmp_path)).samples == 3
    (tmp_path / "config.toml").write_text("samples = 12\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.toml: samples: Input should be less than or equal to 9"):
        load_config(tmp_path)
