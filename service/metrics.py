"""Prometheus metrics with ``prometheus_client``, in its multiprocess mode under gunicorn.

Under ``tablestream serve`` every gunicorn worker writes its counts to files in
``PROMETHEUS_MULTIPROC_DIR`` (set by the master before any worker imports
``prometheus_client``), and ``/metrics`` adds up the files of every worker of this host.
Prometheus scrapes each host and sums across hosts (docs/operations.md). Outside gunicorn
(tests, one process) each app counts in a registry of its own.

Counts a request makes cost no I/O. What is read at scrape, from Redis: each RQ queue's
depth and how far the projector is behind the feed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import prometheus_client
from flask import current_app
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
PROJECTOR_GROUP = "projector"  # workers.projector.GROUP (the HTTP layer does not import workers)
# Past this many entries behind, the projector's lag is reported as this many: counting
# further would make a scrape as slow as the projector is late.
LAG_COUNT_LIMIT = 10_000

# The _created series would interleave with each counter's samples and say nothing an
# alert needs.
prometheus_client.disable_created_metrics()


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class Metrics:
    """One app's metrics (one per process under gunicorn)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "tablestream_requests",
            "HTTP requests by route, method and status.",
            ("route", "method", "status"),
            registry=self.registry,
        )
        self.request_seconds = Histogram(
            "tablestream_request_seconds", "HTTP request latency.", ("route",), buckets=BUCKETS, registry=self.registry
        )
        self.appends = Counter("tablestream_appends", "Commands appended through the API.", registry=self.registry)
        self.conflicts = Counter(
            "tablestream_conflicts", "Actions refused for a stale version.", registry=self.registry
        )
        self.rate_local = Counter(
            "tablestream_rate_local",
            "Requests judged by the process's own rate counters, the Redis ones being away.",
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "tablestream_action_seconds",
            "Time to decide and append a player's action, by kind of game (actions appended, not duplicates).",
            ("kind",),
            buckets=BUCKETS,
            registry=self.registry,
        )


def metrics(app: Any = None) -> Metrics:
    """The metrics of ``app`` (the current Flask app when not given)."""
    extensions = (app or current_app).extensions
    found = extensions.get("tablestream-metrics")
    if found is None:
        found = extensions.setdefault("tablestream-metrics", Metrics())
    return found  # type: ignore[no-any-return]


def count(name: str, amount: int = 1) -> None:
    """``appends_total``, ``conflicts_total`` or ``rate_local_total``, the names these
    counters are exposed as."""
    counters = {
        "appends_total": metrics().appends,
        "conflicts_total": metrics().conflicts,
        "rate_local_total": metrics().rate_local,
    }
    counters[name].inc(amount)


def observe_request(route: str, method: str, status: int, seconds: float, app: Any = None) -> None:
    found = metrics(app)
    found.requests.labels(route, method, str(status)).inc()
    found.request_seconds.labels(route).observe(seconds)


def observe_action(kind: str, seconds: float) -> None:
    metrics().action_seconds.labels(kind).observe(seconds)


def exposition(platform: Any, app: Any = None) -> bytes:
    """The Prometheus text of this host (every worker's counts) or this app, and the
    gauges read now."""
    registry = CollectorRegistry(auto_describe=False)
    directory = multiprocess_dir()
    if directory is not None:
        multiprocess.MultiProcessCollector(registry, path=directory)
    else:
        registry.register(metrics(app).registry)
    registry.register(ReadAtScrape(platform))
    return generate_latest(registry)


class ReadAtScrape:
    """Gauges read from Redis when scraped, the same from every worker of every host."""

    def __init__(self, platform: Any) -> None:
        self.platform = platform

    def collect(self) -> Iterator[Metric]:
        depth = GaugeMetricFamily("tablestream_queue_depth", "Jobs waiting in each RQ queue.", labels=("queue",))
        for queue, waiting in sorted(self.platform.jobs.queue_depths().items()):
            depth.add_metric((queue,), waiting)
        yield depth
        entries, seconds = self._projector_lag()
        yield GaugeMetricFamily(
            "tablestream_projector_lag_events",
            "Feed entries the projector has not yet applied (delivered and unacknowledged, or not yet delivered).",
            value=entries,
        )
        yield GaugeMetricFamily(
            "tablestream_projector_lag_seconds",
            "Age of the oldest feed entry the projector has not yet applied; 0 when caught up.",
            value=seconds,
        )

    def _projector_lag(self) -> tuple[int, float]:
        store = self.platform.store
        feeds: list[str] = getattr(store, "feed_keys", list)()
        entries, oldest_ms = 0, None
        for feed in feeds:
            behind, first = feed_lag(store.redis, feed)
            entries += behind
            if first is not None:
                oldest_ms = first if oldest_ms is None else min(oldest_ms, first)
        seconds = 0.0 if oldest_ms is None else max(0.0, time.time() - oldest_ms / 1000)
        return entries, seconds


def feed_lag(client: Any, feed: str) -> tuple[int, int | None]:
    """How many entries of ``feed`` the projector has not applied, and the time (ms, from
    the stream id) of the oldest of them: its pending entries and those after its last
    delivered id (every entry when it has no group yet)."""
    try:
        groups = client.xinfo_groups(feed)
    except Exception:  # no feed yet: nothing to apply
        return 0, None
    group = next((g for g in groups if _text(g["name"]) == PROJECTOR_GROUP), None)
    pending, oldest = 0, None
    start = "-"
    if group is not None:
        pending = int(group["pending"])
        if pending:
            summary = client.xpending(feed, PROJECTOR_GROUP)
            oldest = _stream_ms(summary["min"])
        start = "(" + _text(group["last-delivered-id"])
    undelivered = client.xrange(feed, min=start, max="+", count=LAG_COUNT_LIMIT)
    if undelivered and oldest is None:
        oldest = _stream_ms(undelivered[0][0])
    return pending + len(undelivered), oldest


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _stream_ms(entry_id: Any) -> int:
    return int(_text(entry_id).split("-")[0])
