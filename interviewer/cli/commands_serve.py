"""`interviewer serve`: the same app in a web browser, through textual-serve.

Each browser tab gets its own app process (textual-serve runs the command per
websocket), all on this data directory. There is no login, so it binds to
loopback unless told otherwise, and says what that means when it is.
"""

from __future__ import annotations

import ipaddress
import shlex
import sys
from typing import Any

import click

from interviewer.cli.main import Ctx, cli, pass_ctx
from interviewer.i18n import _


def bind_warning(host: str, port: int) -> str | None:
    """A warning when `host` is reachable from other machines (anything but loopback)."""
    if host == "localhost":
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass  # a host name: it may resolve to any interface
    return _(
        "Warning: serving on {host}:{port}. Anyone who can reach this address can use the app and read "
        "your interview history: there is no login. Use it only on a network you trust, or keep the "
        "default 127.0.0.1 and use an SSH tunnel (ssh -L {port}:127.0.0.1:{port} this-machine)."
    ).format(host=host, port=port)


def app_command(c: Ctx) -> str:
    """The command textual-serve runs per browser tab: this interpreter, this data dir, these banks."""
    cli_banks = c.extra_banks[len(c.config.banks) :]  # config banks are read again from config.toml
    args = [sys.executable, "-m", "interviewer", "--data-dir", str(c.config.data_dir.resolve())]
    for bank in cli_banks:
        args += ["--bank", str(bank.resolve())]
    return shlex.join(args)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (loopback by default).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@pass_ctx
def serve(c: Ctx, host: str, port: int) -> None:
    """Serve the app in a web browser (textual-serve), on the same data directory."""
    from aiohttp import web
    from textual_serve.server import Server

    class _Server(Server):
        async def handle_index(self, request: web.Request) -> Any:
            # The page tells the browser where the websocket is: use the address the browser
            # used, so binding 0.0.0.0 works from a tablet and 127.0.0.1 from this machine.
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    warning = bind_warning(host, port)
    if warning:
        click.echo(warning, err=True)
    click.echo(_("Open http://{host}:{port}/ in a browser; Ctrl+C stops the server.").format(host=host, port=port), err=True)
    _Server(app_command(c), host=host, port=port, title="interviewer").serve()
