"""History commands: resume, history, report, export, import, stats, review."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from interviewer.cli.commands_grade import build_examiner, examiner_options
from interviewer.cli.commands_run import PlainIO, run_plain
from interviewer.cli.main import LANG, Ctx, cli, pass_ctx
from interviewer.console import json_text, safe
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan, SessionRecord
from interviewer.reports import report_html, report_json, report_markdown, session_summary, sparkline, stats
from interviewer.storage.db import SessionBusy, Store, StoreError, open_store


@contextmanager
def store_of(c: Ctx) -> Iterator[Store]:
    try:
        store = open_store(c.config.data_dir, read_only_ok=True)  # history and reports work on a read-only disk
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        yield store
    finally:
        store.close()


def _load(store: Store, session_id: str) -> SessionRecord:
    if session_id == "last":  # the newest interview, so `report last` works without copying an id
        records = store.sessions()
        if not records:
            raise click.BadParameter("there are no interviews yet (see `interviewer history`)", param_hint="ID")
        return records[-1]
    try:
        return store.load_session(session_id)
    except KeyError:
        raise click.BadParameter(f"no interview with id {session_id!r} (see `interviewer history`)", param_hint="ID") from None


def _interactive(c: Ctx, interview: Interview, store: Store, fmt: str) -> None:
    io = PlainIO(json_mode=fmt == "json")

    async def go() -> None:
        try:
            await run_plain(interview, io, sys.stdin)
        finally:
            await interview.examiner.aclose()

    asyncio.run(go())
    if fmt == "json":
        click.echo(interview.record.model_dump_json(indent=2))


@cli.command()
@click.argument("session_id", metavar="[ID]", required=False)
@examiner_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pass_ctx
def resume(c: Ctx, session_id: str | None, examiner_kind: str | None, model: str | None, api_base: str | None, fmt: str) -> None:
    """Continue an unfinished interview (the latest one without ID), in plain mode."""
    with store_of(c) as store:
        record = _load(store, session_id) if session_id else store.latest_unfinished()
        if record is None:
            raise click.ClickException("there is no unfinished interview to resume")
        if record.finished:
            raise click.ClickException(f"interview {record.id} is already finished")
        examiner = build_examiner(c, examiner_kind, model, api_base)
        try:
            interview = Interview(record, c.bank(), examiner, store)
        except KeyError as exc:
            raise click.ClickException(f"interview {record.id} uses questions no longer in the bank: {exc}") from None
        except SessionBusy as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"Resuming interview {record.id} at question {interview.index + 1}/{len(record.questions)}", err=fmt == "json")
        try:
            _interactive(c, interview, store, fmt)
        except SessionBusy as exc:
            raise click.ClickException(str(exc)) from None


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@pass_ctx
def history(c: Ctx, fmt: str) -> None:
    """Past interviews, oldest first."""
    with store_of(c) as store:
        records = store.sessions()
    if fmt == "json":
        click.echo(json_text([session_summary(r) for r in records], indent=2))
        return
    if not records:
        click.echo("no interviews yet: start one with `interviewer` or `interviewer run --plain`")
        return
    for r in records:
        score = f"{r.overall():4.1f}" if r.overall() is not None else "  - "
        state = "done" if r.finished else "open"
        qs = ",".join(q.question_id for q in r.questions)
        click.echo(f"{r.id}  {r.created_at[:16]}  {r.plan.mode:9s} {state}  {score}/10  {r.examiner:10s} {qs}")


@cli.command()
@click.argument("session_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(["md", "html", "json"]), default="md", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to FILE instead of stdout.")
@pass_ctx
def report(c: Ctx, session_id: str, fmt: str, output: Path | None) -> None:
    """A report of one interview: Markdown, a self-contained HTML file, or JSON.

    ID is an id from `interviewer history`, or `last` for the newest interview.
    """
    with store_of(c) as store:
        record = _load(store, session_id)
    bank = c.bank()
    text = {"md": lambda: report_markdown(record, bank), "html": lambda: report_html(record, bank), "json": lambda: report_json(record)}[fmt]()
    if fmt == "md":  # read in terminals and pagers: no escape sequences from model or server text
        text = safe(text)
    if output:
        output.write_text(text, encoding="utf-8")
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text)


@cli.command("export")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True)
@pass_ctx
def export_cmd(c: Ctx, output: str) -> None:
    """A JSON backup of everything (interviews, settings)."""
    with store_of(c) as store:
        data = json_text(store.export_all(), indent=1)
    if output == "-":
        click.echo(data)
    else:
        Path(output).write_text(data, encoding="utf-8")
        click.echo(f"wrote {output}", err=True)


@cli.command("import")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@pass_ctx
def import_cmd(c: Ctx, path: str) -> None:
    """Merge a JSON backup made by `export` (safe to repeat)."""
    try:
        raw = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        data = json.loads(raw)
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read {path}: {exc}", param_hint="PATH") from None
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}", param_hint="PATH") from None
    with store_of(c) as store:
        try:
            n = store.import_all(data)
        except StoreError as exc:
            raise click.ClickException(f"{path}: {exc}") from None
        except ValueError as exc:
            raise click.ClickException(f"{path}: invalid backup: {exc}") from None
    click.echo(f"imported {n} interview(s)")


@cli.command("stats")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pass_ctx
def stats_cmd(c: Ctx, fmt: str) -> None:
    """Averages per track and topic, the trend, and how many questions are due."""
    with store_of(c) as store:
        data = stats(store.sessions(), c.bank(), len(store.due()))
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    for title, key in (("Tracks", "tracks"), ("Topics", "topics")):
        click.echo(f"{title}:")
        for name, v in data[key].items():
            click.echo(f"  {name:28s} {v['mean']:5.2f}/10  (n={v['n']})")
    scores = [t["score"] for t in data["trend"]]
    click.echo(f"Trend: {sparkline(scores)}  ({len(scores)} interview(s))")
    click.echo(f"Due for review: {data['due']}")


@cli.command()
@click.option("--count", type=click.IntRange(1, 50), default=5, show_default=True)
@click.option("--lang", type=LANG, default=None)
@click.option("--follow-ups", type=click.IntRange(0, 10), default=None)
@examiner_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pass_ctx
def review(
    c: Ctx, count: int, lang: str | None, follow_ups: int | None, examiner_kind: str | None, model: str | None, api_base: str | None, fmt: str
) -> None:
    """Review the questions due by spaced repetition, weakest first (plain mode)."""
    with store_of(c) as store:
        due = [qid for qid, _, _ in store.due() if qid in c.bank()][:count]
        if not due:
            click.echo("nothing is due for review")
            return
        plan = Plan(
            question_ids=due,
            lang=lang or c.config.lang,
            follow_ups=c.config.follow_ups if follow_ups is None else follow_ups,
            mode="review",
        )
        examiner = build_examiner(c, examiner_kind, model, api_base)
        interview = Interview.start(plan, c.bank(), examiner, store)
        _interactive(c, interview, store, fmt)
