"""Serving a crowd: the API's gunicorn worker and the caps that keep one client from
taking what everyone else needs.

The worker is evented (gevent): each connection is a greenlet, so an open event stream
waiting for its game costs a few kilobytes, not one of a fixed number of threads, and a
socket that trickles its request holds nothing the next client needs. Its caps are
counted in the worker process itself, with no Redis round trip on the way in and nothing
shared that a node's loss could stop:

- connections open from one address: over the cap, the connection is answered ``429``
  at once, before its request is read, and closed;
- a connection whose request line and headers have not all arrived ``header_seconds``
  after it opened (or after its previous answer) is dropped;
- a read or write that stalls ``STALLED_SECONDS`` (a client that stopped reading its
  stream) ends the connection;
- event streams open from one address and from one bearer token (``StreamCaps``, when a
  stream opens).

An address behind a trusted proxy is the proxy's at the socket; its connections are not
capped there (they are the whole crowd's), and its streams count against the address the
proxy forwards."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

from core.errors import Code, CommandError

# Where an app keeps its live streams' hub (``service.fanout.Hub``), made with its first
# stream; the worker ends its streams through it when it stops.
HUB = "tablestream.hub"


class OpenCounts:
    """How many of something each key holds open in this process, up to ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        with self._lock:
            held = self._open.get(key, 0)
            if held >= self.limit:
                return False
            self._open[key] = held + 1
            return True

    def give_back(self, key: str) -> None:
        with self._lock:
            held = self._open.get(key, 0) - 1
            if held > 0:
                self._open[key] = held
            else:
                self._open.pop(key, None)


class StreamCaps:
    """Event streams open per client address and per bearer token in this process."""

    def __init__(self, per_address: int, per_token: int) -> None:
        self.addresses = OpenCounts(per_address)
        self.tokens = OpenCounts(per_token)

    def admit(self, address: str, token_digest: str | None) -> Callable[[], None]:
        """Count one more stream for ``address`` and the token, and return what gives
        it back; over either cap, a ``too_many_streams`` error instead."""
        if not self.addresses.take(address):
            raise too_many(Code.TOO_MANY_STREAMS, f"This address has {self.addresses.limit} event streams open")
        if token_digest is not None and not self.tokens.take(token_digest):
            self.addresses.give_back(address)
            raise too_many(Code.TOO_MANY_STREAMS, f"This token has {self.tokens.limit} event streams open")

        def close() -> None:
            self.addresses.give_back(address)
            if token_digest is not None:
                self.tokens.give_back(token_digest)

        return close


RETRY_SECONDS = 5  # a held connection or stream is not given back at any known moment


def too_many(code: Code, held: str) -> CommandError:
    return CommandError(
        code, f"{held}, as many as one server process allows; close one, or try again later.", retry_after=RETRY_SECONDS
    )


def refusal(error: CommandError) -> bytes:
    """A whole ``429`` problem+json answer, written to a connection refused before its
    request is read."""
    body = json.dumps(
        {
            "type": f"https://tablestream.dev/problems/{error.code}",
            "title": "Too many connections",
            "status": 429,
            "detail": error.detail,
            "code": error.code,
            **error.extra,
        }
    ).encode()
    head = (
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/problem+json\r\n"
        f"Retry-After: {error.extra['retry_after']}\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body
