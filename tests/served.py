"""`tablestream serve` for the tests that need the real server: on an embedded Redis in
a data directory of the test's own, on a free port, stopped (with its worker, projector
and Redis) when the test is done. Used by the browser tests, the client tests and the
generated-client test."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
# Settings of the environment a served test must not inherit: it runs on its own Redis
# with the service's defaults, unless it sets one itself.
DROPPED = ("REDIS_URL", "QUEUE_REDIS_URL", "TABLESTREAM_RATE_PER_TOKEN", "TABLESTREAM_RATE_PER_ADDRESS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def healthy(base: str) -> bool:
    try:
        return requests.get(f"{base}/healthz", timeout=1).status_code == 200
    except requests.RequestException:
        return False


@contextmanager
def serving(data: Path, port: int | None = None, **settings: str) -> Iterator[str]:
    """The base URL of ``tablestream serve`` on an embedded Redis in ``data``, with these
    environment ``settings``; its output goes to ``<data>.log`` beside it."""
    port = port or free_port()
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env.update(TABLESTREAM_DATA_DIR=str(data), HOST="127.0.0.1", PORT=str(port), PYTHONUNBUFFERED="1", **settings)
    log_path = data.parent / f"{data.name}.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while not healthy(base):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"tablestream serve did not come up: {log_path.read_text()[-2000:]}")
                time.sleep(0.2)
            yield base
        finally:
            process.terminate()  # serve stops its worker, projector and embedded Redis on SIGTERM
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
                process.wait()
