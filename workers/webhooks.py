"""Webhook deliveries on RQ (``core.webhooks``): a job per delivery on the long-work queue,
which POSTs the signed notice and records the outcome, retrying with backoff.

A delivery is sent by one job at a time: the job takes a lease on it (``LEASE_SECONDS``,
longer than a request may last) and counts the attempt before it sends. A worker killed
while sending leaves the delivery open (pending or retrying) and its lease lapsing: the
next worker to start sends every open delivery again (``sweep``), after the lease, and
RQ itself re-runs an abandoned job once its heartbeat is over. So a delivery may reach a
receiver twice under one id, never under two, and once it is recorded delivered (or
failed) no job sends it again.

Each attempt resolves the URL's host (with ``socket.getaddrinfo``, or the resolver it is
handed) and connects only when the allow-list admits every address the name has, then to
the address it checked (no second lookup that a name re-pointed meanwhile could answer
differently), asking for the URL's host by name; a redirect is not followed (it counts as
a failure).
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import logging
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rq import Queue, Retry

from core.errors import CommandError
from core.jobs import queue_names
from core.webhooks import FINAL, Address, AllowList, Target, backoff_seconds, signature
from stores.platform import Platform
from workers.due import enqueue_due
from workers.runtime import current

log = logging.getLogger(__name__)

CONNECT_SECONDS = 3
READ_SECONDS = 5
LEASE_SECONDS = 15
JOB_TIMEOUT = 60  # a job may wait out another sender's lease, then send
SKEW_MS = 1000  # a job run up to this early (clocks of different processes) is on time
USER_AGENT = "tablestream-webhooks/1"

Clock = Callable[[], float]


class Resolver(Protocol):
    """How a delivery finds the addresses of a name: ``socket.getaddrinfo``, or a stand-in
    answering as it does."""

    def __call__(self, host: str, port: int, *, type: int) -> Sequence[tuple[Any, ...]]: ...


class Refused(Exception):
    """The URL may not be called (the allow-list, or an address it resolves to): the
    delivery fails at once, as no retry would change that."""


def deliver_job(delivery: str) -> str:
    return deliver(current(), delivery)


def deliver(platform: Platform, delivery: str, clock: Clock = time.time, resolve: Resolver = socket.getaddrinfo) -> str:
    """Send one delivery, if it is open and due; what happened, in a few words."""
    hooks = platform.webhooks
    found = hooks.delivery(delivery)
    if found is None or found.status in FINAL:
        return "done"
    now = int(clock() * 1000)
    if found.due - now > SKEW_MS:
        schedule(platform, delivery, (found.due - now) / 1000)
        return "not due"
    token = hooks.lease(delivery, LEASE_SECONDS)
    waited_until = time.monotonic() + LEASE_SECONDS + 1
    while token is None:  # another job sends it, or one killed while sending held it
        if time.monotonic() > waited_until:
            schedule(platform, delivery, LEASE_SECONDS)
            return "busy"
        time.sleep(min(0.25, max(0.01, hooks.lease_left(delivery))))
        again = hooks.delivery(delivery)
        if again is None or again.status in FINAL:
            return "done"
        token = hooks.lease(delivery, LEASE_SECONDS)
    try:
        return attempt(platform, delivery, clock, resolve)
    finally:
        hooks.release(delivery, token)


def attempt(platform: Platform, delivery: str, clock: Clock = time.time, resolve: Resolver = socket.getaddrinfo) -> str:
    """One attempt, under the delivery's lease: count it, POST, record the outcome, and
    schedule the next attempt after a failure."""
    hooks, config = platform.webhooks, platform.config
    found = hooks.delivery(delivery)
    if found is None or found.status in FINAL:
        return "done"
    hook = hooks.hook(found.webhook)
    started = int(clock() * 1000)
    if hook is None:
        hooks.record(delivery, "failed", started, started, None, "the webhook was deleted")
        return "failed"
    number = hooks.begin_attempt(delivery, started)
    if number == 0:
        return "done"
    body = json.dumps({"id": delivery, "webhook": found.webhook, "notice": found.notice}, separators=(",", ":"))
    timestamp = str(int(clock()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Tablestream-Delivery": delivery,
        "Tablestream-Webhook": found.webhook,
        "Tablestream-Attempt": str(number),
        "Tablestream-Timestamp": timestamp,
        "Tablestream-Signature": signature(hook["secret"], timestamp, body.encode()),
    }
    code: int | None = None
    error: str | None = None
    try:
        target = Target.parse(hook["url"], hooks.allow)
        code = post(target, checked_address(hooks.allow, target, resolve), body.encode(), headers)
        if not 200 <= code < 300:
            error = f"HTTP {code}"
    except (CommandError, Refused) as refused:
        ended = int(clock() * 1000)
        reason = refused.detail if isinstance(refused, CommandError) else str(refused)
        hooks.record(delivery, "failed", ended, ended, None, f"refused: {reason}")
        return "refused"
    except (OSError, http.client.HTTPException) as failure:
        error = f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__
    ended = int(clock() * 1000)
    if error is None:
        hooks.record(delivery, "delivered", ended, ended, code, None)
        return "delivered"
    if number >= config.webhook_attempts:
        hooks.record(delivery, "failed", ended, ended, code, error)
        return "failed"
    wait = backoff_seconds(number, config.webhook_retry_seconds)
    # The next attempt is scheduled before the outcome is recorded: a worker killed in
    # between leaves a job that finds the delivery due, never a delivery with no job.
    schedule(platform, delivery, wait)
    hooks.record(delivery, "retrying", ended, ended + int(wait * 1000), code, error)
    return "retrying"


def checked_address(allow: AllowList, target: Target, resolve: Resolver) -> Address:
    """The address to connect to: the host when it is an address, else the name resolved
    now; every address admitted by the allow-list (a name that also resolves to a refused
    address is refused)."""
    try:
        addresses = [ipaddress.ip_address(target.host)]
    except ValueError:
        addresses = _resolved(target, resolve)
    for address in addresses:
        why = allow.address_refusal(address)
        if why is not None:
            raise Refused(
                f"{target.host} resolves to {address}, which this service does not call: {why}"
                f" (it calls {allow.describe()})"
            )
    return addresses[0]


def _resolved(target: Target, resolve: Resolver) -> list[Address]:
    try:
        found = resolve(target.host, target.port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise OSError(f"cannot resolve {target.host}: {error}") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    if not addresses:
        raise OSError(f"{target.host} has no address")
    return addresses


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to a checked address, asking for the URL's host by name."""

    def __init__(self, address: Address, host: str, port: int) -> None:
        super().__init__(host, port, timeout=CONNECT_SECONDS)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((str(self.address), self.port), CONNECT_SECONDS)
        self.sock.settimeout(READ_SECONDS)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """An HTTPS connection to a checked address, verifying the certificate of the URL's host."""

    def __init__(self, address: Address, host: str, port: int) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=CONNECT_SECONDS, context=self.tls)
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((str(self.address), self.port), CONNECT_SECONDS)
        raw.settimeout(READ_SECONDS)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)


def post(target: Target, address: Address, body: bytes, headers: dict[str, str]) -> int:
    """POST ``body`` to ``target`` at ``address``; the response's status."""
    kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    connection = kind(address, target.host, target.port)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(4096)  # what a receiver answers is not kept
        return int(response.status)
    finally:
        connection.close()


# -- on RQ -------------------------------------------------------------------------


def _queue(platform: Platform) -> Queue:
    return Queue(
        queue_names(platform.config.prefix)[1],
        connection=platform.queue_redis,
        is_async=not platform.config.inline_jobs,
    )


def _options() -> dict[str, Any]:
    # RQ's own retry covers a job that raised (Redis unreachable) or was abandoned by a
    # killed worker; the delivery's attempts and backoff are the job's own.
    return {"result_ttl": 600, "failure_ttl": 86400, "retry": Retry(max=3, interval=[15, 60, 300])}


def enqueue(platform: Platform, delivery: str) -> None:
    _queue(platform).enqueue_call(deliver_job, args=(delivery,), timeout=JOB_TIMEOUT, **_options())


def schedule(platform: Platform, delivery: str, seconds: float) -> None:
    """Run the delivery's job again in ``seconds`` (by the workers' RQ scheduler). Jobs run
    in the calling process (``inline_jobs``) have no scheduler: the delivery stays open,
    and a worker's ``sweep`` picks it up."""
    if platform.config.inline_jobs:
        return
    due = int(time.time() * 1000 + max(1.0, seconds) * 1000)
    enqueue_due(_queue(platform), due, deliver_job, delivery, job_timeout=JOB_TIMEOUT, **_options())


def sweep(platform: Platform, clock: Clock = time.time) -> int:
    """Start every open delivery again (run when a worker starts): those due now at once,
    the others when they are due. A delivery whose job is alive gets a second job, which
    finds it done, or waits out its lease."""
    now = int(clock() * 1000)
    count = 0
    for delivery, due in platform.webhooks.open_deliveries():
        if due - now > SKEW_MS:
            schedule(platform, delivery, (due - now) / 1000)
        else:
            enqueue(platform, delivery)
        count += 1
    return count


class RQDeliveries:
    """``core.webhooks.DeliveryRunner`` on RQ, for one platform."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform

    def start(self, delivery_ids: Sequence[str]) -> None:
        for delivery in delivery_ids:
            enqueue(self.platform, delivery)
