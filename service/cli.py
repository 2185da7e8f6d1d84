"""The ``tablestream`` command."""

from __future__ import annotations

import argparse
import functools
import gc
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from core.config import Config
from core.errors import Code
from service.cli_arguments import SEATS_NOTE, count, port


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    from service.verifier import attached

    given = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(attached([a for a in given if a != "--debug"]))  # --debug goes anywhere
    args.debug = "--debug" in given
    handler = COMMANDS.get(args.command)
    if handler is None:
        parser.error(f"unknown command {args.command}")
    try:
        if args.command not in OWN_REDIS:
            use_embedded_redis()
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # one line with a code, not a traceback (unless --debug)
        if args.debug:
            raise
        code, detail = explain(error)
        print(f"tablestream {args.command}: error ({code}): {detail}", file=sys.stderr)
        if code == Code.INTERNAL_ERROR:
            print("  (run again with --debug for the traceback)", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    """The ``tablestream`` command's parser, every subcommand registered (and its handler
    put in ``COMMANDS``)."""
    parser = argparse.ArgumentParser(
        prog="tablestream",
        description=(
            "An event-sourced card game service. Every command but serve and verify acts on the Redis "
            "of REDIS_URL or, without it, on the embedded one a `tablestream serve` runs in ./.tablestream "
            "(TABLESTREAM_DATA_DIR). " + SEATS_NOTE
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    parser.add_argument("--debug", action="store_true", help="on an error, show its traceback")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="run the API (and, on the embedded Redis, a worker and projector)",
        description="Serves the API and the web client with gunicorn. Without REDIS_URL it starts an embedded "
        "Redis in the data directory and, beside the API, an RQ worker and the projector.",
    )
    serve.add_argument("--host", default=None, help="address to bind (HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=port, default=None, help="port to bind, 1 to 65535 (PORT, default 8000)")
    serve.add_argument("--workers", type=count, default=None, help="API worker processes (default 2)")
    beside = serve.add_mutually_exclusive_group()
    beside.add_argument("--with-worker", action="store_true", help="also run an RQ worker and the projector")
    beside.add_argument("--no-worker", action="store_true", help="never run a worker beside the API")

    worker = commands.add_parser(
        "worker",
        help="run an RQ worker (bot turns, timers, replays, audits)",
        description="Works the job queues until stopped: bot turns, turn timers and clock flags first, then "
        "replays, audits, rebuilds and webhook deliveries.",
    )
    worker.add_argument("--fork", action="store_true", help="run each job in a forked work horse")
    worker.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    commands.add_parser(
        "projector",
        help="run the read-model projector",
        description="Applies the feed of events to the read models (lobby, lists, stats, players' games and "
        "inboxes, ratings) until stopped.",
    )
    projections = commands.add_parser(
        "projections",
        help="read-model maintenance",
        description="rebuild: build every read model again from the games' logs.",
    )
    projections.add_argument("action", choices=["rebuild"])
    bench = commands.add_parser(
        "bench",
        help="run the benchmarks (python -m bench; from a checkout)",
        description="Runs `python -m bench` from the checkout holding this directory; "
        "arguments after -- go to it (e.g. tablestream bench -- --quick).",
    )
    bench.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for python -m bench (--quick, --only ...)")

    from service import tooling_cli

    COMMANDS.update(tooling_cli.register(commands))
    from service import admin_cli

    COMMANDS.update(admin_cli.register(commands))
    return parser


def installed_version() -> str:
    """This package's version: as installed, else as the checkout's pyproject.toml says."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tablestream")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path

        try:
            with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as pyproject:
                return str(tomllib.load(pyproject)["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def shown_url(url: str) -> str:
    """A Redis URL as printed: its password, if any, masked."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


# Commands that start their own Redis or need none.
OWN_REDIS = frozenset({"serve", "verify", "witness", "bench"})


def use_embedded_redis() -> None:
    """Without ``REDIS_URL``, the embedded Redis of ``tablestream serve`` in this data
    directory (``./.tablestream`` or ``TABLESTREAM_DATA_DIR``), for this process and the
    ones it starts; ``NoRedis`` saying what to do when there is none."""
    from service.embedded import locate

    if os.environ.get("REDIS_URL"):
        return
    os.environ["REDIS_URL"] = locate(Config.from_env().data_dir)


def explain(error: BaseException) -> tuple[str, str]:
    """A command's error as a stable code and one sentence."""
    import redis

    from core.errors import CommandError
    from service.embedded import NoRedis

    if isinstance(error, CommandError):
        return error.code, error.detail
    if isinstance(error, NoRedis):
        return Code.UNAVAILABLE, str(error)
    if isinstance(error, redis.ConnectionError | redis.TimeoutError):
        return Code.UNAVAILABLE, f"cannot reach Redis at {os.environ.get('REDIS_URL', '?')}: {error}"
    if isinstance(error, redis.RedisError):
        return Code.UNAVAILABLE, f"Redis refused: {error}"
    if isinstance(error, FileNotFoundError):
        return Code.NOT_FOUND, f"no such file: {error.filename}"
    if isinstance(error, IsADirectoryError | PermissionError):
        return Code.BAD_REQUEST, f"cannot read {error.filename}: {error.strerror}"
    if isinstance(error, UnicodeDecodeError | ValueError):
        return Code.BAD_REQUEST, f"unreadable input: {error}"
    return Code.INTERNAL_ERROR, f"{type(error).__name__}: {error}"


def cmd_serve(args: argparse.Namespace) -> int:
    from service.embedded import EmbeddedRedis
    from service.supervisor import Program, Supervisor

    config = Config.from_env()
    config = replace(
        config,
        host=args.host or config.host,
        port=args.port if args.port is not None else config.port,
        api_workers=args.workers or config.api_workers,
    )
    refuse_a_taken_port(config.host, config.port)
    open_files_as_allowed()
    embedded = None
    if config.redis_url is None:
        embedded = EmbeddedRedis(config.data_dir)
        config = replace(config, redis_url=embedded.start())
        print(f"tablestream: embedded Redis with an fsynced append-only file in {embedded.data_dir}", flush=True)
    env = {**os.environ, "REDIS_URL": config.redis_url or ""}
    supervisor = Supervisor(None)
    if (embedded is not None or args.with_worker) and not args.no_worker:
        # Restarted when they die (service.supervisor); the worker's death first withdraws
        # its registration and frees its scheduler lock.
        supervisor = Supervisor.start(
            [
                Program("worker", [sys.executable, "-m", "service.cli", "worker"], env, forget_worker(config)),
                Program("projector", [sys.executable, "-m", "service.cli", "projector"], env),
            ]
        )
    print(f"tablestream: serving on http://{config.host}:{config.port}/  (Ctrl-C stops)", flush=True)
    owner = os.getpid()

    def forget_parent_processes() -> None:
        # A gunicorn worker is a fork of this process: it must neither own nor collect
        # the children of the master, or their finalizers run while it is being stopped.
        supervisor.forget()
        if embedded is not None:
            embedded.process = None

    try:
        run_gunicorn(config, after_fork=forget_parent_processes)
    finally:
        if os.getpid() == owner:  # not in a gunicorn worker (a fork of this process) leaving
            supervisor.stop()
            if embedded is not None:
                embedded.stop()
            print("tablestream: stopped", flush=True)
    return 0


def forget_worker(config: Config) -> Callable[[int], str | None]:
    """What the supervisor does once a worker process of ``serve`` has died (with all it
    forked): withdraw its registration and free the scheduler locks it held
    (``workers.census.forget_dead_worker``), on a platform made at the first death."""
    made: list[Any] = []

    def forget(pid: int) -> str | None:
        from stores.platform import Platform
        from workers.census import forget_dead_worker

        if not made:
            made.append(Platform.from_config(config))
        registrations, locks = forget_dead_worker(made[0], pid)
        if not registrations and not locks:
            return None
        return f"withdrew {registrations} worker registration(s) and freed {locks} scheduler lock(s)"

    return forget


def run_gunicorn(config: Config, after_fork: Callable[[], None] = lambda: None) -> None:
    from gunicorn.app.base import BaseApplication

    def post_fork(_server: Any, _worker: Any) -> None:
        after_fork()

    def post_worker_init(_worker: Any) -> None:
        # Ctrl-C in a terminal reaches every process of the group. The master answers it by
        # stopping its workers; a worker acting on the same keystroke too would get two
        # quit signals and fail in the middle of its own shutdown.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        settle_heap()

    def child_exit(_server: Any, worker: Any) -> None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)

    os.environ["REDIS_URL"] = config.redis_url or ""
    metrics_dir = metrics_directory()

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            settings = gunicorn_settings(config)
            settings.update(post_fork=post_fork, post_worker_init=post_worker_init, child_exit=child_exit)
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            from service.app import create_app
            from service.health import CENSUS
            from service.query import allowed
            from service.routes.meta import spec_text
            from workers.census import census
            from workers.wiring import platform_from_config

            platform = platform_from_config(config)
            # In the worker (the app is loaded after the fork): snapshots off the request's path.
            platform.tables.snapshot_in_background()
            app = create_app(config, platform)
            app.extensions[CENSUS] = functools.partial(census, platform)  # what /healthz counts workers with
            # The query parameters each route takes, read from the spec now, not by the first
            # requests that carry a query string (each of them would parse it: 0.3 s of CPU).
            allowed(spec_text())
            return app

    try:
        Server().run()
    finally:
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)


def gunicorn_settings(config: Config) -> dict[str, Any]:
    """The API server's gunicorn settings (its hooks aside)."""
    return {
        "bind": f"{config.host}:{config.port}",
        "workers": config.api_workers,
        # Evented: an open stream or a slow socket costs a greenlet, not a thread.
        "worker_class": "service.crowd_worker.CrowdWorker",
        "worker_connections": config.api_connections,
        "timeout": 120,
        "graceful_timeout": 5,
        "keepalive": 5,
        "accesslog": None,
        "loglevel": "warning",
        "reuse_port": own_listeners(config.port),
    }


def own_listeners(port: int) -> bool:
    """Whether each API worker listens on a socket of its own (``SO_REUSEPORT``), so that
    the kernel spreads new connections evenly over the workers. On one shared socket
    the worker that wakes first takes a whole burst: of 17 bursts of sixteen keep-alive
    connections (bench row 3's clients), two workers got 8:8 twice and 2:14 or worse five
    times (once 0:16), one worker doing the work of two while the other idled. Linux only
    (elsewhere the option does not spread connections), and never on port 0, where each
    worker would be given a port of its own."""
    return sys.platform == "linux" and hasattr(socket, "SO_REUSEPORT") and port != 0


def refuse_a_taken_port(host: str, port: int) -> None:
    """Fail at once, and plainly, when something already listens on ``host:port``. With
    each worker on a socket of its own (``own_listeners``), a second ``tablestream
    serve`` on the same port would otherwise bind beside the first and quietly take
    some of its new connections; without, gunicorn would retry for five seconds."""
    from core.errors import CommandError

    if port == 0:
        return
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        # As gunicorn binds: a closed connection's TIME_WAIT does not hold the port.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise CommandError(
                Code.UNAVAILABLE,
                f"cannot listen on {host}:{port}: {error.strerror or error}. Is another tablestream serve "
                "running there? Stop it, or choose another port (--port or PORT).",
            ) from error


def open_files_as_allowed() -> None:
    """Raise this process's limit of open files (inherited by its workers) to the most
    the system allows it: each connection is a file, and an evented worker holds
    thousands of them where a default soft limit is often 1,024."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            pass  # kept as it was; the connection caps still hold


def settle_heap() -> None:
    """Put everything a worker loaded to start (modules, card data, the app, the spec) out
    of the cycle collector's sight. A full collection otherwise walks all of it, holding
    every thread of the worker for tens of milliseconds (the p99 of bench.api's row 3 at
    half load); the objects stay counted by reference and are freed as usual."""
    gc.collect()
    gc.freeze()


def metrics_directory() -> str | None:
    """Where gunicorn's workers keep their metrics (prometheus_client's multiprocess mode),
    set before any of them imports prometheus_client. The operator's own
    ``PROMETHEUS_MULTIPROC_DIR`` is emptied of a previous run's files, as the library asks;
    else a directory of this run's, removed when it ends (returned)."""
    chosen = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if chosen:
        os.makedirs(chosen, exist_ok=True)
        for name in os.listdir(chosen):
            if name.endswith(".db"):
                os.remove(os.path.join(chosen, name))
        return None
    created = tempfile.mkdtemp(prefix="tablestream-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = created
    return created


def cmd_worker(args: argparse.Namespace) -> int:
    import redis

    from core.jobs import QueueUnavailable
    from workers.rq_worker import ForkingTurnWorker, TurnWorker
    from workers.scheduling import queue_names, sweep_stalled
    from workers.webhooks import sweep
    from workers.wiring import process_platform

    p = process_platform()
    # RQ's workers with fewer bookkeeping writes before a job (each waits for the disk on
    # a Redis that fsyncs every write): a bot's answer waits for them.
    kind = ForkingTurnWorker if args.fork else TurnWorker
    bots, work = queue_names(p)
    print(
        f"tablestream worker: Redis {shown_url(p.config.queue_url or '')}, prefix {p.config.prefix}; "
        f"serving {bots} (bot turns, turn timers, clock flags, open seats' expiry) and "
        f"{work} (replays, audits, rebuilds, webhook deliveries){' until they are empty' if args.burst else ''}",
        flush=True,
    )
    while True:
        try:
            swept = sweep_stalled(p)
            if swept:
                print(f"tablestream worker: enqueued again the jobs of {swept} games", flush=True)
            deliveries = sweep(p)  # those a killed worker left open
            if deliveries:
                print(f"tablestream worker: re-enqueued {deliveries} open webhook deliveries", flush=True)
            worker = kind(list(queue_names(p)), connection=p.queue_redis, maintenance_interval=15)
            worker.work(with_scheduler=True, logging_level="WARNING", burst=args.burst)
            return 0
        except (redis.ConnectionError, redis.TimeoutError, QueueUnavailable) as error:
            # The queue's Redis away (restarted, or failing over behind Sentinel): work again
            # once it answers, after a reconcile of what its loss may have taken.
            print(f"tablestream worker: the queue's Redis is unreachable ({error}); trying again in 1 s", flush=True)
            time.sleep(1.0)


def cmd_projector(_: argparse.Namespace) -> int:
    from workers.projector import Projector
    from workers.wiring import process_platform

    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    p = process_platform()
    projector = Projector(p)
    print(
        f"tablestream projector: Redis {shown_url(p.config.redis_url or '')}, prefix {p.config.prefix}; "
        f"applying the feed ({p.config.feed_partitions} partition(s)) to the read models as {projector.consumer} "
        "(lobby, lists, stats, players' games and inboxes, ratings)",
        flush=True,
    )
    try:
        projector.run(should_stop=lambda: bool(stopping))
    except KeyboardInterrupt:
        pass
    return 0


def cmd_projections(args: argparse.Namespace) -> int:
    from service.progress import progress
    from workers.projector import Projector
    from workers.wiring import process_platform

    with progress("rebuild", "games") as report:
        count = Projector(process_platform()).rebuild(report)
    print(f"read models rebuilt from {count} games")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """The benchmarks live in the checkout (they start servers and write bench/report.md
    there), not in the installed package: found from this directory upwards."""
    from pathlib import Path

    from core.errors import CommandError

    here = Path.cwd().resolve()
    root = next((d for d in (here, *here.parents) if (d / "bench" / "runner.py").is_file()), None)
    if root is None:
        raise CommandError(
            Code.NOT_FOUND, "the benchmarks run from a checkout of tablestream: cd into one (bench/ is not installed)."
        )
    rest = [a for a in args.rest if a != "--"]
    return subprocess.call([sys.executable, "-m", "bench", *rest], cwd=root)


COMMANDS = {
    "bench": cmd_bench,
    "serve": cmd_serve,
    "worker": cmd_worker,
    "projector": cmd_projector,
    "projections": cmd_projections,
}


if __name__ == "__main__":
    sys.exit(main())
