"""Load question files (YAML or TOML) into validated models.

Errors are collected, not raised one at a time, so `bank validate` can list
every problem in one run, each naming the file and the field path.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from interviewer.bank.models import Question

SUFFIXES = (".yaml", ".yml", ".toml")
# libyaml's C loader is ~10x faster; the pure-Python one is the fallback.
_BASE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _YAML_LOADER(_BASE_LOADER):  # type: ignore[valid-type,misc]
    """Safe loading that refuses a key given twice in one mapping (YAML keeps the last silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[object, object]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                hash(key)
            except TypeError:  # `? [1, 2]` makes a list a key: refuse it with the line, not a traceback
                raise yaml.constructor.ConstructorError(
                    None, None, f"a key must be a plain value, not a {type(key).__name__}", key_node.start_mark
                ) from None
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        mapping: dict[object, object] = super().construct_mapping(node, deep=deep)
        return mapping


@dataclass(frozen=True)
class BankProblem:
    """One problem in one file: `file: field.path: message`."""

    file: str
    location: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.location}: {self.message}" if self.location else f"{self.file}: {self.message}"


class BankError(Exception):
    """Raised when a bank cannot be loaded; carries every problem found."""

    def __init__(self, problems: Sequence[BankProblem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class Bank:
    """The loaded questions, in bank order, with where each came from."""

    questions: list[Question] = field(default_factory=list)
    sources: dict[str, Path] = field(default_factory=dict)

    def get(self, question_id: str) -> Question:
        for q in self.questions:
            if q.id == question_id:
                return q
        raise KeyError(question_id)

    def ids(self) -> list[str]:
        return [q.id for q in self.questions]

    def __contains__(self, question_id: object) -> bool:
        return any(q.id == question_id for q in self.questions)

    def __len__(self) -> int:
        return len(self.questions)


def builtin_bank_dir() -> Path:
    """The shipped `question_bank/` (inside the wheel, or the source checkout)."""
    packaged = Path(str(resources.files("interviewer"))) / "question_bank"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "question_bank"


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _format_loc(loc: Iterable[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _humanize(msg: str) -> str:
    msg = msg.removeprefix("Value error, ")
    return msg.replace("Input should be", "must be").replace("String should", "must")


def parse_file(path: Path) -> tuple[dict[str, Any] | None, list[BankProblem]]:
    """Read one file into a plain mapping, or report its syntax error with the line."""
    name = _display(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [BankProblem(name, "", f"cannot read file: {exc}")]
    try:
        if path.suffix == ".toml":
            data: Any = tomllib.loads(raw)
        else:
            data = yaml.load(raw, Loader=_YAML_LOADER)
    except tomllib.TOMLDecodeError as exc:
        return None, [BankProblem(name, "", f"TOML syntax error: {exc}")]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "unknown line"
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, [BankProblem(name, "", f"YAML syntax error at {where}: {problem}")]
    if not isinstance(data, dict):
        return None, [BankProblem(name, "", "must contain a mapping of question fields at the top level")]
    return data, []


def load_question(path: Path) -> tuple[Question | None, list[BankProblem]]:
    """Parse and validate one question file."""
    data, problems = parse_file(path)
    if data is None:
        return None, problems
    try:
        question = Question.model_validate(data)
    except ValidationError as exc:
        name = _display(path)
        return None, [
            BankProblem(name, _format_loc(err["loc"]), _humanize(err["msg"])) for err in exc.errors()
        ]
    return question, _concept_problems(question, path)


def _concept_problems(question: Question, path: Path) -> list[BankProblem]:
    """Cues may name concepts of the shared lexicon (``@critic``); each must exist there."""
    from interviewer.bank.lexicon import LexiconProblem, builtin_lexicon, names_concepts, unknown_references

    if not names_concepts(question):  # most files: the lexicon is not even read
        return []
    try:
        lexicon = builtin_lexicon()
    except LexiconProblem as exc:
        return [BankProblem(_display(path), "cues", f"the concept lexicon cannot be read: {exc}")]  # names its file
    return [BankProblem(_display(path), where, msg) for where, msg in unknown_references(question, lexicon)]


def question_files(paths: Iterable[Path]) -> tuple[list[Path], list[BankProblem]]:
    """Expand directories into their question files, sorted by name."""
    files: list[Path] = []
    problems: list[BankProblem] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(f for f in p.iterdir() if f.suffix in SUFFIXES and f.is_file()))
        elif p.is_file():
            files.append(p)
        else:
            problems.append(BankProblem(str(p), "", "no such file or directory"))
    return files, problems


def load_bank(extra_dirs: Sequence[Path] = (), include_builtin: bool = True) -> Bank:
    """Load the built-in bank plus any user banks; raise BankError listing every problem."""
    dirs = ([builtin_bank_dir()] if include_builtin else []) + list(extra_dirs)
    bank, problems = collect(dirs)
    if problems:
        raise BankError(problems)
    return bank


def collect(paths: Sequence[Path]) -> tuple[Bank, list[BankProblem]]:
    """Load what can be loaded and return it with every problem found."""
    files, problems = question_files(paths)
    bank = Bank()
    for f in files:
        question, errs = load_question(f)
        problems.extend(errs)
        if question is None:
            continue
        if question.id in bank.sources:
            problems.append(
                BankProblem(
                    _display(f), "id", f"duplicate id {question.id!r} (also in {_display(bank.sources[question.id])})"
                )
            )
            continue
        bank.questions.append(question)
        bank.sources[question.id] = f
    bank.questions.sort(key=_order_key)
    return bank, problems


def _order_key(q: Question) -> tuple[int, str, int, str]:
    """Built-in order: algo-NN then infra-NN by number; other ids after, by name."""
    prefix, _, num = q.id.rpartition("-")
    track_rank = {"algo": 0, "infra": 1}.get(prefix, 2)
    return (track_rank, prefix, int(num) if num.isdigit() else 0, q.id)
