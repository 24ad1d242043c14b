"""Headless grading commands: `grade` (one answer or a JSONL batch) and `schema grade`."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import click

from interviewer.batch import (
    MAX_ANSWER_CHARS,
    GradeResult,
    InputError,
    Request,
    check_answer,
    grade_batch,
    grade_request,
    is_blank,
    read_lines,
)
from interviewer.batch_parallel import grade_offline_parallel
from interviewer.cli.main import LANG, Ctx, cli, pass_ctx
from interviewer.console import json_text
from interviewer.examiners.base import Examiner
from interviewer.examiners.errors import ExaminerError
from interviewer.examiners.factory import ExaminerChoice, ExaminerConfigError, make_examiner
from interviewer.examiners.grade import Grade
from interviewer.render import grade_text_report

EXAMINER = click.Choice(["offline", "llm"])


F = TypeVar("F", bound=Callable[..., Any])


def _keep_max_cost(ctx: click.Context, _param: click.Parameter, value: float | None) -> float | None:
    if value is not None:
        ctx.meta["interviewer.max_cost"] = value
    return value


def _keep_samples(ctx: click.Context, _param: click.Parameter, value: int | None) -> int | None:
    if value is not None:
        ctx.meta["interviewer.samples"] = value
    return value


def examiner_options(f: F) -> F:
    """--examiner, --model, --api-base, --max-cost and --samples, shared by every command that grades."""
    f = click.option("--samples", type=click.IntRange(1, 9), default=None, expose_value=False, metavar="K",
                     callback=_keep_samples,
                     help="LLM examiner: grade K times and keep each criterion's median; the spread is "
                          "shown as the grade's confidence (default: `samples` in config.toml, else 1).")(f)
    f = click.option("--max-cost", type=click.FloatRange(min=0), default=None, expose_value=False, metavar="USD",
                     callback=_keep_max_cost, help="Stop LLM calls once this much is spent (USD).")(f)
    f = click.option("--api-base", default=None, help="OpenAI-compatible base URL. Env: INTERVIEWER_API_BASE.")(f)
    f = click.option("--model", default=None, help="LiteLLM model, e.g. openai/gpt-4.1-mini. Env: INTERVIEWER_MODEL.")(f)
    f = click.option("--examiner", "examiner_kind", type=EXAMINER, default=None, help="Default: config, else offline.")(f)
    return f


def build_examiner(c: Ctx, kind: str | None, model: str | None, api_base: str | None) -> Examiner:
    choice = ExaminerChoice.from_config(c.config, kind, model, api_base)
    ctx = click.get_current_context(silent=True)
    max_cost = ctx.meta.get("interviewer.max_cost") if ctx is not None else None
    if max_cost is not None:
        choice.max_cost = max_cost
    samples = ctx.meta.get("interviewer.samples") if ctx is not None else None
    if samples is not None:
        choice.samples = samples
    try:
        return make_examiner(choice)
    except ExaminerConfigError as exc:
        raise click.UsageError(str(exc)) from None


def read_answer(answer: str | None, answer_file: str | None) -> str:
    if (answer is None) == (answer_file is None):
        raise click.UsageError("give exactly one of --answer TEXT or --answer-file FILE|-")
    if answer_file is not None:
        try:  # at most one character over the limit is read: /dev/zero or a huge file cannot exhaust memory
            if answer_file == "-":
                answer = sys.stdin.read(MAX_ANSWER_CHARS + 1)
            else:
                with open(answer_file, encoding="utf-8") as f:
                    answer = f.read(MAX_ANSWER_CHARS + 1)
        except (OSError, UnicodeDecodeError) as exc:
            raise click.BadParameter(f"cannot read {answer_file}: {exc}", param_hint="--answer-file") from None
        if len(answer) > MAX_ANSWER_CHARS:
            raise click.BadParameter(f"{answer_file} has more than {MAX_ANSWER_CHARS:,} characters; the limit is "
                                     f"{MAX_ANSWER_CHARS:,} (an interview answer, not a document)",
                                     param_hint="--answer-file")
    assert answer is not None
    try:
        return check_answer(answer)
    except InputError as exc:
        raise click.BadParameter(str(exc), param_hint="--answer") from None


@cli.command()
@click.option("--question", "-q", "qid", help="Question id, e.g. algo-05.")
@click.option("--answer", default=None, help="The answer text.")
@click.option("--answer-file", default=None, help="Read the answer from FILE, or - for stdin.")
@click.option("--batch", "batch_file", type=click.Path(dir_okay=False, allow_dash=True), help="JSONL file of answers.")
@click.option("--lang", type=LANG, default=None, help="Language of the answer (default: config).")
@examiner_options
@click.option("--concurrency", type=click.IntRange(1, 256), default=4, show_default=True,
              help="LLM examiner: answers graded at once.")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, metavar="N",
              help="Offline examiner: worker processes for a batch of 200 lines or more (default: the cores, at most 4).")
@click.option("--format", "fmt", type=click.Choice(["json", "text"]), default="json", show_default=True)
@pass_ctx
def grade(
    c: Ctx,
    qid: str | None,
    answer: str | None,
    answer_file: str | None,
    batch_file: str | None,
    lang: str | None,
    examiner_kind: str | None,
    model: str | None,
    api_base: str | None,
    concurrency: int,
    jobs: int | None,
    fmt: str,
) -> None:
    """Grade one answer (--question with --answer/--answer-file) or a JSONL batch (--batch).

    Batch lines: {"id", "question_id", "answer", "lang"?}. Output: one JSON line per input line,
    in order. Exit 1 if any line failed.
    """
    lang = lang or c.config.lang
    if batch_file:
        if qid or answer or answer_file:
            raise click.UsageError("--batch cannot be combined with --question/--answer/--answer-file")
        sys.exit(_run_batch(c, batch_file, lang, examiner_kind, model, api_base, concurrency, jobs))
    if not qid:
        raise click.UsageError("give --question ID with --answer/--answer-file, or --batch FILE")
    question = c.question(qid)
    if question.rubric is None:
        raise click.ClickException(f"question {qid} has no rubric to grade against")
    text = read_answer(answer, answer_file)
    examiner = build_examiner(c, examiner_kind, model, api_base)

    async def go() -> tuple[GradeResult, Grade]:
        try:
            return await grade_request(examiner, c.bank(), Request(qid, qid, text, lang))
        finally:
            await examiner.aclose()

    try:
        result, full = asyncio.run(go())
    except ExaminerError as exc:  # e.g. the model is unreachable: say what to fix, no traceback
        raise click.ClickException(str(exc)) from None
    if fmt == "json":
        click.echo(result.model_dump_json())
    else:
        click.echo(grade_text_report(full, question, follow_up=result.follow_up))


def _run_batch(
    c: Ctx, path: str, lang: str, kind: str | None, model: str | None, api_base: str | None, concurrency: int,
    jobs: int | None = None,
) -> int:
    """Grade a JSONL batch; print one line per record and a summary on stderr; return the exit code."""
    try:
        if path == "-":
            lines = read_lines(sys.stdin.buffer)
        else:
            with open(path, "rb") as f:
                lines = read_lines(f)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror or exc}", param_hint="--batch") from None
    bank = c.bank()
    examiner = build_examiner(c, kind, model, api_base)
    total = sum(1 for line in lines if not is_blank(line))
    progress = _Progress(total, enabled=examiner.name != "offline" and sys.stderr.isatty())
    by: Counter[str] = Counter()
    failed = 0

    def emit(result: dict[str, Any]) -> None:
        nonlocal failed
        if "error" in result:
            failed += 1
        else:
            by[str(result["examiner"])] += 1
        sys.stdout.write(json_text(result) + "\n")

    async def go() -> None:
        try:
            async for result in grade_batch(lines, bank, examiner, lang, concurrency, progress.tick):
                emit(result)
        finally:
            await examiner.aclose()
            progress.close()

    parallel = grade_offline_parallel(examiner, lines, bank, lang, jobs, on_done=progress.tick)
    if parallel is not None:
        for result in parallel:
            emit(result)
        progress.close()
    else:
        asyncio.run(go())
    fell_back = sum(n for name, n in by.items() if name != examiner.name)
    graded = ", ".join(f"{n} by {name}" for name, n in sorted(by.items(), key=lambda kv: kv[0] != examiner.name))
    summary = f"{failed} of {total} line(s) failed" if failed else f"{total} line(s) graded"
    if graded:
        summary += f"; graded {graded}" if failed else f": {graded}"
    if fell_back and examiner.name != "offline":
        summary += " (offline in place of the model: see each line's note)"
    click.echo(summary, err=True)
    return 1 if failed else 3 if fell_back and examiner.name != "offline" else 0


class _Progress:
    """A one-line progress bar on stderr (only for slow examiners on a terminal)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled

    def tick(self) -> None:
        self.done += 1
        if self.enabled:
            width = 30
            filled = int(width * self.done / max(1, self.total))
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


@cli.group()
def schema() -> None:
    """JSON schemas of the headless outputs."""


@schema.command("grade")
def schema_grade() -> None:
    """Print the JSON schema of one grade result."""
    click.echo(json.dumps(GradeResult.model_json_schema(), indent=2))
