"""Prometheus metrics kept in Redis, so every API process adds to the same counters.

Each process counts in memory and adds its counts to Redis in one pipeline at most
every ``FLUSH_SECONDS`` (from a daemon thread, and before ``/metrics`` answers), so a
request pays no Redis round trip for its metrics; a process killed outright loses at
most that last half second of counts.
"""

from __future__ import annotations

import atexit
import os
import threading
import weakref
from collections import Counter, defaultdict
from typing import Any

from flask import current_app

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
FLUSH_SECONDS = 0.5


class Tally:
    """One process's counts not yet in Redis, for one platform (Redis client and key)."""

    def __init__(self, client: Any, key: str) -> None:
        self.client, self.key = client, key
        self.lock = threading.Lock()
        self.flushing = threading.Lock()  # one flush at a time, so flush_all waits for one under way
        self.ints: Counter[str] = Counter()
        self.floats: defaultdict[str, float] = defaultdict(float)
        self.pid = 0
        self.wake = threading.Event()

    def add(self, name: str, amount: int = 1) -> None:
        with self.lock:
            self.ints[name] += amount
        self._ensure_flusher()

    def add_float(self, name: str, amount: float) -> None:
        with self.lock:
            self.floats[name] += amount
        self._ensure_flusher()

    def flush(self) -> None:
        with self.flushing:
            with self.lock:
                ints, floats = self.ints, self.floats
                self.ints, self.floats = Counter(), defaultdict(float)
            if not ints and not floats:
                return
            pipe = self.client.pipeline(transaction=False)
            for name, amount in ints.items():
                pipe.hincrby(self.key, name, amount)
            for name, value in floats.items():
                pipe.hincrbyfloat(self.key, name, value)
            try:
                pipe.execute()
            except Exception:  # metrics never fail a request; these counts are lost
                pass

    def _ensure_flusher(self) -> None:
        if self.pid == os.getpid():
            return
        with self.lock:  # first use in this process (a forked worker starts with none)
            if self.pid == os.getpid():
                return
            self.pid = os.getpid()
            if self.ints or self.floats:  # counted by the parent before the fork: not ours
                self.ints, self.floats = Counter(), defaultdict(float)
        threading.Thread(target=self._run, name="metrics-flush", daemon=True).start()
        atexit.register(self.flush)

    def _run(self) -> None:
        while not self.wake.wait(FLUSH_SECONDS):
            self.flush()


_TALLIES: weakref.WeakSet[Tally] = weakref.WeakSet()


def tally(app: Any = None) -> Tally:
    """The counts of ``app`` (the current Flask app when not given)."""
    extensions = (app or current_app).extensions
    found = extensions.get("tablestream-metrics")
    if found is None:
        platform = extensions["tablestream"]
        found = extensions.setdefault("tablestream-metrics", Tally(platform.redis, platform.key("metrics")))
        _TALLIES.add(found)
    return found  # type: ignore[no-any-return]


def flush_all() -> None:
    """Write every count this process holds now (before its Redis keys are removed)."""
    for counts in list(_TALLIES):
        counts.flush()


def count(name: str, amount: int = 1) -> None:
    tally().add(name, amount)


def observe_request(route: str, method: str, status: int, seconds: float, app: Any = None) -> None:
    label = f'route="{route}",method="{method}",status="{status}"'
    counts = tally(app)
    counts.add(f"requests_total{{{label}}}")
    counts.add_float(f'request_seconds_sum{{route="{route}"}}', seconds)
    counts.add(f'request_seconds_count{{route="{route}"}}')
    bound = next((b for b in BUCKETS if seconds <= b), None)
    if bound is not None:
        counts.add(f'request_seconds_bucket{{route="{route}",le="{bound}"}}')


def render(raw: dict[bytes, bytes], queue_depths: dict[str, int]) -> str:
    lines = [
        "# HELP tablestream_requests_total HTTP requests by route, method and status.",
        "# TYPE tablestream_requests_total counter",
        "# HELP tablestream_request_seconds HTTP request latency.",
        "# TYPE tablestream_request_seconds histogram",
        "# HELP tablestream_appends_total Commands appended through the API.",
        "# TYPE tablestream_appends_total counter",
        "# HELP tablestream_conflicts_total Actions refused for a stale version.",
        "# TYPE tablestream_conflicts_total counter",
    ]
    counts = {k.decode(): v.decode() for k, v in raw.items()}
    histogram = ("request_seconds_bucket", "request_seconds_sum", "request_seconds_count")
    for name in sorted(counts):
        if not name.startswith(histogram):
            lines.append(f"tablestream_{name} {counts[name]}")
    # A histogram's lines stay together, route by route: buckets (cumulative), sum, count.
    routes = sorted({name.split('route="')[1].split('"')[0] for name in counts if name.startswith(histogram)})
    for route in routes:
        running = 0
        for bound in BUCKETS:
            running += int(counts.get(f'request_seconds_bucket{{route="{route}",le="{bound}"}}', 0))
            lines.append(f'tablestream_request_seconds_bucket{{route="{route}",le="{bound}"}} {running}')
        total = counts.get(f'request_seconds_count{{route="{route}"}}', "0")
        lines.append(f'tablestream_request_seconds_bucket{{route="{route}",le="+Inf"}} {total}')
        seconds = counts.get(f'request_seconds_sum{{route="{route}"}}', "0")
        lines.append(f'tablestream_request_seconds_sum{{route="{route}"}} {seconds}')
        lines.append(f'tablestream_request_seconds_count{{route="{route}"}} {total}')
    lines.append("# HELP tablestream_queue_depth Jobs waiting in each RQ queue.")
    lines.append("# TYPE tablestream_queue_depth gauge")
    for queue, depth in sorted(queue_depths.items()):
        lines.append(f'tablestream_queue_depth{{queue="{queue}"}} {depth}')
    return "\n".join(lines) + "\n"
