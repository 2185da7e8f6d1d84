"""The job queue kept by Redis Sentinel (``QUEUE_REDIS_URL=redis+sentinel://...``): kill the
queue's master with ``kill -9`` while a worker plays bot games, and once the sentinels have
promoted its replica the same worker goes on, on the new master; every game ends, and no
bot turn is played twice (each carries its own turn's command id, once).

The test starts its own queue master, a replica and three sentinels (quorum two), on free
ports, and stops them; the games live in the test's prefix on the shared Redis."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import pytest
import redis

from core.config import Config
from stores.platform import Platform
from tests.reliability.procs import RedisServer, Service, free_port, redis_executable, service_env, wait_for
from workers.jobs import bot_command_id
from workers.scheduling import RQScheduler

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

SERVICE = "tsqueue"
GAMES = [("fortress-royals", {"rounds": 1}, 2), ("stomping-grounds", {"turn_limit": 8}, 3), ("dragoborne", None, 2)]


class Sentinel:
    def __init__(self, directory: Path, master_port: int) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.config = directory / "sentinel.conf"
        self.config.write_text(
            f"port {self.port}\nbind 127.0.0.1\ndir {directory}\nlogfile {directory / 'sentinel.log'}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {master_port} 2\n"
            f"sentinel down-after-milliseconds {SERVICE} 1000\n"
            f"sentinel failover-timeout {SERVICE} 5000\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
        )
        self.process = subprocess.Popen(
            [redis_executable(), str(self.config), "--sentinel"], stdin=subprocess.DEVNULL, start_new_session=True
        )
        wait_for(lambda: self._answers(), 20, 0.05, "a sentinel")

    def _answers(self) -> bool:
        try:
            return bool(redis.Redis(port=self.port).ping())
        except redis.RedisError:
            return False

    def master_port(self) -> int | None:
        try:
            address = redis.Redis(port=self.port).sentinel_get_master_addr_by_name(SERVICE)
        except redis.RedisError:
            return None
        return int(address[1]) if address else None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def test_bot_games_go_on_after_the_queue_s_master_fails_over(
    real_redis: redis.Redis, redis_url: str, prefix: str, tmp_path: Path
) -> None:
    master, replica = RedisServer(tmp_path / "master"), RedisServer(tmp_path / "replica")
    master.start()
    replica.start()
    sentinels: list[Sentinel] = []
    worker = None
    try:
        replica.client().replicaof("127.0.0.1", master.port)
        wait_for(lambda: replica.client().info("replication")["master_link_status"] == "up", 20, 0.05, "the replica")
        sentinels = [Sentinel(tmp_path / f"sentinel-{i}", master.port) for i in range(3)]
        queue_url = f"redis+sentinel://{','.join(f'127.0.0.1:{s.port}' for s in sentinels)}/{SERVICE}"
        config = Config(redis_url=redis_url, queue_redis_url=queue_url, prefix=prefix)
        platform = Platform.from_config(config)
        platform.handler.scheduler = RQScheduler(platform)
        games = [
            platform.handler.create_game(kind, [{"bot": "greedy"}] * n, options).table.game_id
            for kind, options, n in GAMES
        ]
        env = service_env(redis_url, prefix, QUEUE_REDIS_URL=queue_url, TABLESTREAM_BOT_SECONDS="0.05")
        worker = Service(["worker"], env, tmp_path / "worker.log").start()
        wait_for(lambda: sum(platform.store.last_version(g) for g in games) > 60, 60, 0.1, "the bots playing")

        master.kill9()
        wait_for(lambda: all(s.master_port() == replica.port for s in sentinels), 60, 0.2, "the promotion")
        wait_for(
            lambda: all(platform.handler.load(g).status == "finished" for g in games),
            120,
            0.2,
            "every game ending on the promoted queue",
        )
        assert worker.alive(), worker.log()
    finally:
        if worker is not None:
            worker.stop()
        for sentinel in sentinels:
            sentinel.stop()
        replica.stop()
        if master.process is not None and master.process.poll() is None:
            master.stop()
    for game in games:
        taken = [e for e in platform.store.read(game) if e.type == "ActionTaken"]
        seed = platform.vault.seed(game)
        assert all(e.command_id == bot_command_id(seed, e.version - 1, e.seat) for e in taken), game
        assert max(Counter(e.command_id for e in taken).values()) == 1, f"{game}: a bot turn played twice"
