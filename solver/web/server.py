"""The HTTP around `api`: Starlette routes the page and the API, uvicorn serves them.

One solve runs at a time (each within its time limit), in a thread of its own, so that
the server keeps answering bad requests and the page meanwhile. A few clients cannot
hold it: a request's headers and body each have a deadline, a body is read no further
than its limit, the solves waiting for their turn are bounded (past them a JSON 503 says
when to come back), and a request whose client left, or that is still waiting when the
server stops, is never solved."""

from __future__ import annotations

import io
import ipaddress
import json
import logging
import math
import socket
from collections.abc import Callable
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
from .connection import CONNECTION_LOG, Connection
from .limits import DEFAULT as DEFAULT_LIMITS
from .limits import Limits

STATIC = Path(__file__).resolve().parent / "static"
# The page's icon, which its <head> names; also where a browser looks for one unasked.
ICON = STATIC / "favicon.svg"
EVERY_METHOD = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def json_reply(reply: api.Reply, headers: dict[str, str] | None = None) -> Response:
    return Response(reply.text, reply.status, headers, api.JSON_TYPE)


def busy(message: str, retry_after: float) -> Response:
    """503, and when to ask again (`Retry-After`, whole seconds)."""
    reply = api.Reply.error(503, message)
    return json_reply(reply, {"Retry-After": str(max(1, math.ceil(retry_after)))})


async def read_body(request: Request, seconds: float) -> bytes:
    """The body, or `Refused` as soon as it is past the limit (413: never read whole) or
    late (408: a client that sends a byte a minute holds a connection no longer)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > api.MAX_BODY_BYTES:
        raise api.Refused(api.too_large())
    chunks, size = [], 0
    with anyio.move_on_after(seconds):
        async for chunk in request.stream():
            size += len(chunk)
            if size > api.MAX_BODY_BYTES:
                raise api.Refused(api.too_large())
            chunks.append(chunk)
        return b"".join(chunks)
    raise api.Refused(api.Reply.error(408, f"the body did not arrive within {seconds:g} s"))


class Solves:
    """The solver's turns: one board at a time, in a thread, in the order asked. At most
    `most_waiting` requests wait for their turn (past them: 503); one whose client leaves,
    or that still waits when the server stops, is never solved; the one under way when
    the server is made to stop at once (a second Ctrl-C) is answered 503 too."""

    def __init__(self, most_waiting: int, retry_after: float) -> None:
        self.most_waiting = most_waiting
        self.retry_after = retry_after
        self.waiting = 0
        self.started = 0
        self._turn = anyio.CapacityLimiter(1)
        self._stopping: anyio.Event | None = None
        self._forced: anyio.Event | None = None

    @property
    def stopping(self) -> anyio.Event:
        # Made on first use: an anyio event belongs to the running event loop.
        if self._stopping is None:
            self._stopping = anyio.Event()
        return self._stopping

    @property
    def forced(self) -> anyio.Event:
        if self._forced is None:
            self._forced = anyio.Event()
        return self._forced

    def stop(self) -> None:
        """The server stops: every waiting request is answered 503 at once."""
        self.stopping.set()

    def force(self) -> None:
        """The server stops at once: the solve under way is answered 503 too."""
        self.stop()
        self.forced.set()

    async def solve(self, work: Callable[[], api.Reply], receive: Receive) -> Response:
        """The reply of `work` in its turn; a 503 if too many wait or the server stops."""
        if self.stopping.is_set():
            return self.stopped()
        if self.waiting >= self.most_waiting:
            message = f"busy: the solver's queue is full ({self.waiting} waiting); ask again later"
            return busy(message, self.retry_after)
        self.waiting += 1
        try:
            turn, left = await self._wait(receive)
        finally:
            self.waiting -= 1
        if turn and (left or self.stopping.is_set()):
            self._turn.release()
        elif turn:
            try:
                self.started += 1
                reply = await self._unless_forced(work)
                return self.stopped() if reply is None else json_reply(reply)
            except anyio.get_cancelled_exc_class():
                if not self.stopping.is_set():
                    raise
                return self.stopped()  # made to stop at once: its thread is left behind
            finally:
                self._turn.release()
        return nobody_listens() if left else self.stopped()

    async def _unless_forced(self, work: Callable[[], api.Reply]) -> api.Reply | None:
        """The reply of `work` in a thread, or None where the server is made to stop at
        once first (its thread is left behind): the server waits for every connection
        to close (Python 3.12 on), so this one must be answered now."""
        reply = None
        async with anyio.create_task_group() as race:
            race.start_soon(_cancel_when, self.forced, race.cancel_scope)
            reply = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
            race.cancel_scope.cancel()
        return reply

    async def _wait(self, receive: Receive) -> tuple[bool, bool]:
        """Whether the turn came, and whether the client left, whichever came first."""
        turn = left = False
        async with anyio.create_task_group() as watch:

            async def until_left() -> None:
                nonlocal left
                while (await receive())["type"] != "http.disconnect":
                    pass
                left = True
                watch.cancel_scope.cancel()

            watch.start_soon(until_left)
            watch.start_soon(_cancel_when, self.stopping, watch.cancel_scope)
            await self._turn.acquire()
            turn = True
            watch.cancel_scope.cancel()
        return turn, left

    def stopped(self) -> Response:
        return busy("the server is stopping", self.retry_after)


async def _cancel_when(event: anyio.Event, scope: anyio.CancelScope) -> None:
    """What `scope` runs is cancelled once `event` is set."""
    await event.wait()
    scope.cancel()


def nobody_listens() -> Response:
    """The answer to a client that has left: never sent, since nobody reads it."""
    return Response(status_code=400)


def wrong_method(allowed: str) -> Response:
    reply = api.Reply.error(405, f"method not allowed: use {allowed}")
    return Response(reply.text, 405, {"Allow": allowed}, api.JSON_TYPE)


# The names this computer answers to from itself: what a browser sends as Host to a
# server on a loopback address.
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")


class KnownNamesOnly:
    """A request whose Host names another computer than `names` is refused (403): a web
    page whose name was pointed at this server's address (DNS rebinding) cannot make a
    visitor's browser use the server, nor read its answers."""

    def __init__(self, app: ASGIApp, names: tuple[str, ...]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _host_name(scope) not in self.names:
            named = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            reply = api.Reply.error(
                403, f"this server answers at {_said(self.names)} only, not {named!r}"
            )
            await json_reply(reply)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _said(names: tuple[str, ...]) -> str:
    """The names a person types: `192.168.1.20, 127.0.0.1 and localhost`."""
    typed = [name for name in names if name != "[::1]"]
    return ", ".join(typed[:-1]) + " and " + typed[-1]


def _host_name(scope: Scope) -> str:
    """The computer the request's Host names, without its port."""
    host: str = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
    return host.partition("]")[0] + "]" if host.startswith("[") else host.partition(":")[0]


class PageFiles(StaticFiles):
    """The page's files. Another method than GET: a 405 that says which on one of them,
    a 404 elsewhere (StaticFiles answers a POST to a path that is not there 405)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if scope["method"] in ("GET", "HEAD"):
            return await super().get_response(path, scope)
        await super().get_response(path, {**scope, "method": "GET"})  # 404 if not there
        return wrong_method("GET")


def make_app(
    settings: api.HintSettings,
    solves: Solves,
    limits: Limits = DEFAULT_LIMITS,
    names: tuple[str, ...] | None = LOCAL_NAMES,
) -> Starlette:
    """The page at `/` (its icon at `/favicon.ico` too), `POST /api/hint`,
    `GET /api/settings`; errors as JSON.
    `names`: the only names a request's Host may give this computer (None: any)."""
    parsing = anyio.CapacityLimiter(limits.parsing)

    async def hint(request: Request) -> Response:
        if request.method != "POST":
            return wrong_method("POST")
        try:
            body = await read_body(request, limits.body_seconds)
            content_type = request.headers.get("content-type")
            text = await anyio.to_thread.run_sync(
                api.board_text, body, content_type, limiter=parsing
            )
            del body
            board = await anyio.to_thread.run_sync(
                api.read_request_board, text, settings, limiter=parsing
            )
        except api.Refused as refused:
            closing = {"Connection": "close"} if refused.reply.status == 408 else None
            return json_reply(refused.reply, closing)
        except ClientDisconnect:  # the client left before its body ended: nobody to answer
            return nobody_listens()
        return await solves.solve(lambda: api.solve(board, settings), request.receive)

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
            Mount("/", PageFiles(directory=STATIC, html=True)),
        ],
        exception_handlers={HTTPException: http_error, Exception: crash},
        middleware=[] if names is None else [Middleware(KnownNamesOnly, names=names)],
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


def scan_code(page: str) -> str:
    """The page's address as a QR code drawn in text (light modules as blocks, for a dark
    terminal; a phone's camera reads it either way round)."""
    import segno

    drawn = io.StringIO()
    segno.make(page, error="m").terminal(out=drawn, compact=True)
    return drawn.getvalue()


class Server(uvicorn.Server):
    """uvicorn's server, which on stopping first answers every waiting request 503, and
    made to stop at once, the one under way too."""

    def __init__(self, config: uvicorn.Config, solves: Solves) -> None:
        super().__init__(config)
        self.solves = solves

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.solves.stop()
        async with anyio.create_task_group() as watch:
            watch.start_soon(self._until_forced)
            await super().shutdown(sockets)
            watch.cancel_scope.cancel()

    async def _until_forced(self) -> None:
        """A second Ctrl-C (`force_exit`, set by uvicorn's signal handler) reaches the
        solves."""
        while not self.force_exit:
            await anyio.sleep(0.05)
        self.solves.force()


def make_server(
    listening: socket.socket,
    settings: api.HintSettings,
    limits: Limits = DEFAULT_LIMITS,
    lan: str | None = None,
) -> Server:
    """The server for the socket; `run(sockets=[listening])` serves until it is stopped.
    Requests must name this computer where it listens on a loopback address, or on `lan`,
    its address on the local network (`serve --lan`), which they may name too."""
    address = ipaddress.ip_address(listening.getsockname()[0])
    solves = Solves(limits.waiting, retry_after=settings.time_limit)
    names = (lan, *LOCAL_NAMES) if lan else LOCAL_NAMES if address.is_loopback else None
    app = make_app(settings, solves, limits, names)
    config = uvicorn.Config(
        app,
        http=type("Connection", (Connection,), {"limits": limits}),
        ws="none",
        lifespan="off",
        log_level="warning",
        access_log=False,
        server_header=False,
        # The solve under way is answered: it ends within its time limit.
        timeout_graceful_shutdown=math.ceil(settings.time_limit + limits.body_seconds) + 1,
    )
    CONNECTION_LOG.setLevel(logging.ERROR)  # after the Config, which resets uvicorn's logs
    return Server(config, solves)


def serve(listening: socket.socket, settings: api.HintSettings, lan: str | None = None) -> None:
    """Serve until Ctrl-C (or TERM): uvicorn stops taking requests and ends the open ones."""
    make_server(listening, settings, lan=lan).run(sockets=[listening])
