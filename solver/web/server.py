"""The HTTP around `api`: Starlette routes the page and the API, uvicorn serves them.

One solve runs at a time (each within its time limit), in a thread of its own, so that
the server keeps answering bad requests and the page meanwhile; a body is read no further
than its limit."""

from __future__ import annotations

import ipaddress
import json
import socket
from pathlib import Path

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from . import api

STATIC = Path(__file__).resolve().parent / "static"
# The page's icon, which its <head> names; also where a browser looks for one unasked.
ICON = STATIC / "favicon.svg"
# Open connections at most; past them a request gets 503 at once instead of a queue.
MAX_CONNECTIONS = 64
# A request's line and headers at most (the API needs a few hundred bytes).
MAX_HEADER_BYTES = 16 * 1024
EVERY_METHOD = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def json_reply(reply: api.Reply) -> Response:
    return Response(reply.text, status_code=reply.status, media_type=api.JSON_TYPE)


async def read_body(request: Request) -> bytes:
    """The body, or `Refused` (413) as soon as it is past the limit: never read whole."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > api.MAX_BODY_BYTES:
        raise api.Refused(api.too_large())
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > api.MAX_BODY_BYTES:
            raise api.Refused(api.too_large())
        chunks.append(chunk)
    return b"".join(chunks)


def wrong_method(allowed: str) -> Response:
    reply = api.Reply.error(405, f"method not allowed: use {allowed}")
    return Response(reply.text, 405, {"Allow": allowed}, api.JSON_TYPE)


# The names this computer answers to from itself: what a browser sends as Host to a
# server on a loopback address.
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")


class LocalNamesOnly:
    """Behind a loopback address, a request whose Host names another computer is refused
    (403): a web page whose name was pointed at 127.0.0.1 (DNS rebinding) cannot make a
    visitor's browser use the server, nor read its answers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not _local_host(scope):
            named = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            reply = api.Reply.error(
                403, f"this server answers at 127.0.0.1 and localhost only, not {named!r}"
            )
            await json_reply(reply)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _local_host(scope: Scope) -> bool:
    """Whether the request's Host names this computer (any port)."""
    host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
    name = host.partition("]")[0] + "]" if host.startswith("[") else host.partition(":")[0]
    return name in LOCAL_NAMES


def make_app(settings: api.HintSettings, local_only: bool = True) -> Starlette:
    """The page at `/` (its icon at `/favicon.ico` too), `POST /api/hint`,
    `GET /api/settings`; errors as JSON.
    `local_only`: only requests that name this computer (a server on a loopback address)."""
    one_solve = anyio.CapacityLimiter(1)

    async def hint(request: Request) -> Response:
        if request.method != "POST":
            return wrong_method("POST")
        try:
            body = await read_body(request)
            content_type = request.headers.get("content-type")
            text = await anyio.to_thread.run_sync(api.board_text, body, content_type)
            board = await anyio.to_thread.run_sync(api.read_request_board, text, settings)
        except api.Refused as refused:
            return json_reply(refused.reply)
        except ClientDisconnect:  # the client left before its body ended: nobody to answer
            return Response(status_code=400)
        reply = await anyio.to_thread.run_sync(api.solve, board, settings, limiter=one_solve)
        return json_reply(reply)

    async def settings_route(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return wrong_method("GET")
        return Response(json.dumps(api.settings_json(settings)), media_type=api.JSON_TYPE)

    async def icon(request: Request) -> Response:
        return FileResponse(ICON, media_type="image/svg+xml")

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        message = error.detail or "error"
        reply = api.Reply.error(error.status_code, message)
        return Response(reply.text, error.status_code, error.headers, api.JSON_TYPE)

    async def crash(request: Request, error: Exception) -> Response:
        """A bug: said as JSON, and logged by the server (it goes on serving)."""
        return json_reply(api.Reply.error(500, f"internal error: {type(error).__name__}"))

    return Starlette(
        routes=[
            # Every method reaches these, so that a wrong one is a 405, not the page's 404.
            Route("/api/hint", hint, methods=EVERY_METHOD),
            Route("/api/settings", settings_route, methods=EVERY_METHOD),
            Route("/favicon.ico", icon, methods=["GET", "HEAD"]),
            Mount("/", StaticFiles(directory=STATIC, html=True)),
        ],
        exception_handlers={HTTPException: http_error, Exception: crash},
        middleware=[Middleware(LocalNamesOnly)] if local_only else [],
    )


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one); OSError says why not."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    server = socket.socket(family, kind, proto)
    try:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(address)
        server.listen(128)
    except OSError:
        server.close()
        raise
    return server


def url(server: socket.socket) -> str:
    host, port = server.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def phone_url(server: socket.socket) -> str | None:
    """Where a phone opens the page when the server listens on every address (0.0.0.0,
    which no phone can open): this machine's address on its network, if it has one."""
    host, port = server.getsockname()[:2]
    if host not in ("0.0.0.0", "::"):
        return None
    address = network_address()
    return None if address is None else f"http://{address}:{port}/"


def network_address() -> str | None:
    """The IPv4 address this machine reaches its network by: a UDP socket connected to an
    address (one kept for documentation) sends nothing, but the system picks the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:  # no network
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def serve(server: socket.socket, settings: api.HintSettings) -> None:
    """Serve until Ctrl-C (or TERM): uvicorn stops taking requests and ends the open ones."""
    address = ipaddress.ip_address(server.getsockname()[0])
    config = uvicorn.Config(
        make_app(settings, local_only=address.is_loopback),
        http="h11",
        ws="none",
        lifespan="off",
        log_level="warning",
        access_log=False,
        server_header=False,
        limit_concurrency=MAX_CONNECTIONS,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        timeout_graceful_shutdown=2,
    )
    uvicorn.Server(config).run(sockets=[server])
