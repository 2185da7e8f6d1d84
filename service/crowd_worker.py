"""The API's gunicorn worker: gevent's, with the connection caps of ``service.crowd``.
Imported by gunicorn alone (by its class path), in the worker process it patches."""

from __future__ import annotations

import warnings
from typing import Any

import gevent
from gevent.monkey import MonkeyPatchWarning
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from core.config import Config
from core.errors import Code
from service.crowd import OpenCounts, refusal, too_many
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
        super().init_process()

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
        try:
            client.settimeout(STALLED_SECONDS)
            AsyncWorker.handle(self, listener, client, addr)
        finally:
            if capped:
                self.connections.give_back(address)
