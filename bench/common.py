"""Shared benchmark plumbing: a Redis to measure on, timing, and the result rows."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import redis


@dataclass
class Row:
    """One line of the report: our figure against a baseline measured in the same run."""

    name: str
    ours: float
    baseline: float
    unit: str
    target: str
    ratio: float
    meets: bool | None
    against: str = ""

    def line(self) -> str:
        return (
            f"{self.name:<72} {number(self.ours):>12} {number(self.baseline):>12} {self.unit:<10} "
            f"{self.ratio:>6.2f}  {self.target:<8} {self.verdict}"
        )

    @property
    def verdict(self) -> str:
        return {True: "meets", False: "MISSES", None: "-"}[self.meets]

    def markdown(self) -> str:
        cells = [
            self.name,
            number(self.ours),
            number(self.baseline),
            self.against or "",
            self.unit,
            f"{self.ratio:.2f}",
            self.target.replace("<", "&lt;").replace(">", "&gt;"),
            f"**{self.verdict}**" if self.meets is False else self.verdict,
        ]
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


HEADER = f"{'row':<72} {'ours':>12} {'baseline':>12} {'unit':<10} {'ratio':>6}  {'target':<8} verdict"
MARKDOWN_HEADER = (
    "| row | ours | baseline | baseline is | unit | ratio | target | verdict |\n|---|---:|---:|---|---|---:|---|---|"
)


def number(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def higher_is_better(name: str, ours: float, baseline: float, unit: str, at_least: float, against: str = "") -> Row:
    ratio = ours / baseline if baseline else float("inf")
    return Row(name, ours, baseline, unit, f">= {at_least}", ratio, ratio >= at_least, against)


def lower_is_better(name: str, ours: float, baseline: float, unit: str, at_most: float, against: str = "") -> Row:
    ratio = ours / baseline if baseline else float("inf")
    return Row(name, ours, baseline, unit, f"<= {at_most}", ratio, ratio <= at_most, against)


def figure(name: str, ours: float, baseline: float, unit: str, against: str = "") -> Row:
    """A row with no target: printed for scale."""
    ratio = ours / baseline if baseline else float("inf")
    return Row(name, ours, baseline, unit, "-", ratio, None, against)


def absolute(name: str, ours: float, unit: str, at_most: float, baseline: float, against: str = "") -> Row:
    """A row whose target is on the figure itself (a latency bound), with a baseline for scale."""
    ratio = ours / baseline if baseline else float("inf")
    return Row(name, ours, baseline, unit, f"<= {at_most:g} {unit}", ratio, ours <= at_most, against)


def redis_url() -> str | None:
    return os.environ.get("REDIS_URL") or None


@contextmanager
def bench_redis() -> Iterator[tuple[redis.Redis, str]]:
    """The Redis at REDIS_URL (keys under a fresh prefix, deleted after), else an embedded one."""
    with bench_redis_url() as (url, prefix):
        client = redis.Redis.from_url(url)
        yield client, prefix


@contextmanager
def bench_redis_url() -> Iterator[tuple[str, str]]:
    """Like ``bench_redis`` but yields the URL, for benchmarks that start servers of their own."""
    url = redis_url()
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    embedded = None
    if not url:
        import tempfile

        from service.embedded import EmbeddedRedis

        folder = tempfile.mkdtemp(prefix="tablestream-bench-")
        embedded = EmbeddedRedis(folder)
        url = embedded.start()
    try:
        yield url, prefix
    finally:
        delete_prefix(redis.Redis.from_url(url), prefix)
        if embedded is not None:
            embedded.stop()
            shutil.rmtree(folder, ignore_errors=True)


def describe_redis(client: redis.Redis, url: str) -> str:
    """Which Redis a row ran on, in words: its version, how it is reached and what it
    keeps on disk (``appendfsync always`` waits for the disk on every write)."""
    info = client.info("server")
    settings = {**client.config_get("appendonly"), **client.config_get("appendfsync"), **client.config_get("save")}
    where = "embedded (unix socket)" if "unix" in url or url.startswith("unix") else "at REDIS_URL (TCP)"
    if url.startswith("redis://127.0.0.1") and os.environ.get("REDIS_URL") != url:
        where = "of the bench's own (TCP)"
    if settings.get("appendonly") == "yes":
        persistence = f"appendonly yes, appendfsync {settings.get('appendfsync')}"
    else:
        persistence = "appendonly no" + (f", RDB save {settings['save']!r}" if settings.get("save") else ", no RDB")
    return f"Redis {info.get('redis_version')} {where}, {persistence}"


def delete_prefix(client: redis.Redis, prefix: str) -> None:
    """Delete our keys only: every key under ``prefix`` and the RQ queues named after it."""
    for pattern in (f"{prefix}*", f"rq:*{prefix}*"):
        batch = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 500:
                client.delete(*batch)
                batch = []
        if batch:
            client.delete(*batch)


def rate(count: int, work: Callable[[], None]) -> float:
    """Operations per second of ``work``, which performs ``count`` operations."""
    started = time.perf_counter()
    work()
    return count / (time.perf_counter() - started)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def machine_facts(client: redis.Redis | None = None) -> dict[str, str]:
    facts = {
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
    }
    try:
        with open("/proc/cpuinfo") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), None)
        if model:
            facts["cpu"] = model
    except OSError:
        pass
    if client is not None:
        facts["redis"] = str(client.info("server").get("redis_version"))
    try:
        facts["load average"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        pass
    return facts


def command(doc: str | None, run: Callable[[bool], list[Row]]) -> None:
    """A bench module's own command (``python -m bench.<module> [--quick]``): its rows, printed."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(HEADER)
    for row in run(args.quick):
        print(row.line(), flush=True)
