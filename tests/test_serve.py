"""`rummisolve serve`: POST /api/hint answers as `hint --json` on the same board, a refused
board gets check's messages, and a thousand malformed requests leave it answering."""

from __future__ import annotations

import io
import ipaddress
import json
import random
import re
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from rummisolve.board import parse_board, read_board
from rummisolve.engine.solve import find_move
from rummisolve.move import Move
from rummisolve.rules import Overrides
from rummisolve.tiles import format_tiles
from rummisolve.web import api
from rummisolve.web.limits import Limits

from .cli import run
from .serving import Server, in_thread, serving, wait_until

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = [
    "puzzles/rules/012-interface-hint-example.txt",
    "puzzles/rules/000-extend-and-split.txt",
    "puzzles/rules/013-interface-board-not-opened.txt",
    "puzzles/locked-joker-sets/001-long-run-keeps-its-end-tile.txt",
    "puzzles/manipulation/013-rebuild-everything.txt",
    "puzzles/joker-retrieval/007-hebrew-example-freed-joker-needs-two-rack-tiles.txt",
    "puzzles/no-move/004-freed-joker-has-nowhere-to-go.txt",
    "puzzles/tile-set-160/003-four-jokers.txt",
]
BAD_BOARD = "table:\nR3 R4 X5\nR1 R2 R4\nrack: R3 R3 R3\n"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serving() as started:
        yield started


def without_seconds(text: str) -> list[tuple[str, Any]]:
    """An answer's keys and values in order, but for the time it took."""
    return [(k, v) for k, v in json.loads(text).items() if k != "seconds"]


def hint_json(*args: str, stdin: str | None = None) -> str:
    code, out, err = run("hint", "--json", *args, stdin=stdin)
    assert (code, err) == (0, "")
    return out


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: Path(p).stem)
def test_the_api_answers_as_hint_json(server: Server, puzzle: str) -> None:
    text = (ROOT / puzzle).read_text(encoding="utf-8")
    expected = without_seconds(hint_json(str(ROOT / puzzle)))
    as_json = server.hint(text)
    as_text = server.request("POST", "/api/hint", text.encode(), "text/plain; charset=utf-8")
    for reply in (as_json, as_text):
        assert (reply.status, reply.content_type) == (200, "application/json")
        assert reply.text.endswith("}\n") and reply.text.count("\n") == 1
        assert without_seconds(reply.text) == expected


def test_a_refused_board_gets_the_messages_of_check(server: Server) -> None:
    code, _, err = run("check", "-", stdin=BAD_BOARD)
    assert code == 1
    reply = server.hint(BAD_BOARD)
    assert reply.status == 422
    answer = reply.json()
    assert answer["error"].splitlines() == ["board" + line[1:] for line in err.splitlines()]
    assert answer["problems"] == [
        {"line": 2, "message": "unknown tile 'X5': colour must be K, R, O (or Y) or B"},
        {"line": 3, "message": "not a valid run or group: R1 R2 R4"},
        {"line": 4, "message": "too many copies of R3: the 106-tile set has 2"},
    ]


def test_the_page_and_its_files_are_served(server: Server) -> None:
    page = server.request("GET", "/")
    assert page.status == 200 and page.content_type.startswith("text/html")
    assert '<script src="app.js"' in page.text
    for name in ("app.js", "style.css"):
        assert server.request("GET", f"/{name}").status == 200
    assert server.url.startswith("http://127.0.0.1:")
    settings = server.request("GET", "/api/settings").json()
    assert settings["rules"]["profile"] == "official"
    assert [p["name"] for p in settings["profiles"]][:2] == ["official", "casual"]


def test_the_icon_is_served_where_a_browser_looks_for_it(server: Server) -> None:
    """A browser asks /favicon.ico of every page, unless the page names its icon: it got
    a 404, an error in the page's console."""
    page = server.request("GET", "/")
    assert '<link rel="icon" href="favicon.svg" type="image/svg+xml">' in page.text
    named, asked = server.request("GET", "/favicon.svg"), server.request("GET", "/favicon.ico")
    for reply in (named, asked):
        assert (reply.status, reply.content_type) == (200, "image/svg+xml")
    assert asked.text == named.text and asked.text.startswith("<svg ")


@pytest.mark.parametrize(
    ("method", "path", "status", "message"),
    [
        ("GET", "/api/hint", 405, "method not allowed: use POST"),
        ("POST", "/api/settings", 405, "method not allowed: use GET"),
        ("GET", "/api/nothing", 404, "Not Found"),
        ("DELETE", "/index.html", 405, "method not allowed: use GET"),
        ("POST", "/nothing", 404, "Not Found"),
        ("POST", "/api/hint/", 404, "Not Found"),
    ],
)
def test_a_wrong_method_or_path_is_a_json_error(
    server: Server, method: str, path: str, status: int, message: str
) -> None:
    reply = server.request(method, path)
    assert (reply.status, reply.content_type) == (status, "application/json")
    assert reply.json() == {"error": message}


def test_serves_rule_options_are_the_rules_of_a_board_without_a_rules_line() -> None:
    with_rules = ROOT / "puzzles/locked-joker-sets/001-long-run-keeps-its-end-tile.txt"
    text = with_rules.read_text(encoding="utf-8")
    without = "".join(line for line in text.splitlines(True) if not line.startswith("rules:"))
    with serving("--rules", "casual", "--joker-penalty", "20") as casual:
        settings = casual.request("GET", "/api/settings").json()
        assert settings["words"] == ["casual", "joker-penalty=20"]
        plain = casual.hint(without)
        assert without_seconds(plain.text) == without_seconds(
            hint_json("-", "--rules", "casual", "--joker-penalty", "20", stdin=without)
        )
        assert json.loads(plain.text)["tiles_played"] == 4
        own = casual.hint(text)
        assert without_seconds(own.text) == without_seconds(hint_json(str(with_rules)))


@pytest.mark.parametrize(
    "rules_line",
    ["rules:\n", "rules:   # nothing here\n", "Rules :\n"],
    ids=["empty", "a-comment", "spaced"],
)
def test_an_empty_rules_line_leaves_serves_rule_options_as_hint_leaves_its_own(
    rules_line: str,
) -> None:
    """An empty rules: line names no rule: it counted as the board's own, so serve's
    --rules casual did not apply; under hint the options apply over it."""
    settings = api.HintSettings(defaults=Overrides("casual", (("joker_penalty", 20),)))
    text = f"{rules_line}table:\nR3 R4 R5\nrack: R6\n"
    board = api.read_request_board(text, settings)
    assert board.rules == settings.rules == parse_board(text, "-", settings.defaults).rules


def test_a_solve_has_the_time_limit_of_serve() -> None:
    limits: list[float | None] = []

    def find(board: Any, **options: Any) -> Move:
        limits.append(options["time_limit"])
        return find_move(board, **options)

    board = read_board(ROOT / PUZZLES[0])
    reply = api.solve(board, api.HintSettings(time_limit=0.25, find=find))
    assert (reply.status, limits) == (200, [0.25])
    code, out, _ = run("serve", "--help")
    assert code == 0 and "[default: 10.0; x>0]" in out


def test_a_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run("serve", "--port", str(port))
    assert (code, out) == (1, "")
    assert err == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


# Malformed requests, each as the bytes sent on a connection of its own.
def raw(headers: list[str], body: bytes = b"", method: str = "POST") -> bytes:
    lines = [f"{method} /api/hint HTTP/1.1", "Host: 127.0.0.1", "Connection: close", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def post(body: bytes, content_type: str = "application/json") -> bytes:
    return raw([f"Content-Type: {content_type}", f"Content-Length: {len(body)}"], body)


def chunked(size: int) -> bytes:
    """A body past `size` bytes, in chunks of 64 KiB, with no length declared."""
    piece = (b"R1 " * 22_000)[: 64 * 1024]
    chunk = b"%x\r\n%s\r\n" % (len(piece), piece)
    body = chunk * (size // len(piece) + 1) + b"0\r\n\r\n"
    return raw(["Content-Type: text/plain", "Transfer-Encoding: chunked"], body)


def words(rng: random.Random) -> bytes:
    pieces = ["R3", "table:", "rack:", "K", "J", "|", "14", "opened:", "x", "#", "\n", "rules:"]
    return " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))).encode()


MALFORMED: dict[str, Callable[[random.Random], bytes]] = {
    "not http": lambda rng: rng.randbytes(rng.randint(1, 300)) + b"\r\n\r\n",
    "not json": lambda rng: post(rng.randbytes(rng.randint(0, 100)).replace(b"\r", b"")),
    "json of another shape": lambda rng: post(
        rng.choice([b"[]", b"null", b'"x"', b'{"board": 5}', b"{}", b'{"board": "x", "y": 1}'])
    ),
    "json nested deep": lambda rng: post(b"[" * rng.randint(10_000, 200_000)),
    "a lone surrogate": lambda rng: post(b'{"board": "rack: \\ud800"}'),
    "another type": lambda rng: post(b"rack: R1", rng.choice(["text/html", "image/png", "x/y"])),
    "a huge declared length": lambda rng: raw(["Content-Length: 99999999999"]),
    "not utf-8": lambda rng: post(b"rack: R1 \xff\xfe", "text/plain"),
    "a NUL byte": lambda rng: post(b"table:\nR1 R2 R3\x00\nrack:", "text/plain"),
    "a board of nonsense": lambda rng: post(words(rng), "text/plain"),
    "an oversized chunked body": lambda rng: chunked(1024 * 1024 + 1),
    "a huge header": lambda rng: raw([f"X-Big: {'a' * 70_000}", "Content-Length: 0"]),
    "a bad length": lambda rng: raw(["Content-Length: abc"], b"{}"),
    "a wrong method": lambda rng: raw([], method="PUT"),
    "a body cut short": lambda rng: raw(["Content-Length: 100"], b'{"board": "ra'),
    # h11 waits for a chunk of 2**76 bytes: the connection stayed open, unanswered.
    "a chunk past any limit": lambda rng: raw(
        ["Content-Type: text/plain", "Transfer-Encoding: chunked"], b"fffffffffffffffffff\r\nabc"
    ),
}


def send(server: Server, data: bytes, cut_short: bool) -> int | None:
    """The status of the answer to these bytes (None: the connection closed unanswered);
    `cut_short`: the client says it sends no more, before its body ended."""
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        try:
            connection.sendall(data)
            if cut_short:
                connection.shutdown(socket.SHUT_WR)
        except OSError:  # the server answered and closed before it had read everything
            pass
        received = b""
        try:
            while chunk := connection.recv(65536):
                received += chunk
        except ConnectionResetError:
            pass
    if not received:
        return None
    return int(received.split(b" ", 2)[1])


def test_a_thousand_malformed_requests_leave_the_server_answering(server: Server) -> None:
    rng = random.Random(16)
    kinds = sorted(MALFORMED)
    statuses: dict[str, set[int | None]] = {kind: set() for kind in kinds}
    for number in range(1000):
        kind = kinds[number % len(kinds)]
        statuses[kind].add(send(server, MALFORMED[kind](rng), kind == "a body cut short"))
    # h11 refuses a header past its 16 KiB limit when it arrives in pieces (400); read
    # whole in one go, it is parsed, and the empty board is refused (422).
    huge_header = statuses.pop("a huge header")
    assert huge_header and huge_header <= {400, 422}
    assert statuses == {
        "a NUL byte": {422},
        "a bad length": {400},
        "a body cut short": {None},
        "a board of nonsense": {422},
        "a huge declared length": {413},
        "a lone surrogate": {400},
        "a wrong method": {405},
        "an oversized chunked body": {413},
        "a chunk past any limit": {413},
        "another type": {415},
        "json nested deep": {400},
        "json of another shape": {400},
        "not http": {400},
        "not json": {400},
        "not utf-8": {422},
    }
    assert server.process is not None and server.process.poll() is None
    puzzle = ROOT / PUZZLES[0]
    reply = server.hint(puzzle.read_text(encoding="utf-8"))
    assert without_seconds(reply.text) == without_seconds(hint_json(str(puzzle)))


@pytest.mark.parametrize("host", ["0.0.0.0", "::"], ids=["ipv4-any", "ipv6-any"])
def test_serve_on_every_address_names_the_one_a_phone_opens(
    monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    """`serve --host 0.0.0.0` (the README's way to reach the page from a phone) said only
    'serving http://0.0.0.0:8000/', an address no phone can open: the player had to find
    the computer's own."""
    from rummisolve.web import server

    monkeypatch.setattr(server, "serve", lambda listening, settings: listening.close())
    monkeypatch.setattr(server, "network_address", lambda: "192.168.1.20")
    code, out, err = run("serve", "--host", host, "--port", "0")
    assert (code, err) == (0, "")
    first, second = out.splitlines()
    port = re.search(r":(\d+)/ ", first)
    assert port is not None
    assert second == (
        f"rummisolve: a phone on this network opens http://192.168.1.20:{port[1]}/; "
        "anyone on that network can use it"
    )


def test_serve_on_one_address_names_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummisolve.web import server

    monkeypatch.setattr(server, "serve", lambda listening, settings: listening.close())
    code, out, _ = run("serve", "--port", "0")
    assert code == 0 and len(out.splitlines()) == 1


def test_the_network_address_is_this_machine_s_own() -> None:
    """The address the machine reaches its network by (no packet is sent), or None."""
    from rummisolve.web import server

    found = server.network_address()
    assert found is None or ipaddress.ip_address(found).is_loopback is False


def test_a_board_of_a_thousand_problems_gets_the_first_hundred_and_their_count() -> None:
    """A body of bad tiles (1 MiB of them: 330,000 problems) was answered with every
    problem twice, in the error's lines and in `problems`: a 50 MB reply to one request,
    built in the server's memory; nobody reads past the first ones."""
    text = "rack:\n" + "X1 X2 X3\n" * 400  # a table stops at 53 sets, a rack goes on
    with pytest.raises(api.Refused) as refused:
        api.read_request_board(text, api.HintSettings())
    reply = refused.value.reply
    answer = json.loads(reply.text)
    assert reply.status == 422 and len(reply.text) < 20_000
    assert len(answer["problems"]) == api.MAX_PROBLEMS == 100
    assert answer["more_problems"] == 1200 - 100
    lines = answer["error"].splitlines()
    assert lines[0] == "board:2: unknown tile 'X1': colour must be K, R, O (or Y) or B"
    assert lines[100:] == ["board: 1100 more problems"]


# Bodies of just under 1 MiB, each one line: bad tile words, one set of 2,271,000 tiles,
# a million empty sets.
ONE_MIB_OF_BAD_WORDS = "rack: " + "X9 " * 349_000
ONE_SET_OF_A_MIB = "table: " + "R1-13 " * 174_700 + "\nrack:"
A_MIB_OF_BARS = "table: " + "|" * (api.MAX_BODY_BYTES - 20) + "\nrack:"
UNKNOWN_X9 = "unknown tile 'X9': colour must be K, R, O (or Y) or B"


@pytest.mark.parametrize(
    ("body", "first", "more"),
    [
        pytest.param(ONE_MIB_OF_BAD_WORDS, [UNKNOWN_X9] * 100, 349_000 - 100, id="bad-words"),
        pytest.param(
            ONE_SET_OF_A_MIB,
            [f"not a valid run or group: {13 * 174_700} tiles (a set holds at most 13)"]
            + [f"too many copies of R{n}: the 106-tile set has 2" for n in range(1, 14)],
            0,
            id="one-set-of-two-million-tiles",
        ),
        pytest.param(
            A_MIB_OF_BARS,
            ["more than 53 sets on the table: the 160-tile set makes at most 53"],
            0,
            id="a-million-sets",
        ),
    ],
)
def test_a_mib_of_a_bad_board_is_told_in_a_few_kilobytes(
    server: Server, body: str, first: list[str], more: int
) -> None:
    """A set is never quoted whole: 1 MiB of `R1-13` words made one set of 2,271,000 tiles,
    whose problem quoted every one, a 15 MB answer (and 9 s to read the board)."""
    assert len(body.encode()) <= api.MAX_BODY_BYTES
    reply = server.request("POST", "/api/hint", body, "text/plain")
    assert reply.status == 422 and len(reply.text) < 20_000
    answer = reply.json()
    assert [p["message"] for p in answer["problems"]] == first
    assert {p["line"] for p in answer["problems"]} == {1}
    assert answer.get("more_problems", 0) == more


@pytest.mark.parametrize(
    ("host", "status"),
    [
        pytest.param("evil.example", 403, id="another-name"),
        pytest.param("evil.example:8000", 403, id="another-name-with-a-port"),
        pytest.param("192.168.1.7", 403, id="another-address"),
        pytest.param("localhost:8000", 200, id="localhost"),
        pytest.param("127.0.0.1", 200, id="the-loopback-address"),
        pytest.param("[::1]:8000", 200, id="the-ipv6-loopback"),
    ],
)
def test_on_localhost_it_answers_only_requests_that_name_this_computer(
    server: Server, host: str, status: int
) -> None:
    """DNS rebinding: a web page whose name is pointed at 127.0.0.1 could make a visitor's
    browser post to the server and read its answers; the Host it sends names that page."""
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        request = f"GET /api/settings HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        connection.sendall(request.encode())
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.split()[1] == str(status).encode()
    if status == 403:
        assert json.loads(body)["error"] == (
            f"this server answers at 127.0.0.1 and localhost only, not {host!r}"
        )


# A board a stand-in solver knows by its rack.
def board_with_rack(tile: str) -> str:
    return f"table:\nR1 R2 R3\nrack: {tile}\n"


class Gate:
    """A stand-in solver that waits until the test opens it, and records each board it
    was asked to solve (by its rack)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.open = threading.Event()
        self.solved: list[str] = []

    def find(self, board: Any, **options: Any) -> Move:
        self.solved.append(format_tiles(board.rack))
        self.entered.set()
        assert self.open.wait(30), "the test never opened the gate"
        return find_move(board, **options)


def answer(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def json_of(reply: bytes) -> tuple[int, dict[str, str], Any]:
    """An HTTP answer's status, headers (lower-case names) and JSON body."""
    head, _, body = reply.partition(b"\r\n\r\n")
    status, *lines = head.decode().split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines)
    return int(status.split()[1]), headers, json.loads(body)


def test_a_request_whose_client_left_is_never_solved() -> None:
    """A client that posted a board and left was still solved in its turn: ten such slow
    boards held a trivial one that came after them for 12 s."""
    gate = Gate()
    with (
        in_thread(api.HintSettings(find=gate.find), Limits()) as (server, running),
        ThreadPoolExecutor(2) as clients,
    ):
        first = clients.submit(server.hint, board_with_rack("R4"))
        assert gate.entered.wait(30)
        with socket.create_connection((server.host, server.port), timeout=10) as gone:
            gone.sendall(post(board_with_rack("R7").encode(), "text/plain"))
            wait_until(lambda: running.solves.waiting == 1, "the request waits its turn")
        wait_until(lambda: running.solves.waiting == 0, "the abandoned request dropped")
        last = clients.submit(server.hint, board_with_rack("B7"))
        wait_until(lambda: running.solves.waiting == 1, "the last request waits its turn")
        gate.open.set()
        assert (first.result().status, last.result().status) == (200, 200)
    assert gate.solved == ["R4", "B7"]


def test_a_full_queue_is_a_json_503_that_says_when_to_come_back() -> None:
    gate = Gate()
    settings = api.HintSettings(find=gate.find, time_limit=2.5)
    with (
        in_thread(settings, Limits(waiting=1)) as (server, running),
        ThreadPoolExecutor(2) as clients,
    ):
        first = clients.submit(server.hint, board_with_rack("R4"))
        assert gate.entered.wait(30)
        second = clients.submit(server.hint, board_with_rack("R7"))
        wait_until(lambda: running.solves.waiting == 1, "the second request waits")
        with socket.create_connection((server.host, server.port), timeout=10) as third:
            third.sendall(post(board_with_rack("B7").encode(), "text/plain"))
            status, headers, body = json_of(answer(third))
        gate.open.set()
        assert (first.result().status, second.result().status) == (200, 200)
    assert (status, headers["content-type"], headers["retry-after"]) == (503, api.JSON_TYPE, "3")
    assert body == {"error": "busy: the solver's queue is full (1 waiting); ask again later"}
    assert gate.solved == ["R4", "R7"]


def test_stopping_answers_the_waiting_requests_503_and_the_solve_under_way_in_full() -> None:
    """Ctrl-C under load gave each waiting request a 500 and a CancelledError traceback."""
    gate = Gate()
    with (
        in_thread(api.HintSettings(find=gate.find), Limits()) as (server, running),
        ThreadPoolExecutor(3) as clients,
    ):
        first = clients.submit(server.hint, board_with_rack("R4"))
        assert gate.entered.wait(30)
        waiting = [clients.submit(server.hint, board_with_rack(t)) for t in ("R7", "B7")]
        wait_until(lambda: running.solves.waiting == 2, "two requests wait")
        running.should_exit = True
        stopped = [w.result() for w in waiting]
        gate.open.set()
        assert first.result().status == 200
    for reply in stopped:
        assert (reply.status, reply.content_type) == (503, api.JSON_TYPE)
        assert reply.json() == {"error": "the server is stopping"}
    assert gate.solved == ["R4"]


def test_stopping_at_once_answers_the_solve_under_way_503(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """A second Ctrl-C (uvicorn's `force_exit`) gave the request being solved a text 500
    and logged a CancelledError traceback; on Python 3.13 the server waited for its solve
    (it waits for every connection to close)."""
    gate = Gate()
    with (
        in_thread(api.HintSettings(find=gate.find), Limits()) as (server, running),
        ThreadPoolExecutor(1) as clients,
    ):
        under_way = clients.submit(server.hint, board_with_rack("R4"))
        try:
            assert gate.entered.wait(30)
            running.should_exit = running.force_exit = True
            reply = under_way.result()
        finally:
            gate.open.set()
    assert (reply.status, reply.content_type) == (503, api.JSON_TYPE)
    assert reply.json() == {"error": "the server is stopping"}
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize(
    "sent",
    [
        pytest.param(b"", id="nothing"),
        pytest.param(b"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-", id="half-headers"),
    ],
)
def test_a_client_that_never_ends_its_headers_is_closed(sent: bytes) -> None:
    """64 such connections held every place of the server: each other request got 503."""
    with (
        in_thread(api.HintSettings(), Limits(header_seconds=0.2)) as (server, _),
        socket.create_connection((server.host, server.port), timeout=20) as slow,
    ):
        slow.sendall(sent)
        status, headers, body = json_of(answer(slow))
        assert (status, headers["connection"]) == (408, "close")
        assert body == {"error": "the request's headers took over 0.2 s"}
        assert server.request("GET", "/api/settings").status == 200


def test_a_kept_connection_that_starts_a_request_and_stops_is_closed() -> None:
    with (
        in_thread(api.HintSettings(), Limits(header_seconds=0.2)) as (server, _),
        socket.create_connection((server.host, server.port), timeout=20) as slow,
    ):
        slow.sendall(b"GET /api/settings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /")
        received = answer(slow)
    first, _, second = received.partition(b"HTTP/1.1 408")
    assert first.startswith(b"HTTP/1.1 200") and second


def test_a_body_that_never_ends_is_a_408_and_the_connection_closed() -> None:
    with (
        in_thread(api.HintSettings(), Limits(body_seconds=0.2)) as (server, _),
        socket.create_connection((server.host, server.port), timeout=20) as slow,
    ):
        slow.sendall(raw(["Content-Type: text/plain", "Content-Length: 100"], b"rack: R1"))
        status, headers, body = json_of(answer(slow))
    assert (status, headers["connection"]) == (408, "close")
    assert body == {"error": "the body did not arrive within 0.2 s"}


def test_past_its_connections_a_new_one_is_a_json_503() -> None:
    with in_thread(api.HintSettings(), Limits(connections=2)) as (server, _):
        idle = [socket.create_connection((server.host, server.port)) for _ in range(2)]
        try:
            with socket.create_connection((server.host, server.port), timeout=20) as third:
                status, headers, body = json_of(answer(third))
        finally:
            for connection in idle:
                connection.close()
    assert (status, headers["retry-after"]) == (503, "1")
    assert body == {"error": "busy: too many connections"}


class Bound:
    """A listening socket's stand-in for `serve --lan`'s tests: nothing is bound, no
    packet leaves this computer."""

    def __init__(self, host: str, port: int) -> None:
        self.address = (host, port)

    def getsockname(self) -> tuple[str, int]:
        return self.address


def listen_recorded(asked: list[tuple[str, int]]) -> Callable[[str, int], Bound]:
    """`server.listen`'s stand-in: each address asked recorded, nothing bound."""

    def listen(host: str, port: int) -> Bound:
        asked.append((host, port))
        return Bound(host, port)

    return listen


def test_serve_lan_listens_on_the_network_address_and_prints_its_qr_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import segno

    from rummisolve.web import server

    asked: list[tuple[str, int]] = []
    served: list[str | None] = []
    monkeypatch.setattr(server, "network_address", lambda: "192.168.1.20")
    monkeypatch.setattr(server, "listen", listen_recorded(asked))
    monkeypatch.setattr(server, "serve", lambda listening, settings, lan: served.append(lan))
    code, out, err = run("serve", "--lan")
    assert (code, err, asked, served) == (0, "", [("192.168.1.20", 8000)], ["192.168.1.20"])
    lines = out.splitlines()
    assert lines[:2] == [
        "rummisolve: serving http://192.168.1.20:8000/ (Ctrl-C stops)",
        "rummisolve: anyone on this network can use it; a phone scans this to open it:",
    ]
    drawn = io.StringIO()
    segno.make("http://192.168.1.20:8000/", error="m").terminal(out=drawn, compact=True)
    assert lines[2:] == drawn.getvalue().splitlines() and len(lines) > 10


def test_serve_without_lan_never_looks_for_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummisolve.web import server

    def never() -> str:
        raise AssertionError("serve looked for the network address unasked")

    asked: list[tuple[str, int]] = []
    monkeypatch.setattr(server, "network_address", never)
    monkeypatch.setattr(server, "listen", listen_recorded(asked))
    monkeypatch.setattr(server, "serve", lambda listening, settings: None)
    code, out, _ = run("serve")
    assert (code, out, asked) == (
        0,
        "rummisolve: serving http://127.0.0.1:8000/ (Ctrl-C stops)\n",
        [("127.0.0.1", 8000)],
    )


@pytest.mark.parametrize(
    ("found", "message"),
    [
        pytest.param(
            None,
            "Error: --lan: this computer is on no network (no address but its own)",
            id="no-network",
        ),
        pytest.param(
            "81.2.69.160",
            "Error: --lan: this computer's address 81.2.69.160 is not on a private network; "
            "--host serves there on purpose",
            id="a-public-address",
        ),
    ],
)
def test_serve_lan_listens_on_no_address_but_a_private_network_s(
    monkeypatch: pytest.MonkeyPatch, found: str | None, message: str
) -> None:
    from rummisolve.web import server

    monkeypatch.setattr(server, "network_address", lambda: found)
    monkeypatch.setattr(server, "listen", lambda host, port: pytest.fail("listened"))
    code, out, err = run("serve", "--lan")
    assert (code, out, err) == (1, "", message + "\n")


def test_serve_lan_and_host_are_one_or_the_other() -> None:
    code, _, err = run("serve", "--lan", "--host", "0.0.0.0")
    assert code == 2
    assert err.endswith("Error: --lan chooses the address: give --host or --lan, not both\n")


def request_naming(server: Server, host: str, request: bytes) -> bytes:
    """The request sent to the server (on 127.0.0.1) with its Host header saying `host`."""
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        connection.sendall(request.replace(b"Host: 127.0.0.1", f"Host: {host}".encode(), 1))
        return answer(connection)


@pytest.mark.parametrize(
    ("host", "status"),
    [
        pytest.param("192.168.1.20:8000", 200, id="the-lan-address"),
        pytest.param("192.168.1.20", 200, id="the-lan-address-without-a-port"),
        pytest.param("localhost:8000", 200, id="localhost"),
        pytest.param("192.168.1.21:8000", 403, id="another-address"),
        pytest.param("rummi.example:8000", 403, id="another-name"),
    ],
)
def test_on_the_lan_it_answers_requests_that_name_its_lan_address(host: str, status: int) -> None:
    """`serve --lan` listens on the LAN address: the phone's browser names it as Host."""
    with in_thread(api.HintSettings(), Limits(), lan="192.168.1.20") as (server, _):
        request = raw(["Content-Type: text/plain", "Content-Length: 9"], b"rack: R1\n")
        status_got, _, body = json_of(request_naming(server, host, request))
    assert status_got == status
    if status == 403:
        assert body["error"] == (
            f"this server answers at 192.168.1.20, 127.0.0.1 and localhost only, not {host!r}"
        )


def test_on_the_lan_the_api_s_limits_hold() -> None:
    """The body limit and the solver's queue, as on 127.0.0.1."""
    gate = Gate()
    settings = api.HintSettings(find=gate.find)
    with in_thread(settings, Limits(waiting=1), lan="192.168.1.20") as (server, running):
        too_big = request_naming(server, "192.168.1.20:8000", raw(["Content-Length: 99999999999"]))
        assert json_of(too_big)[0] == 413
        board = json.dumps({"board": board_with_rack("R4")}).encode()
        with ThreadPoolExecutor(2) as pool:
            first = pool.submit(request_naming, server, "192.168.1.20", post(board))
            assert gate.entered.wait(30)
            second = pool.submit(request_naming, server, "192.168.1.20", post(board))
            wait_until(lambda: running.solves.waiting == 1, "the second request waits")
            third = json_of(request_naming(server, "192.168.1.20", post(board)))
            gate.open.set()
            assert [json_of(first.result())[0], json_of(second.result())[0]] == [200, 200]
    assert third[0] == 503
    assert gate.solved == ["R4", "R4"]


# --- issue 28 re-test: chunks and malformed requests ----------------------------------


def in_chunks(body: bytes, size: int) -> bytes:
    """A request whose body comes in chunks of `size` bytes."""
    pieces = [body[i : i + size] for i in range(0, len(body), size)]
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces)
    return raw(["Content-Type: text/plain", "Transfer-Encoding: chunked"], chunks + b"0\r\n\r\n")


def test_a_body_in_more_chunks_than_its_limit_is_a_json_413() -> None:
    """340,000 chunks of one byte held the server for 40 s; a board needs a few."""
    board = board_with_rack("R4").encode()
    with in_thread(api.HintSettings(), Limits(chunks=(len(board) + 1) // 2)) as (server, _):
        with socket.create_connection((server.host, server.port), timeout=20) as within:
            within.sendall(in_chunks(board, 2))
            assert json_of(answer(within))[0] == 200
        with socket.create_connection((server.host, server.port), timeout=20) as past:
            past.sendall(in_chunks(board, 1))
            status, headers, body = json_of(answer(past))
    assert (status, headers["content-type"], headers["connection"]) == (413, api.JSON_TYPE, "close")
    assert body == {"error": f"the body comes in over {(len(board) + 1) // 2} chunks"}


HOSTLESS = b"POST /api/hint HTTP/1.1\r\nContent-Length: 0\r\n\r\n"


@pytest.mark.parametrize(
    ("sent", "why"),
    [
        (raw(["Content-Length: -1"]), "bad Content-Length"),
        (
            raw(["Content-Length: 2", "Content-Length: 3"], b"{}"),
            "conflicting Content-Length headers",
        ),
        (
            raw(["Transfer-Encoding: chunked"], b"-1\r\nx\r\n"),
            "illegal chunk header: '-1\\r\\n'",
        ),
        (HOSTLESS, "Missing mandatory Host: header"),
        (b"\x00\x01\xff\r\n\r\n", "illegal request line: '\\x00\\x01\\xff'"),
    ],
    ids=["negative-length", "two-lengths", "negative-chunk", "no-host", "binary"],
)
def test_a_malformed_request_is_a_json_400_that_says_why(sent: bytes, why: str) -> None:
    """uvicorn answered each in text ("Invalid HTTP request received.") and logged a
    warning of it (the logs are checked where `serve` runs as a user starts it)."""
    with (
        in_thread(api.HintSettings(), Limits()) as (server, _),
        socket.create_connection((server.host, server.port), timeout=20) as client,
    ):
        client.sendall(sent)
        status, headers, body = json_of(answer(client))
    assert (status, headers["content-type"], headers["connection"]) == (400, api.JSON_TYPE, "close")
    assert body == {"error": f"malformed HTTP request: {why}"}


def test_a_json_body_that_gives_its_board_twice_is_refused() -> None:
    """Which board was meant? The last one was solved, silently."""
    twice = b'{"board": "rack: R1", "board": "rack: R2"}'
    with pytest.raises(api.Refused) as refused:
        api.board_text(twice, api.JSON_TYPE)
    assert refused.value.reply.status == 400
    assert json.loads(refused.value.reply.text) == {"error": "the body gives the key 'board' twice"}
