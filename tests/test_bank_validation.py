"""Broken question files give one clear line per problem: file, field path, message."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from interviewer.bank.loader import collect, load_question
from tests.conftest import FIXTURES, run_cli

VALID: dict[str, Any] = yaml.safe_load((FIXTURES / "demo-01.yaml").read_text(encoding="utf-8"))


def write(tmp_path: Path, doc: Any, name: str = "q.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(doc, allow_unicode=True) if not isinstance(doc, str) else doc, encoding="utf-8")
    return p


def test_fixture_is_valid() -> None:
    q, problems = load_question(FIXTURES / "demo-01.yaml")
    assert problems == [] and q is not None and q.rubric is not None


def test_zero_weight_names_field(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    doc["rubric"]["key_points"][2]["weight"] = 0
    _, problems = load_question(write(tmp_path, doc, "algo-03.yaml"))
    assert [str(p) for p in problems] == [
        f"{tmp_path / 'algo-03.yaml'}: rubric.key_points[2].weight: must be greater than 0"
    ]


def test_missing_field(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    del doc["track"]
    _, problems = load_question(write(tmp_path, doc))
    assert len(problems) == 1 and problems[0].location == "track" and "required" in problems[0].message.lower()


def test_wrong_type(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    doc["rubric"]["key_points"][0]["cues"]["en"] = "not a list"
    _, problems = load_question(write(tmp_path, doc))
    assert problems and problems[0].location == "rubric.key_points[0].cues.en"


def test_unknown_reference(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    doc["rubric"]["key_points"][0]["sources"] = ["nowhere"]
    _, problems = load_question(write(tmp_path, doc))
    assert problems and "nowhere" in problems[0].message


def test_the_same_source_cited_twice_is_an_error(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    twin = dict(doc["rubric"]["references"][0], id="the-same-again")
    doc["rubric"]["references"].append(twin)
    _, problems = load_question(write(tmp_path, doc))
    assert problems and problems[0].location == "rubric"
    assert "the-same-again" in problems[0].message and "the same source" in problems[0].message


def test_model_answer_points_must_match_the_lines_and_the_key_points(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    lines = len(doc["rubric"]["model_answer"]["en"])
    first = doc["rubric"]["key_points"][0]["id"]
    doc["rubric"]["model_answer_points"] = [[first]] * (lines + 1)
    _, problems = load_question(write(tmp_path, doc))
    assert problems and problems[0].location == "rubric" and "model_answer_points" in problems[0].message
    assert f"has {lines + 1} entries but model_answer.en has {lines} lines" in problems[0].message
    doc["rubric"]["model_answer_points"] = [[first]] * (lines - 1) + [["no-such-point"]]
    _, problems = load_question(write(tmp_path, doc))
    assert problems and "entry" in problems[0].message and "no-such-point" in problems[0].message
    doc["rubric"]["model_answer_points"] = [[first]] * (lines - 1) + [[]]
    _, problems = load_question(write(tmp_path, doc))
    assert problems and problems[0].location.startswith("rubric.model_answer_points")


def test_malformed_cue(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    doc["rubric"]["key_points"][0]["cues"]["it"] = ["grupp + + media"]
    _, problems = load_question(write(tmp_path, doc))
    assert problems and problems[0].location.startswith("rubric.key_points[0].cues.it")


def test_yaml_syntax_error_names_line(tmp_path: Path) -> None:
    p = write(tmp_path, "id: x\ntrack: [algorithm\ntopics: []\n")
    _, problems = load_question(p)
    assert len(problems) == 1 and "YAML syntax error at line" in problems[0].message


def test_toml_file_supported_and_syntax_error(tmp_path: Path) -> None:
    good = tmp_path / "t.toml"
    good.write_text(
        'id = "t-1"\ntrack = "algorithm"\ntopics = ["x"]\ndifficulty = "foundational"\n'
        '[text]\nen = "Q?"\nit = "D?"\nja = "質問？"\n',
        encoding="utf-8",
    )
    q, problems = load_question(good)
    assert problems == [] and q is not None and q.id == "t-1"
    bad = tmp_path / "b.toml"
    bad.write_text('id = "t-1\n', encoding="utf-8")
    _, problems = load_question(bad)
    assert "TOML syntax error" in problems[0].message and "line 1" in problems[0].message


def test_duplicate_ids(tmp_path: Path) -> None:
    write(tmp_path, VALID, "a.yaml")
    write(tmp_path, VALID, "b.yaml")
    bank, problems = collect([tmp_path])
    assert len(bank) == 1
    assert len(problems) == 1 and "duplicate id 'demo-01'" in problems[0].message and problems[0].location == "id"


def test_duplicate_with_builtin_is_an_error(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    doc["id"] = "algo-01"
    write(tmp_path, doc, "mine.yaml")
    r = run_cli("--bank", str(tmp_path), "list")
    assert r.returncode == 1 and "duplicate id 'algo-01'" in r.stderr and "Traceback" not in r.stderr


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


ALL_PATHS = _paths(VALID)
JUNK = st.one_of(st.none(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5), st.lists(st.integers(), max_size=2), st.booleans())


@given(path=st.sampled_from(ALL_PATHS), junk=JUNK, drop=st.booleans())
def test_any_mutation_reports_instead_of_crashing(tmp_path_factory: Any, path: tuple[Any, ...], junk: Any, drop: bool) -> None:
    doc = copy.deepcopy(VALID)
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    if drop and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = junk
    p = write(tmp_path_factory.mktemp("m"), doc)
    q, problems = load_question(p)
    assert (q is None) == bool(problems)
    for prob in problems:
        assert str(p) in str(prob) and prob.message


@given(text=st.text(max_size=200))
def test_arbitrary_text_never_crashes(tmp_path_factory: Any, text: str) -> None:
    p = tmp_path_factory.mktemp("t") / "x.yaml"
    p.write_text(text, encoding="utf-8")
    q, problems = load_question(p)
    assert q is None and problems


def test_cli_validate_builtin_ok() -> None:
    r = run_cli("bank", "validate")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "35 question(s) valid" in r.stdout


def test_cli_validate_broken_file(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    doc["rubric"]["key_points"][1]["weight"] = -1
    del doc["difficulty"]
    p = write(tmp_path, doc, "algo-03.yaml")
    r = run_cli("bank", "validate", str(p))
    assert r.returncode == 1
    lines = r.stdout.strip().splitlines()
    assert f"{p}: rubric.key_points[1].weight: must be greater than 0" in lines
    assert any(line.startswith(f"{p}: difficulty:") for line in lines)
    assert "Traceback" not in r.stderr


def test_cli_list_json_has_35_with_three_languages() -> None:
    r = run_cli("list", "--format", "json")
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert len(data) == 35
    for item in data:
        assert {"id", "track", "topics", "text"} <= item.keys()
        assert all(item["text"][lang] for lang in ("en", "it", "ja"))


def test_cli_list_filters_track_and_lang() -> None:
    r = run_cli("list", "--track", "infrastructure", "--lang", "ja")
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 16 and all(line.startswith("infra-") for line in lines)
    assert "VeRL、TRL" in r.stdout


def test_cli_list_names_the_whole_track_in_the_table_language() -> None:
    lines = run_cli("list", "--lang", "it").stdout.splitlines()
    assert lines[0].split()[:2] == ["algo-01", "algoritmi"] and lines[-1].split()[:2] == ["infra-16", "infrastruttura"]
    # the question texts start in one column, whatever the track's length
    starts = {len(re.match(r"\S+\s+\S+\s+", line).group(0)) for line in lines}  # type: ignore[union-attr]
    assert len(starts) == 1


def test_cli_show_unknown_id() -> None:
    r = run_cli("show", "nope-01")
    assert r.returncode == 2 and "unknown question id 'nope-01'" in r.stderr and "Traceback" not in r.stderr


def test_duplicate_yaml_key_is_an_error(tmp_path: Path) -> None:
    p = write(tmp_path, "id: a\ntrack: algorithm\nid: b\n")
    _, problems = load_question(p)
    assert len(problems) == 1 and "duplicate key 'id'" in problems[0].message and "line 3" in problems[0].message


def test_a_claim_is_a_plain_string_or_one_per_language(tmp_path: Path) -> None:
    doc = copy.deepcopy(VALID)
    doc["rubric"]["misconceptions"][0]["claim"] = "GRPO trains a critic."
    q, problems = load_question(write(tmp_path, doc))
    assert problems == [] and q is not None and q.rubric is not None
    assert q.rubric.misconceptions[0].claim.get("ja") == "GRPO trains a critic."  # English stands in
    doc["rubric"]["misconceptions"][0]["claim"] = {"en": "GRPO trains a critic.", "it": "GRPO addestra un critic."}
    q, problems = load_question(write(tmp_path, doc))
    assert problems == [] and q is not None and q.rubric is not None
    assert q.rubric.misconceptions[0].claim.get("it") == "GRPO addestra un critic."
    doc["rubric"]["misconceptions"][0]["claim"] = {"it": "GRPO addestra un critic."}
    _, problems = load_question(write(tmp_path, doc, "algo-04.yaml"))
    assert [p.location for p in problems] == ["rubric.misconceptions[0].claim.en"]
