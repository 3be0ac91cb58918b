"""What the server takes at once, and how long it waits on a client: one place for the
limits that the connections and the solve queue both hold."""

from __future__ import annotations

from dataclasses import dataclass

# A request's line and headers at most (the API needs a few hundred bytes).
MAX_HEADER_BYTES = 16 * 1024


@dataclass(frozen=True)
class Limits:
    """What the server takes at once, and how long it waits on a client.

    `header_seconds`: for a request's line and headers, from the connection's start (or
    its last answer); `body_seconds`: for its body, from its headers; `waiting`: solves
    waiting for their turn; `connections`: open connections; `parsing`: boards read at
    once (a bad board of 1 MiB takes tens of MB while it is read); `chunks`: of a body
    sent in chunks (a board needs a few; each costs the server as much as a kilobyte)."""

    header_seconds: float = 10.0
    body_seconds: float = 30.0
    waiting: int = 32
    connections: int = 256
    parsing: int = 2
    chunks: int = 4096


# The limits a server holds unless told others (tests tighten them).
DEFAULT = Limits()
