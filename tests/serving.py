"""`rummisolve serve` as a user starts it: a process of its own on 127.0.0.1 and a free
port (`--port 0`; the URL is read from its first line), stopped with Ctrl-C's signal.
Requests go straight to it with http.client, never through a proxy."""

from __future__ import annotations

import http.client
import json
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import pytest

# `serve` needs the web extra: without it, the tests that start a server are skipped.
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from rummisolve.web import api
from rummisolve.web import server as web
from rummisolve.web.limits import Limits

STARTUP_SECONDS = 30


class Reply(NamedTuple):
    status: int
    content_type: str
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class Server(NamedTuple):
    url: str
    host: str
    port: int
    process: subprocess.Popen[str] | None  # None: a server in a thread of this process

    def request(
        self,
        method: str,
        path: str,
        body: bytes | str | None = None,
        content_type: str | None = None,
    ) -> Reply:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            headers = {"Content-Type": content_type} if content_type else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8")
            return Reply(response.status, response.getheader("Content-Type", ""), text)
        finally:
            connection.close()

    def hint(self, board: str) -> Reply:
        """POST /api/hint with the board as JSON, as the page sends it."""
        return self.request("POST", "/api/hint", json.dumps({"board": board}), "application/json")


@contextmanager
def serving(*options: str) -> Iterator[Server]:
    """`rummisolve serve --port 0 OPTIONS...`, running until the block ends; then stopped
    by SIGINT, which must end it cleanly (exit status 130, no traceback, no error logged)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "rummisolve", "serve", "--port", "0", *options],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], STARTUP_SECONDS)
        line = process.stdout.readline() if ready else ""
        found = re.search(r"http://\S+/", line)
        assert found, f"serve did not start: {line!r}"
        where = urlsplit(found.group(0))
        assert where.hostname is not None and where.port is not None
        yield Server(found.group(0), where.hostname, where.port, process)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
    # Nothing else on standard error: uvicorn's warning of each malformed request (a
    # client's doing) filled it.
    logged = [line for line in err.splitlines() if line]
    assert (process.returncode, logged) == (130, ["interrupted"]), err[-3000:]


def wait_until(condition: Callable[[], object], what: str) -> None:
    """Wait until the condition holds: a test's step that has to come after another."""
    for _ in range(STARTUP_SECONDS * 100):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"never came: {what}")


@contextmanager
def in_thread(
    settings: api.HintSettings, limits: Limits, lan: str | None = None
) -> Iterator[tuple[Server, web.Server]]:
    """The server in a thread of this process, with a test's settings (a stand-in solver)
    and limits, on 127.0.0.1 (`lan`: as `serve --lan` makes it for that address); stopped
    as `serve` is by Ctrl-C when the block ends."""
    listening = web.listen("127.0.0.1", 0)
    running = web.make_server(listening, settings, limits, lan)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listening]})
    thread.start()
    try:
        wait_until(lambda: running.started, "the server started")
        host, port = listening.getsockname()[:2]
        yield Server(web.url(listening), host, port, None), running
    finally:
        running.should_exit = True
        thread.join(STARTUP_SECONDS)
        listening.close()
    assert not thread.is_alive(), "the server did not stop"
