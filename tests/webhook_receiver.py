"""A webhook receiver for the tests: an HTTP server on 127.0.0.1 that checks each
delivery's signature as a receiver would (``docs/http.md``, "Webhooks"), keeps what it got,
answers with the statuses it is told, and can hold a request until it is let go."""

from __future__ import annotations

import hashlib
import hmac
import json
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOLERANCE_SECONDS = 300


def verified(secret: str, headers: dict[str, str], body: bytes, now: float | None = None) -> bool:
    """What a receiver does with a delivery: recompute the signature over the timestamp and
    the body with the webhook's secret, compare in constant time, and refuse an old one."""
    timestamp = headers.get("Tablestream-Timestamp", "")
    expected = "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, headers.get("Tablestream-Signature", "")):
        return False
    return timestamp.isdigit() and abs((now or time.time()) - int(timestamp)) <= TOLERANCE_SECONDS


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> dict[str, Any]:
        return dict(json.loads(self.body))

    @property
    def delivery(self) -> str:
        return self.headers.get("Tablestream-Delivery", "")


@dataclass
class Receiver:
    """``statuses``: what to answer to the requests in turn (then 200); ``hold``: how many
    requests to hold (each until ``let_go``), before answering."""

    statuses: list[int] = field(default_factory=list)
    hold: int = 0
    got: list[Received] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)  # the effect of each delivery id, applied once
    repeats: int = 0  # deliveries received again under an id already applied (and dropped)
    secrets: dict[str, str] = field(default_factory=dict)  # path -> the secret of the webhook posting there
    bad_signatures: int = 0
    holding: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    server: ThreadingHTTPServer | None = None
    tls: tuple[str, str] | None = None  # a certificate and its key: answer over https

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server spelling)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                headers = {k: v for k, v in self.headers.items()}
                status = receiver.take(Received(self.path, headers, body))
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the sender is gone (killed while we held it)

            def log_message(self, *_: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if self.tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self.tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def take(self, received: Received) -> int:
        with self.lock:
            self.got.append(received)
            secret = self.secrets.get(received.path)
            good = secret is not None and verified(secret, received.headers, received.body)
            if not good:
                self.bad_signatures += 1
            status = self.statuses.pop(0) if self.statuses else 200
            holding = self.hold > 0
            if holding:
                self.hold -= 1
        if holding:
            self.released.clear()
            self.holding.set()
            self.released.wait(60)
            self.holding.clear()
            status = 200  # its effect is applied, though its sender may be gone by now
        if 200 <= status < 300 and good:
            with self.lock:  # a receiver dedups by the delivery id
                if received.delivery in self.applied:
                    self.repeats += 1
                else:
                    self.applied.append(received.delivery)
        return status

    def let_go(self) -> None:
        self.released.set()

    def url(self, path: str = "/hook") -> str:
        assert self.server is not None
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://127.0.0.1:{self.server.server_address[1]}{path}"

    def stop(self) -> None:
        self.released.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def at(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.got if r.path == path]
