"""`interviewer run --plain`: the interview in a plain terminal, and the TUI launcher.

The plain mode reads answers from stdin until a line holding only `.` (or
EOF), so it works through pipes, for scripts and for screen readers. All text
it prints is stripped of control and escape sequences.
"""

from __future__ import annotations

import asyncio
import random
import sys
from typing import TextIO

import click

from interviewer.bank.loader import Bank
from interviewer.batch import MAX_ANSWER_CHARS
from interviewer.cli.commands_grade import build_examiner, examiner_options
from interviewer.cli.main import LANG, TRACK, Ctx, cli, pass_ctx
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.base import Examiner
from interviewer.examiners.grade import Grade
from interviewer.i18n import N_, _, set_language, tr
from interviewer.render import grade_text_report
from interviewer.storage.db import LazyStore, Store, StoreError, StoreFull, open_store
from interviewer.textsafe import strip_control

END_MARK = "."


def choose_questions(
    bank: Bank, ids: str | None, track: str | None, count: int | None, seed: int | None = None
) -> list[str]:
    """The questions for a plan: explicit ids, or a random pick from a track (or all)."""
    if ids:
        chosen = [i.strip() for i in ids.split(",") if i.strip()]
        unknown = [i for i in chosen if i not in bank]
        if unknown:
            raise click.BadParameter(f"unknown question id(s): {', '.join(unknown)}", param_hint="--questions")
        ungraded = [i for i in chosen if bank.get(i).rubric is None]
        if ungraded:
            raise click.BadParameter(f"no rubric to grade against for: {', '.join(ungraded)}", param_hint="--questions")
        return chosen[:count] if count else chosen
    pool = [q.id for q in bank.questions if q.rubric is not None and (track is None or q.track == track)]
    if not pool:
        raise click.UsageError("no gradable questions match: check --track and the bank")
    n = min(count or 3, len(pool))
    return sorted(random.Random(seed).sample(pool, n), key=pool.index)


PASS_COMMANDS = frozenset({":skip", ":idk"})


def read_answer(stream: TextIO, limit: int = MAX_ANSWER_CHARS) -> str | None:
    """Lines until one holding only `.`; None at EOF with nothing typed.

    A first line that is a pass command (`:skip`, `:idk`) is the whole answer: nobody
    types a `.` after it, and waiting for one looks like a hang.

    Past `limit` characters the rest is read but not kept (the caller refuses
    the answer), so a huge paste or pipe cannot exhaust memory.
    """
    lines: list[str] = []
    size = 0
    while True:
        line = stream.readline(limit + 2)
        if not line:
            break
        body = line.strip()
        if body == END_MARK:
            return "\n".join(lines)
        if not lines and body.lower() in PASS_COMMANDS:
            return body
        if size <= limit:
            text = line.rstrip("\r\n")
            lines.append(text)
            size += len(text) + 1
    return "\n".join(lines) if lines else None


class PlainIO:
    """Writes the conversation; to stderr when stdout carries JSON."""

    def __init__(self, json_mode: bool) -> None:
        self.out = sys.stderr if json_mode else sys.stdout

    def say(self, text: str = "", end: str = "\n") -> None:
        self.out.write(strip_control(text) + end)
        self.out.flush()


async def run_plain(interview: Interview, io: PlainIO, stdin: TextIO) -> None:
    """Drive the engine from stdin to the end of the interview (or EOF), in the interview's language."""
    set_language(interview.plan.lang)
    total = len(interview.record.questions)
    while not interview.finished:
        q = interview.question()
        if q is None:
            interview.finish()
            break
        io.say(f"\n[{interview.index + 1}/{total}] {q.id}")
        io.say(interview.question_text())
        io.say(_("(answer; end with a line containing only '{end}'; ':skip' or ':idk' to pass)").format(end=END_MARK))
        done = False
        grade: Grade | None = None
        while not done:
            answer = read_answer(stdin)
            if answer is None:
                io.say("\n" + _("(end of input: the interview is saved and can be resumed)"))
                return
            cmd = answer.strip().lower()
            if cmd in PASS_COMMANDS:
                grade = await (interview.skip() if cmd == ":skip" else interview.dont_know())
                done = True
            elif not cmd:
                io.say(_("(empty answer: type something, or ':skip')"))
                continue
            elif len(answer) > MAX_ANSWER_CHARS:
                io.say(_("(the answer has more than {limit:,} characters, the limit: shorten it and send it "
                         "again)").format(limit=MAX_ANSWER_CHARS))
                continue
            else:
                step = await interview.submit_answer(answer)
                if step.grade is not None and not step.question_done:
                    io.say(grade_text_report(step.grade, q))
                if step.probe is not None:
                    io.say("\n> ", end="")
                    async for chunk in step.probe:
                        io.say(chunk, end="")
                    io.say()
                    interview.probe_done(step.probe)
                    continue
                grade = step.grade
                done = True
            if grade is not None and (interview.plan.feedback == "each"):
                io.say()
                io.say(grade_text_report(grade, q))
        interview.advance()
    if interview.plan.feedback == "end":
        for qr in interview.record.questions:
            if qr.grade is not None:
                io.say()
                io.say(grade_text_report(qr.grade, interview.bank.get(qr.question_id)))
    overall = interview.record.overall()
    if overall is not None:
        io.say("\n" + _("Interview {id}: mean score {score}/10").format(id=interview.record.id, score=f"{overall:.1f}"))
    usage = interview.record.usage
    if interview.examiner.name != "offline" and (usage.prompt_tokens or usage.completion_tokens):
        cost = f"${usage.cost_usd:.4f}" if usage.cost_usd is not None else _("cost unknown")
        io.say(
            _("LLM usage: {prompt} prompt + {completion} completion tokens, {cost}").format(
                prompt=usage.prompt_tokens, completion=usage.completion_tokens, cost=cost
            )
        )


@cli.command()
@click.option("--plain", is_flag=True, help="Plain line mode (no TUI): pipes, scripts, screen readers.")
@click.option("--questions", "ids", help="Comma-separated question ids.")
@click.option("--track", type=TRACK, help="Pick questions from this track.")
@click.option("--count", type=click.IntRange(1, 100), default=None, help="How many questions (default 3).")
@click.option("--lang", type=LANG, default=None)
@click.option("--follow-ups", type=click.IntRange(0, 10), default=None, help="Follow-up probes per question.")
@click.option("--feedback", type=click.Choice(["each", "end"]), default="each", show_default=True)
@click.option("--mode", type=click.Choice(["interview", "drill"]), default="interview", show_default=True)
@click.option("--seed", type=int, default=None, help="Seed for the random question pick.")
@examiner_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pass_ctx
def run(
    c: Ctx,
    plain: bool,
    ids: str | None,
    track: str | None,
    count: int | None,
    lang: str | None,
    follow_ups: int | None,
    feedback: str,
    mode: str,
    seed: int | None,
    examiner_kind: str | None,
    model: str | None,
    api_base: str | None,
    fmt: str,
) -> None:
    """Run an interview (the TUI unless --plain).

    In the TUI, --questions, --track, --count, --follow-ups, --mode, --feedback, --seed and the examiner
    options start that interview at once; without them the app opens on Home to choose.
    """
    planned = any(v is not None for v in (ids, track, count, follow_ups, seed, examiner_kind, model, api_base)) or (
        feedback != "each" or mode != "interview")
    if not plain and not planned:
        launch_tui(c, lang)
        return
    plan = Plan(
        question_ids=choose_questions(c.bank(), ids, track, count, seed),
        lang=lang or c.config.lang,
        follow_ups=c.config.follow_ups if follow_ups is None else follow_ups,
        feedback=feedback,
        mode=mode,
    )
    examiner = build_examiner(c, examiner_kind, model, api_base)
    if not plain:
        launch_tui(c, lang or plan.lang, start=(plan, examiner))
        return
    io = PlainIO(json_mode=fmt == "json")
    store: Store | LazyStore
    try:
        store = open_store(c.config.data_dir)
    except StoreFull as exc:  # the interview goes on in memory and is saved once there is space (or rescued)
        io.say(f"[!] {exc}")
        store = LazyStore(c.config.data_dir)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    interview = Interview.start(plan, c.bank(), examiner, store, on_notice=lambda m: io.say(f"\n[!] {m}"))
    interview.slow_message = tr(N_("The model is slow, still waiting (Ctrl+C stops; everything you typed is saved)."),
                                  plan.lang)

    async def go() -> None:
        try:
            await run_plain(interview, io, sys.stdin)
        finally:
            await examiner.aclose()

    try:
        asyncio.run(go())
    finally:
        if interview.unsaved is not None and not interview.save():
            rescue(interview, io)
        store.close()
    if fmt == "json":
        click.echo(interview.record.model_dump_json(indent=2))


def rescue(interview: Interview, io: PlainIO) -> None:
    """The store still refuses the interview at exit: write it where the user says (or somewhere that works).

    On a terminal the user names the file; through a pipe INTERVIEWER_RESCUE_FILE, the current
    directory and the temp directory are tried in turn, and as a last resort the backup goes to stderr.
    """
    from interviewer.engine.rescue import (
        default_paths,
        refused_line,
        rescue_to_first,
        rescue_unattended,
        saved_line,
    )

    lang = interview.plan.lang
    io.say(_("\n[!] The interview could not be saved: {why}").format(why=interview.unsaved))
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        refused, backup_json, last = rescue_unattended(interview.record)
        for line in refused:
            io.say(line)
        if backup_json is not None:
            sys.stderr.write(backup_json + "\n")
        io.say(last)
        return
    while True:
        path = click.prompt(_("Save it to which file?"), default=default_paths(interview.record)[-1], err=True)
        written, failed = rescue_to_first(interview.record, [path])
        if written:
            io.say(saved_line(written, lang))
            return
        io.say(refused_line(path, failed[0][1], lang))


def launch_tui(c: Ctx, lang: str | None = None, start: tuple[Plan, Examiner] | None = None) -> None:
    """Open the Textual app (imported only now: the CLI stays fast without it), on Home or on `start`'s interview."""
    from interviewer.tui.app import InterviewerApp

    InterviewerApp(c.config, c.extra_banks, lang=lang, start=start).run_and_report()

