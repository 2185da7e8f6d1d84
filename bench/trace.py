"""Where a slow request's time went: a bench-only tracer for the API's worker processes.

With ``BENCH_TRACE=DIR`` in the environment of ``python -m bench.api`` (its server
inherits it), the server records, per request, its wall time and where it went: the CPU
time of its own thread, the time in Redis calls, in garbage collections that ran during
it (any thread's: they stop every thread) and in snapshot writes. Each worker appends to
``DIR/trace-<pid>.jsonl`` and its collections to ``DIR/gc-<pid>.jsonl``; ``python -m
bench.trace DIR`` prints the tail of the distribution and what the slowest requests had
in common. Never on in a measured row: the tracing itself costs a few microseconds a
request.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

_local = threading.local()


def _slot() -> dict[str, float] | None:
    return getattr(_local, "slot", None)


def install(app: Any, folder: str) -> None:
    """Wrap ``app`` (a Flask app) and the process's Redis and snapshot calls."""
    import redis

    from events import redis_store
    from projections.snapshots import RedisSnapshots

    records: list[dict[str, Any]] = []
    gc_spans: list[tuple[float, float, int]] = []
    gc_started: dict[str, float] = {}

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_started["at"] = time.perf_counter()
        elif "at" in gc_started:
            gc_spans.append((gc_started.pop("at"), time.perf_counter(), int(info.get("generation", -1))))

    gc.callbacks.append(on_gc)

    def timed(owner: Any, name: str, bucket: str) -> None:
        real = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            slot = _slot()
            started, cpu = time.perf_counter(), time.thread_time()
            try:
                return real(*args, **kwargs)
            finally:
                if slot is not None:
                    spent = time.perf_counter() - started
                    slot[bucket] = slot.get(bucket, 0.0) + spent
                    if spent > slot.get(bucket + "_max", 0.0):
                        slot[bucket + "_max"] = spent
                        slot[bucket + "_max_call"] = " ".join(str(a)[:10] for a in args[1:3])  # type: ignore[assignment]
                    slot[bucket + "_cpu"] = slot.get(bucket + "_cpu", 0.0) + time.thread_time() - cpu

        setattr(owner, name, wrapper)

    timed(redis.Redis, "execute_command", "redis")
    timed(redis_store, "lean_command", "redis")  # the append, past execute_command
    timed(redis.client.Pipeline, "execute", "redis")
    timed(RedisSnapshots, "put", "snapshot")
    inner = app.wsgi_app

    def traced(environ: dict[str, Any], start_response: Any) -> Any:
        slot: dict[str, float] = {}
        _local.slot = slot
        cpu, started = time.thread_time(), time.perf_counter()
        try:
            return inner(environ, start_response)
        finally:
            ended = time.perf_counter()
            _local.slot = None
            records.append(
                {
                    "path": environ.get("PATH_INFO", "")[:40],
                    "start": started,
                    "wall": ended - started,
                    "cpu": time.thread_time() - cpu,
                    "threads": threading.active_count(),
                    **slot,
                }
            )

    app.wsgi_app = traced

    written = {"records": 0, "spans": 0}

    def dump() -> None:
        """Append what is new since the last dump (cheap: a dump runs inside the worker,
        and a slow one would show up as the very stall it is looking for)."""
        records_now, spans_now = len(records), len(gc_spans)
        with (Path(folder) / f"trace-{os.getpid()}.jsonl").open("a") as handle:
            for record in records[written["records"] : records_now]:
                handle.write(json.dumps(record) + "\n")
        with (Path(folder) / f"gc-{os.getpid()}.jsonl").open("a") as handle:
            for span in gc_spans[written["spans"] : spans_now]:
                handle.write(json.dumps(span) + "\n")
        written.update(records=records_now, spans=spans_now)

    lock = threading.Lock()

    def locked_dump() -> None:
        with lock:
            dump()

    atexit.register(locked_dump)

    def every_quarter_second() -> None:  # a worker may leave without running atexit; small dumps, short pauses
        while True:
            time.sleep(0.25)
            locked_dump()

    threading.Thread(target=every_quarter_second, daemon=True).start()


def summary(folder: str, path_prefix: str = "/v1/games/") -> str:
    records = []
    for file in sorted(Path(folder).glob("trace-*.jsonl")):
        spans = [json.loads(line) for line in file.with_name("gc-" + file.name[6:]).read_text().splitlines()]
        for line in file.read_text().splitlines():
            record = json.loads(line)
            ends = record["start"] + record["wall"]
            during = [(begin, end, gen) for begin, end, gen in spans if begin < ends and end > record["start"]]
            record["gc"] = sum(min(end, ends) - max(begin, record["start"]) for begin, end, _ in during)
            record["gc_gen2"] = any(gen == 2 for _, _, gen in during)
            records.append(record)
    records = [r for r in records if r["path"].startswith(path_prefix)]
    if not records:
        return "no traced requests"
    records.sort(key=lambda r: r["wall"])
    n = len(records)
    lines = [f"{n} requests under {path_prefix}"]
    for q in (50, 90, 99, 99.9):
        r = records[min(n - 1, int(q / 100 * n))]
        lines.append(f"p{q}: {r['wall'] * 1000:.2f} ms")
    tail = records[int(0.99 * n) :]
    body = records[: int(0.5 * n)]

    def mean(rows: list[dict[str, Any]], key: str) -> float:
        return sum(r.get(key, 0.0) for r in rows) / max(1, len(rows)) * 1000

    lines.append(f"{'':>22} {'wall':>7} {'cpu':>7} {'redis':>7} {'gc':>7} {'snapshot':>8} {'gen2 %':>7}")
    for label, rows in (("fastest half", body), ("slowest 1%", tail)):
        gen2 = sum(bool(r.get("gc_gen2")) for r in rows) / max(1, len(rows)) * 100
        lines.append(
            f"{label:>22} {mean(rows, 'wall'):7.2f} {mean(rows, 'cpu'):7.2f} {mean(rows, 'redis'):7.2f} "
            f"{mean(rows, 'gc'):7.2f} {mean(rows, 'snapshot'):8.2f} {gen2:7.1f}"
        )
    calls: dict[str, int] = {}
    for r in tail:
        if r.get("redis_max", 0) > 0.003:
            calls[r["redis_max_call"]] = calls.get(r["redis_max_call"], 0) + 1
    lines.append(f"slowest 1%: its slowest Redis call, when over 3 ms: {calls}")
    for label, rows in (("fastest half", body), ("slowest 1%", tail)):
        waiting = [r["wall"] - r["cpu"] - r.get("redis", 0.0) + r.get("redis_cpu", 0.0) for r in rows]
        lines.append(
            f"{label}: mean ms off its own CPU and not waiting on Redis (GIL, scheduling): "
            f"{sum(waiting) / len(waiting) * 1000:.2f}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(sys.argv[1], *(sys.argv[2:3])))
