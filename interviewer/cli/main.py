"""The `interviewer` command line: a thin shell over the bank, engine and store.

Heavy modules (Textual, litellm) are imported inside the commands that need
them, so `interviewer list` or `grade` start fast and never touch the network.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from interviewer import __version__
from interviewer.bank.loader import Bank, BankError, BankProblem, collect, load_bank
from interviewer.bank.models import LANGS
from interviewer.config import Config, ConfigError, load_config
from interviewer.i18n import set_language, word

LANG = click.Choice(list(LANGS))
TRACK = click.Choice(["algorithm", "infrastructure"])


class Ctx:
    """What every command shares: the data directory, config and extra banks."""

    def __init__(self, data_dir: Path | None, banks: tuple[Path, ...]) -> None:
        try:
            self.config: Config = load_config(data_dir)
        except ConfigError as exc:
            raise click.ClickException(str(exc)) from None
        set_language(self.config.lang)  # commands with --lang, and interviews, switch to their own
        self.extra_banks = [*self.config.banks, *banks]
        self._bank: Bank | None = None

    def bank(self) -> Bank:
        if self._bank is None:
            try:
                self._bank = load_bank(self.extra_banks)
            except BankError as exc:
                raise click.ClickException("the question bank has problems:\n" + str(exc)) from None
        return self._bank

    def question(self, qid: str) -> Any:
        bank = self.bank()
        if qid not in bank:
            raise click.BadParameter(f"unknown question id {qid!r} (see `interviewer list`)", param_hint="ID")
        return bank.get(qid)


pass_ctx = click.make_pass_decorator(Ctx)


class SafeGroup(click.Group):
    """Error messages built from outside text (a server's error body) are sanitised for the terminal."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            from interviewer.console import safe
            from interviewer.examiners.llm.errors import redact

            exc.message = safe(redact(exc.message))  # type: ignore[misc]
            raise
        except Exception as exc:
            from interviewer.storage.db import StoreError

            if isinstance(exc, StoreError):  # a full or read-only disk: the message names the path and the cause
                raise click.ClickException(str(exc)) from None
            raise


@click.group(cls=SafeGroup, invoke_without_command=True)
@click.version_option(__version__, prog_name="interviewer")
@click.option("-v", "--verbose", count=True, help="Log to stderr (-v info, -vv debug). Env: INTERVIEWER_LOG=LEVEL.")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="INTERVIEWER_HOME",
    help="Directory for all app state (default: the platform's user data dir). Env: INTERVIEWER_HOME.",
)
@click.option(
    "--bank",
    "banks",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Extra directory of question files, added to the built-in bank (repeatable).",
)
@click.pass_context
def cli(ctx: click.Context, verbose: int, data_dir: Path | None, banks: tuple[Path, ...]) -> None:
    """Mock interviews for RL research and RL-infrastructure roles.

    With no command, opens the interactive app.
    """
    if verbose:
        from interviewer.console import setup_logging

        setup_logging(verbose)
    ctx.obj = Ctx(data_dir, banks)
    if ctx.invoked_subcommand is None:
        from interviewer.cli.commands_run import launch_tui

        launch_tui(ctx.obj)


@cli.command("list")
@click.option("--track", type=TRACK, help="Only this track.")
@click.option("--lang", type=LANG, default=None, help="Language of the question text in the table.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@pass_ctx
def list_cmd(c: Ctx, track: str | None, lang: str | None, fmt: str) -> None:
    """List the questions in the bank."""
    lang = lang or c.config.lang
    questions = [q for q in c.bank().questions if track is None or q.track == track]
    if fmt == "json":
        out = [
            {
                "id": q.id,
                "track": q.track,
                "topics": q.topics,
                "difficulty": q.difficulty,
                "text": q.text.model_dump(),
                "has_rubric": q.rubric is not None,
            }
            for q in questions
        ]
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    tracks = {q.track: word(q.track, lang) for q in questions}
    width = max((len(t) for t in tracks.values()), default=0)
    for q in questions:
        click.echo(f"{q.id:10s} {tracks[q.track]:{width}s}  {q.text.get(lang)}")


@cli.command()
@click.argument("qid", metavar="ID")
@click.option("--lang", type=LANG, default=None)
@pass_ctx
def show(c: Ctx, qid: str, lang: str | None) -> None:
    """Show one question (the rubric stays hidden: it is revealed with feedback)."""
    q = c.question(qid)
    lang = lang or c.config.lang
    click.echo(f"{q.id} · {word(q.track, lang)} · {word(q.difficulty, lang)} · {', '.join(q.topics)}")
    click.echo()
    click.echo(q.text.get(lang))


@cli.group()
def bank() -> None:
    """Work with question files."""


@bank.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@pass_ctx
def bank_validate(c: Ctx, paths: tuple[Path, ...]) -> None:
    """Validate question files or directories (default: the built-in bank and configured banks).

    Exit 0 when valid; otherwise exit 1 with one line per problem: `file: field.path: message`.
    """
    from interviewer.bank.loader import builtin_bank_dir

    targets = list(paths) or [builtin_bank_dir(), *c.extra_banks]
    loaded, problems = collect(targets)
    if paths:  # the ids must also be unique against the banks they will be loaded with
        chosen = {p.resolve() for p in paths}
        others, _ = collect([d for d in [builtin_bank_dir(), *c.extra_banks] if d.resolve() not in chosen])
        for q in loaded.questions:
            if q.id in others.sources:
                problems.append(BankProblem(str(loaded.sources[q.id]), "id",
                                            f"duplicate id {q.id!r} (also in {others.sources[q.id]})"))
    from interviewer.bank.lexicon import LexiconProblem, builtin_lexicon

    try:  # cues of any bank may name concepts of the shipped lexicon: it must be readable too
        concepts = len(builtin_lexicon().concepts)
    except LexiconProblem as exc:
        concepts = 0
        problems.extend(BankProblem(str(exc.path), where, msg) for where, msg in exc.items)
    for p in problems:
        click.echo(str(p))
    if problems:
        click.echo(f"{len(problems)} problem(s) found", err=True)
        sys.exit(1)
    click.echo(f"ok: {len(loaded)} question(s) valid; concept lexicon: {concepts} concept(s)")


def main() -> None:
    """Console-script entry point."""
    from interviewer.cli import (  # noqa: F401 - register commands
        commands_doctor,
        commands_eval,
        commands_grade,
        commands_history,
        commands_run,
        commands_serve,
    )
    from interviewer.console import install, setup_logging

    install()
    setup_logging()
    cli(prog_name="interviewer")
