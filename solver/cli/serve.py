"""`rummisolve serve`: the page for the phone beside the tiles, and its JSON API."""

from __future__ import annotations

from typing import Any

import click

from ..move import Objective
from ..web import api
from .options import (
    backend_option,
    core_errors,
    finite,
    objective_option,
    rule_options,
    rule_overrides,
)

# The libraries of the `web` extra (pyproject.toml), which only this command imports.
WEB_EXTRA = ("starlette", "uvicorn")


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; 0.0.0.0 lets other machines (a phone) reach the page.",
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
@rule_options
@core_errors
def serve(
    host: str,
    port: int,
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
    try:
        listening = server.listen(host, port)
    except OSError as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {error.strerror or error}"
        ) from None
    click.echo(f"rummisolve: serving {server.url(listening)} (Ctrl-C stops)")
    if (phone := server.phone_url(listening)) is not None:
        click.echo(f"rummisolve: a phone on this network opens {phone}")
    server.serve(listening, settings)
