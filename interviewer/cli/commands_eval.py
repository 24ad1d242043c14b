"""`interviewer eval`: grade a set of hand-graded answers with any examiner and report agreement.

It runs the same batch path as `grade --batch` (same concurrency, same
fallbacks), without follow-up probes (eval needs only the grades), then
compares the scores with the reference grades using `interviewer.evaluation`.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import click

from interviewer.batch import grade_batch
from interviewer.batch_parallel import grade_offline_parallel
from interviewer.cli.commands_grade import _Progress, build_examiner, examiner_options
from interviewer.cli.main import LANG, Ctx, cli, pass_ctx
from interviewer.eval_report import RunInfo, html_report, json_report, text_report
from interviewer.eval_set import SetError, builtin_set, parse_set, read_set
from interviewer.evaluation import Scored, agreement
from interviewer.textsafe import strip_control


def _shift(line: dict[str, object]) -> float:
    """How far offline resemblance moved a batch line's score (0 when it did not)."""
    shift = line.get("resemblance_shift")
    return float(shift) if isinstance(shift, int | float) else 0.0


@cli.command("eval")
@click.option("--set", "set_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="JSONL of graded answers: {id, question_id, answer, lang?, ref_score, kind?}. "
                   "Default: the built-in blind set (210 answers).")
@click.option("--lang", type=LANG, default=None, help="Language of lines without a lang field (default: config).")
@examiner_options
@click.option("--concurrency", type=click.IntRange(1, 256), default=4, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a self-contained HTML report (with the agreement plot) to this file.")
@pass_ctx
def eval_cmd(
    c: Ctx,
    set_file: Path | None,
    lang: str | None,
    examiner_kind: str | None,
    model: str | None,
    api_base: str | None,
    concurrency: int,
    fmt: str,
    output: Path | None,
) -> None:
    """Measure how well an examiner (offline, or your model) agrees with hand-graded answers.

    Run it once with your model before trusting its grades. Exit 0 when every answer was graded,
    1 when some could not be (they are left out of the figures), 2 on a bad set or option.
    """
    bank = c.bank()
    try:
        label, text = read_set(set_file) if set_file else builtin_set()
        items = parse_set(label, text, bank, lang or c.config.lang)
    except SetError as exc:
        raise click.UsageError(str(exc)) from None
    examiner = build_examiner(c, examiner_kind, model, api_base)
    samples = int(getattr(examiner, "samples", 1))
    progress = _Progress(len(items), enabled=sys.stderr.isatty())
    results: list[dict[str, object]] = []

    async def go() -> None:
        try:
            lines = [g.batch_line() for g in items]
            async for result in grade_batch(lines, bank, examiner, lang or c.config.lang, concurrency,
                                            progress.tick, follow_up=False):
                results.append(result)
        finally:
            await examiner.aclose()
            progress.close()

    t0 = time.perf_counter()
    # the offline examiner is CPU-bound: worker processes give the same lines as one process
    parallel = grade_offline_parallel(examiner, [g.batch_line() for g in items], bank, lang or c.config.lang,
                                      follow_up=False, on_done=progress.tick)
    if parallel is not None:
        results.extend(parallel)
        progress.close()
    else:
        asyncio.run(go())
    seconds = time.perf_counter() - t0
    scored: list[Scored] = []
    failed: list[tuple[str, str]] = []
    fallbacks = 0
    for g, r in zip(items, results, strict=True):
        if "error" in r:
            failed.append((g.id, str(r["error"])))
            continue
        score = r.get("score")
        assert isinstance(score, int | float)
        if examiner.name != "offline" and str(r.get("examiner")) == "offline":
            fallbacks += 1
        spread = r.get("spread")
        scored.append(Scored(g.id, g.question_id, g.lang, bank.get(g.question_id).track, g.ref, float(score), g.kind,
                             float(spread) if isinstance(spread, int | float) else None, bool(r.get("unjudged")),
                             _shift(r) > 0, _shift(r) < 0))
    usage = getattr(examiner, "usage", None)
    run = RunInfo(
        set_label=label,
        examiner=examiner.name,
        samples=samples,
        seconds=seconds,
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0)),
        completion_tokens=int(getattr(usage, "completion_tokens", 0)),
        cost_usd=getattr(usage, "cost_usd", 0.0),
        failed=failed,
        fallbacks=fallbacks,
    )
    if len(scored) < 3:
        first = f": {failed[0][1]}" if failed else ""
        raise click.ClickException(f"only {len(scored)} of {len(items)} answers could be graded{first}")
    a = agreement(scored)
    if fmt == "json":
        click.echo(json.dumps(json_report(a, scored, run)))  # ASCII: no raw control bytes from a set's ids
    else:
        click.echo(strip_control(text_report(a, scored, run)))
    if output is not None:
        try:
            output.write_text(html_report(a, scored, run), encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc}") from None
        click.echo(f"HTML report written to {output}", err=True)
    if failed:
        sys.exit(1)
