"""The API's gunicorn worker: gevent's, with the connection caps of ``service.crowd``.
Imported by gunicorn alone (by its class path), in the worker process it patches."""

from __future__ import annotations

import socket
import warnings
from typing import Any

import gevent
from gevent.monkey import MonkeyPatchWarning
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from core.config import Config
from core.errors import Code
from service.crowd import HUB, OpenCounts, refusal, too_many
from service.ratelimit import trusted_proxy

# A send or receive blocked this long ends its connection: a stream's client that stopped
# reading fills the socket's buffers, and its greenlet would otherwise wait for ever.
STALLED_SECONDS = 60.0


class CrowdWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker with the caps above."""

    def init_process(self) -> None:
        config = Config.from_env()
        self.header_seconds = config.header_seconds
        self.trusted_proxies = config.trusted_proxies
        self.connections = OpenCounts(config.connections_per_address)
        self.between_requests: set[socket.socket] = set()
        super().init_process()

    def handle_exit(self, sig: Any, frame: Any) -> None:
        """A graceful stop (SIGTERM): requests and streams under way get the graceful time to
        finish, but a connection kept alive between requests is closed at once, as a client
        of HTTP/1.1 expects any such connection may be. Else every idle client would hold
        the worker, and each stop or restart, for the whole graceful time."""
        super().handle_exit(sig, frame)
        gevent.spawn(self._close_between_requests)  # out of the signal handler
        gevent.spawn(self._end_streams)

    def _close_between_requests(self) -> None:
        for client in list(self.between_requests):
            try:
                client.shutdown(socket.SHUT_RDWR)  # its handler reads the end and closes it
            except OSError:
                pass

    def _end_streams(self) -> None:
        # An event stream would hold its connection, and the stop, for the whole graceful
        # time: its client is better off reconnecting to a server that stays.
        hub = getattr(self.wsgi, "extensions", {}).get(HUB)
        if hub is not None:
            hub.end_streams()

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        self.between_requests.discard(sock)
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            self.between_requests.add(sock)  # if it stays open, it waits for the next one

    def patch(self) -> None:
        # The only module gevent names as importing ssl before the patch is redis.asyncio,
        # which nothing here uses; the warning would greet every start.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MonkeyPatchWarning)
            super().patch()

    def timeout_ctx(self) -> Any:
        # gunicorn reads each request's line and headers within this (it was keepalive's).
        return gevent.Timeout(self.header_seconds, False)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        address = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        capped = not trusted_proxy(address, self.trusted_proxies)
        if capped and not self.connections.take(address):
            error = too_many(Code.TOO_MANY_CONNECTIONS, f"This address has {self.connections.limit} connections open")
            try:
                client.settimeout(1)
                client.sendall(refusal(error))
            except OSError:
                pass
            finally:
                client.close()
            return
        self.between_requests.add(client)
        try:
            client.settimeout(STALLED_SECONDS)
            AsyncWorker.handle(self, listener, client, addr)
        finally:
            self.between_requests.discard(client)
            if capped:
                self.connections.give_back(address)
