"""`rummisolve serve`: the page for the phone beside the tiles, and its JSON API."""

from __future__ import annotations

import ipaddress
from typing import Any

import click
from click.core import ParameterSource

from ..move import Objective
from ..web import api
from .options import (
    backend_option,
    core_errors,
    finite,
    move_rule_options,
    objective_option,
    rule_overrides,
)

# The libraries of the `web` extra (pyproject.toml), which only this command imports.
WEB_EXTRA = ("starlette", "uvicorn", "segno")


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; 0.0.0.0 lets other machines (a phone) reach the page.",
)
@click.option(
    "--lan",
    is_flag=True,
    help="Listen on this machine's address on its local network, printed with a QR code "
    "for a phone to scan: anyone on that network can use the page.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port (0: a free one, named when the server starts).",
)
@objective_option
@backend_option
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=api.DEFAULT_TIME_LIMIT,
    show_default=True,
    metavar="SECONDS",
    callback=finite,
    help="Seconds for one move: then the best found so far, status feasible.",
)
@move_rule_options
@core_errors
def serve(
    host: str,
    port: int,
    lan: bool,
    objective: str,
    backend: str | None,
    time_limit: float,
    **options: Any,
) -> None:
    """A web page to enter a position by tapping, and POST /api/hint, which answers as
    hint --json (docs/format.md). The rule options are the rules of a board that has no
    rules: line, or an empty one. Ctrl-C stops it.

    Example: rummisolve serve --port 8000, then open http://127.0.0.1:8000/
    """
    try:
        from ..web import server  # the HTTP libraries load only for this command

        if lan:
            import segno  # noqa: F401  (the QR code of the page's address)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.partition(".")[0] not in WEB_EXTRA:
            raise
        raise click.ClickException(
            "serve needs the web extra: pip install 'rummisolve[web]'"
        ) from None

    settings = api.HintSettings(
        defaults=rule_overrides(options),
        objective=Objective(objective),
        backend=backend,
        time_limit=time_limit,
    )
    if lan:
        if click.get_current_context().get_parameter_source("host") is ParameterSource.COMMANDLINE:
            raise click.UsageError("--lan chooses the address: give --host or --lan, not both")
        host = lan_address(server.network_address())
    try:
        listening = server.listen(host, port)
    except OSError as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {error.strerror or error}"
        ) from None
    page = server.url(listening)
    click.echo(f"rummisolve: serving {page} (Ctrl-C stops)")
    if lan:
        click.echo("rummisolve: anyone on this network can use it; a phone scans this to open it:")
        click.echo(server.scan_code(page), nl=False)
    elif (phone := server.phone_url(listening)) is not None:
        click.echo(
            f"rummisolve: a phone on this network opens {phone}; anyone on that network can use it"
        )
    if lan:
        server.serve(listening, settings, lan=host)
    else:
        server.serve(listening, settings)


def lan_address(found: str | None) -> str:
    """The address `--lan` listens on: this machine's on a private network, never one the
    internet reaches (that is --host's, said on purpose)."""
    if found is None:
        raise click.ClickException("--lan: this computer is on no network (no address but its own)")
    if not ipaddress.ip_address(found).is_private:
        raise click.ClickException(
            f"--lan: this computer's address {found} is not on a private network; "
            "--host serves there on purpose"
        )
    return found
