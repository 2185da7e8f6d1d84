"""A real Redis Cluster on 127.0.0.1 for tests: plain ``redis-server`` processes started,
joined with ``redis-cli --cluster create``, killed and stopped by the test itself.

Each node has a directory of its own under one temporary directory (its ``nodes-P.conf``,
its append-only files, fsynced on every write, and its logs), runs in a session of its own,
and listens on 127.0.0.1 only, on a port picked free (its cluster bus port, ``P + 10000``,
too). Nothing outside that directory and those processes is ever touched: not the Redis on
6379, not ``REDIS_URL``.

Directly::

    with LocalCluster().start(masters=3, replicas=1) as cluster:
        client = cluster.client()              # a redis.cluster.RedisCluster
        port = client.get_node_from_key("k").port
        cluster.kill(port)                     # SIGKILL one master
        new_port = cluster.wait_for_failover(port)

As a pytest fixture: ``local_cluster`` (one 3-master, 1-replica-each cluster for the whole
session) is defined here; make it visible where it is wanted by importing it into a
``conftest.py`` or a test module::

    from tests.localcluster import local_cluster  # noqa: F401  (a fixture)

    def test_something(local_cluster: LocalCluster) -> None:
        client = local_cluster.client()

A test that kills nodes should have a cluster of its own, since a session's cluster would
stay degraded for the tests after it: ``cluster_fixture`` makes a fixture of any scope and
shape, e.g. ``own_cluster = cluster_fixture(scope="function", name="own_cluster")`` at
module level. The fixtures fail (they never skip) when ``redis-server`` or ``redis-cli``
is not on PATH.
"""

from __future__ import annotations

import atexit
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
import redis
from redis.cluster import ClusterNode, RedisCluster

HOST = "127.0.0.1"
SLOTS = 16384
BUS_OFFSET = 10000  # Redis Cluster's bus listens on the node's port + 10000
PORT_RANGE = (20000, 32000)  # below the usual ephemeral range; the bus ports land in 30000-42000


class ClusterError(RuntimeError):
    """The cluster did not start, or did not reach the state waited for in time."""


@dataclass(frozen=True)
class Node:
    """One node as it is now: ``role`` is ``"master"``, ``"replica"``, or ``"down"`` (killed,
    exited, or not answering); ``master_port`` is the master a replica follows."""

    port: int
    pid: int
    role: str
    master_port: int | None = None


@dataclass
class _Process:
    port: int
    directory: Path
    popen: subprocess.Popen[bytes]

    def alive(self) -> bool:
        return self.popen.poll() is None


def _missing_tools() -> list[str]:
    return [tool for tool in ("redis-server", "redis-cli") if shutil.which(tool) is None]


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


def _pick_port(taken: set[int]) -> int:
    """A port whose bus port is free too. Another process may still take it before the node
    binds it; ``start`` then retries the node on another port."""
    for _ in range(1000):
        port = random.randrange(*PORT_RANGE)
        if port in taken or port + BUS_OFFSET in taken:
            continue
        if _bindable(port) and _bindable(port + BUS_OFFSET):
            return port
    raise ClusterError("no free port pair (P, P+10000) found on 127.0.0.1")


def _tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty)"


def _ask(port: int, *command: str | int, timeout: float = 1.0) -> Any:
    """One command to one node on a connection of its own, the reply left raw (bytes)."""
    conn = redis.Connection(host=HOST, port=port, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        conn.send_command(*command)
        return conn.read_response()
    finally:
        conn.disconnect()


def _info_fields(text: bytes) -> dict[str, str]:
    fields = {}
    for line in text.decode().splitlines():
        if ":" in line and not line.startswith("#"):
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


@dataclass(frozen=True)
class _View:
    """A line of ``CLUSTER NODES``: how the asking node sees one node."""

    node_id: str
    port: int
    flags: frozenset[str]
    master_id: str | None
    slots: int

    @property
    def failing(self) -> bool:
        return bool(self.flags & {"fail", "fail?", "handshake", "noaddr"})


def _cluster_nodes(port: int) -> list[_View]:
    views = []
    for line in _ask(port, "CLUSTER", "NODES").decode().splitlines():
        fields = line.split()
        if len(fields) < 8:
            continue
        address = fields[1].split("@")[0]
        slots = 0
        for spec in fields[8:]:
            if spec.startswith("["):  # a slot being migrated or imported
                continue
            low, _, high = spec.partition("-")
            slots += int(high or low) - int(low) + 1
        views.append(
            _View(
                node_id=fields[0],
                port=int(address.rsplit(":", 1)[1]),
                flags=frozenset(fields[2].split(",")),
                master_id=None if fields[3] == "-" else fields[3],
                slots=slots,
            )
        )
    return views


_LIVE: weakref.WeakSet[LocalCluster] = weakref.WeakSet()


@atexit.register
def _stop_all_at_exit() -> None:  # a safety net: an interrupted run leaves no node behind
    for cluster in list(_LIVE):
        cluster.stop()


class LocalCluster:
    """A Redis Cluster of ``redis-server`` processes on 127.0.0.1 (see the module docstring).

    ``node_timeout_ms`` is ``cluster-node-timeout``: a killed master's replica takes over
    about 1.5 to 2 times that after the kill. ``startup_timeout`` bounds ``start`` (and
    ``wait_for_failover`` by default). ``appendfsync``: each node's AOF fsync policy;
    ``everysec`` by default, since on a cluster an acknowledged write's safety is its copy
    on a replica (``WAIT``), and six nodes fsyncing every write share one disk with the
    rest of the test suite (a replica stalled on its disk answered a ``WAIT`` late in CI);
    the benchmark asks for ``always``, as its single Redis runs."""

    def __init__(
        self, node_timeout_ms: int = 2000, startup_timeout: float = 30.0, appendfsync: str = "everysec"
    ) -> None:
        self.node_timeout_ms = node_timeout_ms
        self.startup_timeout = startup_timeout
        self.appendfsync = appendfsync
        self.directory: Path | None = None
        self._processes: dict[int, _Process] = {}
        self._started_pids: list[int] = []
        self._replicas_of: dict[int, list[int]] = {}  # master port -> its replicas' ports, as last seen

    # -- starting -------------------------------------------------------------------------

    def start(self, masters: int = 3, replicas: int = 1) -> LocalCluster:
        """Start ``masters * (1 + replicas)`` nodes, join them into a cluster, and wait until
        every node sees all 16384 slots served and every replica is in sync with its master.
        On failure everything started so far is stopped and a ``ClusterError`` tells why,
        with the tail of every node's log. Returns the cluster itself."""
        if self._processes or self.directory is not None:
            raise ClusterError("this LocalCluster was already started; stop() it first")
        missing = _missing_tools()
        if missing:
            raise ClusterError(f"{' and '.join(missing)} not found on PATH: a local Redis Cluster needs both")
        _LIVE.add(self)
        self.directory = Path(tempfile.mkdtemp(prefix="localcluster-"))
        deadline = time.monotonic() + self.startup_timeout
        try:
            for _ in range(masters * (1 + replicas)):
                self._start_node()
            for process in list(self._processes.values()):
                self._wait_answering(process, deadline)
            self._create(replicas, deadline)
            self._wait_healthy(masters, replicas, deadline)
        except BaseException as error:
            message = f"{error}\n{self.logs()}" if isinstance(error, ClusterError) else None
            self.stop()
            if message is not None:
                raise ClusterError(message) from error
            raise
        return self

    def _start_node(self, port: int | None = None) -> _Process:
        """A new node on a free port, or (``port``) a node started again from its own
        directory, with its identity (``nodes-P.conf``) and its data."""
        assert self.directory is not None
        again = port is not None
        if port is None:
            port = _pick_port(set(self._processes) | {p + BUS_OFFSET for p in self._processes})
        directory = self.directory / f"node-{port}"
        directory.mkdir(exist_ok=again)
        command = [
            "redis-server",
            "--port", str(port),
            "--bind", HOST,
            "--cluster-enabled", "yes",
            "--cluster-config-file", f"nodes-{port}.conf",
            "--cluster-node-timeout", str(self.node_timeout_ms),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--dir", str(directory),
            "--logfile", str(directory / "redis.log"),
            "--repl-diskless-sync-delay", "0",  # a replica's first sync starts at once, not 5 s later
            "--shutdown-timeout", "1",  # SIGTERM waits at most 1 s for lagging replicas
        ]  # fmt: skip
        with (directory / "stdout.log").open("ab") as out:
            popen = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        process = _Process(port, directory, popen)
        self._processes[port] = process
        self._started_pids.append(popen.pid)
        return process

    def _wait_answering(self, process: _Process, deadline: float) -> None:
        """Wait for the node's PING; a node that lost its port to another process is started
        again on another port (a few times)."""
        for _ in range(5):
            while time.monotonic() < deadline:
                if not process.alive():
                    break
                try:
                    if _ask(process.port, "PING", timeout=0.5) in (b"PONG", "PONG"):
                        return
                except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                    pass
                time.sleep(0.02)
            else:
                raise ClusterError(f"redis-server on port {process.port} did not answer PING in time")
            log = _tail(process.directory / "redis.log", 50) + _tail(process.directory / "stdout.log", 50)
            if "in use" not in log:
                raise ClusterError(f"redis-server on port {process.port} exited ({process.popen.returncode})")
            del self._processes[process.port]
            process = self._start_node()
        raise ClusterError("redis-server kept finding its port taken")

    def _create(self, replicas: int, deadline: float) -> None:
        addresses = [f"{HOST}:{port}" for port in self._processes]
        command = ["redis-cli", "--cluster", "create", *addresses, "--cluster-replicas", str(replicas)]
        try:
            result = subprocess.run(
                [*command, "--cluster-yes"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=max(1.0, deadline - time.monotonic()),
            )
        except subprocess.TimeoutExpired as error:
            raise ClusterError(f"redis-cli --cluster create did not finish in time: {error.stdout!r}") from error
        if result.returncode != 0:
            output = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
            raise ClusterError(f"redis-cli --cluster create failed ({result.returncode}):\n{output}")

    def _wait_healthy(self, masters: int, replicas: int, deadline: float) -> None:
        last = "no node asked yet"
        while time.monotonic() < deadline:
            try:
                last = self._health(masters, replicas)
            except (redis.RedisError, OSError) as error:
                last = f"{type(error).__name__}: {error}"
            if not last:
                return
            time.sleep(0.05)
        raise ClusterError(f"the cluster did not come up within {self.startup_timeout} s: {last}")

    def _health(self, masters: int, replicas: int) -> str:
        """What is not yet as it should be after ``start`` ("" once all is)."""
        ports = list(self._processes)
        for port in ports:
            info = _info_fields(_ask(port, "CLUSTER", "INFO"))
            if info.get("cluster_state") != "ok" or info.get("cluster_slots_ok") != str(SLOTS):
                return (
                    f"node {port}: cluster_state {info.get('cluster_state')}, slots ok {info.get('cluster_slots_ok')}"
                )
            views = _cluster_nodes(port)
            if len(views) != len(ports) or any(v.failing for v in views):
                return f"node {port} sees {sorted((v.port, ','.join(sorted(v.flags))) for v in views)}"
        replicas_of: dict[int, list[int]] = {}
        for port in ports:
            replication = _info_fields(_ask(port, "INFO", "replication"))
            if replication.get("role") == "master":
                replicas_of.setdefault(port, [])
                continue
            if replication.get("master_link_status") != "up" or replication.get("master_sync_in_progress") != "0":
                return f"replica {port}: link {replication.get('master_link_status')}, not in sync yet"
            replicas_of.setdefault(int(replication["master_port"]), []).append(port)
        if len(replicas_of) != masters or any(len(r) != replicas for r in replicas_of.values()):
            return f"masters and their replicas are {replicas_of}"
        for master, followers in replicas_of.items():
            connected = _info_fields(_ask(master, "INFO", "replication")).get("connected_slaves")
            if connected != str(len(followers)):
                return f"master {master} has {connected} replicas connected, not {len(followers)}"
        self._replicas_of = replicas_of
        return ""

    # -- what it is ------------------------------------------------------------------------

    @property
    def nodes(self) -> list[Node]:
        """Every node started (and not replaced), as each answers ``ROLE`` now."""
        found = []
        for port, process in self._processes.items():
            role, master_port = "down", None
            if process.alive():
                try:
                    reply = _ask(port, "ROLE")
                    role = "master" if reply[0] == b"master" else "replica"
                    master_port = int(reply[2]) if role == "replica" else None
                except (redis.RedisError, OSError):
                    pass
            found.append(Node(port, process.popen.pid, role, master_port))
        return found

    def masters(self) -> list[Node]:
        return [node for node in self.nodes if node.role == "master"]

    def replicas(self) -> list[Node]:
        return [node for node in self.nodes if node.role == "replica"]

    @property
    def started_pids(self) -> list[int]:
        """The pid of every ``redis-server`` this cluster ever started, killed ones included."""
        return list(self._started_pids)

    @property
    def startup_nodes(self) -> list[ClusterNode]:
        """The nodes still running, for ``RedisCluster(startup_nodes=...)``."""
        return [ClusterNode(HOST, port) for port, process in self._processes.items() if process.alive()]

    @property
    def url(self) -> str:
        """``redis+cluster://127.0.0.1:p1,127.0.0.1:p2,...``: the running nodes, as a string."""
        return "redis+cluster://" + ",".join(f"{node.host}:{node.port}" for node in self.startup_nodes)

    def client(self, **kwargs: Any) -> RedisCluster:
        """A new ``RedisCluster`` on the running nodes (``kwargs`` go to it)."""
        return RedisCluster(startup_nodes=self.startup_nodes, **kwargs)

    def logs(self, lines: int = 15) -> str:
        """The tail of every node's log, for an error message."""
        parts = []
        for port, process in self._processes.items():
            state = "running" if process.alive() else f"exited {process.popen.returncode}"
            parts.append(f"--- node {port} (pid {process.popen.pid}, {state}) ---")
            parts.append(_tail(process.directory / "redis.log", lines))
            stdout = _tail(process.directory / "stdout.log", lines)
            if stdout not in ("(empty)", "(no log)"):
                parts.append(stdout)
        return "\n".join(parts)

    # -- failures --------------------------------------------------------------------------

    def kill(self, port: int) -> None:
        """SIGKILL the node on ``port`` (and reap it, so its pid is gone at once)."""
        process = self._processes[port]
        try:
            self._note_replicas()
        except (redis.RedisError, OSError):
            pass  # the topology seen last is kept
        if process.alive():
            try:
                os.killpg(process.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.popen.wait(timeout=10)

    def restart(self, port: int, timeout: float = 30.0) -> None:
        """Start the killed node on ``port`` again: it rejoins the cluster, and (its
        master's place taken while it was gone) follows the promoted replica. Returns once
        it is a replica with its link to its master up."""
        if self._processes[port].alive():
            raise ClusterError(f"the node on {port} is running")
        self._start_node(port)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                role = redis.Redis(host=HOST, port=port, socket_timeout=1).execute_command("ROLE")
                if role[0] == b"slave" and role[3] == b"connected":
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise ClusterError(f"the node on {port} did not rejoin as a connected replica\n{self.logs()}")

    def _note_replicas(self) -> None:
        replicas_of: dict[int, list[int]] = {}
        for node in self.nodes:
            if node.role == "master":
                replicas_of.setdefault(node.port, [])
            elif node.role == "replica" and node.master_port is not None:
                replicas_of.setdefault(node.master_port, []).append(node.port)
        self._replicas_of = replicas_of

    def wait_for_failover(self, old_master_port: int, timeout: float | None = None) -> int:
        """Wait until a replica of the (killed) master on ``old_master_port`` is a master
        serving slots, and every running node sees all 16384 slots served with the old
        master failed; return the new master's port."""
        candidates = self._replicas_of.get(old_master_port, [])
        if not candidates:
            raise ClusterError(f"node {old_master_port} had no replica to fail over to")
        timeout = self.startup_timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        last = "no node asked yet"
        while time.monotonic() < deadline:
            try:
                new_master, last = self._failed_over(old_master_port, candidates)
            except (redis.RedisError, OSError) as error:
                new_master, last = None, f"{type(error).__name__}: {error}"
            if new_master is not None:
                self._note_replicas()
                return new_master
            time.sleep(0.05)
        raise ClusterError(f"no failover of node {old_master_port} within {timeout} s: {last}\n{self.logs()}")

    def _failed_over(self, old: int, candidates: list[int]) -> tuple[int | None, str]:
        running = [port for port, process in self._processes.items() if process.alive()]
        promoted = [port for port in candidates if port in running and _ask(port, "ROLE")[0] == b"master"]
        if not promoted:
            return None, f"none of {candidates} is a master yet"
        new = promoted[0]
        for port in running:
            info = _info_fields(_ask(port, "CLUSTER", "INFO"))
            if info.get("cluster_state") != "ok" or info.get("cluster_slots_ok") != str(SLOTS):
                return (
                    None,
                    f"node {port}: cluster_state {info.get('cluster_state')}, slots ok {info.get('cluster_slots_ok')}",
                )
            views = {view.port: view for view in _cluster_nodes(port)}
            if old in views and views[old].slots and "fail" not in views[old].flags:
                return None, f"node {port} still sees {old} serving slots"
            if new not in views or "master" not in views[new].flags or not views[new].slots:
                return None, f"node {port} does not see {new} as a master serving slots yet"
        return new, ""

    # -- stopping --------------------------------------------------------------------------

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM every node still running, SIGKILL those still there after ``timeout``,
        reap them all, and remove the temporary directory. Safe to call again, and after a
        ``start`` that failed half-way."""
        processes = list(self._processes.values())
        for process in processes:
            if process.alive():
                try:
                    os.killpg(process.popen.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + timeout
        for process in processes:
            try:
                process.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.popen.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.popen.wait(timeout=10)
        self._processes.clear()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
        _LIVE.discard(self)

    def __enter__(self) -> LocalCluster:
        if not self._processes:
            self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()


def cluster_fixture(
    scope: str = "session", masters: int = 3, replicas: int = 1, name: str | None = None, **options: Any
) -> Callable[..., Iterator[LocalCluster]]:
    """A pytest fixture of ``scope`` that yields a started ``LocalCluster`` and stops it after;
    ``options`` go to ``LocalCluster``. Assign it at module level (in a conftest or a test
    module) under the name the tests ask for, or pass ``name``."""

    def fixture() -> Iterator[LocalCluster]:
        missing = _missing_tools()
        if missing:
            pytest.fail(
                f"{' and '.join(missing)} not found on PATH: the local Redis Cluster tests need both "
                "(install redis-server 7, which brings redis-cli)",
                pytrace=False,
            )
        cluster = LocalCluster(**options)
        try:
            cluster.start(masters=masters, replicas=replicas)
        except ClusterError as error:
            pytest.fail(f"the local Redis Cluster did not start: {error}", pytrace=False)
        try:
            yield cluster
        finally:
            cluster.stop()

    return pytest.fixture(scope=scope, name=name)(fixture)  # type: ignore[call-overload,no-any-return]


local_cluster = cluster_fixture(scope="session", name="local_cluster")
