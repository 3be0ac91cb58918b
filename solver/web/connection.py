"""The server's HTTP/1.1 connections: uvicorn's, held to the limits (`limits.Limits`), with
deadlines for a request's headers and body, caps on chunks, and every refusal a JSON
answer."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from . import api
from .limits import DEFAULT, MAX_HEADER_BYTES


class Parser(h11.Connection):
    """h11's reading of a connection's requests, which also counts a body's chunks (past
    `most_chunks`: `too_many_chunks`, and no more events) and keeps why a request was
    malformed (uvicorn answers all alike)."""

    def __init__(self, most_chunks: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BYTES)
        self.most_chunks = most_chunks
        self.chunks = 0
        self.too_many_chunks = False
        self.malformed = ""

    def next_event(self) -> Any:
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as error:
            # h11 shows the bytes as Python writes them: bytearray(b'GARBAGE') -> 'GARBAGE'
            self.malformed = re.sub(r"bytearray\(b('.*?'|\".*?\")\)", r"\1", str(error))
            raise
        if isinstance(event, h11.Request):
            self.chunks = 0
        elif isinstance(event, h11.Data) and event.chunk_start:
            self.chunks += 1
            if self.chunks > self.most_chunks:
                self.too_many_chunks = True
                return h11.PAUSED  # uvicorn reads no further; the connection refuses it
        return event


class Connection(H11Protocol):
    """uvicorn's HTTP/1.1 connection, held to `limits`: past `connections` open ones a new
    one is answered 503 and closed; one that has not sent a request's line and headers
    whole within `header_seconds` of its start (or of its last answer) is answered 408
    and closed (uvicorn has no such deadline: 64 silent connections held every place); a
    chunk of the body longer than the body's limit, or a body of more than `chunks`
    chunks, is answered 413 at once (h11 waits for all of it, and a body of 1-byte chunks
    held the server for seconds). A malformed request is a JSON 400 that says why, and no
    warning: it is the client's fault, not the server's."""

    limits = DEFAULT
    conn: Parser

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = Parser(self.limits.chunks)
        self.logger = CONNECTION_LOG

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        if len(self.connections) > self.limits.connections:
            self._refuse(api.Reply.error(503, "busy: too many connections"), "Retry-After: 1")
        else:
            self._await_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not self._awaited:  # a request's headers came whole
            self._headers_arrived()
        chunk = getattr(getattr(self.conn, "_reader", None), "_bytes_in_chunk", 0)
        if chunk > api.MAX_BODY_BYTES:
            self._refuse_request(api.too_large())

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.too_many_chunks:
            most = self.limits.chunks
            self._refuse_request(api.Reply.error(413, f"the body comes in over {most} chunks"))

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a malformed request (text), as the API's (JSON)."""
        self._refuse_request(api.Reply.error(400, f"malformed HTTP request: {self.conn.malformed}"))

    def on_response_complete(self) -> None:
        answered = self.cycle
        super().on_response_complete()  # which starts a request sent on behind this one
        if self.cycle is answered and not self.transport.is_closing():
            self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_arrived()
        super().connection_lost(exc)

    _awaited: Any = None
    _deadline: asyncio.TimerHandle | None = None

    def _await_headers(self) -> None:
        self._headers_arrived()
        self._awaited = self.cycle
        self._deadline = self.loop.call_later(self.limits.header_seconds, self._headers_late)

    def _headers_arrived(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            seconds = f"{self.limits.header_seconds:g}"
            self._refuse(api.Reply.error(408, f"the request's headers took over {seconds} s"))

    def _refuse_request(self, reply: api.Reply) -> None:
        """`reply` to the request being read, whose handler then answers nobody."""
        if not self.transport.is_closing():
            if self.cycle is not None:
                self.cycle.disconnected = True
            self._refuse(reply)

    def _refuse(self, reply: api.Reply, *headers: str) -> None:
        """`reply`, written outside h11 (which answers only a request it has read whole)."""
        body = reply.text.encode()
        head = [
            f"HTTP/1.1 {reply.status} {_REASONS[reply.status]}",
            f"Content-Type: {api.JSON_TYPE}",
            f"Content-Length: {len(body)}",
            "Connection: close",
            *headers,
        ]
        self.transport.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        self.transport.close()


_REASONS = {
    400: "Bad Request",
    408: "Request Timeout",
    413: "Content Too Large",
    503: "Service Unavailable",
}


# A connection's log: its warnings (a malformed request, an upgrade asked for) are the
# client's doing, kept from a user's terminal (`make_server`); its errors (a bug) are not.
CONNECTION_LOG = logging.getLogger("uvicorn.error.connection")
