"""`POST /api/hint` apart from HTTP: a request body in, an HTTP status and a JSON text out,
through the calls `hint --json` makes (read the board, `solve_checked`, `move_json`), so
that the two answer alike on the same board."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..board import MAX_BOARD_BYTES, Board, decode_board, names_rules, parse_board
from ..checked import Finder, solve_checked
from ..engine.solve import find_move
from ..errors import BoardError, Problem, RummisolveError
from ..move import Objective
from ..render import move_json
from ..rules import NO_OVERRIDES, PROFILE_NAMES, PROFILES, Overrides, Rules

# The name problems carry: `board:2: unknown tile 'X5'`, as `check -` writes `-:2: ...`.
SOURCE = "board"
# A request body holds one board: the same limit as a board file's.
MAX_BODY_BYTES = MAX_BOARD_BYTES
# A refused board's problems told at most: 1 MiB of bad tiles makes 330,000 of them.
MAX_PROBLEMS = 100
# A solve on a server always ends: this is its default, `serve --time-limit` another.
DEFAULT_TIME_LIMIT = 10.0
JSON_TYPE = "application/json"
TEXT_TYPE = "text/plain"


@dataclass(frozen=True)
class HintSettings:
    """How the server solves: `defaults` are serve's rule options, which a board without
    a `rules:` line (or with an empty one) is read with (a board's own line wins); the
    rest as `hint` takes them; `find` is the solver (a test's stand-in)."""

    defaults: Overrides = NO_OVERRIDES
    objective: Objective = Objective.TILES
    backend: str | None = None
    time_limit: float = DEFAULT_TIME_LIMIT
    find: Finder = find_move

    @property
    def rules(self) -> Rules:
        """The rules of a board that names none."""
        return self.defaults.apply(Rules())


class Reply(NamedTuple):
    """An HTTP status and the JSON text of the answer (one line, as `hint --json` prints)."""

    status: int
    text: str

    @classmethod
    def error(cls, status: int, message: str, **more: Any) -> Reply:
        return cls(status, json.dumps({"error": message, **more}) + "\n")


class Refused(Exception):
    """A request that gets no answer but its error reply."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.text)
        self.reply = reply


def board_text(body: bytes, content_type: str | None) -> str:
    """The board a request body carries: `{"board": "..."}` as JSON, or the board file's
    text as text/plain (or with no type). Refused: another type, JSON that is not such an
    object, a body that is not text."""
    media = (content_type or TEXT_TYPE).split(";", 1)[0].strip().lower()
    if len(body) > MAX_BODY_BYTES:
        raise Refused(too_large())
    if media == TEXT_TYPE:
        return _decoded(body)
    if media != JSON_TYPE:
        raise Refused(
            Reply.error(
                415,
                f"a body of type {TEXT_TYPE} (a board file) or {JSON_TYPE} "
                f'({{"board": "..."}}), not {media or "none"}',
            )
        )
    try:
        request = json.loads(body, object_pairs_hook=_each_key_once)
    except (ValueError, RecursionError) as error:
        raise Refused(Reply.error(400, f"the body is not JSON: {error}")) from None
    if not isinstance(request, dict) or not isinstance(request.get("board"), str):
        raise Refused(Reply.error(400, 'the body must be a JSON object {"board": "..."}'))
    if unknown := sorted(set(request) - {"board"}):
        raise Refused(Reply.error(400, f"unknown key {unknown[0]!r}: the body takes only board"))
    try:
        data = request["board"].encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"), which JSON may carry
        raise Refused(Reply.error(400, "the board is not text (a lone surrogate)")) from None
    return _decoded(data)


def _each_key_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused where it gives a key twice (which board would be meant?)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise Refused(Reply.error(400, f"the body gives the key {key!r} twice"))
        seen.add(key)
    return dict(pairs)


def _decoded(data: bytes) -> str:
    try:
        return decode_board(data, SOURCE)
    except BoardError as error:
        raise Refused(refused_board(error)) from None


def too_large() -> Reply:
    return Reply.error(413, f"the body is over {MAX_BODY_BYTES >> 20} MiB: one board is far less")


def refused_board(error: BoardError) -> Reply:
    """A board `check` refuses: its lines (`board:LINE: message`), and each problem apart;
    past the first `MAX_PROBLEMS`, how many more (`more_problems`)."""
    told = error.problems[:MAX_PROBLEMS]
    problems = [_problem_json(p) for p in told]
    if more := len(error.problems) - len(told):
        lines = [*map(str, told), f"{SOURCE}: {more} more problems"]
        return Reply.error(422, "\n".join(lines), problems=problems, more_problems=more)
    return Reply.error(422, str(error), problems=problems)


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {"line": problem.line, "message": problem.message}


def read_request_board(text: str, settings: HintSettings) -> Board:
    """The board, with serve's rule options where the board has no `rules:` line, or one
    that names no rule (as `hint`'s options apply over an empty one)."""
    try:
        return parse_board(text, SOURCE, NO_OVERRIDES if names_rules(text) else settings.defaults)
    except BoardError as error:
        raise Refused(refused_board(error)) from None


def solve(board: Board, settings: HintSettings) -> Reply:
    """`hint --json`'s answer on the board, or a 500 naming what failed (a solver bug
    too)."""
    try:
        move = solve_checked(
            board,
            settings.objective,
            settings.backend,
            settings.time_limit,
            source=SOURCE,
            find=settings.find,
        )
    except RummisolveError as error:
        return Reply.error(500, str(error))
    return Reply(200, json.dumps(move_json(move, board)) + "\n")


def settings_json(settings: HintSettings) -> dict[str, Any]:
    """`GET /api/settings`: what the page starts from (the server's rules, the profiles)."""
    return {
        "rules": settings.rules.as_json(),
        "words": settings.rules.words(),
        "profiles": [{"name": n, "summary": PROFILES[n].summary} for n in PROFILE_NAMES],
        "time_limit": settings.time_limit,
        "max_body_bytes": MAX_BODY_BYTES,
    }
